import request from 'supertest';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { DocumentSubjects, Subjects, type GetReorderListReply, type ReorderDocument, type ReorderLine } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { today } from '@bahi/service-kit';
import { AppModule } from '../src/app.module';
import { PURCHASE_MODEL, type PurchaseDoc } from '../src/purchases/purchase.schema';
import { suggestedPieces } from '../src/reorder/reorder.service';
import { Product } from '../src/schemas';
import { auth, makeCategory, makeProduct, SECRET, token } from './helpers';

// ledger and sales run in-process from their builds: purchases are made through the real checkout.
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
const ask = <R = unknown>(subject: string, data: unknown) => nestRequest<R>(nc, subject, data) as Promise<R>;

const M = token(1, 'manager');
const STAFF = token(1, 'staff');
const B = token(2, 'manager');
const ids: Record<string, number> = {};
let gupta: number;
let sharma: number;
let cat: number;
let catB: number;

const inv$ = (t: string) => request(inv.url).get('/reorderList').set(auth(t));
const fill = (t: string, body: unknown) => request(sales.url).post('/reorderList/fillCart').set(auth(t)).send(body as object);
const cartOf = async (t: string, cart_no: number) =>
  (await request(sales.url).get(`/getProducts?cart_no=${cart_no}`).set(auth(t)).expect(200)).body.cart as { product_id: number; quantity: string }[];

async function distributor(name: string): Promise<number> {
  const d = await request(ledger.url)
    .post('/addDistributor')
    .set(auth(M))
    .send({ name, address_line_1: '7 Burrabazar', address_line_2: '', city_or_district: 'Kolkata', state: 'WB', country: 'India', postal_code: '700001', officers: [] });
  if (d.status !== 200) throw new Error(`distributor: ${d.status} ${JSON.stringify(d.body)}`);
  return d.body.id;
}

