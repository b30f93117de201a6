import { getConnectionToken } from '@nestjs/mongoose';
import type { Db } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { EventSubjects as E } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { toFact } from '../src/events';
import type { Fact } from '../src/facts';
import { Fold } from '../src/fold';
import { Projector, writeFolded } from '../src/projector';
import { C, ensureIndexes } from '../src/store';
import { startReports, type Stack } from './helpers';

const D = today();
const T0 = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const base = (eventId: string, date = D, at = iso(T0)) => ({ eventId, companyId: 1, occurredAt: at, date });

const line = (sl_no: number, product_id: number, name: string, units: string, rate: string, amount: string, cp: string | null) => ({
  sl_no, product_id, product_name: name, unit: 'pcs', quantity: units, per_peice_quantity: '1', units, rate, disc: '0', amount, cp,
  taxable_value: null, gst_rate: null, cgst: null, sgst: null, igst: null,
});
const sale = (saleId: number, lines: ReturnType<typeof line>[], amount: string, paid: string, date = D) => ({
  ...base(`sale:1:${saleId}:completed`, date), saleId, clientId: 3, customerName: 'Asha Verma', walkIn: false, lines,
  subtotal: amount, tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount, paid, dueDate: date, gst: null,
});
const product = (id: number, name: string, category: string, cp: string, mrp: string, min: string, atMs = T0) => ({
  ...base(`product:1:${id}:${atMs}`, D, iso(atMs)), product_id: id, product_name: name, category: { id: 1, name: category }, brand_name: 'House', unit: 'pcs',
  cp, mrp, min_stock: min, default_stock: '0', stock: '0', hsn_code: '', active: 1,
});
const stock = (id: string, kind: string, sourceId: number, moves: [number, string][]) => ({
  ...base(`stock:1:${kind}:${sourceId}:${id}`), fact: 'applied', source: { kind, id: sourceId },
  movements: moves.map(([product_id, quantity], i) => ({ product_id, line: i + 1, quantity, rate: '0', stock: '0' })),
});
const entry = (eventId: string, kind: string, partyKind: 'customer' | 'distributor', partyId: number, source: { kind: string; id: number }, seq: number, delta: string) => ({
  ...base(eventId), entryKind: kind, party: { kind: partyKind, id: partyId }, source, seq, amount: delta.replace('-', ''), paid: '0', delta, dueDate: D, docNo: null,
});

/**
 * A day's events as a stream may deliver them: a credit note and a cancel before their bills, an
 * older product change after the newer one, a category change after the product's sales, and
 * duplicates (a redelivered bill, payment and product change).
 */
