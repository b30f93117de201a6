import type { CompanyDetails } from '@bahi/contracts';
import { CustomersService } from '../src/customers/customers.service';
import { DistributorsService } from '../src/distributors/distributors.service';
import { as, COMPANIES, customerForm, distributorForm, startLedger, tokenFor, type Stack } from './helpers';

// Company 3 is in GST mode in Karnataka (29); company 1 is in simple mode (no tax_mode).
const KA_COMPANY = '29AAPFU0939F1ZR';
const GJ_GSTIN = '24AAGCS5678K1ZT';

let stack: Stack;
let G: ReturnType<typeof as>;
let S: ReturnType<typeof as>;
let customers: CustomersService['model'];
let distributors: DistributorsService['model'];

beforeAll(async () => {
  COMPANIES[3] = { id: 3, name: 'Bengaluru Stores', add1: '1 MG Road', add2: 'Bengaluru', mob1: '9000000003', mob2: '', email: '', logo: null, upiId: null, tax_mode: 'gst', gstin: KA_COMPANY, state_code: '29' } as CompanyDetails;
  stack = await startLedger();
  G = as(stack.url, tokenFor(3));
  S = as(stack.url, tokenFor(1));
  customers = stack.svc.app.get(CustomersService).model;
  distributors = stack.svc.app.get(DistributorsService).model;
}, 60_000);
afterAll(() => stack?.stop());

describe('a new party saved without a state (issue 32)', () => {
  it("GST mode: a customer and a distributor take the company's state", async () => {
    const c = await G.post('/clients/addClient', customerForm({ postal_code: '560001', mobile_no: '9200000001', state: '' }));
    expect(c.status).toBe(200);
    expect(c.body.customer).toEqual(expect.objectContaining({ state: 'Karnataka', state_code: '29' }));
    expect((await customers.findOne({ companyId: 3, client_id: c.body.id }).lean())!.state).toBe('29');
    const form = customerForm({ postal_code: '560001', mobile_no: '9200000002' }) as Record<string, unknown>;
    delete form.state;
    const c2 = await G.post('/clientList/add-client', form);
    expect(c2.status).toBe(200);
    expect(c2.body.customer).toEqual(expect.objectContaining({ state_code: '29' }));
    const d = await G.post('/addDistributor', distributorForm({ state: '  ' }));
    expect(d.status).toBe(200);
    expect(d.body.distributor).toEqual(expect.objectContaining({ state: 'Karnataka', state_code: '29' }));
    expect((await distributors.findOne({ companyId: 3, distributor_id: d.body.id }).lean())!.state).toBe('29');
  });

  it("a GSTIN typed without a state gives its own state (Gujarat), not the company's", async () => {
    const c = await G.post('/clients/addClient', customerForm({ postal_code: '560001', mobile_no: '9200000003', state: '', gstin: GJ_GSTIN }));
    expect(c.status).toBe(200);
    expect(c.body.customer).toEqual(expect.objectContaining({ state: 'Gujarat', state_code: '24', gstin: GJ_GSTIN, b2b: true }));
    const d = await S.post('/addDistributor', distributorForm({ name: 'Surat Mills', state: '', gstin: GJ_GSTIN }));
    expect(d.status).toBe(200);
    expect(d.body.distributor).toEqual(expect.objectContaining({ state_code: '24' }));
  });

  it('a state sent is kept; simple mode keeps the spec rule (state is required), nothing stored', async () => {
    const c = await G.post('/clients/addClient', customerForm({ postal_code: '560001', mobile_no: '9200000004', state: 'West Bengal' }));
    expect(c.body.customer).toEqual(expect.objectContaining({ state_code: '19' }));
    const before = await customers.countDocuments({ companyId: 1 });
    const s = await S.post('/clients/addClient', customerForm({ mobile_no: '9200000005', state: '' }));
    expect(s.status).toBe(400);
    expect(s.body).toEqual(expect.objectContaining({ done: false, err: 'state is required.' }));
    expect(await customers.countDocuments({ companyId: 1 })).toBe(before);
    const d = await S.post('/addDistributor', distributorForm({ name: 'No State', state: '' }));
    expect(d.status).toBe(400);
    // A bad GSTIN without a state is not a state: the GST company's own state is not silently taken for it.
    const bad = await G.post('/clients/addClient', customerForm({ postal_code: '560001', mobile_no: '9200000006', state: '', gstin: '24AAGCS5678K1ZX' }));
    expect(bad.status).toBe(400);
    expect(bad.body.err).toMatch(/GSTIN/);
  });
});
