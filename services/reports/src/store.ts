import type { Connection } from 'mongoose';
import { EventStreams } from '@bahi/contracts';

/** How long applied event ids are kept (s): the streams' duplicate window, no longer. */
export const RECENT_WINDOW_S = Math.min(...Object.values(EventStreams).map((s) => s.duplicateWindowMs)) / 1000;

/**
 * The read model's collections (database `bahi_reports`). Money is integer paise, so totals
 * are $inc'd exactly; every row carries companyId and every index starts with it.
 */
export const C = {
  /**
   * The ids of events applied lately (`at`; a TTL index drops them after the streams' duplicate
   * window): a republished event (same id, a new stream sequence) counts once. Rows a rebuild
   * writes from the owners' history have no `at` until the streams' replay has caught up.
   */
  recent: 'recent_events',
  /** Per stream (`_id`: the stream's name): the last stream sequence applied, written with the fold; a redelivery at or below it is skipped. */
  checkpoints: 'checkpoints',
  /** Events that cannot be projected (malformed, or the fold refused them): `{event, subject, error, at, stream, stream_seq}`; `npm run reports:replay-dead` tries them again. */
  dead: 'dead_letters',
  /** Per company per day totals (`<c>:<date>`): the dashboard cards, the 30-day series and register totals. */
  daily: 'daily',
  /** One row per bill (`<c>:<saleId>`): sales register, returns and cancellation netted. */
  invoices: 'invoices',
  /** One row per purchase (`<c>:<purchaseId>`): purchase register, debit notes netted. */
  purchases: 'purchases',
  /** Every transaction of a day (daybook), one row per event. */
  txns: 'txns',
  /** A sale's lines with their frozen cost and what its returns took back (profit of returns and cancels). */
  saleLines: 'sale_lines',
  /** A return or cancel that arrived before its sale: applied when the sale arrives. */
  pending: 'pending_profit',
  /** Profit per product per day and per month: value, frozen cost, quantity. */
  profitDay: 'profit_day',
  profitMonth: 'profit_month',
  /** Profit per category (as the product had it when the line was projected) per day. */
  profitCat: 'profit_cat',
  profitCatMonth: 'profit_cat_month',
  /**
   * Profit per product as running totals: one document per company, bucket of products and date
   * holding every product's totals from the first sale through that date (`p.<productId>`), so
   * any range is two documents per bucket (the end's less the day before the start).
   */
  profitCum: 'profit_cum',
  /** Per company: the stock summary's totals (products, stock, values at cost and MRP). */
  stockTotals: 'stock_totals',
  /** Per company, side and date: what is still open of the dues raised that day (ageing totals). */
  openDues: 'open_dues',
  /** Products: name, category, brand, cp, MRP, min stock (latest change) and stock (sum of movements). */
  products: 'products',
  /** Each customer's (r) and distributor's (p) balance and open dues, oldest first (ageing). */
  parties: 'parties',
  /** Every movement of money by mode (`cash`, `bank` signed paise): ledger entries and expenses; the cash book and the day book's payments. */
  cashMoves: 'cash_moves',
  /** Per document's ledger source (`<c>:<src>`): its money netted by mode (`m_<mode>`, `cash`, `bank`), so a day book page reads its rows' money by id. */
  srcMoney: 'src_money',
  /** Per company: the books' opening balances (cash, bank, date; the latest version). */
  books: 'books',
  /** Per expense (`<c>:<expenseId>`): its latest version as last applied (what it counts for). */
  expenses: 'expenses',
} as const;

