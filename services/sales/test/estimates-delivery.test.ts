import { Subjects } from '@bahi/contracts';
import { as, category, customer, product, startSales, tokenFor, type Stack } from './helpers';

let s: Stack;
let A: ReturnType<typeof as>;
let oil: number;
let salt: number;
let ravi: number;

const stock = async (id: number) => (await s.ask<any>(Subjects.inventory.productLookup, { companyId: s.companyId, code: String(id) })).stock as string;

beforeAll(async () => {
  s = await startSales();
  const mgr = tokenFor(s.companyId, 'manager');
  A = as(s.url, tokenFor(s.companyId));
  const cat = await category(s.inventory.url, mgr, 'Kitchen');
  oil = await product(s.inventory.url, mgr, cat, { name: 'Mustard Oil', mrp: '189.5', unit: 'ltr', stock: '20' });
  salt = await product(s.inventory.url, mgr, cat, { name: 'Rock Salt', mrp: '33.33', unit: 'kg', stock: '40' });
  ravi = await customer(s.ledger.url, mgr, 'Ravi Kumar', '9876500009');
}, 120_000);
afterAll(() => s?.stop());

describe('estimates', () => {
  let est: number;

  it('refuses an estimate of an empty cart with {error}', async () => {
    const r = await A.get('/createEstimate?cart_no=1&clientId=0').expect(400);
    expect(r.body.error).toBe('cart is emplty!!');
  });

  it('saves cart 1 as an estimate (whatever cart_no says) and empties the cart', async () => {
    await A.get(`/addProductIntoCart/${encodeURIComponent(`2*${oil}`)}`).expect(200);
    await A.post('/upTax/', { tax: 1 }).expect(200);
    const r = await A.get(`/createEstimate?cart_no=2&clientId=${ravi}`).expect(200);
    expect(r.body).toEqual({ success: true, estimateId: expect.any(Number) });
    est = r.body.estimateId;
    expect((await A.get('/getProducts').expect(200)).body.cart).toEqual([]);
    const list = (await A.get('/getEstimateList?pageNo=0').expect(200)).body;
    // 379 + 18% (68.22) = 447.22
    expect(list).toEqual({ estimateList: [{ id: est, Date: expect.any(String), 'Clients Name': 'Ravi Kumar', 'Total Amount': 447.22 }], noOfPages: 1 });
  });

  it('edits lines, tax, shipping and discount with exact totals', async () => {
    const add = await A.get(`/addProductIntoEstimate/${salt}/${est}`).expect(200);
    const sl = add.body[0][0].sl_no;
    await A.post('/updateQuanInEstimate/', { sl_no: sl, quantity: '1.5', estimateId: est }).expect(200);
    const d = await A.post('/updateDiscInEstimate/', { sl_no: sl, discount: '0.33', estimateId: est }).expect(200);
    // (33.33 - 0.33) x 1.5 = 49.5; subtotal 428.5
    expect(d.body.line.amount).toBe(49.5);
    await A.post('/updateEstimateTax/', { id: est, tax: 0 }).expect(200);
    await A.post('/updateEstimateShip/', { id: est, shipping: '15.75' }).expect(200);
    const sd = await A.post('/updateEstimateSummeryDisc/', { id: est, discount: '4.25' }).expect(200);
    expect(sd.body.summery).toMatchObject({ subtotal: 428.5, taxAmount: 0, total: 440 });
    const summ = (await A.get(`/getEstimateProductListSummery?estimateId=${est}`).expect(200)).body;
    expect(summ.cart).toHaveLength(2);
    expect(summ.customerDetails).toMatchObject({ client_id: ravi, name: 'Ravi Kumar' });
    expect(summ.previous_due).toBe(0);
    expect(summ.product_list.length).toBeGreaterThan(0);
    await A.get(`/removeProductFromEstimate/${sl}/${est}`).expect(200);
    await A.get(`/removeProductFromEstimate/${sl}/${est}`).expect(404);
    expect((await A.get(`/addProductIntoEstimate/424242/${est}`).expect(200)).body).toEqual([]);
    await A.post('/updateEstimateCustomer/', { id: est, client_id: 0 }).expect(200);
    await A.post('/updateEstimateCustomer/', { id: est, client_id: 999 }).expect(400);
    const det = (await A.get(`/getEstimateDetails?id=${est}`).expect(200)).body;
    expect(det.estimateDetails).toMatchObject({ estimateId: est, walkIn: true, customer: null, total: 390.5 });
    expect(det.companyDetails.name).toBe('Sharma General Store');
  });

  it('duplicates, sells an estimate once per key, deletes; other companies see nothing', async () => {
    const dup = (await A.get(`/duplicateEstimate?estimate_id=${est}`).expect(200)).body.duplicated_estimate_id;
    expect(dup).toBeGreaterThan(est);
    const before = await stock(oil);
    const body = { clientId: ravi, paid: '100', estimateId: dup };
    const r = await A.post('/makeSaleFromEstimate', body, { 'Idempotency-Key': 'est-sale' }).expect(200);
    const again = await A.post('/makeSaleFromEstimate', body, { 'Idempotency-Key': 'est-sale' }).expect(200);
    expect(again.body.saleId).toBe(r.body.saleId);
    expect(Number(before) - Number(await stock(oil))).toBe(2);
    const bill = (await A.get(`/getBillDetails?id=${r.body.saleId}`).expect(200)).body;
    expect(bill.saleDetails).toMatchObject({ amount: 390.5, paid: 100, due: 291 });
    const foreign = as(s.url, tokenFor(s.companyId + 1000));
    await foreign.get(`/getEstimateProductListSummery?estimateId=${est}`).expect(404);
    await foreign.del(`/deleteEstimate/${est}`).expect(404);
    expect((await A.del(`/deleteEstimate/${dup}`).expect(200)).body).toEqual({ success: true });
    await A.get(`/getEstimateDetails?id=${dup}`).expect(404);
  });
});

