import request from 'supertest';
import type { NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { Subjects } from '@bahi/contracts';
import { auth, startTwoCompanies, type TwoCompanies } from './helpers';

describe('identity: the GSTR-1 filing frequency (gst_filing)', () => {
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

  it('is monthly until a manager chooses quarterly; a body without it keeps it; the other company is untouched', async () => {
    expect(await details()).toMatchObject({ gst_filing: 'monthly' });
    await request(url).post('/setCompanyDetails').set(auth(two.mgr)).send({ ...base(), gst_filing: 'quarterly' }).expect(200);
    expect(await details()).toMatchObject({ gst_filing: 'quarterly' });
    expect(await details(two.staff)).toMatchObject({ gst_filing: 'quarterly' });
    await request(url).post('/setCompanyDetails').set(auth(two.mgr)).send({ ...base(), name: 'Demo Traders Pvt' }).expect(200);
    expect(await details()).toMatchObject({ name: 'Demo Traders Pvt', gst_filing: 'quarterly' });
    expect(await details(two.otherMgr)).toMatchObject({ gst_filing: 'monthly' });
    // Sales reads it over NATS.
    const c = await nestRequest<any>(nc, Subjects.identity.companyDetails, { companyId: two.companyId });
    expect(c).toMatchObject({ gst_filing: 'quarterly' });
  });

  it('refuses anything but monthly or quarterly with a sentence, and staff with 403; nothing changes', async () => {
    for (const bad of ['yearly', 'QUARTERLY', 3, '']) {
      const r = await request(url).post('/setCompanyDetails').set(auth(two.mgr)).send({ ...base(), gst_filing: bad }).expect(400);
      expect(JSON.stringify(r.body.message)).toMatch(/gst_filing must be monthly or quarterly \(QRMP\)/);
    }
    await request(url).post('/setCompanyDetails').set(auth(two.staff)).send({ ...base(), gst_filing: 'monthly' }).expect(403);
    expect(await details()).toMatchObject({ gst_filing: 'quarterly' });
    await request(url).post('/setCompanyDetails').set(auth(two.mgr)).send({ ...base(), gst_filing: 'monthly' }).expect(200);
    expect(await details()).toMatchObject({ gst_filing: 'monthly' });
  });
});
