/**
 * Authentication and authorization as MongoDB does them: SCRAM-SHA-256 (RFC 5802 / RFC 7677)
 * through saslStart / saslContinue or the driver's speculativeAuthenticate in hello, users kept
 * as MongoDB keeps them (salt, iteration count, StoredKey, ServerKey: never the password), and
 * a gate in front of the dispatcher. With no users configured the server stays open.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { Binary } from 'bson';
import { MongoError, toMongoError } from '../errors';
import { isPlainObject, type Doc } from '../values';
import type { ConnectionInfo } from './context';

export const SCRAM_SHA_256 = 'SCRAM-SHA-256';
/** MongoDB's default `scramSHA256IterationCount`; drivers refuse fewer than 4096. */
export const DEFAULT_ITERATIONS = 15000;

/** `root` may do anything; `readWrite` reads and writes one database (MongoDB's built-in roles). */
export interface Role {
  role: 'root' | 'readWrite';
  db: string;
}

export interface ScramCredential {
  iterationCount: number;
  /** base64 */
  salt: string;
  /** base64 of H(ClientKey) */
  storedKey: string;
  /** base64 of HMAC(SaltedPassword, "Server Key") */
  serverKey: string;
}

/** A user as stored (MongoDB's `admin.system.users` shape): no password. */
export interface StoredUser {
  user: string;
  /** The authentication database (authSource); `admin` by default. */
  db: string;
  credentials: { 'SCRAM-SHA-256': ScramCredential };
  roles: Role[];
}

/** A user given at start: a password (hashed at once and dropped) or stored credentials. */
export interface UserSpec {
  user: string;
  db?: string;
  password?: string;
  credentials?: { 'SCRAM-SHA-256': ScramCredential };
  /** Roles; a plain string is a role on `db` (`'root'`, or `'readWrite'` on the auth db). */
  roles: (Role | string)[];
}

export interface AuthOptions {
  users: UserSpec[];
}

// ---- SASLprep (RFC 4013), as the driver applies it to the password ------------------------

const NON_ASCII_SPACE = /[\u00A0\u1680\u2000-\u200B\u202F\u205F\u3000]/g;
const MAPPED_TO_NOTHING = /[\u00AD\u034F\u1806\u180B-\u180D\u200C\u200D\u2060\uFE00-\uFE0F\uFEFF]/g;
// RFC 3454 C.2.1, C.2.2, C.3, C.4 (BMP part), C.5-C.9: prohibited output.
const PROHIBITED =
  /[\u0000-\u001F\u007F-\u009F\u0340\u0341\u06DD\u070F\u180E\u200E\u200F\u2028-\u202E\u2060-\u2063\u206A-\u206F\u2FF0-\u2FFB\uD800-\uDFFF\uE000-\uF8FF\uFDD0-\uFDEF\uFFF9-\uFFFF]/u;

/** RFC 4013 SASLprep of a password: spaces mapped, invisible characters dropped, NFKC. */
export function saslprep(input: string): string {
  const mapped = input.replace(MAPPED_TO_NOTHING, '').replace(NON_ASCII_SPACE, ' ').normalize('NFKC');
  if (PROHIBITED.test(mapped)) throw new MongoError('BadValue', 'the password holds a character SASLprep prohibits');
  return mapped;
}

// ---- SCRAM-SHA-256 ------------------------------------------------------------------------

const h = (data: Buffer) => createHash('sha256').update(data).digest();
const hmac = (key: Buffer, data: string | Buffer) => createHmac('sha256', key).update(data).digest();

/** The stored credential of a password: MongoDB's SCRAM-SHA-256 entry. */
export function scramCredential(password: string, iterationCount = DEFAULT_ITERATIONS, salt: Buffer = randomBytes(28)): ScramCredential {
  if (!Number.isInteger(iterationCount) || iterationCount < 4096) throw new MongoError('BadValue', 'the SCRAM iteration count must be an integer of at least 4096');
  if (!password) throw new MongoError('BadValue', 'a password must not be empty');
  const salted = pbkdf2Sync(Buffer.from(saslprep(password), 'utf8'), salt, iterationCount, 32, 'sha256');
  return {
    iterationCount,
    salt: salt.toString('base64'),
    storedKey: h(hmac(salted, 'Client Key')).toString('base64'),
    serverKey: hmac(salted, 'Server Key').toString('base64'),
  };
}

