// E-way bills (issue 31): the company's dispatch PIN, the delivery form's e-way bill fields,
// getBillDetails' ewaybill, the portal's bulk-upload JSON and the recorded number. Figures by hand.
import request from 'supertest';
import { Subjects } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { CustomersService } from '@bahi/ledger/dist/customers/customers.service';
import { as, auth, category, product, startSales, tokenFor, type Stack } from './helpers';

const GSTIN_MH = '27AAPFU0939F1ZV';
const GSTIN_GJ = '24AAGCS5678K1ZT';

let s: Stack;
let mgr: string;
let A: ReturnType<typeof as>;
let almirah: number; // 25,000.00 excl. 18 %
let surat: number;
let toSurat: number; // 2 almirahs to Gujarat: 50,000 + IGST 9,000 = 59,000
let walkin: number; // 1 almirah, walk-in: 25,000 + 2,250 + 2,250 = 29,500

const company = (extra: object) => request(s.identity.url).post('/setCompanyDetails').set(auth(mgr)).send({
  id: s.companyId, name: 'Sharma General Store', add1: '4 Station Road', add2: 'Camp', mob1: '9822001122', mob2: '', email: 'shop@sharma.in', tax_mode: 'gst', gstin: GSTIN_MH, invoice_prefix: 'SG', ...extra,
});
const sell = async (qty: string, clientId: number) => {
  await A.del('/clearCart/1').expect(200);
  await A.get(`/addProductIntoCart/${encodeURIComponent(`${qty}*${almirah}`)}?cart_no=1`).expect(200);
  return (await A.post('/MAKE_SALE', { clientId, paid: '0' }).expect(200)).body.saleId as number;
};
const delivery = { transporter_name: 'Shree Logistics', transporter_mobile: '9820011223', mode_of_transport: 'Truck', vehicle_number: 'MH 12 AB 1234', dispatched_date: today() };

beforeAll(async () => {
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  A = as(s.url, tokenFor(s.companyId));
  await company({}).expect(200);
  const cat = await category(s.inventory.url, mgr, 'Furniture');
  almirah = await product(s.inventory.url, mgr, cat, { name: 'Steel Almirah', mrp: '25000', tax: '18', price_includes_tax: false, hsn_code: '9403', unit: 'pcs', stock: '100' });
  const c = await request(s.ledger.url).post('/clients/addClient').set(auth(mgr)).send({
    mobile_no: '9876500031', name: 'Surat Traders', address_line_1: '9 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: GSTIN_GJ,
  });
  if (c.status !== 200) throw new Error(`customer: ${c.status} ${JSON.stringify(c.body)}`);
  surat = c.body.id;
  toSurat = await sell('2', surat);
  walkin = await sell('1', 0);
}, 120_000);
afterAll(() => s?.stop());

describe('company pincode and place', () => {
  it('refuses a PIN that is not 6 digits, keeps a good one with the place; the threshold defaults to Rs 50,000', async () => {
    const bad = await company({ pincode: '41100' }).expect(400);
    expect(JSON.stringify(bad.body)).toContain('pincode must be the 6-digit PIN code');
    await company({ ewaybill_threshold: -1 }).expect(400);
    const d = (await request(s.identity.url).get('/getCompanyDetails').set(auth(mgr)).expect(200)).body;
    expect(d).toMatchObject({ pincode: '', place: '', ewaybill_threshold: 50000 });
  });
});

describe('getBillDetails ewaybill', () => {
  it('is needed above Rs 50,000 of taxable value plus tax (59,000), not at 29,500', async () => {
    expect((await A.get(`/getBillDetails?id=${toSurat}`).expect(200)).body.ewaybill).toEqual({ needed: true, ewb_no: null, valid_until: null });
    expect((await A.get(`/getBillDetails?id=${walkin}`).expect(200)).body.ewaybill).toEqual({ needed: false, ewb_no: null, valid_until: null });
  });

  it('follows the company threshold: at Rs 1,00,000 (within some states) the 59,000 bill needs none', async () => {
    await company({ ewaybill_threshold: 100000 }).expect(200);
    expect((await A.get(`/getBillDetails?id=${toSurat}`).expect(200)).body.ewaybill.needed).toBe(false);
    await company({ ewaybill_threshold: 50000 }).expect(200);
    expect((await A.get(`/getBillDetails?id=${toSurat}`).expect(200)).body.ewaybill.needed).toBe(true);
  });
});

