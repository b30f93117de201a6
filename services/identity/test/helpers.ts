import request from 'supertest';
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

/** Embedded MongoDB, a real nats-server and identity on free ports, seeded like a first start. */
export async function startIdentity(): Promise<Stack> {
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const svc = await startTestService(AppModule, { service: 'identity', mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: 'identity-test-secret' });
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
