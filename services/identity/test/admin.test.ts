import request from 'supertest';
import { ADMIN, auth, eventually, login, loginChanged, MANAGER, STAFF, startIdentity, type Stack } from './helpers';

describe('identity: administration and user management', () => {
  let s: Stack;
  let admin: string;
  let mgr: string;
  let staff: string;
  let demoId: number;

  beforeAll(async () => {
    s = await startIdentity();
    admin = (await login(s.url, ADMIN)).token;
    const m = await login(s.url, MANAGER);
    mgr = m.token;
    demoId = m.body.user.companyId;
    staff = (await login(s.url, STAFF)).token;
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('answers 403 to managers and staff on every /admin call', async () => {
    for (const token of [mgr, staff]) {
      const calls = [
        request(s.url).get('/admin/companyList').set(auth(token)),
        request(s.url).get(`/admin/company/details/${demoId}`).set(auth(token)),
        request(s.url).post('/admin/createCompany').set(auth(token)).send({ cName: 'a', cAdd: 'b', cMob: '9999999999', mName: 'c', mEmail: 'c@d.in' }),
        request(s.url).delete(`/admin/company/delete/${demoId}`).set(auth(token)),
        request(s.url).post('/admin/user/update-password').set(auth(token)).send({ email: STAFF.email, newPassword: 'whatever12' }),
        request(s.url).post('/admin/user/unlock').query({ email: STAFF.email }).set(auth(token)),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(403);
        expect(res.body.message).toBe('Only a platform administrator can do this.');
      }
    }
    await request(s.url).get('/admin/companyList').expect(401);
    expect((await request(s.url).get('/admin/companyList').set(auth(admin))).status).toBe(200);
  });

  it('creates companies with a manager who must change the temporary password', async () => {
    const missing = await request(s.url).post('/admin/createCompany').set(auth(admin)).send({ cName: 'Only Name' }).expect(400);
    expect(missing.body.message).toMatch(/Please fill all required fields\./);
    await request(s.url).post('/admin/createCompany').set(auth(admin)).send({ cName: 'A', cAdd: 'B', cMob: '123', mName: 'C', mEmail: 'c@d.in' }).expect(400);
    const dup = await request(s.url).post('/admin/createCompany').set(auth(admin)).send({ cName: 'A', cAdd: 'B', cMob: '9999999999', mName: 'C', mEmail: MANAGER.email }).expect(409);
    expect(dup.body.message).toMatch(/already exists/);
    const before = (await request(s.url).get('/admin/companyList').set(auth(admin))).body.companyList.length;
    expect(before).toBe(1);
    for (let i = 1; i <= 11; i++) {
      const res = await request(s.url)
        .post('/admin/createCompany')
        .set(auth(admin))
        .send({ cName: `Shop ${i}`, cAdd: `${i} Road`, cMob: `98000000${String(i).padStart(2, '0')}`, mName: `Owner ${i}`, mEmail: `owner${i}@shop.in` })
        .expect(201);
      expect(res.body).toMatchObject({ success: true, message: 'Company created successfully!', managerPassword: expect.any(String) });
      if (i === 1) {
        const first = await login(s.url, { email: 'owner1@shop.in', password: res.body.managerPassword });
        expect(first.body).toMatchObject({ forceChange: true, user: { position: 'manager', companyName: 'Shop 1' } });
      }
    }
  });

  it('lists companies ten a page with a name search', async () => {
    const p0 = await request(s.url).get('/admin/companyList').query({ pageNo: 0 }).set(auth(admin)).expect(200);
    expect(p0.body.noOfPages).toBe(2);
    expect(p0.body.companyList).toHaveLength(10);
    expect(p0.body.companyList[0]).toMatchObject({ id: demoId, name: 'Demo Traders', manager: 'Demo Manager', mob: '9876543210' });
    const p1 = await request(s.url).get('/admin/companyList').query({ pageNo: 1 }).set(auth(admin)).expect(200);
    expect(p1.body.companyList.map((c: any) => c.name)).toEqual(['Shop 10', 'Shop 11']);
    const found = await request(s.url).get('/admin/companyList').query({ pageNo: 0, text: 'shop 1' }).set(auth(admin)).expect(200);
    expect(found.body.companyList.map((c: any) => c.name)).toEqual(['Shop 1', 'Shop 10', 'Shop 11']);
    await request(s.url).get('/admin/companyList').query({ pageNo: -1 }).set(auth(admin)).expect(400);
    await request(s.url).get('/admin/companyList').query({ pageNo: 'x' }).set(auth(admin)).expect(400);
  });

  it('shows a company with its users; unknown ids are 404', async () => {
    const res = await request(s.url).get(`/admin/company/details/${demoId}`).set(auth(admin)).expect(200);
    expect(res.body.error).toBeNull();
    expect(res.body.company).toMatchObject({ id: demoId, name: 'Demo Traders' });
    expect(res.body.users.map((u: any) => [u.email, u.position, u.is_locked])).toEqual(
      expect.arrayContaining([[MANAGER.email, 'manager', false], [STAFF.email, 'staff', false]]),
    );
    expect(res.body.users[0]).not.toHaveProperty('passwordHash');
    const nf = await request(s.url).get('/admin/company/details/9999').set(auth(admin)).expect(404);
    expect(nf.body).toMatchObject({ company: null, users: [], error: 'Company 9999 not found.' });
    await request(s.url).get('/admin/company/details/abc').set(auth(admin)).expect(400);
  });

  it('validates the admin password and unlock calls', async () => {
    expect((await request(s.url).post('/admin/user/update-password').set(auth(admin)).send({ email: STAFF.email }).expect(400)).body.message).toMatch(/E-mail and new password are required/);
    await request(s.url).post('/admin/user/update-password').set(auth(admin)).send({ email: STAFF.email, newPassword: 'short' }).expect(400);
    await request(s.url).post('/admin/user/update-password').set(auth(admin)).send({ email: 'ghost@x.in', newPassword: 'long-enough1' }).expect(404);
    await request(s.url).post('/admin/user/update-password').set(auth(admin)).send({ email: ADMIN.email, newPassword: 'long-enough1' }).expect(403);
    expect((await request(s.url).post('/admin/user/unlock').set(auth(admin)).expect(400)).body.message).toMatch(/E-mail is required/);
    await request(s.url).post('/admin/user/unlock').query({ email: 'ghost@x.in' }).set(auth(admin)).expect(404);
    // Nothing changed: the staff password still works.
    await login(s.url, STAFF);
  });

  it('lets a manager add and remove users of their own company only', async () => {
    expect((await request(s.url).get('/users').set(auth(staff)).expect(403)).body.message).toBe('Only a manager can do this.');
    await request(s.url).post('/users').set(auth(staff)).send({ name: 'X', email: 'x@demo.local', password: 'long-enough1', position: 'staff' }).expect(403);
    const bad = await request(s.url).post('/users').set(auth(mgr)).send({ name: '', email: 'bad', password: 'long-enough1', position: 'admin' }).expect(400);
    expect(bad.body.message).toMatch(/name/);
    expect(bad.body.message).toMatch(/email/);
    expect(bad.body.message).toMatch(/position/);
    await request(s.url).post('/users').set(auth(mgr)).send({ name: 'Dup', email: STAFF.email, password: 'long-enough1', position: 'staff' }).expect(409);
    await request(s.url).post('/users').set(auth(mgr)).send({ name: 'Short', email: 'short@demo.local', password: 'short', position: 'staff' }).expect(400);
    const made = await request(s.url).post('/users').set(auth(mgr)).send({ name: 'Neha', email: 'Neha@Demo.local', password: 'neha-pass-1', position: 'staff' }).expect(201);
    expect(made.body).toMatchObject({ success: true, id: expect.any(Number) });
    const list = await request(s.url).get('/users').set(auth(mgr)).expect(200);
    expect(list.body.users.find((u: any) => u.id === made.body.id)).toMatchObject({ email: 'neha@demo.local', forceChange: true, position: 'staff' });
    const neha = await login(s.url, { email: 'neha@demo.local', password: 'neha-pass-1' });
    expect(neha.body.forceChange).toBe(true);

    const me = (await request(s.url).get('/getUserData').set(auth(mgr))).body.user.id;
    expect((await request(s.url).delete(`/users/${me}`).set(auth(mgr)).expect(400)).body.message).toMatch(/your own account/);
    const shop1 = (await request(s.url).get('/admin/companyList').query({ text: 'Shop 1' }).set(auth(admin))).body.companyList[0].id;
    const foreign = (await request(s.url).get(`/admin/company/details/${shop1}`).set(auth(admin))).body.users[0].id;
    await request(s.url).delete(`/users/${foreign}`).set(auth(mgr)).expect(404);
    await request(s.url).delete('/users/abc').set(auth(mgr)).expect(400);
    await request(s.url).delete(`/users/${made.body.id}`).set(auth(mgr)).expect(200);
    await request(s.url).get('/getUserData').set(auth(neha.token)).expect(401);
    await request(s.url).post('/loginReact').send({ email: 'neha@demo.local', password: 'neha-pass-1' }).expect(401);
  });

  it('deletes a company with its users and ends their sessions', async () => {
    const found = (await request(s.url).get('/admin/companyList').query({ text: 'Shop 2' }).set(auth(admin))).body.companyList[0];
    const reset = await request(s.url).post('/admin/user/update-password').set(auth(admin)).send({ email: 'owner2@shop.in', newPassword: 'owner2-pass' }).expect(200);
    expect(reset.body.success).toBe(true);
    const owner = await loginChanged(s.url, { email: 'owner2@shop.in', password: 'owner2-pass' });
    await request(s.url).get('/getCompanyDetails').set(auth(owner.token)).expect(200);
    const del = await request(s.url).delete(`/admin/company/delete/${found.id}`).set(auth(admin)).expect(200);
    expect(del.body).toEqual({ success: true, message: 'Company deleted successfully!' });
    await eventually(async () => {
      await request(s.url).get('/getCompanyDetails').set(auth(owner.token)).expect(401);
    });
    await request(s.url).post('/loginReact').send({ email: 'owner2@shop.in', password: 'owner2-pass' }).expect(401);
    await request(s.url).get(`/admin/company/details/${found.id}`).set(auth(admin)).expect(404);
    await request(s.url).delete(`/admin/company/delete/${found.id}`).set(auth(admin)).expect(404);
    // Other companies are untouched.
    await request(s.url).get('/getCompanyDetails').set(auth(mgr)).expect(200);
  });
});
