// Credit notes and cancelled bills in GST mode: the tax reversed at the invoice's rates and heads,
// the original invoice, GSTIN and place of supply carried, the round off on the note completing
// the bill, and a cancelled invoice keeping its number. Every figure is worked out by hand.
import request from 'supertest';
import { Subjects } from '@bahi/contracts';
import { financialYearOf, today } from '@bahi/service-kit';
import { as, auth, category, product, startSales, tokenFor, type Stack } from './helpers';

// The GST portal's example GSTIN (Maharashtra, 27) and a Gujarat (24) one (see gst-sale.test.ts).
const GSTIN_MH = '27AAPFU0939F1ZV';
const GSTIN_GJ = '24AAGCS5678K1ZT';

let s: Stack;
let mgr: string;
let M: ReturnType<typeof as>;
let bottle: number; // 590.00 incl. 18 %
let notebook: number; // 100.00 excl. 12 %
let gujarat: number;
const FY = financialYearOf(today());
const cn = (n: number) => `CN/${FY}/${String(n).padStart(4, '0')}`;

const stock = async (id: number) => Number((await s.ask<any>(Subjects.inventory.productLookup, { companyId: s.companyId, code: String(id) })).stock);
const due = async (id: number) => Number((await s.ask<any>(Subjects.ledger.partyDue, { companyId: s.companyId, party: { kind: 'customer', id } })).due);

async function sell(items: [number, string, string?][], summary: { shipping?: string; discount?: string }, clientId = 0, paid = '0') {
  await M.del('/clearCart/1').expect(200);
  const lines: number[] = [];
  for (const [id, qty, disc] of items) {
    const line = (await M.get(`/addProductIntoCart/${encodeURIComponent(`${qty}*${id}`)}?cart_no=1`).expect(200)).body[0][0];
    lines.push(line.sl_no);
    if (disc) await M.post('/upDisc', { sl_no: line.sl_no, discount: disc, cart_no: 1 }).expect(200);
  }
  await M.post('/upShip', { cart_no: 1, shipping: summary.shipping ?? '0' }).expect(200);
  await M.post('/upSummeryDisc', { cart_no: 1, discount: summary.discount ?? '0' }).expect(200);
  const r = await M.post('/MAKE_SALE', { clientId, cart_no: 1, paid }).expect(200);
  return { saleId: r.body.saleId as number, invoice_no: r.body.invoice_no as string, lines };
}

beforeAll(async () => {
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  M = as(s.url, mgr);
  await request(s.identity.url)
    .post('/setCompanyDetails')
    .set(auth(mgr))
    .send({ id: s.companyId, name: 'Sharma General Store', add1: '4 Station Road', add2: 'Pune', mob1: '9822001122', mob2: '', email: 'shop@sharma.in', tax_mode: 'gst', gstin: GSTIN_MH, invoice_prefix: 'SG' })
    .expect(200);
  const cat = await category(s.inventory.url, mgr, 'Stationery');
  bottle = await product(s.inventory.url, mgr, cat, { name: 'Steel Bottle', mrp: '590', tax: '18', hsn_code: '7323', unit: 'pcs', stock: '1000' });
  notebook = await product(s.inventory.url, mgr, cat, { name: 'Notebook', mrp: '100', tax: '12', price_includes_tax: false, hsn_code: '4820', unit: 'pcs', stock: '1000' });
  const c = await request(s.ledger.url).post('/clients/addClient').set(auth(mgr)).send({
    mobile_no: '9876500024', name: 'Surat Traders', address_line_1: '9 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: GSTIN_GJ,
  });
  if (c.status !== 200) throw new Error(`customer: ${c.status} ${JSON.stringify(c.body)}`);
  gujarat = c.body.id;
}, 120_000);
afterAll(() => s?.stop());

