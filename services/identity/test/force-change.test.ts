import request from 'supertest';
import { FORCE_CHANGE_MESSAGE } from '@bahi/contracts';
import { ADMIN, auth, login, MANAGER, startIdentity, type Stack } from './helpers';

const UPDATE = '/manage/profile/edit/updatePassword';

describe('identity: a temporary password opens only the password change', () => {
  let s: Stack;
  beforeAll(async () => {
    // No BAHI_ADMIN_PASSWORD: the platform admin starts with the default, known to everyone.
    s = await startIdentity({ BAHI_ADMIN_PASSWORD: undefined });
  });
  afterAll(async () => {
    await s?.stop();
  });

  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

  it('forces the default admin password to be changed at first login; nothing else works until then', async () => {
    const first = await login(s.url, ADMIN);
    expect(first.body.forceChange).toBe(true);
    expect(claimsOf(first.token).fc).toBe(true);
    const refused = await request(s.url).get('/admin/companyList').set(auth(first.token)).expect(403);
    expect(refused.body.message).toBe(FORCE_CHANGE_MESSAGE);
    await request(s.url).get('/getUserData').set(auth(first.token)).expect(403);
    await request(s.url).post('/admin/createCompany').set(auth(first.token)).send({ cName: 'X', cAdd: 'Y', cMob: '9876543210', mName: 'Z', mEmail: 'z@x.in' }).expect(403);
    // Logout is allowed.
    const other = await login(s.url, ADMIN);
    await request(s.url).post('/logout').set(auth(other.token)).expect(200);

    const newPassword = 'admin-own-pass-1';
    const ok = await request(s.url)
      .post(UPDATE)
      .set(auth(first.token))
      .send({ current_password: ADMIN.password, new_password: newPassword, re_type_new_password: newPassword })
      .expect(200);
    expect(ok.body).toEqual({ success: true, message: 'Password Updated Successfully' });

    await request(s.url).post('/loginReact').send(ADMIN).expect(401);
    const next = await login(s.url, { email: ADMIN.email, password: newPassword });
    expect(next.body.forceChange).toBe(false);
    expect(claimsOf(next.token).fc).toBeUndefined();
    await request(s.url).get('/admin/companyList').set(auth(next.token)).expect(200);
  });

  it('a manager created with a temporary password gets a token that opens nothing else', async () => {
    const admin = await login(s.url, { email: ADMIN.email, password: 'admin-own-pass-1' });
    const created = await request(s.url)
      .post('/admin/createCompany')
      .set(auth(admin.token))
      .send({ cName: 'Temp Traders', cAdd: '1 Road', cMob: '9876500000', mName: 'Tara', mEmail: 'tara@temp.in' })
      .expect(201);
    const temp = await login(s.url, { email: 'tara@temp.in', password: created.body.managerPassword });
    expect(temp.body.forceChange).toBe(true);
    expect((await request(s.url).get('/getCompanyDetails').set(auth(temp.token)).expect(403)).body.message).toBe(FORCE_CHANGE_MESSAGE);
    await request(s.url).get('/users').set(auth(temp.token)).expect(403);
    await request(s.url)
      .post(UPDATE)
      .set(auth(temp.token))
      .send({ current_password: created.body.managerPassword, new_password: 'tara-own-pass', re_type_new_password: 'tara-own-pass' })
      .expect(200);
    const full = await login(s.url, { email: 'tara@temp.in', password: 'tara-own-pass' });
    await request(s.url).get('/getCompanyDetails').set(auth(full.token)).expect(200);
    // A manager who already chose a password is unaffected.
    await request(s.url).get('/getUserData').set(auth((await login(s.url, MANAGER)).token)).expect(200);
  });
});

describe('identity: an admin password given by BAHI_ADMIN_PASSWORD', () => {
  let s: Stack;
  beforeAll(async () => {
    s = await startIdentity({ BAHI_ADMIN_PASSWORD: 'chosen-by-operator-1' });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('is not force-changed', async () => {
    const a = await login(s.url, { email: ADMIN.email, password: 'chosen-by-operator-1' });
    expect(a.body.forceChange).toBe(false);
    await request(s.url).get('/admin/companyList').set(auth(a.token)).expect(200);
  });
});
