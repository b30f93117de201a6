import fs from 'node:fs';
/**
 * The command table and dispatch: resolves the session and transaction of a command, runs its
 * handler, waits for its writes to be durable and turns any failure into MongoDB's error reply.
 * Unknown commands answer CommandNotFound.
 */
import type { Engine } from '../engine';
import { validateDbName } from '../engine';
import { MongoError, toMongoError } from '../errors';
import type { Transaction } from '../sessions';
import { typeName, type Doc } from '../values';
import { Long } from 'bson';
import { aggregateCommands } from './aggregate';
import { catalogCommands } from './catalog';
import type { ConnectionInfo, Ctx, Handler, ServerInfo } from './context';
import { crudCommands } from './crud';
import { serverCommands } from './server';
import { checkReadConcern, clusterTime, stampReply } from './read-concern';
import { commandSessionKey } from './sessions-key';

const TABLE: Record<string, Handler> = { ...serverCommands, ...crudCommands, ...catalogCommands, ...aggregateCommands };

const BY_LOWER = new Map(Object.keys(TABLE).map((k) => [k.toLowerCase(), k]));

/** Writes a driver may retry with the same txnNumber after a network error. */
const RETRYABLE = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);

/** Commands a multi-document transaction may run. */
const IN_TRANSACTION = new Set([
  'find',
  'getMore',
  'killCursors',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'findandmodify',
  'aggregate',
  'distinct',
  'create',
  'createIndexes',
  'commitTransaction',
  'abortTransaction',
]);

function txnNumberOf(body: Doc): number {
  const v = body.txnNumber;
  if (typeof v !== 'number' && !(v instanceof Long)) {
    throw new MongoError('TypeMismatch', `BSON field 'txnNumber' is the wrong type '${typeName(v)}', expected type 'long'`);
  }
  const n = Number(v);
  if (!Number.isInteger(n)) throw new MongoError('BadValue', 'txnNumber must be an integer');
  return n;
}

/** Fields any command may carry, type-checked before anything reads them. */
function checkGenericFields(body: Doc): void {
  if (body.$db !== undefined && typeof body.$db !== 'string') {
    throw new MongoError('TypeMismatch', `BSON field '$db' is the wrong type '${typeName(body.$db)}', expected type 'string'`);
  }
  for (const f of ['autocommit', 'startTransaction']) {
    if (body[f] !== undefined && typeof body[f] !== 'boolean') {
      throw new MongoError('TypeMismatch', `BSON field '${f}' is the wrong type '${typeName(body[f])}', expected type 'bool'`);
    }
  }
  if (body.txnNumber !== undefined) txnNumberOf(body);
}

// BAHI_MONGO_TRACE=<file>: one line per command (db, collection, shape of its filter), to see where a request's commands go.
const TRACE = process.env.BAHI_MONGO_TRACE;
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object' && !(v instanceof Date) && v.constructor === Object) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
  return 1;
}
function traceCommand(db: string, name: string, body: Doc): void {
  const what = body.filter ?? body.query ?? body.q ?? (Array.isArray(body.updates) ? body.updates.map((u: Doc) => u.q) : undefined) ?? (Array.isArray(body.pipeline) ? body.pipeline : undefined);
  const line = `${Date.now()} ${db}.${String(body[Object.keys(body)[0]])} ${name}${body.autocommit === false ? ' txn' : ''} ${JSON.stringify(shape(what)) ?? ''}${Array.isArray(body.documents) ? ` docs=${body.documents.length}` : ''}\n`;
  fs.appendFileSync(TRACE as string, line);
}

/** Runs one command; every reply, ok or not, carries the cluster time (read-concern.ts). */
export async function runCommand(engine: Engine, server: ServerInfo, conn: ConnectionInfo, body: Doc): Promise<Doc> {
  return stampReply(engine, await runUnstamped(engine, server, conn, body));
}

