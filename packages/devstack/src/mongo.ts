import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface MongoHandle {
  uri: string;
  stop(): Promise<void>;
}

/** The part of @bahi/embedded-mongo used here; loaded lazily so the rest of devstack works without it. */
interface EmbeddedMongoModule {
  EmbeddedMongo: {
    start(opts: { port?: number; dbPath?: string }): Promise<{ uri: string; stop(): Promise<void> }>;
  };
  storedUser(spec: { user: string; password: string; roles: { role: 'root' | 'readWrite'; db: string }[] }): object;
}

function embeddedMongo(): EmbeddedMongoModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@bahi/embedded-mongo') as EmbeddedMongoModule;
}

/**
 * MONGODB_URI when set (real MongoDB), otherwise the embedded server in this process,
 * in memory unless `dbPath` is given.
 */
export async function startMongo(opts: { port?: number; dbPath?: string } = {}): Promise<MongoHandle> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, stop: async () => {} };
  const { EmbeddedMongo } = embeddedMongo();
  const server = await EmbeddedMongo.start({ port: opts.port ?? 0, dbPath: opts.dbPath });
  return { uri: server.uri, stop: () => server.stop() };
}

export interface MongoLogin {
  user: string;
  password: string;
}

/** The embedded server's logins: `root` for tools and the auditor, one per service. */
export interface MongoCredentials {
  root: MongoLogin;
  services: Record<string, MongoLogin>;
}

export interface MongoCredentialFiles {
  credentials: MongoCredentials;
  /** `<dataDir>/mongo-credentials.json`: the passwords, for the services' URIs (mode 0600). */
  credentialsFile: string;
  /** `<dataDir>/mongo-users.json`: what the server is given, salted keys only (mode 0600). */
  usersFile: string;
}

const password = () => randomBytes(24).toString('base64url');

function readCredentials(file: string): MongoCredentials | null {
  if (!fs.existsSync(file)) return null;
  let parsed: MongoCredentials;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as MongoCredentials;
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}). Fix it, or delete it to generate new MongoDB credentials.`);
  }
  const ok = (l: unknown): l is MongoLogin => !!l && typeof (l as MongoLogin).user === 'string' && typeof (l as MongoLogin).password === 'string' && !!(l as MongoLogin).password;
  if (!ok(parsed?.root) || typeof parsed.services !== 'object' || !Object.values(parsed.services).every(ok)) {
    throw new Error(`${file} does not hold { root: { user, password }, services: { <name>: { user, password } } }. Fix it, or delete it to generate new MongoDB credentials.`);
  }
  return parsed;
}

/**
 * Credentials of the embedded server kept in `dataDir`: generated on first start, reused later
 * (a service added since gets its own). Each service's user reads and writes only `bahi_<service>`.
 */
export function mongoCredentials(dataDir: string, services: readonly string[]): MongoCredentialFiles {
  const credentialsFile = path.join(dataDir, 'mongo-credentials.json');
  const usersFile = path.join(dataDir, 'mongo-users.json');
  const existing = readCredentials(credentialsFile);
  const credentials: MongoCredentials = existing ?? { root: { user: 'root', password: password() }, services: {} };
  let changed = !existing;
  for (const s of services) {
    if (!credentials.services[s]) {
      credentials.services[s] = { user: s, password: password() };
      changed = true;
    }
  }
  if (changed) writePrivate(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`);
  // Rewritten on every start, from the credentials: only salt, iteration count and keys.
  const { storedUser } = embeddedMongo();
  const users = [
    storedUser({ user: credentials.root.user, password: credentials.root.password, roles: [{ role: 'root', db: 'admin' }] }),
    ...Object.entries(credentials.services).map(([s, l]) => storedUser({ user: l.user, password: l.password, roles: [{ role: 'readWrite', db: `bahi_${s}` }] })),
  ];
  writePrivate(usersFile, `${JSON.stringify({ users }, null, 2)}\n`);
  return { credentials, credentialsFile, usersFile };
}

/** A file only its owner reads, written whole (a crash leaves the old one). */
function writePrivate(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

/** `mongodb://user:password@host:port/?authSource=admin` (the database comes from the service's config). */
export function mongoUriFor(login: MongoLogin, host: string, port: number): string {
  return `mongodb://${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}@${host}:${port}/?authSource=admin`;
}
