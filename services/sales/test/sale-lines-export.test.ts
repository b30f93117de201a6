// GET /export/saleLines ("Download all data": the lines of every bill): a simple-mode bill's line
// has no tax of its own; a GST bill's lines carry the taxable value and tax as invoiced. Figures by hand.
import request from 'supertest';
import { today } from '@bahi/service-kit';
import { as, auth, category, product, startSales, tokenFor, type Stack } from './helpers';

const GSTIN_MH = '27AAPFU0939F1ZV';
const GSTIN_GJ = '24AAGCS5678K1ZT';

let s: Stack;
let mgr: string;
let A: ReturnType<typeof as>;
let bottle: number;
let gujarat: number;

beforeAll(async () => {
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  A = as(s.url, tokenFor(s.companyId));
  const cat = await category(s.inventory.url, mgr, 'Steel');
  // 590.00 including 18 %: taxable 500.00 and tax 90.00 a bottle.
  bottle = await product(s.inventory.url, mgr, cat, { name: 'Steel Bottle', mrp: '590', tax: '18', hsn_code: '7323', unit: 'pcs', stock: '100' });
  // Bill 1 in simple mode, at the counter (walk-in): one bottle, 590.00.
  await A.get(`/addProductIntoCart/${bottle}`).expect(200);
  await A.post('/MAKE_SALE', { paid: '590' }).expect(200);
  await request(s.identity.url).post('/setCompanyDetails').set(auth(mgr))
    .send({ id: s.companyId, name: 'Sharma General Store', add1: '4 Station Road', add2: 'Pune', mob1: '9822001122', mob2: '', email: 'shop@sharma.in', tax_mode: 'gst', gstin: GSTIN_MH, invoice_prefix: 'SG' })
    .expect(200);
  const c = await request(s.ledger.url).post('/clients/addClient').set(auth(mgr)).send({
    mobile_no: '9876500025', name: 'Surat Kitchen Mart', address_line_1: '9 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: GSTIN_GJ,
  });
  expect(c.status).toBe(200);
  gujarat = c.body.id;
  // Bill 2 to Gujarat (inter-state): two bottles, 1180.00 = taxable 1000.00 + IGST 180.00.
  await A.get(`/addProductIntoCart/${bottle}?quantity=2`).expect(200);
  await A.post('/MAKE_SALE', { clientId: gujarat, paid: '0' }).expect(200);
  // Bill 3 at the counter in Maharashtra (intra-state): one bottle, 500.00 + CGST 45.00 + SGST 45.00.
  await A.get(`/addProductIntoCart/${bottle}`).expect(200);
  await A.post('/MAKE_SALE', { paid: '590' }).expect(200);
}, 180_000);
afterAll(() => s?.stop());

/** CSV rows as header -> text. */
function records(csv: string): Record<string, string>[] {
  const [head, ...rows] = csv.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
  const headers = head!.split(',');
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [headers[i]!, v])));
}

it("lists every bill's lines, oldest first: GST lines with their taxable value and tax as invoiced, simple ones without", async () => {
  const res = await A.get('/export/saleLines?format=csv').expect(200);
  const rows = records(res.text);
  const day = today().split('-').reverse().join('-');
  const keys = ['Bill no', 'Date', 'Customer', 'Product', 'HSN code', 'Quantity', 'Rate', 'Discount', 'Price', 'Amount', 'Taxable value', 'GST %', 'CGST', 'SGST', 'IGST'];
  const picked = rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])));
  expect(picked).toEqual([
    { 'Bill no': '1', Date: day, Customer: 'Unknown', Product: 'Steel Bottle', 'HSN code': '7323', Quantity: '1', Rate: '590.00', Discount: '0.00', Price: '590.00', Amount: '590.00', 'Taxable value': '', 'GST %': '', CGST: '', SGST: '', IGST: '' },
    { 'Bill no': '2', Date: day, Customer: 'Surat Kitchen Mart', Product: 'Steel Bottle', 'HSN code': '7323', Quantity: '2', Rate: '590.00', Discount: '0.00', Price: '590.00', Amount: '1180.00', 'Taxable value': '1000.00', 'GST %': '18', CGST: '0.00', SGST: '0.00', IGST: '180.00' },
    { 'Bill no': '3', Date: day, Customer: 'Unknown', Product: 'Steel Bottle', 'HSN code': '7323', Quantity: '1', Rate: '590.00', Discount: '0.00', Price: '590.00', Amount: '590.00', 'Taxable value': '500.00', 'GST %': '18', CGST: '45.00', SGST: '45.00', IGST: '0.00' },
  ]);
  expect(rows[0]!['Invoice no']).toBe('');
  expect(rows[1]!['Invoice no']).toMatch(/^SG\/\d\d-\d\d\/0001$/);
  expect(rows[2]!['Invoice no']).toMatch(/^SG\/\d\d-\d\d\/0002$/);
});

it('answers only the caller\'s company', async () => {
  const other = as(s.url, tokenFor(s.companyId + 1000));
  const res = await other.get('/export/saleLines?format=csv').expect(200);
  expect(records(res.text)).toEqual([]);
});

it('refuses an unknown format with a sentence', async () => {
  const res = await A.get('/export/saleLines?format=pdf');
  expect(res.status).toBe(400);
  expect(res.body.message).toBe('format must be csv or xlsx.');
});
