import request from 'supertest';
import type { NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { DEFAULT_SHARE_TEMPLATES, Subjects } from '@bahi/contracts';
import { ADMIN, auth, login, STAFF, startTwoCompanies, type Stack, type TwoCompanies } from './helpers';

// Smallest valid PNG (1x1).
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a8b3e40000000049454e44ae426082', 'hex');

describe('identity: company profile, logo, isolation, NATS', () => {
  let s: Stack;
  let nc: NatsConnection;
  let mgr: string;
  let staff: string;
  let companyId: number;
  let otherMgr: string;
  let otherId: number;

  let two: TwoCompanies;
  beforeAll(async () => {
    two = await startTwoCompanies({ cName: 'Other Stores', cMob: '+919812345678', mEmail: 'ravi@other.in' });
    ({ s, nc, mgr, staff, companyId, otherMgr, otherId } = two);
  });
  afterAll(() => two?.stop());

  it('gives every user of the company its details', async () => {
    const res = await request(s.url).get('/getCompanyDetails').set(auth(staff)).expect(200);
    expect(res.body).toEqual({ id: companyId, name: 'Demo Traders', add1: expect.any(String), add2: expect.any(String), mob1: '9876543210', mob2: '', email: 'hello@demo.local', logo: null, upiId: null, tax_mode: 'simple', gstin: null, state_code: null, invoice_prefix: 'DT', gst_filing: 'monthly', aato_above_5cr: false, pincode: '', place: '', ewaybill_threshold: 50000, itc_from_matched_only: false, bill_format: 'a5', doc_language: 'en', share_expiry_days: 30, share_templates: DEFAULT_SHARE_TEMPLATES, staff_max_discount_percent: 100, walkin_credit: 'confirm', staff_expenses: false, require_register: false });
    const admin = (await login(s.url, ADMIN)).token;
    expect((await request(s.url).get('/getCompanyDetails').set(auth(admin)).expect(403)).body.message).toMatch(/company/);
  });

  it('lets only the manager set details of their own company', async () => {
    const body = { id: companyId, name: 'Demo Traders Pvt', add1: '14 Market Road', add2: '', mob1: '+91 98765 43211', mob2: '9000000001', email: 'Shop@Demo.local', upiId: 'demo@okaxis' };
    expect((await request(s.url).post('/setCompanyDetails').set(auth(staff)).send(body).expect(403)).body.message).toBe('Only a manager can do this.');
    expect((await request(s.url).post('/setCompanyDetails').set(auth(mgr)).send(body).expect(200)).body).toEqual({ done: true });
    const res = await request(s.url).get('/getCompanyDetails').set(auth(mgr)).expect(200);
    expect(res.body).toMatchObject({ name: 'Demo Traders Pvt', mob1: '9876543211', mob2: '9000000001', email: 'shop@demo.local', upiId: 'demo@okaxis' });
  });

  it('refuses bad details with 400 naming the field and changes nothing', async () => {
    const base = { id: companyId, name: 'X', add1: 'Y', mob1: '9876543211', email: 'a@b.in' };
    const cases: [object, RegExp][] = [
      [{ ...base, mob1: '12345' }, /mob1/],
      [{ ...base, email: 'nope' }, /email/],
      [{ ...base, name: '' }, /name/],
      [{ ...base, upiId: 'no at sign' }, /upiId/],
      [{ ...base, id: 'abc' }, /id/],
      [{ ...base, logo: 'x' }, /Unknown field 'logo'/],
    ];
    for (const [body, msg] of cases) {
      const r = await request(s.url).post('/setCompanyDetails').set(auth(mgr)).send(body).expect(400);
      expect(r.body.message).toMatch(msg);
    }
    expect((await request(s.url).get('/getCompanyDetails').set(auth(mgr))).body.name).toBe('Demo Traders Pvt');
  });

  it('keeps companies apart', async () => {
    const theirs = await request(s.url).get('/getCompanyDetails').set(auth(otherMgr)).expect(200);
    expect(theirs.body).toMatchObject({ id: otherId, name: 'Other Stores', mob1: '9812345678' });
    await request(s.url).post('/setCompanyDetails').set(auth(otherMgr)).send({ id: companyId, name: 'Hijack', add1: 'x', mob1: '9999999999' }).expect(403);
    await request(s.url).post(`/manage/profile/edit/${companyId}/uploadProfileImage`).set(auth(otherMgr)).attach('image', PNG, 'a.png').expect(403);
    const users = await request(s.url).get('/users').set(auth(otherMgr)).expect(200);
    expect(users.body.users.map((u: any) => u.email)).toEqual(['ravi@other.in']);
    expect((await request(s.url).get('/getCompanyDetails').set(auth(mgr))).body.name).toBe('Demo Traders Pvt');
  });

  it('stores the logo in GridFS and serves it publicly', async () => {
    await request(s.url).get(`/companyLogo/${companyId}`).expect(404);
    await request(s.url).post(`/manage/profile/edit/${companyId}/uploadProfileImage`).set(auth(staff)).attach('image', PNG, 'a.png').expect(403);
    const bad = await request(s.url).post(`/manage/profile/edit/${companyId}/uploadProfileImage`).set(auth(mgr)).attach('image', Buffer.from('not an image'), 'a.png').expect(400);
    expect(bad.body.message).toMatch(/PNG, JPEG or WebP/);
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    expect((await request(s.url).post(`/manage/profile/edit/${companyId}/uploadProfileImage`).set(auth(mgr)).attach('image', big, 'big.png')).status).toBe(413);
    await request(s.url).post(`/manage/profile/edit/${companyId}/uploadProfileImage`).set(auth(mgr)).expect(400);
    const up = await request(s.url).post(`/manage/profile/edit/${companyId}/uploadProfileImage`).set(auth(mgr)).attach('image', PNG, 'logo.png').expect(201);
    expect(up.body.fileName).toMatch(/\.png$/);
    const got = await request(s.url).get(`/companyLogo/${companyId}`).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    }).expect(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['cache-control']).toMatch(/public/);
    expect(Buffer.compare(got.body, PNG)).toBe(0);
    // The field may also be called 'file'; the new logo replaces the old one.
    await request(s.url).post(`/manage/profile/edit/${companyId}/uploadProfileImage`).set(auth(mgr)).attach('file', PNG, 'logo2.png').expect(201);
    expect((await request(s.url).get('/getCompanyDetails').set(auth(staff))).body.logo).toBe(`/companyLogo/${companyId}`);
    await request(s.url).get(`/companyLogo/${otherId}`).expect(404);
  });

  it('answers identity.company.details and identity.user.lookup over NATS', async () => {
    const details = await nestRequest<any>(nc, Subjects.identity.companyDetails, { companyId });
    expect(details).toMatchObject({ id: companyId, name: 'Demo Traders Pvt', upiId: 'demo@okaxis' });
    await expect(nestRequest(nc, Subjects.identity.companyDetails, { companyId: 999 })).rejects.toMatchObject({ status: 404, message: 'Company 999 not found.' });
    await expect(nestRequest(nc, Subjects.identity.companyDetails, { companyId: 'x' })).rejects.toMatchObject({ status: 400 });
    const found = await nestRequest<any>(nc, Subjects.identity.userLookup, { companyId, email: STAFF.email });
    expect(found.user).toMatchObject({ email: STAFF.email, position: 'staff', companyId });
    // Another company's user is not found from this company.
    expect((await nestRequest<any>(nc, Subjects.identity.userLookup, { companyId: otherId, email: STAFF.email })).user).toBeNull();
  });

  it('serves the live revocation list', async () => {
    const t = await login(s.url, STAFF);
    await request(s.url).post('/logout').set(auth(t.token)).expect(200);
    const sid = JSON.parse(Buffer.from(t.token.split('.')[1]!, 'base64url').toString()).sid;
    const list = await nestRequest<any>(nc, Subjects.identity.sessionRevocations, {});
    expect(list.revocations).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'session', sid })]));
  });
});
