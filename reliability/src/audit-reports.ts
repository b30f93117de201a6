// The reports' read model against the owners' data: after a load run (and any kills of reports or
// NATS), every total the reports show must be what sales, inventory and ledger hold - no event
// lost, none counted twice. Read only; the load test calls it once the consumers caught up.
import { MongoClient, type Db } from 'mongodb';

export interface ReportsAuditOptions {
  /** Database names; default bahi_<service>. */
  db?: { inventory?: string; ledger?: string; sales?: string; reports?: string };
  companies?: number[];
}

export interface ReportsAudit {
  /** What was compared, per company (counts and sums in paise / thousandths). */
  compared: number;
  /** Each disagreement as a sentence naming the company and the figure. */
  mismatches: string[];
}

type Doc = Record<string, unknown>;

/** Decimal string or number -> integer in 1/scale units (exact for the 2-3 decimals stored). */
function units(v: unknown, scale: number): bigint {
  const s = String(v ?? '0').trim();
  const neg = s.startsWith('-');
  const [i = '0', f = ''] = s.replace(/^[-+]/, '').split('.');
  const digits = String(scale).length - 1;
  const n = BigInt(i || '0') * BigInt(scale) + BigInt(((f || '') + '0'.repeat(digits)).slice(0, digits) || '0');
  return neg ? -n : n;
}
const paise = (v: unknown) => units(v, 100);
const rupees = (p: bigint) => `${p < 0n ? '-' : ''}${(p < 0n ? -p : p) / 100n}.${String((p < 0n ? -p : p) % 100n).padStart(2, '0')}`;
/** The read model keeps integer paise; a number there is exact. */
const stored = (v: unknown) => BigInt(Math.round(Number(v ?? 0)));

export async function auditReports(mongoUri: string, opts: ReportsAuditOptions = {}): Promise<ReportsAudit> {
  const client = new MongoClient(mongoUri, { serverSelectionTimeoutMS: 30_000 });
  await client.connect();
  try {
    return await compare(
      client.db(opts.db?.inventory ?? 'bahi_inventory'),
      client.db(opts.db?.ledger ?? 'bahi_ledger'),
      client.db(opts.db?.sales ?? 'bahi_sales'),
      client.db(opts.db?.reports ?? 'bahi_reports'),
      opts.companies,
    );
  } finally {
    await client.close();
  }
}

