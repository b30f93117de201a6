import { randomUUID } from 'node:crypto';
import type { ClientSession, Db } from 'mongodb';
import type { Fact, FactLine, SaleCancelFact, SaleReturnFact } from '../facts';
import type { Fold, ProfitDelta } from '../fold';
import { C } from '../store';
import { coll, daily, type ReadModel } from './model';
import { staleProduct, stockValues } from './stock';

/** Products per running-totals document (by productId): a range reads two documents per bucket. */
export const CUM_BUCKET = 1024;
/** The date of each bucket's anchor document: before every real date, with nothing in it. */
export const CUM_ANCHOR = '0000-00-00';

/** A value no earlier write of a `profit_cum` document had (its `stamp`: the reports keep decoded copies by it). */
export const cumStamp = (): string => randomUUID();

/** A product's running totals in a `profit_cum` document: quantity, value, frozen cost, value without cost. */
export interface CumEntry {
  q?: number;
  v?: number;
  c?: number;
  l?: number;
}

/**
 * Adds per-product profit changes of one date to the running totals: the date's document (made
 * from the latest earlier one when missing) and every later one of the bucket get the change, so
 * each document stays the sum of every change dated on or before it, whatever the arrival order.
 */
export async function addToRunningTotals(db: Db, companyId: number, date: string, deltas: { productId: number; qty: number; value: number; cost: number; costless: number }[], session?: ClientSession) {
  const byBucket = new Map<number, Record<string, number>>();
  for (const d of deltas) {
    const bucket = Math.floor(d.productId / CUM_BUCKET);
    const inc = byBucket.get(bucket) ?? {};
    for (const [k, v] of [['q', d.qty], ['v', d.value], ['c', d.cost], ['l', d.costless]] as const) {
      if (v) inc[`p.${d.productId}.${k}`] = (inc[`p.${d.productId}.${k}`] ?? 0) + v;
    }
    byBucket.set(bucket, inc);
  }
  const rows = coll(db, C.profitCum);
  const buckets = [...byBucket].filter(([, inc]) => Object.keys(inc).length);
  if (!buckets.length) return;
  // A new stamp on every document this changes: a reader's copy is current while its stamp is.
  const stamp = cumStamp();
  const ids = buckets.map(([bucket]) => `${companyId}:${bucket}:${date}`);
  const have = new Set((await rows.find({ _id: { $in: ids } }, { session, projection: { _id: 1 } }).toArray()).map((d) => d._id));
  for (const [bucket] of buckets) {
    const id = `${companyId}:${bucket}:${date}`;
    if (have.has(id)) continue;
    // The bucket's anchor (dated before every day, empty) is the first document's "latest earlier one".
    await rows.updateOne({ _id: `${companyId}:${bucket}:${CUM_ANCHOR}` }, { $setOnInsert: { companyId, bucket, date: CUM_ANCHOR, p: {} } }, { upsert: true, session });
    const prev = (await rows.find({ companyId, bucket, date: { $lt: date } }, { session }).sort({ date: -1 }).limit(1).next())!;
    // Written, not only read: a change committing at the same moment to it (or to a date before
    // it) conflicts with this transaction and one of them retries, so the copy misses nothing.
    await rows.updateOne({ _id: prev._id }, { $inc: { copies: 1 } }, { session });
    await rows.insertOne({ _id: id, companyId, bucket, date, p: prev.p ?? {}, stamp }, { session });
  }
  await rows.bulkWrite(
    buckets.map(([bucket, inc]) => ({ updateMany: { filter: { companyId, bucket, date: { $gte: date } }, update: { $inc: inc, $set: { stamp } } } })),
    { session, ordered: true },
  );
}

/**
 * Makes the running totals from the per-product day rows (a read model built before they were
 * kept): each company's day rows in date order, one document per bucket for each date it changed.
 */
export async function runningTotalsFromDays(db: Db): Promise<number> {
  const rows = coll(db, C.profitCum);
  await rows.deleteMany({});
  let written = 0;
  for (const companyId of await coll(db, C.profitDay).distinct('companyId')) {
    const running = new Map<number, Record<string, CumEntry>>();
    let date = '';
    let changed = new Set<number>();
    const flush = async () => {
      const docs = [...changed].map((bucket) => ({ _id: `${companyId}:${bucket}:${date}`, companyId, bucket, date, p: running.get(bucket)!, stamp: cumStamp() }));
      if (docs.length) await rows.insertMany(docs);
      written += docs.length;
      changed = new Set();
    };
    for await (const r of coll(db, C.profitDay).find({ companyId }).sort({ date: 1 })) {
      if (r.date !== date) await flush();
      date = String(r.date);
      const bucket = Math.floor(Number(r.productId) / CUM_BUCKET);
      if (!running.has(bucket)) await rows.insertOne({ _id: `${companyId}:${bucket}:${CUM_ANCHOR}`, companyId, bucket, date: CUM_ANCHOR, p: {}, stamp: cumStamp() });
      const p = running.get(bucket) ?? {};
      const e = p[r.productId] ?? {};
      p[r.productId] = { q: (e.q ?? 0) + Number(r.qty ?? 0), v: (e.v ?? 0) + Number(r.value ?? 0), c: (e.c ?? 0) + Number(r.cost ?? 0), l: (e.l ?? 0) + Number(r.costless ?? 0) };
      running.set(bucket, p);
      changed.add(bucket);
    }
    await flush();
  }
  return written;
}

