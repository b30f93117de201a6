import request from 'supertest';
import type { CompanyDetails } from '@bahi/contracts';
import { CustomersService } from '../src/customers/customers.service';
import { DistributorsService } from '../src/distributors/distributors.service';
import { as, auth, COMPANIES, customerForm, distributorForm, startLedger, tokenFor, type Stack } from './helpers';

// Issue 31: in GST mode a party in India needs a 6-digit PIN (e-way bills name it). Company 4 is
// in GST mode (Karnataka), company 5 in composition; company 1 stays in simple mode (the spec's numeric zip).
const PIN_SENTENCE = (who: string, pin: string) =>
  `postal_code must be a 6-digit PIN code not starting with 0 (e.g. 411001): a ${who} in India needs one in GST mode, for e-way bills; '${pin}' is not one.`;

let stack: Stack;
let G: ReturnType<typeof as>;
let C: ReturnType<typeof as>;
let S: ReturnType<typeof as>;
let customers: CustomersService['model'];
let distributors: DistributorsService['model'];

beforeAll(async () => {
  const base = { add1: '1 MG Road', add2: 'Bengaluru', mob2: '', email: '', logo: null, upiId: null, gstin: '29AAPFU0939F1ZR', state_code: '29' };
  COMPANIES[4] = { id: 4, name: 'Bengaluru Traders', mob1: '9000000004', tax_mode: 'gst', ...base } as CompanyDetails;
  COMPANIES[5] = { id: 5, name: 'Mysuru Stores', mob1: '9000000005', tax_mode: 'composition', ...base } as CompanyDetails;
  stack = await startLedger();
  G = as(stack.url, tokenFor(4));
  C = as(stack.url, tokenFor(5));
  S = as(stack.url, tokenFor(1));
  customers = stack.svc.app.get(CustomersService).model;
  distributors = stack.svc.app.get(DistributorsService).model;
}, 60_000);
afterAll(() => stack?.stop());

describe('a party PIN code in GST mode', () => {
  it.each(['1000001', '56001', '056001', '56A001'])('customer PIN %p is refused with a sentence on add (both spec routes), nothing stored', async (pin) => {
    const before = await customers.countDocuments({ companyId: 4 });
    const r = await G.post('/clients/addClient', customerForm({ mobile_no: '9300000001', state: 'KA', postal_code: pin }));
    expect(r.status).toBe(400);
    // Letters are not numeric: the spec's own message comes first.
    expect(r.body).toEqual({ done: false, err: /[A-Z]/.test(pin) ? 'postal_code must be numeric.' : PIN_SENTENCE('customer', pin) });
    const f = await G.post('/clientList/add-client', customerForm({ mobile_no: '9300000001', state: 'KA', postal_code: pin }));
    expect(f.status).toBe(400);
    expect(f.body.success).toBe(false);
    expect(await customers.countDocuments({ companyId: 4 })).toBe(before);
  });

  it('a 6-digit PIN is kept; an edit to a bad PIN is refused and keeps the stored one', async () => {
    const ok = await G.post('/clients/addClient', customerForm({ mobile_no: '9300000002', state: 'KA', postal_code: '560001' }));
    expect(ok.status).toBe(200);
    expect(ok.body.customer.postal_code).toBe('560001');
    const id = ok.body.id as number;
    const edit = await G.put('/clients/addClient', customerForm({ id, mobile_no: undefined, state: 'KA', postal_code: '56000' }));
    expect(edit.status).toBe(400);
    expect(edit.body).toEqual({ done: false, err: PIN_SENTENCE('customer', '56000') });
    expect((await customers.findOne({ companyId: 4, client_id: id }).lean())!.postal_code).toBe('560001');
    const fixed = await G.put('/clients/addClient', customerForm({ id, mobile_no: undefined, state: 'KA', postal_code: '560034' }));
    expect(fixed.status).toBe(200);
    expect((await customers.findOne({ companyId: 4, client_id: id }).lean())!.postal_code).toBe('560034');
  });

  it('distributors: add and edit refused the same way (composition mode too); a supplier abroad keeps any numeric zip', async () => {
    const before = await distributors.countDocuments({ companyId: 4 });
    const bad = await G.post('/addDistributor', distributorForm({ postal_code: '70001' }));
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ done: false, err: PIN_SENTENCE('distributor', '70001') });
    expect(await distributors.countDocuments({ companyId: 4 })).toBe(before);
    const comp = await C.post('/addDistributor', distributorForm({ postal_code: '070001' }));
    expect(comp.status).toBe(400);
    expect(comp.body.err).toBe(PIN_SENTENCE('distributor', '070001'));
    const ok = await G.post('/addDistributor', distributorForm({ postal_code: '700001' }));
    expect(ok.status).toBe(200);
    const edit = await G.put('/addDistributor', distributorForm({ id: ok.body.id, postal_code: '7000011' }));
    expect(edit.status).toBe(400);
    expect(edit.body.err).toBe(PIN_SENTENCE('distributor', '7000011'));
    expect((await distributors.findOne({ companyId: 4, distributor_id: ok.body.id }).lean())!.postal_code).toBe('700001');
    const abroad = await G.post('/addDistributor', distributorForm({ name: 'Dubai Imports', state: 'Dubai', country: 'UAE', postal_code: '12345' }));
    expect(abroad.status).toBe(200);
  });

  it("simple mode keeps the spec's rule: any numeric zip", async () => {
    const r = await S.post('/clients/addClient', customerForm({ mobile_no: '9300000003', postal_code: '1000001' }));
    expect(r.status).toBe(200);
    const d = await S.post('/addDistributor', distributorForm({ name: 'Short Zip', postal_code: '7' }));
    expect(d.status).toBe(200);
  });

  it('an import names the PIN code column of each bad row and adds only the good rows', async () => {
    const csv = [
      'Name,Mobile,Address,City,State,PIN',
      'Good Row,9300000011,1 Road,Bengaluru,KA,560001',
      'Short Pin,9300000012,1 Road,Bengaluru,KA,56001',
      'Zero Pin,9300000013,1 Road,Bengaluru,KA,012345',
    ].join('\n');
    const h = auth(tokenFor(4));
    const up = await request(stack.url).post('/imports/customers').set(h).attach('file', Buffer.from(csv), 'c.csv');
    expect(up.status).toBe(200);
    const v = await request(stack.url).post(`/imports/customers/${up.body.id}/validate`).set(h).send({ mapping: up.body.mapping });
    expect(v.body).toMatchObject({ total: 3, valid: 1, invalid: 2 });
    expect(v.body.errors).toEqual([
      { row: 3, field: 'PIN code', reason: PIN_SENTENCE('customer', '56001') },
      { row: 4, field: 'PIN code', reason: PIN_SENTENCE('customer', '012345') },
    ]);
    const run = await request(stack.url).post(`/imports/customers/${up.body.id}/run`).set(h).send({ mapping: up.body.mapping, mode: 'valid' });
    expect(run.status).toBe(202);
    for (let i = 0; i < 200 && (await request(stack.url).get(`/imports/customers/${up.body.id}`).set(h)).body.state === 'running'; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await customers.find({ companyId: 4, mobile_no: { $in: ['9300000011', '9300000012', '9300000013'] } }).lean()).map((c) => c.name)).toEqual(['Good Row']);
  });
});
