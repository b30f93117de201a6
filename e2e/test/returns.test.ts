// Returns and corrections in the browser: a manager returns items from the bill view (a credit
// note), cancels a bill, sees a cancel refused after a payment, sends goods back to a distributor
// (a debit note); staff see neither Return nor Cancel. Real services behind the gateway.
import fs from 'node:fs';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { ACCOUNTS, login, startE2E, type E2E } from '../src/harness';
import { todayIST } from '../src/dates';

const ROOT = path.resolve(__dirname, '..', '..');
let e2e: E2E;
let manager: string;
let customerId: number;

// Demo catalogue (services/inventory seed): id, MRP, cost; barcode 89012 + (100000 + id).
const P = {
  ply4: { id: 10, mrp: 520, cp: 410, name: 'Commercial Plywood 4mm' },
  ply18: { id: 9, mrp: 1450, name: 'Commercial Plywood 18mm 7x4' },
  walnut: { id: 14, mrp: 1250, name: 'Merino 1mm Walnut Suede Laminate' },
  white: { id: 15, mrp: 1350, name: 'Merino 1mm Frosty White Gloss' },
  teak: { id: 16, mrp: 1180, name: 'Greenlam 1mm Teak Matt' },
};
const barcode = (id: number) => `89012${100000 + id}`;

const api = <T = any>(method: string, p: string, body?: unknown, token = manager) => e2e.api<T>(method, p, { token, body });
const shot = (page: Page, name: string) => e2e.shot(page, `returns-${name}`);
const dueOf = async (id: number) => (await api<{ due: number }>('GET', `/getClientDue?custId=${id}`)).body.due;
const stockOf = async (id: number) => Number((await api('GET', `/getProductDetails?id=${id}`)).body.product.stock);
const distributorDue = async (id: number) => (await api('GET', `/getDistributorsDetails?id=${id}`)).body.data.due as number;

/** Fills cart 1 with [product, quantity] lines and optional summary discount, 18 % tax and shipping, then sells it. */
async function sale(lines: [number, number][], paid: string, discount?: string, opts: { walkIn?: boolean; tax?: boolean; shipping?: string } = {}): Promise<number> {
  expect((await api('DELETE', '/clearCart/1')).status).toBe(200);
  for (const [id, q] of lines) expect((await api('GET', `/addProductIntoCart/${encodeURIComponent(`${q}*${barcode(id)}`)}`)).status).toBe(200);
  if (discount) expect((await api('POST', '/upSummeryDisc/', { cart_no: 1, discount })).status).toBe(200);
  if (opts.tax) expect((await api('POST', '/upTax/', { cart_no: 1, tax: 1 })).status).toBe(200);
  if (opts.shipping) expect((await api('POST', '/upShip/', { cart_no: 1, shipping: opts.shipping })).status).toBe(200);
  const r = await api('POST', '/MAKE_SALE', { clientId: opts.walkIn ? 0 : customerId, cart_no: 1, paid, dueDate: '2030-12-31', date: todayIST() });
  expect(r.status).toBe(200);
  return r.body.saleId;
}

/** The PDF reply a click caused: 200, application/pdf, fetched with the session's token; the tab it opened is closed. */
async function opensPdf(page: Page, urlPart: string, click: () => Promise<unknown>): Promise<Response> {
  const tab = page.context().waitForEvent('page');
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().includes(`/api/documents/${urlPart}`), { timeout: 60_000 }), click()]);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/pdf/);
  // The same document read directly is a PDF (the page's copy went into a blob).
  const direct = await fetch(res.url(), { headers: { Authorization: `Bearer ${manager}` } });
  expect(direct.status).toBe(200);
  expect(Buffer.from(await direct.arrayBuffer()).subarray(0, 4).toString('latin1')).toBe('%PDF');
  expect(await res.request().headerValue('authorization')).toMatch(/^Bearer .+/);
  const opened = await tab;
  await opened.waitForURL(/^blob:/);
  await opened.close();
  return res;
}

async function managerPage(): Promise<Page> {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  return page;
}