interface StoredLines {
  _id: string;
  lines: FactLine[];
  /** What applied returns took back, per product. */
  returned?: Record<string, { qty: number; value: number; cost: number; costless: number }>;
  cancelled?: boolean;
}

/** Adds to a category's profit of a day and of its month. */
function catInc(companyId: number, date: string, category: string, inc: Record<string, number>, w: Fold) {
  w.write(C.profitCat, `${companyId}:${date}:${category}`, { inc, onInsert: { companyId, date, category } });
  const month = date.slice(0, 7);
  w.write(C.profitCatMonth, `${companyId}:${month}:${category}`, { inc, onInsert: { companyId, month, category } });
}

/**
 * Profit rows: per product per day and per month (with `profit` for the top-by-margin index),
 * per category per day (the product's category when the line is projected), the running totals
 * and the day's totals on the daily row (by month and every total of the profit report).
 */
async function profitRows(companyId: number, date: string, deltas: ProfitDelta[], w: Fold) {
  const month = date.slice(0, 7);
  const day = { pValue: 0, pCost: 0, pCostless: 0 };
  const cats = new Map<string, { qty: number; value: number; cost: number; costless: number }>();
  for (const d of deltas) {
    const inc = { qty: d.qty, value: d.value, cost: d.cost, costless: d.costless };
    w.write(C.profitDay, `${companyId}:${date}:${d.productId}`, { inc, set: { name: d.name }, onInsert: { companyId, date, productId: d.productId } });
    w.write(C.profitMonth, `${companyId}:${month}:${d.productId}`, { inc: { ...inc, profit: d.value - d.cost - d.costless }, set: { name: d.name }, onInsert: { companyId, month, productId: d.productId } });
    day.pValue += d.value;
    day.pCost += d.cost;
    day.pCostless += d.costless;
    // Written, not only read: a category change committing at the same moment then conflicts
    // with this transaction (one of them retries), so no line is left under the old category.
    const prod = await w.update(C.products, `${companyId}:${d.productId}`, { inc: { lines: 1 }, onInsert: { companyId, productId: d.productId, name: d.name, category: '', brand: '' } });
    if (prod && prod.counted === undefined) stockValues(prod, w);
    const cat = String(prod?.category ?? '') || '(none)';
    const c = cats.get(cat) ?? { qty: 0, value: 0, cost: 0, costless: 0 };
    c.qty += d.qty;
    c.value += d.value;
    c.cost += d.cost;
    c.costless += d.costless;
    cats.set(cat, c);
  }
  for (const [category, inc] of cats) catInc(companyId, date, category, inc, w);
  w.addCum(companyId, date, deltas);
  daily({ companyId, date }, day, w);
}

/**
 * A product moved to another category takes its profit with it (the report groups by the
 * product's category now), so the end state does not depend on when the change arrived.
 */
async function moveCategory(companyId: number, productId: number, from: string, to: string, w: Fold) {
  for (const r of await w.find(C.profitDay, { companyId, productId })) {
    const inc = { qty: Number(r.qty ?? 0), value: Number(r.value ?? 0), cost: Number(r.cost ?? 0), costless: Number(r.costless ?? 0) };
    catInc(companyId, String(r.date), from, Object.fromEntries(Object.entries(inc).map(([k, v]) => [k, -v])), w);
    catInc(companyId, String(r.date), to, inc, w);
  }
}

async function saleLinesOf(f: SaleReturnFact | SaleCancelFact, w: Fold): Promise<StoredLines | null> {
  const doc = (await w.get(C.saleLines, `${f.companyId}:${f.saleId}`)) as StoredLines | null;
  if (!doc?.lines) {
    await w.update(C.pending, f.eventId, { set: { companyId: f.companyId, saleId: f.saleId, fact: f } });
    return null;
  }
  return doc;
}

/** A return takes its lines' value and their share of the sale's frozen cost off its own day. */
async function returnProfit(f: SaleReturnFact, w: Fold) {
  const sale = await saleLinesOf(f, w);
  if (!sale) return;
  const deltas: ProfitDelta[] = [];
  const returned = { ...(sale.returned ?? {}) };
  for (const l of f.lines) {
    const sold = sale.lines.find((x) => x.productId === l.productId);
    // Cost of the returned units: the event's, else the sold line's cost per unit (to the paisa).
    const cost = l.cost ?? (sold && sold.cost !== null && sold.qty ? Math.round((sold.cost * l.qty) / sold.qty) : null);
    const r = returned[l.productId] ?? { qty: 0, value: 0, cost: 0, costless: 0 };
    // Value of the returned units: their share of what the line sold for (net of the summary
    // discount, before tax and shipping); the return that completes the line takes what is left.
    const value = !sold || !sold.qty ? l.value : r.qty + l.qty >= sold.qty ? sold.value - r.value : Math.round((sold.value * l.qty) / sold.qty);
    const d = { productId: l.productId, name: l.name || sold?.name || '', qty: -l.qty, value: -value, cost: -(cost ?? 0), costless: cost === null ? -value : 0 };
    deltas.push(d);
    returned[l.productId] = { qty: r.qty + l.qty, value: r.value + value, cost: r.cost + (cost ?? 0), costless: r.costless + (cost === null ? value : 0) };
  }
  await w.update(C.saleLines, sale._id, { set: { returned } }, false);
  await profitRows(f.companyId, f.date, deltas, w);
}

