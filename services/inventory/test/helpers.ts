import request from 'supertest';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { nestRequest, signToken } from '@bahi/auth';
import { Subjects, type Position } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { AppModule } from '../src/app.module';

export const SECRET = 'inventory-test-secret-0123456789abcdef';

export interface Stack {
  mongo: MongoHandle;
  nats: NatsHandle;
  svc: TestService;
  url: string;
  nc: NatsConnection;
  /** Request-reply to an inventory handler, as another service would. */
  ask<R = any>(subject: string, data: unknown): Promise<R>;
  stop(): Promise<void>;
}

/** Embedded MongoDB, a real nats-server and inventory on free ports; no demo seed. */
export async function startInventory(opts: { monitorCommands?: boolean } = {}): Promise<Stack> {
  process.env.BAHI_DEMO = '0';
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const nc = await connect({ servers: nats.url });
  // Stands in for identity: the guard answers 503 until the revoked sessions are loaded.
  nc.subscribe(Subjects.identity.sessionRevocations, {
    callback: (_e, msg) => msg.respond(JSONCodec().encode({ id: (JSONCodec().decode(msg.data) as { id?: string }).id, response: { revocations: [] } })),
  });
  await nc.flush();
  // monitorCommands: the driver reports every command it sends (tests that count them).
  const mongoUri = opts.monitorCommands ? `${mongo.uri.replace(/\/?$/, '/')}?monitorCommands=true` : mongo.uri;
  const svc = await startTestService(AppModule, { service: 'inventory', mongoUri, natsUrl: nats.url, jwtSecret: SECRET });
  return {
    mongo,
    nats,
    svc,
    url: svc.url,
    nc,
    ask: (subject, data) => nestRequest(nc, subject, data),
    stop: async () => {
      await nc.close();
      await svc.close();
      await nats.stop();
      await mongo.stop();
    },
  };
}

let uid = 100;
/** A token as identity would sign it. */
export function token(companyId: number, position: Position = 'manager'): string {
  uid++;
  return signToken(
    { sub: String(uid), uid, name: `${position} ${uid}`, email: `u${uid}@test.local`, position, companyId, companyName: `Company ${companyId}`, sid: `sid-${uid}` },
    SECRET,
  );
}

export const auth = (t: string) => ({ Authorization: `Bearer ${t}` });

/** A category with specs and a product in it, through the public calls. */
export async function makeCategory(url: string, t: string, name: string, specs: [string, string][] = [], extra: Record<string, unknown> = {}): Promise<number> {
  const body: Record<string, unknown> = { name, belongs_to: null, ...extra };
  specs.forEach(([s, d], i) => {
    body[`spec_${i + 1}`] = s;
    body[`default_${i + 1}`] = d;
  });
  const res = await request(url).post('/catagory/add').set(auth(t)).send(body);
  if (res.status !== 200) throw new Error(`category: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function makeProduct(url: string, t: string, fields: Record<string, unknown>): Promise<number> {
  const res = await request(url)
    .post('/createNewProduct')
    .set(auth(t))
    .send({ brand_name: 'Acme', name: 'Thing', mrp: '100', cp: '80', unit: 'pcs', per_peice_quantity: 1, ...fields });
  if (res.status !== 200) throw new Error(`product: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
