import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import pino from 'pino';
import { natsInboxPrefix, type EventStreamDef, type HistoryEvent } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { EventRelay, EVENT_PENDING_FIELD, eventKickDelayMs, pendingEvent, pendingEventFields, RELAY_COMMENT, streamReplicas } from '../src/events';

const log = pino({ level: 'silent' });
const codec = JSONCodec<{ eventId: string; companyId: number; amount: string }>();
const users = [{ principal: 'sales' as const, password: 'relay-test-password' }, { principal: 'reports' as const, password: 'reports-test-password' }];
const stream: EventStreamDef = { name: 'BAHI_SALES', subjects: ['events.sales.>'], owner: 'sales', maxAgeDays: 400, maxBytes: 1024 ** 3, duplicateWindowMs: 600_000 };

/** A stored fact's event: the id comes from the record, so a republish is the same id. */
const toEvents = (d: { companyId: number; factId: number; amount: string; cancelled?: boolean }): HistoryEvent[] => {
  const base = { companyId: d.companyId, occurredAt: '2026-11-24T10:00:00.000Z', date: '2026-11-24', amount: d.amount };
  const out = [{ subject: 'events.sales.sale.completed', event: { ...base, eventId: `fact:${d.companyId}:${d.factId}:completed` } }];
  if (d.cancelled) out.push({ subject: 'events.sales.sale.cancelled', event: { ...base, eventId: `fact:${d.companyId}:${d.factId}:cancelled` } });
  return out as never;
};

/** Every message of the stream, read as reports reads (an ordered consumer under its grants): subject, Nats-Msg-Id and payload. */
async function streamMessages(reader: NatsConnection): Promise<{ subject: string; msgId: string | undefined; eventId: string; amount: string }[]> {
  const js = reader.jetstream();
  const info = await (await reader.jetstreamManager()).streams.info(stream.name);
  const out: { subject: string; msgId: string | undefined; eventId: string; amount: string }[] = [];
  if (info.state.messages === 0) return out;
  const consumer = await js.consumers.get(stream.name);
  const batch = await consumer.fetch({ max_messages: info.state.messages, expires: 2000 });
  for await (const m of batch) {
    const e = codec.decode(m.data);
    out.push({ subject: m.subject, msgId: m.headers?.get('Nats-Msg-Id'), eventId: e.eventId, amount: e.amount });
    if (out.length === info.state.messages) break;
  }
  await consumer.delete().catch(() => undefined);
  return out;
}