beforeAll(async () => {
  for (const f of ['frontends/sales/dist/mf-manifest.json', 'frontends/purchase/dist/mf-manifest.json', ...['inventory', 'ledger', 'sales', 'documents'].map((s) => `services/${s}/dist/main.js`)]) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first.`);
  }
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents'], env: {} });
  manager = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.manager })).body.token;
  for (let i = 0; i < 100; i++) {
    if ((await api('GET', '/getProductList')).body?.count >= 50) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  const added = await api('POST', '/clients/addClient', {
    mobile_no: '9812377001', name: 'Revati Kulkarni', address_line_1: '12 Lake View', address_line_2: '', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411001',
  });
  expect(added.status).toBeLessThan(300);
  customerId = added.body.id;
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
});

describe('returns from the bill view', () => {
  let saleId: number;

  it('a manager returns two of five items: credit note number, the value, the bill status, the ledger row and its PDF', async () => {
    // Five lines: 2 x 520 = 1040, 1450, 1250, 1350, 1180 -> subtotal 6270; summary discount 270
    // -> amount 6000; paid 1000 -> the customer owes 5000 (a new customer, no previous due).
    saleId = await sale([[P.ply4.id, 2], [P.ply18.id, 1], [P.walnut.id, 1], [P.white.id, 1], [P.teak.id, 1]], '1000', '270');
    expect(await dueOf(customerId)).toBe(5000);
    const stock4 = await stockOf(P.ply4.id);
    const stock18 = await stockOf(P.ply18.id);

    const page = await managerPage();
    await page.goto(`/salesList/bill/show/${saleId}`);
    await page.getByTestId('bill').waitFor();
    await page.getByTestId('return-items').click();
    const dialog = page.getByTestId('sales-return-dialog');
    await dialog.waitFor();
    // Each line shows what can come back; nothing is picked yet.
    const qty = (p: { name: string }) => dialog.getByLabel(`Return quantity of ${p.name}`);
    const lineRow = (p: { name: string }) => dialog.locator('tbody tr', { hasText: p.name });
    expect((await lineRow(P.ply4).textContent()) ?? '').toContain('max 2');
    expect(await dialog.getByTestId('return-value').textContent()).toBe('₹0.00');
    await qty(P.ply4).fill('3');
    await dialog.getByText('At most 2').waitFor();
    expect(await page.getByTestId('return-confirm').isDisabled()).toBe(true);

    // One of the two 4 mm sheets and the 18 mm sheet. The discount 270 is spread over the lines
    // by amount to the paisa: 1040 x 270 / 6270 = 44.78, 1450 x 270 / 6270 = 62.44 (+0.01 left
    // by rounding the five shares, 269.99, goes to the largest line) = 62.45. 4 mm: (1040 - 44.78)
    // x 1 / 2 = 497.61; 18 mm, the whole line: 1450 - 62.45 = 1387.55; together 1885.16.
    await qty(P.ply4).fill('1');
    await qty(P.ply18).fill('1');
    await dialog.getByTestId('return-value').filter({ hasText: '₹1,885.16' }).waitFor();
    // Not the walk-in: the credit lowers the due, no cash by default.
    expect(await dialog.getByLabel(/Refund in cash/).inputValue()).toBe('0');
    await dialog.getByLabel('Reason').fill('Damaged edges');
    await shot(page, 'dialog');

    // A double click makes one note (the button is disabled while the request runs and the key is kept).
    const posted: string[] = [];
    page.on('request', (r) => r.url().includes('/api/salesReturn') && posted.push(r.postData() ?? ''));
    await page.getByTestId('return-confirm').dblclick();
    await dialog.getByTestId('return-done').waitFor();
    const noteNo = ((await dialog.getByTestId('return-note-no').textContent()) ?? '').trim();
    expect(noteNo).toMatch(/^CN\/\d{2}-\d{2}\/0001$/);
    expect(await dialog.getByTestId('return-note-amount').textContent()).toBe('₹1,885.16');
    expect(new Set(posted.map((b) => JSON.parse(b).idempotencyKey)).size).toBe(1);
    await shot(page, 'done');
    const notes = (await api('GET', '/getCreditNoteList?pageNo=0')).body.list;
    expect(notes.filter((n: { saleId: number }) => n.saleId === saleId)).toHaveLength(1);
    const noteId: number = notes[0].id;
    await opensPdf(page, `credit-note/${noteId}`, () => page.getByTestId('return-note-pdf').click());
    await page.getByTestId('return-close').click();

    // The bill: Partly returned, its credit note listed; stock and due follow (5000 - 1885.16 = 3114.84).
    await page.getByTestId('bill-status').filter({ hasText: 'Partly returned' }).waitFor();
    expect((await page.getByTestId(`bill-credit-note-${noteId}`).textContent()) ?? '').toContain(noteNo);
    expect(await stockOf(P.ply4.id)).toBe(stock4 + 1);
    expect(await stockOf(P.ply18.id)).toBe(stock18 + 1);
    expect(await dueOf(customerId)).toBeCloseTo(3114.84, 2);
    // The 18 mm line is all back: nothing more to return there.
    await page.getByTestId('return-items').click();
    expect(await qty(P.ply18).isDisabled()).toBe(true);
    expect((await lineRow(P.ply4).textContent()) ?? '').toContain('max 1');
    await page.keyboard.press('Escape');
    // A bill with a return can no longer be cancelled: the button says why.
    expect(await page.getByTestId('cancel-bill').isDisabled()).toBe(true);
    expect(((await page.getByTestId('cancel-bill-reason').textContent()) ?? '').length).toBeGreaterThan(10);
    await shot(page, 'bill-partly-returned');

    // Sells Account: the status column.
    await page.goto('/salesList');
    await page.getByTestId(`sale-status-${saleId}`).filter({ hasText: 'Partly returned' }).waitFor();
    // Credit Notes list.
    await page.getByTestId('open-credit-notes').click();
    await page.getByTestId(`credit-note-pdf-${noteId}`).filter({ hasText: noteNo }).waitFor();
    await shot(page, 'credit-notes');

    // The customer's ledger: a Credit Note row with its number, opening the PDF.
    await page.goto(`/clientList/transaction/${customerId}`);
    const row = page.getByTestId('ledger-table').locator('tr', { hasText: 'Credit Note' });
    await row.waitFor();
    expect((await row.textContent()) ?? '').toContain('₹1,885.16');
    await shot(page, 'ledger');
    await opensPdf(page, `credit-note/${noteId}`, () => row.getByTestId(`ledger-credit-note-${noteId}`).filter({ hasText: noteNo }).click());
  }, 180_000);

  it('the walk-in takes the money back in cash; the return that completes the bill credits the shipping too', async () => {
    // 3 x 520 = 1560, tax 18 % = 280.80, shipping 50 -> 1890.80, all paid in cash.
    const walkInSale = await sale([[P.ply4.id, 3]], '1890.8', undefined, { walkIn: true, tax: true, shipping: '50' });
    const page = await managerPage();
    await page.goto(`/salesList/bill/show/${walkInSale}`);
    await page.getByTestId('bill-amount').filter({ hasText: '₹1,890.80' }).waitFor();
    const dialog = page.getByTestId('sales-return-dialog');
    const qty = dialog.getByLabel(`Return quantity of ${P.ply4.name}`);
    const refund = dialog.getByLabel('Refund in cash');

    // 1 of 3: the line's share without shipping (1560 + 280.80 = 1840.80) x 1 / 3 = 613.60,
    // and the walk-in's refund starts at all of it.
    await page.getByTestId('return-items').click();
    await qty.fill('1');
    await dialog.getByTestId('return-value').filter({ hasText: '₹613.60' }).waitFor();
    expect(await refund.inputValue()).toBe('613.6');
    // More than the value is refused before anything is sent.
    await refund.fill('700');
    await dialog.getByText('At most ₹613.60').waitFor();
    expect(await page.getByTestId('return-confirm').isDisabled()).toBe(true);
    await refund.fill('613.60');
    await page.getByTestId('return-confirm').click();
    await dialog.getByTestId('return-note-amount').filter({ hasText: '₹613.60' }).waitFor();
    await page.getByTestId('return-close').click();
    await page.getByTestId('bill-status').filter({ hasText: 'Partly returned' }).waitFor();

    // The last 2 bring the whole bill back: 1890.80 - 613.60 = 1277.20, shipping included.
    await page.getByTestId('return-items').click();
    await qty.fill('2');
    await dialog.getByTestId('return-value').filter({ hasText: '₹1,277.20' }).waitFor();
    expect(await refund.inputValue()).toBe('1277.2');
    await shot(page, 'walk-in-last');
    await page.getByTestId('return-confirm').click();
    await dialog.getByTestId('return-note-amount').filter({ hasText: '₹1,277.20' }).waitFor();
    await page.getByTestId('return-close').click();
    await page.getByTestId('bill-status').filter({ hasText: /^Returned$/ }).waitFor();
    expect(await page.getByTestId('bill-credit-notes').locator('[data-testid^="bill-credit-note-"]').count()).toBe(2);
    // Nothing is left to return.
    expect(await page.getByTestId('return-items').count()).toBe(0);
    await shot(page, 'walk-in-returned');
  }, 120_000);

  it('staff see the bill but neither Return items nor Cancel bill', async () => {
    const page = await e2e.newPage();
    await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
    await page.goto(`/salesList/bill/show/${saleId}`);
    await page.getByTestId('bill').waitFor();
    await page.getByTestId('bill-status').filter({ hasText: 'Partly returned' }).waitFor();
    expect(await page.getByTestId('return-items').count()).toBe(0);
    expect(await page.getByTestId('cancel-bill').count()).toBe(0);
    await shot(page, 'staff-bill');
    // And the server refuses them as well.
    const staff = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.staff })).body.token;
    const sl_no = (await api('GET', `/getBillDetails?id=${saleId}`)).body.soldProducts.find((l: { product_id: number }) => l.product_id === P.walnut.id).sl_no;
    const r = await api('POST', '/salesReturn', { saleId, lines: [{ sl_no, quantity: 1 }], refund: 0, idempotencyKey: 'staff-try' }, staff);
    expect(r.status).toBe(403);
  }, 90_000);
});

describe('cancelling a bill', () => {
  it('a manager cancels a bill with a reason: CANCELLED on the bill and the list, stock and due back', async () => {
    const dueBefore = await dueOf(customerId);
    const stockBefore = await stockOf(P.teak.id);
    // 3 x 1180 = 3540 on credit.
    const saleId = await sale([[P.teak.id, 3]], '0');
    expect(await dueOf(customerId)).toBeCloseTo(dueBefore + 3540, 2);

    const page = await managerPage();
    await page.goto(`/salesList/bill/show/${saleId}`);
    await page.getByTestId('bill').waitFor();
    await page.getByTestId('cancel-bill').click();
    // Reason and confirmation are both needed.
    expect(await page.getByTestId('cancel-confirm').isDisabled()).toBe(true);
    await page.getByTestId('cancel-reason').fill('Billed to the wrong customer');
    expect(await page.getByTestId('cancel-confirm').isDisabled()).toBe(true);
    await page.getByTestId('cancel-sure').check();
    await shot(page, 'cancel-dialog');
    await page.getByTestId('cancel-confirm').click();
    const banner = page.getByTestId('bill-cancelled');
    await banner.waitFor();
    expect((await banner.textContent()) ?? '').toContain('Billed to the wrong customer');
    expect(await page.getByTestId('cancel-bill').count()).toBe(0);
    expect(await page.getByTestId('return-items').count()).toBe(0);
    await shot(page, 'bill-cancelled');

    expect(await stockOf(P.teak.id)).toBe(stockBefore);
    expect(await dueOf(customerId)).toBeCloseTo(dueBefore, 2);
    await page.goto('/salesList');
    await page.getByTestId(`sale-status-${saleId}`).filter({ hasText: 'Cancelled' }).waitFor();
    await shot(page, 'sales-list');
    // The customer's ledger: a Sale Cancelled row leading to the bill.
    await page.goto(`/clientList/transaction/${customerId}`);
    const row = page.getByTestId('ledger-table').locator('tr', { hasText: 'Sale Cancelled' });
    await row.waitFor();
    expect((await row.textContent()) ?? '').toContain('₹3,540.00');
    await row.getByRole('link', { name: `Sale #${saleId}` }).click();
    await page.getByTestId('bill-cancelled').waitFor();
  }, 120_000);

  it('a bill the customer paid against afterwards cannot be cancelled: the screen says why', async () => {
    const saleId = await sale([[P.white.id, 1]], '0');
    const pay = await api('POST', '/salesDuePayment', { client_id: customerId, amount: '500', nextDD: '2030-12-31' });
    expect(pay.body).toEqual({ done: true, paymentId: expect.any(Number) });

    const page = await managerPage();
    await page.goto(`/salesList/bill/show/${saleId}`);
    await page.getByTestId('bill').waitFor();
    const button = page.getByTestId('cancel-bill');
    await button.waitFor();
    let why: string;
    if (await button.isDisabled()) {
      // The bill details already know: the reason stands next to the button.
      why = (await page.getByTestId('cancel-bill-reason').textContent()) ?? '';
    } else {
      // Only the ledger knows (it checks atomically): the refusal is shown in the dialog.
      await button.click();
      await page.getByTestId('cancel-reason').fill('Try after a payment');
      await page.getByTestId('cancel-sure').check();
      await page.getByTestId('cancel-confirm').click();
      why = (await page.getByTestId('cancel-error').textContent()) ?? '';
    }
    expect(why).toMatch(/payment/i);
    await shot(page, 'cancel-refused');
    expect((await api('GET', `/getBillDetails?id=${saleId}`)).body.cancelled ?? null).toBeNull();
  }, 120_000);
});

