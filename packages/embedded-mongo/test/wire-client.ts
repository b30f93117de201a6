/**
 * Raw wire-protocol tools for the malformed-input tests: message builders, a socket client that
 * reads whole reply frames, and the built CLI started as its own process (so a server that spins
 * or dies cannot take the test runner with it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { BSON, type Document } from 'bson';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;
export const MORE_TO_COME = 1 << 1;
export const EXHAUST_ALLOWED = 1 << 16;

let nextRequestId = 1000;

export function header(length: number, opCode: number, requestId = nextRequestId++): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(requestId, 4);
  h.writeInt32LE(0, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

/** A complete message of `opCode` around `payload`, with a correct length. */
export function frame(opCode: number, payload: Buffer, requestId?: number): Buffer {
  return Buffer.concat([header(16 + payload.length, opCode, requestId), payload]);
}

/** An OP_MSG with one body section (kind 0) and optional extra raw sections. */
export function opMsg(body: Document, opts: { flags?: number; requestId?: number; sections?: Buffer[] } = {}): Buffer {
  const flags = Buffer.alloc(4);
  flags.writeUInt32LE(opts.flags ?? 0, 0);
  const doc = Buffer.from(BSON.serialize(body));
  return frame(OP_MSG, Buffer.concat([flags, Buffer.from([0]), doc, ...(opts.sections ?? [])]), opts.requestId);
}

/** A kind-1 document sequence section. */
export function sequenceSection(id: string, docs: Document[]): Buffer {
  const ident = Buffer.from(`${id}\0`);
  const bodies = docs.map((d) => Buffer.from(BSON.serialize(d)));
  const size = Buffer.alloc(4);
  size.writeInt32LE(4 + ident.length + bodies.reduce((n, b) => n + b.length, 0), 0);
  return Buffer.concat([Buffer.from([1]), size, ident, ...bodies]);
}

export function opQuery(ns: string, query: Document, requestId?: number): Buffer {
  const nsBytes = Buffer.from(`${ns}\0`);
  const counts = Buffer.alloc(8);
  counts.writeInt32LE(-1, 4);
  return frame(OP_QUERY, Buffer.concat([Buffer.alloc(4), nsBytes, counts, Buffer.from(BSON.serialize(query))]), requestId);
}

export interface Reply {
  responseTo: number;
  opCode: number;
  flags: number;
  doc: Document;
}

/** Decodes one reply frame; throws if the server sent something a driver could not read. */
export function decodeReply(buf: Buffer): Reply {
  const len = buf.readInt32LE(0);
  if (len !== buf.length) throw new Error(`reply length ${len} but frame of ${buf.length} bytes`);
  const responseTo = buf.readInt32LE(8);
  const opCode = buf.readInt32LE(12);
  if (opCode === OP_MSG) {
    if (buf[20] !== 0) throw new Error(`reply section kind ${buf[20]}`);
    return { responseTo, opCode, flags: buf.readUInt32LE(16), doc: BSON.deserialize(buf.subarray(21)) };
  }
  if (opCode === OP_REPLY) return { responseTo, opCode, flags: buf.readInt32LE(16), doc: BSON.deserialize(buf.subarray(36)) };
  throw new Error(`reply opcode ${opCode}`);
}

/** Throws unless `doc` is a success or a MongoDB-style error reply `{ ok: 0, errmsg, code, codeName }`. */
export function assertMongoReply(doc: Document): void {
  if (doc.ok === 1) return;
  if (doc.ok !== 0 || typeof doc.errmsg !== 'string' || typeof doc.code !== 'number' || typeof doc.codeName !== 'string') {
    throw new Error(`not a MongoDB reply: ${JSON.stringify(doc)}`);
  }
}

/** A raw socket that collects reply frames. */
export class RawClient {
  readonly replies: Reply[] = [];
  /** Set when the server sent bytes a driver could not read. */
  protocolError: string | null = null;
  closed = false;
  private buf = Buffer.alloc(0);
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      try {
        while (this.buf.length >= 4 && this.buf.length >= this.buf.readInt32LE(0)) {
          const len = this.buf.readInt32LE(0);
          if (len < 16) throw new Error(`server sent a frame of length ${len}`);
          this.replies.push(decodeReply(this.buf.subarray(0, len)));
          this.buf = this.buf.subarray(len);
        }
      } catch (err) {
        this.protocolError = (err as Error).message;
        socket.destroy();
      }
      this.wake();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static connect(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(new RawClient(s)));
      s.once('error', reject);
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  send(bytes: Buffer): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  /** Resolves when `pred` holds, the socket closes, or `ms` pass; tells which. */
  async until(pred: () => boolean, ms: number): Promise<'ok' | 'closed' | 'timeout'> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (pred()) return 'ok';
      if (this.closed) return 'closed';
      const left = deadline - Date.now();
      if (left <= 0) return 'timeout';
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** The reply to `requestId`, or why there is none. */
  async reply(requestId: number, ms = 2000): Promise<Reply | 'closed' | 'timeout'> {
    const find = () => this.replies.find((r) => r.responseTo === requestId);
    const r = await this.until(() => !!find(), ms);
    return r === 'ok' ? find()! : r;
  }

  /** Sends a command as OP_MSG and resolves with its reply document. */
  async command(body: Document, ms = 2000): Promise<Document> {
    const requestId = nextRequestId++;
    this.send(opMsg(body, { requestId }));
    const r = await this.reply(requestId, ms);
    if (typeof r === 'string') throw new Error(`no reply to ${JSON.stringify(body)}: ${r}`);
    return r.doc;
  }

  close(): void {
    this.socket.destroy();
  }
}

export function newRequestId(): number {
  return nextRequestId++;
}

/** Pings on a fresh connection; resolves with the round-trip time in ms (throws if there is no answer within `ms`). */
export async function pingTime(port: number, ms = 2000): Promise<number> {
  const started = Date.now();
  const c = await RawClient.connect(port);
  try {
    const doc = await c.command({ ping: 1, $db: 'admin' }, ms);
    if (doc.ok !== 1) throw new Error(`ping answered ${JSON.stringify(doc)}`);
    return Date.now() - started;
  } finally {
    c.close();
  }
}

export interface CliProcess {
  child: ChildProcess;
  port: number;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  exited(): boolean;
  stop(): Promise<void>;
}

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

/** Starts the built CLI (`dist/cli.js`, run `npm run build` first) on a free port. */
export function startCli(dbPath: string): Promise<CliProcess> {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--dbpath', dbPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exited = false;
  child.stderr!.on('data', (d) => (err += d));
  child.once('exit', () => (exited = true));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on mongodb:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        resolve({
          child,
          port: Number(m[1]),
          stderr: () => err,
          exited: () => exited,
          stop: async () => {
            if (!exited) {
              const done = new Promise((r) => child.once('exit', r));
              child.kill('SIGKILL');
              await done;
            }
            child.stdout?.destroy();
            child.stderr?.destroy();
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`embedded-mongo exited with ${code}: ${err}`)));
  });
}
