// Stream bookkeeping: per-stream checkpoints and a window of recent event ids instead of a row per
// event forever; malformed events kept in dead_letters (counted on /health and for the company's
// managers), replayed once after a fix. Real embedded MongoDB and nats-server with JetStream.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { AckPolicy, DeliverPolicy, nanos } from 'nats';
import request from 'supertest';
import { EventStreams, EventSubjects as E } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { ACK_WAIT_MS, durableOf } from '../src/consumers';
import { replayDeadLetters } from '../src/dead-letters';
import { toFact } from '../src/events';
import { migrations } from '../src/migrations';
import { Projector } from '../src/projector';
import { C, RECENT_WINDOW_S } from '../src/store';
import { SECRET, startReports, tokenFor, type Stack } from './helpers';

const D = today();
const SALES = EventStreams.sales.name;
const sale = (saleId: number, amount: string, companyId = 1) => ({
  eventId: `sale:${companyId}:${saleId}:completed`, companyId, occurredAt: new Date().toISOString(), date: D, saleId, clientId: 0, customerName: 'Walk-in', walkIn: true,
  lines: [{ sl_no: 1, product_id: 1, product_name: 'Rice', unit: 'pcs', quantity: '1', per_peice_quantity: '1', units: '1', rate: amount, disc: '0', amount, cp: '10.00', taxable_value: null, gst_rate: null, cgst: null, sgst: null, igst: null }],
  subtotal: amount, tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount, paid: amount, dueDate: D, gst: null,
});

let s: Stack;
let db: Db;
const register = async (companyId = 1) => (await s.get(`/reports/sales-register?from=${D}&to=${D}`, tokenFor(companyId)).expect(200)).body.totals as { count: number; amount: string };
const checkpoint = async (stream: string) => Number((await db.collection<{ _id: string; seq: number }>(C.checkpoints).findOne({ _id: stream }))?.seq ?? 0);
const waitFor = async (what: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await what()); i++) await new Promise((r) => setTimeout(r, 100));
};

beforeAll(async () => {
  s = await startReports();
  await s.consumers.caughtUp(30_000);
  db = s.svc.app.get<Connection>(getConnectionToken()).db as unknown as Db;
}, 60_000);
afterAll(() => s?.stop());

describe('checkpoints and the window of recent ids', () => {
  it('keeps one checkpoint per stream and applied ids for the duplicate window only (TTL), not a row per event forever', async () => {
    await s.publish(E.sales.saleCompleted, sale(1, '100.00'));
    await s.publish(E.sales.saleCompleted, sale(2, '50.00'));
    await s.consumers.caughtUp(30_000);
    // Two bills: 100.00 + 50.00 = 150.00.
    expect(await register()).toMatchObject({ count: 2, amount: '150.00' });
    expect(await checkpoint(SALES)).toBe(2);
    const ttl = (await db.collection(C.recent).indexes()).find((i) => i.key.at === 1);
    expect(ttl?.expireAfterSeconds).toBe(600);
    expect(RECENT_WINDOW_S).toBe(EventStreams.sales.duplicateWindowMs / 1000);
    expect(await db.collection(C.recent).findOne({ _id: 'sale:1:2:completed' as never })).toMatchObject({ stream: SALES, seq: 2 });
    expect(await db.listCollections({ name: 'seen_events' }).hasNext()).toBe(false);
  });

  it('skips an event redelivered at or below its checkpoint, even once its id has left the window', async () => {
    // The window forgotten (as after 10 minutes): only the checkpoint stands between a redelivery and a second count.
    await db.collection(C.recent).deleteMany({});
    const projector = s.svc.app.get(Projector);
    const again = toFact(E.sales.saleCompleted, sale(2, '50.00'))!;
    expect(await projector.apply(again, { stream: SALES, seq: 2 })).toBe(false);
    // JetStream itself delivering the stream again from its first message (the durable consumer made anew).
    const jsm = await s.nc.jetstreamManager();
    const applied = s.consumers.applied;
    await jsm.consumers.delete(SALES, durableOf(SALES));
    await jsm.consumers.add(SALES, { durable_name: durableOf(SALES), ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ack_wait: nanos(ACK_WAIT_MS), max_ack_pending: 1000 });
    await waitFor(async () => {
      const info = await jsm.consumers.info(SALES, durableOf(SALES));
      return info.delivered.stream_seq >= 2 && info.num_ack_pending === 0 && info.num_pending === 0;
    });
    await s.consumers.caughtUp(30_000);
    expect(s.consumers.applied).toBe(applied);
    expect(await register()).toMatchObject({ count: 2, amount: '150.00' });
    // A new bill after the replay goes in: 150.00 + 25.00 = 175.00.
    await s.publish(E.sales.saleCompleted, sale(3, '25.00'));
    await s.consumers.caughtUp(30_000);
    expect(await register()).toMatchObject({ count: 3, amount: '175.00' });
    expect(await checkpoint(SALES)).toBe(3);
  }, 60_000);

  it('skips a republished duplicate (same event id, a new stream sequence) within the window', async () => {
    const applied = s.consumers.applied;
    await s.publish(E.sales.saleCompleted, sale(3, '25.00'), 'republished-by-the-relay');
    await s.consumers.caughtUp(30_000);
    expect(s.consumers.applied).toBe(applied);
    // The checkpoint moves past it (sequence 4), the bill counts once.
    expect(await checkpoint(SALES)).toBe(4);
    expect(await register()).toMatchObject({ count: 3, amount: '175.00' });
  }, 30_000);

  it('the data version 2 migration drops seen_events', async () => {
    const other = s.svc.app.get<Connection>(getConnectionToken()).useDb('reports_migration_check').db as unknown as Db;
    await other.collection('seen_events').insertOne({ _id: 'sale:1:1:completed' as never, at: new Date() });
    const m = migrations.find((x) => x.version === 2)!;
    await m.up({ db: other as never, log: { info: () => undefined } as never });
    expect(await other.listCollections({ name: 'seen_events' }).hasNext()).toBe(false);
    // Idempotent: run again on a database without it.
    await m.up({ db: other as never, log: { info: () => undefined } as never });
  });
});

