import request from 'supertest';
import { nestRequest } from '@bahi/auth';
import { Subjects, type CompanyDetails } from '@bahi/contracts';
import { auth, startTwoCompanies, type TwoCompanies } from './helpers';

/**
 * Issue 29's on/off company settings, each read by another service over NATS: require_register
 * (sales: a cash sale needs the cashier's open register) and staff_expenses (ledger: staff may
 * record expenses).
 */
const SETTINGS = [
  { key: 'require_register', refusal: "require_register must be true or false: whether a cash sale needs the cashier's open register." },
  { key: 'staff_expenses', refusal: 'staff_expenses must be true or false.' },
] as const;

describe('identity: on/off company settings', () => {
  let t: TwoCompanies;
  beforeAll(async () => {
    t = await startTwoCompanies({ cName: 'Flag Other', cMob: '9811100024', mEmail: 'flag-other@x.local' });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it.each(SETTINGS)('$key: defaults to off, refuses a non-boolean with a sentence, staff cannot set it, kept when left out, reaches identity.company.details', async ({ key, refusal }) => {
    const get = async () => (await request(t.s.url).get('/getCompanyDetails').set(auth(t.mgr)).expect(200)).body;
    const before = await get();
    expect(before[key]).toBe(false);
    const base = { id: t.companyId, name: before.name, add1: before.add1 || 'Shop 1', mob1: before.mob1 || '9876543210', email: before.email };
    for (const v of ['yes', 1, 'true']) {
      const r = await request(t.s.url).post('/setCompanyDetails').set(auth(t.mgr)).send({ ...base, [key]: v });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain(refusal);
    }
    await request(t.s.url).post('/setCompanyDetails').set(auth(t.staff)).send({ ...base, [key]: true }).expect(403);
    expect((await get())[key]).toBe(false);
    await request(t.s.url).post('/setCompanyDetails').set(auth(t.mgr)).send({ ...base, [key]: true }).expect(200);
    expect((await get())[key]).toBe(true);
    await request(t.s.url).post('/setCompanyDetails').set(auth(t.mgr)).send(base).expect(200);
    expect((await get())[key]).toBe(true);
    const details = await nestRequest<CompanyDetails>(t.nc, Subjects.identity.companyDetails, { companyId: t.companyId }, 60_000);
    expect(details[key]).toBe(true);
  }, 120_000);
});
