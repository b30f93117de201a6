import { spawnSync } from 'node:child_process';
import os from 'node:os';
import request from 'supertest';
import { connect, JSONCodec } from 'nats';
import type { Connection, mongo } from 'mongoose';
import { getConnectionToken } from '@nestjs/mongoose';
import { Subjects } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '../src/testing';
import { EventRelay, EVENT_PENDING_FIELD, RELAY_COMMENT } from '../src/events';
import { NoDatabaseProbeModule, SagaProbeModule, Remote, tallySaga, TallyService } from './saga.probe';

const secret = 'saga-test-secret-0123456789abcdef';

/** The pid of a process that ran on this host and has exited (reaped): an owner known dead. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  if (!r.pid) throw new Error('no child process');
  return r.pid;
}

/** Polls `check` every 20 ms until it holds (10 s at most). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (await check()) return;
  throw new Error('the state never came');
}

describe('Saga: one business fact across services, all or nothing', () => {
  let mongo: MongoHandle;
  let nats: NatsHandle;
  let svc: TestService;
  let tally: TallyService;
  let remote: Remote;
  let next = 1;

  beforeAll(async () => {
    [mongo, nats] = await Promise.all([startMongo(), startNats()]);
    // monitorCommands: the driver reports every command it sends (the tests that count a record's commands).
    const mongoUri = `${mongo.uri.replace(/\/?$/, '/')}?monitorCommands=true`;
    svc = await startTestService(SagaProbeModule, { service: 'inventory', mongoUri, natsUrl: nats.url, jwtSecret: secret, natsTimeoutMs: 1000 });
    tally = svc.app.get(TallyService);
    remote = svc.app.get(Remote);
    // The tests re-drive by hand; the timer would race the replica test.
    tally.saga.stop();
  });
  afterAll(async () => {
    await svc?.close();
    await nats?.stop();
    await mongo?.stop();
  });
  beforeEach(() => {
    remote.failPost = false;
    remote.failUndo = false;
    remote.slowApplyMs = 0;
    remote.failFinish = false;
    remote.holdApply = null;
    remote.holdFinish = null;
    remote.ownMark = false;
    remote.guardedMark = false;
  });

  /**
   * The commands `work` sends to the records' collection, in order (name and the first filter),
   * leaving out lease renewals (the heartbeat's updateMany, which comes when it comes).
   */
  async function commandsOf(work: () => Promise<unknown>): Promise<{ name: string; q?: mongo.Document; set?: mongo.Document; comment?: unknown }[]> {
    const client = svc.app.get<Connection>(getConnectionToken()).getClient();
    const sent: { name: string; q?: mongo.Document; set?: mongo.Document; comment?: unknown }[] = [];
    const listen = (e: mongo.CommandStartedEvent) => {
      const c = e.command as mongo.Document;
      if (c[e.commandName] !== 'tallies') return;
      const u = c.updates?.[0];
      if (u?.multi) return;
      sent.push({ name: e.commandName, q: u?.q ?? c.query ?? c.filter, set: u?.u?.$set ?? c.update?.$set, comment: c.comment });
    };
    client.on('commandStarted', listen);
    try {
      await work();
    } finally {
      client.off('commandStarted', listen);
    }
    return sent;
  }

  it('runs the steps, completes and replays the same answer for the same key', async () => {
    const id = next++;
    expect(await tally.count(1, id, 'k-once')).toEqual({ tallyId: id });
    const doc = await tally.model.findOne({ tallyId: id }).lean();
    expect(doc).toMatchObject({ status: 'complete', idempotencyKey: 'k-once', stockApplied: true, ledgerPosted: true });
    const calls = { ...remote.calls };
    expect(await tally.count(1, next++, 'k-once')).toEqual({ tallyId: id });
    expect(remote.calls).toEqual(calls);
    // The key is per company.
    expect(await tally.count(2, id, 'k-once')).toEqual({ tallyId: id });
    expect(await tally.model.countDocuments({ idempotencyKey: 'k-once' })).toBe(2);
  });

  it('stores a record cast by its schema, as mongoose would: a value of the wrong type is refused and nothing is stored', async () => {
    const id = next++;
    const record = { companyId: 1, tallyId: id, status: 'pending' as const, idempotencyKey: 'k-cast', lockedUntil: tally.saga.lease(), stockApplied: false, ledgerPosted: false, warnings: [] };
    await expect(tally.saga.run({ ...record, amount: { not: 'a string' } as never })).rejects.toMatchObject({ name: 'ValidationError' });
    expect(await tally.model.countDocuments({ tallyId: id })).toBe(0);
    expect(await tally.saga.run({ ...record, amount: 12 as never, extra: 'dropped' } as never)).toEqual({ tallyId: id });
    const stored = await tally.model.collection.findOne({ tallyId: id });
    expect(stored).toMatchObject({ amount: '12', status: 'complete' });
    expect(stored).not.toHaveProperty('extra');
  });

  it('a double click (two requests with one key at once) makes one record and one answer', async () => {
    remote.slowApplyMs = 300;
    const [a, b] = await Promise.all([tally.count(1, next++, 'k-double'), tally.count(1, next++, 'k-double')]);
    expect(a).toEqual(b);
    expect(await tally.model.countDocuments({ companyId: 1, idempotencyKey: 'k-double' })).toBe(1);
  });

  // Issue 33: a sale cost 33 commands; these are the record's own.
  describe('the commands of one record', () => {
    it('a first attempt: its insert, its progress, the point of no return (guarded, renewing the lease: no fence after it), complete; no lookup', async () => {
      const id = next++;
      const sent = await commandsOf(() => tally.first(1, id, 'k-cost'));
      expect(sent.map((c) => c.name)).toEqual(['insert', 'update', 'update', 'update']);
      const stored = (await tally.model.findOne({ tallyId: id }).lean())!;
      expect(stored).toMatchObject({ status: 'complete', stockApplied: true, ledgerPosted: true });
      // The point of no return: written only while pending and this attempt's, the lease renewed with it.
      expect(sent[2]).toMatchObject({ q: { companyId: 1, tallyId: id, status: 'pending', owner: expect.any(String) }, set: { ledgerPosted: true, lockedUntil: expect.any(Date) } });
      expect(sent[3]).toMatchObject({ q: { status: 'pending', owner: sent[2]!.q!.owner }, set: { status: 'complete' } });
    });

    it('the same when the step writes the point itself through passNoReturn (as a GST number is): guarded, no fence', async () => {
      remote.guardedMark = true;
      const id = next++;
      const sent = await commandsOf(() => tally.first(1, id, 'k-cost-own'));
      expect(sent.map((c) => c.name)).toEqual(['insert', 'update', 'update', 'update']);
      expect(sent[2]).toMatchObject({ q: { tallyId: id, status: 'pending', owner: expect.any(String) }, set: { ledgerPosted: true, lockedUntil: expect.any(Date) } });
      expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'complete', ledgerPosted: true });
    });

    it('a step writing the point with an unguarded update of its own is still fenced before finish', async () => {
      remote.ownMark = true;
      const id = next++;
      const sent = await commandsOf(() => tally.first(1, id, 'k-cost-raw'));
      expect(sent.map((c) => c.name)).toEqual(['insert', 'update', 'update', 'update', 'update']);
      expect(sent[3]).toMatchObject({ q: { tallyId: id, status: 'pending', ledgerPosted: true, owner: expect.any(String) }, set: { lockedUntil: expect.any(Date) } });
    });

    it('a take-over past the point of no return is still fenced before finish: the key found taken, the record claimed, fenced, completed', async () => {
      const id = next++;
      remote.stock.set(id, 1);
      remote.entries.add(id);
      const dead = `${deadPid()}@${os.hostname()}#a1b2c3d4`;
      await tally.model.create({ companyId: 1, tallyId: id, status: 'pending', idempotencyKey: 'k-cost-take', owner: dead, lockedUntil: new Date(Date.now() + 60_000), stockApplied: true, ledgerPosted: true, warnings: [], amount: '10' });
      const before = { ...remote.calls };
      const sent = await commandsOf(async () => expect(await tally.first(1, next++, 'k-cost-take')).toEqual({ tallyId: id }));
      expect(sent.map((c) => c.name)).toEqual(['insert', 'find', 'findAndModify', 'update', 'update']);
      const owner = sent[2]!.set!.owner;
      expect(owner).not.toBe(dead);
      expect(sent[3]).toMatchObject({ q: { tallyId: id, status: 'pending', ledgerPosted: true, owner }, set: { lockedUntil: expect.any(Date) } });
      expect(remote.calls).toEqual({ ...before, finish: before.finish + 1, completed: before.completed + 1 });
    });
  });

  it('with a relay: complete hands the record as its write stored it (_id, evt, the schema-cast fields) to the relay, which publishes it without a lookup', async () => {
    const nc = await connect({ servers: nats.url });
    const handed: Record<string, unknown>[] = [];
    const relay = new EventRelay({
      nc,
      stream: { name: 'BAHI_TALLY_TEST', subjects: ['events.tally.>'], owner: 'sales', maxAgeDays: 1, maxBytes: 1024 ** 2, duplicateWindowMs: 60_000 },
      sources: [{
        name: 'tally', collection: tally.model.collection as never, complete: { status: 'complete' },
        toEvents: ((d: Record<string, unknown>) => {
          handed.push(d);
          return [{ subject: 'events.tally.counted', event: { eventId: `tally:${String(d.tallyId)}`, companyId: d.companyId, amount: d.amount } }];
        }) as never,
      }],
      log: tally.log,
      kickDelayMs: 0,
    });
    try {
      const saga = tallySaga(tally.model, tally.nats, remote, tally.log, 2000, undefined, relay.forSource('tally'));
      const id = next++;
      // amount given as a number: the schema stores it as a string, and that is what is published.
      const sent = await commandsOf(async () => {
        expect(await saga.run({ ...tally.record(1, id, 'k-relay'), amount: 12 as never })).toEqual({ tallyId: id });
        await relay.drain();
      });
      // The last write is the relay clearing `evt`; nothing looked the record up.
      expect(sent.map((c) => c.name)).toEqual(['insert', 'update', 'update', 'findAndModify', 'update']);
      expect(sent[4]).toMatchObject({ comment: RELAY_COMMENT });
      expect(sent[3]).toMatchObject({ q: { tallyId: id, status: 'pending' }, set: { status: 'complete', [EVENT_PENDING_FIELD]: expect.any(String) } });
      expect(handed).toEqual([expect.objectContaining({ _id: expect.anything(), tallyId: id, status: 'complete', amount: '12', [EVENT_PENDING_FIELD]: sent[3]!.set![EVENT_PENDING_FIELD] })]);
      expect(handed[0]).not.toHaveProperty('owner');
      expect(relay.published).toBe(1);
      const stored = (await tally.model.collection.findOne({ tallyId: id }))!;
      expect(stored).toMatchObject({ status: 'complete', amount: '12' });
      expect(stored).not.toHaveProperty(EVENT_PENDING_FIELD);
      const jsm = await nc.jetstreamManager();
      const m = await jsm.streams.getMessage('BAHI_TALLY_TEST', { last_by_subj: 'events.tally.counted' });
      expect(JSONCodec().decode(m.data)).toEqual({ eventId: `tally:${id}`, companyId: 1, amount: '12' });
    } finally {
      await relay.stop();
      await nc.close();
    }
  });

  describe('the key found taken by the insert (no lookup first)', () => {
    it('a retry of a completed record answers it and runs no step again', async () => {
      const id = next++;
      expect(await tally.first(1, id, 'k-ins-done')).toEqual({ tallyId: id });
      const calls = { ...remote.calls };
      const unused = next++;
      expect(await tally.first(1, unused, 'k-ins-done')).toEqual({ tallyId: id });
      expect(remote.calls).toEqual(calls);
      expect(await tally.model.countDocuments({ tallyId: unused })).toBe(0);
    });

    it('a double click: both inserts race, one record is driven once and both answer it', async () => {
      remote.slowApplyMs = 300;
      const before = { ...remote.calls };
      const [a, b] = [next++, next++];
      const [ra, rb] = await Promise.all([tally.first(1, a, 'k-ins-dbl'), tally.first(1, b, 'k-ins-dbl')]);
      expect(ra).toEqual(rb);
      expect([a, b]).toContain(ra.tallyId);
      expect(await tally.model.countDocuments({ companyId: 1, idempotencyKey: 'k-ins-dbl' })).toBe(1);
      expect(await tally.model.countDocuments({ tallyId: { $in: [a, b] } })).toBe(1);
      expect(remote.calls).toEqual({ ...before, apply: before.apply + 1, post: before.post + 1, finish: before.finish + 1, completed: before.completed + 1 });
    });

    it('an earlier attempt whose undo stalled: the retry finishes the undo and starts afresh with its own record', async () => {
      remote.failPost = true;
      remote.failUndo = true;
      const id = next++;
      await expect(tally.first(1, id, 'k-ins-back')).rejects.toMatchObject({ message: expect.stringMatching(/It will be undone automatically\.$/) });
      remote.failPost = false;
      remote.failUndo = false;
      const again = next++;
      expect(await tally.first(1, again, 'k-ins-back')).toEqual({ tallyId: again });
      expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'failed', failedKey: 'k-ins-back' });
      expect(remote.stock.has(id)).toBe(false);
      expect(remote.stock.has(again) && remote.entries.has(again)).toBe(true);
    });

    it('a record whose id is taken under another key is an error, not a retry', async () => {
      const id = next++;
      expect(await tally.first(1, id, 'k-ins-id-a')).toEqual({ tallyId: id });
      const calls = { ...remote.calls };
      await expect(tally.first(1, id, 'k-ins-id-b')).rejects.toMatchObject({ code: 11000 });
      expect(remote.calls).toEqual(calls);
      expect(await tally.model.countDocuments({ companyId: 1, idempotencyKey: 'k-ins-id-b' })).toBe(0);
    });
  });

  it('a failing step undoes what was applied, answers clearly and frees the key', async () => {
    remote.failPost = true;
    const id = next++;
    await expect(tally.count(1, id, 'k-fail')).rejects.toMatchObject({ status: 409, message: 'The tally could not be completed (the ledger refused). Nothing was counted.' });
    expect(remote.stock.has(id)).toBe(false);
    const doc = await tally.model.findOne({ tallyId: id }).lean();
    expect(doc).toMatchObject({ status: 'failed', failedKey: 'k-fail', stockApplied: false, ledgerPosted: false, error: 'the ledger refused' });
    expect(doc?.idempotencyKey).toBeUndefined();
    remote.failPost = false;
    const again = next++;
    expect(await tally.count(1, again, 'k-fail')).toEqual({ tallyId: again });
  });

  it('an undo that cannot reach a service is left to the re-driver, which finishes it', async () => {
    remote.failPost = true;
    remote.failUndo = true;
    const id = next++;
    await expect(tally.count(1, id, 'k-later')).rejects.toMatchObject({ message: expect.stringMatching(/It will be undone automatically\.$/) });
    expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'compensating', lockedUntil: new Date(0) });
    await expect(tally.count(1, next++, 'k-later')).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/being undone/) });
    remote.failUndo = false;
    expect(await tally.saga.redrive()).toBeGreaterThanOrEqual(1);
    expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'failed', failedKey: 'k-later' });
    expect(remote.stock.has(id)).toBe(false);
  });

  it('a retry after the service is back finishes the stalled undo itself and starts afresh', async () => {
    remote.failPost = true;
    remote.failUndo = true;
    const id = next++;
    await expect(tally.count(1, id, 'k-back')).rejects.toMatchObject({ message: expect.stringMatching(/It will be undone automatically\.$/) });
    remote.failPost = false;
    remote.failUndo = false;
    const again = next++;
    expect(await tally.count(1, again, 'k-back')).toEqual({ tallyId: again });
    expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'failed', failedKey: 'k-back' });
    expect(remote.stock.has(id)).toBe(false);
    expect(remote.stock.has(again)).toBe(true);
  });

  it('the re-driver undoes a crashed record and finishes one past its point of no return', async () => {
    const crashed = next++;
    const late = next++;
    const base = { companyId: 1, status: 'pending' as const, lockedUntil: new Date(Date.now() - 1000), warnings: [], amount: '10' };
    remote.stock.set(crashed, 1);
    remote.stock.set(late, 1);
    remote.entries.add(late);
    await tally.model.create({ ...base, tallyId: crashed, idempotencyKey: 'k-crash', stockApplied: true, ledgerPosted: false });
    await tally.model.create({ ...base, tallyId: late, idempotencyKey: 'k-late', stockApplied: true, ledgerPosted: true });
    const finished = remote.calls.finish;
    await tally.saga.redrive();
    expect(await tally.model.findOne({ tallyId: crashed }).lean()).toMatchObject({ status: 'failed', failedKey: 'k-crash', error: 'the tally was interrupted' });
    expect(remote.stock.has(crashed)).toBe(false);
    expect(await tally.model.findOne({ tallyId: late }).lean()).toMatchObject({ status: 'complete', idempotencyKey: 'k-late' });
    expect(remote.stock.has(late) && remote.entries.has(late)).toBe(true);
    expect(remote.calls.finish).toBe(finished + 1);
    // A retry of the crashed-late record's key gets its answer.
    expect(await tally.count(1, next++, 'k-late')).toEqual({ tallyId: late });
  });

  it('a re-driver that took over a record the first attempt then completed undoes nothing', async () => {
    // The interleaving seen under load: the lease ran out while the first attempt was still
    // working, a re-driver claimed the pending record, the first attempt completed it, and the
    // re-driver went on to undo what it had seen as pending.
    const id = next++;
    expect(await tally.count(1, id, 'k-raced')).toEqual({ tallyId: id });
    const seenPending = { ...(await tally.model.findOne({ tallyId: id }).lean())!, status: 'pending' as const, ledgerPosted: false };
    const replica = tallySaga(tally.model, tally.nats, remote, tally.log, 2000);
    expect(await replica.compensate(seenPending as never, 'the tally was interrupted')).toBe(false);
    expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'complete', idempotencyKey: 'k-raced' });
    expect(remote.stock.has(id) && remote.entries.has(id)).toBe(true);
  });

  // Issue 27: a purchase whose cart was emptied was then undone, and its retry answered
  // "cart is emplty!!". The three ways a record past its point of no return was undone:
  it('a step after the point of no return that fails (its reply lost) is never undone: the same key finishes it', async () => {
    remote.failFinish = true;
    const id = next++;
    await expect(tally.count(1, id, 'k-finish')).rejects.toMatchObject({
      status: 503,
      message: `Tally ${id} is recorded but its last step failed (an internal error); it will be finished automatically. Send it again to see it.`,
    });
    expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'pending', idempotencyKey: 'k-finish', ledgerPosted: true, lockedUntil: new Date(0) });
    expect(remote.stock.has(id) && remote.entries.has(id)).toBe(true);
    remote.failFinish = false;
    const finished = remote.calls.finish;
    // The retry answers the first record, not a new one.
    expect(await tally.count(1, next++, 'k-finish')).toEqual({ tallyId: id });
    expect(remote.calls.finish).toBe(finished + 1);
    expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'complete', idempotencyKey: 'k-finish' });
    expect(await tally.model.countDocuments({ companyId: 1, $or: [{ idempotencyKey: 'k-finish' }, { failedKey: 'k-finish' }] })).toBe(1);
  });

  it('a re-driver that saw the record before its point of no return cannot undo it once the attempt passed it', async () => {
    const id = next++;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The attempt stops inside its finish (the cart being emptied), past the point of no return.
    remote.holdFinish = gate;
    const running = tally.count(1, id, 'k-seen-early');
    await until(async () => (await tally.model.findOne({ tallyId: id }).lean())?.ledgerPosted === true);
    // What a re-driver read before the mark: pending, nothing posted.
    const seenEarly = { ...(await tally.model.findOne({ tallyId: id }).lean())!, ledgerPosted: false };
    const replica = tallySaga(tally.model, tally.nats, remote, tally.log, 2000);
    expect(await replica.compensate(seenEarly as never, 'the tally was interrupted')).toBe(false);
    release();
    expect(await running).toEqual({ tallyId: id });
    expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'complete', idempotencyKey: 'k-seen-early' });
    expect(remote.stock.has(id) && remote.entries.has(id)).toBe(true);
  });

  it('an attempt whose lease ran out and that a re-driver undid stops before its point of no return', async () => {
    const id = next++;
    let release!: () => void;
    remote.holdApply = new Promise<void>((r) => (release = r));
    const finished = remote.calls.finish;
    const running = tally.count(1, id, 'k-overtaken', tally.stalled).then(
      (v) => ({ v }),
      (err: unknown) => ({ err }),
    );
    // The attempt (an owner that stalls: no renewal) waits after its stock step until its lease (2 s) has run out.
    await until(async () => (await tally.model.findOne({ tallyId: id }).lean())?.stockApplied === true);
    await until(async () => ((await tally.model.findOne({ tallyId: id }).lean())?.lockedUntil.getTime() ?? Infinity) < Date.now());
    expect(await tally.saga.redrive()).toBeGreaterThanOrEqual(1);
    expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'failed', failedKey: 'k-overtaken' });
    release();
    const first = await running;
    expect(first).toMatchObject({ err: { status: 409, message: expect.stringMatching(/taken over and undone while it ran/) } });
    // Its finish (emptying the cart) never ran and nothing stayed applied.
    expect(remote.calls.finish).toBe(finished);
    expect(remote.stock.has(id) || remote.entries.has(id)).toBe(false);
    expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'failed', ledgerPosted: false });
    // The same key again starts afresh (the cart is still there).
    const again = next++;
    expect(await tally.count(1, again, 'k-overtaken')).toEqual({ tallyId: again });
  });

  it.each([
    { how: 'written by the step itself (a GST number): the fence stops it', mark: 'ownMark', call: 'count', key: 'k-own-mark', failed: {} },
    { how: 'written by the step through passNoReturn: its guarded write stops it', mark: 'guardedMark', call: 'first', key: 'k-guarded-mark', failed: { ledgerPosted: false } },
  ] as const)('the same when the point of no return is $how before finish', async ({ mark, call, key, failed }) => {
    const id = next++;
    let release!: () => void;
    remote[mark] = true;
    remote.holdApply = new Promise<void>((r) => (release = r));
    const finished = remote.calls.finish;
    const running = tally[call](1, id, key, tally.stalled).then(
      (v) => ({ v }),
      (err: unknown) => ({ err }),
    );
    await until(async () => (await tally.model.findOne({ tallyId: id }).lean())?.stockApplied === true);
    await until(async () => ((await tally.model.findOne({ tallyId: id }).lean())?.lockedUntil.getTime() ?? Infinity) < Date.now());
    expect(await tally.saga.redrive()).toBeGreaterThanOrEqual(1);
    release();
    expect(await running).toMatchObject({ err: { status: 409, message: expect.stringMatching(/taken over and undone while it ran/) } });
    expect(remote.calls.finish).toBe(finished);
    expect(remote.stock.has(id) || remote.entries.has(id)).toBe(false);
    expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'failed', failedKey: key, ...failed });
  });

  // A sale left past its point of no return by a killed replica is finished by the retry itself
  // (the load test's retries answered 503 for 30-38 s after the kill: the retry waited for the
  // lease, 30 s then, and ran the forward steps again).
  describe('taking over from a dead owner', () => {
    /** A record past its point of no return, as an owner left it: stock out, entry posted, not finished. */
    async function leftBehind(id: number, key: string, owner: string, lockedUntil: Date) {
      remote.stock.set(id, 1);
      remote.entries.add(id);
      await tally.model.create({ companyId: 1, tallyId: id, status: 'pending', idempotencyKey: key, owner, lockedUntil, stockApplied: true, ledgerPosted: true, warnings: [], amount: '10' });
    }

    it('a retry finishes at once a record whose owner process is gone, though its lease is still live, and runs no forward step again', async () => {
      const id = next++;
      await leftBehind(id, 'k-dead-pid', `${deadPid()}@${os.hostname()}#a1b2c3d4`, new Date(Date.now() + 60_000));
      const before = { ...remote.calls };
      const t0 = Date.now();
      expect(await tally.count(1, next++, 'k-dead-pid')).toEqual({ tallyId: id });
      // Well within the lease (60 s): the owner's death was seen, not waited out.
      expect(Date.now() - t0).toBeLessThan(2000);
      expect(remote.calls).toEqual({ ...before, finish: before.finish + 1, completed: before.completed + 1 });
      const doc = await tally.model.findOne({ tallyId: id }).lean();
      expect(doc).toMatchObject({ status: 'complete', idempotencyKey: 'k-dead-pid' });
      expect(doc).not.toHaveProperty('owner');
    });

    it('a retry takes over a record whose lease expired (owner on another host) and finishes it', async () => {
      const id = next++;
      await leftBehind(id, 'k-expired', '4242@another-host#a1b2c3d4', new Date(Date.now() - 1));
      const before = { ...remote.calls };
      expect(await tally.count(1, next++, 'k-expired')).toEqual({ tallyId: id });
      expect(remote.calls).toEqual({ ...before, finish: before.finish + 1, completed: before.completed + 1 });
      expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'complete' });
    });

    it('no take-over while the owner renews its lease: past the first lease the re-driver takes nothing and a retry waits for its result', async () => {
      const id = next++;
      let release!: () => void;
      remote.holdFinish = new Promise<void>((r) => (release = r));
      const before = { ...remote.calls };
      const running = tally.count(1, id, 'k-live');
      await until(async () => (await tally.model.findOne({ tallyId: id }).lean())?.ledgerPosted === true);
      const { owner, lockedUntil } = (await tally.model.findOne({ tallyId: id }).lean())!;
      // The owner works for 1.5 leases (2 s each); another replica's re-driver looks meanwhile.
      await new Promise((r) => setTimeout(r, 3000));
      const replica = tallySaga(tally.model, tally.nats, remote, tally.log, 2000);
      expect(await replica.redrive()).toBe(0);
      const now = (await tally.model.findOne({ tallyId: id }).lean())!;
      expect(now).toMatchObject({ status: 'pending', owner });
      expect(now.lockedUntil.getTime()).toBeGreaterThan(lockedUntil.getTime());
      expect(now.lockedUntil.getTime()).toBeGreaterThan(Date.now());
      // A retry on that replica waits for the owner, then answers its record.
      const retry = tally.count(1, next++, 'k-live', replica);
      await new Promise((r) => setTimeout(r, 300));
      expect(remote.calls.finish).toBe(before.finish);
      release();
      expect(await running).toEqual({ tallyId: id });
      expect(await retry).toEqual({ tallyId: id });
      expect(remote.calls).toEqual({ ...before, apply: before.apply + 1, post: before.post + 1, finish: before.finish + 1, completed: before.completed + 1 });
    });

    it('a live owner that does not finish within a lease and a renewal: the retry answers 503 with a sentence and changes nothing', async () => {
      const id = next++;
      let release!: () => void;
      remote.holdFinish = new Promise<void>((r) => (release = r));
      const running = tally.count(1, id, 'k-slow');
      await until(async () => (await tally.model.findOne({ tallyId: id }).lean())?.ledgerPosted === true);
      const { owner } = (await tally.model.findOne({ tallyId: id }).lean())!;
      const replica = tallySaga(tally.model, tally.nats, remote, tally.log, 2000);
      const t0 = Date.now();
      await expect(tally.count(1, next++, 'k-slow', replica)).rejects.toMatchObject({
        status: 503,
        message: `Tally ${id} is still being completed by another attempt; send it again in a moment to see it.`,
      });
      // A lease (2 s) and a renewal (0.67 s), not the gateway's minute.
      expect(Date.now() - t0).toBeGreaterThanOrEqual(2000);
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'pending', owner });
      release();
      expect(await running).toEqual({ tallyId: id });
    });

    it('two retries racing to take over from a dead owner: exactly one finishes, both answer the record', async () => {
      const id = next++;
      await leftBehind(id, 'k-race', `${deadPid()}@${os.hostname()}#a1b2c3d4`, new Date(Date.now() + 60_000));
      let release!: () => void;
      remote.holdFinish = new Promise<void>((r) => (release = r));
      const before = { ...remote.calls };
      const [a, b] = [tallySaga(tally.model, tally.nats, remote, tally.log, 2000), tallySaga(tally.model, tally.nats, remote, tally.log, 2000)];
      // Both read the record as the dead owner left it before either claims it.
      const seen = (await tally.model.findOne({ tallyId: id }).lean())!;
      const racing = [a.replay(1, 'k-race'), b.replay(1, 'k-race'), a.redrive()];
      // One claim won: the record names a new owner, and it is held inside its finish.
      await until(async () => (await tally.model.findOne({ tallyId: id }).lean())?.owner !== seen.owner);
      await new Promise((r) => setTimeout(r, 300));
      release();
      const [ra, rb] = await Promise.all(racing.slice(0, 2));
      expect(ra).toEqual({ tallyId: id });
      expect(rb).toEqual({ tallyId: id });
      await racing[2];
      expect(remote.calls.finish - before.finish).toBe(1);
      expect(remote.calls.completed - before.completed).toBe(1);
      expect(remote.calls.apply + remote.calls.post).toBe(before.apply + before.post);
      expect(await tally.model.countDocuments({ companyId: 1, idempotencyKey: 'k-race', status: 'complete' })).toBe(1);
    });

    it('an owner that stalled past its lease and was taken over answers the same record when it wakes: one completion', async () => {
      const id = next++;
      let release!: () => void;
      remote.holdFinish = new Promise<void>((r) => (release = r));
      const before = { ...remote.calls };
      const stalled = tally.count(1, id, 'k-stalled', tally.stalled);
      await until(async () => (await tally.model.findOne({ tallyId: id }).lean())?.ledgerPosted === true);
      const { owner } = (await tally.model.findOne({ tallyId: id }).lean())!;
      await until(async () => ((await tally.model.findOne({ tallyId: id }).lean())?.lockedUntil.getTime() ?? Infinity) < Date.now());
      // The retry takes the lease while the stalled owner is still inside its finish.
      const retry = tally.count(1, next++, 'k-stalled');
      await until(async () => (await tally.model.findOne({ tallyId: id }).lean())?.owner !== owner);
      release();
      expect(await retry).toEqual({ tallyId: id });
      expect(await stalled).toEqual({ tallyId: id });
      expect(remote.calls.completed - before.completed).toBe(1);
      expect(await tally.model.findOne({ tallyId: id }).lean()).toMatchObject({ status: 'complete', idempotencyKey: 'k-stalled' });
    });
  });

  it('several replicas re-driving at once take each stale record once', async () => {
    const ids = [next++, next++, next++, next++];
    for (const id of ids) {
      await tally.model.create({ companyId: 1, tallyId: id, status: 'pending', idempotencyKey: `k-rep-${id}`, lockedUntil: new Date(Date.now() - 1000), stockApplied: false, ledgerPosted: false, warnings: [], amount: '10' });
    }
    const replicas = [1, 2, 3].map(() => tallySaga(tally.model, tally.nats, remote, tally.log, 2000));
    const undone = await Promise.all(replicas.map((r) => r.redrive()));
    expect(undone.reduce((a, b) => a + b, 0)).toBe(ids.length);
    expect(await tally.model.countDocuments({ tallyId: { $in: ids }, status: 'failed' })).toBe(ids.length);
  });

  it('a service without a database gets the same wiring and a NATS-only /health', async () => {
    // Stands in for identity: /health is ready once the revoked sessions are loaded.
    const nc = await connect({ servers: nats.url });
    const codec = JSONCodec<{ id?: string }>();
    nc.subscribe(Subjects.identity.sessionRevocations, {
      callback: (_e, msg) => msg.respond(codec.encode({ id: codec.decode(msg.data).id, response: { revocations: [] } } as never)),
    });
    await nc.flush();
    const docs = await startTestService(NoDatabaseProbeModule, { service: 'documents', mongoUri: 'mongodb://unused.invalid', natsUrl: nats.url, jwtSecret: secret });
    try {
      const res = await request(docs.url).get('/health').expect(200);
      expect(res.body.info.nats.status).toBe('up');
      expect(res.body.info.revocations.status).toBe('up');
      expect(res.body.info.mongodb).toBeUndefined();
    } finally {
      await docs.close();
      await nc.close();
    }
  });
});
