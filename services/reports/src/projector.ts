import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { ClientSession, Collection, Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { inTransaction } from '@bahi/service-kit';
import type { EntryPart, Fact, FactLine, ProductFact, SaleCancelFact, SaleFact, SaleReturnFact } from './facts';
import { C } from './store';

export interface Row {
  _id: string;
  // Read-model rows are loose documents: $inc needs numeric-typed fields, reads narrow themselves.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [k: string]: any;
}

export const coll = (db: Db, name: string): Collection<Row> => db.collection<Row>(name);

/** Products per running-totals document (by productId): a range reads two documents per bucket. */
export const CUM_BUCKET = 1024;
/** The date of each bucket's anchor document: before every real date, with nothing in it. */
export const CUM_ANCHOR = '0000-00-00';

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
    await rows.insertOne({ _id: id, companyId, bucket, date, p: prev.p ?? {} }, { session });
  }
  await rows.bulkWrite(
    buckets.map(([bucket, inc]) => ({ updateMany: { filter: { companyId, bucket, date: { $gte: date } }, update: { $inc: inc } } })),
    { session, ordered: true },
  );
}

/** Per-product effect on profit: quantity, value and frozen cost (paise). */
interface ProfitDelta {
  productId: number;
  name: string;
  qty: number;
  value: number;
  cost: number;
  /** Value of lines whose cost is unknown (sold before costs were frozen): left out of margins. */
  costless: number;
}

/** An open (not yet paid) due of a party, paise. */
export interface OpenDue {
  date: string;
  dueDate: string | null;
  docNo: string | null;
  amount: number;
  /** The document that raised it (`sale:12`). */
  src?: string;
}

interface StoredLines {
  _id: string;
  lines: FactLine[];
  /** What applied returns took back, per product. */
  returned?: Record<string, { qty: number; value: number; cost: number; costless: number }>;
  cancelled?: boolean;
}

/**
 * Projects one fact into the read model, all in one transaction with its `seen_events` row:
 * a fact already seen changes nothing (false). Money sums are $inc (commutative), bill rows
 * are upserts keyed by the bill, so facts may arrive in any order; a return or cancel before its
 * sale waits in `pending_profit` for the sale's frozen costs.
 */
@Injectable()
export class Projector {
  constructor(@InjectConnection() private readonly conn: Connection) {}

  private get db(): Db {
    return this.conn.db as unknown as Db;
  }

  async apply(fact: Fact): Promise<boolean> {
    if (await coll(this.db, C.seen).findOne({ _id: fact.eventId }, { projection: { _id: 1 } })) return false;
    try {
      return await inTransaction(this.conn, async (s) => {
        const session = s as unknown as ClientSession;
        // A duplicate here (the same event projected at the same moment) aborts the whole transaction.
        await coll(this.db, C.seen).insertOne({ _id: fact.eventId, kind: fact.kind, companyId: fact.companyId, at: new Date() }, { session });
        await this.project(fact, session);
        return true;
      });
    } catch (err) {
      if ((err as { code?: number }).code === 11000 && /seen_events/.test(String((err as Error).message))) return false;
      throw err;
    }
  }

  private daily(f: Fact, inc: Record<string, number>, session: ClientSession) {
    return coll(this.db, C.daily).updateOne(
      { _id: `${f.companyId}:${f.date}` },
      { $inc: inc, $setOnInsert: { companyId: f.companyId, date: f.date } },
      { upsert: true, session },
    );
  }

