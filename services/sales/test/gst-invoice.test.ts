// The tax invoice's Rule 46(e) recipient (a walk-in buyer of Rs 50,000 or more of taxable value is
// named on it) and rates that change by date (a sale takes the rate in force on its date, IST).
// Every figure is worked out by hand next to it.
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { Subjects } from '@bahi/contracts';
import { type EstimateDoc, Models, type SaleDoc } from '../src/common/schemas';
import { as, auth, category, product, startSales, tokenFor, type Stack } from './helpers';

const GSTIN_MH = '27AAPFU0939F1ZV';
let s: Stack;
let mgr: string;
let A: ReturnType<typeof as>;
let tv: number; // 59,000.00 incl. 18 %: taxable exactly 50,000.00
let radio: number; // 58,999.00 incl. 18 %: taxable 49,999.15, under the line
let shirt: number; // 1,050.00 incl.; 12 % until 2025-09-21, 5 % from 2025-09-22
let ravi: number; // an unregistered customer with an address in Maharashtra
let sales: Model<SaleDoc>;
let estimates: Model<EstimateDoc>;

const company = (extra: object) => request(s.identity.url).post('/setCompanyDetails').set(auth(mgr)).send({
  id: s.companyId, name: 'Sharma Electronics', add1: '4 Station Road', add2: 'Pune', mob1: '9822001122', mob2: '', email: 'shop@sharma.in', ...extra,
});
const fill = async (items: [number, string][]) => {
  await A.del('/clearCart/1').expect(200);
  for (const [id, qty] of items) await A.get(`/addProductIntoCart/${encodeURIComponent(`${qty}*${id}`)}?cart_no=1`).expect(200);
};
const stock = async (id: number) => (await s.ask<any>(Subjects.inventory.productLookup, { companyId: s.companyId, code: String(id) })).stock as string;
const saleOf = async (saleId: number) => (await sales.findOne({ companyId: s.companyId, saleId }).lean()) as SaleDoc;
const count = () => sales.countDocuments({ companyId: s.companyId });

beforeAll(async () => {
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  A = as(s.url, tokenFor(s.companyId));
  sales = s.sales.app.get<Model<SaleDoc>>(getModelToken(Models.Sale));
  estimates = s.sales.app.get<Model<EstimateDoc>>(getModelToken(Models.Estimate));
  const cat = await category(s.inventory.url, mgr, 'Electronics');
  tv = await product(s.inventory.url, mgr, cat, { name: 'LED TV 65', mrp: '59000', tax: '18', hsn_code: '8528', stock: '10' });
  radio = await product(s.inventory.url, mgr, cat, { name: 'Hi-fi Radio', mrp: '58999', tax: '18', hsn_code: '8527', stock: '10' });
  shirt = await product(s.inventory.url, mgr, cat, { name: 'Cotton Shirt', mrp: '1050', hsn_code: '6205', stock: '100', rates: [{ rate: 12, from: '2017-07-01' }, { rate: 5, from: '2025-09-22' }] });
  const c = await request(s.ledger.url).post('/clients/addClient').set(auth(mgr)).send({
    mobile_no: '9876500031', name: 'Ravi Kumar', address_line_1: '12 FC Road', address_line_2: '', city_or_district: 'Pune', state: 'Maharashtra', country: 'India', postal_code: '411004',
  });
  if (c.status !== 200) throw new Error(`customer: ${c.status} ${JSON.stringify(c.body)}`);
  ravi = c.body.id;
}, 120_000);
afterAll(() => s?.stop());

