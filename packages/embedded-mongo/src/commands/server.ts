/** Handshake, diagnostics and session commands. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Long, ObjectId, Timestamp, UUID } from 'bson';
import { MongoError } from '../errors';
import { isPlainObject, typeName, type Doc } from '../values';
import { sessionKey } from './sessions-key';
import { countStoreFile, STORE_FILE } from '../storage';
import type { Ctx, Handler } from './context';

export const VERSION = '7.0.0';
export const MAX_WIRE_VERSION = 21;
export const MAX_BSON_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_WRITE_BATCH = 100_000;

export const REPLICA_SET = 'rs0';
const ELECTION_ID = new ObjectId('7fffffff0000000000000001');

/** The handshake reply: the primary of a single-node replica set (so sessions and transactions work). */
export function helloReply(ctx: Ctx, cmd: Doc, legacy: boolean): Doc {
  const reply: Doc = {};
  if (cmd.helloOk === true) reply.helloOk = true;
  const now = new Date();
  const opTime = { ts: new Timestamp({ t: Math.floor(now.getTime() / 1000), i: 1 }), t: Long.fromNumber(1) };
  Object.assign(reply, {
    topologyVersion: { processId: ctx.server.processId, counter: Long.fromNumber(0) },
    hosts: [ctx.server.me],
    setName: REPLICA_SET,
    setVersion: 1,
    [legacy ? 'ismaster' : 'isWritablePrimary']: true,
    secondary: false,
    primary: ctx.server.me,
    me: ctx.server.me,
    electionId: ELECTION_ID,
    lastWrite: { opTime, lastWriteDate: now, majorityOpTime: opTime, majorityWriteDate: now },
  });
  Object.assign(reply, {
    maxBsonObjectSize: MAX_BSON_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE,
    maxWriteBatchSize: MAX_WRITE_BATCH,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.conn.id,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  });
  return reply;
}

/** Streamed hello replies come at most this often, whatever `maxAwaitTimeMS` asks (0 would spin). */
export const MIN_HELLO_INTERVAL_MS = 500;
const MAX_AWAIT_MS = 2_147_483_647;

export interface AwaitableHello {
  /** How long to wait before each reply (already bounded). */
  awaitMs: number;
  /** The client's topologyVersion names this server process: wait before the first reply too. */
  current: boolean;
}

function isInteger(v: unknown): v is number | Long {
  return (typeof v === 'number' && Number.isInteger(v)) || v instanceof Long;
}

/**
 * The awaitable-hello arguments of a handshake command (`topologyVersion` + `maxAwaitTimeMS`,
 * sent by a driver's server monitor), or null for a plain hello. Wrong types answer TypeMismatch
 * and bad values BadValue, as MongoDB does, rather than reaching the streaming loop.
 */
export function awaitableHello(cmd: Doc, processId: ObjectId): AwaitableHello | null {
  const first = Object.keys(cmd)[0];
  if (first !== 'hello' && first !== 'isMaster' && first !== 'ismaster') return null;
  const tv = cmd.topologyVersion;
  const wait = cmd.maxAwaitTimeMS;
  if (tv === undefined && wait === undefined) return null;
  if (tv === undefined || wait === undefined) {
    throw new MongoError('BadValue', 'topologyVersion must be provided if and only if maxAwaitTimeMS is provided');
  }
  if (!isInteger(wait)) {
    throw new MongoError('TypeMismatch', `BSON field 'maxAwaitTimeMS' is the wrong type '${typeName(wait)}', expected types '[long, int]'`);
  }
  const awaitMs = Number(wait);
  if (awaitMs < 0) throw new MongoError('BadValue', 'maxAwaitTimeMS must be a non-negative integer');
  if (!isPlainObject(tv)) {
    throw new MongoError('TypeMismatch', `BSON field 'topologyVersion' is the wrong type '${typeName(tv)}', expected type 'object'`);
  }
  if (!(tv.processId instanceof ObjectId)) {
    throw new MongoError('TypeMismatch', `BSON field 'topologyVersion.processId' is the wrong type '${typeName(tv.processId)}', expected type 'objectId'`);
  }
  if (!isInteger(tv.counter)) {
    throw new MongoError('TypeMismatch', `BSON field 'topologyVersion.counter' is the wrong type '${typeName(tv.counter)}', expected type 'long'`);
  }
  return { awaitMs: Math.min(awaitMs, MAX_AWAIT_MS), current: tv.processId.equals(processId) };
}

const buildInfo: Handler = () => ({
  version: VERSION,
  gitVersion: 'embedded',
  modules: [],
  allocator: 'system',
  javascriptEngine: 'none',
  sysInfo: 'deprecated',
  versionArray: [7, 0, 0, 0],
  openssl: { running: 'none' },
  buildEnvironment: {},
  bits: 64,
  debug: false,
  maxBsonObjectSize: MAX_BSON_SIZE,
  storageEngines: ['lmdb', 'memory'],
  ok: 1,
});

const hostInfo: Handler = () => ({
  system: { currentTime: new Date(), hostname: os.hostname(), cpuAddrSize: 64, memSizeMB: Math.round(os.totalmem() / 1048576), numCores: os.cpus().length, cpuArch: os.arch() },
  os: { type: os.type(), name: os.platform(), version: os.release() },
  extra: {},
  ok: 1,
});

/** MongoDB's opcounters: insert, find, update, delete and getMore by kind; every other command (findAndModify too) under `command`. */
function opcounters(counts: Map<string, number>) {
  const out = { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 };
  for (const [name, n] of counts) {
    if (name === 'insert') out.insert += n;
    else if (name === 'find') out.query += n;
    else if (name === 'update') out.update += n;
    else if (name === 'delete') out.delete += n;
    else if (name === 'getMore') out.getmore += n;
    else out.command += n;
  }
  return out;
}