async function until(what: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('EventRelay: domain events to JetStream after the owner commit, at least once', () => {
  let mongo: MongoHandle;
  let nats: NatsHandle;
  let storeDir: string;
  let conn: mongoose.Connection;
  let nc: NatsConnection;
  let reader: NatsConnection;
  let facts: mongoose.mongo.Collection;
  const relays: EventRelay[] = [];
  const newRelay = (sweepMs = 60_000) => {
    const r = new EventRelay({ nc, stream, sources: [{ name: 'fact', collection: facts, complete: { status: 'complete' }, toEvents: toEvents as never }], log, sweepMs });
    relays.push(r);
    return r;
  };

  beforeAll(async () => {
    storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-relay-js-'));
    const password = 'relay-test-password';
    [mongo, nats] = await Promise.all([startMongo(), startNats({ storeDir, users })]);
    conn = await mongoose.createConnection(mongo.uri, { dbName: 'relay_test' }).asPromise();
    facts = conn.db!.collection('facts');
    // As the sales service connects: its own user and inbox, so the grants are the contracts'.
    nc = await connect({ servers: nats.url, user: 'sales', pass: password, inboxPrefix: natsInboxPrefix('sales'), maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    reader = await connect({ servers: nats.url, user: 'reports', pass: 'reports-test-password', inboxPrefix: natsInboxPrefix('reports'), maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  });
  afterAll(async () => {
    for (const r of relays) await r.stop();
    await nc?.close();
    await reader?.close();
    await conn?.close();
    await nats?.stop();
    await mongo?.stop();
    fs.rmSync(storeDir, { recursive: true, force: true });
  });

  it('reads the stream copies from BAHI_JS_REPLICAS (1-5, default 1) and refuses anything else', () => {
    const saved = process.env.BAHI_JS_REPLICAS;
    try {
      delete process.env.BAHI_JS_REPLICAS;
      expect(streamReplicas()).toBe(1);
      process.env.BAHI_JS_REPLICAS = '3';
      expect(streamReplicas()).toBe(3);
      for (const bad of ['0', '6', '2.5', 'three']) {
        process.env.BAHI_JS_REPLICAS = bad;
        expect(() => streamReplicas()).toThrow(`BAHI_JS_REPLICAS must be 1 to 5 (the NATS cluster's size at most), got '${bad}'.`);
      }
    } finally {
      if (saved === undefined) delete process.env.BAHI_JS_REPLICAS;
      else process.env.BAHI_JS_REPLICAS = saved;
    }
  });

  it('creates the stream with its retention and publishes a committed fact once, then clears the pending mark', async () => {
    // The index an older version created for its boolean flag: start() drops it.
    await facts.createIndex({ evtPending: 1 }, { name: 'evt_pending_flag' });
    const relay = newRelay();
    await relay.start();
    await facts.insertOne({ companyId: 1, factId: 1, amount: '120.50', status: 'complete', ...pendingEventFields() });
    relay.kick();
    await until(async () => (await facts.countDocuments({ factId: 1, [EVENT_PENDING_FIELD]: { $exists: true } })) === 0);
    const info = await (await reader.jetstreamManager()).streams.info(stream.name);
    expect(info.config.max_age).toBe(400 * 86_400 * 1e9);
    expect(info.config.duplicate_window).toBe(600 * 1e9);
    // One copy on a single node (BAHI_JS_REPLICAS unset); a three-node cluster sets 3.
    expect(info.config.num_replicas).toBe(1);
    expect(await streamMessages(reader)).toEqual([{ subject: 'events.sales.sale.completed', msgId: 'fact:1:1:completed', eventId: 'fact:1:1:completed', amount: '120.50' }]);
    // The sweep's lookup is `$type: 'string'` on a partial index of pending records only; the mark is gone once published.
    const indexes = await facts.indexes();
    const idx = indexes.find((i) => i.name === 'evt_pending');
    expect(idx?.key).toEqual({ evt: 1 });
    expect(idx?.partialFilterExpression).toEqual({ evt: { $type: 'string' } });
    expect(indexes.map((i) => i.name)).not.toContain('evt_pending_flag');
    const plan = await facts.find({ evt: { $type: 'string' } }).explain();
    expect(plan.queryPlanner.winningPlan.inputStage.indexName).toBe('evt_pending');
    expect(pendingEventFields()).not.toHaveProperty('evtPending');
    expect(await facts.findOne({ factId: 1 })).not.toHaveProperty('evt');
    await relay.stop();
  });

  it('a crash between publishing and marking republishes the same eventId, which the stream holds once', async () => {
    const relay = newRelay();
    await relay.start();
    const token = pendingEvent();
    // As an older version wrote it, with the boolean flag: found by its token, both cleared.
    await facts.insertOne({ companyId: 1, factId: 2, amount: '10', status: 'complete', evt: token, evtPending: true });
    relay.kick();
    await until(async () => (await facts.countDocuments({ factId: 2, [EVENT_PENDING_FIELD]: { $exists: true } })) === 0);
    expect(await facts.findOne({ factId: 2 })).not.toHaveProperty('evtPending');
    await relay.stop();
    // The state a crash after the publish leaves: the record still pending with its token.
    await facts.updateOne({ factId: 2 }, { $set: { evt: token } });
    const restarted = newRelay();
    await restarted.start();
    await until(async () => (await facts.countDocuments({ factId: 2, [EVENT_PENDING_FIELD]: { $exists: true } })) === 0);
    expect(restarted.published).toBe(1);
    const ids = (await streamMessages(reader)).map((m) => m.eventId);
    expect(ids.filter((id) => id === 'fact:1:2:completed')).toHaveLength(1);
    // A later fact on the same record (a cancellation) is published too, the first event still once.
    await facts.updateOne({ factId: 2 }, { $set: { cancelled: true, ...pendingEventFields() } });
    restarted.kick();
    await until(async () => (await facts.countDocuments({ factId: 2, [EVENT_PENDING_FIELD]: { $exists: true } })) === 0);
    const after = (await streamMessages(reader)).map((m) => m.eventId);
    expect(after.filter((id) => id.startsWith('fact:1:2:'))).toEqual(['fact:1:2:completed', 'fact:1:2:cancelled']);
    await restarted.stop();
  });

  it('with NATS down the fact stays pending (nothing fails), and is published once NATS is back', async () => {
    const relay = newRelay(200);
    await relay.start();
    await relay.drain();
    const port = nats.port;
    await nats.stop();
    await facts.insertOne({ companyId: 2, factId: 3, amount: '99.99', status: 'complete', ...pendingEventFields() });
    relay.kick();
    await new Promise((r) => setTimeout(r, 1500));
    expect(await facts.countDocuments({ factId: 3, [EVENT_PENDING_FIELD]: { $type: 'string' } })).toBe(1);
    nats = await startNats({ port, storeDir, users });
    await until(async () => (await facts.countDocuments({ factId: 3, [EVENT_PENDING_FIELD]: { $exists: true } })) === 0, 20_000);
    const msgs = await streamMessages(reader);
    expect(msgs.filter((m) => m.eventId === 'fact:2:3:completed')).toEqual([{ subject: 'events.sales.sale.completed', msgId: 'fact:2:3:completed', eventId: 'fact:2:3:completed', amount: '99.99' }]);
    await relay.stop();
  }, 40_000);

  it('answers history pages of complete records, oldest first, per company or for all, with the same payloads', async () => {
    const relay = newRelay();
    await facts.insertOne({ companyId: 1, factId: 4, amount: '1', status: 'pending' });
    const all = await relay.history({ source: 'fact', limit: 2 });
    expect(all.events.map((e) => e.event.eventId)).toEqual(['fact:1:1:completed', 'fact:1:2:completed', 'fact:1:2:cancelled']);
    const rest = await relay.history({ source: 'fact', limit: 2, after: all.next });
    expect(rest).toEqual({ events: [expect.objectContaining({ event: expect.objectContaining({ eventId: 'fact:2:3:completed', amount: '99.99' }) })], next: null });
    const one = await relay.history({ source: 'fact', companyId: 2 });
    expect(one.events.map((e) => e.event.eventId)).toEqual(['fact:2:3:completed']);
    await expect(relay.history({ source: 'nope' })).rejects.toThrow('Unknown history source');
    await expect(relay.history({ source: 'fact', limit: 5000 })).rejects.toThrow('limit must be');
    await expect(relay.history({ source: 'fact', after: 'x' })).rejects.toThrow('cursor');
  });

  describe('records handed in with the kick', () => {
    // A connection whose commands are watched: the relay's carry RELAY_COMMENT.
    let watched: mongoose.Connection;
    let handed: mongoose.mongo.Collection;
    const relayCommands: string[] = [];
    const handRelay = (sweepMs = 60_000) => {
      const r = new EventRelay({ nc, stream, sources: [{ name: 'fact', collection: handed, complete: { status: 'complete' }, toEvents: toEvents as never }], log, sweepMs });
      relays.push(r);
      return r;
    };
    const pending = (factId: number) => handed.countDocuments({ factId, [EVENT_PENDING_FIELD]: { $type: 'string' } });
    /** A fact inserted as a writer does; the driver sets `_id` on the object, which is then the record as stored. */
    const commit = async (doc: Record<string, unknown>) => {
      const row: Record<string, unknown> = { status: 'complete', ...doc, ...pendingEventFields() };
      await handed.insertOne(row);
      return row;
    };

    beforeAll(async () => {
      watched = await mongoose.createConnection(mongo.uri, { dbName: 'relay_test', monitorCommands: true }).asPromise();
      handed = watched.db!.collection('handed_facts');
      watched.getClient().on('commandStarted', (e) => {
        if ((e.command as { comment?: unknown }).comment === RELAY_COMMENT) relayCommands.push(e.commandName);
      });
    });
    afterAll(() => watched?.close());

    it('waits BAHI_EVENT_KICK_MS (default 40 ms) before a round, to gather the facts committing together', () => {
      const saved = process.env.BAHI_EVENT_KICK_MS;
      try {
        delete process.env.BAHI_EVENT_KICK_MS;
        expect(eventKickDelayMs()).toBe(40);
        process.env.BAHI_EVENT_KICK_MS = '5';
        expect(eventKickDelayMs()).toBe(5);
        process.env.BAHI_EVENT_KICK_MS = 'soon';
        expect(eventKickDelayMs()).toBe(40);
      } finally {
        if (saved === undefined) delete process.env.BAHI_EVENT_KICK_MS;
        else process.env.BAHI_EVENT_KICK_MS = saved;
      }
    });

    it('publishes them as stored without looking them up, and clears three in one write', async () => {
      const relay = handRelay();
      await relay.start();
      await relay.drain();
      relayCommands.length = 0;
      const kick = relay.forSource('fact').kick;
      // Three sales committing together: one round, no find, one bulk clear.
      const docs = [await commit({ companyId: 5, factId: 51, amount: '118.00' }), await commit({ companyId: 5, factId: 52, amount: '0.05' }), await commit({ companyId: 5, factId: 53, amount: '99999.99' })];
      for (const d of docs) kick(d);
      await relay.drain();
      expect(relayCommands).toEqual(['update']);
      for (const id of [51, 52, 53]) expect(await pending(id)).toBe(0);
      expect(relay.published).toBe(3);
      // Exactly what the lookup would have published: the same events as the stored records give.
      const streamed = (await streamMessages(reader)).filter((m) => m.eventId.startsWith('fact:5:'));
      const stored = (await handed.find({ companyId: 5 }).sort({ _id: 1 }).toArray()).flatMap((d) => toEvents(d as never));
      expect(streamed).toEqual(stored.map((e) => ({ subject: e.subject, msgId: e.event.eventId, eventId: e.event.eventId, amount: (e.event as unknown as { amount: string }).amount })));
      expect(streamed.map((m) => [m.eventId, m.amount])).toEqual([
        ['fact:5:51:completed', '118.00'],
        ['fact:5:52:completed', '0.05'],
        ['fact:5:53:completed', '99999.99'],
      ]);
      await relay.stop();
    });

    it('a record handed in with an older token is cleared only by its own; the later write is published by the next lookup', async () => {
      const relay = handRelay();
      await relay.start();
      await relay.drain();
      const first = await commit({ companyId: 6, factId: 61, amount: '40' });
      // A cancellation commits before the relay's round: the record now holds a newer token.
      await handed.updateOne({ factId: 61 }, { $set: { cancelled: true, ...pendingEventFields() } });
      relayCommands.length = 0;
      relay.forSource('fact').kick(first);
      await relay.drain();
      expect(relayCommands).toEqual(['update']);
      expect(await pending(61)).toBe(1);
      // A kick without a record (as the sweep) looks it up and publishes the cancellation; the first event stays once.
      relay.kick('fact');
      await relay.drain();
      expect(relayCommands).toEqual(['update', 'find', 'update']);
      expect(await pending(61)).toBe(0);
      expect((await streamMessages(reader)).filter((m) => m.eventId.startsWith('fact:6:')).map((m) => m.eventId)).toEqual(['fact:6:61:completed', 'fact:6:61:cancelled']);
      // A record lacking its token (or _id) cannot be cleared by it: the kick looks the source up instead.
      relayCommands.length = 0;
      relay.forSource('fact').kick({ _id: first._id });
      await relay.drain();
      expect(relayCommands).toEqual(['find']);
      await relay.stop();
    });

    it('when publishing fails the handed-in record keeps evt, and the sweep publishes it once', async () => {
      const relay = handRelay();
      await relay.start();
      await relay.drain();
      const port = nats.port;
      await nats.stop();
      const doc = await commit({ companyId: 7, factId: 71, amount: '12.34' });
      relayCommands.length = 0;
      relay.forSource('fact').kick(doc);
      // The round's publish times out (5 s) with NATS down: nothing cleared.
      await relay.drain();
      expect(relayCommands).toEqual([]);
      expect(await pending(71)).toBe(1);
      nats = await startNats({ port, storeDir, users });
      await until(async () => {
        relay.kick();
        await relay.drain();
        return (await pending(71)) === 0;
      }, 20_000);
      expect(relayCommands).toContain('find');
      const msgs = (await streamMessages(reader)).filter((m) => m.eventId.startsWith('fact:7:'));
      expect(msgs).toEqual([{ subject: 'events.sales.sale.completed', msgId: 'fact:7:71:completed', eventId: 'fact:7:71:completed', amount: '12.34' }]);
      await relay.stop();
    }, 40_000);
  });
});
