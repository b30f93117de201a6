// The invariant auditor: reads the inventory, ledger and sales databases (read only) and lists
// every place where stock, dues and documents disagree. An operator tool and the judge of every
// fault and load test.
import { MongoClient, type Db } from 'mongodb';

export interface AuditReport {
  companies: number;
  products: number;
  movements: number;
  entries: number;
  parties: number;
  sales: number;
  purchases: number;
  /** Sales and purchases still pending/compensating (a re-driver will finish them). */
  inFlight: string[];
  violations: string[];
}

export interface AuditOptions {
  /** Database names; default bahi_<service>. */
  db?: { inventory?: string; ledger?: string; sales?: string };
  /** Only these companies. */
  companies?: number[];
}

/** Decimal string -> integer in 1/scale units (exact for the 2 and 3 decimals the services store). */
function toUnits(v: string | number, scale: number): bigint {
  const s = String(v).trim();
  const neg = s.startsWith('-');
  const [i = '0', f = ''] = s.replace(/^[-+]/, '').split('.');
  const digits = String(scale).length - 1;
  const frac = (f + '0'.repeat(digits)).slice(0, digits);
  const n = BigInt(i || '0') * BigInt(scale) + BigInt(frac || '0');
  return neg ? -n : n;
}
const paise = (v: string | number) => toUnits(v, 100);
/** Quantity x per-piece quantity in thousandths. */
const units = (q: string, ppq: string) => (toUnits(q, 1000) * toUnits(ppq, 1000)) / 1000n;

export async function audit(mongoUri: string, opts: AuditOptions = {}): Promise<AuditReport> {
  const client = new MongoClient(mongoUri, { serverSelectionTimeoutMS: 30_000, readPreference: 'primary' });
  await client.connect();
  try {
    return await auditDbs(
      client.db(opts.db?.inventory ?? 'bahi_inventory'),
      client.db(opts.db?.ledger ?? 'bahi_ledger'),
      client.db(opts.db?.sales ?? 'bahi_sales'),
      opts.companies,
    );
  } finally {
    await client.close();
  }
}

