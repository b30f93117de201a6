import { ConflictException, HttpException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { castForInsert } from '../insert';
import { pendingEventFields, type CommittedRecord } from '../events/relay';
import type { SagaRecord } from './schema';

/** How often records left by a crash are looked for. */
export const REDRIVE_EVERY_MS = 10_000;

/**
 * A lease length from the environment variable `name`, else the default: 6 s, renewed every 2 s
 * while an attempt works, so a dead owner's record is free to take over within 6 s of its death.
 */
export function leaseMs(name: string, fallback = 6_000): number {
  const v = Number(process.env[name]);
  return v > 0 ? v : fallback;
}

const HOST = os.hostname();

/**
 * Whether the runner `owner` (`<pid>@<host>#<runner>`) is known to be dead: its process ran on
 * this host and is gone (or a zombie). Unknown (another host, no owner) is not dead: the lease
 * decides. A pid reused by another process reads as alive, which only means waiting for the lease.
 */
export function ownerGone(owner: string | undefined | null): boolean {
  const m = owner ? /^(\d+)@(.*)#[^#]*$/.exec(owner) : null;
  if (!m || m[2] !== HOST) return false;
  const pid = Number(m[1]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    // "pid (name) Z ...": killed, not yet reaped by its parent.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

export interface SagaOptions<D extends SagaRecord, R> {
  model: Model<D>;
  /** The record's per-company id field, e.g. `saleId`. */
  idField: keyof D & string;
  /** `sale`, `purchase`: in messages and logs. */
  noun: string;
  leaseMs: number;
  /**
   * How often a running attempt renews the leases it holds (default a third of the lease). 0:
   * never, for tests standing in for a stalled owner whose lease runs out under it.
   */
  renewEveryMs?: number;
  log: Logger;
  /**
   * The forward steps up to the point of no return (stock, ledger entry), each idempotent;
   * record progress with `saga.mark`. Setting `ledgerPosted` marks the point of no return.
   */
  apply(doc: D): Promise<void>;
  /** The steps after it (e.g. empty the cart), idempotent: a take-over may run them again. */
  finish(doc: D): Promise<void>;
  /** Reverses every step (each reverse idempotent); throws when a service cannot be reached. */
  undo(doc: D): Promise<void>;
  /** The answer for a complete record; a retry with the same key gets it again. */
  answer(doc: D): R;
  /** After the record became complete (e.g. emit an event); must not throw. */
  completed?(doc: D): void;
  /**
   * The owner's EventRelay: the completing update also marks the record's domain event pending
   * (`evt`, one write with the fact), and the relay is kicked after it with the record as that
   * write stored it, so it publishes without looking it up; the answer never waits.
   */
  relay?: { kick(doc?: CommittedRecord): void };
  /** Ends of the failure message: everything undone / the undo left to the re-driver. */
  undoneTail: string;
  laterTail: string;
}

/** This attempt's lease was taken over (its owner looked dead): whoever holds it now decides. */
class TakenOver extends Error {}

/**
 * A saga: one business fact across services (a sale, a purchase), all or nothing. The record is
 * stored `pending` with a lease, its owner and an idempotency key, the steps run (`apply`,
 * `finish`), then it is `complete`. A failed step before the point of no return moves it to
 * `compensating`, `undo` runs, then `failed` (the key moves to `failedKey`, so a retry starts
 * afresh); after that point it is only ever finished. The owner renews its leases while it works.
 * The same key again replays the answer, waits briefly for a live owner, or takes over from a
 * dead one (lease expired, or its process gone) and finishes it within the retry. A re-driver
 * (`start`) takes over the rest. Every take-over is one compare-and-set on the lease, and every
 * write of an attempt that moves the record on names its owner: one finisher completes it.
 */
export class Saga<D extends SagaRecord, R> {
  private timer: NodeJS.Timeout | null = null;
  private redriving: Promise<number> | null = null;
  private readonly Noun: string;
  /** Whether the record's schema keeps createdAt/updatedAt (set here as mongoose would). */
  private readonly stamped: boolean;
  /** The records this runner's attempts are driving, by attempt (owner): the heartbeat renews their leases. */
  private readonly held = new Map<string, Record<string, unknown>>();
  private heartbeat: NodeJS.Timeout | null = null;
  /**
   * Records whose point of no return this runner wrote under a guard (still pending, still that
   * owner's), by the owner that wrote it: that attempt needs no fence before `finish`.
   */
  private readonly guarded = new WeakMap<D, string>();

  constructor(private readonly o: SagaOptions<D, R>) {
    this.Noun = o.noun.charAt(0).toUpperCase() + o.noun.slice(1);
    this.stamped = Boolean(o.model.schema.get('timestamps'));
  }

  /**
   * The records' collection through the driver, for every step of a drive: building and validating
   * a mongoose document of a whole bill cost a sale more than its insert (0.8 ms against 0.2 ms of
   * CPU here), and a mongoose update nearly twice a plain one. The insert still casts through the
   * schema (castForInsert, 0.07 ms); the updates set fields this class names.
   */
  private get records() {
    return this.o.model.collection;
  }

  /** Sets `fields` (and updatedAt) on the record matching `filter`; whether one matched. */
  private async update(filter: Record<string, unknown>, fields: Record<string, unknown>, unset?: Record<string, 1>): Promise<boolean> {
    const $set = this.stamped ? { ...fields, updatedAt: new Date() } : fields;
    const r = await this.records.updateOne(filter as never, (unset ? { $set, $unset: unset } : { $set }) as never);
    return r.matchedCount === 1;
  }

  private find(filter: Record<string, unknown>): Promise<D | null> {
    return this.records.findOne(filter as never) as Promise<D | null>;
  }

  /** The lease of a new attempt. */
  lease(): Date {
    return new Date(Date.now() + this.o.leaseMs);
  }

  private id(doc: D): unknown {
    return doc[this.o.idField];
  }

  private where(doc: D, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { companyId: doc.companyId, [this.o.idField]: this.id(doc), ...extra };
  }

  /** A new attempt's owner: this process (pid and host, for `ownerGone`) and the attempt. */
  private newOwner(): string {
    return `${process.pid}@${HOST}#${randomUUID().slice(0, 8)}`;
  }

  /** Renews this attempt's lease every renewEveryMs while it runs. */
  private hold(doc: D): string {
    const k = doc.owner!;
    this.held.set(k, this.where(doc, { owner: k }));
    const every = this.o.renewEveryMs ?? Math.floor(this.o.leaseMs / 3);
    if (!this.heartbeat && every > 0) {
      this.heartbeat = setInterval(() => void this.renew(), every);
      this.heartbeat.unref();
    }
    return k;
  }

  private release(k: string): void {
    this.held.delete(k);
    if (!this.held.size && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }

  /** One write renews every lease this runner holds (only where it still is the owner). */
  private async renew(): Promise<void> {
    if (!this.held.size) return;
    const filter = { $or: [...this.held.values()], status: { $in: ['pending', 'compensating'] } };
    await this.records.updateMany(filter as never, { $set: { lockedUntil: this.lease() } } as never).catch((err: unknown) => {
      this.o.log.warn({ err }, `renewing ${this.o.noun} leases failed`);
    });
  }

  /**
   * Writes progress fields, on the stored record and on `doc`. `ledgerPosted: true` (the point of
   * no return) is written only while the record is still pending and this attempt's: an attempt
   * whose lease ran out may have been taken over (and undone) meanwhile, and must then stop before
   * emptying the cart. That write also renews the lease.
   */
  async mark(doc: D, fields: Partial<D>): Promise<void> {
    if (fields.ledgerPosted === true && doc.owner) {
      await this.passNoReturn(doc, (guard, renew) => this.update(this.where(doc, guard), { ...fields, ...renew }));
      Object.assign(doc, fields);
      return;
    }
    const filter = fields.ledgerPosted === true ? this.where(doc, { status: 'pending' }) : this.where(doc);
    if (!(await this.update(filter, fields)) && fields.ledgerPosted === true) throw new TakenOver();
    Object.assign(doc, fields);
  }

  /**
   * Writes the point of no return with the step's own update (a GST number written with it):
   * `write` adds `guard` to its filter (still pending, still this attempt's) and `renew` to its
   * $set (the lease), and says whether its update matched. Not matched: this attempt was taken
   * over and stops before `finish`. Matched: `finish` follows without a fence (see `drive`).
   */
  async passNoReturn(doc: D, write: (guard: Record<string, unknown>, renew: { lockedUntil: Date }) => Promise<boolean>): Promise<void> {
    const owner = doc.owner;
    if (!owner) throw new Error(`${this.Noun} ${String(this.id(doc))} has no owner: only a running attempt passes its point of no return.`);
    const lockedUntil = this.lease();
    if (!(await write({ status: 'pending', owner }, { lockedUntil }))) throw new TakenOver();
    doc.lockedUntil = lockedUntil;
    this.guarded.set(doc, owner);
  }

  /**
   * The answer of an earlier attempt with this key, or null when there was none (or it was just
   * undone: start afresh). `run` needs no lookup before it (its insert finds the key taken); a
   * request about to be refused (an empty cart) calls this first, so a retry of a completed
   * fact still gets its answer.
   */
  async replay(companyId: number, key: string): Promise<R | null> {
    const earlier = await this.find({ companyId, idempotencyKey: key });
    return earlier ? this.resume(earlier) : null;
  }

  /**
   * Stores a new pending record (its lease and owner this attempt's) and drives it. The key
   * already taken (a retry, a double click: the unique index refuses the insert) answers what
   * the earlier attempt answers, resuming it as `replay` does; one undone meanwhile (the key
   * freed) is started afresh with this record.
   */
  async run(doc: D): Promise<R> {
    for (let attempt = 1; ; attempt++) {
      Object.assign(doc, { lockedUntil: this.lease(), owner: this.newOwner() });
      try {
        const row = castForInsert(this.o.model as never, doc);
        if (this.stamped) row.createdAt = row.updatedAt = new Date();
        await this.records.insertOne(row as never);
      } catch (err) {
        if (!this.keyTaken(err)) throw err;
        const other = await this.find({ companyId: doc.companyId, idempotencyKey: doc.idempotencyKey });
        const answer = other ? await this.resume(other) : null;
        if (answer !== null) return answer;
        if (attempt >= 3) throw new ConflictException(`This ${this.o.noun} is being retried; please try again.`);
        continue;
      }
      return this.drive(doc);
    }
  }

  /** Whether an insert failed on the idempotency key's unique index (not on the id's). */
  private keyTaken(err: unknown): boolean {
    const e = err as { code?: number; keyPattern?: Record<string, unknown> };
    return e.code === 11000 && (!e.keyPattern || 'idempotencyKey' in e.keyPattern);
  }

  /** Whether the record may be taken over now: its lease ran out, or its owner is known dead. */
  private free(doc: D): boolean {
    return doc.lockedUntil.getTime() < Date.now() || ownerGone(doc.owner);
  }

  /**
   * A retried request: the finished answer, the live owner's answer (waited for up to a lease and
   * a renewal), or a take-over from a dead owner, finished (or, before the point of no return,
   * driven on) within this request. A stalled undo (a service was down) is finished now; null then
   * tells the caller to start afresh, so a retry after the service is back sells at once instead
   * of waiting for the re-driver.
   */
  private async resume(doc: D): Promise<R | null> {
    const waitUntil = Date.now() + this.o.leaseMs + (this.o.renewEveryMs || this.o.leaseMs / 3);
    for (let pause = 25; ; pause = Math.min(pause * 2, 200)) {
      if (doc.status === 'complete') return this.o.answer(doc);
      if (doc.status === 'failed') throw new ConflictException(`${this.Noun} ${String(this.id(doc))} failed: ${doc.error ?? 'it was undone'}`);
      const claimed = this.free(doc) ? await this.claim(doc) : null;
      if (claimed?.status === 'pending') return this.drive(claimed);
      if (claimed?.status === 'compensating') {
        if (await this.compensate(claimed, claimed.error ?? 'it was undone')) return null;
        throw new ConflictException(`The earlier attempt of this ${this.o.noun} is being undone; please try again in a moment.`);
      }
      if (doc.status === 'compensating' && !claimed) throw new ConflictException(`The earlier attempt of this ${this.o.noun} is being undone; please try again in a moment.`);
      if (Date.now() > waitUntil) {
        throw new ServiceUnavailableException(`${this.Noun} ${String(this.id(doc))} is still being completed by another attempt; send it again in a moment to see it.`);
      }
      await new Promise((r) => setTimeout(r, pause));
      const now = await this.find(this.where(doc));
      if (!now) throw new NotFoundException(`${this.Noun} ${String(this.id(doc))} not found.`);
      doc = now;
    }
  }

  /**
   * Takes over the lease of a record this runner saw free: one compare-and-set, so of two racing
   * take-overs one wins. Lease expired: on the expiry. Owner dead with a live lease: on that owner
   * and that exact lease (a renewal meanwhile means it was not dead). Null when it lost.
   */
  private async claim(doc: D): Promise<D | null> {
    const now = new Date();
    const expired = doc.lockedUntil.getTime() < now.getTime();
    const lease = expired ? { lockedUntil: { $lt: now } } : { owner: doc.owner, lockedUntil: doc.lockedUntil };
    const $set = { lockedUntil: new Date(now.getTime() + this.o.leaseMs), owner: this.newOwner(), ...(this.stamped ? { updatedAt: now } : {}) };
    const claimed = (await this.records.findOneAndUpdate(this.where(doc, { status: doc.status, ...lease }) as never, { $set } as never, { returnDocument: 'after' })) as D | null;
    // Who took what from whom, and why (the load test reads these to time the take-overs).
    if (claimed && doc.owner) {
      this.o.log.info({ [this.o.idField]: this.id(doc), from: doc.owner, why: expired ? 'lease expired' : 'owner gone', pastNoReturn: Boolean(claimed.ledgerPosted) }, `${this.o.noun} taken over`);
    }
    return claimed ?? null;
  }

  /** Marks this attempt's pending record complete; false when it was no longer pending or no longer ours. */
  private async complete(doc: D): Promise<boolean> {
    const filter = this.where(doc, { status: 'pending', owner: doc.owner });
    if (!this.o.relay) {
      if (!(await this.update(filter, { status: 'complete' }, { owner: 1 }))) return false;
      this.o.completed?.(doc);
      return true;
    }
    // One command still: the write returns the record as stored (with `_id` and `evt`), which the
    // relay publishes as given instead of reading it back. Not `doc`: the stored record is the one
    // cast by the schema and moved on by the steps' own writes.
    const fields = { status: 'complete', ...pendingEventFields(), ...(this.stamped ? { updatedAt: new Date() } : {}) };
    const stored = await this.records.findOneAndUpdate(filter as never, { $set: fields, $unset: { owner: 1 } } as never, { returnDocument: 'after' });
    if (!stored) return false;
    this.o.completed?.(doc);
    this.o.relay.kick(stored);
    return true;
  }

  /**
   * The forward steps (none again past the point of no return: a take-over only finishes); any
   * failure before that point undoes what was applied and answers with a clear error.
   */
  private async drive(doc: D): Promise<R> {
    const k = this.hold(doc);
    try {
      if (!doc.ledgerPosted) await this.o.apply(doc);
      // The fence before the steps that cannot be undone (emptying the cart): still pending past
      // the point of no return and still ours, with the lease renewed for them. Not needed when
      // this attempt itself wrote that point under the same conditions (`mark`, `passNoReturn`),
      // which renewed the lease too; kept for a take-over (claimed past it) and for a step that
      // wrote the point with an unguarded update of its own.
      const guarded = doc.owner !== undefined && this.guarded.get(doc) === doc.owner;
      this.guarded.delete(doc);
      if (!guarded && !(await this.update(this.where(doc, { status: 'pending', ledgerPosted: true, owner: doc.owner }), { lockedUntil: this.lease() }))) throw new TakenOver();
      await this.o.finish(doc);
      if (!(await this.complete(doc))) throw new TakenOver();
      return this.o.answer(doc);
    } catch (err) {
      if (err instanceof TakenOver) return this.overtaken(doc);
      const reason = err instanceof HttpException ? err.message : 'an internal error';
      if (doc.ledgerPosted) return this.finishLater(doc, reason, err);
      this.o.log.warn({ err, [this.o.idField]: this.id(doc) }, `${this.o.noun} failed; undoing`);
      const undone = await this.compensate(doc, reason).catch(() => false);
      const status = err instanceof HttpException ? err.getStatus() : 500;
      const tail = undone ? this.o.undoneTail : this.o.laterTail;
      throw new HttpException(`The ${this.o.noun} could not be completed (${reason}). ${tail}`, status >= 400 ? status : 500);
    } finally {
      this.release(k);
    }
  }

  /**
   * This attempt lost its lease (a stall longer than the lease; its owner looked dead): complete
   * by the other is the answer, a live take-over is waited for, an undone record is a 409.
   */
  private async overtaken(doc: D): Promise<R> {
    const now = await this.find(this.where(doc));
    if (now?.status === 'complete') return this.o.answer(now);
    if (now?.status === 'pending' && now.owner !== doc.owner) {
      const answer = await this.resume(now);
      if (answer !== null) return answer;
    }
    Object.assign(doc, { ledgerPosted: false });
    throw new ConflictException(`The ${this.o.noun} was taken over and undone while it ran.`);
  }

  /**
   * A step after the point of no return failed (e.g. the reply of the cart's emptying was lost):
   * the cart may be emptied already, so the record is never undone. Its lease is given up (expired,
   * no owner) so the same key again (or the re-driver) finishes it at once; the caller is told so.
   */
  private async finishLater(doc: D, reason: string, err: unknown): Promise<R> {
    const now = await this.find(this.where(doc)).catch(() => null);
    // Another attempt completed it meanwhile: that is the answer.
    if (now?.status === 'complete') return this.o.answer(now);
    this.o.log.warn({ err, [this.o.idField]: this.id(doc) }, `finishing the ${this.o.noun} failed; will retry`);
    await this.update(this.where(doc, { status: 'pending', owner: doc.owner }), { lockedUntil: new Date(0) }, { owner: 1 }).catch(() => false);
    throw new ServiceUnavailableException(
      `${this.Noun} ${String(this.id(doc))} is recorded but its last step failed (${reason}); it will be finished automatically. Send it again to see it.`,
    );
  }

  /**
   * Runs `undo` and marks the record failed. True when fully undone; false when it stays
   * compensating for the re-driver, when it is past its point of no return (to be finished, not
   * undone), or when another attempt completed (or failed) it meanwhile:
   * a lease can run out while the first attempt still works, and its finished record must stand.
   */
  async compensate(doc: D, reason: string): Promise<boolean> {
    // Never past the point of no return (read at this write, not from `doc`): the attempt that
    // marked it goes on to empty the cart, and undoing then would lose the purchase or sale.
    const undoable = { $or: [{ status: 'compensating' }, { status: 'pending', ledgerPosted: { $ne: true } }] };
    const owner = this.newOwner();
    const ours = await this.update(this.where(doc, undoable), { status: 'compensating', error: reason, owner });
    if (!ours) return false;
    doc.owner = owner;
    const k = this.hold(doc);
    try {
      await this.o.undo(doc);
    } catch (err) {
      // The lease given up (no owner, expired): the re-driver tries again.
      await this.update(this.where(doc, { status: 'compensating' }), { lockedUntil: new Date(0) }, { owner: 1 });
      this.o.log.warn({ err, [this.o.idField]: this.id(doc) }, `undoing the ${this.o.noun} failed; will retry`);
      return false;
    } finally {
      this.release(k);
    }
    await this.update(this.where(doc, { status: 'compensating' }), { status: 'failed', failedKey: doc.idempotencyKey, stockApplied: false, ledgerPosted: false }, { idempotencyKey: 1, owner: 1 });
    return true;
  }

  /** Re-drives at once and then every REDRIVE_EVERY_MS until `stop`. */
  start(): void {
    const round = () => void this.redrive().catch((err) => this.o.log.warn({ err }, `${this.o.noun} re-drive failed`));
    this.timer = setInterval(round, REDRIVE_EVERY_MS);
    this.timer.unref();
    round();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Takes over pending/compensating records whose owner is dead (lease expired, or its process
   * gone from this host): a crash mid-way, the caller never got an answer. Finishes those past the
   * point of no return (the cart may already be emptied, so undoing would lose them) and undoes
   * the rest. Returns how many it undid.
   */
  redrive(): Promise<number> {
    if (!this.redriving) this.redriving = this.redriveOnce().finally(() => (this.redriving = null));
    return this.redriving;
  }

  private async redriveOnce(): Promise<number> {
    const now = new Date();
    const open = { status: { $in: ['pending', 'compensating'] } };
    const [expired, live] = await Promise.all([
      this.records.find({ ...open, lockedUntil: { $lt: now } } as never).limit(100).toArray(),
      // Live leases: only those whose owner's process is gone (on this host) are taken.
      this.records.find({ ...open, lockedUntil: { $gte: now } } as never, { projection: { companyId: 1, [this.o.idField]: 1, owner: 1 } }).limit(500).toArray(),
    ]);
    const dead = (live as unknown as D[]).filter((d) => ownerGone(d.owner));
    const stale = [...(expired as unknown as D[]), ...(dead.length ? ((await this.records.find({ $or: dead.map((d) => this.where(d)) } as never).toArray()) as unknown as D[]) : [])];
    let undone = 0;
    for (const s of stale) {
      if (!this.free(s)) continue;
      const claimed = await this.claim(s);
      if (!claimed) continue;
      if (claimed.status === 'pending' && claimed.ledgerPosted) {
        await this.drive(claimed).catch(() => undefined);
        continue;
      }
      if (await this.compensate(claimed, claimed.error ?? `the ${this.o.noun} was interrupted`)) undone++;
    }
    return undone;
  }
}