const serverStatus: Handler = (ctx) => {
  const conns = ctx.server.connections();
  return {
    host: `${os.hostname()}:${ctx.server.port}`,
    version: VERSION,
    process: 'embedded-mongo',
    pid: process.pid,
    uptime: Math.floor((Date.now() - ctx.server.startedAt) / 1000),
    uptimeMillis: Date.now() - ctx.server.startedAt,
    localTime: new Date(),
    connections: { current: conns.current, available: 100_000, totalCreated: conns.totalCreated, active: conns.current },
    storageEngine: { name: ctx.server.dbPath ? 'lmdb' : 'memory', persistent: !!ctx.server.dbPath },
    opcounters: opcounters(ctx.engine.commandCounts),
    metrics: {
      cursor: { open: { total: ctx.engine.cursors.size } },
      commands: Object.fromEntries([...ctx.engine.commandCounts].map(([name, total]) => [name, { total }])),
    },
    logicalSessionRecordCache: { activeSessionsCount: ctx.engine.sessions.size },
    ok: 1,
  };
};

function ensureAdmin(ctx: Ctx, name: string): void {
  if (ctx.db !== 'admin') throw new MongoError('Unauthorized', `${name} may only be run against the admin database.`);
}

const getParameter: Handler = (ctx, cmd) => {
  ensureAdmin(ctx, 'getParameter');
  const params: Doc = {
    featureCompatibilityVersion: { version: '7.0' },
    transactionLifetimeLimitSeconds: 60,
    maxTransactionLockRequestTimeoutMillis: 5,
    authenticationMechanisms: [],
    internalQueryMaxBlockingSortMemoryUsageBytes: 100 * 1024 * 1024,
  };
  if (cmd.getParameter === '*' || (typeof cmd.getParameter === 'object' && cmd.getParameter !== null && (cmd.getParameter as Doc).allParameters)) {
    return { ...params, ok: 1 };
  }
  const out: Doc = {};
  for (const k of Object.keys(cmd)) if (k in params) out[k] = params[k];
  return { ...out, ok: 1 };
};

const endSessions: Handler = (ctx, cmd) => {
  const list = Array.isArray(cmd.endSessions) ? cmd.endSessions : [];
  for (const lsid of list) {
    const key = sessionKey(lsid);
    if (!key) continue;
    ctx.engine.sessions.end(key);
    ctx.engine.cursors.killSession(key);
  }
  return { ok: 1 };
};

const ok: Handler = () => ({ ok: 1 });

/**
 * `{ bahiSnapshot: "<absolute empty dir>" }` on admin (root only when auth is on): writes every
 * database as of one instant to `<dir>/embedded-mongo.mdb` (a store file a server opens as its
 * dbPath) and answers its documents per collection, counted from the copy itself.
 */
async function snapshot(ctx: Ctx, cmd: Doc): Promise<Doc> {
  if (ctx.db !== 'admin') throw new MongoError('Unauthorized', 'bahiSnapshot may only be run against the admin database.');
  const dir = cmd.bahiSnapshot;
  if (typeof dir !== 'string' || !path.isAbsolute(dir)) throw new MongoError('BadValue', 'bahiSnapshot needs the absolute path of an empty directory.');
  const persistence = ctx.engine.persistence;
  if (!persistence?.snapshot) throw new MongoError('IllegalOperation', 'This server keeps its data in memory (no dbPath): there is nothing to snapshot.');
  fs.mkdirSync(dir, { recursive: true });
  if (fs.readdirSync(dir).length) throw new MongoError('BadValue', `bahiSnapshot: ${dir} is not empty.`);
  const file = path.join(dir, STORE_FILE);
  const started = Date.now();
  await persistence.snapshot(file);
  return { file, bytes: fs.statSync(file).size, millis: Date.now() - started, counts: countStoreFile(file), ok: 1 };
}

export const serverCommands: Record<string, Handler> = {
  bahiSnapshot: snapshot,
  hello: (ctx, cmd) => helloReply(ctx, cmd, false),
  isMaster: (ctx, cmd) => helloReply(ctx, cmd, true),
  ismaster: (ctx, cmd) => helloReply(ctx, cmd, true),
  ping: ok,
  buildInfo,
  buildinfo: buildInfo,
  hostInfo,
  serverStatus,
  getParameter,
  setParameter: ok,
  getCmdLineOpts: () => ({ argv: ['embedded-mongo'], parsed: {}, ok: 1 }),
  getLog: (_ctx, cmd) => (cmd.getLog === '*' ? { names: ['global', 'startupWarnings'], ok: 1 } : { totalLinesWritten: 0, log: [], ok: 1 }),
  whatsmyuri: (ctx) => ({ you: ctx.conn.remote, ok: 1 }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
  getFreeMonitoringStatus: () => ({ state: 'disabled', ok: 1 }),
  getDefaultRWConcern: () => ({ defaultReadConcern: { level: 'local' }, defaultWriteConcern: { w: 1, wtimeout: 0 }, ok: 1 }),
  features: () => ({ ok: 1 }),
  logout: ok,
  endSessions,
  killSessions: endSessions,
  killAllSessions: ok,
  refreshSessions: ok,
  startSession: () => ({ id: { id: new UUID() }, timeoutMinutes: 30, ok: 1 }),
  getLastError: () => ({ n: 0, err: null, ok: 1 }),
  resetError: ok,
  fsync: ok,
  lockInfo: () => ({ lockInfo: [], ok: 1 }),
  listCommands: () => ({ commands: {}, ok: 1 }),
};