/** Sets stock, minimum, default, pieces and active through the product screen's call. */
async function edit(t: string, id: number, category: number, f: { name: string; ppq?: string; stock: string; min: string; def: string; active?: 0 | 1; cp?: string }) {
  const r = await request(inv.url)
    .post('/editProduct')
    .set(auth(t))
    .send({
      product_id: id, catagory: category, active: f.active ?? 1, quantity_per_peice: f.ppq ?? '1', brand_name: 'Acme', name: f.name,
      mrp: '100', cp: f.cp ?? '80', stock: f.stock, min_stock: f.min, default_stock: f.def, tax: '0', unit: f.ppq && f.ppq !== '1' ? 'kg' : 'pcs',
    });
  if (r.status !== 200) throw new Error(`edit ${f.name}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** A purchase through the real checkout: fill cart 3 from the reorder call, then Proceed to purchase. */
async function buy(distributorId: number, lines: { product_id: number; quantity: string }[], bill: string): Promise<number> {
  await fill(M, { cart_no: 3, lines }).expect(200);
  const r = await request(inv.url).post('/checkOutPurchase').set(auth(M)).send({ bill_no: bill, distributor: distributorId, officer: '', paid: '0', due_date: today(), cart_no: 3 });
  if (r.status !== 200) throw new Error(`purchase: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body[0].purchaseId;
}

const lineOf = (list: GetReorderListReply, id: number): ReorderLine | undefined => list.groups.flatMap((g) => g.lines).find((l) => l.product_id === id);
const groupOf = (list: GetReorderListReply, id: number) => list.groups.find((g) => g.lines.some((l) => l.product_id === id));

beforeAll(async () => {
  process.env.BAHI_DEMO = '0';
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  nc = await connect({ servers: nats.url });
  // Stands in for identity: revoked sessions (none) and company details (simple mode).
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
  cat = await makeCategory(inv.url, M, 'Grocery');
  catB = await makeCategory(inv.url, B, 'Hardware');
  for (const name of ['Soap', 'Oil', 'Rice', 'Ghee', 'Dal', 'Salt', 'Sugar', 'Tea']) ids[name] = await makeProduct(inv.url, M, { catagory: cat, name });
  ids.Bolt = await makeProduct(inv.url, B, { catagory: catB, name: 'Bolt' });
  gupta = await distributor('Gupta Wholesale');
  sharma = await distributor('Sharma Traders');

  // Soap: bought from Gupta (purchase 1, today) and from Sharma (purchase 2, moved back to January):
  // the last distributor is the one of the latest date, not of the highest purchase number.
  const p1 = await buy(gupta, [{ product_id: ids.Soap!, quantity: '10' }], 'G-1');
  const p2 = await buy(sharma, [{ product_id: ids.Soap!, quantity: '4' }, { product_id: ids.Oil!, quantity: '2' }], 'S-1');
  expect(p2).toBeGreaterThan(p1);
  const purchases = inv.app.get<Model<PurchaseDoc>>(getModelToken(PURCHASE_MODEL));
  await purchases.updateOne({ companyId: 1, purchaseId: p2 }, { $set: { date: '2026-01-10' } });

  // Stock, minimum and default set after the purchases (they moved stock).
  await edit(M, ids.Soap!, cat, { name: 'Soap', stock: '3', min: '5', def: '12' });
  await edit(M, ids.Oil!, cat, { name: 'Oil', ppq: '6', stock: '3', min: '5', def: '12' });
  await edit(M, ids.Rice!, cat, { name: 'Rice', stock: '-2', min: '5', def: '12' });
  await edit(M, ids.Ghee!, cat, { name: 'Ghee', ppq: '0.5', stock: '1.2', min: '2', def: '4' });
  await edit(M, ids.Dal!, cat, { name: 'Dal', ppq: '2.5', stock: '5', min: '5', def: '5' });
  await edit(M, ids.Salt!, cat, { name: 'Salt', stock: '-4', min: '0', def: '10' });
  await edit(M, ids.Sugar!, cat, { name: 'Sugar', stock: '1', min: '5', def: '10', active: 0 });
  await edit(M, ids.Tea!, cat, { name: 'Tea', stock: '6', min: '5', def: '10' });
  await edit(B, ids.Bolt!, catB, { name: 'Bolt', stock: '0', min: '50', def: '100' });
}, 180_000);

afterAll(async () => {
  await nc?.close();
  for (const s of [sales, ledger, inv]) await s?.close().catch(() => undefined);
  await nats?.stop();
  await mongo?.stop();
});

describe('reorder quantities', () => {
  it('suggests whole pieces up to the default stock', () => {
    // stock 3, min 5, default 12, 1 per piece: 12 - 3 = 9 pieces
    expect(suggestedPieces(3000, 5000, 12000, 1000)).toBe(9);
    // 6 units a piece: 9 units short -> 9 / 6 = 1.5 -> 2 pieces (12 units)
    expect(suggestedPieces(3000, 5000, 12000, 6000)).toBe(2);
    // stock -2: 12 - (-2) = 14 pieces
    expect(suggestedPieces(-2000, 5000, 12000, 1000)).toBe(14);
    // 2.5 units short of a whole unit count, 1 per piece: 9.5 -> 10
    expect(suggestedPieces(2500, 5000, 12000, 1000)).toBe(10);
    // default below min (0 = not set): up to min; 5 - 3 = 2
    expect(suggestedPieces(3000, 5000, 0, 1000)).toBe(2);
    // at the minimum with default = min: nothing short, still one piece
    expect(suggestedPieces(5000, 5000, 5000, 2500)).toBe(1);
  });

  it('lists active products at or below min_stock with hand-computed quantities, grouped by the last distributor', async () => {
    const list = (await inv$(M).expect(200)).body as GetReorderListReply;
    const listed = list.groups.flatMap((g) => g.lines.map((l) => l.product_id)).sort((a, b) => a - b);
    // Salt (min 0: no minimum set), Sugar (inactive), Tea (6 > 5) and company 2's Bolt are not listed.
    expect(listed).toEqual([ids.Soap, ids.Oil, ids.Rice, ids.Ghee, ids.Dal].sort((a, b) => a! - b!));
    expect(list.count).toBe(5);

    // Soap: 12 - 3 = 9 pieces of 1.
    expect(lineOf(list, ids.Soap!)).toMatchObject({ stock: '3', min_stock: '5', default_stock: '12', per_peice_quantity: '1', suggested_quantity: '9', suggested_units: '9', unit: 'pcs' });
    // Oil, 6 a piece: 9 short -> 2 pieces = 12 units.
    expect(lineOf(list, ids.Oil!)).toMatchObject({ stock: '3', per_peice_quantity: '6', suggested_quantity: '2', suggested_units: '12', unit: 'kg' });
    // Rice at -2: 12 + 2 = 14.
    expect(lineOf(list, ids.Rice!)).toMatchObject({ stock: '-2', suggested_quantity: '14', suggested_units: '14', last_cp: null, last_purchase_date: null });
    // Ghee in 0.5 kg tins: 4 - 1.2 = 2.8 kg short -> 2.8 / 0.5 = 5.6 -> 6 tins = 3 kg.
    expect(lineOf(list, ids.Ghee!)).toMatchObject({ stock: '1.2', suggested_quantity: '6', suggested_units: '3' });
    // Dal at its minimum (5 of 5, default 5) in 2.5 kg bags: one bag.
    expect(lineOf(list, ids.Dal!)).toMatchObject({ stock: '5', suggested_quantity: '1', suggested_units: '2.5' });

    // Soap: Gupta's purchase (today) is later than Sharma's (January) though its number is lower.
    expect(groupOf(list, ids.Soap!)).toMatchObject({ distributorId: gupta, distributorName: 'Gupta Wholesale' });
    expect(lineOf(list, ids.Soap!)).toMatchObject({ last_purchase_date: today(), last_cp: '80.00' });
    expect(groupOf(list, ids.Oil!)).toMatchObject({ distributorId: sharma, distributorName: 'Sharma Traders' });
    expect(lineOf(list, ids.Oil!)).toMatchObject({ last_purchase_date: '2026-01-10' });
    // Groups by distributor name, the never-bought group last.
    expect(list.groups.map((g) => g.distributorName)).toEqual(['Gupta Wholesale', 'Sharma Traders', 'No purchase yet']);
    expect(list.groups[2]!.distributorId).toBe(0);
    expect(list.groups[2]!.lines.map((l) => l.product_name)).toEqual(['Dal', 'Ghee', 'Rice']);
  });

  it("never lists another company's products", async () => {
    const list = (await inv$(B).expect(200)).body as GetReorderListReply;
    expect(list.groups.flatMap((g) => g.lines.map((l) => l.product_name))).toEqual(['Bolt']);
    // 100 - 0 = 100 pieces.
    expect(list.groups[0]!.lines[0]!.suggested_quantity).toBe('100');
  });

  it('answers 403 to staff', async () => {
    expect((await inv$(STAFF)).status).toBe(403);
    expect((await fill(STAFF, { cart_no: 1, lines: [{ product_id: ids.Soap, quantity: '9' }] })).status).toBe(403);
    expect(await cartOf(STAFF, 1)).toEqual([]);
  });
});

describe('fill a cart from the reorder list', () => {
  it('puts the chosen lines in the cart in one call, adding to a line already there', async () => {
    await request(sales.url).get(`/addProductIntoCart/${ids.Soap}?cart_no=5`).set(auth(M)).expect(200);
    const r = await fill(M, { cart_no: 5, lines: [{ product_id: ids.Soap, quantity: '9' }, { product_id: ids.Oil, quantity: '2' }, { product_id: ids.Ghee, quantity: '6' }] }).expect(200);
    expect(r.body).toEqual({ success: true, cart_no: 5, added: 3 });
    const lines = await cartOf(M, 5);
    // Soap: 1 scanned + 9 from the list.
    expect(lines.map((l) => [l.product_id, String(l.quantity)])).toEqual([[ids.Soap, '10'], [ids.Oil, '2'], [ids.Ghee, '6']]);
  });

  it('refuses bad input with a sentence and changes nothing', async () => {
    const before = await cartOf(M, 6);
    const cases: [unknown, number, RegExp][] = [
      [{ cart_no: 6, lines: [] }, 400, /at least one product/],
      [{ cart_no: 6, lines: [{ product_id: ids.Soap, quantity: '0' }] }, 400, /quantity must be a number above 0/],
      [{ cart_no: 6, lines: [{ product_id: ids.Soap, quantity: 'lots' }] }, 400, /quantity/],
      [{ cart_no: 6, lines: [{ product_id: ids.Soap, quantity: '1' }, { product_id: ids.Soap, quantity: '2' }] }, 400, /listed twice/],
      [{ cart_no: 21, lines: [{ product_id: ids.Soap, quantity: '1' }] }, 400, /cart_no/],
      // An unknown product: nothing of the good line is added either.
      [{ cart_no: 6, lines: [{ product_id: ids.Soap, quantity: '1' }, { product_id: 999999, quantity: '1' }] }, 404, /Product 999999 does not exist/],
    ];
    for (const [body, status, message] of cases) {
      const r = await fill(M, body);
      expect([r.status, r.body.message]).toEqual([status, expect.stringMatching(message)]);
    }
    expect(await cartOf(M, 6)).toEqual(before);
  });
});

describe('the printed list (documents request)', () => {
  it("answers one distributor's group, the selection only, null when empty or another company's", async () => {
    const g = await ask<ReorderDocument>(DocumentSubjects.reorderDocument, { companyId: 1, distributorId: sharma });
    expect(g).toMatchObject({ distributorId: sharma, distributorName: 'Sharma Traders', date: today() });
    expect(g.lines.map((l) => [l.product_name, l.suggested_quantity])).toEqual([['Oil', '2']]);
    const none = await ask<ReorderDocument>(DocumentSubjects.reorderDocument, { companyId: 1, distributorId: 0, productIds: [ids.Ghee, ids.Soap] });
    expect(none.lines.map((l) => l.product_name)).toEqual(['Ghee']);
    expect(await ask(DocumentSubjects.reorderDocument, { companyId: 2, distributorId: sharma })).toBeNull();
    expect(await ask(DocumentSubjects.reorderDocument, { companyId: 1, distributorId: gupta, productIds: [ids.Oil] })).toBeNull();
  });
});

describe('a large catalogue', () => {
  it('lists 20,000 low products from 1,000 purchases quickly', async () => {
    const products = inv.app.get<Model<Product>>(getModelToken(Product.name));
    const purchases = inv.app.get<Model<PurchaseDoc>>(getModelToken(PURCHASE_MODEL));
    const companyId = 7;
    const N = 20_000;
    const docs = Array.from({ length: N }, (_, i) => ({
      companyId, product_id: i + 1, product_name: `Item ${i + 1}`, words: [], brand_name: 'Bulk', category: null, mrp_p: 1000, cp_p: 800,
      unit: 'pcs', ppq_m: 1000, stock_m: 1000, min_m: 5000, def_m: 12000, level: 0, tax: '1', active: 1, specs: {}, barcode: '', hsn_code: '',
    }));
    for (let i = 0; i < N; i += 5000) await products.collection.insertMany(docs.slice(i, i + 5000));
    // 1,000 purchases of 20 lines each: every product bought once, from one of 10 distributors.
    const buys = Array.from({ length: 1000 }, (_, k) => ({
      companyId, purchaseId: k + 1, status: 'complete', date: '2026-02-01', distributorId: (k % 10) + 1, distributorName: `Dist ${(k % 10) + 1}`,
      lines: Array.from({ length: 20 }, (_, j) => ({ product_id: k * 20 + j + 1, rate: '8.00' })),
    }));
    await purchases.collection.insertMany(buys);
    const token7 = token(companyId, 'manager');
    await inv$(token7).expect(200); // warm
    const t0 = Date.now();
    const list = (await inv$(token7).expect(200)).body as GetReorderListReply;
    const ms = Date.now() - t0;
    console.log(`reorder list of ${N} products from 1000 purchases: ${ms} ms`);
    expect(list.count).toBe(N);
    expect(list.groups).toHaveLength(10);
    // 12 - 1 = 11 pieces each.
    expect(list.groups[0]!.lines[0]!.suggested_quantity).toBe('11');
    // Measured 1.2 s on an idle 2-core machine, 3.7 s with eight builds beside it (the reply is 20,000 lines, about 8 MB).
    expect(ms).toBeLessThan(10_000);
  }, 180_000);
});
