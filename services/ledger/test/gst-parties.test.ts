import { Subjects, type Customer, type Distributor, type DistributorCheckoutReply } from '@bahi/contracts';
import { CustomersService } from '../src/customers/customers.service';
import { DistributorsService } from '../src/distributors/distributors.service';
import { as, customerForm, distributorForm, startLedger, tokenFor, type Stack } from './helpers';

/** A stored party without its outbox marks (the event relay clears them on its own after the write). */
const fields = <T extends object | null>(doc: T) => {
  if (!doc) return doc;
  const { evt: _evt, evtPending: _pending, ...rest } = doc as Record<string, unknown>;
  return rest;
};

// GSTINs with correct check characters (packages/gst/test/gstin.test.ts works them out by hand).
const MH_GSTIN = '27AAPFU0939F1ZV';
const GJ_GSTIN = '24AAGCS5678K1ZT';

let stack: Stack;
let A: ReturnType<typeof as>;
let B: ReturnType<typeof as>;
let customers: CustomersService['model'];
let distributors: DistributorsService['model'];

beforeAll(async () => {
  stack = await startLedger();
  A = as(stack.url, tokenFor(1));
  B = as(stack.url, tokenFor(2));
  customers = stack.svc.app.get(CustomersService).model;
  distributors = stack.svc.app.get(DistributorsService).model;
}, 60_000);
afterAll(() => stack?.stop());

let mobile = 9100000000;
const nextMobile = () => String(++mobile);

