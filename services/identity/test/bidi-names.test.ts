import request from 'supertest';
import { nestRequest } from '@bahi/auth';
import { Subjects } from '@bahi/contracts';
import { ADMIN, auth, login, startTwoCompanies, type TwoCompanies } from './helpers';

// Right-to-left overrides (U+202A-202E) and isolates (U+2066-2069) in a name reverse the rest of a
// printed bill line: identity saves companies, their profile and users without them, through its
// real HTTP API, and hands the clean names to other services over NATS.
const RLO = '\u202E';
const PDF = '\u202C';
const RLI = '\u2067';
const PDI = '\u2069';

describe('identity: names and addresses are saved without bidi controls', () => {
  let two: TwoCompanies;
  beforeAll(async () => {
    two = await startTwoCompanies({ cName: `Gupta ${RLO}gnp.exe${PDF} Stores`, cMob: '+919812345678', mEmail: 'ravi@gupta.in' });
  });
  afterAll(() => two?.stop());

  it("the admin's new company, its profile and the NATS details carry the name as written, less the controls", async () => {
    const { s, nc, otherId, otherMgr } = two;
    const admin = (await login(s.url, ADMIN)).token;
    const made = await request(s.url).get(`/admin/company/details/${otherId}`).set(auth(admin)).expect(200);
    expect(made.body.company.name).toBe('Gupta gnp.exe Stores');
    expect(made.body.users[0].name).toBe('Ravi');
    const body = { id: otherId, name: `${RLI}गुप्ता${PDI} Stores`, add1: `12 ${RLO}MG Road${PDF}, पुणे`, add2: `Near ${RLI}Station${PDI}`, mob1: '9812345678', mob2: '', email: '' };
    await request(s.url).post('/setCompanyDetails').set(auth(otherMgr)).send(body).expect(200);
    const got = await request(s.url).get('/getCompanyDetails').set(auth(otherMgr)).expect(200);
    expect(got.body).toMatchObject({ name: 'गुप्ता Stores', add1: '12 MG Road, पुणे', add2: 'Near Station' });
    const details = await nestRequest<{ name: string; add1: string }>(nc, Subjects.identity.companyDetails, { companyId: otherId });
    expect(details).toMatchObject({ name: 'गुप्ता Stores', add1: '12 MG Road, पुणे' });
  });

  it('a user is saved without them; a name of nothing but controls is refused; a password keeps what was typed', async () => {
    const { s, otherMgr } = two;
    const password = `pass${RLO}word-123`;
    const made = await request(s.url).post('/users').set(auth(otherMgr)).send({ name: `${RLO}Asha${PDF} शर्मा`, email: 'asha@gupta.in', password, position: 'staff' });
    expect(made.status).toBeLessThan(300);
    const list = await request(s.url).get('/users').set(auth(otherMgr)).expect(200);
    const names = JSON.stringify(list.body);
    expect(names).toContain('Asha शर्मा');
    expect(names).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    const empty = await request(s.url).post('/users').set(auth(otherMgr)).send({ name: `${RLO}${PDF}`, email: 'nobody@gupta.in', password: 'whatever-123', position: 'staff' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body.message)).toContain('name is required.');
    // The password was not altered: it logs in as typed (then must be changed), not without the control.
    expect((await request(s.url).post('/loginReact').send({ email: 'asha@gupta.in', password })).status).toBe(200);
    expect((await request(s.url).post('/loginReact').send({ email: 'asha@gupta.in', password: 'password-123' })).status).toBe(401);
  });
});
