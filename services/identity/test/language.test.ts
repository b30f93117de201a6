import request from 'supertest';
import { nestRequest } from '@bahi/auth';
import { Subjects } from '@bahi/contracts';
import { ADMIN, auth, login, MANAGER, STAFF, startTwoCompanies, type TwoCompanies } from './helpers';

describe('identity: the user\'s screen language and the company\'s documents language', () => {
  let two: TwoCompanies;
  const url = () => two.s.url;
  const me = async (token: string) => (await request(url()).get('/getUserData').set(auth(token)).expect(200)).body.user;
  const details = async (token: string) => (await request(url()).get('/getCompanyDetails').set(auth(token)).expect(200)).body;
  const base = () => ({ id: two.companyId, name: 'Demo Traders', add1: '12 Market Road', add2: 'Mumbai', mob1: '9876543210', mob2: '', email: 'hello@demo.local' });

  beforeAll(async () => {
    two = await startTwoCompanies({ cName: 'Sharma Stores', cMob: '9812345670', mEmail: 'anil@sharma.in' });
  });
  afterAll(async () => {
    await two?.stop();
  });

  it('starts in English, saves Hindi for that user only, and returns it with the user at the next login', async () => {
    expect(await me(two.staff)).toMatchObject({ language: 'en' });
    const put = await request(url()).put('/profile/language').set(auth(two.staff)).send({ language: 'hi' }).expect(200);
    expect(put.body).toEqual({ success: true, language: 'hi' });
    expect(await me(two.staff)).toMatchObject({ language: 'hi' });
    // The manager of the same company keeps English.
    expect(await me(two.mgr)).toMatchObject({ language: 'en' });
    const again = await login(url(), STAFF);
    expect(again.body.user).toMatchObject({ language: 'hi' });
    await request(url()).put('/profile/language').set(auth(two.staff)).send({ language: 'en' }).expect(200);
    expect(await me(two.staff)).toMatchObject({ language: 'en' });
    expect((await login(url(), MANAGER)).body.user.language).toBe('en');
  });

  it.each([[{ language: 'fr' }], [{ language: 'HI' }], [{ language: '' }], [{ language: null }], [{ language: ['hi'] }], [{}]])(
    'refuses %j with 400 and changes nothing',
    async (body) => {
      await request(url()).put('/profile/language').set(auth(two.mgr)).send({ language: 'hi' }).expect(200);
      const res = await request(url()).put('/profile/language').set(auth(two.mgr)).send(body).expect(400);
      expect(JSON.stringify(res.body)).toContain('language must be one of en, hi.');
      expect(await me(two.mgr)).toMatchObject({ language: 'hi' });
      await request(url()).put('/profile/language').set(auth(two.mgr)).send({ language: 'en' }).expect(200);
    },
  );

  it('the platform admin (no company) has a language too', async () => {
    const admin = (await login(url(), ADMIN)).token;
    await request(url()).put('/profile/language').set(auth(admin)).send({ language: 'hi' }).expect(200);
    expect(await me(admin)).toMatchObject({ language: 'hi', companyId: null });
  });

  it('needs a token', async () => {
    await request(url()).put('/profile/language').send({ language: 'hi' }).expect(401);
  });

  it('doc_language: English by default, Hindi saved by a manager (also over NATS), another company untouched', async () => {
    expect(await details(two.mgr)).toMatchObject({ doc_language: 'en' });
    await request(url()).post('/setCompanyDetails').set(auth(two.mgr)).send({ ...base(), doc_language: 'hi' }).expect(200);
    expect(await details(two.staff)).toMatchObject({ doc_language: 'hi' });
    expect(await nestRequest(two.nc, Subjects.identity.companyDetails, { companyId: two.companyId })).toMatchObject({ doc_language: 'hi' });
    expect(await details(two.otherMgr)).toMatchObject({ id: two.otherId, doc_language: 'en' });
    // Left out: kept.
    await request(url()).post('/setCompanyDetails').set(auth(two.mgr)).send(base()).expect(200);
    expect(await details(two.mgr)).toMatchObject({ doc_language: 'hi' });
  });

  it('doc_language: a bad value is refused with a sentence and nothing changes; staff may not set it', async () => {
    const before = await details(two.mgr);
    const res = await request(url()).post('/setCompanyDetails').set(auth(two.mgr)).send({ ...base(), name: 'Renamed', doc_language: 'ta' }).expect(400);
    expect(JSON.stringify(res.body)).toContain('doc_language must be one of en, hi.');
    expect(await details(two.mgr)).toEqual(before);
    await request(url()).post('/setCompanyDetails').set(auth(two.staff)).send({ ...base(), doc_language: 'en' }).expect(403);
    expect(await details(two.mgr)).toMatchObject({ doc_language: 'hi' });
  });
});
