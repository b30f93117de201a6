import request from 'supertest';
import { RevocationList } from '@bahi/auth';
import { FORCE_CHANGE_MESSAGE, REVOCATIONS_LOADING_MESSAGE } from '@bahi/contracts';
import { appWith, checkerFor, startUpstream, token, type Upstream } from './helpers';

describe('gateway: temporary passwords and the revocation list', () => {
  let identity: Upstream;
  let sales: Upstream;
  beforeAll(async () => {
    [identity, sales] = await Promise.all([startUpstream(), startUpstream()]);
  });
  afterAll(async () => {
    await identity.close();
    await sales.close();
  });

  it('lets a temporary password token reach only the password change and logout (403 with a sentence elsewhere)', async () => {
    const list = new RevocationList();
    list.applyAll([]);
    const gw = appWith({ auth: checkerFor(list), serviceUrls: { identity: identity.url, sales: sales.url } });
    const temp = `Bearer ${token({ fc: true })}`;
    for (const [method, path] of [['get', '/api/getUserData'], ['get', '/api/getProducts?cart_no=1'], ['get', '/api/admin/companyList'], ['post', '/api/MAKE_SALE']] as const) {
      const res = await request(gw)[method](path).set('Authorization', temp).send({});
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ statusCode: 403, message: FORCE_CHANGE_MESSAGE });
    }
    const change = await request(gw).post('/api/manage/profile/edit/updatePassword').set('Authorization', temp).send({ current_password: 'a' });
    expect(change.status).toBe(200);
    expect(change.body.url).toBe('/manage/profile/edit/updatePassword');
    expect((await request(gw).post('/api/logout').set('Authorization', temp)).status).toBe(200);
    // The same user's full token (after the change) goes everywhere.
    expect((await request(gw).get('/api/getProducts?cart_no=1').set('Authorization', `Bearer ${token()}`)).status).toBe(200);
  });

  it('refuses token calls with 503 and is not ready until the revoked sessions are loaded', async () => {
    const list = new RevocationList();
    const checker = { ...checkerFor(list), ready: () => list.loaded };
    const gw = appWith({ auth: checker, serviceUrls: { identity: identity.url, sales: sales.url } });
    const health = await request(gw).get('/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'starting', revocations: 'loading' });
    const early = await request(gw).get('/api/getProducts?cart_no=1').set('Authorization', `Bearer ${token()}`);
    expect(early.status).toBe(503);
    expect(early.body.message).toBe(REVOCATIONS_LOADING_MESSAGE);
    expect(early.headers['retry-after']).toBe('5');
    // Login needs no token and still goes through.
    expect((await request(gw).post('/api/loginReact').send({ email: 'a@b.in', password: 'x' })).status).toBe(200);

    list.applyAll([]);
    expect((await request(gw).get('/health')).body).toEqual({ status: 'ok', nats: 'up', revocations: 'loaded' });
    expect((await request(gw).get('/api/getProducts?cart_no=1').set('Authorization', `Bearer ${token()}`)).status).toBe(200);
  });
});