  /**
   * Updates a bill's (or purchase's) register row and moves its contribution to the register
   * totals kept on the daily row of its own date: the difference before/after, so a note or a
   * cancel before the bill, or a replay, leaves the totals equal to the sum of the rows.
   */
  private async registerRow(collection: string, prefix: 'reg' | 'preg', id: string, update: Record<string, unknown>, companyId: number, session: ClientSession) {
    const rows = coll(this.db, collection);
    const before = await rows.findOne({ _id: id }, { session });
    const after = await rows.findOneAndUpdate({ _id: id }, update, { upsert: true, session, returnDocument: 'after' });
    const incs = new Map<string, Record<string, number>>();
    const add = (row: Row | null, sign: 1 | -1) => {
      const part = registerPart(row, prefix);
      if (!part || !row) return;
      const inc = incs.get(String(row.date)) ?? {};
      for (const [k, v] of Object.entries(part)) inc[k] = (inc[k] ?? 0) + sign * v;
      incs.set(String(row.date), inc);
    };
    add(before, -1);
    add(after, 1);
    for (const [date, inc] of incs) {
      if (Object.values(inc).every((v) => v === 0)) continue;
      await coll(this.db, C.daily).updateOne({ _id: `${companyId}:${date}` }, { $inc: inc, $setOnInsert: { companyId, date } }, { upsert: true, session });
    }
  }

  private txn(f: Fact, row: Record<string, unknown>, session: ClientSession) {
    // Ordered by the fact's commit time, then its id: the same order live and rebuilt.
    return coll(this.db, C.txns).updateOne({ _id: f.eventId }, { $set: { companyId: f.companyId, date: f.date, at: f.at, kind: f.kind, ...row } }, { upsert: true, session });
  }

  /** A party's name, from the bills and purchases that name it (ledger entries carry ids only). */
  private partyName(companyId: number, side: 'r' | 'p', partyId: number | null, name: string, session: ClientSession) {
    if (partyId === null || !name) return Promise.resolve();
    return coll(this.db, C.parties).updateOne(
      { _id: `${companyId}:${side}:${partyId}` },
      { $set: { name }, $setOnInsert: { companyId, side, partyId, balance: 0 } },
      { upsert: true, session },
    );
  }

  /**
   * The ledger's entry: the party's balance is the sum of its deltas. The party row also keeps its
   * open dues oldest first (a payment or credit clears the oldest, as a shop reads an account),
   * so the ageing reads one row per party: a positive delta is a new due (after any advance the
   * party had), a negative one clears dues from the oldest, any excess is an advance.
   */
  private async entry(f: Fact & { entry: EntryPart }, session: ClientSession) {
    const { side, partyId, delta, dueDate, docNo, src, reversal } = f.entry;
    const c = f.companyId;
    const id = `${c}:${side}:${partyId}`;
    const cur = await coll(this.db, C.parties).findOne({ _id: id }, { session });
    const open: OpenDue[] = ((cur?.open as OpenDue[] | undefined) ?? []).map((d) => ({ ...d }));
    let advance = Number(cur?.advance ?? 0);
    if (delta > 0) {
      const used = Math.min(advance, delta);
      advance -= used;
      if (delta - used > 0) open.push({ date: f.date, dueDate, docNo, amount: delta - used, src });
    } else {
      let left = -delta;
      // A reversal (a sale or purchase undone) takes back its own document's due first.
      for (let i = open.length - 1; reversal && left > 0 && i >= 0; i--) {
        if (open[i]!.src !== src) continue;
        const take = Math.min(left, open[i]!.amount);
        open[i]!.amount -= take;
        left -= take;
        if (open[i]!.amount === 0) open.splice(i, 1);
      }
      while (left > 0 && open.length) {
        const take = Math.min(left, open[0]!.amount);
        open[0]!.amount -= take;
        left -= take;
        if (open[0]!.amount === 0) open.shift();
      }
      advance += left;
    }
    await coll(this.db, C.parties).updateOne(
      { _id: id },
      { $inc: { balance: delta }, $set: { open, advance, oldestDue: open[0]?.date ?? null }, $setOnInsert: { companyId: c, side, partyId } },
      { upsert: true, session },
    );
    // What is open per date, over every party: the ageing buckets' totals in a few hundred rows.
    const byDate = new Map<string, number>();
    for (const d of (cur?.open as OpenDue[] | undefined) ?? []) byDate.set(d.date, (byDate.get(d.date) ?? 0) - d.amount);
    for (const d of open) byDate.set(d.date, (byDate.get(d.date) ?? 0) + d.amount);
    for (const [date, amount] of byDate) {
      if (amount === 0) continue;
      await coll(this.db, C.openDues).updateOne({ _id: `${c}:${side}:${date}` }, { $inc: { amount }, $setOnInsert: { companyId: c, side, date } }, { upsert: true, session });
    }
  }