describe('the recipient PIN', () => {
  it("a customer saved with a zip that is no PIN (before GST mode needed one) is named; ship_to_pincode overrides it", async () => {
    const model = s.ledger.app.get(CustomersService).model;
    await model.updateOne({ client_id: surat }, { $set: { postal_code: '39500' } });
    await company({ pincode: '411001', place: 'Pune' }).expect(200);
    const old = await sell('1', surat);
    await A.post('/delivery', { ...delivery, sale_id: old, distance_km: 520 }).expect(200);
    const r = await A.get(`/ewaybill/json?ids=${old}`).expect(400);
    expect(r.body.message).toBe(
      `Sale ${old} cannot go on an e-way bill yet: the customer Surat Traders has the PIN code '39500', which is not a 6-digit PIN; correct it on the customer (a new bill takes it) or give ship_to_pincode in the delivery details.`,
    );
    await A.put('/delivery', { ...delivery, sale_id: old, distance_km: 520, ship_to_pincode: '395003' }).expect(200);
    expect((await A.get(`/ewaybill/json?ids=${old}`).expect(200)).body.billLists[0].toPincode).toBe(395003);
    await model.updateOne({ client_id: surat }, { $set: { postal_code: '395003' } });
    await company({ pincode: '', place: '' }).expect(200);
  });
});

describe('the portal bulk JSON', () => {
  it('answers 400 naming what is missing: company PIN, delivery, distance, vehicle or transporter', async () => {
    const miss = async (what: string) => expect((await A.get(`/ewaybill/json?ids=${toSurat}`).expect(400)).body.message).toContain(what);
    await miss("company's pincode");
    await company({ pincode: '411001', place: 'Pune' }).expect(200);
    await miss('no delivery details');
    // The spec's delivery alone (no e-way bill field) keeps accepting any vehicle text.
    await A.post('/delivery', { ...delivery, sale_id: toSurat, vehicle_number: 'tempo' }).expect(200);
    await miss('distance_km');
    await A.put('/delivery', { ...delivery, sale_id: toSurat, vehicle_number: 'tempo', distance_km: 520 }).expect(400);
    await A.put('/delivery', { ...delivery, sale_id: toSurat, distance_km: 520, transport_mode: 'road', vehicle_type: 'regular', transporter_id: 'GJ-TRUCKS' }).expect(400);
    await A.put('/delivery', { ...delivery, sale_id: toSurat, distance_km: 520, ship_to_pincode: '39500' }).expect(400);
    await A.put('/delivery', { ...delivery, sale_id: toSurat, distance_km: 520, transport_mode: 'bus' }).expect(400);
    await A.put('/delivery', { ...delivery, sale_id: toSurat, distance_km: 5000 }).expect(400);
    await A.get('/ewaybill/json?ids=').expect(400);
    await A.get('/ewaybill/json?ids=1,x').expect(400);
    await A.get('/ewaybill/json?ids=99999').expect(404);
  });

  it('builds both bills with the portal keys and types: IGST 9,000 to Gujarat, CGST/SGST 2,250 each to the walk-in (URP)', async () => {
    const r = await A.put('/delivery', { ...delivery, sale_id: toSurat, distance_km: 520, transport_mode: 'road', vehicle_type: 'regular', transporter_doc_no: 'LR-881', transporter_doc_date: today() }).expect(200);
    expect(r.body.data).toMatchObject({ vehicle_number: 'MH12AB1234', transport_mode: 'road', vehicle_type: 'regular', distance_km: 520, ship_to_pincode: null });
    await A.post('/delivery', { ...delivery, sale_id: walkin, vehicle_number: 'mh12cd4321', distance_km: 12, ship_to_pincode: '411014', ship_to_state: 'Maharashtra' }).expect(200);
    const bill = (await A.get(`/getBillDetails?id=${toSurat}`).expect(200)).body.saleDetails;
    const bill2 = (await A.get(`/getBillDetails?id=${walkin}`).expect(200)).body.saleDetails;
    const j = (await A.get(`/ewaybill/json?ids=${toSurat},${walkin}`).expect(200)).body;
    const [d, m, y] = [today().slice(8, 10), today().slice(5, 7), today().slice(0, 4)];
    expect(j.version).toBe('1.0.0621');
    expect(j.billLists).toHaveLength(2);
    const common = {
      userGstin: GSTIN_MH, supplyType: 'O', subSupplyType: 1, subSupplyDesc: '', docDate: `${d}/${m}/${y}`,
      fromGstin: GSTIN_MH, fromTrdName: 'Sharma General Store', fromAddr1: '4 Station Road', fromAddr2: 'Camp', fromPlace: 'Pune', fromPincode: 411001,
      fromStateCode: 27, actualFromStateCode: 27, transType: 1, cessValue: 0, TotNonAdvolVal: 0, OthValue: 0,
      transMode: '1', transporterId: '', transporterName: 'Shree Logistics', vehicleType: 'R', mainHsnCode: 9403,
    };
    expect(j.billLists[0]).toMatchObject({
      ...common, docType: 'INV', docNo: bill.invoice_no, toGstin: GSTIN_GJ, toTrdName: 'Surat Traders', toPlace: 'Surat', toPincode: 395003, toStateCode: 24, actualToStateCode: 24,
      // 2 x 25,000 = 50,000 taxable; IGST 18 % = 9,000; 59,000 exactly (no round off).
      totalValue: 50000, cgstValue: 0, sgstValue: 0, igstValue: 9000, totInvValue: 59000,
      transDistance: '520', transDocNo: 'LR-881', transDocDate: `${d}/${m}/${y}`, vehicleNo: 'MH12AB1234',
      itemList: [{ itemNo: 1, productName: 'Steel Almirah', productDesc: 'Steel Almirah', hsnCode: 9403, quantity: 2, qtyUnit: 'PCS', taxableAmount: 50000, sgstRate: 0, cgstRate: 0, igstRate: 18, cessRate: 0, cessNonAdvol: 0 }],
    });
    expect(j.billLists[1]).toMatchObject({
      ...common, docType: 'INV', docNo: bill2.invoice_no, toGstin: 'URP', toPincode: 411014, toStateCode: 27, actualToStateCode: 27,
      // 25,000 taxable; CGST 9 % = 2,250 and SGST 9 % = 2,250; 29,500.
      totalValue: 25000, cgstValue: 2250, sgstValue: 2250, igstValue: 0, totInvValue: 29500,
      transDistance: '12', transDocNo: '', transDocDate: '', vehicleNo: 'MH12CD4321',
      itemList: [{ itemNo: 1, productName: 'Steel Almirah', productDesc: 'Steel Almirah', hsnCode: 9403, quantity: 1, qtyUnit: 'PCS', taxableAmount: 25000, sgstRate: 9, cgstRate: 9, igstRate: 0, cessRate: 0, cessNonAdvol: 0 }],
    });
    for (const b of j.billLists) for (const k of ['fromPincode', 'toPincode', 'fromStateCode', 'totalValue', 'totInvValue']) expect(typeof b[k]).toBe('number');
  });
});

