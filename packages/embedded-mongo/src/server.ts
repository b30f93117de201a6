/**
 * The embedded MongoDB-compatible server: a TCP listener speaking the wire protocol over the
 * in-memory engine, persisted to LMDB when given a `dbPath`.
 */
import net from 'node:net';
import path from 'node:path';
import { runCommand } from './commands';
import { Authenticator, type AuthOptions } from './commands/auth';
import type { ConnectionInfo, ServerInfo } from './commands/context';
import { Engine } from './engine';
import { MongoError, toMongoError } from './errors';
import { LmdbPersistence } from './storage';
import { ObjectId } from 'bson';
import { completeLength, encodeReply, encodeStreamReply, parseMessage, replyId, type Request } from './wire';

export interface EmbeddedMongoOptions {
  /** TCP port; 0 picks a free one. Default 27017. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Directory for durable data (LMDB). Without it the data lives in memory only. */
  dbPath?: string;
  /**
   * Sync every commit to disk before acknowledging it. Default false: acknowledged writes
   * survive the server process being killed, and the disk is synced every 100 ms.
   */
  fsync?: boolean;
  /** Host name advertised as the replica set member (default: `host`, or 127.0.0.1 when listening on all interfaces). */
  advertisedHost?: string;
  /** Seconds between TTL index passes (MongoDB: 60). */
  ttlMonitorSeconds?: number;
  /** Abort transactions running longer than this (MongoDB: 60). */
  transactionLifetimeSeconds?: number;
  /**
   * Users (SCRAM-SHA-256). With at least one, every command but hello/ping/saslStart/saslContinue
   * needs an authenticated user allowed on its database; without any the server stays open.
   */
  auth?: AuthOptions;
  /** A JSON file of stored users (`{ "users": [...] }`, credentials only), added to `auth.users`. */
  usersFile?: string;
}

const MAX_MESSAGE_BYTES = 48_000_000 + 16 * 1024 * 1024;
const CURSOR_IDLE_MS = 10 * 60 * 1000;
const SESSION_IDLE_MS = 30 * 60 * 1000;

class Connection implements ConnectionInfo {
  private buffer: Buffer = Buffer.alloc(0);
  private chain: Promise<void> = Promise.resolve();
  readonly remote: string;
  readonly local: string;

