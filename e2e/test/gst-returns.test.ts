// GST returns in the reports remote: a manager opens Reports > GST returns, picks the month of
// the sales, reads the GSTR-1 sections and the GSTR-3B summary, and downloads the portal's JSON
// (checked against the repository's JSON Schema) and a section's CSV. Staff never reach it.
import fs from 'node:fs';
import type { Download, Page } from 'playwright-core';
import { ACCOUNTS, login, sidebarEntries, startE2E, type E2E, managerWithCatalogue, gstr1SchemaErrors } from '../src/harness';
import { todayIST } from '../src/dates';

// GSTINs with correct check characters (packages/gst/test/gstin.test.ts works them out by hand).
const MH_GSTIN = '27AAPFU0939F1ZV';
const GJ_GSTIN = '24AAGCS5678K1ZT';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

let e2e: E2E;
let manager: string;
/** The sales' month (this month in IST) and the page's default (the month before). */
let period: string;
let previous: string;
let invoiceNo: string;
let notGstMessage: string;

const label = (p: string) => `${MONTHS[Number(p.slice(5, 7)) - 1]} ${p.slice(0, 4)}`;

async function ok<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const r = await e2e.api<T>(method, apiPath, { token: manager, body });
  if (r.status !== 200) throw new Error(`${method} ${apiPath}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales'] });
  manager = await managerWithCatalogue(e2e);
  const today = todayIST();
  period = today.slice(0, 7);
  const [y, m] = period.split('-').map(Number);
  previous = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;

  // Still in simple mode: the returns answer 400 with a sentence the page must show.
  const refused = await e2e.api<{ message: string }>('GET', `/gst/gstr1?period=${period}`, { token: manager });
  expect(refused.status).toBe(400);
  notGstMessage = refused.body.message;
  expect(notGstMessage).toMatch(/GST/);
}, 180_000);

afterAll(() => e2e?.stop());

/** Switches the demo company (Maharashtra) to GST mode and makes the issue's worked example twice: B2B to Gujarat, and a walk-in. */
async function gstSales() {
  const company = await ok<Record<string, string>>('GET', '/getCompanyDetails');
  await ok('POST', '/setCompanyDetails', { id: company.id, name: company.name, add1: company.add1 || 'Mumbai', mob1: company.mob1 || '9876543210', email: company.email || 'demo@demo.local', tax_mode: 'gst', gstin: MH_GSTIN, invoice_prefix: 'GT' });
  const { category } = await ok<{ category: { id: number; name: string }[] }>('GET', '/addProductPageDetails');
  const product = async (name: string, mrp: string, tax: string, hsn: string, includes: boolean) =>
    (await ok<{ id: number }>('POST', '/createNewProduct', { catagory: category[0]!.id, brand_name: 'Century', name, mrp, cp: '50', unit: 'pcs', per_peice_quantity: 1, tax, hsn_code: hsn, price_includes_tax: includes })).id;
  const ply = await product('Century Club Prime 18mm', '590', '18', '4412', true);
  const door = await product('Century Flush Door Fitting', '100', '12', '4418', false);
  const customer = await ok<{ id: number }>('POST', '/clients/addClient', {
    mobile_no: '9825011223', name: 'Shah Textiles', address_line_1: '12 Ring Road', address_line_2: '', city_or_district: 'Surat', state: '24', country: 'India', postal_code: '395003', gstin: GJ_GSTIN,
  });

  // B2B, inter-state: 3 x 590 incl. 18 % and 2 x 100 excl. 12 % less 5 each -> taxable 1690, IGST 292.80, 1983.
  await ok('GET', `/addProductIntoCart/${encodeURIComponent(`3*${ply}`)}`);
  const [[line]] = (await ok<[[{ sl_no: number }]]>('GET', `/addProductIntoCart/${encodeURIComponent(`2*${door}`)}`)) as [[{ sl_no: number }]];
  await ok('POST', '/upDisc/', { sl_no: line.sl_no, discount: '5' });
  const b2b = await ok<{ saleId: number; invoice_no: string }>('POST', '/MAKE_SALE', { clientId: customer.id, cart_no: 1, paid: '0', dueDate: '2030-01-31', date: todayIST() });
  expect(b2b.invoice_no).toMatch(/^GT\/\d\d-\d\d\/0001$/);
  invoiceNo = b2b.invoice_no;
  // A walk-in, intra-state: 1 x 590 incl. 18 % -> taxable 500, CGST 45 + SGST 45.
  await ok('GET', `/addProductIntoCart/${ply}`);
  await ok('POST', '/MAKE_SALE', { clientId: 0, cart_no: 1, paid: '590', dueDate: '2030-01-31', date: todayIST() });
}

const cells = async (page: Page, testId: string, row = 'tbody tr') =>
  (await page.getByTestId(testId).locator(row).first().locator('td').allTextContents()).map((s) => s.trim());

async function saved(download: Download): Promise<{ name: string; text: string }> {
  const file = await download.path();
  return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
}

test('a manager sees the not-GST sentence, then the month of GST sales: B2B row, B2CS and HSN totals, 3B, JSON and CSV downloads', async () => {
  const page = await e2e.newPage();
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  expect(await sidebarEntries(page)).toContain('Reports');
  // Lazy: the cart screen, opened afresh (managers land on the dashboard, in the reports remote),
  // loads nothing of the reports remote (its first-load budget stays the same).
  fetched.length = 0;
  await page.goto('/');
  await page.getByTestId('product-entry').waitFor();
  await page.waitForLoadState('networkidle');
  expect(fetched.filter((p) => p.startsWith('/remotes/reports/'))).toEqual([]);

  // A simple-mode company: the server's own sentence, no tables.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await page.waitForURL('**/reports/gst');
  // The URL changes before the remote has loaded: its page being there says it has.
  await page.getByTestId('gst-error').filter({ hasText: notGstMessage }).waitFor();
  expect(fetched.some((p) => p === '/remotes/reports/mf-manifest.json')).toBe(true);
  expect(await page.getByTestId('gst-b2b').count()).toBe(0);
  await e2e.shot(page, 'gst-returns-simple-mode');

  await gstSales();
  await page.reload();
  // The default month is the previous one, with no invoices in it.
  expect(await page.getByTestId('gst-period').inputValue()).toBe(previous);
  await page.getByTestId('gst-empty').filter({ hasText: `No invoices in ${label(previous)}.` }).waitFor();
  await e2e.shot(page, 'gst-returns-empty-month');

  // Pick the month of the sales.
  await page.getByTestId('gst-period').fill(period);
  await page.getByTestId('gst-b2b').waitFor();
  expect((await page.getByTestId('gst-gstin').textContent())?.trim()).toBe(MH_GSTIN);
  expect((await page.getByTestId('gst-fp').textContent())?.trim()).toBe(`${label(period)} (${period.slice(5, 7)}${period.slice(0, 4)})`);
  const b2b = await cells(page, 'gst-b2b');
  expect(b2b.slice(0, 4)).toEqual([GJ_GSTIN, invoiceNo, `${todayIST().slice(8, 10)}-${period.slice(5, 7)}-${period.slice(0, 4)}`, 'Gujarat (24)']);
  expect(b2b.slice(4)).toEqual(['₹1,983.00', '₹1,690.00', '₹292.80']);
  // B2CS: the walk-in, intra-state in Maharashtra at 18 %.
  expect(await cells(page, 'gst-b2cs')).toEqual(['Intra-state', 'Maharashtra (27)', '18 %', '₹500.00', '₹0.00', '₹45.00', '₹45.00']);
  expect(await cells(page, 'gst-b2cs', 'tfoot tr')).toEqual(['Total', '', '', '₹500.00', '₹0.00', '₹45.00', '₹45.00']);
  // HSN: 4412 at 18 % (3 + 1 sheets, 1500 + 500) and 4418 at 12 %.
  const hsnTotal = await cells(page, 'gst-hsn', 'tfoot tr');
  expect(hsnTotal.slice(5)).toEqual(['₹2,190.00', '₹292.80', '₹45.00', '₹45.00', '₹2,572.80']);
  const hsnRows = await page.getByTestId('gst-hsn').locator('tbody tr').allTextContents();
  expect(hsnRows.some((r) => r.startsWith('4412') && r.includes('₹2,000.00'))).toBe(true);
  expect(hsnRows.some((r) => r.startsWith('4418') && r.includes('₹190.00') && r.includes('₹22.80'))).toBe(true);
  // GSTR-3B: outward 2190 with IGST 292.80, CGST 45, SGST 45; no purchases, so all payable.
  const threeB = page.getByTestId('gst-3b');
  expect((await threeB.locator('tbody tr').first().locator('td').allTextContents()).map((s) => s.trim())).toEqual([
    '3.1(a) Outward taxable supplies',
    '₹2,190.00',
    '₹292.80',
    '₹45.00',
    '₹45.00',
    '₹0.00',
  ]);
  // Documents issued: the series from the first to the second invoice.
  const docs = await cells(page, 'gst-docs');
  expect(docs.slice(1, 4)).toEqual([invoiceNo, invoiceNo.replace(/0001$/, '0002'), '2']);
  await e2e.shot(page, 'gst-returns-month');

  // The JSON: the server's file, valid against the schema, the same figures as the screen.
  const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
  const json = await saved(jsonDownload);
  expect(json.name).toMatch(/\.json$/);
  const gstr1 = JSON.parse(json.text);
  expect(gstr1).toMatchObject({ gstin: MH_GSTIN, fp: `${period.slice(5, 7)}${period.slice(0, 4)}`, b2b: [{ ctin: GJ_GSTIN, inv: [{ inum: invoiceNo, val: 1983, pos: '24' }] }] });
  expect(gstr1SchemaErrors(gstr1)).toEqual([]);

  // One section's CSV: the offline tool's header and the invoice.
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-b2b').click()]);
  const csv = await saved(csvDownload);
  expect(csv.name).toMatch(/\.csv$/);
  expect(csv.text).toContain(GJ_GSTIN);
  expect(csv.text).toContain(invoiceNo);
  expect(csv.text.split(/\r?\n/)[0]).toMatch(/GSTIN/i);
});

test('staff see no Reports entry, a direct URL is refused, and the API answers 403', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  expect(await sidebarEntries(page)).not.toContain('Reports');
  await page.goto('/reports/gst');
  await page.getByText('This page is for managers only.').waitFor();
  expect(await page.getByTestId('gst-period').count()).toBe(0);
  await e2e.shot(page, 'gst-returns-staff-refused');
  const staff = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.staff })).body.token;
  expect((await e2e.api('GET', `/gst/gstr1?period=${period}`, { token: staff })).status).toBe(403);
  expect((await e2e.api('GET', `/gst/gstr3b?period=${period}`, { token: staff })).status).toBe(403);
});
