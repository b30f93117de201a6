import request from 'supertest';
import { as, customerForm, startLedger, tokenFor, type Stack } from './helpers';

let stack: Stack;
let A: ReturnType<typeof as>;
let staffA: ReturnType<typeof as>;
let B: ReturnType<typeof as>;

beforeAll(async () => {
  stack = await startLedger();
  A = as(stack.url, tokenFor(1));
  staffA = as(stack.url, tokenFor(1, 'staff'));
  B = as(stack.url, tokenFor(2));
}, 60_000);
afterAll(() => stack?.stop());

describe('customers', () => {
  let asha: number;

  it('refuses calls without a token', async () => {
    expect((await request(stack.url).get('/getClientsList')).status).toBe(401);
  });

  it('adds a customer with the next per-company id (staff may add)', async () => {
    const res = await staffA.post('/clients/addClient', customerForm());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ done: true, id: expect.any(Number), customer: expect.objectContaining({ name: 'Asha Verma', mobile_no: '9876500001', postal_code: '1000001', city_or_district: 'Mumbai' }) });
    asha = res.body.id;
    expect(res.body.customer.client_id).toBe(asha);
    const second = await A.post('/clients/addClient', customerForm({ mobile_no: '+91 98765 00002', name: 'Bhavesh Shah', postal_code: 400001 }));
    expect(second.body.id).toBe(asha + 1);
    expect(second.body.customer.mobile_no).toBe('9876500002');
    expect(second.body.customer.postal_code).toBe('400001');
  });

  it('validates the form with {done:false, err} and stores nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ mobile_no: '12345' }, /mobile_no must be a 10-digit/],
      [{ mobile_no: 'abcdefghij' }, /mobile_no/],
      [{ name: '  ' }, /name is required/],
      [{ address_line_1: '' }, /address_line_1 is required/],
      [{ city_or_district: '' }, /city_or_district is required/],
      [{ state: '' }, /state is required/],
      [{ country: '' }, /country is required/],
      [{ postal_code: '40A001' }, /postal_code must be numeric/],
      [{ unknown: 1 }, /Unknown field 'unknown'/],
    ];
    for (const [over, msg] of cases) {
      const res = await A.post('/clients/addClient', customerForm({ mobile_no: '9000000099', ...over }));
      expect(res.status).toBe(400);
      expect(res.body.done).toBe(false);
      expect(res.body.err).toMatch(msg);
    }
    const { mobile_no: _m, ...noMobile } = customerForm();
    expect((await A.post('/clients/addClient', noMobile)).body.err).toMatch(/mobile_no/);
    const list = await A.get('/getAllClientsList');
    expect(list.body.allClientsList.map((c: { mobile_no: string }) => c.mobile_no)).not.toContain('9000000099');
  });

  it('address line 2 is optional', async () => {
    const { address_line_2: _a, ...rest } = customerForm({ mobile_no: '9876500003', name: 'Chitra' });
    const res = await A.post('/clients/addClient', rest);
    expect(res.status).toBe(200);
    expect(res.body.customer.address_line_2).toBe('');
  });

  it('a mobile number is unique within a company, not across companies; the walk-in number is reserved', async () => {
    const dup = await A.post('/clients/addClient', customerForm({ name: 'Someone Else' }));
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ done: false, err: 'A customer with mobile number 9876500001 already exists.' });
    const reserved = await A.post('/clients/addClient', customerForm({ mobile_no: '0000000000' }));
    expect(reserved.status).toBe(409);
    expect(reserved.body.err).toMatch(/reserved for the walk-in/);
    const inB = await B.post('/clients/addClient', customerForm());
    expect(inB.status).toBe(200);
    expect(inB.body.id).toBe(1);
  });

  it('updates with PUT; the mobile number is locked', async () => {
    const res = await A.put('/clients/addClient', customerForm({ id: asha, name: 'Asha V. Verma', city_or_district: 'Thane' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ done: true, id: asha, customer: expect.objectContaining({ name: 'Asha V. Verma', city_or_district: 'Thane', mobile_no: '9876500001' }) });
    const { mobile_no: _m, ...noMobile } = customerForm({ id: asha, name: 'Asha Verma' });
    expect((await A.put('/clients/addClient', noMobile)).status).toBe(200);
    const changed = await A.put('/clients/addClient', customerForm({ id: asha, mobile_no: '9111111111' }));
    expect(changed.status).toBe(409);
    expect(changed.body).toEqual({ done: false, err: 'The mobile number of an existing customer cannot be changed.' });
    expect((await A.get(`/getClientsDetails?id=${asha}`)).body.data.mobile_no).toBe('9876500001');
    const noId = await A.put('/clients/addClient', customerForm());
    expect(noId.status).toBe(400);
    expect(noId.body.err).toMatch(/id is required/);
  });

  it('company B cannot read or edit company A customers (404)', async () => {
    expect((await B.get(`/getClientsDetails?id=${asha + 1}`)).status).toBe(404);
    expect((await B.get(`/getClientDue?custId=${asha + 1}`)).status).toBe(404);
    expect((await B.get(`/getAllClientsHistory?id=${asha + 1}`)).status).toBe(404);
    const edit = await B.put('/clients/addClient', customerForm({ id: asha + 1, name: 'Hacked' }));
    expect(edit.status).toBe(404);
    expect(edit.body.done).toBe(false);
    expect((await A.get(`/getClientsDetails?id=${asha + 1}`)).body.data.name).toBe('Bhavesh Shah');
    const search = await B.get('/getCustomerList/?text=Bhav');
    expect(search.body).toEqual([]);
  });

  it('searches from 3 characters by name or mobile', async () => {
    expect((await A.get('/getCustomerList/?text=As')).body).toEqual([]);
    const byName = await A.get('/getCustomerList/?text=ash');
    expect(byName.status).toBe(200);
    expect(byName.body.map((c: { name: string }) => c.name)).toEqual(['Asha Verma']);
    const byMobile = await A.get('/getCustomerList/?text=6500002');
    expect(byMobile.body).toEqual([expect.objectContaining({ client_id: asha + 1, id: asha + 1, name: 'Bhavesh Shah', mobile_no: '9876500002' })]);
    const regexChars = await A.get('/getCustomerList/?text=' + encodeURIComponent('.*('));
    expect(regexChars.body).toEqual([]);
  });

  it('the form action /clientList/add-client answers success', async () => {
    const res = await A.post('/clientList/add-client', customerForm({ mobile_no: '9876500004', name: 'Dinesh' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: expect.any(Number), customer: expect.objectContaining({ name: 'Dinesh' }) });
    const bad = await A.post('/clientList/add-client', customerForm({ mobile_no: '1' }));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, err: expect.stringMatching(/mobile_no/) });
  });

  it('lists customers paged (10 a page, newest first) with their due; pageNo checked', async () => {
    for (let i = 10; i < 20; i++) await A.post('/clients/addClient', customerForm({ mobile_no: `98765000${i}`, name: `Bulk ${i}` }));
    const p0 = await A.get('/getClientsList?pageNo=0');
    expect(p0.body.noOfPages).toBe(2);
    expect(p0.body.clientsList).toHaveLength(10);
    expect(p0.body.clientsList[0]).toEqual({ id: expect.any(Number), name: 'Bulk 19', mobile_no: '9876500019', city_or_district: 'Mumbai', due: 0 });
    const p1 = await A.get('/getClientsList?pageNo=1');
    expect(p1.body.clientsList).toHaveLength(4);
    expect((await A.get('/getClientsList?pageNo=x')).status).toBe(400);
    expect((await A.get('/getClientsList')).body.clientsList).toHaveLength(10);
    const all = await A.get('/getAllClientsList');
    expect(all.body.allClientsList).toHaveLength(14);
    const bList = await B.get('/getClientsList?pageNo=0');
    expect(bList.body.clientsList).toHaveLength(1);
  });

  it('details and history of a customer; bad ids are 400, unknown ids 404', async () => {
    const d = await A.get(`/getClientsDetails?id=${asha}`);
    expect(d.body.data).toEqual(expect.objectContaining({ client_id: asha, name: 'Asha Verma', due: 0, dueDate: null }));
    const h = await A.get(`/getAllClientsHistory?id=${asha}&pageNo=0`);
    expect(h.body).toEqual({ list: [], noOfPages: 0, name: 'Asha Verma' });
    expect((await A.get('/getClientsDetails?id=abc')).status).toBe(400);
    expect((await A.get('/getClientsDetails')).status).toBe(400);
    expect((await A.get('/getClientsDetails?id=999')).status).toBe(404);
  });
});