describe('intra-state (walk-in), with a line discount, shipping and a summary discount', () => {
  // Bottle: 3 x 590 = 1770 incl. 18 % -> taxable 1770 x 100/118 = 1500.00.
  // Notebook: 2 x (100 - 5) = 190 excl. 12 % -> taxable 190.00.
  // Shipping 40 less discount 50 = -10.00 over 1500 : 190: -8.8757 -> -8.88, -1.1243 -> -1.12.
  // Taxable: bottle 1491.12, notebook 188.88 (total 1680.00).
  // CGST = SGST: 1491.12 x 9 % = 134.2008 -> 134.20; 188.88 x 6 % = 11.3328 -> 11.33.
  // Tax 2 x (134.20 + 11.33) = 291.06; 1971.06 -> invoice value 1971.00, round off -0.06.
  // Summary discount alone over 1500 : 190: 44.3787 -> 44.38, 5.6213 -> 5.62.
  let bill: Awaited<ReturnType<typeof sell>>;

  beforeAll(async () => {
    bill = await sell([[bottle, '3'], [notebook, '2', '5']], { shipping: '40', discount: '50' });
    const b = (await M.get(`/getBillDetails?id=${bill.saleId}`).expect(200)).body;
    expect(b.saleDetails).toMatchObject({ taxable_total: 1680, cgst_total: 145.53, sgst_total: 145.53, round_off: -0.06, invoice_value: 1971, amount: 1971 });
  });

  it('a partial return reverses CGST and SGST at 18 % on the line less its discount share, no shipping', async () => {
    const before = await stock(bottle);
    // 1 of 3 bottles: (1500 - 44.38) / 3 = 485.2066 -> 485.21; CGST = SGST = 485.21 x 9 % = 43.6689 -> 43.67;
    // value 485.21 + 87.34 = 572.55. Amount 1770 / 3 = 590.00; discount 44.38 / 3 = 14.7933 -> 14.79.
    const r = await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: bill.lines[0], quantity: 1 }], refund: '572.55' }).expect(200);
    expect(r.body).toMatchObject({ credit_note_no: cn(1), amount: 572.55, refund: 572.55 });
    expect(await stock(bottle)).toBe(before + 1);
    const d = (await M.get(`/getCreditNoteDetails?id=${r.body.creditNoteId}`).expect(200)).body;
    expect(d).toMatchObject({ subtotal: 590, discount: 14.79, tax: 0, shipping: 0, amount: 572.55 });
    expect(d.gst).toEqual({
      tax_mode: 'gst', invoice_no: bill.invoice_no, invoice_date: today(), gstin: null, place_of_supply: '27', place_of_supply_name: 'Maharashtra',
      inter_state: false, state_tax_name: 'SGST', taxable_total: 485.21, cgst_total: 43.67, sgst_total: 43.67, igst_total: 0, tax_total: 87.34, round_off: 0,
    });
    expect(d.lines).toEqual([expect.objectContaining({ quantity: 1, gst_rate: 18, taxable_value: 485.21, cgst: 43.67, sgst: 43.67, igst: 0, value: 572.55 })]);
  });

  it('the return completing the bill takes the rest of each line, shipping share included, and the round off', async () => {
    // Bottle: 1491.12 - 485.21 = 1005.91; CGST = SGST = 134.20 - 43.67 = 90.53 -> 1186.97.
    // Notebook: 188.88; CGST = SGST = 11.33 -> 211.54.
    // Taxable 1194.79; CGST = SGST = 101.86; tax 203.72; 1398.51.
    // Amount = 1971.00 - 572.55 = 1398.45; round off 1398.45 - 1398.51 = -0.06 (the invoice's).
    const r = await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: bill.lines[0], quantity: 2 }, { sl_no: bill.lines[1], quantity: 2 }], refund: '0' }).expect(200);
    expect(r.body).toMatchObject({ credit_note_no: cn(2), amount: 1398.45 });
    const d = (await M.get(`/getCreditNoteDetails?id=${r.body.creditNoteId}`).expect(200)).body;
    expect(d.gst).toMatchObject({ taxable_total: 1194.79, cgst_total: 101.86, sgst_total: 101.86, igst_total: 0, tax_total: 203.72, round_off: -0.06 });
    expect(d.lines.map((l: any) => [l.taxable_value, l.cgst, l.value])).toEqual([[1005.91, 90.53, 1186.97], [188.88, 11.33, 211.54]]);
    // Amount 1770 - 590 + 190 = 1370; discount 44.38 - 14.79 + 5.62 = 35.21; shipping shown 40 (inside the taxable value).
    expect(d).toMatchObject({ subtotal: 1370, discount: 35.21, shipping: 40 });
    const b = (await M.get(`/getBillDetails?id=${bill.saleId}`).expect(200)).body;
    expect(b.status).toBe('Returned');
    // 572.55 + 1398.45 = 1971.00, the invoice value.
    expect(b.creditNotes.map((n: any) => n.amount)).toEqual([572.55, 1398.45]);
    const list = (await M.get('/getCreditNoteList').expect(200)).body.list;
    expect(list[0]).toMatchObject({ credit_note_no: cn(2), invoice_no: bill.invoice_no });
  });
});