describe('delivery', () => {
  let saleId: number;
  beforeAll(async () => {
    await A.get(`/addProductIntoCart/${salt}`).expect(200);
    saleId = (await A.post('/MAKE_SALE', { paid: '33.33' }).expect(200)).body.saleId;
  });

  it('has none at first, then adds with upper-cased mode and vehicle, then updates', async () => {
    expect((await A.get(`/addDelivery/${saleId}`).expect(200)).body).toEqual({ data: null, saleId });
    const body = { sale_id: saleId, transporter_name: 'Shree Logistics', mobile: '+91 98200 11223', address: 'road', vehicleNumber: 'mh12 ab 1234', dispatched_date: '2030-01-02' };
    const r = await A.post('/delivery', body).expect(200);
    expect(r.body.data).toMatchObject({ transporter_mobile: '9820011223', mode_of_transport: 'ROAD', vehicle_number: 'MH12 AB 1234', dispatched_date: '2030-01-02' });
    await A.post('/delivery', body).expect(400);
    const u = await A.put('/delivery', { ...body, vehicleNumber: 'mh14 cd 9' }).expect(200);
    expect(u.body.data.vehicle_number).toBe('MH14 CD 9');
    expect((await A.get(`/addDelivery/${saleId}`).expect(200)).body.data.vehicle_number).toBe('MH14 CD 9');
  });

  it('requires every field and a real sale', async () => {
    const r = await A.post('/delivery', { sale_id: saleId, transporter_name: 'X' }).expect(400);
    expect(r.body.message).toMatch(/required/);
    await A.post('/delivery', { sale_id: 9999, transporter_name: 'X', mobile: '9820011223', address: 'road', vehicleNumber: 'A', dispatched_date: '2030-01-02' }).expect(404);
    await A.get('/addDelivery/9999').expect(404);
  });
});