describe('simple mode is unchanged', () => {
  it('sells Rs 59,000 to the walk-in without particulars; a recipient sent is checked but nothing GST is stored', async () => {
    await fill([[tv, '1']]);
    const r = await A.post('/MAKE_SALE', { clientId: 0, paid: '59000' }).expect(200);
    const sale = await saleOf(r.body.saleId);
    expect(sale).toMatchObject({ tax_mode: 'simple', gst: null, amount: '59000' });
    await fill([[tv, '1']]);
    expect((await A.post('/MAKE_SALE', { clientId: 0, paid: '0', recipient: { state: 'Atlantis' } }).expect(400)).body.message).toMatch(/^The buyer's state: 'Atlantis' is not an Indian state/);
  });
});

describe('Rule 46(e) in GST mode', () => {
  beforeAll(async () => {
    await company({ tax_mode: 'gst', gstin: GSTIN_MH, invoice_prefix: 'SE' }).expect(200);
  });

  it("the counter says when a walk-in's particulars are needed (taxable 50,000.00 and up)", async () => {
    await fill([[tv, '1']]);
    // 59,000 x 100 / 118 = 50,000.00; CGST = SGST = 50,000 x 9 % = 4,500.00; value 59,000.
    const c = (await A.get('/getProducts?cart_no=1').expect(200)).body.summery.gst;
    expect(c).toMatchObject({ taxable_total: 50000, cgst_total: 4500, sgst_total: 4500, invoice_value: 59000, needs_recipient: true });
    // A named customer is printed from their record: nothing to type.
    expect((await A.get(`/previewSale?cart_no=1&clientId=${ravi}`).expect(200)).body.gst.needs_recipient).toBe(false);
    await fill([[radio, '1']]);
    // 58,999 x 100 / 118 = 49,999.152... -> 49,999.15: under Rs 50,000.
    expect((await A.get('/previewSale?cart_no=1&clientId=0').expect(200)).body.gst).toMatchObject({ taxable_total: 49999.15, needs_recipient: false });
  });

  it('refuses a walk-in sale of Rs 50,000.00 taxable without particulars, naming what is missing, and changes nothing', async () => {
    await fill([[tv, '1']]);
    const before = [await count(), await stock(tv)];
    const none = await A.post('/MAKE_SALE', { clientId: 0, paid: '0' }).expect(400);
    expect(none.body.message).toBe(
      "The taxable value is Rs 50000.00, Rs 50,000 or more, and the buyer has no GSTIN: the tax invoice needs the buyer's name, address and state (Rule 46(e)). Type them for the buyer and sell again.",
    );
    const some = await A.post('/MAKE_SALE', { clientId: 0, paid: '0', recipient: { name: 'Asha Rao', address: '  ' } }).expect(400);
    expect(some.body.message).toContain("needs the buyer's address and state (Rule 46(e))");
    expect([await count(), await stock(tv)]).toEqual(before);
    expect((await A.get('/getProducts?cart_no=1').expect(200)).body.cart).toHaveLength(1);
  });

  it.each<[unknown, string]>([
    ['Asha', 'recipient must be { name, address, state }.'],
    [{ name: 'Asha', gstin: '27AAPFU0939F1ZV' }, 'recipient has an unknown field: gstin.'],
    [{ name: 'A'.repeat(101), address: 'x', state: '27' }, "The buyer's name can be at most 100 characters."],
    [{ name: 'Asha', address: 'x', state: 'Atlantis' }, "The buyer's state: 'Atlantis' is not an Indian state or union territory (give the GST code such as 27, the name or the short form such as MH)."],
  ])('refuses the recipient %j with 400', async (recipient, message) => {
    expect((await A.post('/MAKE_SALE', { clientId: 0, paid: '0', recipient }).expect(400)).body.message).toBe(message);
  });

  it('sells with the typed particulars and freezes them on the invoice (place of supply stays the counter)', async () => {
    await fill([[tv, '1']]);
    const r = await A.post('/MAKE_SALE', { clientId: 0, paid: '59000', recipient: { name: ' Asha Rao ', address: '7 Lake View,\nBhopal 462001', state: 'MP' } }).expect(200);
    const g = (await saleOf(r.body.saleId)).gst!;
    expect(g.recipient).toEqual({ name: 'Asha Rao', address: ['7 Lake View, Bhopal 462001'], gstin: null, state_code: '23', state_name: 'Madhya Pradesh', mobile: '', email: '' });
    expect(g).toMatchObject({ b2b: false, place_of_supply: '27', inter_state: false, taxable_total: '50000.00', cgst_total: '4500.00', sgst_total: '4500.00', invoice_value: '59000.00' });
    const bill = (await A.get(`/getBillDetails?id=${r.body.saleId}`).expect(200)).body;
    expect(JSON.stringify(bill)).toContain('Asha Rao');
  });

  it('below Rs 50,000 the walk-in prints as before (Unknown, no address)', async () => {
    await fill([[radio, '1']]);
    const r = await A.post('/MAKE_SALE', { clientId: 0, paid: '0' }).expect(200);
    expect((await saleOf(r.body.saleId)).gst!.recipient).toMatchObject({ name: 'Unknown', address: [], state_code: null });
  });

  it("a named customer without GSTIN is printed from their record; a typed recipient for them is refused", async () => {
    await fill([[tv, '1']]);
    const refused = await A.post('/MAKE_SALE', { clientId: ravi, paid: '0', recipient: { name: 'Someone Else' } }).expect(400);
    expect(refused.body.message).toBe(`recipient is for a walk-in buyer; customer ${ravi} (Ravi Kumar) is printed from their record.`);
    const r = await A.post('/MAKE_SALE', { clientId: ravi, paid: '0' }).expect(200);
    expect((await saleOf(r.body.saleId)).gst!.recipient).toMatchObject({ name: 'Ravi Kumar', address: ['12 FC Road', 'Pune 411004'], state_code: '27' });
  });

  it('makeSaleFromEstimate takes the recipient too', async () => {
    await fill([[tv, '1']]);
    const e = (await A.get('/createEstimate?clientId=0').expect(200)).body;
    expect((await A.post('/makeSaleFromEstimate', { estimateId: e.estimateId, paid: '0' }).expect(400)).body.message).toContain("needs the buyer's name, address and state");
    const r = await A.post('/makeSaleFromEstimate', { estimateId: e.estimateId, paid: '0', recipient: { name: 'Asha Rao', address: '7 Lake View, Bhopal', state: '23' } }).expect(200);
    expect((await saleOf(r.body.saleId)).gst!.recipient).toMatchObject({ name: 'Asha Rao', state_name: 'Madhya Pradesh' });
  });
});

describe('rates by date', () => {
  // 1,050.00 incl. 12 %: 1,050 x 100 / 112 = 937.50; CGST = SGST = 937.50 x 6 % = 56.25; 937.50 + 112.50 = 1,050.00.
  // 1,050.00 incl. 5 %: 1,050 x 100 / 105 = 1,000.00; CGST = SGST = 1,000 x 2.5 % = 25.00; value 1,050.00.
  it('a sale dated 2025-09-21 takes 12 %, one dated 2025-09-22 takes 5 %, today 5 %', async () => {
    await fill([[shirt, '1']]);
    expect((await A.get('/getProducts?cart_no=1').expect(200)).body.summery.gst.lines[0]).toMatchObject({ gst_rate: 5, taxable_value: 1000, cgst: 25, sgst: 25 });
    const before = await A.post('/MAKE_SALE', { clientId: 0, paid: '0', date: '2025-09-21' }).expect(200);
    expect(before.body.invoice_no).toBe('SE/25-26/0001');
    expect((await saleOf(before.body.saleId)).gst).toMatchObject({ invoice_date: '2025-09-21', taxable_total: '937.50', cgst_total: '56.25', sgst_total: '56.25', invoice_value: '1050.00', lines: [{ gst_rate: '12', taxable_value: '937.50', cgst: '56.25', sgst: '56.25' }] });
    await fill([[shirt, '1']]);
    const after = await A.post('/MAKE_SALE', { clientId: 0, paid: '0', date: '2025-09-22' }).expect(200);
    expect((await saleOf(after.body.saleId)).gst).toMatchObject({ taxable_total: '1000.00', cgst_total: '25.00', sgst_total: '25.00', lines: [{ gst_rate: '5' }] });
  });

  it('an estimate made before the change shows 12 %; sold today it takes 5 %, sold back-dated 12 %', async () => {
    await fill([[shirt, '2']]);
    const e = (await A.get('/createEstimate?clientId=0').expect(200)).body;
    // As if made on 20 September 2025, before the change.
    await estimates.updateOne({ companyId: s.companyId, estimateId: e.estimateId }, { $set: { date: '2025-09-20' } });
    // 2 x 1,050 = 2,100 incl. 12 % -> 1,875.00; CGST = SGST = 112.50.
    const sum = (await A.get(`/getEstimateProductListSummery?estimateId=${e.estimateId}`).expect(200)).body.summery;
    expect(sum.gst).toMatchObject({ taxable_total: 1875, cgst_total: 112.5, sgst_total: 112.5, invoice_value: 2100 });
    const back = await A.post('/makeSaleFromEstimate', { estimateId: e.estimateId, paid: '0', date: '2025-09-21' }).expect(200);
    expect((await saleOf(back.body.saleId)).gst).toMatchObject({ taxable_total: '1875.00', cgst_total: '112.50', lines: [{ gst_rate: '12' }] });
    // 2,100 incl. 5 % -> 2,000.00; CGST = SGST = 50.00.
    const now = await A.post('/makeSaleFromEstimate', { estimateId: e.estimateId, paid: '0' }).expect(200);
    expect((await saleOf(now.body.saleId)).gst).toMatchObject({ taxable_total: '2000.00', cgst_total: '50.00', sgst_total: '50.00', lines: [{ gst_rate: '5' }] });
  });

  it('refuses a sale dated before the first rate, with a sentence', async () => {
    await fill([[shirt, '1']]);
    const r = await A.post('/MAKE_SALE', { clientId: 0, paid: '0', date: '2017-06-30' }).expect(400);
    expect(r.body.message).toBe(`Cotton Shirt (${shirt}) has no GST rate on 2017-06-30: its rates start on 2017-07-01. Date the sale later or add the earlier rate to the product.`);
  });
});