describe('return to distributor', () => {
  it('a manager returns one of three bought sheets from the purchase detail: a debit note, stock and due down', async () => {
    const data = (await api('GET', '/checkOutPurchase')).body;
    const officer = data.officers[0];
    const dist = data.distributors.find((d: { distributor_id: number }) => d.distributor_id === officer.distributor_id);
    expect((await api('DELETE', '/clearCart/1')).status).toBe(200);
    expect((await api('GET', `/addProductIntoCart/${encodeURIComponent(`3*${barcode(P.ply4.id)}`)}`)).status).toBe(200);
    const dueBefore = await distributorDue(dist.distributor_id);
    // 3 sheets at cost 410 = 1230, nothing paid.
    const bought = await api('POST', '/checkOutPurchase', { bill_no: 'RT-11', distributor: dist.distributor_id, officer: officer.id, paid: '0', due_date: '2030-12-31', cart_no: 1 });
    expect(bought.status).toBeLessThan(300);
    const purchaseId: number = bought.body[0].purchaseId ?? bought.body[0].id;
    expect(await distributorDue(dist.distributor_id)).toBeCloseTo(dueBefore + 1230, 2);
    const stockBefore = await stockOf(P.ply4.id);

    const page = await managerPage();
    await page.goto(`/purchase/${purchaseId}`);
    await page.getByTestId('purchase-title').waitFor();
    await page.getByTestId('return-to-distributor').click();
    const dialog = page.getByTestId('purchase-return-dialog');
    await dialog.waitFor();
    // 1 of 3 sheets at 410, no tax or discount: 410.00; the refund starts at 0.
    await dialog.getByLabel(`Return quantity of ${P.ply4.id} : ${P.ply4.name}`).fill('1');
    await dialog.getByTestId('return-value').filter({ hasText: '₹410.00' }).waitFor();
    expect(await dialog.getByLabel('Refund from the distributor').inputValue()).toBe('0');
    await dialog.getByLabel('Reason').fill('Cracked sheet');
    await shot(page, 'purchase-dialog');
    await page.getByTestId('return-confirm').click();
    await dialog.getByTestId('return-done').waitFor();
    const noteNo = ((await dialog.getByTestId('return-note-no').textContent()) ?? '').trim();
    expect(noteNo).toMatch(/^DN\/\d{2}-\d{2}\/\d{4}$/);
    expect(await dialog.getByTestId('return-note-amount').textContent()).toBe('₹410.00');
    await page.getByTestId('return-close').click();

    const notes = page.getByTestId('purchase-debit-notes');
    await notes.getByText(noteNo).waitFor();
    expect((await notes.textContent()) ?? '').toContain('Partly returned');
    expect(await stockOf(P.ply4.id)).toBe(stockBefore - 1);
    expect(await distributorDue(dist.distributor_id)).toBeCloseTo(dueBefore + 1230 - 410, 2);
    await shot(page, 'purchase-detail');

    const list = (await api('GET', '/getDebitNoteList?pageNo=0')).body.list;
    const noteId: number = list.find((n: { debit_note_no: string }) => n.debit_note_no === noteNo).id;
    // The distributor's ledger: a Debit Note row with its number, opening its PDF.
    await page.goto(`/distributor/transaction/${dist.distributor_id}`);
    const row = page.getByTestId('distributor-history').locator('tr', { hasText: 'Debit Note' });
    await row.first().waitFor();
    await shot(page, 'distributor-ledger');
    await opensPdf(page, `debit-note/${noteId}`, () => row.getByTestId(`ledger-debit-note-${noteId}`).filter({ hasText: noteNo }).click());
    // Debit Notes list in the purchase area.
    await page.goto('/purchaseList');
    await page.getByTestId('open-debit-notes').click();
    await page.getByTestId(`debit-note-pdf-${noteId}`).filter({ hasText: noteNo }).waitFor();
    await shot(page, 'debit-notes');
  }, 180_000);
});

