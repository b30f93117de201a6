import request from 'supertest';
import type { NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { Subjects } from '@bahi/contracts';
import { auth, startTwoCompanies, type TwoCompanies } from './helpers';

describe('identity: aggregate turnover above Rs 5 crore (aato_above_5cr: 6-digit HSN codes)', () => {
  let two: TwoCompanies;
  let url: string;
  let nc: NatsConnection;
  const base = () => ({ id: two.companyId, name: 'Demo Traders', add1: '12 Market Road', add2: 'Mumbai', mob1: '9876543210', mob2: '', email: 'hello@demo.local' });
  const details = async (token = two.mgr) => (await request(url).get('/getCompanyDetails').set(auth(token)).expect(200)).body;

  beforeAll(async () => {
    two = await startTwoCompanies({ cName: 'Gupta Traders', cMob: '9812345678', mEmail: 'ravi@gupta.in' });
    url = two.s.url;
    nc = two.nc;
  });
  afterAll(() => two?.stop());

  it('is false until a manager sets it; a body without it keeps it; inventory reads it over NATS; the other company is untouched', async () => {
    expect(await details()).toMatchObject({ aato_above_5cr: false });
    await request(url).post('/setCompanyDetails').set(auth(two.mgr)).send({ ...base(), aato_above_5cr: true }).expect(200);
    expect(await details()).toMatchObject({ aato_above_5cr: true });
    await request(url).post('/setCompanyDetails').set(auth(two.mgr)).send({ ...base(), name: 'Demo Traders Pvt' }).expect(200);
    expect(await details()).toMatchObject({ name: 'Demo Traders Pvt', aato_above_5cr: true });
    expect(await details(two.otherMgr)).toMatchObject({ aato_above_5cr: false });
    const c = await nestRequest<any>(nc, Subjects.identity.companyDetails, { companyId: two.companyId });
    expect(c).toMatchObject({ aato_above_5cr: true });
  });

  it('refuses anything but true or false with a sentence, and staff with 403; nothing changes', async () => {
    for (const bad of ['yes', 1, 'true']) {
      const r = await request(url).post('/setCompanyDetails').set(auth(two.mgr)).send({ ...base(), aato_above_5cr: bad }).expect(400);
      expect(JSON.stringify(r.body.message)).toMatch(/aato_above_5cr must be true or false/);
    }
    await request(url).post('/setCompanyDetails').set(auth(two.staff)).send({ ...base(), aato_above_5cr: false }).expect(403);
    expect(await details()).toMatchObject({ aato_above_5cr: true });
    await request(url).post('/setCompanyDetails').set(auth(two.mgr)).send({ ...base(), aato_above_5cr: false }).expect(200);
    expect(await details()).toMatchObject({ aato_above_5cr: false });
  });
});
