import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Db, Filter } from 'mongodb';
import type { Connection } from 'mongoose';
import { PAY_MODES } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { coll, CUM_ANCHOR, registerPart, type CumEntry, type OpenDue, type Row } from './projector';
import { addDays, daysBetween, PAGE_SIZE, rs } from './params';
import { C } from './store';

type R = Record<string, unknown>;
const n = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** What a daybook row of each kind moves in cash: in (sale paid, payment received, debit note refund) or out. */
const CASH: Record<string, 'in' | 'out' | null> = {
  sale: 'in',
  'payment-received': 'in',
  'purchase-return': 'in',
  purchase: 'out',
  'payment-given': 'out',
  'sale-return': 'out',
  'sale-cancel': null,
  expense: 'out',
};

export interface Paged {
  page: number;
  /** null: every row (exports). */
  pageSize: number | null;
}

/**
 * The reports, read from the projected collections. Sums are in paise (exact) and written as
 * rupee strings; each report's totals are the sums of all its rows (over every page).
 */
/** Decoded running-totals documents kept (by id, with their stamp): a few ranges' worth at 20,000 products. */
const CUM_CACHE_DOCS = 200;

@Injectable()
export class ReportsService {
  /** Running-totals documents as last read, by id: reused while their stamp is unchanged (any write changes it). */
  private readonly cumCache = new Map<string, { stamp: string; p: Record<string, CumEntry> }>();

  constructor(@InjectConnection() private readonly conn: Connection) {}

  private get db(): Db {
    return this.conn.db as unknown as Db;
  }

  /**
   * The day book: the day's transactions in the order they were made, 100 a page (every row for
   * an export); the totals of the whole day from its day row (kept as each transaction is
   * projected), so no page reads the day's other rows.
   */
  async daybook(companyId: number, date: string, paged: Paged = { page: 0, pageSize: null }) {
    let q = coll(this.db, C.txns).find({ companyId, date }).sort({ at: 1, _id: 1 });
    if (paged.pageSize) q = q.skip(paged.page * paged.pageSize).limit(paged.pageSize);
    const [docs, day] = await Promise.all([q.toArray(), coll(this.db, C.daily).findOne({ _id: `${companyId}:${date}` })]);
    // Ledger events name parties by id only: their names come from the bills that named them.
    const side = (kind: string) => (kind === 'purchase' || kind === 'purchase-return' || kind === 'payment-given' ? 'p' : 'r');
    const unnamed = docs.filter((d) => !d.party && d.partyId);
    const names = new Map<string, string>();
    if (unnamed.length) {
      const ids = [...new Set(unnamed.map((d) => `${companyId}:${side(String(d.kind))}:${d.partyId}`))];
      for (const p of await coll(this.db, C.parties).find({ _id: { $in: ids } }, { projection: { name: 1 } }).toArray()) names.set(p._id, String(p.name ?? ''));
    }
    const money = await this.movesOf(companyId, docs.map((d) => d.src).filter((x): x is string => typeof x === 'string'));
    const rows = docs.map((d) => {
      const kind = String(d.kind);
      const m = money.get(String(d.src)) ?? { cash: 0, bank: 0, payments: [] };
      return {
        kind,
        ref: d.ref,
        docNo: d.docNo ?? null,
        party: d.party || names.get(`${companyId}:${side(kind)}:${d.partyId}`) || '',
        partyId: d.partyId ?? null,
        amount: rs(n(d.amount)),
        // What the row moved by mode (the ledger's entries of its document): cash, and every other mode as bank.
        cashIn: rs(Math.max(m.cash, 0)),
        cashOut: rs(Math.max(-m.cash, 0)),
        bankIn: rs(Math.max(m.bank, 0)),
        bankOut: rs(Math.max(-m.bank, 0)),
        payments: m.payments,
        ...(kind === 'expense' ? { note: String(d.note ?? '') } : {}),
      };
    });
    // Per kind: how many and their amount (`dbN_<kind>`, `dbA_<kind>`); cash in and out are the
    // day's collections and paid out, which the same transactions make.
    let count = 0;
    const byKind: Record<string, string> = {};
    for (const kind of Object.keys(CASH)) {
      const k = n(day?.[`dbN_${kind}`]);
      if (!k) continue;
      count += k;
      byKind[kind] = rs(n(day?.[`dbA_${kind}`]));
    }
    return {
      date,
      page: paged.page,
      pageSize: paged.pageSize,
      rows,
      totals: { count, byKind, cashIn: rs(n(day?.cIn)), cashOut: rs(n(day?.cOut)), bankIn: rs(n(day?.bIn)), bankOut: rs(n(day?.bOut)) },
    };
  }

