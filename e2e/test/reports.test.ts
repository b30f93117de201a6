// The report pages in the browser: with bills, a purchase and a payment made through the API, a
// manager opens each report from the reports menu, changes a filter (kept in the URL; Back undoes
// it), sees a totals row equal to the service's totals, downloads the CSV and opens the PDF (its
// printed totals read back); staff are refused. Real services behind the gateway.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Download, Page } from 'playwright-core';
import { formatINR } from '../../packages/ui-kit/src/format';
import { ACCOUNTS, login, managerWithCatalogue, startE2E, type E2E } from '../src/harness';
import { addDays, todayIST } from '../src/dates';

const ROOT = path.resolve(__dirname, '..', '..');
let e2e: E2E;
let manager: string;
let customerId: number;
let distributor: { distributor_id: number; name: string };
let purchaseId: number;

// Demo catalogue (services/inventory seed): id, MRP, cost; barcode 89012 + (100000 + id).
const PLY4 = { id: 10, mrp: 520, cp: 410 };
const PLY18 = { id: 9, mrp: 1450 };
const barcode = (id: number) => `89012${100000 + id}`;
const CUSTOMER = { name: 'Zubin Reportwala', mobile: '9812377666' };

const api = <T = any>(method: string, p: string, body?: unknown, token = manager) => e2e.api<T>(method, p, { token, body });
const shot = (page: Page, name: string) => e2e.shot(page, `report-${name}`);

async function sale(lines: [number, number][], paid: string, clientId = customerId): Promise<number> {
  expect((await api('DELETE', '/clearCart/1')).status).toBe(200);
  for (const [id, q] of lines) expect((await api('GET', `/addProductIntoCart/${encodeURIComponent(`${q}*${barcode(id)}`)}`)).status).toBe(200);
  const r = await api('POST', '/MAKE_SALE', { clientId, cart_no: 1, paid, dueDate: '2030-12-31', date: todayIST() });
  expect(r.status).toBe(200);
  return r.body.saleId;
}

/** Polls a report until `ready` holds (the projection follows the owners' JetStream events). */
async function reportWhen<T = any>(p: string, ready: (body: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await api<T>('GET', p);
    if (r.status === 200 && ready(r.body)) return r.body;
    if (Date.now() > deadline) throw new Error(`${p} did not get there within ${ms} ms: ${JSON.stringify(r.body).slice(0, 400)}`);
    await new Promise((res) => setTimeout(res, 300));
  }
}

/** The totals row's cells by column key. */
async function totalsRow(page: Page, table: string): Promise<Record<string, string>> {
  const row = page.getByTestId(`${table}-total`);
  await row.waitFor();
  const out: Record<string, string> = {};
  for (const td of await row.locator('td').all()) out[(await td.getAttribute('data-col')) ?? ''] = ((await td.textContent()) ?? '').trim();
  return out;
}

/** Waits for the page to show the report for the URL's query (the reply to it), then its table. */
async function shown(page: Page, name: string, act: () => Promise<unknown>) {
  await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === `/api/reports/${name}` && r.status() === 200), act()]);
  await page.locator('.rp-stale').waitFor({ state: 'detached' });
}

/** A chart drawn (ECharts loads on first use, then animates its bars in) before a screenshot. */
async function chartDrawn(page: Page, testId: string) {
  await page.locator(`[data-testid="${testId}"][data-ready="yes"]`).waitFor();
  await page.waitForTimeout(1200);
}

const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

async function saved(download: Download): Promise<{ name: string; text: string }> {
  return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), 'utf8') };
}