const day: [string, Record<string, unknown>][] = [
  [E.inventory.stockMoved, stock('a', 'purchase', 1, [[1, '20'], [2, '10']])],
  [E.inventory.productChanged, product(1, 'Rice 5kg', 'Grocery', '40.00', '50.00', '5')],
  [E.inventory.productChanged, product(2, 'Soap', 'Personal', '20.00', '30.00', '10')],
  [E.inventory.productChanged, product(2, 'Soap (old name)', 'Old', '1.00', '1.00', '0', T0 - 86_400_000)],
  [E.inventory.purchaseCompleted, { ...base('purchase:1:1:completed'), purchaseId: 1, distributorId: 7, distributorName: 'Eastern Traders', lines: [], subtotal: '1000.00', tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount: '1000.00', paid: '400.00', dueDate: D, gst: null }],
  [E.inventory.purchaseReturned, { ...base('debit-note:1:1:completed'), debitNoteId: 1, debit_note_no: 'DN/1', purchaseId: 1, distributorId: 7, distributorName: 'Eastern Traders', lines: [], amount: '100.00', refund: '0' }],
  [E.sales.saleReturned, {
    ...base('credit-note:1:1:completed'), creditNoteId: 1, credit_note_no: 'CN/1', saleId: 1, clientId: 3, customerName: 'Asha Verma',
    lines: [{ sl_no: 2, product_id: 2, product_name: 'Soap', quantity: '1', units: '1', amount: '30.00', value: '30.00', cp: null }],
    subtotal: '30.00', discount: '0', tax: '0', shipping: '0', amount: '30.00', refund: '0', gst: null,
  }],
  [E.sales.saleCancelled, { ...base('sale:1:2:cancelled'), saleId: 2, clientId: 3, reason: 'Wrong bill', amount: '50.00', paid: '0' }],
  [E.sales.saleCompleted, sale(1, [line(1, 1, 'Rice 5kg', '2', '50', '100.00', '40.00'), line(2, 2, 'Soap', '3', '30', '90.00', '20.00')], '190.00', '50.00')],
  [E.sales.saleCompleted, sale(2, [line(1, 1, 'Rice 5kg', '1', '50', '50.00', '40.00')], '50.00', '0')],
  [E.sales.saleCompleted, sale(3, [line(1, 2, 'Soap', '2', '30', '60.00', '20.00')], '60.00', '60.00')],
  [E.inventory.stockMoved, stock('b', 'sale', 1, [[1, '-2'], [2, '-3']])],
  [E.inventory.stockMoved, stock('c', 'sale', 2, [[1, '-1']])],
  [E.inventory.stockMoved, stock('d', 'sale', 3, [[2, '-2']])],
  [E.inventory.stockMoved, stock('e', 'sale-return', 1, [[2, '1']])],
  [E.inventory.stockMoved, stock('f', 'sale-cancel', 2, [[1, '1']])],
  [E.inventory.productChanged, product(1, 'Rice 5kg', 'Staples', '42.00', '50.00', '5', T0 + 3_600_000)],
  [E.sales.saleCompleted, sale(1, [line(1, 1, 'Rice 5kg', '2', '50', '100.00', '40.00'), line(2, 2, 'Soap', '3', '30', '90.00', '20.00')], '190.00', '50.00')],
  [E.ledger.entryPosted, entry('entry:1:purchase:1', 'purchase', 'distributor', 7, { kind: 'purchase', id: 1 }, 1, '600.00')],
  [E.ledger.entryPosted, entry('entry:1:sale:1', 'sale', 'customer', 3, { kind: 'sale', id: 1 }, 2, '140.00')],
  [E.ledger.entryPosted, entry('entry:1:sale:2', 'sale', 'customer', 3, { kind: 'sale', id: 2 }, 3, '50.00')],
  [E.ledger.entryPosted, entry('entry:1:cn:1', 'credit_note', 'customer', 3, { kind: 'credit-note', id: 1 }, 4, '-30.00')],
  [E.ledger.entryPosted, { ...entry('entry:1:cancel:2', 'reversal', 'customer', 3, { kind: 'sale', id: 2 }, 5, '-50.00') }],
  [E.ledger.paymentReceived, { ...entry('entry:1:payment:1', 'payment_received', 'customer', 3, { kind: 'payment', id: 1 }, 6, '-60.00'), paymentId: 1, payType: 'cash', transactionId: '' }],
  [E.ledger.paymentGiven, { ...entry('entry:1:payment:2', 'payment_given', 'distributor', 7, { kind: 'payment', id: 2 }, 7, '-200.00'), paymentId: 2, payType: 'cash', transactionId: '' }],
  [E.ledger.paymentReceived, { ...entry('entry:1:payment:1', 'payment_received', 'customer', 3, { kind: 'payment', id: 1 }, 6, '-60.00'), paymentId: 1, payType: 'cash', transactionId: '' }],
  [E.inventory.productChanged, product(2, 'Soap', 'Personal', '20.00', '30.00', '10')],
];
const facts = (): Fact[] => day.map(([subject, e]) => toFact(subject, JSON.parse(JSON.stringify(e)))!);

/** A read model's documents, comparable across databases: keys sorted; the apply time and write counters left out. */
async function snapshot(db: Db, opts: { zeroCategories?: boolean } = {}): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  // The streams' checkpoints and the dead letters are bookkeeping, not figures.
  for (const name of Object.values(C).filter((n) => n !== C.checkpoints && n !== C.dead)) {
    const docs: Record<string, string> = {};
    for (const d of await db.collection<{ _id: string; [k: string]: unknown }>(name).find({}).toArray()) {
      // A line projected before its product's category came leaves an all-zero row under '(none)' once moved.
      if (opts.zeroCategories === false && (name === C.profitCat || name === C.profitCatMonth) && !d.qty && !d.value && !d.cost && !d.costless) continue;
      const x: Record<string, unknown> = { ...d };
      // When and from where an id was applied differ by path (history, stream, batch).
      if (name === C.recent) for (const k of ['at', 'stream', 'seq']) delete x[k];
      if (name === C.profitCum) {
        delete x.copies;
        delete x.stamp;
        // Zero entries (a sale and its cancel) are nothing, however they were written.
        x.p = Object.fromEntries(Object.entries((x.p ?? {}) as Record<string, Record<string, number>>).filter(([, e]) => e.q || e.v || e.c || e.l).map(([k, e]) => [k, { q: e.q ?? 0, v: e.v ?? 0, c: e.c ?? 0, l: e.l ?? 0 }]));
      }
      docs[d._id] = JSON.stringify(sorted(x));
    }
    out[name] = docs;
  }
  return out;
}
const sorted = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' && !(v instanceof Date) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v;

