import { ACCOUNTS, login, startE2E, type E2E, managerWithCatalogue } from '../src/harness';
import type { Page } from 'playwright-core';

// GST mode, products: a manager sets a product's GST rate, HSN code and "Price includes tax" in the
// catalogue with the keyboard; the server's refusals show under the field they are about.
let e2e: E2E;
let page: Page;
let manager: string;

const details = async (id: number) => (await e2e.api<{ product: Record<string, unknown> }>('GET', `/getProductDetails?id=${id}`, { token: manager })).body.product;

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory'] });
  manager = await managerWithCatalogue(e2e);
  page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
}, 180_000);
afterAll(() => e2e?.stop());

const isFocused = (loc: ReturnType<Page['getByLabel']>) => loc.evaluate((el) => el === document.activeElement);
const taxField = () => page.getByLabel('Tax %');
const hsnField = () => page.getByLabel('HSN code');
const includes = () => page.getByRole('checkbox', { name: 'Price includes tax' });

/** Opens the product, clicks Edit Details, and types rate and HSN, then moves to the checkbox with Tab. */
async function editWithKeyboard(id: number, rate: string, hsn: string) {
  await page.goto(`/productItem/${id}`);
  await page.getByRole('button', { name: 'Edit Details' }).click();
  await taxField().focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(rate);
  await page.keyboard.press('Tab');
  expect(await isFocused(hsnField())).toBe(true);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(hsn);
  await page.keyboard.press('Tab');
  expect(await isFocused(includes())).toBe(true);
}

describe('GST fields of a product in the catalogue', () => {
  it('a manager edits rate, HSN and price-includes-tax with the keyboard and sees them saved', async () => {
    const id = 1;
    await page.goto(`/productItem/${id}`);
    await includes().waitFor();
    // A demo product starts with its price including tax, and the details show it.
    expect(await includes().isChecked()).toBe(true);
    expect(await includes().isDisabled()).toBe(true);
    await e2e.shot(page, 'gst-product-details');

    await editWithKeyboard(id, '12', '44121000');
    await page.keyboard.press('Space');
    expect(await includes().isChecked()).toBe(false);
    // Enter in a text field submits the form.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByTestId('alert').filter({ hasText: 'Product saved.' }).waitFor();
    // After the reload the form shows what the server stored.
    await page.getByRole('button', { name: 'Edit Details' }).waitFor();
    expect(await taxField().inputValue()).toBe('12');
    expect(await hsnField().inputValue()).toBe('44121000');
    expect(await includes().isChecked()).toBe(false);
    expect(await details(id)).toMatchObject({ tax_percent: '12', hsn_code: '44121000', price_includes_tax: false });
    await e2e.shot(page, 'gst-product-saved');
  });

  it('the add page offers the fields, price includes tax ticked by default, and creates the product with them', async () => {
    await page.goto('/productItem/addProducts');
    await page.getByLabel('Category').selectOption({ label: 'Plywood' });
    await page.getByLabel('Brand').fill('Century');
    await page.getByLabel('Name').fill('Century Sainik 12mm');
    await page.getByLabel('MRP').fill('1500');
    await page.getByLabel('Cost Price').fill('1200');
    await page.getByLabel('Unit').fill('sheet');
    expect(await includes().isChecked()).toBe(true);
    await taxField().fill('28');
    await hsnField().fill('441231');
    await includes().focus();
    await page.keyboard.press('Space');
    await e2e.shot(page, 'gst-product-add');
    await page.getByRole('button', { name: 'Add Product' }).click();
    await page.waitForURL(/\/productItem\/\d+$/);
    const id = Number(page.url().split('/').pop());
    expect(await details(id)).toMatchObject({ product_name: 'Century Sainik 12mm', tax_percent: '28', hsn_code: '441231', price_includes_tax: false });
  });

  it('the server\'s refusal shows under the field it is about, and nothing is saved', async () => {
    const id = 2;
    const before = await details(id);
    await editWithKeyboard(id, '120', '4412');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    const err = page.getByRole('alert').filter({ hasText: 'tax must be a percent between 0 and 100.' }).first();
    await err.waitFor();
    expect(await taxField().getAttribute('aria-invalid')).toBe('true');
    await e2e.shot(page, 'gst-product-rate-refused');
    // Typing in the field clears its message.
    await taxField().fill('18');
    expect(await taxField().getAttribute('aria-invalid')).toBeNull();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await details(id)).toMatchObject({ tax_percent: before.tax_percent, hsn_code: before.hsn_code });
  });

  it('in GST mode a rate outside the GST list and a 5-digit HSN are refused inline; 18 % and 4412 are saved', async () => {
    const company = (await e2e.api<Record<string, unknown>>('GET', '/getCompanyDetails', { token: manager })).body;
    const set = await e2e.api('POST', '/setCompanyDetails', {
      token: manager,
      body: { id: company.id, name: company.name, add1: company.add1, add2: company.add2, mob1: company.mob1, mob2: company.mob2, email: company.email, tax_mode: 'gst', gstin: '27AAPFU0939F1ZV', invoice_prefix: 'DM' },
    });
    expect(set.status).toBe(200);
    expect((await e2e.api<{ tax_mode: string }>('GET', '/getCompanyDetails', { token: manager })).body.tax_mode).toBe('gst');

    const id = 3;
    await editWithKeyboard(id, '13', '44121');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: '13 % is not a GST rate (allowed: 0, 0.1, 0.25, 1, 1.5, 3, 5, 6, 7.5, 12, 18, 28, 40).' }).first().waitFor();
    expect(await taxField().getAttribute('aria-invalid')).toBe('true');
    await e2e.shot(page, 'gst-product-gst-rate-refused');

    await taxField().fill('18');
    await hsnField().press('Enter');
    await page.getByRole('alert').filter({ hasText: "HSN code '44121' must be 4, 6 or 8 digits." }).first().waitFor();
    expect(await hsnField().getAttribute('aria-invalid')).toBe('true');
    await e2e.shot(page, 'gst-product-hsn-refused');

    await hsnField().fill('4412');
    await hsnField().press('Enter');
    await page.getByTestId('alert').filter({ hasText: 'Product saved.' }).waitFor();
    expect(await details(id)).toMatchObject({ tax_percent: '18', hsn_code: '4412', price_includes_tax: true });
  });
});
