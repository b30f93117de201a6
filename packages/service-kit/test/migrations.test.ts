import net from 'node:net';
import mongoose from 'mongoose';
import pino from 'pino';
import { startMongo, type MongoHandle } from '@bahi/devstack';
import { loadServiceConfig } from '../src/config';
import { dataVersion, migrateBeforeStart, MigrationError, runMigrations, type Migration } from '../src/migrations';

const log = pino({ level: 'silent' });
type Db = NonNullable<mongoose.Connection['db']>;

/** A migration that counts its runs in the database (so two processes' runs add up). */
const counting = (version: number, name = `step ${version}`, wait = 0): Migration => ({
  version,
  name,
  async up({ db }) {
    if (wait) await new Promise((r) => setTimeout(r, wait));
    await db.collection<{ _id: string; n: number }>('runs').updateOne({ _id: name }, { $inc: { n: 1 } }, { upsert: true });
  },
});
const runs = async (db: Db) => Object.fromEntries((await db.collection<{ _id: string; n: number }>('runs').find().toArray()).map((d) => [d._id, d.n]));

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('data versions and migrations (shared runner)', () => {
  let mongo: MongoHandle;
  let conn: mongoose.Connection;
  let n = 0;
  const fresh = () => conn.useDb(`mig_${++n}`).db!;

  beforeAll(async () => {
    mongo = await startMongo();
    conn = await mongoose.createConnection(mongo.uri).asPromise();
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.stop();
  });

  it('runs the pending migrations once, in order, and records each', async () => {
    const db = fresh();
    const order: number[] = [];
    const list = [1, 2, 3].map((v) => ({ ...counting(v), up: async (c: { db: Db; log: pino.Logger }) => (order.push(v), counting(v).up(c as never)) }));
    expect(await runMigrations(db, { service: 'sales', migrations: list.slice(0, 2), log })).toEqual({ from: 0, to: 2, ran: ['step 1', 'step 2'] });
    expect(await runMigrations(db, { service: 'sales', migrations: list, log })).toEqual({ from: 2, to: 3, ran: ['step 3'] });
    expect(await runMigrations(db, { service: 'sales', migrations: list, log })).toEqual({ from: 3, to: 3, ran: [] });
    expect(order).toEqual([1, 2, 3]);
    expect(await runs(db)).toEqual({ 'step 1': 1, 'step 2': 1, 'step 3': 1 });
    const doc = await db.collection('migrations').findOne({ _id: 'version' as never });
    expect(doc!.version).toBe(3);
    expect((doc!.applied as { version: number }[]).map((a) => a.version)).toEqual([1, 2, 3]);
    expect(await db.collection('migrations').countDocuments({ _id: 'lock' as never })).toBe(0);
  });

  it('two replicas starting at once: each migration runs exactly once, both end at the latest version', async () => {
    const db = fresh();
    const list = [counting(1, 'a', 150), counting(2, 'b', 150)];
    const [x, y] = await Promise.all([
      runMigrations(db, { service: 'ledger', migrations: list, log, owner: 'replica-1' }),
      runMigrations(conn.useDb(db.databaseName).db!, { service: 'ledger', migrations: list, log, owner: 'replica-2' }),
    ]);
    expect([x.to, y.to]).toEqual([2, 2]);
    expect([...x.ran, ...y.ran].sort()).toEqual(['a', 'b']);
    expect(await runs(db)).toEqual({ a: 1, b: 1 });
  });

  it('a lock left by a replica that died expires and the next start takes over', async () => {
    const db = fresh();
    await db.collection('migrations').insertOne({ _id: 'lock' as never, owner: 'dead', until: new Date(Date.now() + 300) });
    const t0 = Date.now();
    const r = await runMigrations(db, { service: 'inventory', migrations: [counting(1)], log });
    expect(r.ran).toEqual(['step 1']);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
  });

  it('a failing migration stops with a clear sentence; the version stays at the last good step and later ones never run', async () => {
    const db = fresh();
    const bad: Migration = { version: 2, name: 'split the address', up: async () => Promise.reject(new Error('field too long')) };
    const list = [counting(1), bad, counting(3)];
    const err = await runMigrations(db, { service: 'identity', migrations: list, log }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect((err as Error).message).toBe(
      'identity: migration 2 "split the address" failed: field too long. The data stays at version 1; fix the cause and start again, or restore the last backup.',
    );
    expect(await dataVersion(db)).toBe(1);
    expect(await runs(db)).toEqual({ 'step 1': 1 });
    // Fixed: the next start carries on from 2.
    const fixed = [counting(1), counting(2, 'split the address'), counting(3)];
    expect((await runMigrations(db, { service: 'identity', migrations: fixed, log })).ran).toEqual(['split the address', 'step 3']);
  });

  it('refuses data newer than the code and a list numbered out of order', async () => {
    const db = fresh();
    await runMigrations(db, { service: 'sales', migrations: [counting(1), counting(2)], log });
    await expect(runMigrations(db, { service: 'sales', migrations: [counting(1)], log })).rejects.toThrow(
      'sales: the data is at version 2, newer than this Bahi knows (1). Start the newer Bahi again, or restore a backup made by this one.',
    );
    await expect(runMigrations(fresh(), { service: 'sales', migrations: [counting(2)], log })).rejects.toThrow('sales: migration "step 2" is number 2, expected 1');
  });

  it('before the service starts, its port answers 503 "migrating" (health included) and is free again after', async () => {
    const port = await freePort();
    const dbName = `mig_boot_${++n}`;
    const cfg = { ...loadServiceConfig('reports', { BAHI_JWT_SECRET: 'x'.repeat(40) }), port, host: '127.0.0.1', mongoUri: mongo.uri, dbName };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const slow: Migration = { version: 1, name: 'slow', up: async () => (started(), gate) };
    const boot = migrateBeforeStart(cfg, [slow], log);
    await running;
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'migrating',
      service: 'reports',
      info: {},
      error: { migrations: { status: 'down', message: 'migrating' } },
      details: { migrations: { status: 'down', message: 'migrating' } },
    });
    const other = await fetch(`http://127.0.0.1:${port}/products`);
    expect(other.status).toBe(503);
    expect(await other.json()).toEqual({
      statusCode: 503,
      message: 'The reports service is starting (bringing its data up to date); try again in a few seconds.',
      error: 'Service Unavailable',
    });
    release();
    await boot;
    expect(await dataVersion(conn.useDb(dbName).db!)).toBe(1);
    // The port is free for the service itself.
    const s = net.createServer();
    await new Promise<void>((r, j) => s.once('error', j).listen(port, '127.0.0.1', () => r()));
    await new Promise((r) => s.close(r));
  });

  it('a migration failing before the start leaves the port free and throws (the start stops)', async () => {
    const port = await freePort();
    const cfg = { ...loadServiceConfig('ledger', { BAHI_JWT_SECRET: 'x'.repeat(40) }), port, host: '127.0.0.1', mongoUri: mongo.uri, dbName: `mig_boot_${++n}` };
    const bad: Migration = { version: 1, name: 'baseline', up: async () => Promise.reject(new Error('disk full')) };
    await expect(migrateBeforeStart(cfg, [bad], log)).rejects.toThrow('ledger: migration 1 "baseline" failed: disk full.');
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});
