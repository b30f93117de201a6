import { connect, JSONCodec, RetentionPolicy, StorageType, type NatsConnection } from 'nats';
import request from 'supertest';
import { signToken } from '@bahi/auth';
import { EventStreams, Subjects, type HistoryEvent, type Position } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { AppModule } from '../src/app.module';
import { Consumers } from '../src/consumers';

export const SECRET = 'reports-test-secret-0123456789abcdef';

export function tokenFor(companyId: number, position: Position = 'manager'): string {
  return signToken(
    { sub: `${companyId}${position}`, uid: companyId * 10 + (position === 'manager' ? 1 : 2), name: `${position} ${companyId}`, email: `${position}${companyId}@t.local`, position, companyId, companyName: `Company ${companyId}`, sid: `s-${companyId}-${position}` },
    SECRET,
  );
}

export interface Stack {
  mongo: MongoHandle;
  nats: NatsHandle;
  svc: TestService;
  nc: NatsConnection;
  consumers: Consumers;
  /** Publishes an event to its JetStream stream as an owner's relay does (msgID: the event id, unless given). */
  publish(subject: string, event: Record<string, unknown>, msgID?: string): Promise<void>;
  get(path: string, token?: string): request.Test;
  stop(): Promise<void>;
}

/**
 * Embedded MongoDB, a real nats-server with JetStream and its three event streams (as the
 * owners create them), and the reports service. The owners' history requests are answered by a
 * small responder serving `history` (what the streams no longer hold).
 */
export async function startReports(history: HistoryEvent[] = [], natsOpts: { port?: number; storeDir?: string } = {}): Promise<Stack> {
  const [mongo, nats] = await Promise.all([startMongo(), startNats(natsOpts)]);
  const nc = await connect({ servers: nats.url, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
  const jsm = await nc.jetstreamManager();
  for (const s of Object.values(EventStreams)) {
    await jsm.streams.add({ name: s.name, subjects: [...s.subjects], retention: RetentionPolicy.Limits, storage: StorageType.File, duplicate_window: s.duplicateWindowMs * 1_000_000 });
  }
  const codec = JSONCodec<{ id?: string; data?: { source?: string; after?: string | null } }>();
  for (const [domain, subject] of [
    ['sales', Subjects.sales.historyPage],
    ['inventory', Subjects.inventory.historyPage],
    ['ledger', Subjects.ledger.historyPage],
  ] as const) {
    nc.subscribe(subject, {
      callback: (_e, msg) => {
        const req = codec.decode(msg.data);
        // One page per source: the events of this domain for the first source asked, nothing after.
        const first = req.data?.source === { sales: 'sale', inventory: 'purchase', ledger: 'entry' }[domain] && !req.data?.after;
        const events = first ? history.filter((h) => h.subject.startsWith(`events.${domain}.`)) : [];
        msg.respond(JSONCodec().encode({ id: req.id, response: { events, next: null }, isDisposed: true }));
      },
    });
  }
  // identity's revocation list (every service's token check loads it).
  nc.subscribe(Subjects.identity.sessionRevocations, {
    callback: (_e, msg) => msg.respond(JSONCodec().encode({ id: codec.decode(msg.data).id, response: { revocations: [] }, isDisposed: true })),
  });
  await nc.flush();
  const svc = await startTestService(AppModule, { service: 'reports', mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: SECRET });
  const consumers = svc.app.get(Consumers);
  const js = nc.jetstream();
  return {
    mongo,
    nats,
    svc,
    nc,
    consumers,
    publish: async (subject, event, msgID) => {
      await js.publish(subject, JSONCodec().encode(event), { msgID: msgID ?? String(event.eventId) });
    },
    get: (path, token = tokenFor(1)) => request(svc.url).get(path).set('Authorization', `Bearer ${token}`),
    stop: async () => {
      await svc.close();
      await nc.close();
      await nats.stop();
      await mongo.stop();
    },
  };
}
