/**
 * Logical sessions and multi-document transactions.
 *
 * A transaction writes to the live collections straight away, locking every document it
 * touches and keeping its before-image. Other sessions read the before-images (they never see
 * uncommitted data); another transaction writing a locked document gets a WriteConflict
 * (TransientTransactionError, which drivers retry); a plain write waits until the owner
 * commits or aborts. Commit persists the touched documents in one LMDB transaction; abort puts
 * the before-images back. A transaction older than `transactionLifetimeLimitSeconds` is aborted.
 */
import type { Collection } from './collection';
import { MongoError } from './errors';

export type TxnState = 'active' | 'committed' | 'aborted';

/** Thrown by a write outside any transaction that hit a document locked by `txn`: wait and retry. */
export class Blocked extends Error {
  constructor(readonly txn: Transaction) {
    super('blocked by a transaction');
  }
}

export function writeConflict(): MongoError {
  return new MongoError(
    'WriteConflict',
    'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
    { labels: ['TransientTransactionError'] },
  );
}

/** The commit clock, and the open transactions (whose snapshots keep replaced versions alive). */
export interface TxnClock {
  now(): number;
  tick(): number;
  open?: Set<Transaction>;
}

export class Transaction {
  state: TxnState = 'active';
  abortReason = '';
  readonly touched = new Map<Collection, Set<string>>();
  readonly startedAt = Date.now();
  readonly done: Promise<void>;
  private resolveDone!: () => void;
  private timer: NodeJS.Timeout | null = null;

  /** Commit-clock time the transaction started at: documents committed later conflict. */
  readonly snapshot: number;

  constructor(
    readonly session: ServerSession,
    readonly txnNumber: number,
    lifetimeMs: number,
    private readonly clock: TxnClock,
  ) {
    this.snapshot = clock.now();
    clock.open?.add(this);
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    if (lifetimeMs > 0) {
      this.timer = setTimeout(() => this.abort('transaction exceeded its lifetime limit'), lifetimeMs);
      this.timer.unref();
    }
  }

  touch(coll: Collection, id: string): void {
    let ids = this.touched.get(coll);
    if (!ids) this.touched.set(coll, (ids = new Set()));
    ids.add(id);
  }

  /** Releases the locks and persists the touched documents; the returned promises settle when durable. */
  commit(pending: Promise<unknown>[]): void {
    if (this.state !== 'active') return;
    const ver = this.clock.tick();
    for (const [coll, ids] of this.touched) coll.commitTxn(this, ids, ver, pending);
    this.finish('committed');
  }

  abort(reason = 'aborted'): void {
    if (this.state !== 'active') return;
    this.abortReason = reason;
    for (const [coll, ids] of this.touched) coll.rollbackTxn(this, ids);
    this.finish('aborted');
  }

  private finish(state: TxnState): void {
    this.state = state;
    this.clock.open?.delete(this);
    this.touched.clear();
    if (this.timer) clearTimeout(this.timer);
    this.resolveDone();
  }
}

export class ServerSession {
  lastUse = Date.now();
  /** Highest txnNumber seen on this session. */
  txnNumber = -1;
  /** The current or most recent transaction. */
  txn: Transaction | null = null;
  /** The reply of the last retryable write, answered again if the driver retries it. */
  lastWrite: { txnNumber: number; reply: Record<string, unknown> } | null = null;

  constructor(readonly key: string) {}
}

export class SessionRegistry {
  private readonly sessions = new Map<string, ServerSession>();

  constructor(
    private readonly txnLifetimeMs: number,
    private readonly clock: TxnClock,
  ) {}

  get(key: string): ServerSession {
    let s = this.sessions.get(key);
    if (!s) this.sessions.set(key, (s = new ServerSession(key)));
    s.lastUse = Date.now();
    return s;
  }

  /** Starts transaction `txnNumber` on the session (aborting an older one still open). */
  start(session: ServerSession, txnNumber: number): Transaction {
    if (txnNumber < session.txnNumber) {
      throw new MongoError('TransactionTooOld', `Cannot start transaction ${txnNumber} on session because a newer transaction ${session.txnNumber} has already started`);
    }
    if (txnNumber === session.txnNumber && session.txn) {
      throw new MongoError('ConflictingOperationInProgress', `Transaction ${txnNumber} has already been started`);
    }
    session.txn?.abort('a newer transaction started on the session');
    session.txnNumber = txnNumber;
    session.txn = new Transaction(session, txnNumber, this.txnLifetimeMs, this.clock);
    return session.txn;
  }

  /** The session's open transaction `txnNumber`, or NoSuchTransaction. */
  active(session: ServerSession, txnNumber: number): Transaction {
    const txn = session.txn;
    if (!txn || txn.txnNumber !== txnNumber || txnNumber !== session.txnNumber) {
      throw new MongoError('NoSuchTransaction', `Given transaction number ${txnNumber} does not match any in-progress transactions. The active transaction number is ${session.txnNumber}`, {
        labels: ['TransientTransactionError'],
      });
    }
    if (txn.state === 'aborted') {
      throw new MongoError('NoSuchTransaction', `Transaction with { txnNumber: ${txnNumber} } has been aborted${txn.abortReason ? ` (${txn.abortReason})` : ''}.`, {
        labels: ['TransientTransactionError'],
      });
    }
    if (txn.state === 'committed') {
      throw new MongoError('TransactionCommitted', `Transaction with { txnNumber: ${txnNumber} } has been committed.`);
    }
    return txn;
  }

  end(key: string): void {
    const s = this.sessions.get(key);
    if (!s) return;
    s.txn?.abort('the session ended');
    this.sessions.delete(key);
  }

  /** Ends sessions idle for longer than `idleMs`. Returns the ended keys. */
  sweep(idleMs: number): string[] {
    const now = Date.now();
    const ended: string[] = [];
    for (const [key, s] of this.sessions) {
      if (now - s.lastUse > idleMs && (!s.txn || s.txn.state !== 'active')) {
        this.sessions.delete(key);
        ended.push(key);
      }
    }
    return ended;
  }

  abortAll(reason: string): void {
    for (const s of this.sessions.values()) s.txn?.abort(reason);
  }

  get size(): number {
    return this.sessions.size;
  }
}
