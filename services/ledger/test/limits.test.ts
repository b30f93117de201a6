import { as, customerForm, distributorForm, startLedger, tokenFor, type Stack } from './helpers';

// Arrays and numbers have upper bounds: past them a 400 with a sentence, and nothing stored.
let stack: Stack;
let A: ReturnType<typeof as>;
let cust: number;

beforeAll(async () => {
  stack = await startLedger();
  A = as(stack.url, tokenFor(1));
  cust = (await A.post('/clients/addClient', customerForm())).body.id;
}, 60_000);
afterAll(() => stack?.stop());

const officers = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Officer ${i}` }));
const distributors = async () => (await A.get('/getAllDistributorsList')).body.allDistributorsList.length as number;

describe('ledger limits', () => {
  it('a distributor has at most 50 officers; 51 (or 1000, or 20000) answer 400 and store nothing', async () => {
    const before = await distributors();
    for (const n of [51, 1000]) {
      const res = await A.post('/addDistributor', distributorForm({ officers: officers(n) }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ done: false, err: expect.stringMatching(/officers can hold at most 50/) });
    }
    // Past any list's limit the body is refused before the form is read.
    const flood = await A.post('/addDistributor', distributorForm({ officers: officers(20_000) }));
    expect(flood.status).toBe(400);
    expect(flood.body.message).toMatch(/holds 20000 items; at most 1000 are accepted/);
    expect(await distributors()).toBe(before);
    const fifty = await A.post('/addDistributor', distributorForm({ name: 'Fifty Officers', officers: officers(50) }));
    expect(fifty.status).toBe(200);
    expect(fifty.body.distributor.officers).toHaveLength(50);
    const edit = await A.put('/addDistributor', distributorForm({ id: fifty.body.id, officers: officers(51) }));
    expect(edit.status).toBe(400);
    expect((await A.get(`/getDistributorsDetails?id=${fifty.body.id}`)).body.data.officers).toHaveLength(50);
  });

  it('ids past 2^31 answer 400 naming the field', async () => {
    for (const [res, field] of [
      [await A.put('/addDistributor', distributorForm({ id: 99999999999999999999 })), 'id'],
      [await A.post('/addDistributor', distributorForm({ officers: [{ id: 2147483648, name: 'X' }] })), 'officers.0.id'],
      [await A.put('/clients/addClient', customerForm({ id: 1e20 })), 'id'],
    ] as const) {
      expect(res.status).toBe(400);
      expect(res.body.err).toMatch(new RegExp(`${field.replace('.', '\\.')} must be at most 2147483647`));
    }
    for (const path of ['/getClientDue?custId=99999999999', '/getClientsDetails?id=2147483648', '/getSalesPaymentDetails?id=9007199254740993']) {
      const res = await A.get(path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.message).toMatch(/must be a positive whole number up to 2147483647/);
    }
  });

  it('page numbers and search text have bounds', async () => {
    const res = await A.get('/getClientsList?pageNo=99999999999');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/pageNo must be at most 1000000/);
    const text = await A.get(`/getCustomerList?text=${'a'.repeat(101)}`);
    expect(text.status).toBe(400);
    expect(text.body.message).toMatch(/text can have at most 100 characters/);
  });

  it('a payment above 1e11 rupees answers 400 and records nothing', async () => {
    const due = (await A.get(`/getClientDue?custId=${cust}`)).body.due;
    const res = await A.post('/salesDuePayment', { client_id: cust, amount: '100000000000.01', nextDD: '2030-01-01' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/amount must be at most 100000000000/);
    const huge = await A.post('/salesDuePayment', { client_id: cust, amount: '9'.repeat(400), nextDD: '2030-01-01' });
    expect(huge.status).toBe(400);
    expect((await A.get(`/getClientDue?custId=${cust}`)).body.due).toBe(due);
  });
});