  constructor(
    readonly id: number,
    private readonly socket: net.Socket,
    private readonly server: EmbeddedMongo,
  ) {
    this.remote = `${socket.remoteAddress}:${socket.remotePort}`;
    this.local = `${socket.localAddress}:${socket.localPort}`;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', () => socket.destroy());
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (this.buffer.length >= 4) {
        const declared = this.buffer.readInt32LE(0);
        if (declared < 16 || declared > MAX_MESSAGE_BYTES) {
          this.socket.destroy();
          return;
        }
      }
      const len = completeLength(this.buffer);
      if (!len) return;
      const msg = this.buffer.subarray(0, len);
      this.buffer = this.buffer.subarray(len);
      this.chain = this.chain.then(() => this.handle(msg));
    }
  }

  private async handle(msg: Buffer): Promise<void> {
    let req: Request;
    try {
      req = parseMessage(msg);
    } catch (err) {
      // Without a parsable request there is no way to answer it: drop the connection.
      this.server.log(`connection ${this.id}: ${(err as Error).message}`);
      this.socket.destroy();
      return;
    }
    if (isAwaitableHello(req.body)) {
      void this.streamHello(req);
      return;
    }
    const reply = await this.server.execute(this, req.body);
    if (req.moreToCome || this.socket.destroyed) return;
    let out: Buffer;
    try {
      out = encodeReply(req, reply);
    } catch (err) {
      out = encodeReply(req, new MongoError('BSONObjectTooLarge', `reply could not be encoded: ${(err as Error).message}`).toReply());
    }
    this.socket.write(out);
  }

  /**
   * Awaitable hello of a driver's server monitor: answer after `maxAwaitTimeMS` (at once if the
   * client knew another server process) and, when exhaust is allowed, keep streaming a reply
   * every `maxAwaitTimeMS` with moreToCome set, as the server monitoring specification expects.
   */
  private async streamHello(req: Request): Promise<void> {
    const body = req.body;
    const awaitMs = Math.max(0, Number(body.maxAwaitTimeMS));
    const known = (body.topologyVersion as { processId?: { equals?(o: unknown): boolean } }).processId;
    let wait = known?.equals?.(this.server.processId) ? awaitMs : 0;
    let responseTo = req.requestId;
    for (;;) {
      if (wait) await new Promise((resolve) => setTimeout(resolve, wait).unref());
      if (this.socket.destroyed) return;
      const reply = await this.server.execute(this, body);
      const out = encodeStreamReply(responseTo, reply, req.exhaustAllowed);
      this.socket.write(out);
      if (!req.exhaustAllowed) return;
      responseTo = replyId(out);
      wait = awaitMs;
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

function isAwaitableHello(body: Record<string, unknown>): boolean {
  const first = Object.keys(body)[0];
  return (first === 'hello' || first === 'isMaster' || first === 'ismaster') && !!body.topologyVersion && body.maxAwaitTimeMS !== undefined;
}

export class EmbeddedMongo {
  readonly host: string;
  readonly port: number;
  readonly dbPath: string | null;
  readonly engine: Engine;
  readonly processId = new ObjectId();
  private readonly server: net.Server;
  private readonly connections = new Map<number, Connection>();
  private nextConnId = 1;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly info: ServerInfo;
  private readonly auth: Authenticator;
  private stopping: Promise<void> | null = null;

  private constructor(server: net.Server, engine: Engine, host: string, port: number, dbPath: string | null, opts: EmbeddedMongoOptions, auth: Authenticator) {
    this.server = server;
    this.auth = auth;
    this.engine = engine;
    this.host = host;
    this.port = port;
    this.dbPath = dbPath;
    const advertised = opts.advertisedHost ?? (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host);
    this.info = {
      startedAt: Date.now(),
      host,
      port,
      me: `${advertised.includes(':') ? `[${advertised}]` : advertised}:${port}`,
      processId: this.processId,
      dbPath,
      connections: () => ({ current: this.connections.size, totalCreated: this.nextConnId - 1 }),
    };
    server.on('connection', (socket) => {
      const id = this.nextConnId++;
      const conn = new Connection(id, socket, this);
      this.connections.set(id, conn);
      socket.on('close', () => this.connections.delete(id));
    });
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    every((opts.ttlMonitorSeconds ?? 60) * 1000, () => engine.expireTtl());
    every(60_000, () => {
      engine.cursors.sweep(CURSOR_IDLE_MS);
      for (const key of engine.sessions.sweep(SESSION_IDLE_MS)) engine.cursors.killSession(key);
    });
  }

  /** Starts a server. Rejects with a clear message when the port is busy or the data directory is in use. */
  static async start(opts: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
    const host = opts.host ?? '127.0.0.1';
    const requested = opts.port ?? 27017;
    const dbPath = opts.dbPath ? path.resolve(opts.dbPath) : null;
    // Users first: a bad users file stops the start before anything listens.
    const auth = Authenticator.fromOptions(opts.auth, opts.usersFile);
    const persistence = dbPath ? new LmdbPersistence(dbPath, { fsync: opts.fsync }) : null;
    let engine: Engine;
    try {
      engine = new Engine({ persistence, transactionLifetimeSeconds: opts.transactionLifetimeSeconds });
    } catch (err) {
      await persistence?.close();
      throw err;
    }
    const server = net.createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', (err: NodeJS.ErrnoException) =>
          reject(
            new Error(
              err.code === 'EADDRINUSE'
                ? `Port ${requested} (embedded MongoDB) is already in use. Stop whatever holds it or choose another port.`
                : `Port ${requested} (embedded MongoDB) cannot be used: ${err.message}`,
            ),
          ),
        );
        server.listen(requested, host, () => resolve());
      });
    } catch (err) {
      await engine.close();
      throw err;
    }
    const port = (server.address() as net.AddressInfo).port;
    return new EmbeddedMongo(server, engine, host, port, dbPath, opts, auth);
  }

  /** A connection string for this server, e.g. `mongodb://127.0.0.1:27017`. */
  get uri(): string {
    const h = this.host.includes(':') ? `[${this.host}]` : this.host === '0.0.0.0' ? '127.0.0.1' : this.host;
    return `mongodb://${h}:${this.port}`;
  }

  /** Runs one command document (as the wire protocol delivers it) and returns the reply. */
  execute(conn: ConnectionInfo, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const run = (b: Record<string, unknown>) => runCommand(this.engine, this.info, conn, b).catch((err) => toMongoError(err).toReply());
    return this.auth.execute(conn, body, run);
  }

  /** True when users are configured and commands need authentication. */
  get authEnabled(): boolean {
    return this.auth.enabled;
  }

  log(message: string): void {
    if (process.env.EMBEDDED_MONGO_DEBUG) process.stderr.write(`[embedded-mongo] ${message}\n`);
  }

  /** Stops listening, closes every connection, aborts open transactions and flushes storage. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const t of this.timers) clearInterval(t);
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      for (const conn of this.connections.values()) conn.close();
      await closed;
      await this.engine.close();
    })();
    return this.stopping;
  }
}
