// A purchase and its debit note each arrive once on JetStream (real nats-server -js, inventory,
// ledger and sales from their builds), with the figures worked out beside them.
import request from 'supertest';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { EventStreams, Subjects, type HistoryPageReply, type PurchaseCompletedEvent, type PurchaseReturnedEvent } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { today } from '@bahi/service-kit';
import { AppModule } from '../src/app.module';
import { auth, makeCategory, makeProduct, SECRET, token } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: LedgerModule } = require('@bahi/ledger/dist/app.module') as { AppModule: unknown };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: SalesModule } = require('@bahi/sales/dist/app.module') as { AppModule: unknown };

let mongo: MongoHandle;
let nats: NatsHandle;
let inv: TestService;
let ledger: TestService;
let sales: TestService;
let nc: NatsConnection;
const tag = Math.random().toString(36).slice(2, 8);
const opts = (service: 'inventory' | 'ledger' | 'sales') => ({ service, mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: SECRET, dbName: `bahi_${service}_${tag}` });
const M = token(1, 'manager');
const codec = JSONCodec<any>();
let rice: number;
let dist: number;

async function eventsWithId(id: string, ms = 5000): Promise<{ subject: string; msgId: string | undefined; event: any }[]> {
  const end = Date.now() + ms;
  for (;;) {
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info(EventStreams.inventory.name).catch(() => null);
    const out: { subject: string; msgId: string | undefined; event: any }[] = [];
    for (let seq = info?.state.first_seq ?? 1; info && info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
      const m = await jsm.streams.getMessage(EventStreams.inventory.name, { seq });
      const event = codec.decode(m.data);
      if (event.eventId === id) out.push({ subject: m.subject, msgId: m.header?.get('Nats-Msg-Id'), event });
    }
    if (out.length || Date.now() > end) return out;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  process.env.BAHI_DEMO = '0';
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  nc = await connect({ servers: nats.url });
  nc.subscribe(Subjects.identity.sessionRevocations, {
    callback: (_e, msg) => msg.respond(JSONCodec().encode({ id: (JSONCodec().decode(msg.data) as { id?: string }).id, response: { revocations: [] } })),
  });
  nc.subscribe(Subjects.identity.companyDetails, {
    callback: (_e, msg) => {
      const req = JSONCodec().decode(msg.data) as { id: string; data: { companyId: number } };
      const c = req.data.companyId;
      msg.respond(JSONCodec().encode({ id: req.id, response: { id: c, name: `Company ${c}`, add1: '', add2: '', mob1: '', mob2: '', email: '', logo: null, upiId: null }, isDisposed: true }));
    },
  });
  await nc.flush();
  inv = await startTestService(AppModule, opts('inventory'));
  ledger = await startTestService(LedgerModule, opts('ledger'));
  sales = await startTestService(SalesModule, opts('sales'));
  const cat = await makeCategory(inv.url, M, 'Grocery');
  rice = await makeProduct(inv.url, M, { catagory: cat, name: 'Basmati Rice 5kg', brand_name: 'India Gate', mrp: '650', cp: '540' });
  const d = await request(ledger.url)
    .post('/addDistributor')
    .set(auth(M))
    .send({ name: 'Gupta Wholesale', address_line_1: '7 Burrabazar', address_line_2: '', city_or_district: 'Kolkata', state: 'WB', country: 'India', postal_code: '700001', officers: [] });
  dist = d.body.id;
}, 120_000);

afterAll(async () => {
  await nc?.close();
  for (const s of [sales, ledger, inv]) await s?.close().catch(() => undefined);
  await nats?.stop();
  await mongo?.stop();
});

describe('purchase domain events', () => {
  it('a purchase completed and its debit note arrive once each with their figures; the history answers the same', async () => {
    // 3 rice at cp 540.00 = 1620.00; no tax, shipping or discount; 600 paid.
    await request(sales.url).get(`/addProductIntoCart/${encodeURIComponent(`3*${rice}`)}`).set(auth(M)).expect(200);
    const r = await request(inv.url).post('/checkOutPurchase').set(auth(M)).send({ bill_no: 'GW-77', distributor: dist, officer: '', paid: '600', due_date: today(), cart_no: 1 });
    expect(r.status).toBe(200);
    const purchaseId = r.body[0].purchaseId;
    const got = await eventsWithId(`purchase:1:${purchaseId}:completed`);
    expect(got).toHaveLength(1);
    expect(got[0]!.subject).toBe('events.inventory.purchase.completed');
    const p = got[0]!.event as PurchaseCompletedEvent;
    expect(p).toMatchObject({ purchaseId, distributorId: dist, distributorName: 'Gupta Wholesale', subtotal: '1620', amount: '1620', paid: '600', gst: null });
    expect(p.lines).toEqual([expect.objectContaining({ product_id: rice, quantity: '3', units: '3', rate: '540', amount: '1620' })]);

    // Return 1 rice: 540.00 (no tax, no discount), 100 refunded.
    const lines = (await request(inv.url).get(`/getPurchaseDetails?purchaseId=${purchaseId}`).set(auth(M)).expect(200)).body.lines;
    const ret = await request(inv.url).post('/purchaseReturn').set(auth(M)).send({ purchaseId, lines: [{ sl_no: lines[0].sl_no, quantity: 1 }], refund: '100', idempotencyKey: 'pr-events-1' });
    expect(ret.status).toBe(200);
    const note = await eventsWithId(`debit-note:1:${ret.body.debitNoteId}:completed`);
    expect(note).toHaveLength(1);
    expect(note[0]!.subject).toBe('events.inventory.purchase.returned');
    const n = note[0]!.event as PurchaseReturnedEvent;
    expect(n).toMatchObject({ purchaseId, distributorId: dist, debit_note_no: ret.body.debit_note_no, amount: '540', refund: '100' });
    expect(n.lines).toEqual([expect.objectContaining({ product_id: rice, quantity: '1', units: '1', amount: '540', value: '540', cp: '540' })]);

    const ask = (source: string) => nestRequest<HistoryPageReply>(nc, Subjects.inventory.historyPage, { companyId: 1, source });
    expect((await ask('purchase')).events.map((h) => h.event)).toEqual([p]);
    expect((await ask('debit-note')).events.map((h) => h.event)).toEqual([n]);
  });
});
