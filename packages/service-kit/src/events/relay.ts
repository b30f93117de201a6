import { BadRequestException } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DiscardPolicy, JSONCodec, RetentionPolicy, StorageType, nanos, type JetStreamClient, type NatsConnection, type StreamConfig } from 'nats';
import { Types, type mongo } from 'mongoose';
import type { Logger } from 'pino';
import type { EventStreamDef, HistoryEvent, HistoryPageReply, HistoryPageRequest } from '@bahi/contracts';

/**
 * The field marking a record whose event is not yet published, written in the same update (or
 * transaction) as the fact: `evt`, a fresh token. The relay looks up `{ evt: { $type: 'string' } }`
 * on a partial index holding only pending records, and clears `evt` only if the record still
 * holds the token it published, so a later write (a reversal) is published too.
 */
export const EVENT_PENDING_FIELD = 'evt';
/**
 * The boolean flag written beside `evt` before the embedded server planned partial indexes. No
 * longer written or read: a record flagged by an older version also holds its `evt` token, so the
 * `evt` query finds it; publishing unsets the flag with the token, and `start()` drops its index.
 */
export const EVENT_FLAG_FIELD = 'evtPending';
const PENDING_INDEX = 'evt_pending';
const OLD_FLAG_INDEX = 'evt_pending_flag';
/** Set on the relay's commands, so logs, profilers and tests tell them from the application's. */
export const RELAY_COMMENT = 'bahi event relay';

/** A new pending-event token. */
export function pendingEvent(): string {
  return `${Date.now().toString(36)}.${randomBytes(4).toString('hex')}`;
}

/** The marks of a pending event, to spread into an insert or a `$set` with the fact. */
export function pendingEventFields(): { evt: string } {
  return { evt: pendingEvent() };
}

/** How often the relay looks for unpublished events (kicks publish at once; this catches crashes and NATS outages). */
export function eventSweepMs(): number {
  const v = Number(process.env.BAHI_EVENT_SWEEP_MS);
  return v > 0 ? v : 3_000;
}

/**
 * Copies JetStream keeps of each stream (`BAHI_JS_REPLICAS`, 1-5, default 1): 3 on a three-node
 * NATS cluster, so a node's loss loses no event. A change is applied to an existing stream.
 */
export function streamReplicas(): number {
  const raw = process.env.BAHI_JS_REPLICAS;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 5) throw new Error(`BAHI_JS_REPLICAS must be 1 to 5 (the NATS cluster's size at most), got '${raw}'.`);
  return n;
}

export interface EventSource<D = mongo.WithId<mongo.Document>> {
  /** The history source name (contracts HistorySources), e.g. `sale`. */
  name: string;
  collection: mongo.Collection;
  /** Records the history answers (complete ones), e.g. `{ status: 'complete' }`. */
  complete: Record<string, unknown>;
  /** The record's events, in order (e.g. completed, then cancelled). Must be deterministic. */
  toEvents(doc: D): Promise<HistoryEvent[]> | HistoryEvent[];
}

export interface EventRelayOptions {
  nc: NatsConnection;
  stream: EventStreamDef;
  sources: EventSource<never>[];
  log: Logger;
  sweepMs?: number;
  /** Records per sweep round and source. */
  batch?: number;
  /** A kick's wait before its round (default eventKickDelayMs()). */
  kickDelayMs?: number;
}

const codec = JSONCodec();

/**
 * How long a kick waits before its round (`BAHI_EVENT_KICK_MS`, default 40 ms): the facts
 * committing meanwhile share the round's one clearing write per source (and, kicked without
 * their records, its one lookup). Projection lag grows by as much, far under a second.
 */
export function eventKickDelayMs(): number {
  const raw = process.env.BAHI_EVENT_KICK_MS;
  const v = raw ? Number(raw) : NaN;
  return Number.isFinite(v) && v >= 0 ? v : 40;
}

/** A record a writer hands to `kick`: as stored after its commit, with `_id` and its `evt` token. */
export type CommittedRecord = mongo.Document;

/** What one source has waiting for the next round: a lookup, or only the records handed in. */
interface Dirty {
  find: boolean;
  docs: CommittedRecord[];
}