  /** The money moved by documents (`sale:12`...), netted by mode: signed cash and bank paise and the tenders (in when above 0), read by id. */
  private async movesOf(companyId: number, srcs: string[]) {
    const out = new Map<string, { cash: number; bank: number; payments: { mode: string; amount: string }[] }>();
    const ids = [...new Set(srcs)].map((src) => `${companyId}:${src}`);
    for (let i = 0; i < ids.length; i += 1000) {
      for (const m of await coll(this.db, C.srcMoney).find({ _id: { $in: ids.slice(i, i + 1000) } }).toArray()) {
        out.set(String(m.src), {
          cash: n(m.cash),
          bank: n(m.bank),
          // Amounts unsigned, in the modes' order; the row's in/out says which way.
          payments: PAY_MODES.filter((mode) => n(m[`m_${mode}`]) !== 0).map((mode) => ({ mode, amount: rs(Math.abs(n(m[`m_${mode}`]))) })),
        });
      }
    }
    return out;
  }

  /** The books' opening (cash, bank, date; none: both 0 from the first day). */
  private async openingOf(companyId: number): Promise<{ date: string; cash: number; bank: number; set: boolean }> {
    const b = await coll(this.db, C.books).findOne({ _id: String(companyId) });
    return b ? { date: String(b.date), cash: n(b.cash), bank: n(b.bank), set: true } : { date: '0000-00-00', cash: 0, bank: 0, set: false };
  }

  /** Net cash and bank moved (paise) on the days from..to (inclusive), from the day rows. */
  private async netBetween(companyId: number, from: string, to: string): Promise<{ cash: number; bank: number }> {
    if (from > to) return { cash: 0, bank: 0 };
    // The day rows' ids are `<company>:<date>`: one range of the _id index.
    const days = await coll(this.db, C.daily).find({ _id: { $gte: `${companyId}:${from}`, $lte: `${companyId}:${to}` } }, { projection: { cIn: 1, cOut: 1, bIn: 1, bOut: 1 } }).toArray();
    let cash = 0;
    let bank = 0;
    for (const d of days) {
      cash += n(d.cIn) - n(d.cOut);
      bank += n(d.bIn) - n(d.bOut);
    }
    return { cash, bank };
  }

  /** Cash in hand and the bank balance at the end of `date`: the opening plus every movement from the opening date through it. */
  async balanceAt(companyId: number, date: string, open?: { date: string; cash: number; bank: number }) {
    const o = open ?? (await this.openingOf(companyId));
    if (date < o.date) return { cash: 0, bank: 0 };
    const net = await this.netBetween(companyId, o.date, date);
    return { cash: o.cash + net.cash, bank: o.bank + net.bank };
  }

