import type { ClientSession, Connection } from 'mongoose';

/**
 * Runs `fn` in one transaction, retrying transient errors (write conflicts) with a small random,
 * growing pause for up to a minute: the driver's own retry loop retries at once, and counters
 * selling the same products then collide again and again. `retryAlso` names further errors worth
 * a new attempt (a duplicate key lost to a concurrent first write).
 */
export async function inTransaction<T>(conn: Connection, fn: (s: ClientSession) => Promise<T>, retryAlso: (err: unknown) => boolean = () => false): Promise<T> {
  const session = await conn.startSession();
  const deadline = Date.now() + 60_000;
  try {
    for (let attempt = 1; ; attempt++) {
      session.startTransaction();
      try {
        const result = await fn(session);
        await session.commitTransaction();
        return result;
      } catch (err) {
        if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
        const transient = (err as { hasErrorLabel?: (l: string) => boolean }).hasErrorLabel?.('TransientTransactionError') ?? false;
        if (!(transient || retryAlso(err)) || Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(250, 4 * 2 ** attempt)));
      }
    }
  } finally {
    await session.endSession();
  }
}

/** A duplicate key in `collection` (MongoDB's message names it: "collection: db.coll index: ..."). */
export function duplicateIn(err: unknown, collection: string): boolean {
  if ((err as { code?: number }).code !== 11000) return false;
  return /collection: [^.\s]+\.(\S+) index:/.exec(String((err as { message?: string }).message))?.[1] === collection;
}
