import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Db, Filter } from 'mongodb';
import type { Connection } from 'mongoose';
import { today } from '@bahi/service-kit';
import { coll, registerPart, type OpenDue, type Row } from './projector';
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
@Injectable()
export class ReportsService {
  constructor(@InjectConnection() private readonly conn: Connection) {}

  private get db(): Db {
    return this.conn.db as unknown as Db;
  }

  async daybook(companyId: number, date: string) {
    const docs = await coll(this.db, C.txns).find({ companyId, date }).sort({ at: 1, _id: 1 }).toArray();
    // Ledger events name parties by id only: their names come from the bills that named them.
    const side = (kind: string) => (kind === 'purchase' || kind === 'purchase-return' || kind === 'payment-given' ? 'p' : 'r');
    const unnamed = docs.filter((d) => !d.party && d.partyId);
    const names = new Map<string, string>();
    if (unnamed.length) {
      const ids = [...new Set(unnamed.map((d) => `${companyId}:${side(String(d.kind))}:${d.partyId}`))];
      for (const p of await coll(this.db, C.parties).find({ _id: { $in: ids } }, { projection: { name: 1 } }).toArray()) names.set(p._id, String(p.name ?? ''));
    }
    const byKind: Record<string, number> = {};
    let cashIn = 0;
    let cashOut = 0;
    const rows = docs.map((d) => {
      const kind = String(d.kind);
      const cash = CASH[kind] ?? null;
      const paid = n(d.paid);
      byKind[kind] = (byKind[kind] ?? 0) + n(d.amount);
      if (cash === 'in') cashIn += paid;
      if (cash === 'out') cashOut += paid;
      return {
        kind,
        ref: d.ref,
        docNo: d.docNo ?? null,
        party: d.party || names.get(`${companyId}:${side(kind)}:${d.partyId}`) || '',
        partyId: d.partyId ?? null,
        amount: rs(n(d.amount)),
        cashIn: rs(cash === 'in' ? paid : 0),
        cashOut: rs(cash === 'out' ? paid : 0),
      };
    });
    return {
      date,
      rows,
      totals: { count: rows.length, byKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, rs(v)])), cashIn: rs(cashIn), cashOut: rs(cashOut) },
    };
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

  async stockSummary(companyId: number, category: string | null, brand: string | null) {
    const filter: Filter<Row> = { companyId, name: { $exists: true }, ...(category ? { category } : {}), ...(brand ? { brand } : {}) };
    const docs = await coll(this.db, C.products).find(filter).sort({ name: 1, productId: 1 }).toArray();
    const t = { products: docs.length, costValue: 0, mrpValue: 0 };
    let qty = 0;
    const rows = docs.map((d) => {
      const stock = n(d.stock);
      const costValue = Math.round(stock * n(d.cp));
      const mrpValue = Math.round(stock * n(d.mrp));
      qty += stock;
      t.costValue += costValue;
      t.mrpValue += mrpValue;
      return { productId: d.productId, name: d.name, category: d.category ?? '', brand: d.brand ?? '', stock, minStock: d.minStock ?? 0, cp: rs(n(d.cp)), mrp: rs(n(d.mrp)), costValue: rs(costValue), mrpValue: rs(mrpValue) };
    });
    return { category, brand, rows, totals: { products: t.products, stock: qty, costValue: rs(t.costValue), mrpValue: rs(t.mrpValue) } };
  }

  /**
   * Profit rows of a range: whole months from the month rows, the days at either end from the
   * day rows (a month's report reads one row per product sold, not one per product per day).
   */
  private async profitRows(companyId: number, from: string, to: string): Promise<Row[]> {
    const out: Row[] = [];
    let d = from;
    const days: [string, string][] = [];
    const months: string[] = [];
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
    if (months.length) out.push(...(await coll(this.db, C.profitMonth).find({ companyId, month: { $in: months } }).toArray()));
    for (const [a, b] of days) out.push(...(await coll(this.db, C.profitDay).find({ companyId, date: { $gte: a, $lte: b } }).toArray()));
    return out;
  }

  async profit(companyId: number, from: string, to: string, by: 'product' | 'category' | 'month') {
    const raw = await this.profitRows(companyId, from, to);
    const groups = new Map<string, { key: string; label: string; qty: number; value: number; cost: number; costless: number }>();
    let categories: Map<number, string> | null = null;
    if (by === 'category') {
      const ids = [...new Set(raw.map((r) => n(r.productId)))];
      const prods = await coll(this.db, C.products).find({ companyId, productId: { $in: ids } }, { projection: { productId: 1, category: 1 } }).toArray();
      categories = new Map(prods.map((p) => [n(p.productId), String(p.category ?? '')]));
    }
    for (const r of raw) {
      const month = String(r.month ?? String(r.date ?? '').slice(0, 7));
      const key = by === 'product' ? String(r.productId) : by === 'month' ? month : categories!.get(n(r.productId)) || '(none)';
      const label = by === 'product' ? String(r.name ?? '') : key;
      const g = groups.get(key) ?? { key, label, qty: 0, value: 0, cost: 0, costless: 0 };
      g.qty += n(r.qty);
      g.value += n(r.value);
      g.cost += n(r.cost);
      g.costless += n(r.costless);
      if (by === 'product' && r.name) g.label = String(r.name);
      groups.set(key, g);
    }
    const list = [...groups.values()].filter((g) => g.qty !== 0 || g.value !== 0 || g.cost !== 0).sort((a, b) => (by === 'month' ? a.key.localeCompare(b.key) : b.value - a.value || a.key.localeCompare(b.key)));
    const t = { value: 0, cost: 0, costless: 0, profit: 0 };
    const rows = list.map((g) => {
      // Lines sold before costs were frozen have no cost: their value is left out of the profit.
      const profit = g.value - g.costless - g.cost;
      t.value += g.value;
      t.cost += g.cost;
      t.costless += g.costless;
      t.profit += profit;
      return {
        ...(by === 'product' ? { productId: Number(g.key), name: g.label } : by === 'month' ? { month: g.key } : { category: g.key }),
        qty: Math.round(g.qty * 1000) / 1000,
        value: rs(g.value),
        cost: rs(g.cost),
        valueWithoutCost: rs(g.costless),
        profit: rs(profit),
        marginPct: g.value - g.costless > 0 ? Math.round((profit / (g.value - g.costless)) * 10000) / 100 : null,
      };
    });
    return { from, to, by, rows, totals: { value: rs(t.value), cost: rs(t.cost), valueWithoutCost: rs(t.costless), profit: rs(t.profit) } };
  }

  /**
   * Ageing: each party's balance (the sum of its ledger deltas) is made of its open dues, the
   * oldest cleared first by payments and credits; each due ages from its date.
   */
  async ageing(companyId: number, side: 'receivable' | 'payable', asOf = today()) {
    const s = side === 'receivable' ? 'r' : 'p';
    const parties = await coll(this.db, C.parties).find({ companyId, side: s, balance: { $gt: 0 } }).toArray();
    const t = { balance: 0, b0_30: 0, b31_60: 0, b61_90: 0, b90: 0 };
    const rows = parties.map((p) => {
      const b = { b0_30: 0, b31_60: 0, b61_90: 0, b90: 0 };
      const open = (p.open as OpenDue[] | undefined) ?? [];
      let left = n(p.balance);
      // Newest first: the balance is the newest open dues (an advance has already cleared the oldest).
      for (let i = open.length - 1; i >= 0 && left > 0; i--) {
        const part = Math.min(left, open[i]!.amount);
        left -= part;
        const age = daysBetween(open[i]!.date, asOf);
        b[age <= 30 ? 'b0_30' : age <= 60 ? 'b31_60' : age <= 90 ? 'b61_90' : 'b90'] += part;
      }
      if (left > 0) b.b90 += left;
      const oldest = open[0] ?? null;
      const dueDate = oldest?.dueDate ?? null;
      t.balance += n(p.balance);
      t.b0_30 += b.b0_30;
      t.b31_60 += b.b31_60;
      t.b61_90 += b.b61_90;
      t.b90 += b.b90;
      return {
        partyId: p.partyId,
        name: p.name ?? '',
        balance: n(p.balance),
        ...b,
        oldestDue: oldest?.date ?? null,
        dueDate,
        daysOverdue: dueDate && dueDate < asOf ? daysBetween(dueDate, asOf) : 0,
        age: oldest ? daysBetween(oldest.date, asOf) : null,
      };
    });
    rows.sort((a, b) => (b.age ?? 0) - (a.age ?? 0) || b.balance - a.balance || n(a.partyId) - n(b.partyId));
    return {
      side,
      asOf,
      rows: rows.map((r) => ({ ...r, balance: rs(r.balance), b0_30: rs(r.b0_30), b31_60: rs(r.b31_60), b61_90: rs(r.b61_90), b90: rs(r.b90) })),
      totals: { parties: rows.length, balance: rs(t.balance), b0_30: rs(t.b0_30), b31_60: rs(t.b31_60), b61_90: rs(t.b61_90), b90: rs(t.b90) },
    };
  }

  async dashboard(companyId: number, now = today()) {
    const yesterday = addDays(now, -1);
    const start = addDays(now, -29);
    const days = await coll(this.db, C.daily).find({ companyId, date: { $gte: start, $lte: now } }).toArray();
    const byDate = new Map(days.map((d) => [String(d.date), d]));
    const card = (d: R | undefined) => {
      const sales = n(d?.sales) - n(d?.returns) - n(d?.cancelled);
      return { sales, collections: n(d?.collections), newDues: n(d?.newDues), cashInHand: n(d?.collections) - n(d?.paidOut) };
    };
    const today_ = card(byDate.get(now));
    const yday = card(byDate.get(yesterday));
    const cards = Object.fromEntries((['sales', 'collections', 'newDues', 'cashInHand'] as const).map((k) => [k, { today: rs(today_[k]), yesterday: rs(yday[k]) }]));
    const series = Array.from({ length: 30 }, (_, i) => {
      const date = addDays(start, i);
      const c = card(byDate.get(date));
      return { date, sales: rs(c.sales), collections: rs(c.collections) };
    });
    // Top products of the month so far (one profit row per product sold this month).
    const monthStart = `${now.slice(0, 7)}-01`;
    const profit = await this.profit(companyId, monthStart, now, 'product');
    const top = (key: 'value' | 'profit') =>
      [...profit.rows]
        .sort((a, b) => Number(b[key]) - Number(a[key]))
        .slice(0, 10)
        .map((r) => ({ productId: (r as { productId: number }).productId, name: (r as { name: string }).name, value: r.value, profit: r.profit, marginPct: r.marginPct }));
    const ageing = await this.ageing(companyId, 'receivable', now);
    const lowStock = await coll(this.db, C.products).countDocuments({ companyId, low: true });
    return {
      date: now,
      cards,
      series,
      topPeriod: { from: monthStart, to: now },
      topByValue: top('value'),
      topByMargin: top('profit'),
      receivables: { buckets: { b0_30: ageing.totals.b0_30, b31_60: ageing.totals.b31_60, b61_90: ageing.totals.b61_90, b90: ageing.totals.b90 }, total: ageing.totals.balance, mostOverdue: ageing.rows.slice(0, 5) },
      lowStock,
    };
  }
}

export { PAGE_SIZE };