async function auditDbs(inv: Db, led: Db, sal: Db, only?: number[]): Promise<AuditReport> {
  const scope = only ? { companyId: { $in: only } } : {};
  const [products, movements, sources, entries, customers, distributors, sales, purchases] = await Promise.all([
    inv.collection('products').find(scope).toArray(),
    inv.collection('movements').find(scope).toArray(),
    inv.collection('stock_sources').find(scope).toArray(),
    led.collection('entries').find(scope).toArray(),
    led.collection('customers').find(scope).toArray(),
    led.collection('distributors').find(scope).toArray(),
    sal.collection('sales').find(scope).toArray(),
    inv.collection('purchases').find(scope).toArray(),
  ]);
  const v: string[] = [];
  const inFlight: string[] = [];
  const companies = new Set<number>([...products, ...entries, ...sales].map((d) => d.companyId as number));

  // 1. Every product's stock is the sum of its movements (and the last movement's running stock).
  const moveSum = new Map<string, bigint>();
  const lastMove = new Map<string, { seq: number; stock: number }>();
  for (const m of movements) {
    const k = `${m.companyId}:${m.product_id}`;
    moveSum.set(k, (moveSum.get(k) ?? 0n) + BigInt(m.qty_m));
    const l = lastMove.get(k);
    if (!l || m.seq > l.seq) lastMove.set(k, { seq: m.seq, stock: m.stock_m });
  }
  const productKeys = new Set<string>();
  for (const p of products) {
    const k = `${p.companyId}:${p.product_id}`;
    productKeys.add(k);
    const sum = moveSum.get(k) ?? 0n;
    if (BigInt(p.stock_m) !== sum) v.push(`company ${p.companyId} product ${p.product_id}: stock ${p.stock_m} but movements sum to ${sum} (thousandths)`);
    const l = lastMove.get(k);
    if (l && l.stock !== p.stock_m) v.push(`company ${p.companyId} product ${p.product_id}: stock ${p.stock_m} but the last movement left ${l.stock}`);
  }
  for (const k of moveSum.keys()) if (!productKeys.has(k)) v.push(`movements of unknown product ${k}`);

  // 2. Every entry belongs to a known party (a party's due is, by definition, the sum of its entries).
  const parties = new Set<string>();
  for (const c of customers) parties.add(`${c.companyId}:customer:${c.client_id}`);
  for (const d of distributors) parties.add(`${d.companyId}:distributor:${d.distributor_id}`);
  for (const e of entries) {
    if (!parties.has(`${e.companyId}:${e.partyKind}:${e.partyId}`)) v.push(`company ${e.companyId}: entry ${e.seq} for unknown ${e.partyKind} ${e.partyId}`);
    try {
      paise(e.delta);
    } catch {
      v.push(`company ${e.companyId}: entry ${e.seq} has a non-decimal delta ${String(e.delta)}`);
    }
  }

  // 3. Sales and purchases: complete ones have their movements and entry, failed ones net to nothing.
  const movesBy = new Map<string, typeof movements>();
  for (const m of movements) {
    const k = `${m.companyId}:${m.kind}:${m.source_id}`;
    (movesBy.get(k) ?? movesBy.set(k, []).get(k)!).push(m);
  }
  const entriesBy = new Map<string, typeof entries>();
  for (const e of entries) {
    const k = `${e.companyId}:${e.sourceKind}:${e.sourceId}`;
    (entriesBy.get(k) ?? entriesBy.set(k, []).get(k)!).push(e);
  }
  const sourceBy = new Map(sources.map((s) => [`${s.companyId}:${s.kind}:${s.id}`, s]));
  const seen = new Set<string>();

  const check = (kind: 'sale' | 'purchase', doc: Record<string, any>, id: number, total: string) => {
    const c = doc.companyId as number;
    const name = `company ${c} ${kind} ${id}`;
    seen.add(`${c}:${kind}:${id}`);
    const out = movesBy.get(`${c}:${kind}:${id}`) ?? [];
    const back = movesBy.get(`${c}:${kind}-reversal:${id}`) ?? [];
    const ents = entriesBy.get(`${c}:${kind}:${id}`) ?? [];
    const src = sourceBy.get(`${c}:${kind}:${id}`);
    const net = new Map<number, bigint>();
    for (const m of [...out, ...back]) net.set(m.product_id, (net.get(m.product_id) ?? 0n) + BigInt(m.qty_m));
    const entryNet = ents.reduce((a, e) => a + paise(e.delta), 0n);
    if (doc.status === 'pending' || doc.status === 'compensating') {
      inFlight.push(`${name} (${doc.status})`);
      return;
    }
    if (doc.status === 'complete') {
      if (!src || src.reversed) v.push(`${name}: complete but its stock is ${src ? 'reversed' : 'not applied'}`);
      if (back.length) v.push(`${name}: complete but has reversal movements`);
      const want = new Map<number, bigint>();
      for (const l of doc.lines ?? []) {
        const u = kind === 'sale' ? -units(l.quantity, l.per_peice_quantity ?? '1') : units(l.quantity, l.per_peice_quantity ?? '1');
        want.set(l.product_id, (want.get(l.product_id) ?? 0n) + u);
      }
      for (const [pid, q] of want) if ((net.get(pid) ?? 0n) !== q) v.push(`${name}: product ${pid} moved ${net.get(pid) ?? 0n} but the document says ${q} (thousandths)`);
      for (const pid of net.keys()) if (!want.has(pid)) v.push(`${name}: moved product ${pid} that is not on it`);
      const posted = ents.filter((e) => e.entryKind === kind);
      if (posted.length !== 1) v.push(`${name}: complete with ${posted.length} ${kind} entries (want 1)`);
      if (ents.some((e) => e.entryKind === 'reversal')) v.push(`${name}: complete but its entry is reversed`);
      if (posted[0] && paise(posted[0].amount) !== paise(total)) v.push(`${name}: entry amount ${posted[0].amount} but total ${total}`);
      if (posted[0] && entryNet !== paise(total) - paise(doc.paid ?? '0')) v.push(`${name}: entry delta ${posted[0].delta} but total - paid = ${total} - ${doc.paid}`);
    } else {
      for (const [pid, q] of net) if (q !== 0n) v.push(`${name}: ${doc.status} but product ${pid} is left moved by ${q}`);
      if (entryNet !== 0n) v.push(`${name}: ${doc.status} but its entries leave ${entryNet} paise due`);
    }
  };
  for (const s of sales) check('sale', s, s.saleId, s.amount);
  for (const p of purchases) check('purchase', p, p.purchaseId, p.total);

  // Stock or entries for a sale/purchase that does not exist: a half-applied fact.
  for (const m of movements) {
    const base = String(m.kind).replace('-reversal', '');
    if ((base === 'sale' || base === 'purchase') && !seen.has(`${m.companyId}:${base}:${m.source_id}`)) {
      v.push(`company ${m.companyId}: movement of ${m.kind} ${m.source_id}, which does not exist`);
    }
  }
  for (const e of entries) {
    if ((e.sourceKind === 'sale' || e.sourceKind === 'purchase') && !seen.has(`${e.companyId}:${e.sourceKind}:${e.sourceId}`)) {
      v.push(`company ${e.companyId}: entry for ${e.sourceKind} ${e.sourceId}, which does not exist`);
    }
  }

  return {
    companies: companies.size,
    products: products.length,
    movements: movements.length,
    entries: entries.length,
    parties: parties.size,
    sales: sales.length,
    purchases: purchases.length,
    inFlight,
    violations: [...new Set(v)],
  };
}