  /**
   * The cash (or bank) book: every movement of the mode from..to in the order made, 100 a page,
   * each with the running balance; the balance before `from` (the opening when the range starts
   * on or before the opening date: nothing before it counts) and the range's in, out and closing.
   */
  async cashbook(companyId: number, from: string, to: string, mode: 'cash' | 'bank', paged: Paged = { page: 0, pageSize: null }) {
    const o = await this.openingOf(companyId);
    const start = from > o.date ? from : o.date;
    const opening = start > to ? 0 : (await this.balanceAt(companyId, addDays(start, -1), o))[mode] + (start === o.date ? o[mode] : 0);
    const filter: Filter<Row> = { companyId, date: { $gte: start, $lte: to }, [mode]: { $ne: 0 } };
    const moves = coll(this.db, C.cashMoves);
    let before = opening;
    if (paged.pageSize && paged.page > 0) {
      const [agg] = await moves.aggregate<{ sum: number }>([{ $match: filter }, { $sort: { date: 1, at: 1, _id: 1 } }, { $limit: paged.page * paged.pageSize }, { $group: { _id: null, sum: { $sum: `$${mode}` } } }]).toArray();
      before += agg?.sum ?? 0;
    }
    let q = moves.find(filter).sort({ date: 1, at: 1, _id: 1 });
    if (paged.pageSize) q = q.skip(paged.page * paged.pageSize).limit(paged.pageSize);
    const [docs, range] = await Promise.all([q.toArray(), start > to ? Promise.resolve(null) : coll(this.db, C.daily).find({ _id: { $gte: `${companyId}:${start}`, $lte: `${companyId}:${to}` } }, { projection: { cIn: 1, cOut: 1, bIn: 1, bOut: 1 } }).toArray()]);
    const names = new Map<string, string>();
    const ids = [...new Set(docs.filter((d) => d.side && d.partyId !== null && d.partyId !== undefined).map((d) => `${companyId}:${d.side}:${d.partyId}`))];
    if (ids.length) for (const p of await coll(this.db, C.parties).find({ _id: { $in: ids } }, { projection: { name: 1 } }).toArray()) names.set(p._id, String(p.name ?? ''));
    // A cancellation's ledger source is its own id: the row names the bill, as the day book does.
    const cancels = docs.filter((d) => String(d.src).startsWith('sale-cancel:'));
    const bills = new Map<string, number>();
    if (cancels.length) {
      const want = new Set(cancels.map((d) => String(d.src)));
      for (const date of new Set(cancels.map((d) => String(d.date)))) {
        for (const t of await coll(this.db, C.txns).find({ companyId, date, kind: 'sale-cancel' }, { projection: { src: 1, ref: 1 } }).toArray()) if (want.has(String(t.src))) bills.set(String(t.src), Number(t.ref));
      }
    }
    let balance = before;
    const rows = docs.map((d) => {
      const v = n(d[mode]);
      balance += v;
      const [srcKind, srcId] = String(d.src ?? ':').split(':');
      return {
        date: String(d.date),
        at: String(d.at ?? ''),
        kind: String(d.kind),
        source: srcKind,
        ref: bills.get(String(d.src)) ?? (Number(srcId) || null),
        docNo: d.docNo ?? null,
        party: d.party ?? names.get(`${companyId}:${d.side}:${d.partyId}`) ?? '',
        payments: ((d.payments as { mode: string; amount: number }[]) ?? []).filter((p) => (mode === 'cash' ? p.mode === 'cash' : p.mode !== 'cash')).map((p) => ({ mode: p.mode, amount: rs(p.amount) })),
        in: rs(Math.max(v, 0)),
        out: rs(Math.max(-v, 0)),
        balance: rs(balance),
      };
    });
    const key = mode === 'cash' ? ['cIn', 'cOut'] : ['bIn', 'bOut'];
    const inSum = (range ?? []).reduce((t, d) => t + n(d[key[0]!]), 0);
    const outSum = (range ?? []).reduce((t, d) => t + n(d[key[1]!]), 0);
    return {
      from,
      to,
      mode,
      openingDate: o.set ? o.date : null,
      page: paged.page,
      pageSize: paged.pageSize,
      rows,
      totals: { opening: rs(opening), in: rs(inSum), out: rs(outSum), closing: rs(opening + inSum - outSum) },
    };
  }

  /**
   * Profit and loss by month: sales (what lines with a frozen cost sold for, before tax and
   * shipping, net of the summary discount, less returns and cancels), their cost, gross profit,
   * expenses (their latest versions, by date) and net profit, with totals.
   */
  async pnl(companyId: number, from: string, to: string) {
    const days = await coll(this.db, C.daily).find({ _id: { $gte: `${companyId}:${from}`, $lte: `${companyId}:${to}` } }, { projection: { date: 1, pValue: 1, pCost: 1, pCostless: 1, expenses: 1 } }).toArray();
    const months = new Map<string, { sales: number; cost: number; costless: number; expenses: number }>();
    for (let m = from.slice(0, 7); m <= to.slice(0, 7); m = addDays(`${m}-28`, 4).slice(0, 7)) months.set(m, { sales: 0, cost: 0, costless: 0, expenses: 0 });
    for (const d of days) {
      const m = months.get(String(d.date).slice(0, 7))!;
      m.sales += n(d.pValue) - n(d.pCostless);
      m.costless += n(d.pCostless);
      m.cost += n(d.pCost);
      m.expenses += n(d.expenses);
    }
    const line = (x: { sales: number; cost: number; costless: number; expenses: number }) => ({
      sales: rs(x.sales),
      cost: rs(x.cost),
      gross_profit: rs(x.sales - x.cost),
      expenses: rs(x.expenses),
      net_profit: rs(x.sales - x.cost - x.expenses),
      valueWithoutCost: rs(x.costless),
    });
    const total = { sales: 0, cost: 0, costless: 0, expenses: 0 };
    for (const x of months.values()) for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += x[k];
    return { from, to, rows: [...months].map(([month, x]) => ({ month, ...line(x) })), totals: line(total) };
  }

