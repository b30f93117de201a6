// Printable documents end to end: sales, ledger and inventory answer the documents service's
// requests, documents renders the PDFs in Chromium, the gateway serves them under /api/documents.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack, type Stack } from '@bahi/devstack';
import { ACCOUNTS } from '../src/harness';

const ROOT = path.resolve(__dirname, '..', '..');
let stack: Stack;
let manager: string;
let staff: string;
let customerId: number;
let saleId: number;
let paymentId: number;
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
    text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', disposition: res.headers.get('content-disposition') ?? '', bytes, text };
}

const login = async (who: { email: string; password: string }) => (await api<{ token: string }>('POST', '/loginReact', undefined, who)).body.token;

beforeAll(async () => {
  for (const s of ['identity', 'inventory', 'ledger', 'sales', 'documents']) {
    if (!fs.existsSync(path.join(ROOT, `services/${s}/dist/main.js`))) throw new Error(`services/${s}/dist/main.js is missing: run \`npm run build\` first.`);
  }
  stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'ledger', 'sales', 'documents'], logs: 'files' });
  manager = await login(ACCOUNTS.manager);
  staff = await login(ACCOUNTS.staff);
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
}, 240_000);

afterAll(async () => {
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
  const admin = await login(ACCOUNTS.admin);
  const co = await api('POST', '/admin/createCompany', admin, { cName: 'Other Shop', cAdd: '1 Lane', cMob: '9822000001', mName: 'Ojas', mEmail: 'ojas@other.local' });
  expect(co.status).toBeLessThan(300);
  const other = await login({ email: 'ojas@other.local', password: co.body.managerPassword });
  expect(other).toBeTruthy();
  expect((await pdf(`bill/${saleId}`, other)).status).toBe(404);
  expect((await pdf(`receipt/${paymentId}`, other)).status).toBe(404);
  expect((await pdf(`statement/${customerId}`, other)).status).toBe(404);
  expect((await pdf(`labels/${P10.id}`, other)).status).toBe(404);
}, 60_000);
