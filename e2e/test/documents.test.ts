// Printable documents end to end: sales, ledger and inventory answer the documents service's
// requests, documents renders the PDFs in Chromium, the gateway serves them under /api/documents.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack, type Stack } from '@bahi/devstack';
import { type Browser, type Page } from 'playwright-core';
import { ACCOUNTS, launchChromium, login, recordPrints, SCREENSHOTS } from '../src/harness';

const ROOT = path.resolve(__dirname, '..', '..');
let stack: Stack;
let manager: string;
let staff: string;
let customerId: number;
let saleId: number;
let paymentId: number;
let browser: Browser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-docs-'));

// Demo catalogue (services/inventory seed).
const P10 = { id: 10, barcode: '89012100010', name: 'Commercial Plywood 4mm' };
const CUSTOMER = { name: 'Harish Mehta', mobile: '9812300045' };

async function api<T = any>(method: string, p: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${stack.gatewayUrl}/api${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** GET /api/documents/...: the raw reply and, for a PDF, its text through pdftotext. */
async function pdf(p: string, token: string | undefined = manager) {
  const res = await fetch(`${stack.gatewayUrl}/api/documents/${p}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const bytes = Buffer.from(await res.arrayBuffer());
  let text = '';
  if (res.status === 200) {
    const file = path.join(tmp, `${p.replace(/[^a-z0-9]+/gi, '_')}.pdf`);
    fs.writeFileSync(file, bytes);
    // DOCS_DUMP=/some/dir keeps the PDFs to look at.
    if (process.env.DOCS_DUMP) fs.copyFileSync(file, path.join(process.env.DOCS_DUMP, path.basename(file)));
    text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', disposition: res.headers.get('content-disposition') ?? '', bytes, text };
}

const apiLogin = async (who: { email: string; password: string }) => (await api<{ token: string }>('POST', '/loginReact', undefined, who)).body.token;

beforeAll(async () => {
  for (const f of ['shell/dist/index.html', 'frontends/sales/dist/mf-manifest.json', 'frontends/payments/dist/mf-manifest.json', 'frontends/catalogue/dist/mf-manifest.json', ...['identity', 'inventory', 'ledger', 'sales', 'documents'].map((s) => `services/${s}/dist/main.js`)]) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first.`);
  }
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // The admin's password is given, as in production, so its first login is not a forced change.
  stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'ledger', 'sales', 'documents'], env: { BAHI_ADMIN_PASSWORD: ACCOUNTS.admin.password }, logs: 'files' });
  manager = await apiLogin(ACCOUNTS.manager);
  staff = await apiLogin(ACCOUNTS.staff);
  // The demo catalogue is seeded in the background once identity answers.
  for (let i = 0; i < 100; i++) {
    if ((await api('GET', '/getProductList', manager)).body?.count >= 50) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  const added = await api('POST', '/clients/addClient', manager, {
    mobile_no: CUSTOMER.mobile, name: CUSTOMER.name, address_line_1: '5 Hill Road', address_line_2: '', city_or_district: 'Mumbai', state: 'MH', country: 'India', postal_code: '400050',
  });
  customerId = added.body.id;
  // 2 sheets of 520 = 1,040, 100 paid: 940 due.
  expect((await api('GET', `/addProductIntoCart/${encodeURIComponent(`2*${P10.barcode}`)}`, staff)).status).toBe(200);
  const sale = await api('POST', '/MAKE_SALE', staff, { clientId: customerId, cart_no: 1, paid: '100', dueDate: '2030-01-31', date: '2030-01-02' });
  expect(sale.status).toBe(200);
  saleId = sale.body.saleId;
  const pay = await api('POST', '/salesDuePayment', staff, { client_id: customerId, amount: '240.5', nextDD: '2030-02-15' });
  expect(pay.body).toEqual({ done: true, paymentId: expect.any(Number) });
  paymentId = pay.body.paymentId;
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await stack?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('the bill of a sale made through the API is a PDF with the customer and the total', async () => {
  const r = await pdf(`bill/${saleId}`, staff);
  expect(r.status).toBe(200);
  expect(r.type).toMatch(/^application\/pdf/);
  expect(r.disposition).toBe(`inline; filename="bill-${saleId}.pdf"`);
  expect(r.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
  expect(r.text).toContain(CUSTOMER.name);
  expect(r.text).toContain(P10.name);
  expect(r.text).toContain('₹1,040.00');
  expect(r.text).toMatch(/Due\s+₹940/);
  // Save downloads the same document.
  const saved = await pdf(`bill/${saleId}?download=1`, staff);
  expect(saved.disposition).toBe(`attachment; filename="bill-${saleId}.pdf"`);
}, 60_000);

test('the money receipt of a payment shows the amount and the dues before and after it', async () => {
  const r = await pdf(`receipt/${paymentId}`);
  expect(r.status).toBe(200);
  expect(r.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
  expect(r.text).toContain(CUSTOMER.name);
  expect(r.text).toContain('₹240.50');
  expect(r.text).toContain('₹940.00');
  expect(r.text).toContain('₹699.50');
}, 60_000);

test("the customer's statement lists the sale and the payment, oldest first", async () => {
  const r = await pdf(`statement/${customerId}`);
  expect(r.status).toBe(200);
  expect(r.text).toContain(CUSTOMER.name);
  const sale = r.text.indexOf('Sale');
  const payment = r.text.indexOf('Payment Received');
  expect(sale).toBeGreaterThan(-1);
  expect(payment).toBeGreaterThan(sale);
  expect(r.text).toContain('₹699.50');
}, 60_000);

test('labels of a demo product and the stock book of a category', async () => {
  const labels = await pdf(`labels/${P10.id}?count=2&qty=1`);
  expect(labels.status).toBe(200);
  expect(labels.text).toContain(P10.name);
  expect(labels.text).toContain(P10.barcode);
  const cats = (await api<{ cat: { id: number; name: string }[] }>('GET', '/getCategoryBrand', manager)).body.cat;
  const plywood = cats.find((c) => c.name === 'Plywood')!;
  const book = await pdf(`stockbook?category=${plywood.id}&cost=1`);
  expect(book.status).toBe(200);
  expect(book.text).toContain('Plywood');
  expect(book.text).toContain(P10.name);
  expect(book.text).toContain('Greenply Club 18mm MR Plywood');
}, 60_000);

test('documents of unknown ids, of another company, or without a token are refused', async () => {
  expect((await pdf(`bill/${saleId}`, '')).status).toBe(401);
  expect((await pdf('bill/99999')).status).toBe(404);
  expect((await pdf('labels/99999')).status).toBe(404);
  expect((await pdf('stockbook')).status).toBe(400);
  // A new company sees none of Demo Traders' documents.
  const admin = await apiLogin(ACCOUNTS.admin);
  const co = await api('POST', '/admin/createCompany', admin, { cName: 'Other Shop', cAdd: '1 Lane', cMob: '9822000001', mName: 'Ojas', mEmail: 'ojas@other.local' });
  expect(co.status).toBeLessThan(300);
  // The manager's password is temporary: changed first, as the shell makes them do.
  const first = await apiLogin({ email: 'ojas@other.local', password: co.body.managerPassword });
  const pw = { current_password: co.body.managerPassword, new_password: 'ojas-own-pass', re_type_new_password: 'ojas-own-pass' };
  expect((await api('POST', '/manage/profile/edit/updatePassword', first, pw)).status).toBe(200);
  const other = await apiLogin({ email: 'ojas@other.local', password: 'ojas-own-pass' });
  expect(other).toBeTruthy();
  expect((await pdf(`bill/${saleId}`, other)).status).toBe(404);
  expect((await pdf(`receipt/${paymentId}`, other)).status).toBe(404);
  expect((await pdf(`statement/${customerId}`, other)).status).toBe(404);
  expect((await pdf(`labels/${P10.id}`, other)).status).toBe(404);
}, 60_000);

// The screens' buttons: each fetches the PDF with the session's bearer token (a plain link would
// carry none) and opens it as a blob URL.
describe('print buttons in the browser', () => {
  let page: Page;

  beforeAll(async () => {
    const ctx = await browser.newContext({ baseURL: stack.gatewayUrl, viewport: { width: 1366, height: 800 }, acceptDownloads: true });
    await recordPrints(ctx);
    page = await ctx.newPage();
    page.on('pageerror', (err) => console.error(`[browser] ${err.message}`));
    await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  }, 60_000);

  /** Runs `act` and checks the PDF reply it caused: 200, application/pdf, sent with the token. */
  async function pdfFetched(urlPart: string, act: () => Promise<unknown>) {
    const [res] = await Promise.all([page.waitForResponse((r) => r.url().includes(`/api/documents/${urlPart}`), { timeout: 30_000 }), act()]);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/pdf/);
    expect(await res.request().headerValue('authorization')).toMatch(/^Bearer .+/);
    return res;
  }
  const printFrame = () => page.locator('iframe[data-testid="print-frame"][src^="blob:"]').last().waitFor({ state: 'attached' });

  test('bill view: Save downloads, Open In New Tab opens, Print prints the bill PDF', async () => {
    await page.goto(`/salesList/bill/show/${saleId}`);
    await page.getByTestId('bill').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'documents-bill-view.png'), fullPage: true });

    const download = page.waitForEvent('download');
    await pdfFetched(`bill/${saleId}?download=1`, () => page.getByRole('button', { name: 'Save', exact: true }).click());
    const file = await (await download).path();
    expect((await download).suggestedFilename()).toBe(`bill-${saleId}.pdf`);
    expect(fs.readFileSync(file).subarray(0, 4).toString('latin1')).toBe('%PDF');

    const tab = page.context().waitForEvent('page');
    await pdfFetched(`bill/${saleId}`, () => page.getByRole('button', { name: 'Open In New Tab' }).click());
    const opened = await tab;
    await opened.waitForURL(/^blob:/);
    await opened.close();

    await pdfFetched(`bill/${saleId}`, () => page.getByTestId('print-bill').click());
    await printFrame();
  }, 90_000);

  test('after a sale the bill view prints the bill at once', async () => {
    await pdfFetched(`bill/${saleId}`, () => page.goto(`/salesList/bill/print/${saleId}`));
    await printFrame();
  }, 60_000);

  test('delivery details: Print Challan prints the delivery challan', async () => {
    const saved = await api('POST', '/delivery', manager, {
      sale_id: saleId,
      transporter_name: 'Sharma Roadways',
      transporter_mobile: '9822001100',
      mode_of_transport: 'road',
      vehicle_number: 'mh12ab1234',
      dispatched_date: '2030-01-03',
    });
    expect(saved.status).toBeLessThan(300);
    await page.goto(`/salesList/bill/show/${saleId}/delivery`);
    await pdfFetched(`challan/${saleId}`, () => page.getByTestId('print-challan').click());
    await printFrame();
  }, 60_000);

  test("estimate editor's Print", async () => {
    expect((await api('GET', `/addProductIntoCart/${P10.barcode}`, manager)).status).toBe(200);
    const est = (await api('GET', `/createEstimate?cart_no=1&clientId=${customerId}`, manager)).body.estimateId;
    expect(est).toBeGreaterThan(0);
    await page.goto(`/estimateList/edit/${est}`);
    await page.getByTestId('estimate-total').waitFor();
    await pdfFetched(`estimate/${est}`, () => page.getByRole('button', { name: 'Print', exact: true }).click());
    await printFrame();
  }, 60_000);

  test("customer ledger's Print All Transactions prints the statement", async () => {
    await page.goto(`/clientList/transaction/${customerId}`);
    await pdfFetched(`statement/${customerId}`, () => page.getByRole('button', { name: 'Print All Transactions' }).click());
    await printFrame();
  }, 60_000);

  test('receipt view with prints=print prints the money receipt at once', async () => {
    await pdfFetched(`receipt/${paymentId}`, () => page.goto(`/payments/receivePayment/${paymentId}/print`));
    await page.getByTestId('receipt').waitFor();
    await printFrame();
  }, 60_000);

  test('label page and stock book print', async () => {
    await page.goto(`/productItem/${P10.id}/label`);
    await page.getByTestId('label-preview').waitFor();
    await pdfFetched(`labels/${P10.id}?mode=stockbook&count=12&qty=1`, () => page.getByRole('button', { name: 'Print', exact: true }).click());
    await printFrame();
    const cats = (await api<{ cat: { id: number; name: string }[] }>('GET', '/getCategoryBrand', manager)).body.cat;
    const plywood = cats.find((c) => c.name === 'Plywood')!;
    await page.goto(`/productItem/stockBookPrint?category=${plywood.id}&brand=all`);
    await page.getByTestId('stock-book').waitFor();
    await page.getByLabel('Show Cost Price').check();
    const res = await pdfFetched(`stockbook?category=${plywood.id}`, () => page.getByRole('button', { name: 'Print', exact: true }).click());
    expect(res.url()).toContain('cost=1');
    expect(res.url()).not.toContain('brand=');
    await printFrame();
  }, 60_000);
});
