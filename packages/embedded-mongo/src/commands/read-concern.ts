/**
 * Cluster time and read concern, as a single-node replica set answers them. The cluster time is
 * the commit clock (seconds of this server's start, commits since as the increment): every reply
 * carries it as `operationTime` and `$clusterTime`, so a driver's causally consistent session
 * sends `afterClusterTime`, which this server has always reached. `snapshot` reads outside a
 * transaction (find, aggregate, distinct) answer from one point in time, the current one, and
 * say it in `atClusterTime`; an older `atClusterTime` is refused, since no history is kept
 * outside transactions.
 */
import { Binary, Long, Timestamp } from 'bson';
import type { Engine } from '../engine';
import { MongoError } from '../errors';
import type { Doc } from '../values';

const LEVELS = new Set(['local', 'available', 'majority', 'linearizable', 'snapshot']);
/** Commands that take `readConcern: { level: 'snapshot' }` outside a transaction (as MongoDB). */
const SNAPSHOT_COMMANDS = new Set(['find', 'aggregate', 'distinct']);
const BOOT_SECONDS = Math.floor(Date.now() / 1000);
const NO_SIGNATURE = { hash: new Binary(Buffer.alloc(20)), keyId: Long.fromNumber(0) };

export function clusterTime(engine: Engine): Timestamp {
  const clock = engine.now();
  return new Timestamp({ t: BOOT_SECONDS + Math.floor(clock / 0x1_0000_0000), i: clock % 0x1_0000_0000 });
}

/** Adds `operationTime` and `$clusterTime` to a reply (ok or not), as a replica set member does. */
export function stampReply(engine: Engine, reply: Doc): Doc {
  const ts = clusterTime(engine);
  reply.operationTime = ts;
  reply.$clusterTime = { clusterTime: ts, signature: NO_SIGNATURE };
  return reply;
}

function timestampOf(v: unknown, field: string): Timestamp {
  if (v instanceof Timestamp || (v && typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'Timestamp')) return v as Timestamp;
  throw new MongoError('TypeMismatch', `BSON field 'readConcern.${field}' is the wrong type, expected type 'timestamp'`);
}

/**
 * Checks a command's `readConcern`; true when it asks for a snapshot read outside a transaction
 * (the caller's reply then names its `atClusterTime`). Never answers newer data than asked for:
 * what it cannot serve is refused.
 */
export function checkReadConcern(engine: Engine, command: string, body: Doc, inTransaction: boolean): boolean {
  const rc = body.readConcern;
  if (rc === undefined) return false;
  if (!rc || typeof rc !== 'object' || Array.isArray(rc)) throw new MongoError('TypeMismatch', "BSON field 'readConcern' is the wrong type, expected type 'object'");
  const { level, afterClusterTime, atClusterTime } = rc as Doc;
  if (level !== undefined && (typeof level !== 'string' || !LEVELS.has(level))) {
    throw new MongoError('FailedToParse', `'${String(level)}' is not a valid readConcern level; one of ${[...LEVELS].join(', ')}.`);
  }
  const now = clusterTime(engine);
  if (afterClusterTime !== undefined && timestampOf(afterClusterTime, 'afterClusterTime').greaterThan(now)) {
    throw new MongoError('InvalidOptions', `readConcern afterClusterTime ${timestampOf(afterClusterTime, 'afterClusterTime').toString()} is ahead of this server's cluster time ${now.toString()}: it was not handed out by this server.`);
  }
  if (atClusterTime !== undefined) {
    if (level !== 'snapshot') throw new MongoError('InvalidOptions', 'readConcern atClusterTime is only valid with level snapshot.');
    if (afterClusterTime !== undefined) throw new MongoError('InvalidOptions', 'readConcern may not give both atClusterTime and afterClusterTime.');
    const at = timestampOf(atClusterTime, 'atClusterTime');
    if (at.greaterThan(now)) throw new MongoError('SnapshotUnavailable', `readConcern atClusterTime ${at.toString()} is in the future (cluster time ${now.toString()}).`);
    if (at.lessThan(now)) {
      throw new MongoError('SnapshotTooOld', `readConcern atClusterTime ${at.toString()} is older than the latest commit: the embedded server keeps no history outside transactions; read without atClusterTime.`);
    }
  }
  if (level !== 'snapshot' || inTransaction) return false;
  if (!SNAPSHOT_COMMANDS.has(command)) throw new MongoError('InvalidOptions', `Command ${command} does not support readConcern level snapshot outside a transaction (find, aggregate and distinct do).`);
  return true;
}
