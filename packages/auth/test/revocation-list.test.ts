import { connect, JSONCodec, type NatsConnection } from 'nats';
import { startNats, type NatsHandle } from '@bahi/devstack/src/nats';
import { Subjects, type Revocation, type TokenClaims } from '@bahi/contracts';
import { nestEmit, RevocationList, Revoke } from '../src';

const codec = JSONCodec<any>();
const claims = (over: Partial<TokenClaims> = {}) => ({ sid: 's1', uid: 1, companyId: 10, iat: Math.floor(Date.now() / 1000), ...over });

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('RevocationList', () => {
  let nats: NatsHandle;
  let nc: NatsConnection;
  let identity: NatsConnection;

  beforeAll(async () => {
    nats = await startNats();
    nc = await connect({ servers: nats.url });
    identity = await connect({ servers: nats.url });
  });
  afterAll(async () => {
    await nc.close();
    await identity.close();
    await nats.stop();
  });

  it('matches by session, by user cut-off and by company, and forgets expired entries', () => {
    let now = Date.now();
    const list = new RevocationList({ now: () => now });
    const t = Math.floor(now / 1000);
    list.apply([
      Revoke.session('gone', undefined, now),
      Revoke.userBefore(2, now),
      Revoke.company(30, now),
    ]);
    expect(list.isRevoked(claims({ sid: 'gone' }))).toBe(true);
    expect(list.isRevoked(claims({ sid: 'other' }))).toBe(false);
    expect(list.isRevoked(claims({ uid: 2, iat: t - 5 }))).toBe(true);
    expect(list.isRevoked(claims({ uid: 2, iat: t + 1 }))).toBe(false);
    expect(list.isRevoked(claims({ companyId: 30 }))).toBe(true);
    expect(list.isRevoked(claims({ companyId: null }))).toBe(false);
    now += 24 * 3600 * 1000 + 1;
    expect(list.isRevoked(claims({ sid: 'gone' }))).toBe(false);
    expect(list.entries()).toEqual([]);
  });

  it('keeps retrying until identity answers, then follows revocation events', async () => {
    const list = new RevocationList({ retryMs: 100, requestTimeoutMs: 300 });
    await list.start(nc); // nobody answers yet
    expect(list.loaded).toBe(false);

    // A stand-in for identity answering with Nest's reply envelope.
    const known: Revocation[] = [Revoke.session('early')];
    const sub = identity.subscribe(Subjects.identity.sessionRevocations, {
      callback: (_e, msg) => {
        const req = codec.decode(msg.data);
        msg.respond(codec.encode({ id: req.id, response: { revocations: known }, isDisposed: true }));
      },
    });
    await identity.flush();
    await until(() => list.loaded);
    expect(list.isRevoked(claims({ sid: 'early' }))).toBe(true);

    // Events, Nest-wrapped or plain, reach the list.
    nestEmit(identity, Subjects.identity.sessionRevoked, { revocations: [Revoke.session('late')] });
    identity.publish(Subjects.identity.sessionRevoked, codec.encode({ revocations: [Revoke.company(99)] }));
    await until(() => list.isRevoked(claims({ sid: 'late' })) && list.isRevoked(claims({ companyId: 99 })));

    list.revokeLocally(Revoke.session('local'));
    expect(list.isRevoked(claims({ sid: 'local' }))).toBe(true);
    list.stop();
    sub.unsubscribe();
  });

  it('is loaded once the complete list is applied from its source (identity)', () => {
    const list = new RevocationList();
    list.apply([Revoke.session('partial')]);
    expect(list.loaded).toBe(false);
    list.applyAll([Revoke.session('whole')]);
    expect(list.loaded).toBe(true);
    expect(list.isRevoked(claims({ sid: 'whole' }))).toBe(true);
  });

  it('every replica hears every event (no queue group)', async () => {
    const sub = identity.subscribe(Subjects.identity.sessionRevocations, {
      callback: (_e, msg) => msg.respond(codec.encode({ response: { revocations: [] } })),
    });
    await identity.flush();
    const a = new RevocationList();
    const b = new RevocationList();
    await a.start(nc);
    await b.start(nc);
    nestEmit(identity, Subjects.identity.sessionRevoked, { revocations: [Revoke.userBefore(5, Date.now() + 2000)] });
    const fresh = claims({ uid: 5 });
    await until(() => a.isRevoked(fresh) && b.isRevoked(fresh));
    a.stop();
    b.stop();
    sub.unsubscribe();
  });
});