describe('customer state and GSTIN', () => {
  it.each(['27', 'Maharashtra', 'mh', ' MAHARASHTRA ', 27])('state %p is stored as 27 and shown as Maharashtra', async (state) => {
    const res = await A.post('/clients/addClient', customerForm({ mobile_no: nextMobile(), state }));
    expect(res.status).toBe(200);
    expect(res.body.customer).toEqual(expect.objectContaining({ state: 'Maharashtra', state_code: '27', gstin: null, b2b: false }));
    expect((await customers.findOne({ companyId: 1, client_id: res.body.id }).lean())!.state).toBe('27');
    const details = await A.get(`/getClientsDetails?id=${res.body.id}`);
    expect(details.body.data).toEqual(expect.objectContaining({ state: 'Maharashtra', state_code: '27' }));
  });

  it('reads rows saved before GST mode (state "MH", no gstin field) as Maharashtra', async () => {
    await customers.collection.insertOne({ companyId: 1, client_id: 9001, name: 'Old Row', mobile_no: '9100099999', address_line_1: 'a', address_line_2: '', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411001', walkIn: false });
    const details = await A.get('/getClientsDetails?id=9001');
    expect(details.status).toBe(200);
    expect(details.body.data).toEqual(expect.objectContaining({ state: 'Maharashtra', state_code: '27', gstin: null, b2b: false }));
    const found = await A.get('/getCustomerList/?text=Old Row');
    expect(found.body).toEqual([expect.objectContaining({ client_id: 9001, state: 'Maharashtra', state_code: '27' })]);
    // An edit without gstin (an old client) stores the code.
    const edit = await A.put('/clients/addClient', customerForm({ id: 9001, mobile_no: undefined, name: 'Old Row', state: 'MH' }));
    expect(edit.status).toBe(200);
    expect((await customers.findOne({ companyId: 1, client_id: 9001 }).lean())!.state).toBe('27');
  });

  it('keeps a state that is not an Indian state as typed when there is no GSTIN (the spec allows any text)', async () => {
    const res = await A.post('/clients/addClient', customerForm({ mobile_no: nextMobile(), state: 'Dubai', country: 'UAE' }));
    expect(res.status).toBe(200);
    expect(res.body.customer).toEqual(expect.objectContaining({ state: 'Dubai', state_code: null, b2b: false }));
  });

  it('a customer with a GSTIN is B2B; the GSTIN is stored uppercase', async () => {
    const res = await A.post('/clients/addClient', customerForm({ mobile_no: nextMobile(), name: 'Shah Textiles', state: 'GJ', gstin: ` ${GJ_GSTIN.toLowerCase()} ` }));
    expect(res.status).toBe(200);
    expect(res.body.customer).toEqual(expect.objectContaining({ gstin: GJ_GSTIN, state: 'Gujarat', state_code: '24', b2b: true }));
    const details = await A.get(`/getClientsDetails?id=${res.body.id}`);
    expect(details.body.data).toEqual(expect.objectContaining({ gstin: GJ_GSTIN, state: 'Gujarat', state_code: '24', b2b: true }));
  });

  it.each([
    ['27AAPFU0939F1Z', /GSTIN: A GSTIN has 15 characters/],
    ['2XAAPFU0939F1ZV', /GSTIN: A GSTIN starts with a two-digit state code/],
    ['28AAPFU0939F1ZV', /GSTIN: State code 28 was Andhra Pradesh/],
    ['27AAPF10939F1ZV', /GSTIN: Characters 3 to 12 must be the holder's PAN/],
    ['27AAPFU0939F0ZV', /GSTIN: The 13th character \(entity number\)/],
    ['27AAPFU0939F1YV', /GSTIN: The 14th character must be Z/],
    ['27AAPFU0939F1ZW', /GSTIN: The check character \(15th\) is wrong: .* it should be 'V'/],
  ])('GSTIN %s is refused naming the wrong part, nothing stored', async (gstin, msg) => {
    const m = nextMobile();
    const res = await A.post('/clients/addClient', customerForm({ mobile_no: m, state: '27', gstin }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ done: false, err: expect.stringMatching(msg) });
    expect(await customers.countDocuments({ mobile_no: m })).toBe(0);
  });

  it('a GSTIN of another state than the one given is 400 with a sentence, nothing stored', async () => {
    const m = nextMobile();
    const res = await A.post('/clientList/add-client', customerForm({ mobile_no: m, state: 'Maharashtra', gstin: GJ_GSTIN }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, err: `The GSTIN ${GJ_GSTIN} is registered in Gujarat (24) but the state given is Maharashtra (27); correct the state or the GSTIN.` });
    const unknown = await A.post('/clients/addClient', customerForm({ mobile_no: m, state: 'Atlantis', gstin: GJ_GSTIN }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.err).toMatch(/A customer with a GSTIN needs an Indian state: 'Atlantis' is not an Indian state .*27.*MH/);
    expect(await customers.countDocuments({ mobile_no: m })).toBe(0);
  });

  it('edits: gstin left out keeps it, a wrong one changes nothing, an empty one clears it', async () => {
    const made = await A.post('/clients/addClient', customerForm({ mobile_no: nextMobile(), state: '27', gstin: MH_GSTIN }));
    const id = made.body.id;
    const before = fields(await customers.findOne({ companyId: 1, client_id: id }).lean());
    // An old client's edit (no gstin) keeps the GSTIN.
    const kept = await A.put('/clients/addClient', customerForm({ id, mobile_no: undefined, name: 'Renamed', state: 'Maharashtra' }));
    expect(kept.body.customer).toEqual(expect.objectContaining({ name: 'Renamed', gstin: MH_GSTIN, b2b: true }));
    // Moving the state away from the GSTIN's is refused, as is a bad GSTIN; nothing changes.
    const moved = await A.put('/clients/addClient', customerForm({ id, mobile_no: undefined, name: 'Moved', state: 'KA' }));
    expect(moved.status).toBe(400);
    expect(moved.body.err).toMatch(/registered in Maharashtra \(27\) but the state given is Karnataka \(29\)/);
    const bad = await A.put('/clients/addClient', customerForm({ id, mobile_no: undefined, name: 'Bad', gstin: '27AAPFU0939F1ZX' }));
    expect(bad.status).toBe(400);
    const after = fields(await customers.findOne({ companyId: 1, client_id: id }).lean());
    expect({ ...after, updatedAt: null }).toEqual({ ...before, name: 'Renamed', updatedAt: null });
    const cleared = await A.put('/clients/addClient', customerForm({ id, mobile_no: undefined, gstin: '', state: 'KA' }));
    expect(cleared.body.customer).toEqual(expect.objectContaining({ gstin: null, b2b: false, state: 'Karnataka', state_code: '29' }));
  });

  it('other fields keep their checks: a GSTIN that is not text is 400', async () => {
    const res = await A.post('/clients/addClient', customerForm({ mobile_no: nextMobile(), gstin: 27 }));
    expect(res.status).toBe(400);
    expect(res.body.err).toMatch(/gstin must be text/);
  });

  it('tenancy: another company neither sees nor edits the customer', async () => {
    const made = await A.post('/clients/addClient', customerForm({ mobile_no: nextMobile(), state: '24', gstin: GJ_GSTIN }));
    expect((await B.get(`/getClientsDetails?id=${made.body.id}`)).status).toBe(404);
    const edit = await B.put('/clients/addClient', customerForm({ id: made.body.id, mobile_no: undefined, state: '27', gstin: MH_GSTIN }));
    expect(edit.status).toBe(404);
    expect((await A.get(`/getClientsDetails?id=${made.body.id}`)).body.data).toEqual(expect.objectContaining({ gstin: GJ_GSTIN, state_code: '24' }));
    // The same GSTIN may be a customer of company 2 too.
    const other = await B.post('/clients/addClient', customerForm({ mobile_no: nextMobile(), state: '24', gstin: GJ_GSTIN }));
    expect(other.status).toBe(200);
  });

  it('ledger.customer.lookup and walkIn carry gstin, state and state_code over NATS', async () => {
    const made = await A.post('/clients/addClient', customerForm({ mobile_no: nextMobile(), state: 'gujarat', gstin: GJ_GSTIN }));
    const c = await stack.ask<Customer>(Subjects.ledger.customerLookup, { companyId: 1, clientId: made.body.id });
    expect(c).toEqual(expect.objectContaining({ client_id: made.body.id, gstin: GJ_GSTIN, state: 'Gujarat', state_code: '24', b2b: true }));
    expect(await stack.ask(Subjects.ledger.customerLookup, { companyId: 2, clientId: made.body.id })).toBeNull();
    const walkIn = await stack.ask<Customer>(Subjects.ledger.customerWalkIn, { companyId: 1 });
    expect(walkIn).toEqual(expect.objectContaining({ walkIn: true, gstin: null, state: '', state_code: null, b2b: false }));
  });
});

describe('distributor state and GSTIN', () => {
  it.each(['19', 'West Bengal', 'wb'])('state %p is stored as 19 and shown as West Bengal', async (state) => {
    const res = await A.post('/addDistributor', distributorForm({ state }));
    expect(res.status).toBe(200);
    expect(res.body.distributor).toEqual(expect.objectContaining({ state: 'West Bengal', state_code: '19', gstin: null }));
    expect((await distributors.findOne({ companyId: 1, distributor_id: res.body.id }).lean())!.state).toBe('19');
  });

  it('reads old rows (state "WB") and adds a GSTIN; ledger.distributor.lookup carries it', async () => {
    await distributors.collection.insertOne({ companyId: 1, distributor_id: 9001, name: 'Old Supplier', address_line_1: 'a', address_line_2: '', city_or_district: 'Kolkata', state: 'WB', country: 'India', postal_code: '700001', officers: [] });
    expect((await A.get('/getDistributorsDetails?id=9001')).body.data).toEqual(expect.objectContaining({ state: 'West Bengal', state_code: '19', gstin: null }));
    const made = await A.post('/addDistributor', distributorForm({ name: 'Mumbai Wholesale', state: 'Maharashtra', gstin: MH_GSTIN.toLowerCase() }));
    expect(made.status).toBe(200);
    expect(made.body.distributor).toEqual(expect.objectContaining({ gstin: MH_GSTIN, state: 'Maharashtra', state_code: '27' }));
    const d = await stack.ask<Distributor>(Subjects.ledger.distributorLookup, { companyId: 1, distributorId: made.body.id });
    expect(d).toEqual(expect.objectContaining({ gstin: MH_GSTIN, state: 'Maharashtra', state_code: '27' }));
    expect(await stack.ask(Subjects.ledger.distributorLookup, { companyId: 2, distributorId: made.body.id })).toBeNull();
    const old = await stack.ask<Distributor>(Subjects.ledger.distributorLookup, { companyId: 1, distributorId: 9001 });
    expect(old).toEqual(expect.objectContaining({ gstin: null, state: 'West Bengal', state_code: '19' }));
    // The checkout list stays the spec's { distributor_id, name } (inventory passes it to the browser as is).
    const checkout = await stack.ask<DistributorCheckoutReply>(Subjects.ledger.distributorCheckout, { companyId: 1 });
    expect(checkout.distributors).toContainEqual({ distributor_id: made.body.id, name: 'Mumbai Wholesale' });
  });

  it('a wrong GSTIN, or one of another state, is 400 and changes nothing', async () => {
    const count = await distributors.countDocuments({ companyId: 1 });
    const bad = await A.post('/addDistributor', distributorForm({ name: 'Bad Gst', gstin: '19AAPFU0939F1ZV' }));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ done: false, err: expect.stringMatching(/^GSTIN: The check character \(15th\) is wrong/) });
    const mismatch = await A.post('/addDistributor', distributorForm({ name: 'Mismatch', state: 'WB', gstin: MH_GSTIN }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.err).toBe(`The GSTIN ${MH_GSTIN} is registered in Maharashtra (27) but the state given is West Bengal (19); correct the state or the GSTIN.`);
    expect(await distributors.countDocuments({ companyId: 1 })).toBe(count);

    const made = await A.post('/addDistributor', distributorForm({ name: 'Edit Me', state: '27', gstin: MH_GSTIN }));
    const before = fields(await distributors.findOne({ companyId: 1, distributor_id: made.body.id }).lean());
    const moved = await A.put('/addDistributor', distributorForm({ id: made.body.id, name: 'Moved', state: 'WB' }));
    expect(moved.status).toBe(400);
    expect(moved.body.err).toMatch(/registered in Maharashtra \(27\) but the state given is West Bengal \(19\)/);
    expect(fields(await distributors.findOne({ companyId: 1, distributor_id: made.body.id }).lean())).toEqual(before);
    // Company 2 cannot edit it.
    expect((await B.put('/addDistributor', distributorForm({ id: made.body.id, state: '27', gstin: '' }))).status).toBe(404);
    expect(fields(await distributors.findOne({ companyId: 1, distributor_id: made.body.id }).lean())).toEqual(before);
  });

  it('staff may not set a distributor GSTIN (managers only, as before)', async () => {
    const staff = as(stack.url, tokenFor(1, 'staff'));
    expect((await staff.post('/addDistributor', distributorForm({ gstin: MH_GSTIN, state: '27' }))).status).toBe(403);
  });
});