/** Whether a handed-in record can be published and cleared without reading it back. */
const inHand = (d: CommittedRecord | null | undefined): boolean => d != null && d._id != null && typeof d[EVENT_PENDING_FIELD] === 'string';

/**
 * Publishes an owner's domain events to its JetStream stream, at least once, after the owner's
 * commit: records carry `evt` (pendingEventFields) until published. `kick()` after a commit
 * publishes within milliseconds, outside the request; a sweep every few seconds takes what a
 * crash or a NATS outage left. Each message has `Nats-Msg-Id` = eventId, so a republish inside
 * the stream's duplicate window is dropped by JetStream (and consumers count an eventId once).
 * A writer that hands in the records it committed (`kick(source, docs)`) spares the round its
 * lookup: they are published as given and cleared on their token, like found ones.
 */
export class EventRelay {
  private js: JetStreamClient | null = null;
  private streamReady = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly dirty = new Map<string, Dirty>();
  private dirtyAll = false;
  private stopped = false;
  private readonly kickDelayMs: number;
  /** Events published since start (tests, logs). */
  published = 0;

  constructor(private readonly o: EventRelayOptions) {
    this.kickDelayMs = o.kickDelayMs ?? eventKickDelayMs();
  }

  /** Creates the pending-field indexes (dropping the old flag's), ensures the stream and starts the sweep. Never throws for NATS. */
  async start(): Promise<void> {
    for (const s of this.o.sources) {
      await s.collection.createIndex({ [EVENT_PENDING_FIELD]: 1 }, { name: PENDING_INDEX, partialFilterExpression: { [EVENT_PENDING_FIELD]: { $type: 'string' } } });
      const names = (await s.collection.indexes()).map((i) => i.name);
      if (names.includes(OLD_FLAG_INDEX)) await s.collection.dropIndex(OLD_FLAG_INDEX);
    }
    this.timer = setInterval(() => this.kick(), this.o.sweepMs ?? eventSweepMs());
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /**
   * Publishes what is pending within milliseconds, off the caller's path: of one source (a
   * commit knows which), or of all (the sweep). `docs`: the records the caller just committed,
   * exactly as stored (with `_id`, the `evt` token and what `toEvents` reads; not changed after).
   * A round whose sources were kicked only with records publishes those without looking any up;
   * a kick without records (or one lacking `_id` or `evt`) looks the source's pending ones up.
   * Kicks during a round make one more round.
   */
  kick(source?: string, docs?: readonly CommittedRecord[]): void {
    if (this.stopped) return;
    if (!source) this.dirtyAll = true;
    else {
      let d = this.dirty.get(source);
      if (!d) this.dirty.set(source, (d = { find: false, docs: [] }));
      if (docs?.length && docs.every(inHand)) d.docs.push(...docs);
      else d.find = true;
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.running || this.stopped) return;
    // A short wait gathers the facts committing together into one round (lag stays far under a second).
    this.running = new Promise<void>((r) => setTimeout(r, this.kickDelayMs))
      .then(() => {
        const all = this.dirtyAll;
        const work = new Map(this.dirty);
        this.dirty.clear();
        this.dirtyAll = false;
        return this.round(all, work);
      })
      .catch((err) => {
        // The stream may be gone (deleted, a new JetStream store): ensure it again on the next
        // round. Records not cleared keep `evt`: the sweep finds them.
        this.streamReady = false;
        this.o.log.warn({ err: (err as Error).message }, 'event relay round failed; the sweep retries');
      })
      .finally(() => {
        this.running = null;
        if (this.dirtyAll || this.dirty.size) this.schedule();
      });
  }

  /** What a Saga (option `relay`) or a service kicks after committing a fact of `source`, with the record as stored when it has it. */
  forSource(source: string): { kick(doc?: CommittedRecord): void } {
    if (!this.o.sources.some((s) => s.name === source)) throw new Error(`EventRelay: no source ${source}`);
    return { kick: (doc?: CommittedRecord) => this.kick(source, doc ? [doc] : undefined) };
  }

  /** Waits until nothing is pending or running (tests). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  private async ensureStream(): Promise<JetStreamClient> {
    if (this.js && this.streamReady) return this.js;
    const s = this.o.stream;
    const jsm = await this.o.nc.jetstreamManager({ timeout: 5_000 });
    const config: Partial<StreamConfig> = {
      name: s.name,
      subjects: [...s.subjects],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_age: nanos(s.maxAgeDays * 86_400_000),
      max_bytes: s.maxBytes,
      duplicate_window: nanos(s.duplicateWindowMs),
      num_replicas: streamReplicas(),
    };
    try {
      const info = await jsm.streams.info(s.name);
      const c = info.config;
      if (c.max_age !== config.max_age || c.max_bytes !== config.max_bytes || c.duplicate_window !== config.duplicate_window || c.num_replicas !== config.num_replicas || c.subjects.join() !== config.subjects!.join())
        await jsm.streams.update(s.name, config);
    } catch (err) {
      if (!/stream not found/i.test((err as Error).message)) throw err;
      await jsm.streams.add(config);
    }
    this.js = this.o.nc.jetstream({ timeout: 5_000 });
    this.streamReady = true;
    return this.js;
  }

  private async round(all: boolean, work: Map<string, Dirty>): Promise<void> {
    if (this.o.nc.isClosed()) return;
    const js = await this.ensureStream();
    const limit = this.o.batch ?? 200;
    for (const s of this.o.sources) {
      const w = work.get(s.name);
      if (all || w?.find) {
        // The lookup also finds the records handed in (committed before their kick).
        for (;;) {
          const batch = await s.collection.find({ [EVENT_PENDING_FIELD]: { $type: 'string' } }, { comment: RELAY_COMMENT }).limit(limit).toArray();
          if (!batch.length) break;
          await this.publish(s, js, batch);
          if (batch.length < limit || this.stopped) break;
        }
      } else if (w?.docs.length) {
        // One record handed in twice (two kicks) is published once.
        const docs = [...new Map(w.docs.map((d) => [`${String(d._id)} ${String(d[EVENT_PENDING_FIELD])}`, d])).values()];
        for (let i = 0; i < docs.length; i += limit) await this.publish(s, js, docs.slice(i, i + limit));
      }
    }
  }

  /** Publishes records' events, then clears each one's `evt` if it still holds the published token, in one write. */
  private async publish(s: EventSource<never>, js: JetStreamClient, batch: mongo.Document[]): Promise<void> {
    // One round trip for the batch: under load kicks coalesce, and a sale's share of the work stays small.
    const events: HistoryEvent[] = [];
    for (const doc of batch) events.push(...(await s.toEvents(doc as never)));
    await Promise.all(events.map((e) => js.publish(e.subject, codec.encode(e.event), { msgID: e.event.eventId })));
    this.published += events.length;
    await s.collection.bulkWrite(
      batch.map((doc) => ({ updateOne: { filter: { _id: doc._id, [EVENT_PENDING_FIELD]: doc[EVENT_PENDING_FIELD] }, update: { $unset: { [EVENT_PENDING_FIELD]: 1, [EVENT_FLAG_FIELD]: 1 } } } })),
      { ordered: false, comment: RELAY_COMMENT },
    );
  }

  /** A page of one source's complete records as their events, oldest first (the owner's `<domain>.history.page`). */
  async history(req: HistoryPageRequest): Promise<HistoryPageReply> {
    const s = this.o.sources.find((x) => x.name === req.source);
    if (!s) throw new BadRequestException(`Unknown history source "${String(req.source)}"; one of: ${this.o.sources.map((x) => x.name).join(', ')}.`);
    const limit = req.limit ?? 500;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new BadRequestException('limit must be a whole number from 1 to 1000.');
    if (req.companyId != null && !(Number.isInteger(req.companyId) && req.companyId > 0)) throw new BadRequestException('companyId must be a positive whole number.');
    if (req.after != null && !Types.ObjectId.isValid(req.after)) throw new BadRequestException('after must be the next cursor of an earlier page.');
    const filter: Record<string, unknown> = { ...s.complete };
    if (req.companyId != null) filter.companyId = req.companyId;
    if (req.after != null) filter._id = { $gt: new Types.ObjectId(req.after) };
    const rows = await s.collection.find(filter).sort({ _id: 1 }).limit(limit).toArray();
    const events: HistoryEvent[] = [];
    for (const r of rows) events.push(...(await s.toEvents(r as never)));
    return { events, next: rows.length === limit ? String(rows[rows.length - 1]!._id) : null };
  }
}
