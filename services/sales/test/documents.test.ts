import { Subjects } from '@bahi/contracts';
import { as, category, customer, product, startSales, tokenFor, type Stack } from './helpers';

let s: Stack;
let A: ReturnType<typeof as>;
let oil: number;
let salt: number;
let ravi: number;
let other: number;

beforeAll(async () => {
  s = await startSales();
  const mgr = tokenFor(s.companyId, 'manager');
  A = as(s.url, tokenFor(s.companyId));
  const cat = await category(s.inventory.url, mgr, 'Kitchen');
  oil = await product(s.inventory.url, mgr, cat, { name: 'Mustard Oil', mrp: '189.5', unit: 'ltr', hsn_code: '1514', stock: '20' });
  salt = await product(s.inventory.url, mgr, cat, { name: 'Rock Salt', mrp: '33.33', unit: 'kg', stock: '40' });
  ravi = await customer(s.ledger.url, mgr, 'Ravi Kumar', '9876500009');
  // A company id nobody else uses: its requests must find nothing of this company.
  other = s.companyId + 1000;
}, 120_000);
afterAll(() => s?.stop());

describe('sales.sale.document', () => {
  let first: number;
  let second: number;

  it('prints a sale from its frozen lines and totals, with the previous due and the delivery', async () => {
    await A.get(`/addProductIntoCart/${encodeURIComponent(`2*${oil}`)}`).expect(200);
    first = (await A.post('/MAKE_SALE', { clientId: ravi, cart_no: 1, paid: '100', dueDate: '2030-01-31', date: '2030-01-01' }).expect(200)).body.saleId;
    await A.get(`/addProductIntoCart/${salt}`).expect(200);
    const c = await A.get('/getProducts').expect(200);
    const sl = c.body.cart[0].sl_no;
    await A.post('/upQuan/', { sl_no: sl, quantity: '1.5' }).expect(200);
    await A.post('/upDisc/', { sl_no: sl, discount: '0.33' }).expect(200);
    await A.post('/upTax/', { tax: 1 }).expect(200);
    second = (await A.post('/MAKE_SALE', { clientId: ravi, cart_no: 1, paid: '0', dueDate: '2030-02-28', date: '2030-02-01' }).expect(200)).body.saleId;
    await A.post('/delivery', { sale_id: second, transporter_name: 'Sharma Roadways', transporter_mobile: '9822012345', mode_of_transport: 'road', vehicle_number: 'MH12AB1234', dispatched_date: '2030-02-02' }).expect(200);

    const doc = await s.ask(Subjects.documents.saleDocument, { companyId: s.companyId, saleId: second });
    // (33.33 - 0.33) x 1.5 = 49.5; tax 18% = 8.91; previous due 379 - 100 = 279
    expect(doc).toEqual({
      sale_id: second,
      date: '2030-02-01',
      due_date: '2030-02-28',
      customer: expect.objectContaining({ id: ravi, client_id: ravi, name: 'Ravi Kumar', mobile_no: '9876500009', walkIn: false }),
      // sl_no and per_peice_quantity: the printed quantity is quantity x per_peice_quantity.
      soldProducts: [{ sl_no: expect.any(Number), per_peice_quantity: '1', product_id: salt, product_name: 'Rock Salt', quantity: '1.5', rate: '33.33', disc: '0.33', price: '33', amount: '49.5', hsn_code: '', unit: 'kg' }],
      subtotal: '49.5',
      tax: '8.91',
      shipping: '0',
      summery_discount: '0',
      previousDue: '279',
      paid: '0',
      // Nothing paid: no tenders (issue 28).
      payments: [],
      delivery: expect.objectContaining({ sale_id: second, transporter_name: 'Sharma Roadways', vehicle_number: 'MH12AB1234', address: expect.stringContaining('12 MG Road') }),
      // Simple mode: no tax invoice.
      gst: null,
    });
    const one = await s.ask(Subjects.documents.saleDocument, { companyId: s.companyId, saleId: first });
    expect(one.soldProducts).toEqual([{ sl_no: expect.any(Number), per_peice_quantity: '1', product_id: oil, product_name: 'Mustard Oil', quantity: '2', rate: '189.5', disc: '0', price: '189.5', amount: '379', hsn_code: '1514', unit: 'ltr' }]);
    expect(one).toMatchObject({ subtotal: '379', tax: '0', previousDue: '0', paid: '100', delivery: null });
  });

  it('marks the walk-in customer and leaves out a previous due', async () => {
    await A.get(`/addProductIntoCart/${salt}`).expect(200);
    const id = (await A.post('/MAKE_SALE', { clientId: 0, cart_no: 1, paid: '33.33' }).expect(200)).body.saleId;
    const doc = await s.ask(Subjects.documents.saleDocument, { companyId: s.companyId, saleId: id });
    expect(doc.customer).toMatchObject({ walkIn: true });
    expect(doc).toMatchObject({ previousDue: '0', paid: '33.33', subtotal: '33.33' });
  });

  it('answers null for an unknown sale or one of another company', async () => {
    expect(await s.ask(Subjects.documents.saleDocument, { companyId: s.companyId, saleId: 9999 })).toBeNull();
    expect(await s.ask(Subjects.documents.saleDocument, { companyId: other, saleId: second })).toBeNull();
  });
});

describe('sales.estimate.document', () => {
  it('prints an estimate with its totals and the customer due now', async () => {
    await A.get(`/addProductIntoCart/${encodeURIComponent(`3*${oil}`)}`).expect(200);
    const est = (await A.get(`/createEstimate?cart_no=1&clientId=${ravi}`).expect(200)).body.estimateId;
    await A.post('/updateEstimateTax/', { id: est, tax: 1 }).expect(200);
    await A.post('/updateEstimateShip/', { id: est, shipping: '15.75' }).expect(200);
    await A.post('/updateEstimateSummeryDisc/', { id: est, discount: '4.25' }).expect(200);
    const doc = await s.ask(Subjects.documents.estimateDocument, { companyId: s.companyId, estimateId: est });
    // 3 x 189.5 = 568.5; 18% = 102.33; due 279 + 58.41
    expect(doc).toEqual({
      estimate_id: est,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      customer: expect.objectContaining({ client_id: ravi, name: 'Ravi Kumar' }),
      lines: [{ sl_no: expect.any(Number), per_peice_quantity: '1', product_id: oil, product_name: 'Mustard Oil', quantity: '3', rate: '189.5', disc: '0', price: '189.5', amount: '568.5', hsn_code: '1514', unit: 'ltr' }],
      subtotal: '568.5',
      tax: '102.33',
      shipping: '15.75',
      summery_discount: '4.25',
      previous_due: '337.41',
    });
    expect(await s.ask(Subjects.documents.estimateDocument, { companyId: other, estimateId: est })).toBeNull();
    expect(await s.ask(Subjects.documents.estimateDocument, { companyId: s.companyId, estimateId: 9999 })).toBeNull();
  });
});
