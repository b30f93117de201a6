import request from 'supertest';
import { ADMIN, login, MANAGER, startIdentity, type Stack } from './helpers';

// Ids and page numbers have upper bounds: past them a 400 naming the field.
let s: Stack;
let admin: string;
let manager: string;

beforeAll(async () => {
  s = await startIdentity({ BAHI_DEMO: '1' });
  admin = (await login(s.url, ADMIN)).token;
  manager = (await login(s.url, MANAGER)).token;
}, 60_000);
afterAll(() => s?.stop());

const get = (path: string, token: string) => request(s.url).get(path).set('Authorization', `Bearer ${token}`);

describe('identity limits', () => {
  it('ids in the path past 2^31 answer 400 naming them', async () => {
    const cases = [
      ['GET /admin/company/details/99999999999999999999', await get('/admin/company/details/99999999999999999999', admin), /id must be at most 2147483647|id must be a whole number/],
      ['GET /admin/company/details/2147483648', await get('/admin/company/details/2147483648', admin), /id must be at most 2147483647/],
      ['DELETE /users/2147483648', await request(s.url).delete('/users/2147483648').set('Authorization', `Bearer ${manager}`), /id must be at most 2147483647/],
      ['GET /companyLogo/2147483648', await request(s.url).get('/companyLogo/2147483648'), /companyId must be at most 2147483647/],
      ['GET /companyLogo/-3', await request(s.url).get('/companyLogo/-3'), /companyId must be at least 1/],
    ] as const;
    // The label names the failing case in jest's diff.
    for (const [label, res, msg] of cases) {
      expect([label, res.status]).toEqual([label, 400]);
      expect([label, res.body.message]).toEqual([label, expect.stringMatching(msg)]);
    }
  });

  it('a page past 1e6 and a company id past 2^31 answer 400', async () => {
    const page = await get('/admin/companyList?pageNo=99999999999', admin);
    expect(page.status).toBe(400);
    expect(page.body.message).toMatch(/pageNo must be at most 1000000/);
    const set = await request(s.url).post('/setCompanyDetails').set('Authorization', `Bearer ${manager}`).send({ id: 1e20, name: 'X', add1: 'Y', mob1: '9876543210' });
    expect(set.status).toBe(400);
    expect(JSON.stringify(set.body)).toMatch(/id must be a company id/);
  });
});
