import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Gateway } from '../src/app';
import request from 'supertest';
import { RevocationList } from '@bahi/auth';
import { LoginLimiter, loginLimitFromEnv } from '../src/login-limit';
import { appWith, checkerFor } from './helpers';

describe('failed logins per address', () => {
  it('blocks an address after the limit, for the rest of the window, and no other address', () => {
    const l = new LoginLimiter({ maxFailures: 3, windowMs: 60_000 });
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(l.blockedFor('10.0.0.1', t0 + i)).toBe(0);
      l.fail('10.0.0.1', t0 + i);
    }
    expect(l.blockedFor('10.0.0.1', t0 + 10)).toBe(60_000 - 10);
    expect(l.blockedFor('10.0.0.2', t0 + 10)).toBe(0);
    // The oldest failure leaves the window: one more try.
    expect(l.blockedFor('10.0.0.1', t0 + 60_000)).toBe(0);
  });

  it('reads its limits from the environment, ignoring nonsense', () => {
    expect(loginLimitFromEnv({ BAHI_LOGIN_MAX_FAILURES_PER_ADDRESS: '5', BAHI_LOGIN_WINDOW_MIN: '2' })).toEqual({ maxFailures: 5, windowMs: 120_000 });
    expect(loginLimitFromEnv({ BAHI_LOGIN_MAX_FAILURES_PER_ADDRESS: 'x', BAHI_LOGIN_WINDOW_MIN: '-1' })).toEqual({ maxFailures: 20, windowMs: 900_000 });
  });
});

describe('failed logins behind a proxy', () => {
  let identity: http.Server;
  let identityUrl: string;
  const auth = checkerFor(new RevocationList());

  beforeAll(async () => {
    // An identity that refuses every login.
    identity = http.createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, msg: 'Invalid email or password.' }));
    });
    await new Promise<void>((r) => identity.listen(0, '127.0.0.1', () => r()));
    identityUrl = `http://127.0.0.1:${(identity.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => identity.close(() => r())));

  const attempt = (app: Gateway, from: string) =>
    request(app).post('/api/loginReact').set('X-Forwarded-For', from).send({ email: 'a@shop.in', password: 'wrong' });
  const gateway = (trustProxy: string) =>
    appWith({ auth, serviceUrls: { identity: identityUrl }, loginLimit: { maxFailures: 2, windowMs: 60_000 }, trustProxy });

  it('counts each client the trusted proxy names on its own', async () => {
    const app = gateway('loopback');
    expect((await attempt(app, '203.0.113.7')).status).toBe(401);
    expect((await attempt(app, '203.0.113.7')).status).toBe(401);
    expect((await attempt(app, '203.0.113.7')).status).toBe(429);
    // Another shop behind the same proxy still gets its own tries.
    expect((await attempt(app, '198.51.100.4')).status).toBe(401);
  });

  it('ignores X-Forwarded-For from a hop it does not trust', async () => {
    // The test client is on loopback, which this gateway does not trust: every try counts against it.
    const app = gateway('uniquelocal');
    expect((await attempt(app, '203.0.113.7')).status).toBe(401);
    expect((await attempt(app, '198.51.100.4')).status).toBe(401);
    expect((await attempt(app, '192.0.2.9')).status).toBe(429);
  });
});

describe('failed logins per address, in parallel', () => {
  let identity: http.Server;
  let identityUrl: string;
  let reached = 0;
  const auth = checkerFor(new RevocationList());

  beforeAll(async () => {
    // A slow identity: every guess is still in flight when the next ones arrive.
    identity = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        reached++;
        const ok = JSON.parse(body || '{}').password === 'right-one';
        setTimeout(() => {
          res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
          res.end(JSON.stringify(ok ? { success: true, token: 'x' } : { success: false, msg: 'Invalid email or password.' }));
        }, 150);
      });
    });
    await new Promise<void>((r) => identity.listen(0, '127.0.0.1', () => r()));
    identityUrl = `http://127.0.0.1:${(identity.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => identity.close(() => r())));

  it('forwards at most the limit of parallel guesses from one address, counting each before it is sent', async () => {
    reached = 0;
    const app = appWith({ auth, serviceUrls: { identity: identityUrl }, loginLimit: { maxFailures: 5, windowMs: 60_000 } });
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) => request(app).post('/api/loginReact').set('X-Forwarded-For', '203.0.113.50').send({ email: `u${i}@shop.in`, password: 'wrong' })),
    );
    expect(reached).toBe(5);
    expect(replies.filter((r) => r.status === 401)).toHaveLength(5);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).toHaveLength(55);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused[0]!.body.msg).toMatch(/Too many failed logins from this address/);
  });

  it('gives the slot back when the login succeeds', async () => {
    reached = 0;
    const app = appWith({ auth, serviceUrls: { identity: identityUrl }, loginLimit: { maxFailures: 2, windowMs: 60_000 } });
    const ok = await Promise.all(
      Array.from({ length: 2 }, () => request(app).post('/api/loginReact').set('X-Forwarded-For', '203.0.113.51').send({ email: 'a@shop.in', password: 'right-one' })),
    );
    expect(ok.map((r) => r.status)).toEqual([200, 200]);
    for (let i = 0; i < 3; i++) {
      expect((await request(app).post('/api/loginReact').set('X-Forwarded-For', '203.0.113.51').send({ email: 'a@shop.in', password: 'right-one' })).status).toBe(200);
    }
    expect((await request(app).post('/api/loginReact').set('X-Forwarded-For', '203.0.113.51').send({ email: 'a@shop.in', password: 'no' })).status).toBe(401);
    expect((await request(app).post('/api/loginReact').set('X-Forwarded-For', '203.0.113.51').send({ email: 'a@shop.in', password: 'no' })).status).toBe(401);
    expect((await request(app).post('/api/loginReact').set('X-Forwarded-For', '203.0.113.51').send({ email: 'a@shop.in', password: 'right-one' })).status).toBe(429);
  });
});