  async salesRegister(companyId: number, from: string, to: string, clientId: number | null, paged: Paged) {
    const filter: Filter<Row> = { companyId, date: { $gte: from, $lte: to }, sold: true, ...(clientId ? { customerId: clientId } : {}) };
    // One customer's bills are few: sum them; the whole register's totals are kept per day.
    const parts = clientId
      ? (await coll(this.db, C.invoices).find(filter, { projection: { amount: 1, returned: 1, cancelled: 1, paid: 1, sold: 1 } }).toArray()).map((d) => registerPart(d, 'reg')!)
      : await coll(this.db, C.daily).find({ companyId, date: { $gte: from, $lte: to } }).toArray();
    const t = { count: 0, amount: 0, returned: 0, cancelled: 0, net: 0, paid: 0 };
    for (const d of parts) {
      t.count += n(d.regCount);
      t.amount += n(d.regAmount);
      t.returned += n(d.regReturned);
      t.cancelled += n(d.regCancelled);
      t.net += n(d.regNet);
      t.paid += n(d.regPaid);
    }
    let q = coll(this.db, C.invoices).find(filter).sort({ date: 1, saleId: 1 });
    if (paged.pageSize) q = q.skip(paged.page * paged.pageSize).limit(paged.pageSize);
    const rows = (await q.toArray()).map((d) => {
      const amount = n(d.amount);
      const returned = n(d.returned);
      return {
        saleId: d.saleId,
        date: d.date,
        invoice_no: d.docNo ?? null,
        clientId: d.customerId ?? null,
        customer: d.customerName ?? '',
        amount: rs(amount),
        returned: rs(returned),
        cancelled: d.cancelled === true,
        net: rs(d.cancelled ? 0 : amount - returned),
        paid: rs(n(d.paid)),
      };
    });
    return { from, to, clientId, page: paged.page, pageSize: paged.pageSize, rows, totals: { count: t.count, amount: rs(t.amount), returned: rs(t.returned), cancelled: rs(t.cancelled), net: rs(t.net), paid: rs(t.paid) } };
  }

  async purchaseRegister(companyId: number, from: string, to: string, distributorId: number | null, paged: Paged) {
    const filter: Filter<Row> = { companyId, date: { $gte: from, $lte: to }, bought: true, ...(distributorId ? { distributorId } : {}) };
    const parts = distributorId
      ? (await coll(this.db, C.purchases).find(filter, { projection: { amount: 1, returned: 1, paid: 1, bought: 1 } }).toArray()).map((d) => registerPart(d, 'preg')!)
      : await coll(this.db, C.daily).find({ companyId, date: { $gte: from, $lte: to } }).toArray();
    const t = { count: 0, amount: 0, returned: 0, net: 0, paid: 0 };
    for (const d of parts) {
      t.count += n(d.pregCount);
      t.amount += n(d.pregAmount);
      t.returned += n(d.pregReturned);
      t.net += n(d.pregNet);
      t.paid += n(d.pregPaid);
    }
    let q = coll(this.db, C.purchases).find(filter).sort({ date: 1, purchaseId: 1 });
    if (paged.pageSize) q = q.skip(paged.page * paged.pageSize).limit(paged.pageSize);
    const rows = (await q.toArray()).map((d) => ({
      purchaseId: d.purchaseId,
      date: d.date,
      bill_no: d.docNo ?? null,
      distributorId: d.distributorId ?? null,
      distributor: d.distributorName ?? '',
      amount: rs(n(d.amount)),
      returned: rs(n(d.returned)),
      net: rs(n(d.amount) - n(d.returned)),
      paid: rs(n(d.paid)),
    }));
    return { from, to, distributorId, page: paged.page, pageSize: paged.pageSize, rows, totals: { count: t.count, amount: rs(t.amount), returned: rs(t.returned), net: rs(t.net), paid: rs(t.paid) } };
  }

