import request from 'supertest';
import { nestRequest } from '@bahi/auth';
import { Subjects, type ApproverListReply, type ApproverVerifyReply } from '@bahi/contracts';
import { UsersService } from '../src/users/users.service';
import { auth, MANAGER, startTwoCompanies, type TwoCompanies } from './helpers';

/** Issue 28: a manager's approval PIN, the company's counter settings, the PIN lockout. */
describe('identity: approval PIN and counter settings', () => {
  let t: TwoCompanies;
  let mgrId: number;
  const LOCK = 300;

  beforeAll(async () => {
    process.env.BAHI_LOCKOUT_SECONDS = String(LOCK);
    t = await startTwoCompanies({ cName: 'Pin Other', cMob: '9811100022', mEmail: 'pin-other@x.local' });
    mgrId = (await request(t.s.url).get('/getUserData').set(auth(t.mgr)).expect(200)).body.user.id;
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  const verify = (approverId: number, pin: string, companyId = t.companyId) =>
    nestRequest<ApproverVerifyReply>(t.nc, Subjects.identity.approverVerify, { companyId, approverId, pin }, 60_000);

  it('PUT /profile/pin: staff 403, bad PIN or wrong password 400, nothing stored; a manager sets it hashed', async () => {
    const staff = await request(t.s.url).put('/profile/pin').set(auth(t.staff)).send({ current_password: 'staff12345', pin: '1234' });
    expect(staff.status).toBe(403);
    for (const pin of ['123', '1234567', '12a4', 1234, '']) {
      const r = await request(t.s.url).put('/profile/pin').set(auth(t.mgr)).send({ current_password: MANAGER.password, pin });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain('The PIN must be 4 to 6 digits.');
    }
    const wrongPw = await request(t.s.url).put('/profile/pin').set(auth(t.mgr)).send({ current_password: 'not-it', pin: '4321' });
    expect(wrongPw.status).toBe(400);
    expect(wrongPw.body.message).toBe('Current password is incorrect.');
    let list = await nestRequest<ApproverListReply>(t.nc, Subjects.identity.approverList, { companyId: t.companyId });
    expect(list.approvers.find((a) => a.id === mgrId)).toMatchObject({ has_pin: false });

    await request(t.s.url).put('/profile/pin').set(auth(t.mgr)).send({ current_password: MANAGER.password, pin: '4321' }).expect(200);
    const stored = await t.s.svc.app.get(UsersService).model.findOne({ id: mgrId }).lean();
    expect(stored?.pinHash).toMatch(/^\$argon2id\$/);
    list = await nestRequest<ApproverListReply>(t.nc, Subjects.identity.approverList, { companyId: t.companyId });
    // Only this company's managers are offered (not Demo Staff, not Ravi of the other company).
    expect(list.approvers).toEqual([{ id: mgrId, name: 'Demo Manager', has_pin: true }]);
  });

  it('identity.approver.verify: right PIN names the manager; another company, staff or a wrong PIN is 403', async () => {
    expect(await verify(mgrId, '4321')).toEqual({ ok: true, id: mgrId, name: expect.any(String) });
    const other = await verify(mgrId, '4321', t.otherId);
    expect(other).toMatchObject({ ok: false, status: 403 });
    const wrong = await verify(mgrId, '0000');
    expect(wrong).toEqual({ ok: false, status: 403, message: expect.stringMatching(/^Wrong PIN for .+; nothing was changed\.$/) });
  });

  it('5 wrong PINs lock the PIN (429, retryAfter, "locked") even for the right one; a new PIN ends the lock', async () => {
    // One wrong try is already counted above; a right PIN resets the count first.
    expect((await verify(mgrId, '4321')).ok).toBe(true);
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => verify(mgrId, String(1000 + i))));
    expect(replies.filter((r) => !r.ok && r.status === 403).length).toBeLessThanOrEqual(5);
    const locked = await verify(mgrId, '4321');
    expect(locked).toMatchObject({ ok: false, status: 429, message: expect.stringContaining('locked') });
    expect((locked as { retryAfter: number }).retryAfter).toBeGreaterThan(LOCK - 30);
    expect((locked as { retryAfter: number }).retryAfter).toBeLessThanOrEqual(LOCK);
    await request(t.s.url).put('/profile/pin').set(auth(t.mgr)).send({ current_password: MANAGER.password, pin: '567890' }).expect(200);
    expect((await verify(mgrId, '567890')).ok).toBe(true);
  }, 120_000);

  it('staff_max_discount_percent and walkin_credit: defaults 100 and confirm, kept when left out, bad values 400 and nothing changed', async () => {
    const get = async () => (await request(t.s.url).get('/getCompanyDetails').set(auth(t.mgr)).expect(200)).body;
    const before = await get();
    expect(before).toMatchObject({ staff_max_discount_percent: 100, walkin_credit: 'confirm' });
    const base = { id: t.companyId, name: before.name, add1: before.add1 || 'Shop 1', mob1: before.mob1 || '9876543210', email: before.email };
    for (const [body, sentence] of [
      [{ staff_max_discount_percent: 101 }, 'staff_max_discount_percent must be a percent from 0 to 100.'],
      [{ staff_max_discount_percent: -1 }, 'staff_max_discount_percent must be a percent from 0 to 100.'],
      [{ staff_max_discount_percent: '10' }, 'staff_max_discount_percent must be a percent from 0 to 100.'],
      [{ staff_max_discount_percent: 10.005 }, 'staff_max_discount_percent must be a percent from 0 to 100.'],
      [{ walkin_credit: 'sometimes' }, 'walkin_credit must be one of confirm, refuse, allow.'],
    ] as const) {
      const r = await request(t.s.url).post('/setCompanyDetails').set(auth(t.mgr)).send({ ...base, ...body });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).toContain(sentence);
    }
    expect(await get()).toMatchObject({ staff_max_discount_percent: 100, walkin_credit: 'confirm' });
    await request(t.s.url).post('/setCompanyDetails').set(auth(t.staff)).send({ ...base, walkin_credit: 'allow' }).expect(403);
    await request(t.s.url).post('/setCompanyDetails').set(auth(t.mgr)).send({ ...base, staff_max_discount_percent: 12.5, walkin_credit: 'refuse' }).expect(200);
    expect(await get()).toMatchObject({ staff_max_discount_percent: 12.5, walkin_credit: 'refuse' });
    await request(t.s.url).post('/setCompanyDetails').set(auth(t.mgr)).send(base).expect(200);
    expect(await get()).toMatchObject({ staff_max_discount_percent: 12.5, walkin_credit: 'refuse' });
  });
});