const NAME = /^[^\0]{1,256}$/;
const DB = /^[^\0/\\. "$]{1,63}$/;

/** A user spec as stored: roles resolved, the password hashed and dropped. */
export function storedUser(spec: UserSpec): StoredUser {
  if (!isPlainObject(spec)) throw new MongoError('BadValue', 'a user must be an object');
  if (typeof spec.user !== 'string' || !NAME.test(spec.user)) throw new MongoError('BadValue', 'a user needs a non-empty name');
  const db = spec.db ?? 'admin';
  if (typeof db !== 'string' || !DB.test(db)) throw new MongoError('BadValue', `user ${spec.user}: invalid authentication database`);
  let credential: ScramCredential;
  if (spec.password !== undefined) {
    if (typeof spec.password !== 'string') throw new MongoError('BadValue', `user ${spec.user}: the password must be a string`);
    credential = scramCredential(spec.password);
  } else {
    const c = spec.credentials?.[SCRAM_SHA_256];
    if (!c || !Number.isInteger(c.iterationCount) || c.iterationCount < 4096 || ![c.salt, c.storedKey, c.serverKey].every((v) => typeof v === 'string' && v.length > 0)) {
      throw new MongoError('BadValue', `user ${spec.user}: needs a password or SCRAM-SHA-256 credentials (iterationCount >= 4096, salt, storedKey, serverKey)`);
    }
    credential = { iterationCount: c.iterationCount, salt: c.salt, storedKey: c.storedKey, serverKey: c.serverKey };
  }
  if (!Array.isArray(spec.roles) || !spec.roles.length) throw new MongoError('BadValue', `user ${spec.user}: needs at least one role`);
  const roles = spec.roles.map((r): Role => {
    const role = typeof r === 'string' ? { role: r, db } : r;
    if (!isPlainObject(role) || (role.role !== 'root' && role.role !== 'readWrite') || typeof role.db !== 'string' || !DB.test(role.db)) {
      throw new MongoError('BadValue', `user ${spec.user}: a role is { role: 'root' | 'readWrite', db }`);
    }
    if (role.role === 'root' && role.db !== 'admin') throw new MongoError('BadValue', `user ${spec.user}: root is a role on the admin database`);
    return { role: role.role, db: role.db };
  });
  return { user: spec.user, db, credentials: { [SCRAM_SHA_256]: credential }, roles };
}

/** Reads a users file: `{ "users": [StoredUser, ...] }`. It may not hold passwords. */
export function readUsersFile(file: string): StoredUser[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the users file ${file}: ${(err as Error).message}`);
  }
  const users = isPlainObject(parsed) ? parsed.users : undefined;
  if (!Array.isArray(users)) throw new Error(`the users file ${file} must be { "users": [ ... ] }`);
  return users.map((u: UserSpec) => {
    if (isPlainObject(u) && 'password' in u) throw new Error(`the users file ${file} holds a password for ${String(u.user)}: store only SCRAM-SHA-256 credentials (see the README)`);
    try {
      return storedUser(u);
    } catch (err) {
      throw new Error(`the users file ${file}: ${(err as Error).message}`);
    }
  });
}

// ---- per-connection state and the gate ----------------------------------------------------

interface Conversation {
  user: StoredUser;
  /** The client-first-message without its GS2 header. */
  clientFirstBare: string;
  gs2Header: string;
  serverFirst: string;
  nonce: string;
  /** After the proof: waiting for the client's empty message. */
  proven: boolean;
  skipEmptyExchange: boolean;
}

interface ConnAuth {
  user: StoredUser | null;
  conversation: Conversation | null;
}

/** Commands anybody may run before authenticating. */
const OPEN = new Set(['hello', 'ismaster', 'ping', 'saslstart', 'saslcontinue', 'logout']);

/** Commands on `admin` every authenticated user may run: handshake, sessions, transactions. */
const ADMIN_FOR_ALL = new Set([
  'hello',
  'ismaster',
  'ping',
  'buildinfo',
  'endsessions',
  'killsessions',
  'refreshsessions',
  'startsession',
  'committransaction',
  'aborttransaction',
  'connectionstatus',
  'whatsmyuri',
  'logout',
  'getparameter',
  'getdefaultrwconcern',
]);

/** readWrite covers everything in its database but dropping the database itself (dbAdmin's). */
const NOT_FOR_READ_WRITE = new Set(['dropdatabase']);

const AUTH_FAILED = () => new MongoError('AuthenticationFailed', 'Authentication failed.');

function bytesOf(payload: unknown): Buffer {
  if (payload instanceof Binary) return Buffer.from(payload.buffer.subarray(0, payload.position));
  if (payload instanceof Uint8Array) return Buffer.from(payload);
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  throw new MongoError('BadValue', 'the SASL payload must be binary data');
}

/** `a=1,b=2` -> { a: '1', b: '2' } (values may hold '='). */
function attributes(message: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of message.split(',')) {
    const eq = part.indexOf('=');
    if (eq === 1) out.set(part[0]!, part.slice(2));
  }
  return out;
}

/** RFC 5802 saslname: `=2C` is ',' and `=3D` is '='; any other '=' is malformed. */
function decodeSaslName(name: string): string {
  if (/=(?!2C|3D)/.test(name)) throw new MongoError('BadValue', 'invalid SCRAM user name encoding');
  return name.replace(/=2C/g, ',').replace(/=3D/g, '=');
}

export class Authenticator {
  private readonly users = new Map<string, StoredUser>();
  private readonly conns = new WeakMap<ConnectionInfo, ConnAuth>();

  constructor(users: StoredUser[] = []) {
    for (const u of users) {
      const key = `${u.db}.${u.user}`;
      if (this.users.has(key)) throw new MongoError('BadValue', `user ${key} is given twice`);
      this.users.set(key, u);
    }
  }

  static fromOptions(opts: AuthOptions | undefined, usersFile?: string): Authenticator {
    const users = (opts?.users ?? []).map(storedUser);
    if (usersFile) users.push(...readUsersFile(usersFile));
    return new Authenticator(users);
  }

  /** Auth is on once a user exists. */
  get enabled(): boolean {
    return this.users.size > 0;
  }

  private state(conn: ConnectionInfo): ConnAuth {
    let s = this.conns.get(conn);
    if (!s) this.conns.set(conn, (s = { user: null, conversation: null }));
    return s;
  }

  /**
   * Runs one command for a connection: the auth commands here, anything the connection may
   * not run refused with Unauthorized, the rest through `run`.
   */
  async execute(conn: ConnectionInfo, body: Doc, run: (body: Doc) => Promise<Doc>): Promise<Doc> {
    const first = Object.keys(body)[0] ?? '';
    const name = first.toLowerCase();
    const db = typeof body.$db === 'string' ? body.$db : 'admin';
    try {
      switch (name) {
        case 'saslstart':
          return this.saslStart(conn, db, body);
        case 'saslcontinue':
          return this.saslContinue(conn, body);
        case 'authenticate':
          throw new MongoError('MechanismUnavailable', `Received authentication for mechanism ${String(body.mechanism)} which is not enabled`);
        case 'logout':
          this.state(conn).user = null;
          return { ok: 1 };
        case 'connectionstatus':
          if (!this.enabled) break;
          return this.connectionStatus(conn);
        case 'hello':
        case 'ismaster':
          return this.hello(conn, body, await run(body));
      }
      if (!this.enabled || OPEN.has(name)) return await run(body);
      const user = this.state(conn).user;
      if (!user) throw new MongoError('Unauthorized', `Command ${first} requires authentication`);
      if (!this.allowed(user, name, db, body)) {
        throw new MongoError('Unauthorized', `not authorized on ${db} to execute command { ${first}: ${JSON.stringify(body[first])}, $db: ${JSON.stringify(db)} }`);
      }
      return await run(body);
    } catch (err) {
      return toMongoError(err).toReply();
    }
  }

  private allowed(user: StoredUser, name: string, db: string, body: Doc): boolean {
    if (user.roles.some((r) => r.role === 'root')) return true;
    const dbs = targetDatabases(name, db, body);
    if (dbs.length === 1 && dbs[0] === 'admin' && ADMIN_FOR_ALL.has(name)) return true;
    if (NOT_FOR_READ_WRITE.has(name)) return false;
    return dbs.every((d) => user.roles.some((r) => r.role === 'readWrite' && r.db === d));
  }

  private connectionStatus(conn: ConnectionInfo): Doc {
    const user = this.state(conn).user;
    return {
      authInfo: {
        authenticatedUsers: user ? [{ user: user.user, db: user.db }] : [],
        authenticatedUserRoles: user ? user.roles.map((r) => ({ role: r.role, db: r.db })) : [],
      },
      ok: 1,
    };
  }

  /** hello answers `saslSupportedMechs` for the named user and runs a speculative saslStart. */
  private hello(conn: ConnectionInfo, body: Doc, reply: Doc): Doc {
    if (reply.ok !== 1) return reply;
    if (typeof body.saslSupportedMechs === 'string' && this.users.has(body.saslSupportedMechs)) reply.saslSupportedMechs = [SCRAM_SHA_256];
    const spec = body.speculativeAuthenticate;
    if (isPlainObject(spec) && spec.saslStart !== undefined) {
      // A failed speculative start is left out: the driver then runs saslStart and gets the error.
      try {
        const db = typeof spec.db === 'string' ? spec.db : 'admin';
        const started = this.saslStart(conn, db, spec);
        delete started.ok;
        reply.speculativeAuthenticate = started;
      } catch {
        this.state(conn).conversation = null;
      }
    }
    return reply;
  }

  private saslStart(conn: ConnectionInfo, db: string, cmd: Doc): Doc {
    const state = this.state(conn);
    state.conversation = null;
    if (cmd.mechanism !== SCRAM_SHA_256) {
      throw new MongoError('MechanismUnavailable', `Received authentication for mechanism ${String(cmd.mechanism)} which is unknown or not enabled`);
    }
    const message = bytesOf(cmd.payload).toString('utf8');
    // GS2 header: no channel binding ('n') or client supports it but server does not ('y').
    const m = /^([ny]),(?:a=[^,]*)?,(.*)$/s.exec(message);
    if (!m) throw AUTH_FAILED();
    const gs2Header = message.slice(0, message.length - m[2]!.length);
    const clientFirstBare = m[2]!;
    const attrs = attributes(clientFirstBare);
    const name = attrs.get('n');
    const clientNonce = attrs.get('r');
    if (!name || !clientNonce || !clientFirstBare.startsWith('n=')) throw AUTH_FAILED();
    const user = this.users.get(`${db}.${decodeSaslName(name)}`);
    if (!user) throw AUTH_FAILED();
    const cred = user.credentials[SCRAM_SHA_256];
    const nonce = clientNonce + randomBytes(24).toString('base64');
    const serverFirst = `r=${nonce},s=${cred.salt},i=${cred.iterationCount}`;
    const options = isPlainObject(cmd.options) ? cmd.options : {};
    state.conversation = { user, clientFirstBare, gs2Header, serverFirst, nonce, proven: false, skipEmptyExchange: options.skipEmptyExchange === true };
    return { conversationId: 1, done: false, payload: new Binary(Buffer.from(serverFirst, 'utf8')), ok: 1 };
  }

  private saslContinue(conn: ConnectionInfo, cmd: Doc): Doc {
    const state = this.state(conn);
    const conv = state.conversation;
    if (!conv || Number(cmd.conversationId) !== 1) {
      state.conversation = null;
      throw new MongoError('ProtocolError', 'No SASL session state found');
    }
    if (conv.proven) {
      state.conversation = null;
      state.user = conv.user;
      return { conversationId: 1, done: true, payload: new Binary(Buffer.alloc(0)), ok: 1 };
    }
    try {
      const message = bytesOf(cmd.payload).toString('utf8');
      const proofAt = message.lastIndexOf(',p=');
      if (proofAt < 0) throw AUTH_FAILED();
      const withoutProof = message.slice(0, proofAt);
      const attrs = attributes(message);
      if (attrs.get('c') !== Buffer.from(conv.gs2Header, 'utf8').toString('base64') || attrs.get('r') !== conv.nonce) throw AUTH_FAILED();
      const proof = Buffer.from(attrs.get('p') ?? '', 'base64');
      const cred = conv.user.credentials[SCRAM_SHA_256];
      const storedKey = Buffer.from(cred.storedKey, 'base64');
      const authMessage = `${conv.clientFirstBare},${conv.serverFirst},${withoutProof}`;
      const signature = hmac(storedKey, authMessage);
      if (proof.length !== signature.length) throw AUTH_FAILED();
      const clientKey = Buffer.alloc(proof.length);
      for (let i = 0; i < proof.length; i++) clientKey[i] = proof[i]! ^ signature[i]!;
      if (!timingSafeEqual(h(clientKey), storedKey)) throw AUTH_FAILED();
      const verifier = `v=${hmac(Buffer.from(cred.serverKey, 'base64'), authMessage).toString('base64')}`;
      if (conv.skipEmptyExchange) {
        state.conversation = null;
        state.user = conv.user;
        return { conversationId: 1, done: true, payload: new Binary(Buffer.from(verifier, 'utf8')), ok: 1 };
      }
      conv.proven = true;
      return { conversationId: 1, done: false, payload: new Binary(Buffer.from(verifier, 'utf8')), ok: 1 };
    } catch (err) {
      state.conversation = null;
      throw err instanceof MongoError && err.code === 18 ? err : AUTH_FAILED();
    }
  }
}

/** The databases a command reads or writes: its own, plus `$out`/`$merge` targets and renames. */
function targetDatabases(name: string, db: string, body: Doc): string[] {
  if (name === 'renamecollection') {
    return [body.renameCollection, body.to].map((ns) => (typeof ns === 'string' && ns.includes('.') ? ns.slice(0, ns.indexOf('.')) : 'admin'));
  }
  if (name === 'aggregate' && Array.isArray(body.pipeline)) {
    const last = body.pipeline[body.pipeline.length - 1];
    if (isPlainObject(last)) {
      const spec = last.$merge ?? last.$out;
      const into = isPlainObject(spec) ? (isPlainObject(spec.into) ? spec.into : spec) : null;
      if (into && typeof into.db === 'string') return [db, into.db];
    }
  }
  return [db];
}