  /**
   * Stock summary, 100 products a page by name (every row for an export). Totals: the company's
   * stock totals row when unfiltered, else the sum of the category's or brand's rows.
   */
  async stockSummary(companyId: number, category: string | null, brand: string | null, paged: Paged) {
    const filtered = !!(category || brand);
    const filter: Filter<Row> = { companyId, ...(category ? { category } : {}), ...(brand ? { brand } : {}) };
    let q = coll(this.db, C.products).find(filter).sort({ name: 1, productId: 1 });
    if (paged.pageSize) q = q.skip(paged.page * paged.pageSize).limit(paged.pageSize);
    const rows = (await q.toArray()).map((d) => ({
      productId: d.productId,
      name: d.name ?? '',
      category: d.category ?? '',
      brand: d.brand ?? '',
      stock: n(d.stock),
      minStock: d.minStock ?? 0,
      cp: rs(n(d.cp)),
      mrp: rs(n(d.mrp)),
      costValue: rs(n(d.costValue)),
      mrpValue: rs(n(d.mrpValue)),
    }));
    const t = { products: 0, stock: 0, costValue: 0, mrpValue: 0 };
    const parts = filtered
      ? (await coll(this.db, C.products).find(filter, { projection: { stock: 1, costValue: 1, mrpValue: 1 } }).toArray()).map((d) => ({ products: 1, stock: d.stock, costValue: d.costValue, mrpValue: d.mrpValue }))
      : await coll(this.db, C.stockTotals).find({ _id: String(companyId) }).toArray();
    for (const d of parts) {
      t.products += n(d.products);
      t.stock += n(d.stock);
      t.costValue += n(d.costValue);
      t.mrpValue += n(d.mrpValue);
    }
    return { category, brand, page: paged.page, pageSize: paged.pageSize, rows, totals: { products: t.products, stock: Math.round(t.stock * 1000) / 1000, costValue: rs(t.costValue), mrpValue: rs(t.mrpValue) } };
  }

  /** A range cut into whole months (month rows) and runs of days at its ends (day rows). */
  private split(from: string, to: string): { months: string[]; days: [string, string][] } {
    const days: [string, string][] = [];
    const months: string[] = [];
    let d = from;
    while (d <= to) {
      const month = d.slice(0, 7);
      const monthEnd = addDays(`${addDays(`${month}-28`, 4).slice(0, 7)}-01`, -1);
      // A month up to today is whole too: sales are dated the day they are made, none later.
      if (d === `${month}-01` && (monthEnd <= to || to >= today())) {
        months.push(month);
        d = addDays(monthEnd, 1);
      } else {
        const end = monthEnd < to ? monthEnd : to;
        days.push([d, end]);
        d = addDays(end, 1);
      }
    }
    return { months, days };
  }

  private async rowsOf(companyId: number, monthColl: string, dayColl: string, from: string, to: string): Promise<Row[]> {
    const { months, days } = this.split(from, to);
    const out: Row[] = [];
    for (const month of months) out.push(...(await coll(this.db, monthColl).find({ companyId, month }).toArray()));
    for (const [a, b] of days) out.push(...(await coll(this.db, dayColl).find({ companyId, date: { $gte: a, $lte: b } }).toArray()));
    return out;
  }

  /** A month's product rows by `key` (highest first, then by product), rows skip..skip+limit: a walk of the {companyId, month, key, productId} index. */
  private async topMonthRows(companyId: number, month: string, key: 'value' | 'profit', skip: number, limit: number): Promise<Row[]> {
    return coll(this.db, C.profitMonth).find({ companyId, month }).sort({ [key]: -1, productId: 1 }).skip(skip).limit(limit).toArray();
  }