describe('dead letters', () => {
  it('keeps a malformed event and one that is not JSON, counts them on /health and for the company, and replays the corrected one once', async () => {
    const bad = { ...sale(9, '40.00'), amount: 'forty rupees' };
    await s.publish(E.sales.saleCompleted, bad);
    await s.nc.jetstream().publish(E.sales.saleCompleted, new TextEncoder().encode('{not json'), { msgID: 'garbled-1' });
    await s.consumers.caughtUp(30_000);
    const letters = await db.collection(C.dead).find({}).sort({ stream_seq: 1 }).toArray();
    expect(letters).toHaveLength(2);
    expect(letters[0]).toMatchObject({ subject: E.sales.saleCompleted, error: 'amount is not an amount', stream: SALES, stream_seq: 5, companyId: 1, eventId: 'sale:1:9:completed', event: { amount: 'forty rupees' } });
    expect(letters[0]!.at).toBeInstanceOf(Date);
    expect(letters[1]).toMatchObject({ error: 'the event is not JSON', stream_seq: 6, companyId: null, event: '{not json' });
    // Nothing of the bad bill in the figures; the stream went on past it.
    expect(await register()).toMatchObject({ count: 3, amount: '175.00' });
    expect(await checkpoint(SALES)).toBe(4);
    await s.publish(E.sales.saleCompleted, sale(10, '5.00'));
    await s.consumers.caughtUp(30_000);
    expect(await register()).toMatchObject({ count: 4, amount: '180.00' });

    const health = (await request(s.svc.url).get('/health').expect(200)).body;
    expect(health.details.deadLetters).toEqual({ status: 'up', count: 2 });
    // The company's managers see theirs (the garbled one names no company); another company none; staff 403.
    const mine = (await s.get('/reports/dead-letters').expect(200)).body;
    expect(mine.count).toBe(1);
    expect(mine.rows).toEqual([expect.objectContaining({ subject: E.sales.saleCompleted, eventId: 'sale:1:9:completed', error: 'amount is not an amount', seq: 5 })]);
    expect((await s.get('/reports/dead-letters', tokenFor(2)).expect(200)).body).toEqual({ count: 0, rows: [] });
    await s.get('/reports/dead-letters', tokenFor(1, 'staff')).expect(403);

    // The fix: the owner's record corrected (amount "40.00"). Replayed: applied once, removed; the garbled one stays.
    await db.collection(C.dead).updateOne({ eventId: 'sale:1:9:completed' }, { $set: { 'event.amount': '40.00' } });
    // `npm run reports:replay-dead`, as an operator runs it (the built command, this test's servers and database).
    const uri = new URL(s.mongo.uri);
    uri.pathname = `/${s.svc.config.dbName}`;
    // Not spawnSync: the embedded MongoDB answers from this process's event loop.
    const cli = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [path.resolve(__dirname, '..', '..', '..', 'scripts', 'reports-rebuild.mjs'), 'replay-dead'], {
        env: { ...process.env, MONGODB_URI: uri.toString(), NATS_URL: s.nats.url, BAHI_JWT_SECRET: SECRET },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += String(d)));
      child.stderr.on('data', (d) => (stderr += String(d)));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toMatch(/^Dead letters replayed: 1 applied, 0 applied before, 0 not used by the reports, 1 still failing\.$/m);
    expect(cli.status).toBe(0);
    const projector = s.svc.app.get(Projector);
    // 180.00 + 40.00 = 220.00 in 5 bills.
    expect(await register()).toMatchObject({ count: 5, amount: '220.00' });
    expect(await replayDeadLetters(db, projector)).toEqual({ applied: 0, already: 0, ignored: 0, failed: 1 });
    expect(await register()).toMatchObject({ count: 5, amount: '220.00' });
    const left = await db.collection(C.dead).find({}).toArray();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ error: 'the event is not JSON', tries: 2 });
    expect((await request(s.svc.url).get('/health').expect(200)).body.details.deadLetters.count).toBe(1);
    expect((await s.get('/reports/dead-letters').expect(200)).body.count).toBe(0);
  }, 60_000);
});