async function compare(inv: Db, led: Db, sal: Db, rep: Db, only?: number[]): Promise<ReportsAudit> {
  const scope = only ? { companyId: { $in: only } } : {};
  const all = (db: Db, name: string, filter: Doc = {}) => db.collection(name).find({ ...scope, ...filter }).toArray() as Promise<Doc[]>;
  const [sales, creditNotes, cancels, purchases, debitNotes, entries, products, invoices, buys, parties, stock] = await Promise.all([
    all(sal, 'sales', { status: 'complete' }),
    all(sal, 'credit_notes', { status: 'complete' }),
    all(sal, 'sale_cancels', { status: 'complete' }),
    all(inv, 'purchases', { status: 'complete' }),
    all(inv, 'debit_notes', { status: 'complete' }),
    all(led, 'entries'),
    all(inv, 'products'),
    all(rep, 'invoices'),
    all(rep, 'purchases'),
    all(rep, 'parties'),
    all(rep, 'products'),
  ]);
  const mismatches: string[] = [];
  let compared = 0;
  const sums = new Map<string, bigint>();
  const add = (key: string, v: bigint) => sums.set(key, (sums.get(key) ?? 0n) + v);
  const companies = new Set<number>();
  const c = (d: Doc) => {
    companies.add(Number(d.companyId));
    return Number(d.companyId);
  };

  for (const s of sales) {
    add(`${c(s)}:sales count owner`, 1n);
    add(`${c(s)}:sales amount owner`, paise(s.amount));
    add(`${c(s)}:sales paid owner`, paise(s.paid));
  }
  for (const n of creditNotes) add(`${c(n)}:credit notes owner`, paise(n.amount));
  for (const x of cancels) add(`${c(x)}:cancelled bills owner`, 1n);
  for (const i of invoices) {
    if (i.sold) {
      add(`${c(i)}:sales count reports`, 1n);
      add(`${c(i)}:sales amount reports`, stored(i.amount));
      add(`${c(i)}:sales paid reports`, stored(i.paid));
    }
    add(`${c(i)}:credit notes reports`, stored(i.returned));
    if (i.cancelled) add(`${c(i)}:cancelled bills reports`, 1n);
  }
  for (const p of purchases) {
    add(`${c(p)}:purchases count owner`, 1n);
    add(`${c(p)}:purchases amount owner`, paise(p.total));
  }
  for (const n of debitNotes) add(`${c(n)}:debit notes owner`, paise(n.amount));
  for (const b of buys) {
    if (b.bought) {
      add(`${c(b)}:purchases count reports`, 1n);
      add(`${c(b)}:purchases amount reports`, stored(b.amount));
    }
    add(`${c(b)}:debit notes reports`, stored(b.returned));
  }
  for (const k of [...sums.keys()].filter((k) => k.endsWith(' owner') || k.endsWith(' reports'))) {
    const base = k.replace(/ (owner|reports)$/, '');
    if (!k.endsWith(' owner')) {
      if (!sums.has(`${base} owner`)) sums.set(`${base} owner`, 0n);
      continue;
    }
    compared++;
    const want = sums.get(k)!;
    const got = sums.get(`${base} reports`) ?? 0n;
    if (want !== got) {
      const [company, what] = [base.split(':')[0], base.split(':')[1]];
      const show = (v: bigint) => (/count|bills/.test(what!) ? String(v) : rupees(v));
      mismatches.push(`company ${company}: ${what} is ${show(want)} in the owner's data but ${show(got)} in the reports`);
    }
  }
  for (const k of [...sums.keys()].filter((k) => k.endsWith(' reports'))) {
    const base = k.replace(/ reports$/, '');
    if (!sums.has(`${base} owner`) && sums.get(k) !== 0n) mismatches.push(`company ${base.split(':')[0]}: ${base.split(':')[1]} is nothing in the owner's data but ${sums.get(k)} in the reports`);
  }

  // Each party's due: the sum of its ledger entries' deltas.
  const dues = new Map<string, bigint>();
  for (const e of entries) {
    const k = `${c(e)}:${e.partyKind === 'customer' ? 'r' : 'p'}:${e.partyId}`;
    dues.set(k, (dues.get(k) ?? 0n) + paise(e.delta));
  }
  const balances = new Map(parties.map((p) => [`${p.companyId}:${p.side}:${p.partyId}`, stored(p.balance)]));
  for (const k of new Set([...dues.keys(), ...balances.keys()])) {
    compared++;
    const want = dues.get(k) ?? 0n;
    const got = balances.get(k) ?? 0n;
    if (want !== got) {
      const [company, side, id] = k.split(':');
      mismatches.push(`company ${company}: ${side === 'r' ? 'customer' : 'distributor'} ${id} owes ${rupees(want)} in the ledger but ${rupees(got)} in the reports`);
    }
  }

  const extra = await booksAndTills(led, sal, rep, scope);
  compared += extra.compared;
  mismatches.push(...extra.mismatches);

  // Each product's stock (inventory keeps thousandths).
  const inReports = new Map(stock.map((p) => [`${p.companyId}:${p.productId}`, units(p.stock, 1000)]));
  for (const p of products) {
    compared++;
    const k = `${c(p)}:${p.product_id}`;
    const got = inReports.get(k) ?? 0n;
    if (BigInt(Number(p.stock_m ?? 0)) !== got) mismatches.push(`company ${p.companyId}: product ${p.product_id} has stock ${Number(p.stock_m ?? 0) / 1000} in inventory but ${Number(got) / 1000} in the reports`);
  }
  return { compared, mismatches };
}

/**
 * Money into the shop (+1) or out (-1) per ledger entry kind, as the ledger's own register figures
 * read it (services/ledger/src/register/figures.ts); a reversal undoes its source's direction.
 */
const DIRECTION: Record<string, 1 | -1 | 0> = { sale: 1, payment_received: 1, debit_note: 1, purchase: -1, payment_given: -1, credit_note: -1, cancellation: -1, opening: 0 };
const SOURCE_DIRECTION: Record<string, 1 | -1> = { sale: 1, purchase: -1, 'credit-note': -1, 'debit-note': 1, 'sale-cancel': -1 };
function direction(e: Doc): 1 | -1 | 0 {
  if (e.entryKind !== 'reversal') return DIRECTION[String(e.entryKind)] ?? 0;
  const undone = e.sourceKind === 'payment' ? (e.partyKind === 'customer' ? 1 : -1) : (SOURCE_DIRECTION[String(e.sourceKind)] ?? 0);
  return (-undone || 0) as 1 | -1 | 0;
}
/** An entry's tenders; entries from before payment modes moved their money (a payment's amount, a document's paid) in cash. */
function tenders(e: Doc): { mode: string; amount: unknown }[] {
  if (Array.isArray(e.payments)) return e.payments as { mode: string; amount: unknown }[];
  const money = e.entryKind === 'payment_received' || e.entryKind === 'payment_given' ? e.amount : e.entryKind === 'opening' ? '0' : e.paid;
  return paise(money) === 0n ? [] : [{ mode: 'cash', amount: money }];
}
const book = (mode: string) => (mode === 'cash' ? 'cash' : 'bank');
const cents = (p: bigint) => rupees(p);