/** A cancel takes off what the sale still held: its lines less what returns took back. */
async function cancelProfit(f: SaleCancelFact, w: Fold) {
  const sale = await saleLinesOf(f, w);
  if (!sale || sale.cancelled) return;
  const byProduct = new Map<number, ProfitDelta>();
  for (const l of sale.lines) {
    const d = byProduct.get(l.productId) ?? { productId: l.productId, name: l.name, qty: 0, value: 0, cost: 0, costless: 0 };
    d.qty -= l.qty;
    d.value -= l.value;
    d.cost -= l.cost ?? 0;
    d.costless -= l.cost === null ? l.value : 0;
    byProduct.set(l.productId, d);
  }
  for (const [pid, r] of Object.entries(sale.returned ?? {})) {
    const d = byProduct.get(Number(pid));
    if (!d) continue;
    d.qty += r.qty;
    d.value += r.value;
    d.cost += r.cost;
    d.costless += r.costless;
  }
  await w.update(C.saleLines, sale._id, { set: { cancelled: true } }, false);
  await profitRows(f.companyId, f.date, [...byProduct.values()], w);
}

/**
 * Profit on frozen costs: per product per day and month, per category, running totals per
 * product, the day's totals. A return or cancel before its sale waits in `pending_profit` for the
 * sale's frozen costs. Runs before `stock` on a product change (it reads the category it had).
 */
export const profit: ReadModel = {
  name: 'profit',
  kinds: ['sale', 'sale-return', 'sale-cancel', 'product-changed'],
  collections: [C.saleLines, C.pending, C.profitDay, C.profitMonth, C.profitCat, C.profitCatMonth, C.profitCum, C.daily],
  prefetch(f, want) {
    const c = f.companyId;
    if (f.kind === 'sale') {
      want(C.saleLines, `${c}:${f.saleId}`);
      for (const l of f.lines) want(C.products, `${c}:${l.productId}`);
    } else if (f.kind === 'sale-return' || f.kind === 'sale-cancel') want(C.saleLines, `${c}:${f.saleId}`);
  },
  async prefetchBatch(facts, w) {
    const sales = new Map<number, number[]>();
    for (const f of facts) if (f.kind === 'sale') (sales.get(f.companyId) ?? sales.set(f.companyId, []).get(f.companyId)!).push(f.saleId);
    for (const [c, saleIds] of sales) await w.loadWhere(C.pending, { companyId: c }, 'saleId', saleIds);
  },
  async fold(f: Fact, w: Fold) {
    const c = f.companyId;
    switch (f.kind) {
      case 'sale': {
        await w.update(C.saleLines, `${c}:${f.saleId}`, { set: { lines: f.lines } });
        await profitRows(c, f.date, f.lines.map((l) => ({ productId: l.productId, name: l.name, qty: l.qty, value: l.value, cost: l.cost ?? 0, costless: l.cost === null ? l.value : 0 })), w);
        // Returns and a cancel that came first: their profit now that the frozen costs are here.
        const waiting = await w.find(C.pending, { companyId: c, saleId: f.saleId });
        waiting.sort((a, b) => (a.fact as Fact).kind.localeCompare((b.fact as Fact).kind) * -1 || String(a._id).localeCompare(String(b._id))); // 'sale-return' before 'sale-cancel'
        for (const x of waiting) {
          const pf = x.fact as SaleReturnFact | SaleCancelFact;
          await (pf.kind === 'sale-return' ? returnProfit(pf, w) : cancelProfit(pf, w));
          await w.remove(C.pending, x._id);
        }
        return;
      }
      case 'sale-return':
        return returnProfit(f, w);
      case 'sale-cancel':
        return cancelProfit(f, w);
      case 'product-changed': {
        const cur = await w.get(C.products, `${c}:${f.productId}`);
        if (staleProduct(cur, f)) return;
        const before = String(cur?.category ?? '') || '(none)';
        const now = f.category || '(none)';
        if (before !== now) await moveCategory(c, f.productId, before, now, w);
        return;
      }
      default:
        return;
    }
  },
  async afterFlush(db, w, session) {
    for (const x of w.cumChanges()) await addToRunningTotals(db, x.companyId, x.date, x.deltas, session);
  },
  afterMemoryWrite: runningTotalsFromDays,
};