  /**
   * Profit rows: per product per day and per month (with `profit` for the top-by-margin index),
   * per category per day (the product's category when the line is projected), and the day's
   * totals on the daily row (by month and every total of the profit report).
   */
  private async profit(companyId: number, date: string, deltas: ProfitDelta[], session: ClientSession) {
    const month = date.slice(0, 7);
    const day = { pValue: 0, pCost: 0, pCostless: 0 };
    const cats = new Map<string, { qty: number; value: number; cost: number; costless: number }>();
    // The day and month rows of every line in one command each (a sale's projection is mostly round trips).
    const upsert = (_id: string, update: Record<string, unknown>) => ({ updateOne: { filter: { _id }, update, upsert: true } });
    if (deltas.length) {
      await coll(this.db, C.profitDay).bulkWrite(
        deltas.map((d) => upsert(`${companyId}:${date}:${d.productId}`, { $inc: { qty: d.qty, value: d.value, cost: d.cost, costless: d.costless }, $set: { name: d.name }, $setOnInsert: { companyId, date, productId: d.productId } })),
        { session, ordered: true },
      );
      await coll(this.db, C.profitMonth).bulkWrite(
        deltas.map((d) => upsert(`${companyId}:${month}:${d.productId}`, { $inc: { qty: d.qty, value: d.value, cost: d.cost, costless: d.costless, profit: d.value - d.cost - d.costless }, $set: { name: d.name }, $setOnInsert: { companyId, month, productId: d.productId } })),
        { session, ordered: true },
      );
    }
    for (const d of deltas) {
      day.pValue += d.value;
      day.pCost += d.cost;
      day.pCostless += d.costless;
      // Written, not only read: a category change committing at the same moment then conflicts
      // with this transaction (one of them retries), so no line is left under the old category.
      const prod = await coll(this.db, C.products).findOneAndUpdate(
        { _id: `${companyId}:${d.productId}` },
        { $inc: { lines: 1 }, $setOnInsert: { companyId, productId: d.productId, name: d.name, category: '', brand: '' } },
        { upsert: true, session, returnDocument: 'after' },
      );
      if (prod && prod.counted === undefined) await this.stockValues(prod, session);
      const cat = String(prod?.category ?? '') || '(none)';
      const c = cats.get(cat) ?? { qty: 0, value: 0, cost: 0, costless: 0 };
      c.qty += d.qty;
      c.value += d.value;
      c.cost += d.cost;
      c.costless += d.costless;
      cats.set(cat, c);
    }
    if (cats.size) {
      const all = [...cats];
      await coll(this.db, C.profitCat).bulkWrite(all.map(([category, inc]) => upsert(`${companyId}:${date}:${category}`, { $inc: inc, $setOnInsert: { companyId, date, category } })), { session, ordered: true });
      await coll(this.db, C.profitCatMonth).bulkWrite(all.map(([category, inc]) => upsert(`${companyId}:${month}:${category}`, { $inc: inc, $setOnInsert: { companyId, month, category } })), { session, ordered: true });
    }
    await addToRunningTotals(this.db, companyId, date, deltas, session);
    await coll(this.db, C.daily).updateOne({ _id: `${companyId}:${date}` }, { $inc: day, $setOnInsert: { companyId, date } }, { upsert: true, session });
  }

  /** Adds to a category's profit of a day and of its month. */
  private async catInc(companyId: number, date: string, category: string, inc: Record<string, number>, session: ClientSession) {
    await coll(this.db, C.profitCat).updateOne({ _id: `${companyId}:${date}:${category}` }, { $inc: inc, $setOnInsert: { companyId, date, category } }, { upsert: true, session });
    const month = date.slice(0, 7);
    await coll(this.db, C.profitCatMonth).updateOne({ _id: `${companyId}:${month}:${category}` }, { $inc: inc, $setOnInsert: { companyId, month, category } }, { upsert: true, session });
  }