/**
 * The issue-29 figures against their owners:
 *  - the cash and the bank book (`cash_moves`) per company and date against the ledger's entries
 *    (each tender in its mode, by the entry's direction) less its expenses as they now are;
 *  - the P&L's expenses per company and date (the day rows) against the ledger's expenses;
 *  - each closed register session's Z report (ledger `register_sessions.totals`) against the cash
 *    book's rows that cashier recorded in the session, plus the expenses they added while open;
 *  - profit's frozen cost per company and date (`profit_day`) against the sales' lines
 *    (cp x units) less their credit notes' and, for a cancelled bill, what it still held.
 * Each is compared only when the reports keep that figure (an older read model has no cash book).
 */
async function booksAndTills(led: Db, sal: Db, rep: Db, scope: Doc): Promise<ReportsAudit> {
  const mismatches: string[] = [];
  let compared = 0;
  const all = (db: Db, name: string, filter: Doc = {}) => db.collection(name).find({ ...scope, ...filter }).toArray() as Promise<Doc[]>;
  const names = new Set((await rep.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));

  if (names.has('cash_moves')) {
    const [entries, expenses, moves] = await Promise.all([all(led, 'entries'), all(led, 'expenses', { deleted: { $ne: true } }), all(rep, 'cash_moves')]);
    const owner = new Map<string, bigint>();
    const reports = new Map<string, bigint>();
    const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
    for (const e of entries) {
      const dir = direction(e);
      if (!dir) continue;
      for (const t of tenders(e)) add(owner, `${e.companyId}|${e.date}|${book(t.mode)}`, BigInt(dir) * paise(t.amount));
    }
    for (const x of expenses) for (const t of (x.payments as { mode: string; amount: unknown }[]) ?? []) add(owner, `${x.companyId}|${x.date}|${book(t.mode)}`, -paise(t.amount));
    for (const m of moves) {
      add(reports, `${m.companyId}|${m.date}|cash`, stored(m.cash));
      add(reports, `${m.companyId}|${m.date}|bank`, stored(m.bank));
    }
    for (const k of new Set([...owner.keys(), ...reports.keys()])) {
      const want = owner.get(k) ?? 0n;
      const got = reports.get(k) ?? 0n;
      if (want === 0n && got === 0n) continue;
      compared++;
      const [company, date, which] = k.split('|');
      if (want !== got) mismatches.push(`company ${company}: ${which} moved ${cents(want)} on ${date} by the ledger's entries and expenses but ${cents(got)} in the ${which} book`);
    }

    // The P&L's expenses: each day's total (the day row) against the ledger's expenses as they now are.
    const spent = new Map<string, bigint>();
    for (const x of expenses) spent.set(`${x.companyId}|${x.date}`, (spent.get(`${x.companyId}|${x.date}`) ?? 0n) + paise(x.amount));
    const dayRows = await all(rep, 'daily', { expenses: { $exists: true } });
    const booked = new Map(dayRows.map((d) => [`${d.companyId}|${d.date}`, stored(d.expenses)]));
    for (const k of new Set([...spent.keys(), ...booked.keys()])) {
      const want = spent.get(k) ?? 0n;
      const got = booked.get(k) ?? 0n;
      if (!want && !got) continue;
      compared++;
      const [company, date] = k.split('|');
      if (want !== got) mismatches.push(`company ${company}: expenses on ${date} are ${cents(want)} in the ledger but ${cents(got)} in the profit and loss`);
    }

    // Z reports: what each closed session counted against the cash book's rows of that cashier then.
    const sessions = await all(led, 'register_sessions', { open: false });
    for (const z of sessions) {
      const from = new Date(z.openedAt as Date).toISOString();
      const to = new Date(z.closedAt as Date).toISOString();
      const rows = moves.filter((m) => m.companyId === z.companyId && m.by === z.userId && m.kind !== 'expense' && String(m.at) >= from && String(m.at) <= to);
      let cash = rows.reduce((a, m) => a + stored(m.cash), 0n);
      let bank = rows.reduce((a, m) => a + stored(m.bank), 0n);
      for (const x of expenses) {
        const at = (x.createdAt as Date | undefined)?.toISOString();
        if (x.companyId !== z.companyId || (x.by as { id?: unknown } | undefined)?.id !== z.userId || !at || at < from || at > to) continue;
        for (const t of (x.payments as { mode: string; amount: unknown }[]) ?? []) {
          if (book(t.mode) === 'cash') cash -= paise(t.amount);
          else bank -= paise(t.amount);
        }
      }
      const totals = (z.totals ?? {}) as Record<string, unknown>;
      const zCash = paise(totals.cash);
      const zBank = Object.entries(totals).filter(([mode]) => mode !== 'cash').reduce((a, [, v]) => a + paise(v), 0n);
      compared += 2;
      if (zCash !== cash) mismatches.push(`company ${z.companyId}: register session ${z.sessionId} (${z.userName}) took ${cents(zCash)} in cash by its Z report but ${cents(cash)} in the cash book`);
      if (zBank !== bank) mismatches.push(`company ${z.companyId}: register session ${z.sessionId} (${z.userName}) took ${cents(zBank)} in other modes by its Z report but ${cents(bank)} in the bank book`);
    }
  }

  if (names.has('profit_day')) {
    const [sales, notes, cancels, days] = await Promise.all([all(sal, 'sales', { status: 'complete' }), all(sal, 'credit_notes', { status: 'complete' }), all(sal, 'sale_cancels', { status: 'complete' }), all(rep, 'profit_day')]);
    const owner = new Map<string, bigint>();
    const add = (k: string, cost: bigint) => owner.set(k, (owner.get(k) ?? 0n) + cost);
    // Units in thousandths; a line's cost to the paisa as the projection freezes it (cp x units, half up).
    const unitsOf = (l: Doc) => (units(l.quantity, 1000) * units(l.per_peice_quantity ?? '1', 1000)) / 1000n;
    const costOf = (cp: unknown, u: bigint) => (units(cp, 100) * u + 500n) / 1000n;
    const byBill = new Map(sales.map((x) => [`${x.companyId}:${x.saleId}`, x]));
    // What each bill's line still holds at cost (its returns taken off): a cancel takes that back.
    const held = new Map<string, Map<number, bigint>>();
    for (const x of sales) {
      const m = new Map<number, bigint>();
      for (const l of (x.lines as Doc[]) ?? []) {
        if (l.cp === null || l.cp === undefined) continue;
        const cost = costOf(l.cp, unitsOf(l));
        add(`${x.companyId}|${x.date}`, cost);
        m.set(Number(l.sl_no), (m.get(Number(l.sl_no)) ?? 0n) + cost);
      }
      held.set(`${x.companyId}:${x.saleId}`, m);
    }
    for (const n of notes) {
      const bill = byBill.get(`${n.companyId}:${n.saleId}`);
      const cps = new Map(((bill?.lines as Doc[]) ?? []).map((l) => [Number(l.sl_no), l.cp]));
      const m = held.get(`${n.companyId}:${n.saleId}`);
      for (const l of (n.lines as Doc[]) ?? []) {
        const cp = cps.get(Number(l.sl_no));
        if (cp === null || cp === undefined) continue;
        const cost = costOf(cp, unitsOf(l));
        add(`${n.companyId}|${n.date}`, -cost);
        m?.set(Number(l.sl_no), (m.get(Number(l.sl_no)) ?? 0n) - cost);
      }
    }
    for (const c of cancels) {
      for (const left of held.get(`${c.companyId}:${c.saleId}`)?.values() ?? []) add(`${c.companyId}|${c.date}`, -left);
    }
    const reports = new Map<string, bigint>();
    for (const d of days) reports.set(`${d.companyId}|${d.date}`, (reports.get(`${d.companyId}|${d.date}`) ?? 0n) + stored(d.cost));
    for (const k of new Set([...owner.keys(), ...reports.keys()])) {
      const want = owner.get(k) ?? 0n;
      const got = reports.get(k) ?? 0n;
      if (!want && !got) continue;
      compared++;
      const [company, date] = k.split('|');
      if (want !== got) mismatches.push(`company ${company}: profit's cost of goods sold on ${date} is ${cents(want)} by the sales' frozen costs but ${cents(got)} in the reports`);
    }
  }
  return { compared, mismatches };
}
