import { ConflictException, HttpException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { castForInsert } from '../insert';
import { pendingEventFields } from '../events/relay';
import type { OutboxRecord, OutboxStatus } from './schema';

/** How often records left by a crash are looked for. */
export const REDRIVE_EVERY_MS = 10_000;

/** A lease length from the environment variable `name`, else the default (2 NATS timeouts and margin). */
export function leaseMs(name: string, fallback = 30_000): number {
  const v = Number(process.env[name]);
  return v > 0 ? v : fallback;
}

export interface OutboxOptions<D extends OutboxRecord, R> {
  model: Model<D>;
  /** The record's per-company id field, e.g. `saleId`. */
  idField: keyof D & string;
  /** `sale`, `purchase`: in messages and logs. */
  noun: string;
  leaseMs: number;
  log: Logger;
  /**
   * The forward steps up to the point of no return (stock, ledger entry), each idempotent;
   * record progress with `outbox.mark`. Setting `ledgerPosted` marks the point of no return.
   */
  apply(doc: D): Promise<void>;
  /** The steps after it (e.g. empty the cart), idempotent: the re-driver may run them again. */
  finish(doc: D): Promise<void>;
  /** Reverses every step (each reverse idempotent); throws when a service cannot be reached. */
  undo(doc: D): Promise<void>;
  /** The answer for a complete record; a retry with the same key gets it again. */
  answer(doc: D): R;
  /** After the record became complete (e.g. emit an event); must not throw. */
  completed?(doc: D): void;
  /**
   * The owner's EventRelay: the completing update also marks the record's domain event pending
   * (`evt`, one write with the fact), and the relay is kicked after it; the answer never waits.
   */
  relay?: { kick(): void };
  /** Ends of the failure message: everything undone / the undo left to the re-driver. */
  undoneTail: string;
  laterTail: string;
}

/**
 * One business fact across services (a sale, a purchase), all or nothing. The record is stored
 * `pending` with a lease and an idempotency key, the steps run (`apply`, `finish`), then it is
 * `complete`. A failed step moves it to `compensating`, `undo` runs, then `failed` (the key moves
 * to `failedKey`, so a retry starts afresh). The same key again replays the answer, waits for a
 * running attempt, or takes over a stalled one. A re-driver (`start`) takes over records whose
 * lease expired: it finishes those past the point of no return and undoes the rest. Leases are
 * claimed with one conditional update, so several replicas can re-drive at once.
 */
export class Outbox<D extends OutboxRecord, R> {
  private timer: NodeJS.Timeout | null = null;
  private redriving: Promise<number> | null = null;
  private readonly Noun: string;
  /** Whether the record's schema keeps createdAt/updatedAt (set here as mongoose would). */
  private readonly stamped: boolean;

  constructor(private readonly o: OutboxOptions<D, R>) {
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

  /**
   * Writes progress fields, on the stored record and on `doc`. `ledgerPosted: true` (the point of
   * no return) is written only while the record is still pending: an attempt whose lease ran out
   * may have been taken over and undone meanwhile, and must then stop before emptying the cart.
   */
  async mark(doc: D, fields: Partial<D>): Promise<void> {
    const filter = fields.ledgerPosted === true ? this.where(doc, { status: 'pending' }) : this.where(doc);
    if (!(await this.update(filter, fields)) && fields.ledgerPosted === true) {
      throw new ConflictException(`The ${this.o.noun} was taken over and undone while it ran.`);
    }
    Object.assign(doc, fields);
  }

  /** The answer of an earlier attempt with this key, or null when there was none (or it was just undone: start afresh). */
  async replay(companyId: number, key: string): Promise<R | null> {
    const earlier = await this.find({ companyId, idempotencyKey: key });
    return earlier ? this.resume(earlier) : null;
  }

  /** Stores a new pending record (with `lockedUntil: lease()`) and drives it; a racing twice-sent key answers what the other attempt answers. */
  async run(doc: D): Promise<R> {
    try {
      const row = castForInsert(this.o.model as never, doc);
      if (this.stamped) row.createdAt = row.updatedAt = new Date();
      await this.records.insertOne(row as never);
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
      const other = await this.find({ companyId: doc.companyId, idempotencyKey: doc.idempotencyKey });
      if (!other) throw new ConflictException(`This ${this.o.noun} is being retried; please try again.`);
      const answer = await this.resume(other);
      if (answer === null) throw new ConflictException(`This ${this.o.noun} is being retried; please try again.`);
      return answer;
    }
    return this.drive(doc);
  }

  /**
   * A retried request: the finished answer, the running attempt's answer, or a takeover of a
   * stalled one. A stalled undo (a service was down) is finished now; null then tells the caller
   * to start afresh, so a retry after the service is back sells at once instead of waiting for
   * the re-driver.
   */
  private async resume(doc: D): Promise<R | null> {
    for (;;) {
      if (doc.status === 'complete') return this.o.answer(doc);
      if (doc.status === 'failed') throw new ConflictException(`${this.Noun} ${String(this.id(doc))} failed: ${doc.error ?? 'it was undone'}`);
      if (doc.status === 'pending') {
        const claimed = await this.claim(doc, 'pending');
        if (claimed) return this.drive(claimed);
      }
      if (doc.status === 'compensating') {
        const claimed = await this.claim(doc, 'compensating');
        if (claimed && (await this.compensate(claimed, claimed.error ?? 'it was undone'))) return null;
        throw new ConflictException(`The earlier attempt of this ${this.o.noun} is being undone; please try again in a moment.`);
      }
      await new Promise((r) => setTimeout(r, 100));
      const now = await this.find(this.where(doc));
      if (!now) throw new NotFoundException(`${this.Noun} ${String(this.id(doc))} not found.`);
      doc = now;
    }
  }

  /** Takes the lease of a record whose lease expired; null when someone else holds it. */
  private async claim(doc: D, status: OutboxStatus): Promise<D | null> {
    const now = new Date();
    const $set = { lockedUntil: new Date(now.getTime() + this.o.leaseMs), ...(this.stamped ? { updatedAt: now } : {}) };
    const claimed = await this.records.findOneAndUpdate(this.where(doc, { status, lockedUntil: { $lt: now } }) as never, { $set } as never, { returnDocument: 'after' });
    return (claimed as D | null) ?? null;
  }

  /** Marks a pending record complete; false when it was no longer pending. */
  private async complete(doc: D): Promise<boolean> {
    const fields: Record<string, unknown> = { status: 'complete' };
    if (this.o.relay) Object.assign(fields, pendingEventFields());
    if (!(await this.update(this.where(doc, { status: 'pending' }), fields))) return false;
    this.o.completed?.(doc);
    this.o.relay?.kick();
    return true;
  }

  /** The forward steps; any failure undoes what was applied and answers with a clear error. */
  private async drive(doc: D): Promise<R> {
    try {
      await this.o.apply(doc);
      // The fence before the steps that cannot be undone (emptying the cart): still pending past
      // the point of no return, whoever wrote it (a GST number's own update does not check the
      // status, as `mark` does), with the lease renewed for them.
      if (!(await this.update(this.where(doc, { status: 'pending', ledgerPosted: true }), { lockedUntil: this.lease() }))) {
        const now = await this.find(this.where(doc));
        if (now?.status === 'complete') return this.o.answer(now);
        Object.assign(doc, { ledgerPosted: false });
        throw new ConflictException(`The ${this.o.noun} was taken over and undone while it ran.`);
      }
      await this.o.finish(doc);
      if (!(await this.complete(doc))) throw new ConflictException(`The ${this.o.noun} was taken over while it was being completed.`);
      return this.o.answer(doc);
    } catch (err) {
      const reason = err instanceof HttpException ? err.message : 'an internal error';
      if (doc.ledgerPosted) return this.finishLater(doc, reason, err);
      this.o.log.warn({ err, [this.o.idField]: this.id(doc) }, `${this.o.noun} failed; undoing`);
      const undone = await this.compensate(doc, reason).catch(() => false);
      const status = err instanceof HttpException ? err.getStatus() : 500;
      const tail = undone ? this.o.undoneTail : this.o.laterTail;
      throw new HttpException(`The ${this.o.noun} could not be completed (${reason}). ${tail}`, status >= 400 ? status : 500);
    }
  }

  /**
   * A step after the point of no return failed (e.g. the reply of the cart's emptying was lost):
   * the cart may be emptied already, so the record is never undone. Its lease is expired so the
   * same key again (or the re-driver) finishes it at once; the caller is told so.
   */
  private async finishLater(doc: D, reason: string, err: unknown): Promise<R> {
    const now = await this.find(this.where(doc)).catch(() => null);
    // Another attempt completed it meanwhile: that is the answer.
    if (now?.status === 'complete') return this.o.answer(now);
    this.o.log.warn({ err, [this.o.idField]: this.id(doc) }, `finishing the ${this.o.noun} failed; will retry`);
    await this.update(this.where(doc, { status: 'pending' }), { lockedUntil: new Date(0) }).catch(() => false);
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
    const ours = await this.update(this.where(doc, undoable), { status: 'compensating', error: reason });
    if (!ours) return false;
    try {
      await this.o.undo(doc);
    } catch (err) {
      // An expired lease: the re-driver tries again.
      await this.mark(doc, { lockedUntil: new Date(0) } as Partial<D>);
      this.o.log.warn({ err, [this.o.idField]: this.id(doc) }, `undoing the ${this.o.noun} failed; will retry`);
      return false;
    }
    await this.update(this.where(doc, { status: 'compensating' }), { status: 'failed', failedKey: doc.idempotencyKey, stockApplied: false, ledgerPosted: false }, { idempotencyKey: 1 });
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
   * Takes over pending/compensating records whose lease expired (a crash mid-way, the caller
   * never got an answer): finishes those whose ledger entry is posted (the cart may already be
   * emptied, so undoing would lose them) and undoes the rest. Returns how many it undid.
   */
  redrive(): Promise<number> {
    if (!this.redriving) this.redriving = this.redriveOnce().finally(() => (this.redriving = null));
    return this.redriving;
  }

  private async redriveOnce(): Promise<number> {
    const stale = (await this.records.find({ status: { $in: ['pending', 'compensating'] }, lockedUntil: { $lt: new Date() } } as never).limit(100).toArray()) as unknown as D[];
    let undone = 0;
    for (const s of stale) {
      const claimed = await this.claim(s, s.status);
      if (!claimed) continue;
      if (claimed.status === 'pending' && claimed.ledgerPosted) {
        await this.finishLate(claimed);
        continue;
      }
      if (await this.compensate(claimed, claimed.error ?? `the ${this.o.noun} was interrupted`)) undone++;
    }
    return undone;
  }

  /** The last steps of an interrupted record past the point of no return. */
  private async finishLate(doc: D): Promise<void> {
    try {
      await this.o.finish(doc);
      await this.complete(doc);
    } catch (err) {
      // A service unreachable: keep it pending with an expired lease; the next round tries again.
      await this.mark(doc, { lockedUntil: new Date(0) } as Partial<D>);
      this.o.log.warn({ err, [this.o.idField]: this.id(doc) }, `finishing the ${this.o.noun} failed; will retry`);
    }
  }
}