let s: Stack;
const conns: Connection[] = [];
async function freshDb(name: string): Promise<{ conn: Connection; db: Db; projector: Projector }> {
  const conn = await mongoose.createConnection(s.mongo.uri, { dbName: name }).asPromise();
  conns.push(conn);
  await ensureIndexes(conn);
  return { conn, db: conn.db as unknown as Db, projector: new Projector(conn) };
}
const serviceDb = () => s.svc.app.get<Connection>(getConnectionToken()).db as unknown as Db;

let oneByOne: Record<string, Record<string, string>>;
let oneByOneNoZero: Record<string, Record<string, string>>;

beforeAll(async () => {
  s = await startReports();
  await s.consumers.caughtUp(60_000);
  const one = await freshDb('batch_one_by_one');
  for (const f of facts()) await one.projector.apply(f);
  oneByOne = await snapshot(one.db);
  oneByOneNoZero = await snapshot(one.db, { zeroCategories: false });
}, 120_000);

afterAll(async () => {
  for (const c of conns) await c.close();
  await s?.stop();
});

describe('events applied in batches', () => {
  it('gives the same read model as one by one: one batch, batches of three, a replay, the memory fold (hand-computed figures)', async () => {
    // Sanity of the one-by-one model itself: sales 190 + 50 + 60 = 300.00 (duplicate bill 1 once),
    // collections 50 + 0 + 60 (bills) + 60 (payment once) = 170.00; Rice's profit moved to Staples.
    const daily = JSON.parse(oneByOne[C.daily]![`1:${D}`]!);
    expect([daily.sales, daily.salesCount, daily.collections, daily.returns, daily.cancelled]).toEqual([30000, 3, 17000, 3000, 5000]);
    // Profit: Rice 100 - 80 (bill 2 cancelled) = 20.00; Soap 90 - 60, less the return 30 - 20, plus bill 3 60 - 40 = 40.00.
    expect(JSON.parse(oneByOne[C.profitCat]![`1:${D}:Staples`]!)).toMatchObject({ value: 10000, cost: 8000 });
    expect(JSON.parse(oneByOne[C.profitCat]![`1:${D}:Grocery`]!)).toMatchObject({ value: 0, cost: 0 });
    expect(JSON.parse(oneByOne[C.profitCat]![`1:${D}:Personal`]!)).toMatchObject({ value: 12000, cost: 8000 });
    // Customer 3: 140 + 50 - 30 - 50 - 60 = 50.00; distributor 7: 600 - 200 = 400.00.
    expect(JSON.parse(oneByOne[C.parties]!['1:r:3']!).balance).toBe(5000);
    expect(JSON.parse(oneByOne[C.parties]!['1:p:7']!).balance).toBe(40000);
    // 27 events, three of them duplicates: 24 applied.
    expect(Object.keys(oneByOne[C.recent]!)).toHaveLength(24);

    const whole = await freshDb('batch_whole');
    expect((await whole.projector.applyBatch(facts())).size).toBe(24);
    expect(await snapshot(whole.db)).toEqual(oneByOne);

    const threes = await freshDb('batch_threes');
    const all = facts();
    let applied = 0;
    for (let i = 0; i < all.length; i += 3) applied += (await threes.projector.applyBatch(all.slice(i, i + 3))).size;
    expect(applied).toBe(24);
    // Every event redelivered, in one batch: nothing changes.
    expect((await threes.projector.applyBatch(facts())).size).toBe(0);
    expect(await snapshot(threes.db)).toEqual(oneByOne);

    const mem = await freshDb('batch_memory');
    const fold = new Fold(null);
    expect(await new Projector(null as never).foldInMemory(fold, facts())).toBe(24);
    await writeFolded(mem.db, fold);
    expect(await snapshot(mem.db)).toEqual(oneByOne);
  }, 60_000);

  it('applies a burst from the streams in a few transactions, equal to one by one, and a rebuild from zero equals it', async () => {
    const before = { batches: s.consumers.batches, applied: s.consumers.applied };
    // Duplicates published under their own message ids: JetStream delivers them, the projection skips them.
    await Promise.all(day.map(([subject, e], i) => s.publish(subject, e, `${String(e.eventId)}#${i}`)));
    await s.consumers.caughtUp(60_000);
    expect(s.consumers.applied - before.applied).toBe(24);
    const batches = s.consumers.batches - before.batches;
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(batches).toBeLessThan(24);
    // The three streams interleave as they will: a sale may come before its products are described.
    expect(await snapshot(serviceDb(), { zeroCategories: false })).toEqual(oneByOneNoZero);
    const live = await snapshot(serviceDb(), { zeroCategories: false });

    await s.consumers.rebuild();
    await s.consumers.caughtUp(60_000);
    expect(await snapshot(serviceDb(), { zeroCategories: false })).toEqual(live);
  }, 120_000);

  it('leaves nothing of a batch that fails mid-way, and applies it once when tried again', async () => {
    const { db, projector } = await freshDb('batch_failing');
    const old = addDaysIso(D, -40);
    const older = addDaysIso(D, -41);
    // A day row the database refuses to add to: the second bill's $inc fails inside the batch.
    await db.collection<{ _id: string }>(C.daily).insertOne({ _id: `1:${old}`, companyId: 1, date: old, sales: 'not a number' } as never);
    const bills = [sale(101, [line(1, 1, 'Rice 5kg', '1', '50', '50.00', '40.00')], '50.00', '50.00', older), sale(102, [line(1, 1, 'Rice 5kg', '2', '50', '100.00', '40.00')], '100.00', '0', old), sale(103, [line(1, 2, 'Soap', '1', '30', '30.00', '20.00')], '30.00', '30.00', older)];
    const billFacts = () => bills.map((b) => toFact(E.sales.saleCompleted, b)!);
    await expect(projector.applyBatch(billFacts())).rejects.toThrow(/non-numeric/);
    for (const name of [C.recent, C.invoices, C.saleLines, C.txns, C.profitDay, C.products, C.profitCum]) expect(await db.collection(name).countDocuments({})).toBe(0);
    expect(await db.collection(C.daily).countDocuments({})).toBe(1);

    await db.collection<{ _id: string }>(C.daily).updateOne({ _id: `1:${old}` }, { $set: { sales: 0 } });
    expect((await projector.applyBatch(billFacts())).size).toBe(3);
    expect((await projector.applyBatch(billFacts())).size).toBe(0);
    // Counted once: the older day 50 + 30 = 80.00 in two bills, the other 100.00 in one.
    const rows = await db.collection<{ _id: string; sales: number; salesCount: number }>(C.daily).find({}).sort({ _id: 1 }).toArray();
    expect(rows.map((r) => [r._id, r.sales, r.salesCount])).toEqual([
      [`1:${older}`, 8000, 2],
      [`1:${old}`, 10000, 1],
    ]);
  }, 60_000);

  it('redelivers an event the projection refused, applies the rest of its batch, and counts it once when it goes through', async () => {
    const db = serviceDb();
    const old = addDaysIso(D, -50);
    const older = addDaysIso(D, -51);
    await db.collection<{ _id: string }>(C.daily).insertOne({ _id: `1:${old}`, companyId: 1, date: old, sales: 'not a number' } as never);
    const bills = [sale(201, [line(1, 1, 'Rice 5kg', '1', '50', '50.00', '40.00')], '50.00', '50.00', older), sale(202, [line(1, 1, 'Rice 5kg', '2', '50', '100.00', '40.00')], '100.00', '0', old), sale(203, [line(1, 2, 'Soap', '1', '30', '30.00', '20.00')], '30.00', '30.00', older)];
    await Promise.all(bills.map((b) => s.publish(E.sales.saleCompleted, b)));
    const seen = (id: string) => db.collection(C.recent).countDocuments({ _id: id as never });
    for (let i = 0; i < 100 && ((await seen('sale:1:201:completed')) === 0 || (await seen('sale:1:203:completed')) === 0); i++) await new Promise((r) => setTimeout(r, 100));
    // The two good bills are in; the refused one is not, in any collection.
    expect(await seen('sale:1:201:completed')).toBe(1);
    expect(await seen('sale:1:203:completed')).toBe(1);
    expect(await seen('sale:1:202:completed')).toBe(0);
    expect(await db.collection(C.invoices).countDocuments({ _id: '1:202' as never })).toBe(0);

    // The row mended: the redelivery goes through, once.
    await db.collection<{ _id: string }>(C.daily).updateOne({ _id: `1:${old}` }, { $set: { sales: 0 } });
    await s.consumers.caughtUp(30_000);
    expect(await seen('sale:1:202:completed')).toBe(1);
    const rows = await db.collection<{ _id: string; sales: number; salesCount: number }>(C.daily).find({ _id: { $in: [`1:${old}`, `1:${older}`] } as never }).sort({ _id: 1 }).toArray();
    // 100.00 on one day; 50 + 30 = 80.00 on the other.
    expect(rows.map((r) => [r._id, r.sales, r.salesCount])).toEqual([
      [`1:${older}`, 8000, 2],
      [`1:${old}`, 10000, 1],
    ]);
  }, 60_000);
});

function addDaysIso(d: string, n: number): string {
  return new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