  /**
   * Each product's running totals through `date` (the latest document on or before it, per
   * bucket of products), read from the (companyId, bucket, date) index.
   */
  private async runningTotals(companyId: number, date: string): Promise<Map<number, Record<string, CumEntry>>> {
    const rows = coll(this.db, C.profitCum);
    const buckets = (await rows.find({ companyId, date: CUM_ANCHOR }, { projection: { bucket: 1 } }).toArray()).map((a) => Number(a.bucket));
    // Which document holds each bucket's totals through `date`, and its stamp: a few bytes each.
    const heads = await Promise.all(buckets.map((bucket) => rows.find({ companyId, bucket, date: { $lte: date } }, { projection: { stamp: 1 } }).sort({ date: -1 }).limit(1).next()));
    const cache = this.cumCache;
    const kept = (h: Row) => !!h.stamp && cache.get(h._id)?.stamp === h.stamp;
    const want = heads.filter((h): h is Row => !!h && !kept(h)).map((h) => h._id);
    // Only documents written since they were last read are read (and decoded) again.
    const fresh = new Map<string, { stamp: string; p: Record<string, CumEntry> }>();
    for (const d of want.length ? await rows.find({ _id: { $in: want } }).toArray() : []) fresh.set(d._id, { stamp: String(d.stamp ?? ''), p: (d.p ?? {}) as Record<string, CumEntry> });
    const out = new Map<number, Record<string, CumEntry>>();
    heads.forEach((h, i) => {
      const c = h && (fresh.get(h._id) ?? (kept(h) ? cache.get(h._id) : undefined));
      if (!h || !c) return;
      // Most recently used last, so the least recently used go first when the cache is full.
      cache.delete(h._id);
      if (c.stamp) cache.set(h._id, c);
      out.set(buckets[i]!, c.p);
    });
    for (const id of cache.keys()) {
      if (cache.size <= CUM_CACHE_DOCS) break;
      cache.delete(id);
    }
    return out;
  }

  /** Profit per product over any range: the running totals at its end less those the day before it starts. */
  private async productRange(companyId: number, from: string, to: string) {
    const [end, before] = await Promise.all([this.runningTotals(companyId, to), this.runningTotals(companyId, addDays(from, -1))]);
    const groups: { key: string; label: string; qty: number; value: number; cost: number; costless: number }[] = [];
    const none: CumEntry = {};
    // Bucket by bucket: a product's totals at the end less the same bucket's the day before the start.
    for (const [bucket, ends] of end) {
      const befores = before.get(bucket) ?? {};
      for (const key in ends) {
        const e = ends[key]!;
        const b = befores[key] ?? none;
        // Quantities may be fractional (kg): rounded as shown, so a product back to zero drops out.
        const g = { key, label: '', qty: Math.round(((e.q ?? 0) - (b.q ?? 0)) * 1000) / 1000, value: (e.v ?? 0) - (b.v ?? 0), cost: (e.c ?? 0) - (b.c ?? 0), costless: (e.l ?? 0) - (b.l ?? 0) };
        if (g.qty !== 0 || g.value !== 0 || g.cost !== 0 || g.costless !== 0) groups.push(g);
      }
    }
    // Ties by product id as a number (what a numeric localeCompare gave, without a collator per call).
    return groups.sort((a, b) => b.value - a.value || Number(a.key) - Number(b.key));
  }

