import request from 'supertest';
import type { NatsConnection, Subscription } from 'nats';
import { decodeEvent } from '@bahi/auth';
import { Subjects } from '@bahi/contracts';
import { auth, startTwoCompanies, type Stack, type TwoCompanies } from './helpers';

// Smallest valid PNG (1x1).
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a8b3e40000000049454e44ae426082', 'hex');

// Sales and inventory cache each company's details and GST settings and drop them on this event.
describe('identity: identity.company.changed after every change of a company', () => {
  let s: Stack;
  let nc: NatsConnection;
  let mgr: string;
  let companyId: number;
  let two: TwoCompanies;
  let sub: Subscription;
  const seen: unknown[] = [];

  beforeAll(async () => {
    two = await startTwoCompanies({ cName: 'Gupta Traders', cMob: '9812345678', mEmail: 'ravi@gupta.in' });
    ({ s, nc, mgr, companyId } = two);
    // A plain subscription, as every sales replica has one.
    sub = nc.subscribe(Subjects.identity.companyChanged, { callback: (_e, m) => seen.push(decodeEvent(m.data)) });
    await nc.flush();
  });
  afterAll(async () => {
    sub?.unsubscribe();
    await two?.stop();
  });

  const base = () => ({ id: companyId, name: 'Demo Traders', add1: '12 Market Road', add2: 'Mumbai', mob1: '9876543210', mob2: '', email: 'hello@demo.local' });

  it('is emitted with the companyId by the time setCompanyDetails answers', async () => {
    seen.length = 0;
    await request(s.url).post('/setCompanyDetails').set(auth(mgr)).send({ ...base(), tax_mode: 'gst', gstin: '27AAPFU0939F1ZV' }).expect(200);
    // The event was flushed before the reply; one round trip of our own connection delivers it.
    await nc.flush();
    expect(seen).toEqual([{ companyId }]);
  });

  it('is emitted after a logo upload, and not for a refused change', async () => {
    seen.length = 0;
    await request(s.url).post(`/manage/profile/edit/${companyId}/uploadProfileImage`).set(auth(mgr)).attach('image', PNG, 'logo.png').expect(201);
    await request(s.url).post('/setCompanyDetails').set(auth(mgr)).send({ ...base(), tax_mode: 'gst', gstin: '27AAPFU0939F1ZA' }).expect(400);
    await nc.flush();
    expect(seen).toEqual([{ companyId }]);
  });
});