describe('inter-state to a registered buyer in Gujarat', () => {
  // Notebook 10 x 100 excl. 12 %: taxable 1000.00, IGST 120.00, invoice value 1120.00.
  it('reverses IGST and carries the buyer GSTIN and place of supply; the second return completes the bill', async () => {
    const bill = await sell([[notebook, '10']], {}, gujarat);
    const dueBefore = await due(gujarat);
    // 3 of 10: taxable 1000 x 3/10 = 300.00; IGST 300 x 12 % = 36.00; value 336.00.
    const r1 = await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: bill.lines[0], quantity: 3 }], refund: '0' }).expect(200);
    expect(r1.body.amount).toBe(336);
    expect(await due(gujarat)).toBeCloseTo(dueBefore - 336, 2);
    const d1 = (await M.get(`/getCreditNoteDetails?id=${r1.body.creditNoteId}`).expect(200)).body;
    expect(d1.gst).toMatchObject({ invoice_no: bill.invoice_no, gstin: GSTIN_GJ, place_of_supply: '24', place_of_supply_name: 'Gujarat', inter_state: true, taxable_total: 300, igst_total: 36, cgst_total: 0, sgst_total: 0, round_off: 0 });
    // 7 of 10 completes it: taxable 1000 - 300 = 700.00, IGST 120 - 36 = 84.00; amount 1120 - 336 = 784.00.
    const r2 = await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: bill.lines[0], quantity: 7 }], refund: '100' }).expect(200);
    expect(r2.body.amount).toBe(784);
    const d2 = (await M.get(`/getCreditNoteDetails?id=${r2.body.creditNoteId}`).expect(200)).body;
    expect(d2.gst).toMatchObject({ taxable_total: 700, igst_total: 84, round_off: 0 });
    // Due: -336 - 784 + 100 (refund paid out) = -1020 from before.
    expect(await due(gujarat)).toBeCloseTo(dueBefore - 1020, 2);
  });
});

describe('a cancelled GST invoice', () => {
  it('keeps its number, shows Cancelled and carries the cancellation to the bill document', async () => {
    const bill = await sell([[bottle, '1']], {}, gujarat);
    const before = await stock(bottle);
    const r = await M.post('/cancelSale', { saleId: bill.saleId, reason: 'Billed to the wrong GSTIN' }).expect(200);
    expect(r.body).toEqual({ success: true, saleId: bill.saleId, invoice_no: bill.invoice_no });
    expect(await stock(bottle)).toBe(before + 1);
    const b = (await M.get(`/getBillDetails?id=${bill.saleId}`).expect(200)).body;
    expect(b.saleDetails.invoice_no).toBe(bill.invoice_no);
    expect(b.status).toBe('Cancelled');
    const doc = await s.ask<any>(Subjects.documents.saleDocument, { companyId: s.companyId, saleId: bill.saleId });
    expect(doc.gst.invoice_no).toBe(bill.invoice_no);
    expect(doc.cancelled).toEqual({ date: today(), reason: 'Billed to the wrong GSTIN' });
    // The next sale takes the next invoice number: the cancelled one is not reused.
    const next = await sell([[notebook, '1']], {});
    expect(Number(next.invoice_no.split('/')[2])).toBe(Number(bill.invoice_no.split('/')[2]) + 1);
  });
});

describe('staff', () => {
  it('may read credit notes but not make them or cancel', async () => {
    const S = as(s.url, tokenFor(s.companyId, 'staff'));
    expect((await S.get('/getCreditNoteList?pageNo=0').expect(200)).body.list.length).toBeGreaterThan(0);
    await S.post('/salesReturn', { saleId: 1, lines: [{ sl_no: 1, quantity: 1 }], refund: '0' }).expect(403);
    await S.post('/cancelSale', { saleId: 1, reason: 'x' }).expect(403);
    await S.get('/getCreditNoteList?pageNo=-1').expect(400);
  });
});