async function runUnstamped(engine: Engine, server: ServerInfo, conn: ConnectionInfo, body: Doc): Promise<Doc> {
  let txn: Transaction | null = null;
  try {
    const first = Object.keys(body)[0];
    if (!first) throw new MongoError('FailedToParse', 'Empty command');
    checkGenericFields(body);
    const name = BY_LOWER.get(first.toLowerCase());
    if (first === 'commitTransaction' || first === 'abortTransaction') {
      engine.commandCounts.set(first, (engine.commandCounts.get(first) ?? 0) + 1);
      return await endTransaction(engine, body, first);
    }
    if (!name) throw new MongoError('CommandNotFound', `no such command: '${first}'`);
    engine.commandCounts.set(name, (engine.commandCounts.get(name) ?? 0) + 1);
    const db = validateDbName(body.$db ?? 'admin');
    if (TRACE) traceCommand(db, name, body);
    const key = commandSessionKey(body.lsid);
    const session = key ? engine.sessions.get(key) : null;
    if (body.autocommit === false) {
      if (!session) throw new MongoError('InvalidOptions', 'Transactions require a logical session id (lsid)');
      if (!IN_TRANSACTION.has(name)) {
        throw new MongoError('OperationNotSupportedInTransaction', `Cannot run '${first}' in a multi-document transaction.`);
      }
      const txnNumber = txnNumberOf(body);
      txn = body.startTransaction === true ? engine.sessions.start(session, txnNumber) : engine.sessions.active(session, txnNumber);
    }
    // A retryable write (txnNumber outside a transaction) runs once; a retry gets the same reply.
    const retryable = !txn && session && body.txnNumber !== undefined && RETRYABLE.has(name) ? txnNumberOf(body) : null;
    if (session && retryable !== null) {
      if (session.lastWrite?.txnNumber === retryable) return session.lastWrite.reply;
      if (retryable < session.txnNumber) {
        throw new MongoError('TransactionTooOld', `Retryable write with txnNumber ${retryable} is prohibited on session because a newer transaction with txnNumber ${session.txnNumber} has already started`);
      }
      session.txnNumber = retryable;
    }
    const snapshotAt = checkReadConcern(engine, name, body, txn !== null) ? clusterTime(engine) : null;
    const ctx: Ctx = { engine, server, conn, db, session, txn, w: { txn, pending: [], bypassValidation: body.bypassDocumentValidation === true } };
    const reply = await TABLE[name](ctx, body);
    // The result was taken whole at one point (cursors hold it): that point is the snapshot's time.
    if (snapshotAt) {
      if (reply.cursor && typeof reply.cursor === 'object') (reply.cursor as Doc).atClusterTime = snapshotAt;
      else reply.atClusterTime = snapshotAt;
    }
    if (session && retryable !== null) session.lastWrite = { txnNumber: retryable, reply };
    if (txn && Array.isArray(reply.writeErrors) && reply.writeErrors.length) txn.abort('a write in the transaction failed');
    if (ctx.w.pending.length) await Promise.all(ctx.w.pending);
    return reply;
  } catch (err) {
    const e = toMongoError(err);
    if (txn && txn.state === 'active') txn.abort(`an operation failed: ${e.message}`);
    if (body.autocommit === false && (e.code === 112 || e.code === 251) && !e.labels.includes('TransientTransactionError')) {
      e.labels.push('TransientTransactionError');
    }
    return e.toReply();
  }
}

async function endTransaction(engine: Engine, body: Doc, name: 'commitTransaction' | 'abortTransaction'): Promise<Doc> {
  if (body.$db !== 'admin') throw new MongoError('Unauthorized', `${name} may only be run against the admin database.`);
  const key = commandSessionKey(body.lsid);
  if (!key || body.txnNumber === undefined) throw new MongoError('InvalidOptions', `${name} requires a session and a txnNumber`);
  const session = engine.sessions.get(key);
  const txnNumber = txnNumberOf(body);
  const txn = session.txn;
  if (!txn || txn.txnNumber !== txnNumber) {
    if (txnNumber < session.txnNumber) throw new MongoError('TransactionTooOld', `txnNumber ${txnNumber} is less than last txnNumber ${session.txnNumber} seen in session`);
    throw new MongoError('NoSuchTransaction', `Given transaction number ${txnNumber} does not match any in-progress transactions.`, { labels: ['TransientTransactionError'] });
  }
  if (name === 'commitTransaction') {
    if (txn.state === 'committed') return { ok: 1 };
    if (txn.state === 'aborted') {
      throw new MongoError('NoSuchTransaction', `Transaction with { txnNumber: ${txnNumber} } has been aborted${txn.abortReason ? ` (${txn.abortReason})` : ''}.`, {
        labels: ['TransientTransactionError'],
      });
    }
    const pending: Promise<unknown>[] = [];
    txn.commit(pending);
    if (pending.length) await Promise.all(pending);
    return { ok: 1 };
  }
  if (txn.state === 'committed') throw new MongoError('TransactionCommitted', `Transaction with { txnNumber: ${txnNumber} } has been committed.`);
  if (txn.state === 'aborted') throw new MongoError('NoSuchTransaction', `Transaction with { txnNumber: ${txnNumber} } has been aborted.`);
  txn.abort('aborted by the client');
  return { ok: 1 };
}
