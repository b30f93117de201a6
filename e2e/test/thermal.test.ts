import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CompanyDetails } from '@bahi/contracts';
import type { Page, Response } from 'playwright-core';
import { ACCOUNTS, login, recordPrints, SCREENSHOTS, startE2E, type E2E } from '../src/harness';

// Thermal receipts in Chromium: the manager sets the bill format to 80 mm in Setting, sells at the
// counter (the after-sale print is the 80 mm receipt), then prints the 58 mm receipt from the bill
// view's Print menu. The PDFs the screens fetched are read back with pdfinfo and pdftotext.

let e2e: E2E;
let page: Page;
let manager: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-thermal-e2e-'));
// Demo catalogue (services/inventory seed).
const P10 = { id: 10, barcode: '89012100010', name: 'Commercial Plywood 4mm', mrp: 520 };

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents'] });
  manager = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.manager })).body.token;
  for (let i = 0; i < 100; i++) {
    if ((await e2e.api<{ count: number }>('GET', '/getProductList', { token: manager })).body?.count >= 50) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  page = await e2e.newPage();
  await recordPrints(page.context());
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** pdfinfo of a PDF the page fetched: pages and page size in points. */
async function pdfOf(res: Response, name: string) {
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  const file = path.join(tmp, `${name}.pdf`);
  // The screen read the body as a blob, which Playwright may not keep: the same URL with the same token again.
  let bytes = await res.body().catch(() => Buffer.alloc(0));
  if (bytes.length === 0) {
    const again = await fetch(res.url(), { headers: { Authorization: res.request().headers()['authorization'] ?? '' } });
    expect(again.headers.get('content-type')).toBe('application/pdf');
    bytes = Buffer.from(await again.arrayBuffer());
  }
  fs.writeFileSync(file, bytes);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!;
  return {
    file,
    pages: Number(/Pages:\s+(\d+)/.exec(info)![1]),
    w: Number(size[1]),
    h: Number(size[2]),
    text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
  };
}

const billPdf = (format?: string) => (r: Response) => /\/api\/documents\/bill\/\d+/.test(r.url()) && (format ? r.url().includes(`format=${format}`) : !r.url().includes('format='));

test('the manager chooses 80 mm in Setting; a sale prints an 80 mm receipt; the bill view prints 58 mm from its menu', async () => {
  // Setting: the Bills and sharing section starts at A5, 30 days and the shipped templates.
  await page.locator('.sh-profile__button').click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'Setting' }).click();
  await page.waitForURL('**/setting');
  const section = page.getByTestId('bills-sharing-section');
  await section.waitFor();
  expect(await page.getByRole('group', { name: 'Bills and sharing' }).count()).toBe(1);
  expect(await page.getByLabel('Bill print format').inputValue()).toBe('a5');
  expect(await page.getByLabel('Share links expire after (days)').inputValue()).toBe('30');
  const docEn = page.getByLabel('Document message (English)');
  /** The section centred in the viewport, so the sticky top bar covers none of it. */
  const sectionShot = async (name: string) => {
    await section.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = (await section.boundingBox())!;
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), clip: { x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16 } });
  };
  expect(await docEn.inputValue()).toContain('{link}');
  expect(await page.getByLabel('Due reminder (Hindi)').inputValue()).toMatch(/[\u0900-\u097F]/);

  // An unknown placeholder: the server's sentence under that template, nothing saved.
  await page.getByLabel('Due reminder (Hindi)').fill('नमस्ते {naam}, कृपया {amount} का भुगतान करें: {link}');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('error-reminder.hi').filter({ hasText: 'unknown placeholder {naam}' }).waitFor();
  await page.getByTestId('alert').getByRole('button', { name: 'Dismiss' }).click();
  await sectionShot('thermal-setting-bad-template');
  expect((await e2e.api<CompanyDetails>('GET', '/getCompanyDetails', { token: manager })).body.bill_format).toBe('a5');

  // Back to the default for that one, an own English message, 80 mm and 15 days.
  await page.getByTestId('reset-reminder.hi').click();
  expect(await page.getByLabel('Due reminder (Hindi)').inputValue()).toBe('');
  const mine = 'Namaste {name}, your {document} from {company} for {amount}: {link}';
  await docEn.fill(mine);
  await page.getByLabel('Bill print format').selectOption('thermal-80');
  await page.getByLabel('Share links expire after (days)').fill('15');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('alert').filter({ hasText: 'Profile Updated.' }).waitFor();
  // The reset template came back as the shipped Hindi one.
  await page.waitForFunction(() => /[\u0900-\u097F]/.test((document.querySelector('textarea[name="template-reminder.hi"]') as HTMLTextAreaElement | null)?.value ?? ''));
  await page.getByTestId('alert').getByRole('button', { name: 'Dismiss' }).click();
  await page.getByTestId('alert').waitFor({ state: 'detached' });
  await sectionShot('thermal-setting-bills-and-sharing');
  const stored = (await e2e.api<CompanyDetails>('GET', '/getCompanyDetails', { token: manager })).body;
  expect(stored).toMatchObject({ bill_format: 'thermal-80', share_expiry_days: 15 });
  expect(stored.share_templates?.document.en).toBe(mine);
  expect(stored.share_templates?.reminder.hi).toMatch(/[\u0900-\u097F]/);

  // Sell one sheet of 520 to the walk-in customer, paid in full: the after-sale print is the 80 mm receipt.
  await page.goto('/');
  const entry = page.getByTestId('product-entry');
  await entry.waitFor();
  await entry.fill(P10.barcode);
  await entry.press('Enter');
  await page.getByTestId(`line-${P10.id}`).waitFor();
  await page.getByTestId('proceed-sell').click();
  await page.getByTestId('sell-panel').waitFor();
  await page.getByTestId('sell-paid').fill('520');
  const afterSale = page.waitForResponse(billPdf());
  await page.getByTestId('sell-confirm').click();
  await page.waitForURL(/\/salesList\/bill\/print\/\d+$/);
  const saleId = Number(page.url().split('/').pop());
  const r80 = await pdfOf(await afterSale, 'after-sale');
  expect(r80.pages).toBe(1);
  expect(r80.w).toBeCloseTo(226.77, 1); // 80 mm x 72 / 25.4
  for (const s of [`Bill No: ${saleId}`, P10.name, '1.0', '520.00', 'Total ₹520.00', 'Paid ₹520.00', 'Due ₹0']) expect(r80.text).toContain(s);
  await page.waitForFunction(() => (window as unknown as { __prints?: number }).__prints === 1);

  // The bill view: Print's menu names the default and offers the others; 58 mm prints from it.
  await page.getByTestId('bill').waitFor();
  await page.getByTestId('print-menu').click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  expect((await menu.getByRole('menuitem').allTextContents()).map((s) => s.trim())).toEqual(['A5 bill', '80 mm receiptdefault', '58 mm receipt']);
  await e2e.shot(page, 'thermal-bill-print-menu');
  const r58Res = page.waitForResponse(billPdf('thermal-58'));
  await menu.getByRole('menuitem', { name: '58 mm receipt' }).click();
  const r58 = await pdfOf(await r58Res, 'bill-58');
  await page.waitForFunction(() => (window as unknown as { __prints?: number }).__prints === 2);
  expect(r58.pages).toBe(1);
  expect(r58.w).toBeCloseTo(164.41, 1); // 58 mm x 72 / 25.4
  for (const s of [`Bill No: ${saleId}`, 'Total ₹520.00', 'Due ₹0']) expect(r58.text).toContain(s);
  // The receipt as it prints, to look at.
  execFileSync('pdftoppm', ['-r', '200', '-png', '-singlefile', r58.file, path.join(SCREENSHOTS, 'thermal-58-receipt')]);
  expect(fs.existsSync(path.join(SCREENSHOTS, 'thermal-58-receipt.png'))).toBe(true);

  // The main Print button prints the company's default (80 mm) again.
  const again = page.waitForResponse(billPdf());
  await page.getByTestId('print-bill').click();
  expect((await pdfOf(await again, 'again')).w).toBeCloseTo(226.77, 1);
}, 180_000);
