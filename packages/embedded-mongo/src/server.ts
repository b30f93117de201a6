/**
 * The embedded MongoDB-compatible server: a TCP listener speaking the wire protocol over the
 * in-memory engine, persisted to LMDB when given a `dbPath`.
 */
import net from 'node:net';
import path from 'node:path';
import { runCommand } from './commands';
import { Authenticator, type AuthOptions } from './commands/auth';
import type { ConnectionInfo, ServerInfo } from './commands/context';
import { awaitableHello, MIN_HELLO_INTERVAL_MS, type AwaitableHello } from './commands/server';
import { Engine } from './engine';
import { MongoError, toMongoError } from './errors';
import { LmdbPersistence } from './storage';
import { ObjectId } from 'bson';
import { BadMessage, encodeReply, encodeStreamReply, MAX_MESSAGE_BYTES, OP_MSG, parseMessage, replyId, type Request } from './wire';

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

const CURSOR_IDLE_MS = 10 * 60 * 1000;
const SESSION_IDLE_MS = 30 * 60 * 1000;

/** Messages received but not yet answered before the connection stops reading more. */
const MAX_QUEUED = 64;

class Connection implements ConnectionInfo {
  /** Received bytes of the message being assembled (kept apart: concatenating per chunk is quadratic). */
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Declared length of the message being assembled, 0 until its header arrived. */
  private expected = 0;
  private queued = 0;
  private chain: Promise<void> = Promise.resolve();
  /** Generation of the exhaust hello stream: a newer awaitable hello ends the older stream. */
  private stream = 0;
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
    socket.on('data', (chunk) => {
      try {
        this.onData(chunk);
      } catch (err) {
        this.fail(err);
      }
    });
    socket.on('drain', () => this.flow());
    socket.on('error', () => socket.destroy());
  }

  private onData(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 4) {
      if (!this.expected) {
        const declared = this.joined().readInt32LE(0);
        // A length that cannot be a message leaves no way to find the next one: drop the connection.
        if (declared < 16 || declared > MAX_MESSAGE_BYTES) {
          this.server.log(`connection ${this.id}: invalid message length ${declared}`);
          this.socket.destroy();
          return;
        }
        this.expected = declared;
      }
      if (this.buffered < this.expected) return;
      const all = this.joined();
      const msg = all.subarray(0, this.expected);
      const rest = all.subarray(this.expected);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
      this.expected = 0;
      this.queued++;
      this.chain = this.chain
        .then(() => this.handle(msg))
        .catch((err) => this.fail(err))
        .finally(() => {
          this.queued--;
          this.flow();
        });
      this.flow();
    }
  }

  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0];
  }

  /** Stops reading while the client has many unanswered messages or is not reading its replies. */
  private flow(): void {
    if (this.socket.destroyed) return;
    const busy = this.queued > MAX_QUEUED || this.socket.writableNeedDrain;
    if (busy && !this.socket.isPaused()) this.socket.pause();
    else if (!busy && this.socket.isPaused()) this.socket.resume();
  }

  /** A bug reached the connection: close only this connection, and say so. */
  private fail(err: unknown): void {
    process.stderr.write(`[embedded-mongo] connection ${this.id}: internal error, connection closed: ${(err as Error)?.stack ?? String(err)}\n`);
    this.socket.destroy();
  }

  private async handle(msg: Buffer): Promise<void> {
    let req: Request;
    try {
      req = parseMessage(msg);
    } catch (err) {
      if (!(err instanceof BadMessage)) throw err;
      this.server.log(`connection ${this.id}: ${err.message}`);
      // Framing intact: answer in the client's format; otherwise drop the connection.
      if (err.replyTo) this.reply(err.replyTo, err.error.toReply());
      else this.socket.destroy();
      return;
    }
    let awaitable: AwaitableHello | null = null;
    if (req.opCode === OP_MSG) {
      try {
        awaitable = awaitableHello(req.body, this.server.processId);
      } catch (err) {
        this.reply(req, toMongoError(err).toReply());
        return;
      }
    }
    if (awaitable && req.exhaustAllowed) {
      void this.streamHello(req, awaitable).catch((err) => this.fail(err));
      return;
    }
    if (awaitable) return this.streamHello(req, awaitable);
    this.reply(req, await this.server.execute(this, req.body));
  }

  private reply(req: Pick<Request, 'requestId' | 'opCode' | 'moreToCome'>, reply: Record<string, unknown>): void {
    if (req.moreToCome || this.socket.destroyed) return;
    let out: Buffer;
    try {
      out = encodeReply(req, reply);
    } catch (err) {
      out = encodeReply(req, new MongoError('BSONObjectTooLarge', `reply could not be encoded: ${(err as Error).message}`).toReply());
    }
    this.socket.write(out);
    this.flow();
  }

  /** Resolves after `ms`, or as soon as the connection closes (so no timer outlives it). */
  private until(ms: number, event: 'timeout' | 'drain'): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.socket.off('close', done);
        this.socket.off('drain', done);
        resolve();
      };
      const timer = event === 'timeout' ? setTimeout(done, ms) : undefined;
      this.socket.once('close', done);
      if (event === 'drain') this.socket.once('drain', done);
    });
  }

  /**
   * Awaitable hello of a driver's server monitor: answer after `maxAwaitTimeMS` (at once if the
   * client knew another server process) and, when exhaust is allowed, keep streaming a reply
   * every `maxAwaitTimeMS` (at least MIN_HELLO_INTERVAL_MS apart) with moreToCome set, as the
   * server monitoring specification expects.
   */
  private async streamHello(req: Request, a: AwaitableHello): Promise<void> {
    const generation = ++this.stream;
    const live = () => !this.socket.destroyed && generation === this.stream;
    let wait = a.current ? a.awaitMs : 0;
    let responseTo = req.requestId;
    for (;;) {
      if (wait) await this.until(wait, 'timeout');
      if (live() && this.socket.writableNeedDrain) await this.until(0, 'drain');
      if (!live()) return;
      const reply = await this.server.execute(this, req.body);
      if (!live()) return;
      const out = encodeStreamReply(responseTo, reply, req.exhaustAllowed);
      this.socket.write(out);
      if (!req.exhaustAllowed) return;
      responseTo = replyId(out);
      wait = Math.max(a.awaitMs, MIN_HELLO_INTERVAL_MS);
    }
  }

  close(): void {
    this.socket.destroy();
  }
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
