import http from 'node:http';
import request from 'supertest';
import { connect, JSONCodec, type NatsConnection, type Subscription } from 'nats';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { nestEmit, nestRequest, newSessionId, Revoke, signToken } from '@bahi/auth';
import { FORCE_CHANGE_MESSAGE, REVOCATIONS_LOADING_MESSAGE, Subjects, type TokenSubject, UpstreamKeepAlive } from '@bahi/contracts';
import { startTestService, type TestService } from '../src/testing';
import { ProbeModule } from './probe.module';

const secret = 'kit-test-secret-0123456789abcdefghij';
const person = (over: Partial<TokenSubject> = {}): TokenSubject => ({
  sub: '1',
  uid: 1,
  name: 'Mira',
  email: 'mira@a.local',
  position: 'manager',
  companyId: 1,
  companyName: 'A',
  sid: newSessionId(),
  ...over,
});
const bearer = (s: TokenSubject) => `Bearer ${signToken(s, secret)}`;

async function eventually(fn: () => Promise<void>, ms = 5000) {
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

/** Stands in for identity's answer on identity.session.revocations (Nest's reply envelope). */
function answerRevocations(nc: NatsConnection): Subscription {
  const codec = JSONCodec<any>();
  return nc.subscribe(Subjects.identity.sessionRevocations, {
    callback: (_e, msg) => msg.respond(codec.encode({ id: codec.decode(msg.data).id, response: { revocations: [] }, isDisposed: true })),
  });
}

describe('service kit, wired like a real service', () => {
  let mongo: MongoHandle;
  let nats: NatsHandle;
  let svc: TestService;
  let nc: NatsConnection;
  let identity: Subscription;

  beforeAll(async () => {
    [mongo, nats] = await Promise.all([startMongo(), startNats()]);
    nc = await connect({ servers: nats.url });
    identity = answerRevocations(nc);
    await nc.flush();
    svc = await startTestService(ProbeModule, { service: 'inventory', mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: secret, natsTimeoutMs: 500 });
  });
  afterAll(async () => {
    identity?.unsubscribe();
    await nc?.close();
    await svc?.close();
    await nats?.stop();
    await mongo?.stop();
  });

  it('listens on loopback only: the gateway is the way in', () => {
    expect(svc.app.getHttpServer().address()).toMatchObject({ address: '127.0.0.1' });
  });

  it('keeps an idle connection open past the 5 s Node default, so the gateway is the one that ends it', async () => {
    expect(svc.app.getHttpServer().keepAliveTimeout).toBe(UpstreamKeepAlive.serviceMs);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<boolean>((ok, fail) => {
        const req = http.get(`${svc.url}/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => ok(req.reusedSocket));
        });
        req.on('error', fail);
      });
    try {
      expect(await get()).toBe(false);
      await new Promise((r) => setTimeout(r, 5500));
      // Still open: the second call goes on the same socket.
      expect(await get()).toBe(true);
    } finally {
      agent.destroy();
    }
  }, 15_000);

  it('answers /health with mongodb and nats up, without a token', async () => {
    const res = await request(svc.url).get('/health').expect(200);
    expect(res.body).toMatchObject({ status: 'ok', info: { mongodb: { status: 'up' }, nats: { status: 'up' } } });
  });

  it('refuses missing, invalid and expired tokens with 401', async () => {
    expect((await request(svc.url).get('/probe/me').expect(401)).body).toMatchObject({ statusCode: 401, message: expect.stringMatching(/token/) });
    await request(svc.url).get('/probe/me').set('Authorization', 'Bearer nope').expect(401);
    const expired = signToken(person(), secret, -5);
    expect((await request(svc.url).get('/probe/me').set('Authorization', `Bearer ${expired}`).expect(401)).body.message).toMatch(/expired/);
    await request(svc.url).get('/probe/me').set('Authorization', `Bearer ${signToken(person(), 'other')}`).expect(401);
  });

  it('puts the verified claims on the request; public routes need none', async () => {
    const res = await request(svc.url).get('/probe/me').set('Authorization', bearer(person())).expect(200);
    expect(res.body.user).toMatchObject({ uid: 1, companyId: 1, position: 'manager' });
    expect((await request(svc.url).get('/probe/public').expect(200)).body).toEqual({ ok: true, user: null });
    expect((await request(svc.url).get('/probe/public').set('Authorization', bearer(person({ uid: 9 }))).expect(200)).body.user).toBe(9);
  });

  it('enforces positions and the tenant', async () => {
    const res = await request(svc.url).get('/probe/manager').set('Authorization', bearer(person({ position: 'staff' }))).expect(403);
    expect(res.body.message).toBe('Only a manager can do this.');
    await request(svc.url).get('/probe/manager').set('Authorization', bearer(person())).expect(200);
    const admin = person({ position: 'admin', companyId: null, companyName: null });
    expect((await request(svc.url).get('/probe/product/1').set('Authorization', bearer(admin)).expect(403)).body.message).toMatch(/company/);
  });

  it('rejects a token once identity revokes it (session, user, company)', async () => {
    const s1 = person({ uid: 21 });
    const s2 = person({ uid: 22 });
    const s3 = person({ uid: 23, companyId: 7 });
    for (const s of [s1, s2, s3]) await request(svc.url).get('/probe/me').set('Authorization', bearer(s)).expect(200);
    nestEmit(nc, Subjects.identity.sessionRevoked, {
      revocations: [Revoke.session(s1.sid), Revoke.userBefore(22, Date.now() + 1000), Revoke.company(7)],
    });
    // A user cut-off in the future catches tokens signed right now too.
    await eventually(async () => {
      await request(svc.url).get('/probe/me').set('Authorization', bearer(s1)).expect(401);
      await request(svc.url).get('/probe/me').set('Authorization', bearer(s2)).expect(401);
      await request(svc.url).get('/probe/me').set('Authorization', bearer(s3)).expect(401);
    });
    // Another user of the same company is untouched.
    await request(svc.url).get('/probe/me').set('Authorization', bearer(person({ uid: 24 }))).expect(200);
  });

  it('lets a temporary password token make only the password change (403 with a sentence elsewhere)', async () => {
    const temp = bearer(person({ uid: 31, fc: true }));
    const refused = await request(svc.url).get('/probe/me').set('Authorization', temp).expect(403);
    expect(refused.body.message).toBe(FORCE_CHANGE_MESSAGE);
    await request(svc.url).post('/probe/things').set('Authorization', temp).send({ code: 'fc', qty: 1 }).expect(403);
    expect((await request(svc.url).post('/probe/password').set('Authorization', temp).expect(201)).body).toEqual({ changed: 31 });
    // The token after the change has no claim: everything opens.
    await request(svc.url).get('/probe/me').set('Authorization', bearer(person({ uid: 31 }))).expect(200);
  });

  it('carries an RpcException status and message across NATS', async () => {
    const auth = bearer(person());
    expect((await request(svc.url).get('/probe/product/12').set('Authorization', auth).expect(200)).body).toMatchObject({ productId: 12, companyId: 1 });
    const nf = await request(svc.url).get('/probe/product/404').set('Authorization', auth).expect(404);
    expect(nf.body).toMatchObject({ statusCode: 404, message: 'Product 404 not found.' });
    const boom = await request(svc.url).get('/probe/product/500').set('Authorization', auth).expect(500);
    expect(boom.body.message).toBe('Internal server error');
    expect(JSON.stringify(boom.body)).not.toMatch(/hunter2|at /);
  });

  it('times out a NATS request with 504', async () => {
    const res = await request(svc.url).get('/probe/product/999').set('Authorization', bearer(person())).expect(504);
    expect(res.body.message).toMatch(/No reply on inventory.product.lookup/);
  });

  it('answers 503 when no service listens on the subject', async () => {
    const res = await request(svc.url).get('/probe/nobody').set('Authorization', bearer(person())).expect(503);
    expect(res.body.message).toBe('No service is answering identity.company.details.');
  });

  it('validates NATS payloads with the global pipe (inheritAppConfig)', async () => {
    await expect(nestRequest(nc, Subjects.identity.userLookup, { companyId: 1, email: 'not-an-email' })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/email/) });
    await expect(nestRequest(nc, Subjects.identity.userLookup, { companyId: 1, email: 'a@b.in' })).resolves.toMatchObject({ echo: 'a@b.in' });
    const res = await request(svc.url).post('/probe/lookup').set('Authorization', bearer(person())).send({ companyId: 'x', email: 'a@b.in' }).expect(400);
    expect(res.body.message).toMatch(/companyId/);
  });

  it('validates an empty query as before once a class has accepted one: a new instance each call, other queries fully checked', async () => {
    const auth = bearer(person());
    for (let i = 0; i < 3; i++) {
      const res = await request(svc.url).get('/probe/optional-query').set('Authorization', auth).expect(200);
      // The handler changed the previous call's instance; this call's is its own, built as new.
      expect(res.body).toEqual({ note: null, instance: true, fresh: true });
    }
    expect((await request(svc.url).get('/probe/optional-query?note=hi').set('Authorization', auth).expect(200)).body.note).toBe('hi');
    expect((await request(svc.url).get('/probe/optional-query?note=toolong').set('Authorization', auth).expect(400)).body.message).toBe('note must be at most 5 characters.');
    expect((await request(svc.url).get('/probe/optional-query?extra=1').set('Authorization', auth).expect(400)).body.message).toMatch(/extra/);
    // A class that needs a field refuses an empty query every time.
    for (let i = 0; i < 2; i++) {
      expect((await request(svc.url).get('/probe/required-query').set('Authorization', auth).expect(400)).body.message).toMatch(/^q is required/);
    }
    expect((await request(svc.url).get('/probe/required-query?q=rice').set('Authorization', auth).expect(200)).body).toEqual({ q: 'rice' });
  });

  it('reads each route\'s public and position rules once, and keeps them apart per route', async () => {
    const staff = bearer(person({ position: 'staff' }));
    for (let i = 0; i < 2; i++) {
      await request(svc.url).get('/probe/manager').set('Authorization', staff).expect(403);
      await request(svc.url).get('/probe/public').expect(200);
      await request(svc.url).get('/probe/me').expect(401);
      await request(svc.url).get('/probe/me').set('Authorization', staff).expect(200);
    }
  });

  it('answers bad bodies with a 400 naming the field and stores nothing', async () => {
    const auth = bearer(person({ companyId: 3 }));
    const r1 = await request(svc.url).post('/probe/things').set('Authorization', auth).send({ code: '', qty: -1 }).expect(400);
    expect(r1.body.message).toMatch(/code/);
    expect(r1.body.message).toMatch(/qty/);
    const r2 = await request(svc.url).post('/probe/things').set('Authorization', auth).send({ code: 'a', qty: 1, companyId: 9 }).expect(400);
    expect(r2.body.message).toMatch(/Unknown field 'companyId'/);
    const r3 = await request(svc.url).post('/probe/things').set('Authorization', auth).set('Content-Type', 'application/json').send('{"code":').expect(400);
    expect(r3.body).toMatchObject({ statusCode: 400, message: 'The request body is not valid JSON.' });
    const r4 = await request(svc.url).get('/probe/things/not-an-id').set('Authorization', auth).expect(400);
    expect(r4.body.message).toMatch(/_id/);
    await request(svc.url).post('/probe/things').set('Authorization', auth).send({ code: 'a', qty: 1 }).expect(201);
    const dup = await request(svc.url).post('/probe/things').set('Authorization', auth).send({ code: 'a', qty: 2 }).expect(409);
    expect(dup.body.message).toBe('A record with this code already exists.');
    // Same code in another company is fine: tenancy is part of the key.
    await request(svc.url).post('/probe/things').set('Authorization', bearer(person({ companyId: 4 }))).send({ code: 'a', qty: 1 }).expect(201);
  });

  it('runs as several replicas: NATS work is shared and ids stay unique', async () => {
    // A second copy of the same service on the same database and NATS, as `--scale inventory=2` runs it.
    const second = await startTestService(ProbeModule, { service: 'inventory', mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: secret, dbName: svc.config.dbName, natsTimeoutMs: 500 });
    try {
      const servedBefore = async () => (await request(svc.url).get('/probe/served')).body.served + (await request(second.url).get('/probe/served')).body.served;
      const before = await servedBefore();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => nestRequest<{ productId: number; replica: string }>(nc, Subjects.inventory.productLookup, { companyId: 1, code: String(100 + i) })),
      );
      // Every request answered once, by one replica of the queue group; both replicas took a share.
      expect(answers.map((a) => a.productId)).toEqual(Array.from({ length: 40 }, (_, i) => 100 + i));
      expect(new Set(answers.map((a) => a.replica)).size).toBe(2);
      expect((await servedBefore()) - before).toBe(40);
      // Sequences kept in the database: ids from either replica never collide.
      const c = bearer(person({ companyId: 21 }));
      const ids = await Promise.all(
        Array.from({ length: 10 }, (_, i) => request(i % 2 ? second.url : svc.url).post('/probe/seq').set('Authorization', c).send({ name: 'sale' })),
      );
      expect(ids.map((r) => r.body.id).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      // Ids from blocks (cart lines): more than two blocks' worth from both replicas at once, all distinct.
      const lines = await Promise.all(
        Array.from({ length: 250 }, (_, i) => request(i % 2 ? second.url : svc.url).post('/probe/unique').set('Authorization', c).send({ name: 'line' })),
      );
      const lineIds = lines.map((r) => r.body.id as number);
      expect(lineIds.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
      expect(new Set(lineIds).size).toBe(250);
    } finally {
      await second.close();
    }
  });

  it('hands out sequential ids per company', async () => {
    const a = bearer(person({ companyId: 11 }));
    const b = bearer(person({ companyId: 12 }));
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await request(svc.url).post('/probe/seq').set('Authorization', a).send({ name: 'sale' })).body.id);
    expect(ids).toEqual([1, 2, 3]);
    expect((await request(svc.url).post('/probe/seq').set('Authorization', b).send({ name: 'sale' })).body.id).toBe(1);
    expect((await request(svc.url).post('/probe/seq').set('Authorization', a).send({ name: 'product' })).body.id).toBe(1);
    const parallel = await Promise.all(
      Array.from({ length: 8 }, () => request(svc.url).post('/probe/seq').set('Authorization', b).send({ name: 'sale' })),
    );
    expect(parallel.map((r) => r.body.id).sort((x, y) => x - y)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    // A reservation takes consecutive ids in one step; the series goes on after it.
    expect((await request(svc.url).post('/probe/reserve').set('Authorization', b).send({ name: 'sale' })).body.first).toBe(10);
    expect((await request(svc.url).post('/probe/seq').set('Authorization', b).send({ name: 'sale' })).body.id).toBe(13);
  });
});

describe('service kit before identity answers the revoked sessions', () => {
  let mongo: MongoHandle;
  let nats: NatsHandle;
  let svc: TestService;
  let nc: NatsConnection;

  beforeAll(async () => {
    [mongo, nats] = await Promise.all([startMongo(), startNats()]);
    nc = await connect({ servers: nats.url });
  });
  afterAll(async () => {
    await svc?.close();
    await nc?.close();
    await nats?.stop();
    await mongo?.stop();
  });

  it('answers 503 with a sentence and is not ready until the list has loaded, then serves', async () => {
    // Nobody answers identity.session.revocations yet.
    svc = await startTestService(ProbeModule, { service: 'inventory', mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: secret, natsTimeoutMs: 500 });
    const early = await request(svc.url).get('/probe/me').set('Authorization', bearer(person())).expect(503);
    expect(early.body.message).toBe(REVOCATIONS_LOADING_MESSAGE);
    expect(early.headers['retry-after']).toBe('5');
    const health = await request(svc.url).get('/health').expect(503);
    expect(health.body.error).toMatchObject({ revocations: { status: 'down' } });
    // Public routes still answer, as if no token was sent.
    expect((await request(svc.url).get('/probe/public').set('Authorization', bearer(person({ uid: 9 }))).expect(200)).body.user).toBeNull();

    const identity = answerRevocations(nc);
    await nc.flush();
    try {
      await eventually(async () => {
        await request(svc.url).get('/probe/me').set('Authorization', bearer(person())).expect(200);
      });
      expect((await request(svc.url).get('/health').expect(200)).body.info).toMatchObject({ revocations: { status: 'up' } });
    } finally {
      identity.unsubscribe();
    }
  });
});
