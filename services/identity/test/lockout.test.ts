import request from 'supertest';
import { PasswordsService } from '../src/auth/passwords.service';
import { ADMIN, auth, login, MANAGER, startIdentity, type Stack } from './helpers';

/** Counts the password verifications identity really runs (the argon2 work), without changing them. */
function countVerifications(s: Stack) {
  const spy = jest.spyOn(s.svc.app.get(PasswordsService), 'verify');
  return { get count() { return spy.mock.calls.length; }, reset: () => spy.mockClear(), restore: () => spy.mockRestore() };
}

describe('identity: temporary lock, atomic attempt counting, unknown e-mails', () => {
  let s: Stack;
  // identity reads BAHI_LOCKOUT_SECONDS at each lock: long for the burst (which may take seconds
  // on a busy machine), short where the test waits for the lock to end.
  const LONG_LOCK = 300;
  const SHORT_LOCK = 3;
  const lockFor = (seconds: number) => (process.env.BAHI_LOCKOUT_SECONDS = String(seconds));

  beforeAll(async () => {
    s = await startIdentity({ BAHI_LOCKOUT_SECONDS: String(LONG_LOCK) });
  });
  afterAll(async () => {
    await s?.stop();
  });

  async function newStaff(email: string, password: string) {
    const mgr = await login(s.url, MANAGER);
    await request(s.url).post('/users').set(auth(mgr.token)).send({ name: email.split('@')[0], email, password, position: 'staff' }).expect(201);
    // A created user must change the manager's password first; done here so the user is ordinary.
    const first = await login(s.url, { email, password });
    const changed = `${password}-own`;
    await request(s.url)
      .post('/manage/profile/edit/updatePassword')
      .set(auth(first.token))
      .send({ current_password: password, new_password: changed, re_type_new_password: changed })
      .expect(200);
    return { email, password: changed };
  }

  it('200 parallel wrong guesses get at most 5 password verifications, then 429 with Retry-After', async () => {
    lockFor(LONG_LOCK);
    const victim = await newStaff('parallel@demo.local', 'parallel-123');
    const verifications = countVerifications(s);
    try {
      const replies = await Promise.all(
        Array.from({ length: 200 }, (_, i) => request(s.url).post('/loginReact').send({ email: victim.email, password: `guess-${i}` })),
      );
      expect(verifications.count).toBeLessThanOrEqual(5);
      const statuses = replies.map((r) => r.status);
      expect(statuses.filter((x) => x === 401).length).toBeLessThanOrEqual(5);
      expect(statuses.every((x) => x === 401 || x === 429)).toBe(true);
      const locked = replies.find((r) => r.status === 429)!;
      expect(locked.body).toMatchObject({ success: false, msg: expect.stringMatching(/locked.*try again in \d+ (second|minute)/i) });
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(LONG_LOCK);

      // While locked even the right password is refused, and costs no verification.
      verifications.reset();
      const during = await request(s.url).post('/loginReact').send(victim).expect(429);
      expect(during.headers['retry-after']).toBeDefined();
      expect(verifications.count).toBe(0);
    } finally {
      verifications.restore();
    }
    // The administration shows the user locked while it lasts.
    const admin = await login(s.url, ADMIN);
    const mgr = await login(s.url, MANAGER);
    const details = await request(s.url).get(`/admin/company/details/${mgr.body.user.companyId}`).set(auth(admin.token)).expect(200);
    expect(details.body.users.find((u: { email: string }) => u.email === victim.email).is_locked).toBe(true);
  });

  it('a lock ends by itself after BAHI_LOCKOUT_SECONDS, and the right password then resets the count', async () => {
    lockFor(SHORT_LOCK);
    const victim = await newStaff('expires@demo.local', 'expires-123');
    for (let i = 0; i < 4; i++) await request(s.url).post('/loginReact').send({ email: victim.email, password: 'wrong-guess' }).expect(401);
    const fifth = await request(s.url).post('/loginReact').send({ email: victim.email, password: 'wrong-guess' }).expect(429);
    expect(Number(fifth.headers['retry-after'])).toBeLessThanOrEqual(SHORT_LOCK);
    await request(s.url).post('/loginReact').send(victim).expect(429);
    await new Promise((r) => setTimeout(r, SHORT_LOCK * 1000 + 200));
    await login(s.url, victim);
    // The right password reset the counter: four more wrong ones do not lock.
    for (let i = 0; i < 4; i++) await request(s.url).post('/loginReact').send({ email: victim.email, password: 'wrong-again' }).expect(401);
    await login(s.url, victim);
  });

  it('an admin unlocks at once (the spec’s Unlock User)', async () => {
    lockFor(LONG_LOCK);
    const victim = await newStaff('unlock.now@demo.local', 'unlock-now-1');
    const before = await login(s.url, victim);
    for (let i = 0; i < 4; i++) await request(s.url).post('/loginReact').send({ email: victim.email, password: 'bad-pass' }).expect(401);
    const fifth = await request(s.url).post('/loginReact').send({ email: victim.email, password: 'bad-pass' }).expect(429);
    expect(fifth.body.msg).toMatch(/locked/i);
    await request(s.url).post('/loginReact').send(victim).expect(429);
    // A lock stops guessing; it does not end the sessions the real user already has.
    await request(s.url).get('/getUserData').set(auth(before.token)).expect(200);
    const admin = await login(s.url, ADMIN);
    const unlocked = await request(s.url).post('/admin/user/unlock').query({ email: victim.email }).set(auth(admin.token)).expect(200);
    expect(unlocked.body).toEqual({ success: true, message: 'User unlocked successfully!' });
    await login(s.url, victim);
  });

  it('answers an unknown e-mail with the same words and the same hashing work as a known one', async () => {
    const verifications = countVerifications(s);
    try {
      const known = await request(s.url).post('/loginReact').send({ email: MANAGER.email, password: 'not-the-password' }).expect(401);
      expect(verifications.count).toBe(1);
      const unknown = await request(s.url).post('/loginReact').send({ email: 'nobody.here@demo.local', password: 'not-the-password' }).expect(401);
      expect(verifications.count).toBe(2);
      expect(unknown.body).toEqual(known.body);
    } finally {
      verifications.restore();
    }
    await login(s.url, MANAGER); // reset the manager's counter

    // Timing, loosely: the unknown e-mail is not answered much faster than a known one.
    const time = async (email: string) => {
      const t0 = process.hrtime.bigint();
      await request(s.url).post('/loginReact').send({ email, password: 'not-the-password' });
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const knownMs: number[] = [];
    const unknownMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      knownMs.push(await time(MANAGER.email));
      unknownMs.push(await time(`ghost-${i}@demo.local`));
    }
    await login(s.url, MANAGER);
    expect(median(unknownMs)).toBeGreaterThan(median(knownMs) * 0.5);
  });
});