/** The indexes the reports' queries use (created at start; idempotent). */
export async function ensureIndexes(conn: Pick<Connection, 'db'>): Promise<void> {
  const db = conn.db!;
  await Promise.all([
    db.collection(C.daily).createIndex({ companyId: 1, date: 1 }),
    db.collection(C.recent).createIndex({ at: 1 }, { expireAfterSeconds: RECENT_WINDOW_S }),
    db.collection(C.dead).createIndex({ companyId: 1, at: -1 }),
    db.collection(C.invoices).createIndex({ companyId: 1, date: 1, saleId: 1 }),
    db.collection(C.invoices).createIndex({ companyId: 1, customerId: 1, date: 1, saleId: 1 }),
    db.collection(C.purchases).createIndex({ companyId: 1, date: 1, purchaseId: 1 }),
    db.collection(C.purchases).createIndex({ companyId: 1, distributorId: 1, date: 1, purchaseId: 1 }),
    // A day book page walks the day's transactions in order (at, then id) and stops after the page.
    db.collection(C.txns).createIndex({ companyId: 1, date: 1, at: 1, _id: 1 }),
    db.collection(C.pending).createIndex({ companyId: 1, saleId: 1 }),
    db.collection(C.profitDay).createIndex({ companyId: 1, date: 1 }),
    // The month's top products, ties by product: the sort is the index's order.
    db.collection(C.profitMonth).createIndex({ companyId: 1, month: 1, value: -1, productId: 1 }),
    db.collection(C.profitMonth).createIndex({ companyId: 1, month: 1, profit: -1, productId: 1 }),
    db.collection(C.profitCat).createIndex({ companyId: 1, date: 1 }),
    db.collection(C.profitCatMonth).createIndex({ companyId: 1, month: 1 }),
    db.collection(C.profitDay).createIndex({ companyId: 1, productId: 1 }),
    db.collection(C.profitCum).createIndex({ companyId: 1, bucket: 1, date: 1 }),
    db.collection(C.profitCum).createIndex({ companyId: 1, date: 1 }),
    db.collection(C.products).createIndex({ companyId: 1, name: 1, productId: 1 }),
    db.collection(C.openDues).createIndex({ companyId: 1, side: 1, date: 1 }),
    db.collection(C.products).createIndex({ companyId: 1, category: 1, brand: 1 }),
    db.collection(C.products).createIndex({ companyId: 1, low: 1 }),
    db.collection(C.parties).createIndex({ companyId: 1, side: 1, oldestDue: 1, partyId: 1 }),
    // The cash book walks a range in order; the day book finds a page's money by its source.
    db.collection(C.cashMoves).createIndex({ companyId: 1, date: 1, at: 1, _id: 1 }),
    db.collection(C.cashMoves).createIndex({ companyId: 1, src: 1 }),
  ]);
  // Their three-key forerunners (the tie order was sorted in the service): not needed any more.
  const old = ['companyId_1_month_1_value_-1', 'companyId_1_month_1_profit_-1'];
  const held = (await db.collection(C.profitMonth).indexes()).map((i) => i.name);
  for (const name of old) if (held.includes(name)) await db.collection(C.profitMonth).dropIndex(name);
  await daybookTotalsFromRows(conn);
}

/** Marks a read model whose day rows carry the day book's totals per kind (absent: made from the transactions once). */
const DAYBOOK_ID = 'daybook_totals';

/**
 * A read model kept before the day rows carried the day book's totals (`dbN_<kind>`,
 * `dbA_<kind>`): counted once from the transactions, at start before any event is applied.
 */
export async function daybookTotalsFromRows(conn: Pick<Connection, 'db'>): Promise<number> {
  const db = conn.db!;
  const meta = db.collection<{ _id: string; at?: Date }>('meta');
  if (await meta.findOne({ _id: DAYBOOK_ID })) return 0;
  const days = new Map<string, { companyId: number; date: string; set: Record<string, number> }>();
  for await (const t of db.collection(C.txns).find({}, { projection: { companyId: 1, date: 1, kind: 1, amount: 1 } })) {
    const id = `${t.companyId}:${t.date}`;
    const d = days.get(id) ?? { companyId: Number(t.companyId), date: String(t.date), set: {} };
    d.set[`dbN_${t.kind}`] = (d.set[`dbN_${t.kind}`] ?? 0) + 1;
    d.set[`dbA_${t.kind}`] = (d.set[`dbA_${t.kind}`] ?? 0) + Number(t.amount ?? 0);
    days.set(id, d);
  }
  const ops = [...days].map(([_id, d]) => ({ updateOne: { filter: { _id }, update: { $set: d.set, $setOnInsert: { companyId: d.companyId, date: d.date } }, upsert: true } }));
  for (let i = 0; i < ops.length; i += 1000) await db.collection<{ _id: string }>(C.daily).bulkWrite(ops.slice(i, i + 1000), { ordered: false });
  await meta.updateOne({ _id: DAYBOOK_ID }, { $set: { at: new Date() } }, { upsert: true });
  return ops.length;
}

/** Drops every read-model collection (a rebuild from zero). */
export async function wipe(conn: Connection): Promise<void> {
  const db = conn.db!;
  const names = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of Object.values(C)) if (names.has(name)) await db.collection(name).deleteMany({});
}
