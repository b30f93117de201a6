import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { ClientSession, Collection, Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { inTransaction } from '@bahi/service-kit';
import type { EntryPart, Fact, FactLine, PartyFact, ProductFact, SaleCancelFact, SaleFact, SaleReturnFact } from './facts';
import { Fold, type Change, type ProfitDelta } from './fold';
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

/** Facts per transaction at most (a consumer's batch, a history page). */
export const MAX_BATCH = 512;

/**
 * Projects facts into the read model, a batch in one transaction with their `seen_events` rows:
 * a fact already seen (or twice in the batch) changes nothing. The batch is folded in memory
 * (`Fold`: each document read once, changed, written once), so a batch costs a few commands per
 * collection rather than ~20 per fact. Money sums are $inc (commutative), bill rows are upserts
 * keyed by the bill, so facts may arrive in any order; a return or cancel before its sale waits in
 * `pending_profit` for the sale's frozen costs.
 */
@Injectable()
export class Projector {
  constructor(@InjectConnection() private readonly conn: Connection) {}

  private get db(): Db {
    return this.conn.db as unknown as Db;
  }

  /** One fact (true: applied; false: seen before). */
  async apply(fact: Fact): Promise<boolean> {
    return (await this.applyBatch([fact])).has(fact.eventId);
  }

  /**
   * Facts in one transaction: the ids applied now (the others were seen before). All or nothing:
   * a failure leaves nothing applied. An event applied at the same moment by another writer
   * aborts the transaction on its `seen_events` row; it is then tried again without that event.
   */
  async applyBatch(facts: Fact[]): Promise<Set<string>> {
    const unique = new Map<string, Fact>();
    for (const f of facts) if (!unique.has(f.eventId)) unique.set(f.eventId, f);
    for (let attempt = 0; ; attempt++) {
      try {
        return await inTransaction(this.conn, async (s) => {
          const w = new Fold(this.db, s as unknown as ClientSession);
          await w.load(C.seen, unique.keys());
          const todo = [...unique.values()].filter((f) => !w.has(C.seen, f.eventId));
          await this.prefetch(w, todo);
          const at = new Date();
          for (const f of todo) {
            w.insert(C.seen, { _id: f.eventId, kind: f.kind, companyId: f.companyId, at });
            await this.project(f, w);
          }
          await w.flush();
          for (const x of w.cumChanges()) await addToRunningTotals(this.db, x.companyId, x.date, x.deltas, s as unknown as ClientSession);
          return new Set(todo.map((f) => f.eventId));
        });
      } catch (err) {
        if (attempt < 3 && (err as { code?: number }).code === 11000 && /seen_events/.test(String((err as Error).message))) continue;
        throw err;
      }
    }
  }

  /** Facts folded into a fold without a database (the benchmark's seeder): the same code as `applyBatch`. */
  async foldInMemory(w: Fold, facts: Iterable<Fact>): Promise<number> {
    let n = 0;
    for (const f of facts) {
      if (w.has(C.seen, f.eventId)) continue;
      w.insert(C.seen, { _id: f.eventId, kind: f.kind, companyId: f.companyId });
      await this.project(f, w);
      n++;
    }
    return n;
  }

  /** Reads, in a few queries, the documents the batch's facts will read one by one otherwise. */
  private async prefetch(w: Fold, facts: Fact[]) {
    const ids = new Map<string, string[]>();
    const want = (c: string, id: string) => (ids.get(c) ?? ids.set(c, []).get(c)!).push(id);
    const sales = new Map<number, number[]>();
    for (const f of facts) {
      const c = f.companyId;
      switch (f.kind) {
        case 'sale':
          (sales.get(c) ?? sales.set(c, []).get(c)!).push(f.saleId);
          want(C.invoices, `${c}:${f.saleId}`);
          want(C.saleLines, `${c}:${f.saleId}`);
          for (const l of f.lines) want(C.products, `${c}:${l.productId}`);
          if (f.customerId !== null) want(C.parties, `${c}:r:${f.customerId}`);
          break;
        case 'sale-return':
        case 'sale-cancel':
          want(C.invoices, `${c}:${f.saleId}`);
          want(C.saleLines, `${c}:${f.saleId}`);
          break;
        case 'purchase':
        case 'purchase-return':
          want(C.purchases, `${c}:${f.purchaseId}`);
          if (f.distributorId !== null) want(C.parties, `${c}:p:${f.distributorId}`);
          break;
        case 'payment-received':
        case 'payment-given':
        case 'ledger-entry':
          want(C.parties, `${c}:${f.entry.side}:${f.entry.partyId}`);
          break;
        case 'stock-moved':
          for (const m of f.movements) want(C.products, `${c}:${m.productId}`);
          break;
        case 'product-changed':
          want(C.products, `${c}:${f.productId}`);
          break;
        case 'party-changed':
          want(C.parties, `${c}:${f.side}:${f.partyId}`);
          break;
      }
    }
    for (const [c, list] of ids) await w.load(c, list);
    for (const [c, saleIds] of sales) await w.loadWhere(C.pending, { companyId: c }, 'saleId', saleIds);
  }

  private daily(f: Fact, inc: Record<string, number>, w: Fold) {
    w.write(C.daily, `${f.companyId}:${f.date}`, { inc, onInsert: { companyId: f.companyId, date: f.date } });
  }

  /**
   * Updates a bill's (or purchase's) register row and moves its contribution to the register
   * totals kept on the daily row of its own date: the difference before/after, so a note or a
   * cancel before the bill, or a replay, leaves the totals equal to the sum of the rows.
   */
  private async registerRow(collection: string, prefix: 'reg' | 'preg', id: string, ch: Change, companyId: number, w: Fold) {
    const cur = await w.get(collection, id);
    const before = cur ? { ...cur } : null;
    const after = await w.update(collection, id, ch);
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
      w.write(C.daily, `${companyId}:${date}`, { inc, onInsert: { companyId, date } });
    }
  }

  private txn(f: Fact, row: Record<string, unknown>, w: Fold) {
    // Ordered by the fact's commit time, then its id: the same order live and rebuilt.
    w.write(C.txns, f.eventId, { set: { companyId: f.companyId, date: f.date, at: f.at, kind: f.kind, ...row } });
    // The day book's totals per kind on the day row, so a page of the day need not read the rest.
    this.daily(f, { [`dbN_${f.kind}`]: 1, [`dbA_${f.kind}`]: Number(row.amount ?? 0) }, w);
  }

  /**
   * A party's name from a bill or purchase that names it, until the ledger's own party event has
   * named it (`nv`): that one is the party's name now, a bill's is the name it was billed under.
   */
  private async partyName(companyId: number, side: 'r' | 'p', partyId: number | null, name: string, w: Fold) {
    if (partyId === null || !name) return;
    const id = `${companyId}:${side}:${partyId}`;
    const cur = await w.get(C.parties, id);
    if (cur && typeof cur.nv === 'number') return;
    await w.update(C.parties, id, { set: { name }, onInsert: { companyId, side, partyId, balance: 0 } });
  }

  /** The ledger's customer or distributor: its name everywhere the reports show it, the latest write winning. */
  private async partyChanged(f: PartyFact, w: Fold) {
    const id = `${f.companyId}:${f.side}:${f.partyId}`;
    const cur = await w.get(C.parties, id);
    if (cur && typeof cur.nv === 'number' && cur.nv > f.version) return; // an older change arriving late
    await w.update(C.parties, id, { set: { nv: f.version, name: f.name, mobile: f.mobile, gstin: f.gstin }, onInsert: { companyId: f.companyId, side: f.side, partyId: f.partyId, balance: 0 } });
  }

  /**
   * The ledger's entry: the party's balance is the sum of its deltas. The party row also keeps its
   * open dues oldest first (a payment or credit clears the oldest, as a shop reads an account),
   * so the ageing reads one row per party: a positive delta is a new due (after any advance the
   * party had), a negative one clears dues from the oldest, any excess is an advance.
   */
  private async entry(f: Fact & { entry: EntryPart }, w: Fold) {
    const { side, partyId, delta, dueDate, docNo, src, reversal } = f.entry;
    const c = f.companyId;
    const id = `${c}:${side}:${partyId}`;
    const cur = await w.get(C.parties, id);
    const was: OpenDue[] = ((cur?.open as OpenDue[] | undefined) ?? []).map((d) => ({ ...d }));
    const open: OpenDue[] = was.map((d) => ({ ...d }));
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
    await w.update(C.parties, id, { inc: { balance: delta }, set: { open, advance, oldestDue: open[0]?.date ?? null }, onInsert: { companyId: c, side, partyId } });
    // What is open per date, over every party: the ageing buckets' totals in a few hundred rows.
    const byDate = new Map<string, number>();
    for (const d of was) byDate.set(d.date, (byDate.get(d.date) ?? 0) - d.amount);
    for (const d of open) byDate.set(d.date, (byDate.get(d.date) ?? 0) + d.amount);
    for (const [date, amount] of byDate) {
      if (amount === 0) continue;
      w.write(C.openDues, `${c}:${side}:${date}`, { inc: { amount }, onInsert: { companyId: c, side, date } });
    }
  }

  /**
   * Profit rows: per product per day and per month (with `profit` for the top-by-margin index),
   * per category per day (the product's category when the line is projected), the running totals
   * and the day's totals on the daily row (by month and every total of the profit report).
   */
  private async profit(companyId: number, date: string, deltas: ProfitDelta[], w: Fold) {
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
      if (prod && prod.counted === undefined) this.stockValues(prod, w);
      const cat = String(prod?.category ?? '') || '(none)';
      const c = cats.get(cat) ?? { qty: 0, value: 0, cost: 0, costless: 0 };
      c.qty += d.qty;
      c.value += d.value;
      c.cost += d.cost;
      c.costless += d.costless;
      cats.set(cat, c);
    }
    for (const [category, inc] of cats) this.catInc(companyId, date, category, inc, w);
    w.addCum(companyId, date, deltas);
    w.write(C.daily, `${companyId}:${date}`, { inc: day, onInsert: { companyId, date } });
  }

  /** Adds to a category's profit of a day and of its month. */
  private catInc(companyId: number, date: string, category: string, inc: Record<string, number>, w: Fold) {
    w.write(C.profitCat, `${companyId}:${date}:${category}`, { inc, onInsert: { companyId, date, category } });
    const month = date.slice(0, 7);
    w.write(C.profitCatMonth, `${companyId}:${month}:${category}`, { inc, onInsert: { companyId, month, category } });
  }

  /**
   * A product moved to another category takes its profit with it (the report groups by the
   * product's category now), so the end state does not depend on when the change arrived.
   */
  private async moveCategory(companyId: number, productId: number, from: string, to: string, w: Fold) {
    for (const r of await w.find(C.profitDay, { companyId, productId })) {
      const inc = { qty: Number(r.qty ?? 0), value: Number(r.value ?? 0), cost: Number(r.cost ?? 0), costless: Number(r.costless ?? 0) };
      this.catInc(companyId, String(r.date), from, Object.fromEntries(Object.entries(inc).map(([k, v]) => [k, -v])), w);
      this.catInc(companyId, String(r.date), to, inc, w);
    }
  }

  /**
   * A product's values at cost and MRP (stock x price, to the paisa) are kept on its row, and
   * their changes added to the company's stock totals row: the unfiltered stock summary's totals
   * are then one read, and still the sum of its rows.
   */
  private stockValues(after: Row | null, w: Fold) {
    if (!after) return;
    const costValue = Math.round(Number(after.stock ?? 0) * Number(after.cp ?? 0));
    const mrpValue = Math.round(Number(after.stock ?? 0) * Number(after.mrp ?? 0));
    const low = after.minStock !== undefined && after.active !== false && Number(after.stock ?? 0) <= Number(after.minStock);
    const inc = { costValue: costValue - Number(after.costValue ?? 0), mrpValue: mrpValue - Number(after.mrpValue ?? 0), stock: Number(after.stock ?? 0) - Number(after.counted ?? 0) };
    const products = after.counted === undefined ? 1 : 0;
    w.write(C.products, after._id, { set: { costValue, mrpValue, low, counted: Number(after.stock ?? 0) } });
    w.write(C.stockTotals, String(after.companyId), { inc: { ...inc, products }, onInsert: { companyId: after.companyId } });
  }

  private async project(f: Fact, w: Fold): Promise<void> {
    const c = f.companyId;
    switch (f.kind) {
      case 'sale': {
        const due = f.amount - f.paid;
        this.daily(f, { sales: f.amount, salesCount: 1, collections: f.paid, newDues: due }, w);
        await this.registerRow(
          C.invoices,
          'reg',
          `${c}:${f.saleId}`,
          { set: { companyId: c, saleId: f.saleId, date: f.date, docNo: f.docNo, customerId: f.customerId, customerName: f.customerName, amount: f.amount, paid: f.paid, dueDate: f.dueDate, sold: true } },
          c,
          w,
        );
        this.txn(f, { ref: f.saleId, docNo: f.docNo, party: f.customerName, partyId: f.customerId, amount: f.amount, paid: f.paid }, w);
        await this.partyName(c, 'r', f.customerId, f.customerName, w);
        await w.update(C.saleLines, `${c}:${f.saleId}`, { set: { lines: f.lines } });
        await this.profit(c, f.date, f.lines.map((l) => ({ productId: l.productId, name: l.name, qty: l.qty, value: l.value, cost: l.cost ?? 0, costless: l.cost === null ? l.value : 0 })), w);
        // Returns and a cancel that came first: their profit now that the frozen costs are here.
        const waiting = await w.find(C.pending, { companyId: c, saleId: f.saleId });
        waiting.sort((a, b) => (a.fact as Fact).kind.localeCompare((b.fact as Fact).kind) * -1 || String(a._id).localeCompare(String(b._id))); // 'sale-return' before 'sale-cancel'
        for (const x of waiting) {
          const pf = x.fact as SaleReturnFact | SaleCancelFact;
          await (pf.kind === 'sale-return' ? this.returnProfit(pf, w) : this.cancelProfit(pf, w));
          await w.remove(C.pending, x._id);
        }
        return;
      }
      case 'sale-return': {
        this.daily(f, { returns: f.amount, paidOut: f.refund }, w);
        await this.registerRow(C.invoices, 'reg', `${c}:${f.saleId}`, { inc: { returned: f.amount }, onInsert: { companyId: c, saleId: f.saleId } }, c, w);
        this.txn(f, { ref: f.noteId, saleId: f.saleId, docNo: f.docNo, party: f.customerName, partyId: f.customerId, amount: f.amount, paid: f.refund }, w);
        await this.returnProfit(f, w);
        return;
      }
      case 'sale-cancel': {
        this.daily(f, { cancelled: f.amount }, w);
        await this.registerRow(C.invoices, 'reg', `${c}:${f.saleId}`, { set: { cancelled: true, cancelledAmount: f.amount }, onInsert: { companyId: c, saleId: f.saleId } }, c, w);
        this.txn(f, { ref: f.saleId, docNo: f.docNo, party: f.customerName, partyId: f.customerId, amount: f.amount }, w);
        await this.cancelProfit(f, w);
        return;
      }
      case 'purchase': {
        const due = f.amount - f.paid;
        this.daily(f, { purchases: f.amount, purchaseCount: 1, paidOut: f.paid, newPayables: due }, w);
        await this.registerRow(
          C.purchases,
          'preg',
          `${c}:${f.purchaseId}`,
          { set: { companyId: c, purchaseId: f.purchaseId, date: f.date, docNo: f.docNo, distributorId: f.distributorId, distributorName: f.distributorName, amount: f.amount, paid: f.paid, bought: true } },
          c,
          w,
        );
        this.txn(f, { ref: f.purchaseId, docNo: f.docNo, party: f.distributorName, partyId: f.distributorId, amount: f.amount, paid: f.paid }, w);
        await this.partyName(c, 'p', f.distributorId, f.distributorName, w);
        return;
      }
      case 'purchase-return': {
        this.daily(f, { purchaseReturns: f.amount, collections: f.refund }, w);
        await this.registerRow(C.purchases, 'preg', `${c}:${f.purchaseId}`, { inc: { returned: f.amount }, onInsert: { companyId: c, purchaseId: f.purchaseId } }, c, w);
        this.txn(f, { ref: f.noteId, purchaseId: f.purchaseId, docNo: f.docNo, party: f.distributorName, partyId: f.distributorId, amount: f.amount, paid: f.refund }, w);
        await this.partyName(c, 'p', f.distributorId, f.distributorName, w);
        return;
      }
      case 'payment-received':
      case 'payment-given': {
        const received = f.kind === 'payment-received';
        this.daily(f, received ? { collections: f.amount } : { paidOut: f.amount }, w);
        this.txn(f, { ref: f.paymentId, docNo: null, party: f.partyName, partyId: f.partyId, amount: f.amount, paid: f.amount }, w);
        await this.entry(f, w);
        return;
      }
      case 'ledger-entry':
        await this.entry(f, w);
        return;
      case 'stock-moved': {
        for (const m of f.movements) {
          const after = await w.update(C.products, `${c}:${m.productId}`, { inc: { stock: m.qty }, onInsert: { companyId: c, productId: m.productId, name: '', category: '', brand: '' } });
          this.stockValues(after, w);
        }
        return;
      }
      case 'product-changed':
        await this.productChanged(f, w);
        return;
      case 'party-changed':
        await this.partyChanged(f, w);
        return;
    }
  }

  private async productChanged(f: ProductFact, w: Fold) {
    const id = `${f.companyId}:${f.productId}`;
    const cur = await w.get(C.products, id);
    if (cur && typeof cur.v === 'number' && cur.v > f.version) return; // an older change arriving late
    const before = String(cur?.category ?? '') || '(none)';
    const now = f.category || '(none)';
    if (before !== now) await this.moveCategory(f.companyId, f.productId, before, now, w);
    const after = await w.update(C.products, id, {
      set: { v: f.version, name: f.name, category: f.category, brand: f.brand, cp: f.cp, mrp: f.mrp, minStock: f.minStock, active: f.active },
      onInsert: { companyId: f.companyId, productId: f.productId, stock: 0 },
    });
    this.stockValues(after, w);
  }

  private async saleLinesOf(f: SaleReturnFact | SaleCancelFact, w: Fold): Promise<StoredLines | null> {
    const doc = (await w.get(C.saleLines, `${f.companyId}:${f.saleId}`)) as StoredLines | null;
    if (!doc?.lines) {
      await w.update(C.pending, f.eventId, { set: { companyId: f.companyId, saleId: f.saleId, fact: f } });
      return null;
    }
    return doc;
  }

  /** A return takes its lines' value and their share of the sale's frozen cost off its own day. */
  private async returnProfit(f: SaleReturnFact, w: Fold) {
    const sale = await this.saleLinesOf(f, w);
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
    await w.update(C.saleLines, sale._id, { set: { returned } }, false);
    await this.profit(f.companyId, f.date, deltas, w);
  }

  /** A cancel takes off what the sale still held: its lines less what returns took back. */
  private async cancelProfit(f: SaleCancelFact, w: Fold) {
    const sale = await this.saleLinesOf(f, w);
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
    await this.profit(f.companyId, f.date, [...byProduct.values()], w);
  }
}

/**
 * Writes a fold made without a database (`foldInMemory`) to an empty read model: its documents in
 * large inserts, then the running totals from the day rows. Returns the documents written.
 */
export async function writeFolded(db: Db, w: Fold): Promise<number> {
  let docs = 0;
  for (const [name, all] of w.collections()) {
    for (let i = 0; i < all.length; i += 5000) await coll(db, name).insertMany(all.slice(i, i + 5000) as Row[], { ordered: false });
    docs += all.length;
  }
  return docs + (await runningTotalsFromDays(db));
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
