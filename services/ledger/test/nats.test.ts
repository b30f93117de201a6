import { RemoteError } from '@bahi/auth';
import { Subjects, WALK_IN_MOBILE, type Customer } from '@bahi/contracts';
import { DemoSeed } from '../src/seed/demo.seed';
import { as, customerForm, distributorForm, startLedger, tokenFor, type Stack } from './helpers';

let stack: Stack;
let A: ReturnType<typeof as>;
let cust: number;
let dist: number;

beforeAll(async () => {
  stack = await startLedger();
  A = as(stack.url, tokenFor(1));
  cust = (await A.post('/clients/addClient', customerForm())).body.id;
  dist = (await A.post('/addDistributor', distributorForm({ officers: [{ name: 'Subir Das', mobile: '9830011122' }] }))).body.id;
}, 60_000);
afterAll(() => stack?.stop());

const remote = (p: Promise<unknown>) => p.then(() => null, (e: RemoteError) => ({ status: e.status, message: e.message }));

describe('ledger NATS API', () => {
  it('customer lookup by id, null when unknown or of another company', async () => {
    expect(await stack.ask(Subjects.ledger.customerLookup, { companyId: 1, clientId: cust })).toEqual(expect.objectContaining({ client_id: cust, name: 'Asha Verma' }));
    expect(await stack.ask(Subjects.ledger.customerLookup, { companyId: 2, clientId: cust })).toBeNull();
    expect(await stack.ask(Subjects.ledger.customerLookup, { companyId: 1, clientId: 999 })).toBeNull();
  });

  it('the walk-in customer: one per company, reserved mobile, never listed, due never carried', async () => {
    const w1 = await stack.ask<Customer>(Subjects.ledger.customerWalkIn, { companyId: 1 });
    const w2 = await stack.ask<Customer>(Subjects.ledger.customerLookup, { companyId: 1, clientId: 0 });
    const w3 = await stack.ask<Customer>(Subjects.ledger.customerLookup, { companyId: 1, clientId: null });
    expect(w1).toEqual(expect.objectContaining({ name: 'Unknown', mobile_no: WALK_IN_MOBILE, walkIn: true }));
    expect(w2.client_id).toBe(w1.client_id);
    expect(w3.client_id).toBe(w1.client_id);
    const wB = await stack.ask<Customer>(Subjects.ledger.customerWalkIn, { companyId: 2 });
    expect(wB.client_id).toBe(1);
    // A walk-in sale with something unpaid still leaves the next bill's previous due at 0.
    expect(await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: 0 }, source: { kind: 'sale', id: 50 }, amount: '500', paid: '100' })).toEqual({ posted: true });
    expect(await stack.ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'customer', id: w1.client_id } })).toEqual({ due: '0', dueDate: null });
    expect(await stack.ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'customer', id: 0 } })).toEqual({ due: '0', dueDate: null });
    expect((await A.get(`/getClientDue?custId=${w1.client_id}`)).body).toEqual({ due: 0 });
    expect((await A.get('/getCustomerList/?text=Unknown')).body).toEqual([]);
    expect((await A.get('/getCustomerList/?text=000000000')).body).toEqual([]);
    expect((await A.get('/getAllClientsList')).body.allClientsList.map((c: Customer) => c.name)).toEqual(['Asha Verma']);
    const pay = await A.post('/salesDuePayment', { client_id: w1.client_id, amount: 10 });
    expect(pay.body).toEqual({ done: false, err: 'Please Select A Customer !!' });
    const edit = await A.put('/clients/addClient', customerForm({ id: w1.client_id, mobile_no: WALK_IN_MOBILE, name: 'Renamed' }));
    expect(edit.status).toBe(404);
  });

  it('posts a sale once (idempotent by source) and keeps amounts exact', async () => {
    const msg = { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 7 }, amount: '1999.99', paid: '999.98', dueDate: '2030-05-05', date: '2030-04-05' };
    expect(await stack.ask(Subjects.ledger.entryPost, msg)).toEqual({ posted: true });
    expect(await stack.ask(Subjects.ledger.entryPost, msg)).toEqual({ posted: false });
    const concurrent = await Promise.all([1, 2, 3].map(() => stack.ask<{ posted: boolean }>(Subjects.ledger.entryPost, { ...msg, source: { kind: 'sale', id: 8 }, amount: '0.01', paid: '0' })));
    expect(concurrent.filter((r) => r.posted)).toHaveLength(1);
    expect(await stack.ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'customer', id: cust } })).toEqual({ due: '1000.02', dueDate: '2030-05-05' });
  });

  it('reverses a source once', async () => {
    expect(await stack.ask(Subjects.ledger.entryReverse, { companyId: 1, source: { kind: 'sale', id: 7 } })).toEqual({ reversed: true });
    expect(await stack.ask(Subjects.ledger.entryReverse, { companyId: 1, source: { kind: 'sale', id: 7 } })).toEqual({ reversed: false });
    expect(await stack.ask(Subjects.ledger.entryReverse, { companyId: 1, source: { kind: 'sale', id: 12345 } })).toEqual({ reversed: false });
    expect(await stack.ask(Subjects.ledger.entryReverse, { companyId: 2, source: { kind: 'sale', id: 8 } })).toEqual({ reversed: false });
    // Reversals do not move the due date back.
    expect(await stack.ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'customer', id: cust } })).toEqual({ due: '0.01', dueDate: '2030-05-05' });
  });

  it('refuses bad posts with 4xx and stores nothing', async () => {
    const base = { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 90 }, amount: '10', paid: '0' };
    expect(await remote(stack.ask(Subjects.ledger.entryPost, { ...base, amount: 'abc' }))).toEqual({ status: 400, message: 'amount must be a decimal string.' });
    expect(await remote(stack.ask(Subjects.ledger.entryPost, { ...base, paid: '-1' }))).toEqual({ status: 400, message: 'paid cannot be negative.' });
    expect(await remote(stack.ask(Subjects.ledger.entryPost, { ...base, dueDate: '2030-13-01' }))).toEqual({ status: 400, message: 'dueDate must be a date (YYYY-MM-DD).' });
    expect(await remote(stack.ask(Subjects.ledger.entryPost, { ...base, party: { kind: 'distributor', id: dist } }))).toEqual({ status: 400, message: 'A sale is posted to a customer.' });
    expect(await remote(stack.ask(Subjects.ledger.entryPost, { ...base, companyId: 5 }))).toEqual({ status: 404, message: `Customer ${cust} not found.` });
    expect((await remote(stack.ask(Subjects.ledger.entryPost, { ...base, source: { kind: 'refund', id: 1 } })))?.status).toBe(400);
    expect(await stack.ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'customer', id: cust } })).toEqual({ due: '0.01', dueDate: '2030-05-05' });
    expect(await remote(stack.ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'distributor', id: 99 } }))).toEqual({ status: 404, message: 'Distributor 99 not found.' });
  });

  it('refuses malformed payloads (string or object ids, company 0, unknown fields) with 400 on every handler and stores nothing', async () => {
    const before = await stack.ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'customer', id: cust } });
    const base = { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 91 }, amount: '10', paid: '0' };
    const bad: [string, unknown][] = [
      [Subjects.ledger.entryPost, { ...base, companyId: '1' }],
      [Subjects.ledger.entryPost, { ...base, companyId: 0 }],
      [Subjects.ledger.entryPost, { ...base, party: { kind: 'customer', id: String(cust) } }],
      [Subjects.ledger.entryPost, { ...base, source: { kind: 'sale', id: { $gt: 0 } } }],
      [Subjects.ledger.entryPost, { ...base, amount: 10 }],
      [Subjects.ledger.entryPost, { ...base, dueDate: { $gt: '' } }],
      [Subjects.ledger.entryPost, { ...base, note: 'extra' }],
      [Subjects.ledger.entryReverse, { companyId: 1, source: { kind: 'sale', id: '90' } }],
      [Subjects.ledger.customerLookup, { companyId: 1, clientId: String(cust) }],
      [Subjects.ledger.customerLookup, { companyId: { $gt: 0 }, clientId: cust }],
      [Subjects.ledger.customerWalkIn, { companyId: -1 }],
      [Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'customer', id: { $gt: 0 } } }],
      [Subjects.ledger.distributorCheckout, { companyId: '1' }],
      [Subjects.ledger.distributorLookup, { companyId: 1, distributorId: 1.5 }],
      [Subjects.documents.receiptDocument, { companyId: 1, paymentId: '1' }],
      [Subjects.documents.customerStatement, { companyId: 1, clientId: { $gt: 0 } }],
    ];
    const outcomes = await Promise.all(
      bad.map(([subject, data]) =>
        remote(stack.ask(subject, data)).then((e) => (e?.status === 400 && /\w.*\.$/.test(e.message) ? 'refused' : `${subject} ${JSON.stringify(data)}: ${JSON.stringify(e)}`)),
      ),
    );
    expect(outcomes.filter((o) => o !== 'refused')).toEqual([]);
    expect(await stack.ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'customer', id: cust } })).toEqual(before);
  });

  it('purchase posting, distributor lookup and checkout lists', async () => {
    expect(await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'distributor', id: dist }, source: { kind: 'purchase', id: 3 }, amount: '2500.50', paid: '500' })).toEqual({ posted: true });
    expect(await stack.ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'distributor', id: dist } })).toEqual({ due: '2000.5', dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(await stack.ask(Subjects.ledger.distributorLookup, { companyId: 1, distributorId: dist })).toEqual(expect.objectContaining({ distributor_id: dist, name: 'Eastern Traders' }));
    expect(await stack.ask(Subjects.ledger.distributorLookup, { companyId: 2, distributorId: dist })).toBeNull();
    const co = await stack.ask<{ distributors: unknown[]; officers: unknown[] }>(Subjects.ledger.distributorCheckout, { companyId: 1 });
    expect(co).toEqual({ distributors: [{ distributor_id: dist, name: 'Eastern Traders' }], officers: [{ id: expect.any(Number), distributor_id: dist, name: 'Subir Das', mobile: '9830011122' }] });
    expect(await stack.ask(Subjects.ledger.distributorCheckout, { companyId: 2 })).toEqual({ distributors: [], officers: [] });
  });
});

describe('demo data', () => {
  it('seeds customers, distributors and history once', async () => {
    const seed = stack.svc.app.get(DemoSeed);
    expect(await seed.seed(3)).toBe(true);
    expect(await seed.seed(3)).toBe(false);
    const demo = as(stack.url, tokenFor(3));
    const clients = await demo.get('/getClientsList?pageNo=0');
    expect(clients.body.noOfPages).toBe(1);
    expect(clients.body.clientsList).toHaveLength(10);
    expect(clients.body.clientsList.some((c: { due: number }) => c.due > 0)).toBe(true);
    const dists = await demo.get('/getAllDistributorsList');
    expect(dists.body.allDistributorsList).toHaveLength(4);
    const co = await stack.ask<{ officers: unknown[] }>(Subjects.ledger.distributorCheckout, { companyId: 3 });
    expect(co.officers.length).toBeGreaterThanOrEqual(4);
  });
});
