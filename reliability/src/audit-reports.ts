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