describe('PUT /ewaybill/{saleId}', () => {
  it('refuses a number that is not 12 digits or a validity that is not a date-time, changing nothing', async () => {
    expect((await A.put(`/ewaybill/${toSurat}`, { ewb_no: '12345', valid_until: '2030-01-03T23:59:00+05:30' }).expect(400)).body.message).toContain('12-digit');
    expect((await A.put(`/ewaybill/${toSurat}`, { ewb_no: '331000123456', valid_until: 'tomorrow' }).expect(400)).body.message).toContain('valid_until');
    await A.put('/ewaybill/99999', { ewb_no: '331000123456', valid_until: '2030-01-03T23:59:00+05:30' }).expect(404);
    expect((await A.get(`/getBillDetails?id=${toSurat}`).expect(200)).body.ewaybill).toEqual({ needed: true, ewb_no: null, valid_until: null });
  });

  it('records the number and validity: the bill no longer needs one', async () => {
    const r = await A.put(`/ewaybill/${toSurat}`, { ewb_no: '3310 0012 3456', valid_until: '2030-01-03T23:59:00+05:30' }).expect(200);
    // 23:59 IST is 18:29 UTC.
    expect(r.body.ewaybill).toEqual({ needed: false, ewb_no: '331000123456', valid_until: '2030-01-03T18:29:00.000Z' });
    expect((await A.get(`/getBillDetails?id=${toSurat}`).expect(200)).body.ewaybill).toEqual({ needed: false, ewb_no: '331000123456', valid_until: '2030-01-03T18:29:00.000Z' });
    // Documents prints it on the tax invoice and the challan.
    const doc = await s.ask(Subjects.documents.saleDocument, { companyId: s.companyId, saleId: toSurat });
    expect(doc.ewaybill).toEqual({ ewb_no: '331000123456', valid_until: '2030-01-03T18:29:00.000Z' });
    expect((await s.ask(Subjects.documents.saleDocument, { companyId: s.companyId, saleId: walkin })).ewaybill).toBeUndefined();
  });

  it('is scoped to the caller company: another company sees no such sale', async () => {
    const other = as(s.url, tokenFor(s.companyId + 1000));
    await other.put(`/ewaybill/${toSurat}`, { ewb_no: '331000999999', valid_until: '2030-01-03T23:59:00+05:30' }).expect(404);
    await other.get(`/ewaybill/json?ids=${toSurat}`).expect(404);
  });
});