  /**
   * A product moved to another category takes its profit with it (the report groups by the
   * product's category now), so the end state does not depend on when the change arrived.
   */
  private async moveCategory(companyId: number, productId: number, from: string, to: string, session: ClientSession) {
    for (const r of await coll(this.db, C.profitDay).find({ companyId, productId }, { session }).toArray()) {
      const inc = { qty: Number(r.qty ?? 0), value: Number(r.value ?? 0), cost: Number(r.cost ?? 0), costless: Number(r.costless ?? 0) };
      await this.catInc(companyId, String(r.date), from, Object.fromEntries(Object.entries(inc).map(([k, v]) => [k, -v])), session);
      await this.catInc(companyId, String(r.date), to, inc, session);
    }
  }

  /**
   * A product's values at cost and MRP (stock x price, to the paisa) are kept on its row, and
   * their changes added to the company's stock totals row: the unfiltered stock summary's totals
   * are then one read, and still the sum of its rows.
   */
  private async stockValues(after: Row | null, session: ClientSession) {
    if (!after) return;
    const costValue = Math.round(Number(after.stock ?? 0) * Number(after.cp ?? 0));
    const mrpValue = Math.round(Number(after.stock ?? 0) * Number(after.mrp ?? 0));
    const low = after.minStock !== undefined && after.active !== false && Number(after.stock ?? 0) <= Number(after.minStock);
    const inc = { costValue: costValue - Number(after.costValue ?? 0), mrpValue: mrpValue - Number(after.mrpValue ?? 0), stock: Number(after.stock ?? 0) - Number(after.counted ?? 0) };
    await coll(this.db, C.products).updateOne({ _id: after._id }, { $set: { costValue, mrpValue, low, counted: Number(after.stock ?? 0) } }, { session });
    await coll(this.db, C.stockTotals).updateOne(
      { _id: String(after.companyId) },
      { $inc: { ...inc, products: after.counted === undefined ? 1 : 0 }, $setOnInsert: { companyId: after.companyId } },
      { upsert: true, session },
    );
  }

