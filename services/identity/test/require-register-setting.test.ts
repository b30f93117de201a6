import request from 'supertest';
import { nestRequest } from '@bahi/auth';
import { Subjects, type CompanyDetails } from '@bahi/contracts';
import { auth, startTwoCompanies, type TwoCompanies } from './helpers';

/** Issue 29: require_register (a cash sale needs the cashier's open register session), a company setting sales reads over NATS. */
describe('identity: require_register setting', () => {
  let t: TwoCompanies;
  beforeAll(async () => {
    t = await startTwoCompanies({ cName: 'Reg Other', cMob: '9811100024', mEmail: 'reg-other@x.local' });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('defaults to off, refuses a non-boolean with a sentence, staff cannot set it, kept when left out, reaches identity.company.details', async () => {
    const get = async () => (await request(t.s.url).get('/getCompanyDetails').set(auth(t.mgr)).expect(200)).body;
    const before = await get();
    expect(before.require_register).toBe(false);
    const base = { id: t.companyId, name: before.name, add1: before.add1 || 'Shop 1', mob1: before.mob1 || '9876543210', email: before.email };
    for (const v of ['yes', 1, 'true']) {
      const r = await request(t.s.url).post('/setCompanyDetails').set(auth(t.mgr)).send({ ...base, require_register: v });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain("require_register must be true or false: whether a cash sale needs the cashier's open register.");
    }
    await request(t.s.url).post('/setCompanyDetails').set(auth(t.staff)).send({ ...base, require_register: true }).expect(403);
    expect((await get()).require_register).toBe(false);
    await request(t.s.url).post('/setCompanyDetails').set(auth(t.mgr)).send({ ...base, require_register: true }).expect(200);
    expect((await get()).require_register).toBe(true);
    await request(t.s.url).post('/setCompanyDetails').set(auth(t.mgr)).send(base).expect(200);
    expect((await get()).require_register).toBe(true);
    const details = await nestRequest<CompanyDetails>(t.nc, Subjects.identity.companyDetails, { companyId: t.companyId }, 60_000);
    expect(details.require_register).toBe(true);
  }, 120_000);
});
