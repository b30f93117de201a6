import { Subjects } from '@bahi/contracts';
import { as, customerForm, distributorForm, startLedger, tokenFor, type Stack } from './helpers';

let stack: Stack;
let A: ReturnType<typeof as>;
let staffA: ReturnType<typeof as>;
let B: ReturnType<typeof as>;
let cust: number;
let dist: number;

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());

beforeAll(async () => {
  stack = await startLedger();
  A = as(stack.url, tokenFor(1));
  staffA = as(stack.url, tokenFor(1, 'staff'));
  B = as(stack.url, tokenFor(2));
  cust = (await A.post('/clients/addClient', customerForm())).body.id;
  dist = (await A.post('/addDistributor', distributorForm({ officers: [{ name: 'Subir Das', mobile: '9830011122' }] }))).body.id;
}, 60_000);
afterAll(() => stack?.stop());

describe('distributors', () => {
  it('adds with officers and edits (managers); replies done, id, distributor', async () => {
    const res = await A.post('/addDistributor', distributorForm({ name: 'Second Supplier', officers: [{ name: 'Vikas', mobile: '9820155566' }, { name: 'Asha' }] }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ done: true, id: dist + 1, distributor: expect.objectContaining({ distributor_id: dist + 1, name: 'Second Supplier', postal_code: '700001' }) });
    const [o1, o2] = res.body.distributor.officers;
    expect(o1).toEqual({ id: expect.any(Number), distributor_id: dist + 1, name: 'Vikas', mobile: '9820155566' });
    expect(o2.mobile).toBe('');
    const edit = await A.put('/addDistributor', distributorForm({ id: dist + 1, name: 'Second Supplier Pvt', officers: [{ id: o1.id, name: 'Vikas Shah', mobile: '9820155566' }] }));
    expect(edit.status).toBe(200);
    expect(edit.body.distributor.name).toBe('Second Supplier Pvt');
    expect(edit.body.distributor.officers).toEqual([{ id: o1.id, distributor_id: dist + 1, name: 'Vikas Shah', mobile: '9820155566' }]);
    // Without officers the stored list stays.
    const keep = await A.put('/addDistributor', distributorForm({ id: dist + 1, name: 'Second Supplier Pvt' }));
    expect(keep.body.distributor.officers).toHaveLength(1);
  });

  it('validates: all fields but address line 2 required, zip numeric', async () => {
    for (const [over, msg] of [
      [{ name: '' }, /name is required/],
      [{ address_line_1: '' }, /address_line_1 is required/],
      [{ city_or_district: '' }, /city_or_district is required/],
      [{ state: '' }, /state is required/],
      [{ country: '' }, /country is required/],
      [{ postal_code: 'WB01' }, /postal_code must be numeric/],
      [{ officers: [{ name: '' }] }, /officers.0.name is required/],
      [{ officers: [{ name: 'X', mobile: '12' }] }, /officers.0.mobile must be a 10-digit/],
    ] as [Record<string, unknown>, RegExp][]) {
      const res = await A.post('/addDistributor', distributorForm(over));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ done: false, err: expect.stringMatching(msg) });
    }
    expect((await A.put('/addDistributor', distributorForm())).body.err).toMatch(/id is required/);
    expect((await A.get('/getAllDistributorsList')).body.allDistributorsList).toHaveLength(2);
  });

  it('staff get 403 on distributor calls and giving payments', async () => {
    expect((await staffA.post('/addDistributor', distributorForm())).status).toBe(403);
    expect((await staffA.put('/addDistributor', distributorForm({ id: dist }))).status).toBe(403);
    expect((await staffA.get('/getAllDistributorsList')).status).toBe(403);
    expect((await staffA.get(`/getDueAndDueDate?distId=${dist}`)).status).toBe(403);
    const give = await staffA.post('/purchaseDuePaymentReact', { distributorId: dist, amount: 10, nextDD: today() });
    expect(give.status).toBe(403);
    expect((await A.get(`/getDistributorsDetails?id=${dist}`)).body.data.due).toBe(0);
  });

  it('lists, details and history; company B sees none of it', async () => {
    const list = await A.get('/getDistributorsList?pageNo=0');
    expect(list.body).toEqual({ distributorsList: [expect.objectContaining({ id: dist + 1 }), expect.objectContaining({ id: dist, name: 'Eastern Traders', due: 0 })], noOfPages: 1 });
    const det = await A.get(`/getDistributorsDetails?id=${dist}`);
    expect(det.body.data).toEqual(expect.objectContaining({ distributor_id: dist, officers: [expect.objectContaining({ name: 'Subir Das' })], due: 0, dueDate: null }));
    expect((await A.get(`/distributorsHistory?id=${dist}&pageNo=0`)).body).toEqual({ list: [], noOfPages: 0, name: 'Eastern Traders' });
    expect((await B.get(`/getDistributorsDetails?id=${dist}`)).status).toBe(404);
    expect((await B.get(`/distributorsHistory?id=${dist}`)).status).toBe(404);
    expect((await B.get('/getAllDistributorsList')).body.allDistributorsList).toEqual([]);
    const edit = await B.put('/addDistributor', distributorForm({ id: dist, name: 'Hijack' }));
    expect(edit.status).toBe(404);
    const pay = await B.post('/purchaseDuePaymentReact', { distributorId: dist, amount: 5, nextDD: today() });
    expect(pay.status).toBe(404);
    expect(pay.body).toEqual({ done: false, err: 'Select a valid Distributor from the list' });
  });
});