// Last: it turns the demo company to GST mode.
describe('GST mode', () => {
  it('a credit note reverses IGST at the bill line rates; the dialog shows the value the server books', async () => {
    const company = (await api('GET', '/getCompanyDetails')).body;
    expect((await api('POST', '/setCompanyDetails', { id: company.id, name: company.name, add1: company.add1 || 'Mumbai', mob1: company.mob1 || '9876543210', email: company.email || 'demo@demo.local', tax_mode: 'gst', gstin: '27AAPFU0939F1ZV', invoice_prefix: 'GT' })).status).toBe(200);
    const { category } = (await api('GET', '/addProductPageDetails')).body;
    const product = async (name: string, mrp: string, tax: string, hsn: string, includes: boolean) =>
      (await api('POST', '/createNewProduct', { catagory: category[0].id, brand_name: 'Century', name, mrp, cp: '50', unit: 'pcs', per_peice_quantity: 1, tax, hsn_code: hsn, price_includes_tax: includes })).body.id as number;
    const ply = await product('Century Club Prime 18mm', '590', '18', '4412', true);
    const door = await product('Century Flush Door Fitting', '100', '12', '4418', false);
    const buyer = (await api('POST', '/clients/addClient', {
      mobile_no: '9825011224', name: 'Shah Interiors', address_line_1: '12 Ring Road', address_line_2: '', city_or_district: 'Surat', state: '24', country: 'India', postal_code: '395003', gstin: '24AAGCS5678K1ZT',
    })).body.id as number;
    // Inter-state B2B: 3 x 590 incl. 18 % (own taxable 1500) and 2 x (100 - 5) excl. 12 % (190);
    // shipping 50 less discount 20 = 30 spread by them: 26.63 and 3.37 -> taxable 1526.63 and 193.37.
    expect((await api('DELETE', '/clearCart/1')).status).toBe(200);
    await api('GET', `/addProductIntoCart/${encodeURIComponent(`3*${ply}`)}`);
    const [[doorLine]] = (await api('GET', `/addProductIntoCart/${encodeURIComponent(`2*${door}`)}`)).body;
    expect((await api('POST', '/upDisc/', { sl_no: doorLine.sl_no, discount: '5' })).status).toBe(200);
    expect((await api('POST', '/upShip/', { cart_no: 1, shipping: '50' })).status).toBe(200);
    expect((await api('POST', '/upSummeryDisc/', { cart_no: 1, discount: '20' })).status).toBe(200);
    const made = await api('POST', '/MAKE_SALE', { clientId: buyer, cart_no: 1, paid: '0', dueDate: '2030-12-31', date: todayIST() });
    expect(made.status).toBe(200);
    const saleId: number = made.body.saleId;

    const page = await managerPage();
    await page.goto(`/salesList/bill/show/${saleId}`);
    await page.getByTestId('bill-invoice-no').waitFor();
    await page.getByTestId('return-items').click();
    const dialog = page.getByTestId('sales-return-dialog');
    // A partial return credits the discount share, not shipping: discount 20 by 1500 : 190 =
    // 17.75 and 2.25 -> 1482.25 and 187.75. 1 of 3 boards: 494.08 + IGST 18 % 88.93 = 583.01;
    // 1 of 2 fittings: 93.88 (93.875 up) + IGST 12 % 11.27 = 105.15; together 688.16.
    await dialog.getByLabel('Return quantity of Century Club Prime 18mm').fill('1');
    await dialog.getByLabel('Return quantity of Century Flush Door Fitting').fill('1');
    await dialog.getByTestId('return-value').filter({ hasText: '₹688.16' }).waitFor();
    await shot(page, 'gst-dialog');
    await page.getByTestId('return-confirm').click();
    await dialog.getByTestId('return-note-amount').filter({ hasText: '₹688.16' }).waitFor();
    const noteNo = ((await dialog.getByTestId('return-note-no').textContent()) ?? '').trim();
    const note = (await api('GET', '/getCreditNoteList?pageNo=0')).body.list.find((n: { credit_note_no: string }) => n.credit_note_no === noteNo);
    const details = (await api('GET', `/getCreditNoteDetails?id=${note.id}`)).body;
    expect(details.gst).toMatchObject({ inter_state: true, taxable_total: 587.96, igst_total: 100.2, invoice_no: made.body.invoice_no });
    await page.getByTestId('return-close').click();
    await page.getByTestId('bill-status').filter({ hasText: 'Partly returned' }).waitFor();
  }, 120_000);
});
