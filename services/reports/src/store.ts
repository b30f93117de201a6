import type { Connection } from 'mongoose';

/**
 * The read model's collections (database `bahi_reports`). Money is integer paise, so totals
 * are $inc'd exactly; every row carries companyId and every index starts with it.
 */
export const C = {
  /** One row per applied event id: written in the projection's own transaction, so a redelivery counts once. */
  seen: 'seen_events',
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
} as const;

/** The indexes the reports' queries use (created at start; idempotent). */
export async function ensureIndexes(conn: Connection): Promise<void> {
  const db = conn.db!;
  await Promise.all([
    db.collection(C.daily).createIndex({ companyId: 1, date: 1 }),
    db.collection(C.invoices).createIndex({ companyId: 1, date: 1, saleId: 1 }),
    db.collection(C.invoices).createIndex({ companyId: 1, customerId: 1, date: 1, saleId: 1 }),
    db.collection(C.purchases).createIndex({ companyId: 1, date: 1, purchaseId: 1 }),
    db.collection(C.purchases).createIndex({ companyId: 1, distributorId: 1, date: 1, purchaseId: 1 }),
    db.collection(C.txns).createIndex({ companyId: 1, date: 1, at: 1 }),
    db.collection(C.pending).createIndex({ companyId: 1, saleId: 1 }),
    db.collection(C.profitDay).createIndex({ companyId: 1, date: 1 }),
    db.collection(C.profitMonth).createIndex({ companyId: 1, month: 1, value: -1 }),
    db.collection(C.profitMonth).createIndex({ companyId: 1, month: 1, profit: -1 }),
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
  ]);
}

/** Drops every read-model collection (a rebuild from zero). */
export async function wipe(conn: Connection): Promise<void> {
  const db = conn.db!;
  const names = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
  for (const name of Object.values(C)) if (names.has(name)) await db.collection(name).deleteMany({});
}
