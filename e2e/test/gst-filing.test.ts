// A quarterly filer (QRMP) in the browser: the manager picks last quarter on Reports > GST
// returns, downloads the IFF of its first month and marks that month filed with its ARN (a wrong
// ARN first: the server's sentence), returns an item from a bill of that month in the bill view
// (the credit note is dated today, in the current quarter), then downloads last quarter's GSTR-1
// (the IFF's invoice left out, the HSN summary whole) and the current quarter's (the note in
// cdnr), and the quarter's GSTR-3B JSON. Real services behind the gateway.
import fs from 'node:fs';
import type { Download, Page } from 'playwright-core';
import { ACCOUNTS, login, startE2E, type E2E, managerWithCatalogue } from '../src/harness';
import { todayIST } from '../src/dates';

const MH_GSTIN = '27AAPFU0939F1ZV';
const GJ_GSTIN = '24AAGCS5678K1ZT';
const PLY = 'Filing Test Ply';

let e2e: E2E;
let manager: string;
let today: string;
let nowQ: string;
let lastQ: string;
let month1: string; // the first month of last quarter (its IFF is filed)
let month2: string;
let month3: string;
let ply: number;
let saleId: number;
let invoiceNo: string;

/** '2026-10' -> '2026-27-Q3'. */
function quarterOf(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  const start = m >= 4 ? y : y - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}-Q${Math.floor(((m + 8) % 12) / 3) + 1}`;
}
const monthBefore = (month: string, n: number) => {
  const i = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 - n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
};
const ddmmyyyy = (iso: string) => iso.split('-').reverse().join('-');

async function ok<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const r = await e2e.api<T>(method, apiPath, { token: manager, body });
  if (r.status !== 200) throw new Error(`${method} ${apiPath}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function saved(download: Download): Promise<{ name: string; text: string }> {
  return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), 'utf8') };
}

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales'] });
  manager = await managerWithCatalogue(e2e);
  today = todayIST();
  nowQ = quarterOf(today.slice(0, 7));
  // The quarter before this one: walk back from this month until the label changes.
  let m = today.slice(0, 7);
  while (quarterOf(m) === nowQ) m = monthBefore(m, 1);
  lastQ = quarterOf(m);
  month1 = monthBefore(m, 2);
  month2 = monthBefore(m, 1);
  month3 = m;

  const company = await ok<Record<string, string>>('GET', '/getCompanyDetails');
  await ok('POST', '/setCompanyDetails', { id: company.id, name: company.name, add1: company.add1 || 'Mumbai', mob1: company.mob1 || '9876543210', email: company.email || 'demo@demo.local', tax_mode: 'gst', gstin: MH_GSTIN, invoice_prefix: 'QF', gst_filing: 'quarterly' });
  const { category } = await ok<{ category: { id: number }[] }>('GET', '/addProductPageDetails');
  ply = (await ok<{ id: number }>('POST', '/createNewProduct', { catagory: category[0]!.id, brand_name: 'Century', name: PLY, mrp: '590', cp: '50', unit: 'pcs', per_peice_quantity: 1, tax: '18', hsn_code: '4412', price_includes_tax: true })).id;
  const customer = await ok<{ id: number }>('POST', '/clients/addClient', {
    mobile_no: '9825011224', name: 'Shah Plywood', address_line_1: '12 Ring Road', address_line_2: '', city_or_district: 'Surat', state: '24', country: 'India', postal_code: '395003', gstin: GJ_GSTIN,
  });
  // Month 1, B2B inter-state: 2 x 590 incl. 18 % -> taxable 1000.00, IGST 180.00, value 1180.
  await ok('GET', `/addProductIntoCart/${encodeURIComponent(`2*${ply}`)}`);
  const b2b = await ok<{ saleId: number; invoice_no: string }>('POST', '/MAKE_SALE', { clientId: customer.id, cart_no: 1, paid: '0', date: `${month1}-10`, dueDate: today });
  saleId = b2b.saleId;
  invoiceNo = b2b.invoice_no;
  // Month 2, a walk-in in Maharashtra: 1 x 590 -> taxable 500.00, CGST 45.00 + SGST 45.00.
  await ok('GET', `/addProductIntoCart/${ply}`);
  await ok('POST', '/MAKE_SALE', { clientId: 0, cart_no: 1, paid: '590', date: `${month2}-15`, dueDate: today });
}, 180_000);

