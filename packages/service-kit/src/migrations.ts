import http from 'node:http';
import os from 'node:os';
import mongoose from 'mongoose';
import type { Logger } from 'pino';
import type { ServiceConfig } from './config';

type Db = NonNullable<mongoose.Connection['db']>;

/**
 * One step of a service's data (services/<name>/src/migrations). `up` must be idempotent: a
 * process killed after `up` and before the version is recorded runs it again on the next start.
 */
export interface Migration {
  /** 1, 2, 3... in order, no gaps; never renumbered once released. */
  version: number;
  name: string;
  up(ctx: { db: Db; log: Logger }): Promise<void>;
}

/** The collection, in the service's own database, holding its data version and the start lock. */
export const MIGRATIONS_COLLECTION = 'migrations';
const VERSION_ID = 'version';
const LOCK_ID = 'lock';

interface VersionDoc {
  _id: string;
  version: number;
  applied: { version: number; name: string; at: Date; ms: number; by: string }[];
}
interface LockDoc {
  _id: string;
  owner: string;
  until: Date;
}

export class MigrationError extends Error {}

/** The data version the code expects: the last migration's (0 with none). */
export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.reduce((v, m) => Math.max(v, m.version), 0);
}

function checkList(service: string, migrations: readonly Migration[]) {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new MigrationError(`${service}: migration "${m.name}" is number ${m.version}, expected ${i + 1} (numbered 1, 2, 3... in order).`);
  });
}

/** The data version recorded in a service's database (0 when none was ever recorded). */
export async function dataVersion(db: Db): Promise<number> {
  const doc = await db.collection<VersionDoc>(MIGRATIONS_COLLECTION).findOne({ _id: VERSION_ID });
  return doc?.version ?? 0;
}

export interface MigrateOptions {
  service: string;
  migrations: readonly Migration[];
  log: Logger;
  /** How long a lock lasts unless renewed (a replica that died leaves it to expire). */
  leaseMs?: number;
  /** How long to wait for another replica's migrations before giving up. */
  waitMs?: number;
  /** Who holds the lock (logs); default host:pid. */
  owner?: string;
}

/**
 * Runs the pending migrations once, in order, each recorded as it finishes. Two replicas
 * starting together: one takes the lock document, the other waits for it and finds nothing left.
 */
export async function runMigrations(db: Db, opts: MigrateOptions): Promise<{ from: number; to: number; ran: string[] }> {
  const { service, migrations, log } = opts;
  checkList(service, migrations);
  const latest = latestVersion(migrations);
  const col = db.collection<VersionDoc>(MIGRATIONS_COLLECTION);
  const locks = db.collection<LockDoc>(MIGRATIONS_COLLECTION);
  const tooNew = (v: number) =>
    new MigrationError(`${service}: the data is at version ${v}, newer than this Bahi knows (${latest}). Start the newer Bahi again, or restore a backup made by this one.`);
  const from = await dataVersion(db);
  if (from > latest) throw tooNew(from);
  if (from === latest) return { from, to: from, ran: [] };

  const owner = opts.owner ?? `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const leaseMs = opts.leaseMs ?? 30_000;
  const take = async (): Promise<boolean> => {
    try {
      const now = new Date();
      await locks.updateOne(
        { _id: LOCK_ID, $or: [{ until: { $lt: now } }, { owner }] },
        { $set: { owner, until: new Date(now.getTime() + leaseMs) } },
        { upsert: true },
      );
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false; // held by another replica
      throw err;
    }
  };
  const deadline = Date.now() + (opts.waitMs ?? 10 * 60_000);
  let waited = false;
  while (!(await take())) {
    if (!waited) log.info({ service }, `${service}: another replica is migrating the data; waiting for it`);
    waited = true;
    if (Date.now() > deadline) throw new MigrationError(`${service}: another replica held the migration lock for too long; start again once it has finished.`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const renew = setInterval(() => void take().catch(() => undefined), Math.max(50, Math.floor(leaseMs / 3)));
  renew.unref();
  const ran: string[] = [];
  try {
    const current = await dataVersion(db);
    if (current > latest) throw tooNew(current);
    for (const m of migrations.filter((x) => x.version > current)) {
      const t0 = Date.now();
      log.info({ service, version: m.version, migration: m.name }, `${service}: migration ${m.version} "${m.name}" running`);
      try {
        await m.up({ db, log });
      } catch (err) {
        throw new MigrationError(
          `${service}: migration ${m.version} "${m.name}" failed: ${(err as Error).message}. The data stays at version ${m.version - 1}; fix the cause and start again, or restore the last backup.`,
        );
      }
      const ms = Date.now() - t0;
      await col.updateOne(
        { _id: VERSION_ID },
        { $set: { version: m.version }, $push: { applied: { version: m.version, name: m.name, at: new Date(), ms, by: owner } } },
        { upsert: true },
      );
      log.info({ service, version: m.version, migration: m.name, ms }, `${service}: migration ${m.version} "${m.name}" done in ${ms} ms`);
      ran.push(m.name);
    }
    return { from: current, to: latest, ran };
  } finally {
    clearInterval(renew);
    await locks.deleteOne({ _id: LOCK_ID, owner }).catch(() => undefined);
  }
}

/** The /health body while migrating (503): the gateway and `npm start` see the service is not ready yet. */
export function migratingHealth(service: string) {
  const detail = { migrations: { status: 'down' as const, message: 'migrating' } };
  return { status: 'migrating', service, info: {}, error: detail, details: detail };
}

/** Any other call while migrating (503), in the error shape every service answers with. */
export function migratingError(service: string) {
  const message = `The ${service} service is starting (bringing its data up to date); try again in a few seconds.`;
  return { statusCode: 503, message, error: 'Service Unavailable' };
}

/**
 * Before the service is created: its port answers 503 "migrating" to everything (health
 * included) while its database is brought to the code's version; nothing else answers yet (no
 * NATS handler, no HTTP route, no background job). A failed migration throws, the start stops.
 */
export async function migrateBeforeStart(cfg: ServiceConfig, migrations: readonly Migration[], log: Logger): Promise<void> {
  const gate = http.createServer((req, res) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2', connection: 'close' });
    // Health gets the health shape; every other call the error shape with a sentence for a person.
    const health = (req.url ?? '').split('?')[0] === '/health';
    res.end(JSON.stringify(health ? migratingHealth(cfg.service) : migratingError(cfg.service)));
  });
  await new Promise<void>((resolve, reject) => {
    gate.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new Error(`Port ${cfg.port} (${cfg.service} HTTP) is already in use. Stop whatever holds it or set ${cfg.service.toUpperCase()}_PORT.`) : err),
    );
    gate.listen(cfg.port, cfg.host, () => resolve());
  });
  const conn = mongoose.createConnection(cfg.mongoUri, { dbName: cfg.dbName, serverSelectionTimeoutMS: 10_000 });
  try {
    await conn.asPromise();
    const r = await runMigrations(conn.db!, { service: cfg.service, migrations, log });
    if (r.ran.length) log.info({ from: r.from, to: r.to }, `${cfg.service}: data migrated from version ${r.from} to ${r.to}`);
    else log.info({ version: r.to }, `${cfg.service}: data at version ${r.to}, nothing to migrate`);
  } finally {
    await conn.close().catch(() => undefined);
    gate.closeAllConnections();
    await new Promise<void>((resolve) => gate.close(() => resolve()));
  }
}
