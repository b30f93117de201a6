import { connect, JSONCodec, type NatsConnection } from 'nats';
import request from 'supertest';
import { nestRequest, signToken } from '@bahi/auth';
import type { CompanyDetails, Position } from '@bahi/contracts';
import { Subjects } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { AppModule } from '../src/app.module';

export const SECRET = 'ledger-test-secret-0123456789abcdef';

export const COMPANIES: Record<number, CompanyDetails> = {
  1: { id: 1, name: 'Demo Traders', add1: '12 Market Road', add2: 'Mumbai 400001', mob1: '9876543210', mob2: '', email: 'hello@demo.local', logo: null, upiId: null },
  2: { id: 2, name: 'Other Company', add1: '1 Park Street', add2: 'Kolkata', mob1: '9000000001', mob2: '', email: 'b@other.local', logo: null, upiId: null },
};

/** Token of a user of `companyId`, signed like identity does. */
export function tokenFor(companyId: number, position: Position = 'manager'): string {
  return signToken(
    { sub: `${companyId}${position}`, uid: companyId * 10 + (position === 'manager' ? 1 : 2), name: `${position} ${companyId}`, email: `${position}${companyId}@t.local`, position, companyId, companyName: COMPANIES[companyId]?.name ?? null, sid: `s-${companyId}-${position}` },
    SECRET,
  );
}

export interface Stack {
  mongo: MongoHandle;
  nats: NatsHandle;
  svc: TestService;
  url: string;
  nc: NatsConnection;
  /** Request-reply with a ledger NATS handler, as another service would. */
  ask<R>(subject: string, data: unknown): Promise<R>;
  stop(): Promise<void>;
}

/**
 * Embedded MongoDB, a real nats-server and the ledger on free ports. identity's two NATS answers
 * the ledger needs (company details, the revocation list) come from a small responder on the
 * same NATS, so these tests need no identity database.
 */
export async function startLedger(opts: { monitorCommands?: boolean } = {}): Promise<Stack> {
  process.env.BAHI_DEMO = '0';
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const nc = await connect({ servers: nats.url });
  const codec = JSONCodec<{ id?: string; data?: { companyId?: number } }>();
  const respond = (subject: string, answer: (data: { companyId?: number } | undefined) => unknown) =>
    nc.subscribe(subject, {
      callback: (_e, msg) => {
        const req = codec.decode(msg.data);
        const res = answer(req.data);
        const body = res === undefined ? { id: req.id, err: { status: 404, message: 'Company not found.' }, isDisposed: true } : { id: req.id, response: res, isDisposed: true };
        msg.respond(JSONCodec().encode(body));
      },
    });
  respond(Subjects.identity.sessionRevocations, () => ({ revocations: [] }));
  respond(Subjects.identity.companyDetails, (d) => COMPANIES[d?.companyId ?? 0]);
  await nc.flush();
  // monitorCommands: the driver reports every command it sends (tests that count them).
  const mongoUri = opts.monitorCommands ? `${mongo.uri.replace(/\/?$/, '/')}?monitorCommands=true` : mongo.uri;
  const svc = await startTestService(AppModule, { service: 'ledger', mongoUri, natsUrl: nats.url, jwtSecret: SECRET });
  return {
    mongo,
    nats,
    svc,
    nc,
    url: svc.url,
    ask: (subject, data) => nestRequest(nc, subject, data),
    stop: async () => {
      await svc.close();
      await nc.close();
      await nats.stop();
      await mongo.stop();
    },
  };
}

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A supertest agent bound to one user. */
export function as(url: string, token: string) {
  const h = auth(token);
  return {
    get: (path: string) => request(url).get(path).set(h),
    post: (path: string, body: unknown) => request(url).post(path).set(h).send(body as object),
    put: (path: string, body: unknown) => request(url).put(path).set(h).send(body as object),
  };
}

export const customerForm = (over: Record<string, unknown> = {}) => ({
  mobile_no: '9876500001',
  name: 'Asha Verma',
  address_line_1: 'Address',
  address_line_2: '',
  city_or_district: 'Mumbai',
  state: 'MH',
  country: 'India',
  postal_code: '1000001',
  ...over,
});

export const distributorForm = (over: Record<string, unknown> = {}) => ({
  name: 'Eastern Traders',
  address_line_1: '5 Burrabazar',
  address_line_2: '',
  city_or_district: 'Kolkata',
  state: 'WB',
  country: 'India',
  postal_code: '700001',
  ...over,
});
