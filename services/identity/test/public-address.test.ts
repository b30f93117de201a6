import request from 'supertest';
import { nestRequest } from '@bahi/auth';
import { Subjects, type CompanyDetails } from '@bahi/contracts';
import { ADMIN, auth, login, startTwoCompanies, type TwoCompanies } from './helpers';

describe("identity: the shop's public address (GET/PUT /settings/public-address)", () => {
  let two: TwoCompanies;
  let url: string;
  let admin: string;
  const get = async (token: string) => (await request(url).get('/settings/public-address').set(auth(token)).expect(200)).body;
  const details = (companyId: number) => nestRequest<CompanyDetails>(two.nc, Subjects.identity.companyDetails, { companyId });

  beforeAll(async () => {
    process.env.BAHI_PUBLIC_URL = 'http://localhost:8080/';
    two = await startTwoCompanies({ cName: 'Gupta Traders', cMob: '9812345678', mEmail: 'ravi@gupta.in' });
    url = two.s.url;
    admin = (await login(url, ADMIN)).token;
  });
  afterAll(async () => {
    delete process.env.BAHI_PUBLIC_URL;
    await two?.stop();
  });

  it('shows BAHI_PUBLIC_URL until the admin sets one (flagged as this PC only); the admin sets it, every company reads it and documents gets it with the company', async () => {
    expect(await get(two.staff)).toEqual({ public_url: null, env_url: 'http://localhost:8080', effective: 'http://localhost:8080', local_only: true });
    expect((await details(two.companyId)).public_url).toBeNull();
    const r = await request(url).put('/settings/public-address').set(auth(admin)).send({ public_url: ' https://Bahi.Sharma-Kirana.in/ ' }).expect(200);
    const set = { public_url: 'https://bahi.sharma-kirana.in', env_url: 'http://localhost:8080', effective: 'https://bahi.sharma-kirana.in', local_only: false };
    expect(r.body).toEqual(set);
    expect(await get(two.mgr)).toEqual(set);
    expect(await get(two.otherMgr)).toEqual(set);
    expect((await details(two.companyId)).public_url).toBe('https://bahi.sharma-kirana.in');
    expect((await details(two.otherId)).public_url).toBe('https://bahi.sharma-kirana.in');
    // Cleared: back to BAHI_PUBLIC_URL.
    await request(url).put('/settings/public-address').set(auth(admin)).send({ public_url: '' }).expect(200);
    expect((await get(two.mgr)).effective).toBe('http://localhost:8080');
    expect((await details(two.companyId)).public_url).toBeNull();
  });

  it('refuses a path, a user, another scheme or a bad body with a sentence, managers and staff with 403; nothing changes', async () => {
    await request(url).put('/settings/public-address').set(auth(admin)).send({ public_url: 'http://192.168.1.5:8080' }).expect(200);
    const before = await get(two.mgr);
    const cases: [unknown, string][] = [
      [{ public_url: 'https://shop.example.in/../admin' }, 'The public address is the site only, like https://shop.example.in, without a path, ? or #.'],
      [{ public_url: 'https://shop.example.in?x=1' }, 'The public address is the site only, like https://shop.example.in, without a path, ? or #.'],
      [{ public_url: 'https://me:pw@shop.example.in' }, 'The public address cannot hold a user name or password.'],
      [{ public_url: 'file:///etc/passwd' }, 'The public address must start with https:// (or http://).'],
      [{ public_url: 'shop' }, 'The public address must be a full web address, like https://shop.example.in.'],
      [{}, 'Send the public address as public_url, like https://shop.example.in, or an empty one to clear it.'],
      [{ public_url: 'https://a.in', extra: 1 }, '"extra" is not part of the public address.'],
    ];
    for (const [body, sentence] of cases) {
      const r = await request(url).put('/settings/public-address').set(auth(admin)).send(body as object);
      expect([r.status, r.body.message]).toEqual([400, sentence]);
    }
    for (const token of [two.mgr, two.staff]) {
      expect((await request(url).put('/settings/public-address').set(auth(token)).send({ public_url: 'https://evil.example' })).status).toBe(403);
    }
    expect((await request(url).get('/settings/public-address')).status).toBe(401);
    expect(await get(two.mgr)).toEqual(before);
    expect(before.effective).toBe('http://192.168.1.5:8080');
  });
});