  private async project(f: Fact, session: ClientSession): Promise<void> {
    const c = f.companyId;
    switch (f.kind) {
      case 'sale': {
        const due = f.amount - f.paid;
        await this.daily(f, { sales: f.amount, salesCount: 1, collections: f.paid, newDues: due }, session);
        await this.registerRow(
          C.invoices,
          'reg',
          `${c}:${f.saleId}`,
          { $set: { companyId: c, saleId: f.saleId, date: f.date, docNo: f.docNo, customerId: f.customerId, customerName: f.customerName, amount: f.amount, paid: f.paid, dueDate: f.dueDate, sold: true } },
          c,
          session,
        );
        await this.txn(f, { ref: f.saleId, docNo: f.docNo, party: f.customerName, partyId: f.customerId, amount: f.amount, paid: f.paid }, session);
        await this.partyName(c, 'r', f.customerId, f.customerName, session);
        await coll(this.db, C.saleLines).updateOne({ _id: `${c}:${f.saleId}` }, { $set: { lines: f.lines } }, { upsert: true, session });
        await this.profit(c, f.date, f.lines.map((l) => ({ productId: l.productId, name: l.name, qty: l.qty, value: l.value, cost: l.cost ?? 0, costless: l.cost === null ? l.value : 0 })), session);
        // Returns and a cancel that came first: their profit now that the frozen costs are here.
        const waiting = await coll(this.db, C.pending).find({ companyId: c, saleId: f.saleId }, { session }).toArray();
        waiting.sort((a, b) => (a.fact as Fact).kind.localeCompare((b.fact as Fact).kind) * -1); // 'sale-return' before 'sale-cancel'
        for (const w of waiting) {
          const pf = w.fact as SaleReturnFact | SaleCancelFact;
          await (pf.kind === 'sale-return' ? this.returnProfit(pf, session) : this.cancelProfit(pf, session));
          await coll(this.db, C.pending).deleteOne({ _id: w._id }, { session });
        }
        return;
      }
      case 'sale-return': {
        await this.daily(f, { returns: f.amount, paidOut: f.refund }, session);
        await this.registerRow(C.invoices, 'reg', `${c}:${f.saleId}`, { $inc: { returned: f.amount }, $setOnInsert: { companyId: c, saleId: f.saleId } }, c, session);
        await this.txn(f, { ref: f.noteId, saleId: f.saleId, docNo: f.docNo, party: f.customerName, partyId: f.customerId, amount: f.amount, paid: f.refund }, session);
        await this.returnProfit(f, session);
        return;
      }
      case 'sale-cancel': {
        await this.daily(f, { cancelled: f.amount }, session);
        await this.registerRow(C.invoices, 'reg', `${c}:${f.saleId}`, { $set: { cancelled: true, cancelledAmount: f.amount }, $setOnInsert: { companyId: c, saleId: f.saleId } }, c, session);
        await this.txn(f, { ref: f.saleId, docNo: f.docNo, party: f.customerName, partyId: f.customerId, amount: f.amount }, session);
        await this.cancelProfit(f, session);
        return;
      }
      case 'purchase': {
        const due = f.amount - f.paid;
        await this.daily(f, { purchases: f.amount, purchaseCount: 1, paidOut: f.paid, newPayables: due }, session);
        await this.registerRow(
          C.purchases,
          'preg',
          `${c}:${f.purchaseId}`,
          { $set: { companyId: c, purchaseId: f.purchaseId, date: f.date, docNo: f.docNo, distributorId: f.distributorId, distributorName: f.distributorName, amount: f.amount, paid: f.paid, bought: true } },
          c,
          session,
        );
        await this.txn(f, { ref: f.purchaseId, docNo: f.docNo, party: f.distributorName, partyId: f.distributorId, amount: f.amount, paid: f.paid }, session);
        await this.partyName(c, 'p', f.distributorId, f.distributorName, session);
        return;
      }
      case 'purchase-return': {
        await this.daily(f, { purchaseReturns: f.amount, collections: f.refund }, session);
        await this.registerRow(C.purchases, 'preg', `${c}:${f.purchaseId}`, { $inc: { returned: f.amount }, $setOnInsert: { companyId: c, purchaseId: f.purchaseId } }, c, session);
        await this.txn(f, { ref: f.noteId, purchaseId: f.purchaseId, docNo: f.docNo, party: f.distributorName, partyId: f.distributorId, amount: f.amount, paid: f.refund }, session);
        await this.partyName(c, 'p', f.distributorId, f.distributorName, session);
        return;
      }
      case 'payment-received':
      case 'payment-given': {
        const received = f.kind === 'payment-received';
        await this.daily(f, received ? { collections: f.amount } : { paidOut: f.amount }, session);
        await this.txn(f, { ref: f.paymentId, docNo: null, party: f.partyName, partyId: f.partyId, amount: f.amount, paid: f.amount }, session);
        await this.entry(f, session);
        return;
      }
      case 'ledger-entry':
        await this.entry(f, session);
        return;
      case 'stock-moved': {
        for (const m of f.movements) {
          const after = await coll(this.db, C.products).findOneAndUpdate(
            { _id: `${c}:${m.productId}` },
            { $inc: { stock: m.qty }, $setOnInsert: { companyId: c, productId: m.productId, name: '', category: '', brand: '' } },
            { upsert: true, session, returnDocument: 'after' },
          );
          await this.stockValues(after, session);
        }
        return;
      }
      case 'product-changed':
        await this.productChanged(f, session);
        return;
    }
  }

  private async productChanged(f: ProductFact, session: ClientSession) {
    const id = `${f.companyId}:${f.productId}`;
    const cur = await coll(this.db, C.products).findOne({ _id: id }, { session });
    if (cur && typeof cur.v === 'number' && cur.v > f.version) return; // an older change arriving late
    const before = String(cur?.category ?? '') || '(none)';
    const now = f.category || '(none)';
    if (before !== now) await this.moveCategory(f.companyId, f.productId, before, now, session);
    const after = await coll(this.db, C.products).findOneAndUpdate(
      { _id: id },
      {
        $set: { v: f.version, name: f.name, category: f.category, brand: f.brand, cp: f.cp, mrp: f.mrp, minStock: f.minStock, active: f.active },
        $setOnInsert: { companyId: f.companyId, productId: f.productId, stock: 0 },
      },
      { upsert: true, session, returnDocument: 'after' },
    );
    await this.stockValues(after, session);
  }

