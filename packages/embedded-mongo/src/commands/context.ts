import { Decimal128, Long, type ObjectId } from 'bson';
import type { Collection, WriteCtx } from '../collection';
import type { Engine } from '../engine';
import { validateCollectionName } from '../engine';
import { MongoError } from '../errors';
import { Blocked, type ServerSession, type Transaction } from '../sessions';
import { isPlainObject, typeName, type Doc } from '../values';

export interface ConnectionInfo {
  readonly id: number;
  readonly remote: string;
  readonly local: string;
}

export interface ServerInfo {
  readonly startedAt: number;
  readonly host: string;
  readonly port: number;
  /** `host:port` this server advertises as the replica set's only member. */
  readonly me: string;
  /** Identifies this server process in `topologyVersion`. */
  readonly processId: ObjectId;
  readonly connections: () => { current: number; totalCreated: number };
  readonly dbPath: string | null;
}

/** Everything a command handler works with. */
export interface Ctx {
  readonly engine: Engine;
  readonly server: ServerInfo;
  readonly conn: ConnectionInfo;
  readonly db: string;
  readonly session: ServerSession | null;
  readonly txn: Transaction | null;
  /** Persistence writes the reply must wait for. */
  readonly w: WriteCtx;
}

export type Handler = (ctx: Ctx, cmd: Doc) => Doc | Promise<Doc>;

/** The collection name a command targets (the value of its first field). */
export function collectionName(ctx: Ctx, cmd: Doc, name: string): string {
  return validateCollectionName(ctx.db, cmd[name]);
}

export function existing(ctx: Ctx, name: string): Collection | undefined {
  return ctx.engine.collection(ctx.db, name);
}

export function optionalDoc(cmd: Doc, field: string): Doc | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) {
    throw new MongoError('TypeMismatch', `BSON field '${field}' is the wrong type '${typeName(v)}', expected type 'object'`);
  }
  return v;
}

export function optionalInt(cmd: Doc, field: string): number | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  // Only BSON numbers: a string or bool is a client bug MongoDB refuses, even "5".
  const n = typeof v === 'number' ? v : v instanceof Long ? v.toNumber() : v instanceof Decimal128 ? Number(v.toString()) : NaN;
  if (!Number.isFinite(n)) {
    throw new MongoError('TypeMismatch', `BSON field '${field}' is the wrong type '${typeName(v)}', expected types '[long, int, decimal, double]'`);
  }
  return Math.trunc(n);
}

/** A `batchSize`: a number that is not negative. */
export function optionalBatchSize(cmd: Doc, field = 'batchSize'): number | undefined {
  const n = optionalInt(cmd, field);
  if (n !== undefined && n < 0) throw new MongoError('BadValue', 'batchSize value must be non-negative');
  return n;
}

export function optionalArray(cmd: Doc, field: string): unknown[] | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) {
    throw new MongoError('TypeMismatch', `BSON field '${field}' is the wrong type '${typeName(v)}', expected type 'array'`);
  }
  return v;
}

/** Runs a unit of work, waiting for (and retrying after) transactions that hold what it writes. */
export async function unit<T>(ctx: Ctx, fn: () => T): Promise<T> {
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if (err instanceof Blocked && !ctx.txn) {
        await err.txn.done;
        continue;
      }
      throw err;
    }
  }
}
