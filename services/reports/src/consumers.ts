import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { AckPolicy, ConsumerEvents, DeliverPolicy, nanos, type ConsumerMessages, type JetStreamManager, type JsMsg, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { EventStreams, HistorySources, Subjects, type EventDomain, type HistoryPageReply } from '@bahi/contracts';
import { addHealthDetail, latestVersion, LOGGER, NATS_CONNECTION, NatsClient } from '@bahi/service-kit';
import type { Db } from 'mongodb';
import { countDeadLetters, eventsFault, recordDeadLetter } from './dead-letters';
import { BadEvent, toFact } from './events';
import { migrations } from './migrations';
import type { Fact } from './facts';
import { MAX_BATCH, Projector, runningTotalsFromDays, type Position } from './projector';
import { C, ensureIndexes, wipe } from './store';

/** The durable consumer of a stream: `reports-<stream>`. */
export const durableOf = (stream: string) => `reports-${stream}`;
const DOMAINS = Object.keys(EventStreams) as EventDomain[];
const HISTORY = { sales: Subjects.sales.historyPage, inventory: Subjects.inventory.historyPage, ledger: Subjects.ledger.historyPage } as const;
/** How long the worker lets a batch fill before applying it (ms): short, so a lone event is not held. */
const BATCH_WAIT_MS = Math.max(0, Number(process.env.REPORTS_BATCH_WAIT_MS ?? 25) || 0);
/**
 * How long JetStream waits for an ack before redelivering (ms). Short, so what a killed reports
 * had been delivered comes again within seconds; a message held longer (queued behind a backlog,
 * in a slow batch) is kept ours by `working()` every HEARTBEAT_MS, so it is not redelivered under us.
 */
export const ACK_WAIT_MS = 5_000;
const HEARTBEAT_MS = 2_000;
/** Marks a read model that has been built (absent: new or wiped, so it rebuilds at start). */
const BUILT_ID = 'built';
/** The read model is rebuilt when it was built at another data version (src/migrations). */
export const READ_MODEL_VERSION = latestVersion(migrations);
/** Marks a read model whose per-product running totals are kept (absent: made from the day rows at start). */
const CUM_ID = 'profit_cum';

/**
 * Reads the three event streams with durable pull consumers (explicit ack, after the
 * projection's transaction committed: a crash before the ack redelivers, and the projection
 * counts an event id once). A new or wiped read model rebuilds itself first: the owners' history
 * over NATS, then the streams replayed from their first message.
 */
@Injectable()
export class Consumers implements OnApplicationBootstrap, OnApplicationShutdown {
  private running = new Map<string, ConsumerMessages>();
  private stopped = false;
  private rebuilding: Promise<void> | null = null;
  /** This process reads the streams (the rebuild command may leave that to the running service). */
  private consuming = false;
  /** Events applied since start (status and tests). */
  applied = 0;
  /** Batches committed since start (tests). */
  batches = 0;
  /** Delivered messages not applied yet (every stream), with the consumer that delivered them. */
  private queue: { m: JsMsg; from: ConsumerMessages }[] = [];
  private working = false;
  /** The batch being applied (settles, never rejects). */
  private current: Promise<void> = Promise.resolve();
  /** Delivered messages not yet acked, nakked or termed, with when they were delivered or last said `working`. */
  private readonly held = new Map<JsMsg, number>();
  private heartbeat: NodeJS.Timeout | null = null;
  /** Per stream: sequences delivered, not applied and nakked (the checkpoint stays below the lowest). */
  private readonly owed = new Map<string, Set<number>>();
  private dropHealth: (() => void) | null = null;

  constructor(
    @InjectConnection() private readonly conn: Connection,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly nats: NatsClient,
    private readonly projector: Projector,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  private get db(): Db {
    return this.conn.db as unknown as Db;
  }

  onApplicationBootstrap() {
    // GET /health's details (and the gateway's /api/health): how many events wait in dead_letters.
    this.dropHealth = addHealthDetail('deadLetters', async () => ({ count: await countDeadLetters(this.db) }));
    // In the background: /health answers at once, the reports fill as events arrive.
    if (process.env.REPORTS_CONSUME === '0') void ensureIndexes(this.conn).catch((err) => this.log.error({ err }, 'reports: indexes not made'));
    else void this.start().catch((err) => this.log.error({ err }, 'reports: consumers did not start'));
  }

  async onApplicationShutdown() {
    this.stopped = true;
    this.dropHealth?.();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    await this.stopConsumers();
  }

  /** Tells JetStream that messages held for HEARTBEAT_MS are still being worked on (their ack_wait starts again). */
  private beat() {
    const now = Date.now();
    for (const [m, t] of this.held) {
      if (now - t < HEARTBEAT_MS) continue;
      try {
        m.working();
        this.held.set(m, now);
      } catch {
        /* the connection is closed: the message is redelivered after ack_wait */
      }
    }
  }

  /** A message settled (acked, nakked or termed): no more heartbeats for it. */
  private settle(m: JsMsg, how: 'ack' | 'nak' | 'term', delayMs?: number) {
    this.held.delete(m);
    try {
      if (how === 'ack') m.ack();
      else if (how === 'term') m.term();
      else m.nak(delayMs);
    } catch {
      /* the connection is closed: redelivered after ack_wait */
    }
  }

  private async start() {
    await ensureIndexes(this.conn);
    const built = await this.conn.db!.collection<{ _id: string; version?: number }>('meta').findOne({ _id: BUILT_ID });
    // Built by another data version (an upgrade, or a restore): made again from the owners.
    if (!built || (built.version ?? 0) !== READ_MODEL_VERSION) {
      if (built) this.log.info({ was: built.version ?? 0, now: READ_MODEL_VERSION }, 'reports: data version changed, rebuilding the read model');
      await this.rebuild();
    }
    else {
      if (!(await this.conn.db!.collection<{ _id: string }>('meta').findOne({ _id: CUM_ID }))) {
        const docs = await runningTotalsFromDays(this.conn.db as never);
        await this.conn.db!.collection<{ _id: string; at?: Date }>('meta').updateOne({ _id: CUM_ID }, { $set: { at: new Date() } }, { upsert: true });
        this.log.info({ docs }, 'reports: profit running totals made from the day rows');
      }
      await this.startConsumers();
      // A rebuild stopped before its replay was done left history ids kept: let the window have them.
      void this.releaseHistory();
    }
  }

  /** Once the streams are replayed past a rebuild's history, its kept event ids start their window (TTL). */
  private async releaseHistory(): Promise<void> {
    try {
      if (!(await this.db.collection(C.recent).findOne({ at: { $exists: false } }))) return;
      await this.caughtUp();
      const { modifiedCount } = await this.db.collection(C.recent).updateMany({ at: { $exists: false } }, { $set: { at: new Date() } });
      this.log.info({ ids: modifiedCount }, 'reports: streams replayed past the history; its event ids now expire with the window');
    } catch (err) {
      if (!this.stopped) this.log.warn({ err: (err as Error).message }, 'reports: history event ids not released yet (next start)');
    }
  }

  /** Settles when a rebuild in progress is done. */
  idle(): Promise<void> {
    return this.rebuilding ?? Promise.resolve();
  }

  /**
   * From zero: wipe the read model, drop the durable consumers, project the owners' history,
   * then recreate the consumers delivering every message the streams still hold.
   */
  rebuild(opts: { consume: boolean } = { consume: true }): Promise<void> {
    if (this.rebuilding) return this.rebuilding;
    this.rebuilding = (async () => {
      const t0 = Date.now();
      await this.stopConsumers();
      const jsm = await this.nc.jetstreamManager();
      for (const d of DOMAINS) {
        await jsm.consumers.delete(EventStreams[d].name, durableOf(EventStreams[d].name)).catch(() => false);
      }
      await wipe(this.conn);
      await this.conn.db!.collection<{ _id: string }>('meta').deleteOne({ _id: BUILT_ID });
      // Projected from zero, the running totals are kept as events arrive.
      await this.conn.db!.collection<{ _id: string; at?: Date }>('meta').updateOne({ _id: CUM_ID }, { $set: { at: new Date() } }, { upsert: true });
      let fromHistory = 0;
      for (const d of DOMAINS) fromHistory += await this.history(d);
      await this.conn.db!.collection<{ _id: string; at?: Date; version?: number }>('meta').updateOne({ _id: BUILT_ID }, { $set: { at: new Date(), version: READ_MODEL_VERSION } }, { upsert: true });
      if (opts.consume) {
        await this.startConsumers();
        void this.releaseHistory();
      } else for (const d of DOMAINS) await this.ensureConsumer(jsm, EventStreams[d].name).catch(() => undefined);
      this.log.info({ fromHistory, ms: Date.now() - t0 }, 'reports: read model rebuilt (history asked, streams replayed from the start)');
    })().finally(() => {
      this.rebuilding = null;
    });
    return this.rebuilding;
  }

  /** Every page of a domain's history; an owner that is down or does not answer is logged (the stream still replays). */
  private async history(domain: EventDomain): Promise<number> {
    let n = 0;
    for (const source of HistorySources[domain]) {
      let after: string | null = null;
      try {
        do {
          const page: HistoryPageReply = await this.nats.send(HISTORY[domain], { companyId: null, source, after, limit: 500 }, { timeoutMs: 30_000 });
          // A page in one transaction (as the consumers apply a batch).
          const facts: Fact[] = [];
          for (const h of page.events) {
            const f = await this.factOf(h.subject, h.event, null);
            if (f) facts.push(f);
          }
          const applied = await this.projector.applyBatch(facts, undefined, { history: true });
          this.applied += applied.size;
          n += applied.size;
          after = page.next;
        } while (after && !this.stopped);
      } catch (err) {
        this.log.warn({ err, domain, source }, `reports: ${domain} history (${source}) not read: ${(err as Error).message}`);
      }
    }
    return n;
  }

  /** The fact of an event; null for a subject the reports do not use, or a malformed event (kept in dead_letters). */
  private async factOf(subject: string, payload: unknown, pos: Position | null): Promise<Fact | null> {
    try {
      return toFact(subject, payload);
    } catch (err) {
      if (err instanceof BadEvent) {
        await this.deadLetter(subject, payload, err, pos);
        return null;
      }
      throw err;
    }
  }

  private async deadLetter(subject: string, event: unknown, err: unknown, pos: Position | null) {
    const error = (err as Error).message;
    this.log.error({ subject, err: error, stream: pos?.stream, seq: pos?.seq }, 'reports: event kept in dead_letters');
    await recordDeadLetter(this.db, { event, subject, error, stream: pos?.stream ?? null, seq: pos?.seq ?? null });
  }

  /** Where a message sits in its stream. */
  private posOf(m: JsMsg): Position {
    return { stream: m.info.stream, seq: m.seq };
  }

  private owe(pos: Position, owed: boolean) {
    const set = this.owed.get(pos.stream) ?? this.owed.set(pos.stream, new Set()).get(pos.stream)!;
    if (owed) set.add(pos.seq);
    else set.delete(pos.seq);
  }

  /** Per stream, the lowest sequence still owed (nakked, not applied yet). */
  private holds(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [stream, set] of this.owed) if (set.size) out.set(stream, Math.min(...set));
    return out;
  }

  /** Starts each stream's consumer; one whose stream does not exist yet keeps retrying on its own. */
  async startConsumers() {
    this.consuming = true;
    if (!this.heartbeat) {
      this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS / 2);
      this.heartbeat.unref();
    }
    for (const d of DOMAINS) void this.consume(EventStreams[d].name);
  }

  /** The durable consumer, created (deliver all, explicit ack) when missing; one made with another ack_wait is updated to ACK_WAIT_MS. */
  private async ensureConsumer(jsm: JetStreamManager, stream: string) {
    const durable = durableOf(stream);
    const info = await jsm.consumers.info(stream, durable).catch(async (err: Error) => {
      if (!/consumer not found/i.test(err.message)) throw err;
      await jsm.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ack_wait: nanos(ACK_WAIT_MS), max_ack_pending: 1000 });
      return null;
    });
    if (info && info.config.ack_wait !== nanos(ACK_WAIT_MS)) await jsm.consumers.update(stream, durable, { ack_wait: nanos(ACK_WAIT_MS) });
  }

  private async stopConsumers() {
    const all = [...this.running.values()];
    this.running.clear();
    for (const m of all) await m.close().catch(() => undefined);
    // Queued messages go back at once (another replica, or this one restarted, takes them without waiting out ack_wait).
    for (const q of this.queue) this.settle(q.m, 'nak');
    this.queue = [];
    // A batch being applied finishes before the caller goes on (a rebuild wipes after this).
    await this.current;
  }

  /** Creates the durable consumer when missing (deliver all) and queues its messages for the batch worker; retries while the stream is absent. */
  /**
   * `create` false: the consumer was deleted under us (a rebuild elsewhere wipes the read model and
   * recreates it): wait for it to come back rather than make one that would run ahead of the wipe;
   * after two minutes without it, make it.
   */
  private async consume(stream: string, create = true): Promise<void> {
    const durable = durableOf(stream);
    const since = Date.now();
    while (!this.stopped) {
      try {
        const jsm = await this.nc.jetstreamManager();
        if (create || Date.now() - since > 120_000) await this.ensureConsumer(jsm, stream);
        else await jsm.consumers.info(stream, durable);
        const consumer = await this.nc.jetstream().consumers.get(stream, durable);
        const messages = await consumer.consume({ max_messages: 256 });
        this.running.set(stream, messages);
        void this.watch(stream, messages);
        void this.loop(stream, messages);
        return;
      } catch (err) {
        this.log.warn({ stream, err: (err as Error).message }, 'reports: stream or consumer not there yet, retrying');
        await new Promise((r) => setTimeout(r, create ? 2000 : 500));
      }
    }
  }

  /**
   * A consumer deleted or gone (a rebuild by `npm run reports:rebuild`, an operator): stop this
   * iterator, and the loop starts over on the consumer as it now is.
   */
  private async watch(stream: string, messages: ConsumerMessages) {
    try {
      for await (const st of await messages.status()) {
        if (st.type === ConsumerEvents.ConsumerDeleted || st.type === ConsumerEvents.ConsumerNotFound || st.type === ConsumerEvents.StreamNotFound) {
          this.log.warn({ stream, status: st.type }, 'reports: consumer gone, starting over');
          messages.stop();
          return;
        }
      }
    } catch {
      /* the iterator closed */
    }
  }

  /**
   * Messages of every stream are queued as they arrive and applied by one worker in batches: what
   * is queued when the worker is free, after BATCH_WAIT_MS for the rest of a burst (up to
   * MAX_BATCH), so a lone event waits a few milliseconds and a backlog goes in few transactions. One worker for the three streams: a sale, its stock movement and its
   * ledger entry touch the same rows (products, day totals), and transactions of concurrent
   * batches would conflict and redo each other.
   */
  private async loop(stream: string, messages: ConsumerMessages) {
    try {
      for await (const m of messages) {
        this.held.set(m, Date.now());
        this.queue.push({ m, from: messages });
        this.kick();
      }
    } catch (err) {
      // The consumer was deleted (a rebuild elsewhere) or NATS was gone too long: start over below.
      this.log.warn({ stream, err: (err as Error).message }, 'reports: consumer stopped');
      await new Promise((r) => setTimeout(r, 1000));
    }
    // What was delivered but not applied goes back (nak: redelivered at once); the batch in hand finishes.
    for (const q of this.queue) if (q.from === messages) this.settle(q.m, 'nak');
    this.queue = this.queue.filter((q) => q.from !== messages);
    await this.current;
    // Closed by a rebuild or shutdown; otherwise (consumer deleted, NATS gone for long) start over.
    if (!this.stopped && this.running.get(stream) === messages) {
      this.running.delete(stream);
      void this.consume(stream, false);
    }
  }

  /** Starts the worker when it is not running; it stops when the queue is empty. */
  private kick() {
    if (this.working) return;
    this.working = true;
    void (async () => {
      try {
        while (this.queue.length) {
          // A moment for the rest of a burst (a sale's stock and ledger events follow its bill) to join the batch.
          if (this.queue.length < MAX_BATCH && BATCH_WAIT_MS > 0) await new Promise((r) => setTimeout(r, BATCH_WAIT_MS));
          const batch = this.queue.splice(0, MAX_BATCH).map((q) => q.m);
          this.current = this.handleBatch(batch)
            .catch((err) => this.log.error({ err }, 'reports: batch not handled'))
            // Whatever the batch left unsettled stops being kept alive: JetStream redelivers it after ack_wait.
            .finally(() => batch.forEach((m) => this.held.delete(m)));
          await this.current;
        }
      } finally {
        this.working = false;
      }
    })();
  }

  /**
   * A batch: malformed events kept in dead_letters and acked at once, the rest applied in one
   * transaction (with the streams' checkpoints) and acked after its commit. When the batch fails,
   * each event is tried on its own, so one event the projection cannot take does not hold back
   * the others: one the database refuses is redelivered (later; its stream's checkpoint waits
   * below it), one whose own content makes the fold fail goes to dead_letters.
   */
  private async handleBatch(batch: JsMsg[]) {
    const good: { m: JsMsg; fact: Fact; pos: Position }[] = [];
    for (const m of batch) {
      const pos = this.posOf(m);
      let payload: unknown;
      try {
        payload = m.json();
      } catch {
        try {
          await this.deadLetter(m.subject, m.string(), new BadEvent('the event is not JSON'), pos);
          this.owe(pos, false);
          this.settle(m, 'ack');
        } catch (err) {
          this.log.warn({ subject: m.subject, err: (err as Error).message }, 'reports: dead letter not written, redelivering');
          this.owe(pos, true);
          this.settle(m, 'nak', 1000);
        }
        continue;
      }
      let fact: Fact | null;
      try {
        fact = await this.factOf(m.subject, payload, pos);
      } catch (err) {
        this.log.warn({ subject: m.subject, err: (err as Error).message }, 'reports: event not read, redelivering');
        this.owe(pos, true);
        this.settle(m, 'nak', 1000);
        continue;
      }
      if (fact) good.push({ m, fact, pos });
      else {
        this.owe(pos, false);
        this.settle(m, 'ack');
      }
    }
    if (!good.length) return;
    try {
      const applied = await this.projector.applyBatch(good.map((g) => g.fact), good.map((g) => g.pos), { holdBelow: this.holds() });
      this.applied += applied.size;
      this.batches++;
      for (const g of good) {
        this.owe(g.pos, false);
        this.settle(g.m, 'ack');
      }
      return;
    } catch (err) {
      this.log.warn({ events: good.length, err: (err as Error).message }, 'reports: batch failed, applying its events one by one');
    }
    for (const g of good) {
      try {
        if (await this.projector.apply(g.fact, g.pos, { holdBelow: this.holds() })) this.applied++;
        this.owe(g.pos, false);
        this.settle(g.m, 'ack');
      } catch (err) {
        if (eventsFault(err)) {
          try {
            await this.deadLetter(g.m.subject, g.m.json(), err, g.pos);
            this.owe(g.pos, false);
            this.settle(g.m, 'ack');
            continue;
          } catch {
            /* not written: redelivered below */
          }
        }
        // The database is unreachable or refused the write: ask again later, nothing acked.
        this.log.warn({ subject: g.m.subject, eventId: g.fact.eventId, err: (err as Error).message }, 'reports: projection failed, redelivering');
        this.owe(g.pos, true);
        this.settle(g.m, 'nak', 1000);
      }
    }
  }

  /** Waits until every stream's consumer has nothing pending (the rebuild command, tests). */
  async caughtUp(timeoutMs = 600_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.idle();
      const st = await this.status();
      // A stream no owner has created yet has nothing to catch up with.
      const done = DOMAINS.every((d) => {
        const name = EventStreams[d].name;
        const x = st.streams[name];
        return x === 'no stream' || (x !== null && x.pending === 0 && x.ackPending === 0 && (!this.consuming || this.running.has(name)));
      });
      if (done) return;
      if (Date.now() > deadline) throw new Error('The reports consumers did not catch up in time.');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** How far the consumers are: pending messages per stream. */
  async status(): Promise<{ streams: Record<string, { pending: number; ackPending: number } | 'no stream' | null>; checkpoints: Record<string, number>; deadLetters: number }> {
    const jsm = await this.nc.jetstreamManager();
    const streams: Record<string, { pending: number; ackPending: number } | 'no stream' | null> = {};
    for (const d of DOMAINS) {
      const name = EventStreams[d].name;
      const info = await jsm.consumers.info(name, durableOf(name)).catch((err: Error) => (/stream not found/i.test(err.message) ? ('no stream' as const) : null));
      streams[name] = info === null || info === 'no stream' ? info : { pending: info.num_pending, ackPending: info.num_ack_pending };
    }
    const checkpoints = Object.fromEntries((await this.db.collection<{ _id: string; seq: number }>(C.checkpoints).find({}).toArray()).map((c) => [c._id, c.seq]));
    return { streams, checkpoints, deadLetters: await countDeadLetters(this.db) };
  }
}