afterAll(() => e2e?.stop());

const download = async (page: Page, testId: string) => {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return saved(d);
};

test('a quarterly filer marks a month filed, returns an item from its bill (the note lands today), and downloads the quarter GSTR-1 and the 3B JSON', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await page.goto('/reports/gst');
  // A quarterly filer picks a quarter, not a month.
  await page.getByTestId('gst-quarter').waitFor();
  expect(await page.getByTestId('gst-period').count()).toBe(0);
  await page.getByTestId('gst-quarter').selectOption(lastQ);
  await page.getByTestId('gst-b2b').waitFor();
  // Every section by name.
  const titles = (await page.locator('.bk-card__head h2').allTextContents()).map((x) => x.trim());
  for (const name of [
    'B2B invoices (1)',
    'B2C large invoices (0)',
    'B2C small (1)',
    'Credit/debit notes, registered (0)',
    'Credit/debit notes, unregistered (0)',
    'Nil rated, exempted and non-GST supplies (0)',
    'HSN summary, B2B (1)',
    'HSN summary, B2C (1)',
    'Documents issued',
  ]) {
    expect(titles).toContain(name);
  }
  expect(await page.getByTestId(`filing-${month1}`).textContent()).toContain('Not filed');
  expect((await page.getByTestId('gst-fp').textContent())?.trim()).toBe(`${lastQ} (${month3.slice(5)}${month3.slice(0, 4)})`);
  await e2e.shot(page, 'gst-filing-quarter');

  // The IFF of month 1: its B2B invoice only.
  const iff = await download(page, `download-iff-${month1}`);
  expect(iff.name).toBe(`IFF_${MH_GSTIN}_${month1.slice(5)}${month1.slice(0, 4)}.json`);
  const iffDoc = JSON.parse(iff.text);
  expect(iffDoc.b2b).toEqual([{ ctin: GJ_GSTIN, inv: [expect.objectContaining({ inum: invoiceNo, val: 1180, itms: [{ num: 1, itm_det: { txval: 1000, rt: 18, iamt: 180, csamt: 0 } }] })] }]);
  expect(iffDoc.b2cs).toBeUndefined();

  // Mark it filed: a wrong ARN shows the server's sentence; the right one the badge.
  await page.getByTestId(`mark-filed-${month1}`).click();
  await page.getByTestId('arn-input').fill('AA2401010000011');
  await page.getByTestId('arn-save').click();
  await page.getByTestId('arn-error').filter({ hasText: "The ARN's state code is 24, but this company's GSTIN is of state 27" }).waitFor();
  const arn = `AA27${today.slice(5, 7)}${today.slice(2, 4)}0000011`;
  await page.getByTestId('arn-input').fill(arn.toLowerCase());
  await page.getByTestId('arn-save').click();
  await page.getByTestId(`filed-${month1}`).filter({ hasText: `Filed · ARN ${arn}` }).waitFor();
  // The quarter is read again: the IFF's invoice leaves its B2B section.
  await page.getByTestId('gst-b2b').getByText(invoiceNo).waitFor({ state: 'detached' });
  await page.getByTestId('gst-b2cs').waitFor();
  await e2e.shot(page, 'gst-filing-marked');

  // Return one sheet from the month's bill in the bill view: a credit note dated today.
  await page.goto(`/salesList/bill/show/${saleId}`);
  await page.getByTestId('bill').waitFor();
  await page.getByTestId('return-items').click();
  const dialog = page.getByTestId('sales-return-dialog');
  await dialog.waitFor();
  await dialog.getByLabel(new RegExp(`Return quantity of .*${PLY}`)).fill('1');
  // 1 of 2: taxable 500.00 + IGST 90.00 = 590.00.
  await dialog.getByTestId('return-value').filter({ hasText: '₹590.00' }).waitFor();
  await page.getByTestId('return-confirm').click();
  await dialog.getByTestId('return-done').waitFor();
  const noteNo = ((await dialog.getByTestId('return-note-no').textContent()) ?? '').trim();
  expect(noteNo).toMatch(/^CN\/\d{2}-\d{2}\/0001$/);
  const notes = await ok<{ list: { id: number; credit_note_no: string; Date: string }[] }>('GET', '/getCreditNoteList?pageNo=0');
  expect(notes.list[0]).toMatchObject({ credit_note_no: noteNo, Date: today });

  // Last quarter's GSTR-1: the filed IFF's invoice left out of b2b; HSN and documents whole; the IFF unchanged.
  await page.goto('/reports/gst');
  await page.getByTestId('gst-quarter').selectOption(lastQ);
  await page.getByTestId(`filed-${month1}`).waitFor();
  await page.getByTestId('gst-b2cs').waitFor();
  expect((await download(page, `download-iff-${month1}`)).text).toBe(iff.text);
  const last = await download(page, 'download-json');
  const fp = `${month3.slice(5)}${month3.slice(0, 4)}`;
  expect(last.name).toBe(`GSTR1_${MH_GSTIN}_${fp}.json`);
  const lastDoc = JSON.parse(last.text);
  expect(lastDoc).toMatchObject({ gstin: MH_GSTIN, fp });
  expect(lastDoc.b2b ?? []).toEqual([]);
  expect(JSON.stringify(lastDoc.hsn)).toContain('"hsn_sc":"4412"');
  expect(JSON.stringify(lastDoc.doc_issue)).toMatch(/"totnum":2/);

  // This quarter's GSTR-1: the credit note in cdnr, dated today.
  await page.getByTestId('gst-quarter').selectOption(nowQ);
  await page.getByTestId(`filing-${nowQ}`).waitFor();
  // This quarter has not ended: nothing to mark filed yet.
  expect(await page.getByTestId(`mark-filed-${nowQ}`).count()).toBe(0);
  await page.waitForLoadState('networkidle');
  await page.getByTestId('gst-cdnr').getByText(noteNo).waitFor();
  const now = JSON.parse((await download(page, 'download-json')).text);
  expect(now.cdnr).toEqual([{ ctin: GJ_GSTIN, nt: [expect.objectContaining({ nt_num: noteNo, nt_dt: ddmmyyyy(today), val: 590, itms: [{ num: 1, itm_det: { txval: 500, rt: 18, iamt: 90, csamt: 0 } }] })] }]);
  await e2e.shot(page, 'gst-filing-current-quarter');

  // The quarter's GSTR-3B JSON, from the page: the quarter's return period, the credit note's
  // 590 (taxable 500, IGST 90) above this quarter's sales shows 0 in 3.1(a) (no negative value).
  const threeB = await download(page, 'download-3b-json');
  const nowLast = (() => {
    let m = today.slice(0, 7);
    while (quarterOf(monthBefore(m, -1)) === nowQ) m = monthBefore(m, -1);
    return m;
  })();
  expect(threeB.name).toBe(`GSTR3B_${MH_GSTIN}_${nowLast.slice(5)}${nowLast.slice(0, 4)}.json`);
  const threeBDoc = JSON.parse(threeB.text);
  expect(threeBDoc).toMatchObject({ gstin: MH_GSTIN, ret_period: `${nowLast.slice(5)}${nowLast.slice(0, 4)}` });
  expect(threeBDoc.sup_details.osup_det).toMatchObject({ txval: 0, iamt: 0 });
  // A back-dated sale into the filed month is refused with the sentence.
  await ok('GET', `/addProductIntoCart/${ply}`);
  const refused = await e2e.api<{ message: string }>('POST', '/MAKE_SALE', { token: manager, body: { clientId: 0, cart_no: 1, paid: '0', date: `${month1}-20`, dueDate: today } });
  expect(refused.status).toBe(400);
  expect(refused.body.message).toContain(`is filed (ARN ${arn}): a sale cannot be dated ${month1}-20 any more`);
});