/** The PDF the PDF button opened (fetched with the session's token, shown in a new tab), as text. */
async function pdfOf(page: Page, name: string): Promise<string> {
  const tab = page.context().waitForEvent('page');
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().includes(`/api/documents/report/${name}`), { timeout: 60_000 }), page.getByTestId('export-pdf').click()]);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/pdf/);
  const opened = await tab;
  await opened.waitForURL(/^blob:/);
  await opened.close();
  // The same URL read directly (the page's copy went into a blob).
  const direct = await fetch(res.url(), { headers: { Authorization: `Bearer ${manager}` } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-pdf-'));
  const file = path.join(dir, 'r.pdf');
  fs.writeFileSync(file, Buffer.from(await direct.arrayBuffer()));
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  return text.replace(/\s+/g, ' ');
}

async function managerPage(): Promise<Page> {
  const ctx = await e2e.browser.newContext({ baseURL: e2e.baseUrl, viewport: { width: 1366, height: 800 }, acceptDownloads: true });
  const page = await ctx.newPage();
  page.on('pageerror', (err) => console.error(`[browser] ${err.message}`));
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  return page;
}

beforeAll(async () => {
  for (const f of ['frontends/reports/dist/mf-manifest.json', ...['inventory', 'ledger', 'sales', 'documents', 'reports'].map((s) => `services/${s}/dist/main.js`)]) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first.`);
  }
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents', 'reports'] });
  manager = await managerWithCatalogue(e2e);
  const added = await api('POST', '/clients/addClient', {
    mobile_no: CUSTOMER.mobile, name: CUSTOMER.name, address_line_1: '9 Mall Road', address_line_2: '', city_or_district: 'Shimla', state: 'HP', country: 'India', postal_code: '171001',
  });
  expect(added.status).toBeLessThan(300);
  customerId = added.body.id;
  // Two bills to the customer: 2 x 520 = 1,040 paid 300; 1 x 1,450 paid 1,450.
  await sale([[PLY4.id, 2]], '300');
  await sale([[PLY18.id, 1]], '1450');
  // A payment of 200 from the customer.
  expect((await api('POST', '/salesDuePayment', { client_id: customerId, amount: '200', nextDD: '2030-12-31' })).status).toBe(200);
  // A purchase: 3 x 410 = 1,230 at cost, nothing paid.
  const data = (await api('GET', '/checkOutPurchase')).body;
  const officer = data.officers[0];
  distributor = data.distributors.find((d: { distributor_id: number }) => d.distributor_id === officer.distributor_id);
  expect((await api('DELETE', '/clearCart/1')).status).toBe(200);
  expect((await api('GET', `/addProductIntoCart/${encodeURIComponent(`3*${barcode(PLY4.id)}`)}`)).status).toBe(200);
  const bought = await api('POST', '/checkOutPurchase', { bill_no: 'RPT-1', distributor: distributor.distributor_id, officer: officer.id, paid: '0', due_date: '2030-12-31', cart_no: 1 });
  expect(bought.status).toBeLessThan(300);
  purchaseId = bought.body[0].purchaseId ?? bought.body[0].id;
  // Everything projected before the pages are opened.
  await reportWhen(`/reports/sales-register?from=${todayIST()}&to=${todayIST()}&clientId=${customerId}`, (b) => b.totals.count === 2);
  await reportWhen(`/reports/purchase-register?from=${todayIST()}&to=${todayIST()}&distributorId=${distributor.distributor_id}`, (b) => b.rows.some((r: { purchaseId: number }) => r.purchaseId === purchaseId));
  await reportWhen(`/reports/daybook?date=${todayIST()}`, (b) => b.rows.some((r: { kind: string }) => r.kind === 'payment-received'));
}, 300_000);

afterAll(async () => {
  await e2e?.stop();
});

test('sales register: the customer filter in the URL (Back undoes it), totals as the service and hand-computed, CSV and PDF', async () => {
  const page = await managerPage();
  // The sidebar's Reports leads to the GST returns, under the menu of every report.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await page.waitForURL('**/reports/gst');
  await page.getByTestId('reports-menu').waitFor();
  expect((await page.getByTestId('reports-menu').locator('a').allTextContents()).map((s) => s.trim())).toEqual([
    'Day book', 'Cash and bank book', 'Sales register', 'Purchase register', 'Stock summary', 'Profit', 'Profit and loss', 'Ageing', 'GST returns',
  ]);
  await page.getByTestId('gst-period').waitFor();
  await shot(page, 'gst');
  await shown(page, 'sales-register', () => page.getByTestId('menu-sales-register').click());
  await page.getByTestId('sales-register-table').waitFor();
  // Today only (quick range): the range goes into the URL.
  await shown(page, 'sales-register', () => page.getByTestId('quick-today').click());
  expect(query(page)).toEqual({ from: todayIST(), to: todayIST() });
  expect(await page.getByTestId('quick-today').getAttribute('aria-pressed')).toBe('true');
  const all = (await api('GET', `/reports/sales-register?from=${todayIST()}&to=${todayIST()}`)).body;
  const t = await totalsRow(page, 'sales-register-table');
  expect([t.amount, t.returned, t.net, t.paid]).toEqual([all.totals.amount, all.totals.returned, all.totals.net, all.totals.paid].map((v) => formatINR(v)));

  // One customer: typed, chosen from the suggestions.
  const input = page.locator('#filter-customer-input');
  await input.fill('Zubin');
  await shown(page, 'sales-register', () => page.getByTestId('filter-customer-list').getByText(`${customerId} : ${CUSTOMER.name}`).click());
  expect(query(page)).toEqual({ from: todayIST(), to: todayIST(), clientId: String(customerId) });
  const one = await totalsRow(page, 'sales-register-table');
  // 1,040 + 1,450 = 2,490 billed; paid 300 + 1,450 = 1,750; nothing returned: net 2,490.
  expect(one).toMatchObject({ invoice: '', amount: '₹2,490.00', returned: '₹0.00', net: '₹2,490.00', paid: '₹1,750.00' });
  expect(await page.getByTestId('sales-register-table').locator('tbody tr').count()).toBe(2);
  expect(((await page.getByTestId('sales-register-table-total').locator('td').first().textContent()) ?? '').trim()).toBe('Total, 2 bills');
  await shot(page, 'sales-register');

  // The CSV: every row of the same filters, as the service writes it.
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const csv = await saved(csvDownload);
  expect(csv.name).toMatch(/\.csv$/);
  const lines = csv.text.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
  expect(lines[0]).toBe('Bill,Date,Invoice no,Customer,Amount,Returned,Cancelled,Net,Paid');
  expect(lines).toHaveLength(3);
  expect(lines.slice(1).every((l) => l.includes(CUSTOMER.name))).toBe(true);
  expect(lines.some((l) => l.includes('1040.00')) && lines.some((l) => l.includes('1450.00'))).toBe(true);

  // The PDF: the same filters; its printed totals are the JSON's.
  const pdf = await pdfOf(page, 'sales-register');
  expect(pdf).toContain('SALES REGISTER');
  expect(pdf).toContain(`Customer: ${CUSTOMER.name}`);
  expect(pdf).toContain('Total (2 rows) 2,490.00 0.00 2,490.00 1,750.00');

  // Back: the customer filter goes, the whole day comes back.
  await shown(page, 'sales-register', () => page.goBack());
  expect(query(page)).toEqual({ from: todayIST(), to: todayIST() });
  expect((await totalsRow(page, 'sales-register-table')).net).toBe(formatINR(all.totals.net));
  await page.context().close();
}, 180_000);

test('day book: the day in the URL, previous and next day, totals as the service; a day of more than a page is paged with the whole day\'s totals', async () => {
  const page = await managerPage();
  await shown(page, 'daybook', () => page.goto('/reports/daybook'));
  // The sidebar's Reports entry stays lit on every report.
  expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).getAttribute('class')).toBe('active');
  const day = (await api('GET', `/reports/daybook?date=${todayIST()}`)).body;
  const t = await totalsRow(page, 'daybook-table');
  expect([t.cashIn, t.cashOut]).toEqual([formatINR(day.totals.cashIn), formatINR(day.totals.cashOut)]);
  expect(await page.getByTestId('daybook-table').locator('tbody tr').count()).toBe(day.rows.length);
  // Our two bills, the payment and the purchase are there: 300 + 1,450 + 200 = 1,950 of cash in at least.
  expect(Math.round(Number(day.totals.cashIn) * 100)).toBeGreaterThanOrEqual(195000);
  expect(await page.getByTestId('daybook-table').getByText('Payment received').count()).toBeGreaterThan(0);
  await shot(page, 'daybook');
  const yesterday = addDays(todayIST(), -1);
  await shown(page, 'daybook', () => page.getByTestId('day-prev').click());
  expect(query(page)).toEqual({ date: yesterday });
  const before = (await api('GET', `/reports/daybook?date=${yesterday}`)).body;
  expect((await totalsRow(page, 'daybook-table')).cashIn).toBe(formatINR(before.totals.cashIn));
  await shown(page, 'daybook', () => page.getByTestId('day-next').click());
  expect(query(page)).toEqual({ date: todayIST() });
  expect(await page.getByTestId('day-next').isDisabled()).toBe(true);

  // A day of more than a page: another customer's bill of 520 and 100 payments of 1 from them.
  const other = await api('POST', '/clients/addClient', {
    mobile_no: '9812377667', name: 'Paging Traders', address_line_1: '1 Mall Road', address_line_2: '', city_or_district: 'Shimla', state: 'HP', country: 'India', postal_code: '171001',
  });
  expect(other.status).toBeLessThan(300);
  await sale([[PLY4.id, 1]], '0', other.body.id);
  for (let i = 0; i < 100; i++) expect((await api('POST', '/salesDuePayment', { client_id: other.body.id, amount: '1', nextDD: '2030-12-31' })).status).toBe(200);
  const full = await reportWhen(`/reports/daybook?date=${todayIST()}`, (b) => b.totals.count >= day.totals.count + 101);
  // The first page: 100 rows, the whole day's totals (100 more of cash in than before).
  expect(full.rows).toHaveLength(100);
  expect(Math.round(Number(full.totals.cashIn) * 100) - Math.round(Number(day.totals.cashIn) * 100)).toBe(10000);
  await shown(page, 'daybook', () => page.reload());
  expect(await page.getByTestId('daybook-table').locator('tbody tr').count()).toBe(100);
  expect((await totalsRow(page, 'daybook-table')).cashIn).toBe(formatINR(full.totals.cashIn));
  await shot(page, 'daybook-paged');
  const pager = page.locator('footer.bk-pager[aria-label="Pages"]');
  await shown(page, 'daybook', () => pager.getByRole('button', { name: 'Next' }).click());
  expect(query(page)).toEqual({ date: todayIST(), page: '1' });
  const second = (await api('GET', `/reports/daybook?date=${todayIST()}&page=1`)).body;
  expect(await page.getByTestId('daybook-table').locator('tbody tr').count()).toBe(second.rows.length);
  expect(second.rows.length).toBe(Math.min(100, full.totals.count - 100));
  // Every page shows the whole day's totals.
  expect((await totalsRow(page, 'daybook-table')).cashIn).toBe(formatINR(full.totals.cashIn));
  await shot(page, 'daybook-page-2');
  await page.context().close();
}, 120_000);

test('purchase register: the distributor filter, totals as the service', async () => {
  const page = await managerPage();
  await shown(page, 'purchase-register', () => page.goto('/reports/purchase-register'));
  await page.locator(`[data-testid="filter-distributor"] option[value="${distributor.distributor_id}"]`).waitFor({ state: 'attached' });
  await shown(page, 'purchase-register', () => page.getByTestId('filter-distributor').selectOption(String(distributor.distributor_id)));
  expect(query(page)).toEqual({ distributorId: String(distributor.distributor_id) });
  const body = (await api('GET', `/reports/purchase-register?distributorId=${distributor.distributor_id}`)).body;
  const t = await totalsRow(page, 'purchase-register-table');
  expect([t.amount, t.returned, t.net, t.paid]).toEqual([body.totals.amount, body.totals.returned, body.totals.net, body.totals.paid].map((v) => formatINR(v)));
  // Our purchase, named by the distributor's bill number: 3 x 410 = 1,230, nothing paid.
  const row = page.getByTestId('purchase-register-table').locator('tbody tr').filter({ hasText: 'RPT-1' });
  const cells = (await row.locator('td').allTextContents()).map((s) => s.trim());
  expect(cells).toContain('RPT-1');
  expect(cells.slice(3)).toEqual(['₹1,230.00', '₹0.00', '₹1,230.00', '₹0.00']);
  await shot(page, 'purchase-register');
  await page.context().close();
}, 120_000);

test('stock summary: the category filter, totals as the service, the value chart', async () => {
  const page = await managerPage();
  await shown(page, 'stock-summary', () => page.goto('/reports/stock-summary'));
  const whole = (await api('GET', '/reports/stock-summary')).body;
  let t = await totalsRow(page, 'stock-summary-table');
  expect([t.costValue, t.mrpValue]).toEqual([formatINR(whole.totals.costValue), formatINR(whole.totals.mrpValue)]);
  expect(t.name).toBe(`Total, ${whole.totals.products} products`);
  await chartDrawn(page, 'stock-chart');
  await shot(page, 'stock-summary');
  const category: string = whole.rows.find((r: { category: string }) => r.category).category;
  await page.locator(`[data-testid="filter-category"] option[value="${category}"]`).waitFor({ state: 'attached' });
  await shown(page, 'stock-summary', () => page.getByTestId('filter-category').selectOption(category));
  expect(query(page)).toEqual({ category });
  const one = (await api('GET', `/reports/stock-summary?category=${encodeURIComponent(category)}`)).body;
  t = await totalsRow(page, 'stock-summary-table');
  expect([t.stock, t.costValue, t.mrpValue]).toEqual([one.totals.stock.toLocaleString('en-IN', { maximumFractionDigits: 3 }), formatINR(one.totals.costValue), formatINR(one.totals.mrpValue)]);
  expect(await page.getByTestId('stock-summary-table').locator('tbody tr').count()).toBe(Math.min(100, one.totals.products));
  await page.context().close();
}, 120_000);

test('profit: by product, category and month; totals as the service; the chart', async () => {
  const page = await managerPage();
  await shown(page, 'profit', () => page.goto(`/reports/profit?from=${todayIST()}&to=${todayIST()}`));
  const byProduct = (await api('GET', `/reports/profit?from=${todayIST()}&to=${todayIST()}`)).body;
  let t = await totalsRow(page, 'profit-table');
  expect([t.value, t.cost, t.profit]).toEqual([byProduct.totals.value, byProduct.totals.cost, byProduct.totals.profit].map((v) => formatINR(v)));
  // Our bills' lines: 2 x 520 at cost 410 -> 1,040 - 820 = 220 on the 4 mm ply.
  const ply = page.getByTestId('profit-table').locator('tbody tr').filter({ hasText: 'Commercial Plywood 4mm' });
  expect(await ply.count()).toBe(1);
  await shown(page, 'profit', () => page.getByTestId('by-category').click());
  expect(query(page)).toEqual({ from: todayIST(), to: todayIST(), by: 'category' });
  await chartDrawn(page, 'profit-chart');
  t = await totalsRow(page, 'profit-table');
  expect(t.profit).toBe(formatINR(byProduct.totals.profit));
  await shot(page, 'profit');
  await shown(page, 'profit', () => page.getByTestId('by-month').click());
  expect(await page.getByTestId('profit-table').locator('tbody tr').count()).toBe(1);
  expect((await totalsRow(page, 'profit-table')).value).toBe(formatINR(byProduct.totals.value));
  await page.context().close();
}, 120_000);

test('ageing: receivable and payable, totals and buckets as the service', async () => {
  const page = await managerPage();
  await shown(page, 'ageing', () => page.goto('/reports/ageing'));
  const rec = (await api('GET', '/reports/ageing?side=receivable')).body;
  let t = await totalsRow(page, 'ageing-table');
  expect([t.balance, t.b0_30, t.b31_60, t.b61_90, t.b90]).toEqual([rec.totals.balance, rec.totals.b0_30, rec.totals.b31_60, rec.totals.b61_90, rec.totals.b90].map((v) => formatINR(v)));
  // Our customer owes 2,490 - 1,750 - 200 = 540, all of it under 30 days old.
  const ours = page.getByTestId('ageing-table').locator('tbody tr').filter({ hasText: CUSTOMER.name });
  expect((await ours.locator('td').allTextContents()).map((s) => s.trim()).slice(1, 3)).toEqual(['₹540.00', '₹540.00']);
  await chartDrawn(page, 'ageing-chart');
  await shot(page, 'ageing');
  await shown(page, 'ageing', () => page.getByTestId('side-payable').click());
  expect(query(page)).toEqual({ side: 'payable' });
  const pay = (await api('GET', '/reports/ageing?side=payable')).body;
  t = await totalsRow(page, 'ageing-table');
  expect(t.balance).toBe(formatINR(pay.totals.balance));
  const pdf = await pdfOf(page, 'ageing');
  expect(pdf).toContain('Payable (distributors)');
  expect(pdf).toContain(`Total (${pay.totals.parties} rows) ${formatINR(pay.totals.balance).replace('₹', '')}`);
  await page.context().close();
}, 120_000);

test('staff are refused the reports and their PDF', async () => {
  const staff = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.staff })).body.token;
  for (const p of ['/reports/sales-register', '/reports/daybook?format=csv', '/documents/report/sales-register']) expect((await api('GET', p, undefined, staff)).status).toBe(403);
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await page.goto('/reports/sales-register');
  await page.getByText('This page is for managers only.').waitFor();
  expect(await page.getByTestId('sales-register-table').count()).toBe(0);
});
