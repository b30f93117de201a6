import request from 'supertest';
import type { NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { Subjects } from '@bahi/contracts';
import { auth, startTwoCompanies, type Stack, type TwoCompanies } from './helpers';

// The GST portal's own example GSTIN (Maharashtra, 27); its check character V is worked out in packages/gst/test/gstin.test.ts.
const GSTIN = '27AAPFU0939F1ZV';
// Gujarat (24), check character T (same test file).
const GSTIN_GJ = '24AAGCS5678K1ZT';

describe('identity: the company GST settings (tax_mode, gstin, invoice_prefix, state_code)', () => {
  let s: Stack;
  let nc: NatsConnection;
  let mgr: string;
  let staff: string;
  let companyId: number;
  let otherMgr: string;
  let otherId: number;
  const base = () => ({ id: companyId, name: 'Demo Traders', add1: '12 Market Road', add2: 'Mumbai', mob1: '9876543210', mob2: '', email: 'hello@demo.local' });
  const details = async (token = mgr) => (await request(s.url).get('/getCompanyDetails').set(auth(token)).expect(200)).body;

  let two: TwoCompanies;
  beforeAll(async () => {
    two = await startTwoCompanies({ cName: 'Gupta Traders', cMob: '9812345678', mEmail: 'ravi@gupta.in' });
    ({ s, nc, mgr, staff, companyId, otherMgr, otherId } = two);
  });
  afterAll(() => two?.stop());

  it('starts every company in simple mode, without GSTIN, with the default prefix (the initials)', async () => {
    expect(await details()).toMatchObject({ tax_mode: 'simple', gstin: null, state_code: null, invoice_prefix: 'DT' });
    expect(await details(otherMgr)).toMatchObject({ id: otherId, tax_mode: 'simple', gstin: null, state_code: null, invoice_prefix: 'GT' });
  });

  it('saves a valid GSTIN in capitals with tax_mode gst and returns its state code', async () => {
    await request(s.url).post('/setCompanyDetails').set(auth(mgr)).send({ ...base(), tax_mode: 'gst', gstin: ` ${GSTIN.toLowerCase()} `, invoice_prefix: 'dt1' }).expect(200);
    expect(await details()).toMatchObject({ tax_mode: 'gst', gstin: GSTIN, state_code: '27', invoice_prefix: 'DT1' });
    expect(await details(staff)).toMatchObject({ tax_mode: 'gst', gstin: GSTIN, state_code: '27' });
  });

  it('refuses each wrong part of a GSTIN with 400 naming it, and changes nothing', async () => {
    const cases: [string, RegExp][] = [
      ['27AAPFU0939F1Z', /15 characters/],
      ['00AAPFU0939F1ZV', /State code 00/],
      ['25AAPFU0939F1ZV', /State code 25/],
      ['27AAPF10939F1ZV', /PAN/],
      ['27AAPFU0939F0ZV', /entity number/],
      ['27AAPFU0939F1XV', /14th character must be Z/],
      ['27AAPFU0939F1ZA', /check character.*should be 'V'/],
    ];
    for (const [gstin, msg] of cases) {
      const r = await request(s.url).post('/setCompanyDetails').set(auth(mgr)).send({ ...base(), name: 'Changed Name', tax_mode: 'composition', gstin }).expect(400);
      expect(r.body.message).toMatch(/^GSTIN: /);
      expect(r.body.message).toMatch(msg);
    }
    expect(await details()).toMatchObject({ name: 'Demo Traders', tax_mode: 'gst', gstin: GSTIN, state_code: '27', invoice_prefix: 'DT1' });
  });

  it('refuses gst or composition without a GSTIN, an unknown tax_mode and a bad prefix, and changes nothing', async () => {
    const cases: [object, RegExp][] = [
      [{ tax_mode: 'gst', gstin: '' }, /tax_mode gst needs the company's GSTIN/],
      [{ tax_mode: 'composition', gstin: null }, /tax_mode composition needs the company's GSTIN/],
      [{ tax_mode: 'vat' }, /tax_mode must be one of simple, gst, composition/],
      [{ tax_mode: 7 }, /tax_mode/],
      [{ invoice_prefix: 'TOOLONG' }, /1 to 6 letters or digits/],
      [{ invoice_prefix: 'A/B' }, /1 to 6 letters or digits/],
      [{ gstin: { $ne: null } }, /gstin/],
    ];
    for (const [extra, msg] of cases) {
      const r = await request(s.url).post('/setCompanyDetails').set(auth(mgr)).send({ ...base(), name: 'Changed Name', ...extra }).expect(400);
      expect(r.body.message).toMatch(msg);
    }
    expect(await details()).toMatchObject({ name: 'Demo Traders', tax_mode: 'gst', gstin: GSTIN, invoice_prefix: 'DT1' });
  });

  it('keeps the mode, GSTIN and prefix when a client that predates GST posts the old fields', async () => {
    await request(s.url).post('/setCompanyDetails').set(auth(mgr)).send({ ...base(), name: 'Demo Traders Pvt', upiId: 'demo@okaxis' }).expect(200);
    expect(await details()).toMatchObject({ name: 'Demo Traders Pvt', upiId: 'demo@okaxis', tax_mode: 'gst', gstin: GSTIN, state_code: '27', invoice_prefix: 'DT1' });
  });

  it('lets only a manager change them, and only for their own company', async () => {
    const r = await request(s.url).post('/setCompanyDetails').set(auth(staff)).send({ ...base(), tax_mode: 'simple' }).expect(403);
    expect(r.body.message).toBe('Only a manager can do this.');
    await request(s.url).post('/setCompanyDetails').set(auth(otherMgr)).send({ ...base(), tax_mode: 'composition', gstin: GSTIN_GJ }).expect(403);
    expect(await details()).toMatchObject({ tax_mode: 'gst', gstin: GSTIN });
    expect(await details(otherMgr)).toMatchObject({ tax_mode: 'simple', gstin: null });
    // Company B sets its own: A's stay.
    await request(s.url)
      .post('/setCompanyDetails')
      .set(auth(otherMgr))
      .send({ id: otherId, name: 'Gupta Traders', add1: '1 Lane', mob1: '9812345678', tax_mode: 'composition', gstin: GSTIN_GJ })
      .expect(200);
    expect(await details(otherMgr)).toMatchObject({ tax_mode: 'composition', gstin: GSTIN_GJ, state_code: '24', invoice_prefix: 'GT' });
    expect(await details()).toMatchObject({ tax_mode: 'gst', gstin: GSTIN, state_code: '27', invoice_prefix: 'DT1' });
  });

  it('carries the GST fields on identity.company.details over NATS', async () => {
    expect(await nestRequest<any>(nc, Subjects.identity.companyDetails, { companyId })).toMatchObject({
      id: companyId,
      tax_mode: 'gst',
      gstin: GSTIN,
      state_code: '27',
      invoice_prefix: 'DT1',
    });
    expect(await nestRequest<any>(nc, Subjects.identity.companyDetails, { companyId: otherId })).toMatchObject({
      tax_mode: 'composition',
      gstin: GSTIN_GJ,
      state_code: '24',
      invoice_prefix: 'GT',
    });
  });

  it('goes back to simple mode, clears the GSTIN, and a cleared prefix is the default again', async () => {
    await request(s.url).post('/setCompanyDetails').set(auth(mgr)).send({ ...base(), tax_mode: 'simple' }).expect(200);
    expect(await details()).toMatchObject({ tax_mode: 'simple', gstin: GSTIN, state_code: '27', invoice_prefix: 'DT1' });
    await request(s.url).post('/setCompanyDetails').set(auth(mgr)).send({ ...base(), gstin: '', invoice_prefix: '' }).expect(200);
    expect(await details()).toMatchObject({ tax_mode: 'simple', gstin: null, state_code: null, invoice_prefix: 'DT' });
  });
});
