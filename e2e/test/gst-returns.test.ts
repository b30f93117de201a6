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
  // A walk-in buys exempt vegetables: 2 kg x 40.00 = 80.00, Table 8 (not B2C small), HSN B2C at rate 0.
  const veg = (await ok<{ id: number }>('POST', '/createNewProduct', { catagory: category[0]!.id, brand_name: 'Farm', name: 'Fresh Vegetables', mrp: '40', cp: '30', unit: 'kg', per_peice_quantity: 1, tax: '0', hsn_code: '0702', supply_type: 'exempt' })).id;
  await ok('GET', `/addProductIntoCart/${encodeURIComponent(`2*${veg}`)}`);
  await ok('POST', '/MAKE_SALE', { clientId: 0, cart_no: 1, paid: '80', dueDate: '2030-01-31', date: todayIST() });
}

const cells = async (page: Page, testId: string, row = 'tbody tr') =>
  (await page.getByTestId(testId).locator(row).first().locator('td').allTextContents()).map((s) => s.trim());

async function saved(download: Download): Promise<{ name: string; text: string }> {
  const file = await download.path();
  return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
}

test('a manager sees the not-GST sentence, then the month of GST sales with every section by name: B2B row, B2CS, nil/exempt, HSN B2B and B2C, documents, 3B, GSTR-1 and 3B JSON and CSV downloads', async () => {
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
  // The page opens on the latest month that has invoices: this one.
  await page.getByTestId('gst-b2b').waitFor();
  expect(await page.getByTestId('gst-period').inputValue()).toBe(period);
  expect((await page.getByTestId('gst-gstin').textContent())?.trim()).toBe(MH_GSTIN);
  expect((await page.getByTestId('gst-fp').textContent())?.trim()).toBe(`${label(period)} (${period.slice(5, 7)}${period.slice(0, 4)})`);
  // Every section the export holds, by name, each with its CSV.
  const titles = (await page.locator('.bk-card').allTextContents()).join('\n');
  for (const name of [
    'B2B invoices (1)',
    'B2C large invoices (0)',
    'B2C small (1)',
    'Credit/debit notes, registered (0)',
    'Credit/debit notes, unregistered (0)',
    'Nil rated, exempted and non-GST supplies (1)',
    'HSN summary, B2B (2)',
    'HSN summary, B2C (2)',
    'Documents issued',
    'GSTR-3B summary',
  ]) {
    expect(titles).toContain(name);
  }
  for (const sec of ['b2b', 'b2cl', 'b2cs', 'cdnr', 'cdnur', 'exemp', 'hsn_b2b', 'hsn_b2c', 'docs']) expect(await page.getByTestId(`download-${sec}`).count()).toBe(1);
  const b2b = await cells(page, 'gst-b2b');
  expect(b2b.slice(0, 4)).toEqual([GJ_GSTIN, invoiceNo, `${todayIST().slice(8, 10)}-${period.slice(5, 7)}-${period.slice(0, 4)}`, 'Gujarat (24)']);
  expect(b2b.slice(4)).toEqual(['₹1,983.00', '₹1,690.00', '₹292.80']);
  // B2CS: the walk-in, intra-state in Maharashtra at 18 % (the exempt vegetables are not here).
  expect(await cells(page, 'gst-b2cs')).toEqual(['Intra-state', 'Maharashtra (27)', '18 %', '₹500.00', '₹0.00', '₹45.00', '₹45.00']);
  expect(await cells(page, 'gst-b2cs', 'tfoot tr')).toEqual(['Total', '', '', '₹500.00', '₹0.00', '₹45.00', '₹45.00']);
  // Table 8: 80.00 exempt, intra-state to an unregistered person.
  expect(await cells(page, 'gst-nil')).toEqual(['Intra-state to unregistered persons', '₹0.00', '₹80.00', '₹0.00']);
  // HSN B2B (the Gujarat invoice): 4412 3 sheets 1500.00 + IGST 270.00, 4418 190.00 + IGST 22.80:
  // taxable 1690.00, IGST 292.80, value 1982.80.
  expect((await cells(page, 'gst-hsn-b2b', 'tfoot tr')).slice(5)).toEqual(['₹1,690.00', '₹292.80', '₹0.00', '₹0.00', '₹1,982.80']);
  const hsnB2b = await page.getByTestId('gst-hsn-b2b').locator('tbody tr').allTextContents();
  expect(hsnB2b.some((r) => r.startsWith('4412') && r.includes('₹1,500.00') && r.includes('₹270.00'))).toBe(true);
  expect(hsnB2b.some((r) => r.startsWith('4418') && r.includes('₹190.00') && r.includes('₹22.80'))).toBe(true);
  // HSN B2C (the walk-ins): 0702 2 kg 80.00 at 0 %, 4412 1 sheet 500.00 + 45.00 + 45.00: taxable 580.00, value 670.00.
  expect((await cells(page, 'gst-hsn-b2c', 'tfoot tr')).slice(5)).toEqual(['₹580.00', '₹0.00', '₹45.00', '₹45.00', '₹670.00']);
  expect(await cells(page, 'gst-hsn-b2c')).toEqual(['0702', 'Fresh Vegetables', 'KGS', '2', '0 %', '₹80.00', '₹0.00', '₹0.00', '₹0.00', '₹80.00']);
  // GSTR-3B: outward 2190 with IGST 292.80, CGST 45, SGST 45 (what GSTR-1 reports); the exempt 80 in 3.1(c); no purchases, so all payable.
  const threeB = page.getByTestId('gst-3b');
  const row3b = async (key: string) => (await threeB.locator(`tr[data-row="${key}"] td`).allTextContents()).map((x) => x.trim());
  expect(await row3b('outward')).toEqual(['3.1(a) Outward taxable supplies', '₹2,190.00', '₹292.80', '₹45.00', '₹45.00', '₹0.00']);
  expect((await row3b('nil')).slice(0, 2)).toEqual(['3.1(c) Nil rated and exempted', '₹80.00']);
  // The input tax credit is labelled as Bahi's estimate (the portal fills 4A from GSTR-2B).
  expect((await row3b('itc'))[0]).toBe('4(A)(5) Input tax credit (estimate from purchases)');
  await page.getByTestId('gst-3b-itc-note').filter({ hasText: 'GSTR-2B' }).waitFor();
  expect(await page.getByTestId('gst-3b-excess').count()).toBe(0);
  // Documents issued: the series from the first to the third invoice, by the offline tool's name.
  const docs = await cells(page, 'gst-docs');
  expect(docs.slice(0, 4)).toEqual(['Invoices for outward supply', invoiceNo, invoiceNo.replace(/0001$/, '0003'), '3']);
  await e2e.shot(page, 'gst-returns-month');

  // The month before has no invoices: the page says so.
  await page.getByTestId('gst-period').fill(previous);
  await page.getByTestId('gst-empty').filter({ hasText: `No invoices in ${label(previous)}.` }).waitFor();
  await e2e.shot(page, 'gst-returns-empty-month');
  await page.getByTestId('gst-period').fill(period);
  await page.getByTestId('gst-b2b').waitFor();

  // The JSON: the server's file, valid against the schema, the same figures as the screen.
  const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
  const json = await saved(jsonDownload);
  expect(json.name).toMatch(/\.json$/);
  const gstr1 = JSON.parse(json.text);
  expect(gstr1).toMatchObject({ gstin: MH_GSTIN, fp: `${period.slice(5, 7)}${period.slice(0, 4)}`, b2b: [{ ctin: GJ_GSTIN, inv: [{ inum: invoiceNo, val: 1983, pos: '24' }] }] });
  expect(gstr1SchemaErrors(gstr1)).toEqual([]);
  expect(gstr1.nil).toEqual({ inv: [{ sply_ty: 'INTRAB2C', nil_amt: 0, expt_amt: 80, ngsup_amt: 0 }] });
  expect(Object.keys(gstr1.hsn)).toEqual(['hsn_b2b', 'hsn_b2c']);

  // GSTR-3B in the portal's JSON: the server's file.
  const [threeBDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-3b-json').click()]);
  const gstr3b = await saved(threeBDownload);
  expect(gstr3b.name).toBe(`GSTR3B_${MH_GSTIN}_${period.slice(5, 7)}${period.slice(0, 4)}.json`);
  const j = JSON.parse(gstr3b.text);
  expect(j.sup_details.osup_det).toEqual({ txval: 2190, iamt: 292.8, camt: 45, samt: 45, csamt: 0 });
  expect(j.sup_details.osup_nil_exmp).toEqual({ txval: 80 });

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
