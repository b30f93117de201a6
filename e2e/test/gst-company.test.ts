import type { Page } from 'playwright-core';
import { ACCOUNTS, login, startE2E, type E2E } from '../src/harness';

// The GST portal's example GSTIN (Maharashtra, 27); packages/gst/test/gstin.test.ts works out its check character V.
const GSTIN = '27AAPFU0939F1ZV';

let e2e: E2E;

beforeAll(async () => {
  // Inventory too: the turnover setting changes which HSN codes a product may have.
  e2e = await startE2E({ services: ['inventory'] });
}, 180_000);

afterAll(async () => {
  await e2e?.stop();
});

async function openSetting(page: Page) {
  await page.locator('.sh-profile__button').click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'Setting' }).click();
  await page.waitForURL('**/setting');
  await page.getByLabel('Tax mode').waitFor();
}

test('a manager switches the company to GST mode in Setting with the keyboard; a wrong GSTIN shows the server sentence', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await openSetting(page);

  const gst = page.getByTestId('gst-section');
  expect(await page.getByRole('group', { name: 'GST', exact: true }).count()).toBe(1);
  expect(await page.getByLabel('Tax mode').inputValue()).toBe('simple');
  expect(await page.getByLabel(/^GSTIN/).inputValue()).toBe('');
  expect(await page.getByLabel('Invoice prefix').inputValue()).toBe('DT');
  await gst.getByText(/Invoice numbers: DT\/\d{2}-\d{2}\/0001/).waitFor();

  // Keyboard only: Tab from the UPI field reaches Tax mode, then GSTIN, then (past the read-only state) the prefix.
  await page.getByLabel('UPI Id').focus();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('tax_mode');
  await page.keyboard.press('ArrowDown'); // Simple -> GST regular
  expect(await page.getByLabel('Tax mode').inputValue()).toBe('gst');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('gstin');

  // A mistyped check character: the server's sentence under the field, nothing saved.
  await page.keyboard.type('27aapfu0939f1za');
  expect(await page.getByLabel(/^GSTIN/).inputValue()).toBe('27AAPFU0939F1ZA');
  expect(await page.getByLabel('State (from GSTIN)').inputValue()).toBe('Maharashtra (27)');
  await page.keyboard.press('Enter'); // submits the profile form
  const error = page.getByTestId('gstin-error');
  await error.waitFor();
  const sentence = (await error.textContent())?.trim() ?? '';
  expect(sentence).toBe("GSTIN: The check character (15th) is wrong: for 27AAPFU0939F1Z it should be 'V', not 'A'; the GSTIN is mistyped somewhere.");
  expect(await page.getByLabel(/^GSTIN/).getAttribute('aria-invalid')).toBe('true');
  await page.getByTestId('alert').filter({ hasText: 'check character' }).waitFor();
  await e2e.shot(page, 'gst-setting-wrong-gstin');
  const token = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.manager })).body.token;
  expect((await e2e.api<any>('GET', '/getCompanyDetails', { token })).body).toMatchObject({ tax_mode: 'simple', gstin: null });

  // A wrong state code names the state.
  await page.getByLabel(/^GSTIN/).fill('00AAPFU0939F1ZV');
  expect(await error.count()).toBe(0); // editing clears the old sentence
  await page.getByLabel(/^GSTIN/).press('Enter');
  await page.getByTestId('gstin-error').filter({ hasText: 'State code 00 is not a GST state code.' }).waitFor();

  // The right GSTIN and a prefix of our own, saved with Enter.
  await page.getByLabel(/^GSTIN/).fill(GSTIN);
  await page.getByLabel(/^GSTIN/).press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('gst_state');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('invoice_prefix');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('dt');
  await page.keyboard.press('Enter');
  await page.getByTestId('alert').filter({ hasText: 'Profile Updated.' }).waitFor();
  expect(await page.getByTestId('gstin-error').count()).toBe(0);

  // After a reload the page shows what the server stored.
  await page.reload();
  await page.getByLabel('Tax mode').waitFor();
  await page.waitForFunction(() => (document.querySelector('input[name=gstin]') as HTMLInputElement | null)?.value !== '');
  expect(await page.getByLabel('Tax mode').inputValue()).toBe('gst');
  expect(await page.getByLabel(/^GSTIN/).inputValue()).toBe(GSTIN);
  expect(await page.getByLabel('State (from GSTIN)').inputValue()).toBe('Maharashtra (27)');
  expect(await page.getByLabel('Invoice prefix').inputValue()).toBe('DT');
  await e2e.shot(page, 'gst-setting-saved');
  expect((await e2e.api<any>('GET', '/getCompanyDetails', { token })).body).toMatchObject({ tax_mode: 'gst', gstin: GSTIN, state_code: '27', invoice_prefix: 'DT' });

  // Turnover above Rs 5 crore (aato_above_5cr): 6-digit HSN codes from then on; kept after a reload.
  expect(await page.getByLabel('Turnover last year').inputValue()).toBe('upto');
  await page.getByLabel('Turnover last year').selectOption('above');
  await gst.getByText('HSN codes of at least 6 digits on products').waitFor();
  await page.getByLabel('Invoice prefix').press('Enter');
  await page.getByTestId('alert').filter({ hasText: 'Profile Updated.' }).last().waitFor();
  await page.reload();
  await page.getByLabel('Turnover last year').waitFor();
  await page.waitForFunction(() => (document.querySelector('select[name=aato_above_5cr]') as HTMLSelectElement | null)?.value === 'above');
  expect((await e2e.api<any>('GET', '/getCompanyDetails', { token })).body).toMatchObject({ aato_above_5cr: true });
  // Inventory now asks 6 digits: a 4-digit HSN is refused with the sentence.
  // The demo catalogue's categories (inventory seeds them at start).
  let category: { id: number }[] = [];
  for (let i = 0; i < 100 && !category.length; i++) {
    category = (await e2e.api<any>('GET', '/addProductPageDetails', { token })).body?.category ?? [];
    if (!category.length) await new Promise((r) => setTimeout(r, 300));
  }
  const four = await e2e.api<any>('POST', '/createNewProduct', { token, body: { catagory: category[0]!.id, brand_name: 'Acme', name: 'Steel Bottle', mrp: '590', cp: '400', unit: 'pcs', tax: '18', hsn_code: '7323' } });
  expect([four.status, four.body.message]).toEqual([400, "HSN code '7323' needs at least 6 digits: the company's turnover is above Rs 5 crore (Notification 78/2020-Central Tax)."]);
  await e2e.shot(page, 'gst-setting-turnover');

  // Composition says what its bills will say.
  await page.getByLabel('Tax mode').selectOption('composition');
  await gst.getByText('Composition taxable person, not eligible to collect tax on supplies').waitFor();
  await e2e.shot(page, 'gst-setting-composition');
});