  /**
   * Profit: sales value less the frozen cost, by product (100 a page, highest value first), by
   * category (the product's category now) or by month. Totals from the daily rows.
   */
  async profit(companyId: number, from: string, to: string, by: 'product' | 'category' | 'month', paged: Paged = { page: 0, pageSize: null }) {
    const daily = await coll(this.db, C.daily).find({ companyId, date: { $gte: from, $lte: to } }).toArray();
    const t = { value: 0, cost: 0, costless: 0 };
    for (const d of daily) {
      t.value += n(d.pValue);
      t.cost += n(d.pCost);
      t.costless += n(d.pCostless);
    }
    interface G {
      key: string;
      label: string;
      qty: number;
      value: number;
      cost: number;
      costless: number;
    }
    let groups: G[];
    const { months, days } = this.split(from, to);
    if (by === 'month') {
      const m = new Map<string, G>();
      for (const d of daily) {
        const key = String(d.date).slice(0, 7);
        const g = m.get(key) ?? { key, label: key, qty: 0, value: 0, cost: 0, costless: 0 };
        g.value += n(d.pValue);
        g.cost += n(d.pCost);
        g.costless += n(d.pCostless);
        m.set(key, g);
      }
      groups = [...m.values()].sort((a, b) => a.key.localeCompare(b.key));
    } else if (by === 'product' && months.length === 1 && !days.length && paged.pageSize) {
      // One whole month: its rows by value through the index, one page of them.
      const docs = await this.topMonthRows(companyId, months[0]!, 'value', paged.page * paged.pageSize, paged.pageSize);
      groups = docs.map((r) => ({ key: String(r.productId), label: String(r.name ?? ''), qty: n(r.qty), value: n(r.value), cost: n(r.cost), costless: n(r.costless) }));
      paged = { page: 0, pageSize: null };
    } else if (by === 'product') {
      groups = await this.productRange(companyId, from, to);
    } else {
      const raw = await this.rowsOf(companyId, C.profitCatMonth, C.profitCat, from, to);
      const m = new Map<string, G>();
      for (const r of raw) {
        const key = String(r.category);
        const g = m.get(key) ?? { key, label: key, qty: 0, value: 0, cost: 0, costless: 0 };
        g.qty += n(r.qty);
        g.value += n(r.value);
        g.cost += n(r.cost);
        g.costless += n(r.costless);
        m.set(key, g);
      }
      groups = [...m.values()].sort((a, b) => b.value - a.value || a.key.localeCompare(b.key, undefined, { numeric: true }));
    }
    if (by === 'product' && paged.pageSize) {
      // Names only for the page shown (the product's name now).
      groups = groups.filter((g) => g.qty !== 0 || g.value !== 0 || g.cost !== 0).slice(paged.page * paged.pageSize, (paged.page + 1) * paged.pageSize);
      paged = { page: 0, pageSize: null };
    }
    if (by === 'product' && groups.some((g) => !g.label)) {
      const names = new Map<string, string>();
      const ids = groups.map((g) => `${companyId}:${g.key}`);
      for (const p of await coll(this.db, C.products).find({ _id: { $in: ids } }, { projection: { name: 1, productId: 1 } }).toArray()) names.set(String(p.productId), String(p.name ?? ''));
      for (const g of groups) g.label ||= names.get(g.key) ?? '';
    }
    groups = groups.filter((g) => g.qty !== 0 || g.value !== 0 || g.cost !== 0);
    if (paged.pageSize) groups = groups.slice(paged.page * paged.pageSize, (paged.page + 1) * paged.pageSize);
    const rows = groups.map((g) => {
      // Lines sold before costs were frozen have no cost: their value is left out of the profit.
      const profit = g.value - g.costless - g.cost;
      return {
        ...(by === 'product' ? { productId: Number(g.key), name: g.label } : by === 'month' ? { month: g.key } : { category: g.key }),
        ...(by === 'month' ? {} : { qty: Math.round(g.qty * 1000) / 1000 }),
        value: rs(g.value),
        cost: rs(g.cost),
        valueWithoutCost: rs(g.costless),
        profit: rs(profit),
        marginPct: g.value - g.costless > 0 ? Math.round((profit / (g.value - g.costless)) * 10000) / 100 : null,
      };
    });
    return { from, to, by, rows, totals: { value: rs(t.value), cost: rs(t.cost), valueWithoutCost: rs(t.costless), profit: rs(t.value - t.costless - t.cost) } };
  }

  /**
   * Ageing: each party's balance (the sum of its ledger deltas) is made of its open dues, the
   * oldest cleared first by payments and credits; each due ages from its date. Rows: the parties
   * with the oldest open due first, 100 a page; totals from the open dues per date.
   */
  async ageing(companyId: number, side: 'receivable' | 'payable', asOf = today(), paged: Paged = { page: 0, pageSize: null }) {
    const s = side === 'receivable' ? 'r' : 'p';
    const bucket = (date: string) => {
      const age = daysBetween(date, asOf);
      return age <= 30 ? 'b0_30' : age <= 60 ? 'b31_60' : age <= 90 ? 'b61_90' : 'b90';
    };
    const t = { parties: 0, balance: 0, b0_30: 0, b31_60: 0, b61_90: 0, b90: 0 };
    for (const d of await coll(this.db, C.openDues).find({ companyId, side: s }).toArray()) {
      t[bucket(String(d.date))] += n(d.amount);
      t.balance += n(d.amount);
    }
    const filter: Filter<Row> = { companyId, side: s, oldestDue: { $gt: '' } };
    t.parties = await coll(this.db, C.parties).countDocuments(filter);
    let q = coll(this.db, C.parties).find(filter).sort({ oldestDue: 1, partyId: 1 });
    if (paged.pageSize) q = q.skip(paged.page * paged.pageSize).limit(paged.pageSize);
    const rows = (await q.toArray()).map((p) => {
      const b = { b0_30: 0, b31_60: 0, b61_90: 0, b90: 0 };
      const open = (p.open as OpenDue[] | undefined) ?? [];
      let balance = 0;
      for (const d of open) {
        b[bucket(d.date)] += d.amount;
        balance += d.amount;
      }
      const dueDate = open[0]?.dueDate ?? null;
      return {
        partyId: p.partyId,
        name: p.name ?? '',
        balance: rs(balance),
        b0_30: rs(b.b0_30),
        b31_60: rs(b.b31_60),
        b61_90: rs(b.b61_90),
        b90: rs(b.b90),
        oldestDue: open[0]?.date ?? null,
        dueDate,
        daysOverdue: dueDate && dueDate < asOf ? daysBetween(dueDate, asOf) : 0,
      };
    });
    return {
      side,
      asOf,
      page: paged.page,
      pageSize: paged.pageSize,
      rows,
      totals: { parties: t.parties, balance: rs(t.balance), b0_30: rs(t.b0_30), b31_60: rs(t.b31_60), b61_90: rs(t.b61_90), b90: rs(t.b90) },
    };
  }