  private async saleLinesOf(f: SaleReturnFact | SaleCancelFact, session: ClientSession): Promise<StoredLines | null> {
    const doc = (await coll(this.db, C.saleLines).findOne({ _id: `${f.companyId}:${f.saleId}` }, { session })) as StoredLines | null;
    if (!doc?.lines) {
      await coll(this.db, C.pending).updateOne({ _id: f.eventId }, { $set: { companyId: f.companyId, saleId: f.saleId, fact: f } }, { upsert: true, session });
      return null;
    }
    return doc;
  }

  /** A return takes its lines' value and their share of the sale's frozen cost off its own day. */
  private async returnProfit(f: SaleReturnFact, session: ClientSession) {
    const sale = await this.saleLinesOf(f, session);
    if (!sale) return;
    const deltas: ProfitDelta[] = [];
    const returned = { ...(sale.returned ?? {}) };
    for (const l of f.lines) {
      const sold = sale.lines.find((x) => x.productId === l.productId);
      // Cost of the returned units: the event's, else the sold line's cost per unit (to the paisa).
      const cost = l.cost ?? (sold && sold.cost !== null && sold.qty ? Math.round((sold.cost * l.qty) / sold.qty) : null);
      const d = { productId: l.productId, name: l.name || sold?.name || '', qty: -l.qty, value: -l.value, cost: -(cost ?? 0), costless: cost === null ? -l.value : 0 };
      deltas.push(d);
      const r = returned[l.productId] ?? { qty: 0, value: 0, cost: 0, costless: 0 };
      returned[l.productId] = { qty: r.qty + l.qty, value: r.value + l.value, cost: r.cost + (cost ?? 0), costless: r.costless + (cost === null ? l.value : 0) };
    }
    await coll(this.db, C.saleLines).updateOne({ _id: sale._id }, { $set: { returned } }, { session });
    await this.profit(f.companyId, f.date, deltas, session);
  }

  /** A cancel takes off what the sale still held: its lines less what returns took back. */
  private async cancelProfit(f: SaleCancelFact, session: ClientSession) {
    const sale = await this.saleLinesOf(f, session);
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
    await coll(this.db, C.saleLines).updateOne({ _id: sale._id }, { $set: { cancelled: true } }, { session });
    await this.profit(f.companyId, f.date, [...byProduct.values()], session);
  }
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
      const docs = [...changed].map((bucket) => ({ _id: `${companyId}:${bucket}:${date}`, companyId, bucket, date, p: running.get(bucket)! }));
      if (docs.length) await rows.insertMany(docs);
      written += docs.length;
      changed = new Set();
    };
    for await (const r of coll(db, C.profitDay).find({ companyId }).sort({ date: 1 })) {
      if (r.date !== date) await flush();
      date = String(r.date);
      const bucket = Math.floor(Number(r.productId) / CUM_BUCKET);
      if (!running.has(bucket)) await rows.insertOne({ _id: `${companyId}:${bucket}:${CUM_ANCHOR}`, companyId, bucket, date: CUM_ANCHOR, p: {} });
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

/** What a register row adds to its date's register totals (null: the bill or purchase itself has not arrived). */
export function registerPart(row: Row | null, prefix: 'reg' | 'preg'): Record<string, number> | null {
  if (!row || !(row.sold || row.bought)) return null;
  const amount = Number(row.amount ?? 0);
  const returned = Number(row.returned ?? 0);
  const cancelled = row.cancelled === true;
  return {
    [`${prefix}Count`]: 1,
    [`${prefix}Amount`]: amount,
    [`${prefix}Returned`]: returned,
    [`${prefix}Cancelled`]: cancelled ? amount - returned : 0,
    [`${prefix}Net`]: cancelled ? 0 : amount - returned,
    [`${prefix}Paid`]: Number(row.paid ?? 0),
  };
}

export type { SaleFact };
