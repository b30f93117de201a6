import request from 'supertest';
import { ADMIN, auth, login, MANAGER, STAFF, startIdentity, type Stack } from './helpers';

describe('identity: login, session, password', () => {
  let s: Stack;
  beforeAll(async () => {
    s = await startIdentity();
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('logs in the seeded manager, staff and admin with the spec reply', async () => {
    const m = await login(s.url, MANAGER);
    expect(m.body).toMatchObject({
      success: true,
      forceChange: false,
      user: { name: 'Demo Manager', position: 'manager', companyName: 'Demo Traders', companyId: expect.any(Number), id: expect.any(Number) },
      msg: expect.any(String),
    });
    expect(m.token.split('.')).toHaveLength(3);
    expect((await login(s.url, STAFF)).body.user.position).toBe('staff');
    const a = await login(s.url, { email: ' ADMIN@bahi.local ', password: ADMIN.password });
    expect(a.body.user).toMatchObject({ position: 'admin', companyId: null, companyName: null });
  });

  it('refuses a wrong password with 401 {success:false, msg} and bad input with 400', async () => {
    const wrong = await request(s.url).post('/loginReact').send({ email: STAFF.email, password: 'nope-nope' }).expect(401);
    expect(wrong.body).toMatchObject({ success: false, msg: 'Invalid email or password.' });
    const unknown = await request(s.url).post('/loginReact').send({ email: 'ghost@x.in', password: 'whatever1' }).expect(401);
    expect(unknown.body.msg).toBe('Invalid email or password.');
    const bad = await request(s.url).post('/loginReact').send({ email: 'not-mail' }).expect(400);
    expect(bad.body).toMatchObject({ success: false, msg: expect.stringMatching(/email.*password|password/) });
    // A success resets the failure counter.
    await login(s.url, STAFF);
  });

  it('answers GET /loginReact and /getUserData from the token', async () => {
    const { token } = await login(s.url, STAFF);
    expect((await request(s.url).get('/loginReact').set(auth(token)).expect(200)).body).toEqual({ authenticated: true });
    expect((await request(s.url).get('/loginReact').expect(200)).body).toEqual({ authenticated: false });
    expect((await request(s.url).get('/loginReact').set(auth('junk')).expect(200)).body).toEqual({ authenticated: false });
    const me = await request(s.url).get('/getUserData').set(auth(token)).expect(200);
    expect(me.body.user).toMatchObject({ name: 'Demo Staff', position: 'staff', companyName: 'Demo Traders' });
    await request(s.url).get('/getUserData').expect(401);
  });

  it('logout revokes exactly that token', async () => {
    const one = await login(s.url, MANAGER);
    const two = await login(s.url, MANAGER);
    await request(s.url).post('/logout').set(auth(one.token)).expect(200);
    await request(s.url).get('/getUserData').set(auth(one.token)).expect(401);
    expect((await request(s.url).get('/loginReact').set(auth(one.token))).body.authenticated).toBe(false);
    await request(s.url).get('/getUserData').set(auth(two.token)).expect(200);
  });

  it('locks a user after 5 wrong passwords (429 with Retry-After) until an admin unlocks', async () => {
    const victim = { email: 'lock.me@demo.local', password: 'lockme-123' };
    const mgr = await login(s.url, MANAGER);
    await request(s.url).post('/users').set(auth(mgr.token)).send({ name: 'Lock Me', ...victim, position: 'staff' }).expect(201);
    const before = await login(s.url, victim);
    for (let i = 1; i <= 4; i++) {
      const r = await request(s.url).post('/loginReact').send({ email: victim.email, password: 'bad-pass' }).expect(401);
      expect(r.body.msg).toBe('Invalid email or password.');
    }
    const fifth = await request(s.url).post('/loginReact').send({ email: victim.email, password: 'bad-pass' }).expect(429);
    expect(fifth.body).toMatchObject({ success: false, msg: expect.stringMatching(/locked.*try again in 15 minutes.*administrator to unlock/i) });
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(890);
    // Right password no longer works; the sessions the user already had stay (the lock stops guessing).
    const locked = await request(s.url).post('/loginReact').send(victim).expect(429);
    expect(locked.body.msg).toMatch(/locked/);
    await request(s.url).get('/loginReact').set(auth(before.token)).expect(200, { authenticated: true });
    const admin = await login(s.url, ADMIN);
    const details = await request(s.url).get(`/admin/company/details/${mgr.body.user.companyId}`).set(auth(admin.token)).expect(200);
    expect(details.body.users.find((u: any) => u.email === victim.email).is_locked).toBe(true);
    const unlocked = await request(s.url).post('/admin/user/unlock').query({ email: victim.email }).set(auth(admin.token)).expect(200);
    expect(unlocked.body).toEqual({ success: true, message: 'User unlocked successfully!' });
    await login(s.url, victim);
    // Counter was reset: one more failure does not lock again.
    await request(s.url).post('/loginReact').send({ email: victim.email, password: 'bad-pass' }).expect(401);
    await login(s.url, victim);
  });

  it('password update: matching, length, current password; other sessions end', async () => {
    const who = { email: 'pw.user@demo.local', password: 'first-pass1' };
    const mgr = await login(s.url, MANAGER);
    await request(s.url).post('/users').set(auth(mgr.token)).send({ name: 'Pw User', ...who, position: 'staff' }).expect(201);
    const first = await login(s.url, who);
    expect(first.body.forceChange).toBe(true);
    const other = await login(s.url, who);
    const url = '/manage/profile/edit/updatePassword';
    const mismatch = await request(s.url).post(url).set(auth(first.token)).send({ current_password: who.password, new_password: 'second-pass2', re_type_new_password: 'second-pass3' }).expect(400);
    expect(mismatch.body).toMatchObject({ success: false, message: 'Password Do Not Match' });
    const short = await request(s.url).post(url).set(auth(first.token)).send({ current_password: who.password, new_password: 'short', re_type_new_password: 'short' }).expect(400);
    expect(short.body.message).toMatch(/at least 8/);
    const wrong = await request(s.url).post(url).set(auth(first.token)).send({ current_password: 'not-it-at-all', new_password: 'second-pass2', re_type_new_password: 'second-pass2' }).expect(400);
    expect(wrong.body.message).toBe('Current password is incorrect.');
    await request(s.url).post(url).set(auth(first.token)).send({ new_password: 'x' }).expect(400);
    // Nothing changed so far.
    await login(s.url, who);
    const ok = await request(s.url).post(url).set(auth(first.token)).send({ current_password: who.password, new_password: 'second-pass2', re_type_new_password: 'second-pass2' }).expect(200);
    expect(ok.body).toEqual({ success: true, message: 'Password Updated Successfully' });
    await request(s.url).get('/getUserData').set(auth(other.token)).expect(401);
    await request(s.url).post('/logout').set(auth(first.token)).expect(200);
    await request(s.url).post('/loginReact').send(who).expect(401);
    const again = await login(s.url, { email: who.email, password: 'second-pass2' });
    expect(again.body.forceChange).toBe(false);
  });

  it('an admin-set password forces a change at next login and ends old sessions', async () => {
    const old = await login(s.url, STAFF);
    const admin = await login(s.url, ADMIN);
    const res = await request(s.url).post('/admin/user/update-password').set(auth(admin.token)).send({ email: STAFF.email, newPassword: 'reset-by-admin' }).expect(200);
    expect(res.body).toEqual({ success: true, message: 'Password updated successfully!' });
    await request(s.url).get('/getUserData').set(auth(old.token)).expect(401);
    await request(s.url).post('/loginReact').send(STAFF).expect(401);
    const next = await login(s.url, { email: STAFF.email, password: 'reset-by-admin' });
    expect(next.body.forceChange).toBe(true);
    await request(s.url)
      .post('/manage/profile/edit/updatePassword')
      .set(auth(next.token))
      .send({ current_password: 'reset-by-admin', new_password: STAFF.password, re_type_new_password: STAFF.password })
      .expect(200);
    expect((await login(s.url, STAFF)).body.forceChange).toBe(false);
  });
});