  async dashboard(companyId: number, now = today()) {
    const yesterday = addDays(now, -1);
    const start = addDays(now, -29);
    const days = await coll(this.db, C.daily).find({ companyId, date: { $gte: start, $lte: now } }).toArray();
    const byDate = new Map(days.map((d) => [String(d.date), d]));
    const card = (d: R | undefined) => {
      const sales = n(d?.sales) - n(d?.returns) - n(d?.cancelled);
      return { sales, collections: n(d?.collections), newDues: n(d?.newDues) };
    };
    const today_ = card(byDate.get(now));
    const yday = card(byDate.get(yesterday));
    const cards: Record<string, { today: string; yesterday: string }> = Object.fromEntries((['sales', 'collections', 'newDues'] as const).map((k) => [k, { today: rs(today_[k]), yesterday: rs(yday[k]) }]));
    // Cash in hand and the bank balance at each day's end (from the books' opening).
    // One read of the day rows since the opening: yesterday's close is today's less today's movements.
    const open = await this.openingOf(companyId);
    const endToday = await this.balanceAt(companyId, now, open);
    const t = byDate.get(now);
    const endYday =
      yesterday < open.date ? { cash: 0, bank: 0 } : { cash: endToday.cash - (n(t?.cIn) - n(t?.cOut)), bank: endToday.bank - (n(t?.bIn) - n(t?.bOut)) };
    cards.cashInHand = { today: rs(endToday.cash), yesterday: rs(endYday.cash) };
    cards.bankBalance = { today: rs(endToday.bank), yesterday: rs(endYday.bank) };
    const series = Array.from({ length: 30 }, (_, i) => {
      const date = addDays(start, i);
      const c = card(byDate.get(date));
      return { date, sales: rs(c.sales), collections: rs(c.collections) };
    });
    // Top products of the month so far, through the month rows' value and profit indexes.
    const monthStart = `${now.slice(0, 7)}-01`;
    const top = async (key: 'value' | 'profit') =>
      (await this.topMonthRows(companyId, now.slice(0, 7), key, 0, 10)).map((r) => {
        const profit = n(r.value) - n(r.cost) - n(r.costless);
        return { productId: r.productId, name: r.name ?? '', value: rs(n(r.value)), profit: rs(profit), marginPct: n(r.value) - n(r.costless) > 0 ? Math.round((profit / (n(r.value) - n(r.costless))) * 10000) / 100 : null };
      });
    // Independent reads, asked together: the database works on one while the service decodes another.
    const [ageing, lowStock, topByValue, topByMargin] = await Promise.all([
      this.ageing(companyId, 'receivable', now, { page: 0, pageSize: 5 }),
      // Only products with a minimum (rows projected before the rule may still say low with min 0).
      coll(this.db, C.products).countDocuments({ companyId, low: true, minStock: { $gt: 0 } }),
      top('value'),
      top('profit'),
    ]);
    return {
      date: now,
      cards,
      series,
      topPeriod: { from: monthStart, to: now },
      topByValue,
      topByMargin,
      receivables: { buckets: { b0_30: ageing.totals.b0_30, b31_60: ageing.totals.b31_60, b61_90: ageing.totals.b61_90, b90: ageing.totals.b90 }, total: ageing.totals.balance, mostOverdue: ageing.rows },
      lowStock,
    };
  }
}

export { PAGE_SIZE };
