import request from 'supertest';
import { connect, type NatsConnection } from 'nats';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { AppModule } from '../src/app.module';

export const ADMIN = { email: 'admin@bahi.local', password: 'admin12345' };
export const MANAGER = { email: 'manager@demo.local', password: 'manager12345' };
export const STAFF = { email: 'staff@demo.local', password: 'staff12345' };

export interface Stack {
  mongo: MongoHandle;
  nats: NatsHandle;
  svc: TestService;
  url: string;
  stop(): Promise<void>;
}

/**
 * Embedded MongoDB, a real nats-server and identity on free ports, seeded like a first start.
 * The admin's password is given (BAHI_ADMIN_PASSWORD), so it is not force-changed, unless `env`
 * sets it to undefined.
 */
export async function startIdentity(env: Record<string, string | undefined> = {}): Promise<Stack> {
  for (const [k, v] of Object.entries({ BAHI_ADMIN_PASSWORD: ADMIN.password, ...env })) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const svc = await startTestService(AppModule, { service: 'identity', mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: 'identity-test-secret-0123456789abcdef' });
  return {
    mongo,
    nats,
    svc,
    url: svc.url,
    stop: async () => {
      await svc.close();
      await nats.stop();
      await mongo.stop();
    },
  };
}

export async function login(url: string, who: { email: string; password: string }): Promise<{ token: string; body: any }> {
  const res = await request(url).post('/loginReact').send(who);
  if (res.status !== 200) throw new Error(`login of ${who.email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token, body: res.body };
}

/**
 * Logs in with a temporary password and changes it to `newPassword` (the token of a temporary
 * password opens nothing else), then logs in again: a full token.
 */
export async function loginChanged(url: string, who: { email: string; password: string }, newPassword = `${who.password}-own`): Promise<{ token: string; body: any }> {
  const first = await login(url, who);
  if (!first.body.forceChange) return first;
  const res = await request(url)
    .post('/manage/profile/edit/updatePassword')
    .set({ Authorization: `Bearer ${first.token}` })
    .send({ current_password: who.password, new_password: newPassword, re_type_new_password: newPassword });
  if (res.status !== 200) throw new Error(`password change of ${who.email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return login(url, { email: who.email, password: newPassword });
}

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Waits for an eventually-consistent condition (revocation events). */
export async function eventually(fn: () => Promise<void>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export interface TwoCompanies {
  s: Stack;
  nc: NatsConnection;
  /** Demo Traders' manager and staff tokens and its id. */
  mgr: string;
  staff: string;
  companyId: number;
  /** A second company made by the platform admin; its manager has changed the temporary password. */
  otherMgr: string;
  otherId: number;
  stop(): Promise<void>;
}

/** identity with Demo Traders and a second company, for profile and isolation tests. */
export async function startTwoCompanies(other: { cName: string; cMob: string; mEmail: string }): Promise<TwoCompanies> {
  const s = await startIdentity();
  const nc = await connect({ servers: s.nats.url });
  const m = await login(s.url, MANAGER);
  const staff = (await login(s.url, STAFF)).token;
  const admin = (await login(s.url, ADMIN)).token;
  const created = await request(s.url)
    .post('/admin/createCompany')
    .set(auth(admin))
    .send({ cName: other.cName, cAdd: '1 Lane', cMob: other.cMob, mName: 'Ravi', mEmail: other.mEmail })
    .expect(201);
  const otherMgr = (await loginChanged(s.url, { email: other.mEmail, password: created.body.managerPassword })).token;
  return {
    s,
    nc,
    mgr: m.token,
    staff,
    companyId: m.body.user.companyId,
    otherMgr,
    otherId: created.body.companyId,
    stop: async () => {
      await nc.close();
      await s.stop();
    },
  };
}