describe('dues and payments', () => {
  it('a customer due is sales minus payments, exact in decimals', async () => {
    // Sales posted by the sales service: 0.1 + 0.2 style amounts must not drift.
    for (const [id, amount, paid] of [[1, '100.10', '0.10'], [2, '0.20', '0'], [3, '33.33', '10']] as const) {
      const r = await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id }, amount, paid, dueDate: '2030-01-15', date: today() });
      expect(r).toEqual({ posted: true });
    }
    // 100.10-0.10 + 0.20 + 33.33-10 = 123.53
    expect((await A.get(`/getClientDue?custId=${cust}`)).body).toEqual({ due: 123.53 });
    expect((await A.get(`/getClientDueAndDueDate?custId=${cust}`)).body).toEqual({ due: 123.53, dueDate: '2030-01-15' });
    expect(await stack.ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'customer', id: cust } })).toEqual({ due: '123.53', dueDate: '2030-01-15' });
  });

  it('receives a payment: due falls, next due date moves, receipt has the company', async () => {
    const res = await staffA.post('/salesDuePayment', { client_id: cust, amount: '23.03', nextDD: '2030-02-01' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ done: true, paymentId: expect.any(Number) });
    expect((await A.get(`/getClientDueAndDueDate?custId=${cust}`)).body).toEqual({ due: 100.5, dueDate: '2030-02-01' });
    const receipt = await staffA.get(`/getSalesPaymentDetails?id=${res.body.paymentId}`);
    expect(receipt.status).toBe(200);
    expect(receipt.body.data).toEqual({
      id: res.body.paymentId,
      client_id: cust,
      name: 'Asha Verma',
      mobile_no: '9876500001',
      // The state is shown by name (GST mode stores 'MH' as code 27).
      address: 'Address, Mumbai, Maharashtra, 1000001',
      type: 'Cash',
      transaction_id: '',
      amount: 23.03,
      date: today(),
      next_due_date: '2030-02-01',
      previous_due: 123.53,
      due: 100.5,
      // Sent without payments: cash (issue 28).
      payments: [{ mode: 'cash', amount: '23.03' }],
    });
    expect(receipt.body.companyDetails).toEqual(expect.objectContaining({ id: 1, name: 'Demo Traders' }));
    expect((await B.get(`/getSalesPaymentDetails?id=${res.body.paymentId}`)).status).toBe(404);
  });

  it('a payment retried with the same Idempotency-Key (the answer was lost) is recorded once', async () => {
    const made = await A.post('/clients/addClient', { name: 'Retry Rao', mobile_no: '9876500777', address_line_1: 'Lane 1', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411001' });
    expect(made.status).toBeLessThan(300);
    const cust = made.body.id as number;
    const before = (await A.get(`/getClientDue?custId=${cust}`)).body.due;
    const body = { client_id: cust, amount: '10', nextDD: '2030-02-01', idempotencyKey: 'pay-once-1' };
    const [x, y] = await Promise.all([staffA.post('/salesDuePayment', body), staffA.post('/salesDuePayment', body)]);
    const again = await staffA.post('/salesDuePayment', body);
    expect([x.status, y.status, again.status]).toEqual([200, 200, 200]);
    expect(new Set([x.body.paymentId, y.body.paymentId, again.body.paymentId]).size).toBe(1);
    expect((await A.get(`/getClientDue?custId=${cust}`)).body.due).toBeCloseTo(before - 10, 2);
    const other = await staffA.post('/salesDuePayment', { ...body, amount: '11' });
    expect(other.status).toBe(409);
    expect(other.body.err).toMatch(/already used for a different payment/);
    expect((await staffA.post('/salesDuePayment', { ...body, idempotencyKey: { $gt: '' } })).status).toBe(400);
    expect((await A.get(`/getClientDue?custId=${cust}`)).body.due).toBeCloseTo(before - 10, 2);
  });

  it('payment rules: amount 0, customer required, next due date defaults to today, bad values', async () => {
    const zero = await A.post('/salesDuePayment', { client_id: cust, amount: 0, nextDD: today() });
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual({ done: false, err: 'Amount cannot be 0 !!' });
    expect((await A.post('/salesDuePayment', { client_id: cust, amount: '0.00' })).body.err).toBe('Amount cannot be 0 !!');
    expect((await A.post('/salesDuePayment', { amount: 10 })).body).toEqual({ done: false, err: 'Please Select A Customer !!' });
    expect((await A.post('/salesDuePayment', { client_id: '', amount: 10 })).body.err).toBe('Please Select A Customer !!');
    expect((await A.post('/salesDuePayment', { client_id: 999, amount: 10 })).status).toBe(404);
    expect((await A.post('/salesDuePayment', { client_id: cust, amount: -5 })).body.err).toMatch(/more than 0/);
    expect((await A.post('/salesDuePayment', { client_id: cust, amount: '1.005' })).body.err).toMatch(/at most 2 decimals/);
    expect((await A.post('/salesDuePayment', { client_id: cust, amount: 'ten' })).body.err).toMatch(/must be a number/);
    expect((await A.post('/salesDuePayment', { client_id: cust, amount: 5, nextDD: '2030-02-31' })).body.err).toMatch(/nextDD must be a date/);
    expect((await A.get(`/getClientDue?custId=${cust}`)).body.due).toBe(100.5);
    const noDate = await A.post('/salesDuePayment', { client_id: cust, amount: 0.5 });
    expect(noDate.body.done).toBe(true);
    expect((await A.get(`/getClientDueAndDueDate?custId=${cust}`)).body).toEqual({ due: 100, dueDate: today() });
  });

  it('a payment above the due is an advance: the due goes negative', async () => {
    await A.post('/salesDuePayment', { client_id: cust, amount: 150, nextDD: today() });
    expect((await A.get(`/getClientDue?custId=${cust}`)).body.due).toBe(-50);
    await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 4 }, amount: '50', paid: '0', dueDate: today() });
    expect((await A.get(`/getClientDue?custId=${cust}`)).body.due).toBe(0);
  });

  it('gives a payment to a distributor (managers)', async () => {
    await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'distributor', id: dist }, source: { kind: 'purchase', id: 1 }, amount: '1000.75', paid: '200.25', dueDate: '2030-03-01' });
    expect((await A.get(`/getDueAndDueDate?distId=${dist}`)).body).toEqual({ due: 800.5, dueDate: '2030-03-01' });
    const res = await A.post('/purchaseDuePaymentReact', { distributorId: dist, amount: 300.5, nextDD: '2030-04-01' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ done: true, paymentId: expect.any(Number) });
    expect((await A.get(`/getDueAndDueDate?distId=${dist}`)).body).toEqual({ due: 500, dueDate: '2030-04-01' });
    expect((await A.post('/purchaseDuePaymentReact', { distributorId: dist, amount: 0 })).body.err).toBe('Amount cannot be 0 !!');
    expect((await A.post('/purchaseDuePaymentReact', { amount: 10 })).body.err).toBe('Select a valid Distributor from the list');
    // A given payment is not a customer receipt.
    expect((await A.get(`/getSalesPaymentDetails?id=${res.body.paymentId}`)).status).toBe(404);
  });

  it('history lists entries newest first with the running balance, paged', async () => {
    const h = await A.get(`/getAllClientsHistory?id=${cust}&pageNo=0`);
    expect(h.body.name).toBe('Asha Verma');
    expect(h.body.noOfPages).toBe(1);
    expect(h.body.list.map((r: { type: string; balance: number }) => [r.type, r.balance])).toEqual([
      ['Sale', 0],
      ['Payment Received', -50],
      ['Payment Received', 100],
      ['Payment Received', 100.5],
      ['Sale', 123.53],
      ['Sale', 100.2],
      ['Sale', 100],
    ]);
    expect(h.body.list[0]).toEqual(expect.objectContaining({ ref: 4, amount: 50, paid: 0, hide_link: 'bill' }));
    expect(h.body.list[1].hide_link).toBe('receipt');
    const dh = await A.get(`/distributorsHistory?id=${dist}&pageNo=0`);
    expect(dh.body.list.map((r: { type: string; balance: number }) => [r.type, r.balance])).toEqual([
      ['Payment Given', 500],
      ['Purchase', 800.5],
    ]);
  });
});
