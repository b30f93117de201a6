import { connect, JSONCodec, type NatsConnection, type Subscription } from 'nats';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { nestEmit, nestRequest } from '@bahi/auth';
import { Subjects } from '@bahi/contracts';
import { startTestService, type TestService } from '../src/testing';
import { ProbeModule } from './probe.module';

// A NATS message is cleaned of bidi controls before its handler's pipes run, as an HTTP body is.
describe('bidi controls in NATS messages', () => {
  let mongo: MongoHandle;
  let nats: NatsHandle;
  let svc: TestService;
  let nc: NatsConnection;
  let identity: Subscription;

  beforeAll(async () => {
    [mongo, nats] = await Promise.all([startMongo(), startNats()]);
    nc = await connect({ servers: nats.url });
    const codec = JSONCodec<any>();
    identity = nc.subscribe(Subjects.identity.sessionRevocations, {
      callback: (_e, msg) => msg.respond(codec.encode({ id: codec.decode(msg.data).id, response: { revocations: [] }, isDisposed: true })),
    });
    await nc.flush();
    svc = await startTestService(ProbeModule, { service: 'inventory', mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: 'kit-text-secret-0123456789abcdefghij' });
  }, 60_000);
  afterAll(async () => {
    identity?.unsubscribe();
    await svc?.close();
    await nc?.close();
    await nats?.stop();
    await mongo?.stop();
  });

  it('the handler gets the message without them (its validation then passes), other text untouched', async () => {
    // Without the cleaning IsEmail refuses 'mira\u202E@a.local' (400); with it the handler echoes the clean address.
    const reply = await nestRequest<{ echo: string }>(nc, Subjects.identity.userLookup, { companyId: 1, email: 'mi\u202Era\u2069@a.local' });
    expect(reply.echo).toBe('mira@a.local');
    await expect(nestRequest(nc, Subjects.identity.userLookup, { companyId: 1, email: 'not an e-mail' })).rejects.toMatchObject({ status: 400 });
  });

  it('cleans NATS events as well (the handler hears the text without them)', async () => {
    nestEmit(nc, 'probe.event.heard', { name: 'Ra\u202Eju', note: ['a\u2066b'], password: 'p\u202Ew' });
    const end = Date.now() + 5000;
    let heard: unknown[] = [];
    while (Date.now() < end && !heard.length) {
      heard = (await (await fetch(`${svc.url}/probe/heard`)).json()) as unknown[];
      if (!heard.length) await new Promise((r) => setTimeout(r, 50));
    }
    // Passwords are compared as typed, never shown: they keep theirs.
    expect(heard).toEqual([{ name: 'Raju', note: ['ab'], password: 'p\u202Ew' }]);
  });
});
