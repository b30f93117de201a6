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
  /** Credit notes, debit notes and bill cancellations (any status). */
  notes: number;
  /** Sales, purchases, notes and cancellations still pending/compensating (a re-driver will finish them). */
  inFlight: string[];
  violations: string[];
  /** The same violations, each with its kind and the record it is about. */
  findings: Finding[];
}

/**
 * stock: a product's stock is not the sum of its movements; due: a party's due is not what its
 * documents add up to; document-stock / document-entry: a complete sale or purchase without its
 * stock movements / its ledger entry (or with wrong ones); half-applied: a failed one whose stock
 * or due was not undone; cross-company: a record pointing at another company's product, party or
 * document; orphan: one pointing at nothing; invoice-series: a company's GST invoice serials of a
 * financial year are not 1..N (a gap or a number given twice), or a complete GST sale has none;
 * note-series: the same for credit notes (CN) and debit notes (DN), whatever the mode;
 * over-returned: a bill's or purchase's line returned beyond what it sold or bought, a return on
 * a cancelled bill, or the returned counts a sale keeps differing from its complete credit notes.
 * Credit notes, debit notes and bill cancellations are checked as sales are: complete ones have
 * their movements (sale-return in, purchase-return out, sale-cancel in) and their entry, failed
 * ones net to nothing.
 */
export type ViolationKind = 'stock' | 'due' | 'document-stock' | 'document-entry' | 'half-applied' | 'cross-company' | 'orphan' | 'invoice-series' | 'note-series' | 'over-returned';

export interface Finding {
  kind: ViolationKind;
  /** The record at fault, e.g. "company 1 sale 12", "company 1 product 3", "company 1 customer 2". */
  record: string;
  message: string;
}

export interface AuditOptions {
  /** Database names; default bahi_<service>. */
  db?: { inventory?: string; ledger?: string; sales?: string };
  /** Only these companies. */
  companies?: number[];
}

/** Where the services keep notes and cancellations (sales: credit notes and cancels; inventory: debit notes). */
export const COLLECTIONS = { creditNotes: 'credit_notes', saleCancels: 'sale_cancels', debitNotes: 'debit_notes' } as const;

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
const fmtPaise = (p: bigint) => `${p < 0n ? '-' : ''}${(p < 0n ? -p : p) / 100n}.${String((p < 0n ? -p : p) % 100n).padStart(2, '0')}`;
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
  // Everything is read whole: a reference into another company is only told apart from a
  // dangling one by looking at every company.
  const [allProducts, allMovements, allSources, allEntries, allCustomers, allDistributors, allSales, allPurchases, allCreditNotes, allCancels, allDebitNotes] = await Promise.all([
    inv.collection('products').find().toArray(),
    inv.collection('movements').find().toArray(),
    inv.collection('stock_sources').find().toArray(),
    led.collection('entries').find().toArray(),
    led.collection('customers').find().toArray(),
    led.collection('distributors').find().toArray(),
    sal.collection('sales').find().toArray(),
    inv.collection('purchases').find().toArray(),
    sal.collection(COLLECTIONS.creditNotes).find().toArray(),
    sal.collection(COLLECTIONS.saleCancels).find().toArray(),
    inv.collection(COLLECTIONS.debitNotes).find().toArray(),
  ]);
  type Doc = Record<string, any>;
  const mine = (docs: Doc[]) => (only ? docs.filter((d) => only.includes(d.companyId as number)) : docs);
  const [products, movements, sources, entries, customers, distributors, sales, purchases, creditNotes, cancels, debitNotes] = [
    mine(allProducts), mine(allMovements), mine(allSources), mine(allEntries),
    mine(allCustomers), mine(allDistributors), mine(allSales), mine(allPurchases),
    mine(allCreditNotes), mine(allCancels), mine(allDebitNotes),
  ];
  const findings: Finding[] = [];
  const found = (kind: ViolationKind, record: string, message: string) => findings.push({ kind, record, message: `${record}: ${message}` });
  const inFlight: string[] = [];
  const companies = new Set<number>([...products, ...entries, ...sales].map((d) => d.companyId as number));

  /** Which other companies hold `what` (a product, a party, a sale): names a cross-company reference. */
  const owners = (docs: Doc[], field: string, id: unknown, company: unknown) =>
    docs.filter((d) => d[field] === id && d.companyId !== company).map((d) => d.companyId as number);
  const elsewhere = (list: number[]) => (list.length ? `, which is company ${list.join(', ')}'s` : ', which does not exist');

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
    const record = `company ${p.companyId} product ${p.product_id}`;
    const sum = moveSum.get(k) ?? 0n;
    if (BigInt(p.stock_m) !== sum) found('stock', record, `stock ${p.stock_m} but movements sum to ${sum} (thousandths)`);
    const l = lastMove.get(k);
    if (l && l.stock !== p.stock_m) found('stock', record, `stock ${p.stock_m} but the last movement left ${l.stock}`);
  }
  for (const [k, sum] of moveSum) {
    if (productKeys.has(k)) continue;
    const [c, pid] = k.split(':').map(Number);
    const other = owners(allProducts, 'product_id', pid, c);
    found(other.length ? 'cross-company' : 'orphan', `company ${c} product ${pid}`, `movements (${sum} thousandths) of product ${pid}${elsewhere(other)}`);
  }

  // 2. Dues. A due is the sum of a party's entries, so each entry must change it by what its
  // document says: a sale or purchase by amount - paid, a payment by -amount, an opening by
  // amount, a reversal by minus what it undoes. And every entry's party is of its own company.
  const parties = new Set<string>();
  for (const c of customers) parties.add(`${c.companyId}:customer:${c.client_id}`);
  for (const d of distributors) parties.add(`${d.companyId}:distributor:${d.distributor_id}`);
  const entriesBy = new Map<string, typeof entries>();
  for (const e of entries) {
    const k = `${e.companyId}:${e.sourceKind}:${e.sourceId}`;
    (entriesBy.get(k) ?? entriesBy.set(k, []).get(k)!).push(e);
  }
  const dueOff = new Map<string, { due: bigint; want: bigint; seqs: number[] }>();
  for (const e of entries) {
    const party = `company ${e.companyId} ${e.partyKind} ${e.partyId}`;
    if (!parties.has(`${e.companyId}:${e.partyKind}:${e.partyId}`)) {
      const other = owners(e.partyKind === 'customer' ? allCustomers : allDistributors, e.partyKind === 'customer' ? 'client_id' : 'distributor_id', e.partyId, e.companyId);
      found(other.length ? 'cross-company' : 'orphan', `company ${e.companyId} entry ${e.seq}`, `for ${e.partyKind} ${e.partyId}${elsewhere(other)}`);
    }
    let delta: bigint;
    let want: bigint;
    try {
      delta = paise(e.delta);
      const amount = paise(e.amount ?? '0');
      if (e.entryKind === 'sale' || e.entryKind === 'purchase') want = amount - paise(e.paid ?? '0');
      // Notes and cancellations lower the due by amount - paid (paid: the refund).
      else if (e.entryKind === 'credit_note' || e.entryKind === 'debit_note' || e.entryKind === 'cancellation') want = paise(e.paid ?? '0') - amount;
      else if (e.entryKind === 'payment_received' || e.entryKind === 'payment_given') want = -amount;
      else if (e.entryKind === 'reversal') {
        const undoneKind = e.sourceKind === 'sale-cancel' ? 'cancellation' : String(e.sourceKind).replace('-', '_');
        const undone = (entriesBy.get(`${e.companyId}:${e.sourceKind}:${e.sourceId}`) ?? []).find((x) => x.entryKind === undoneKind);
        want = undone ? -paise(undone.delta) : 0n;
      } else want = amount;
    } catch {
      found('due', party, `entry ${e.seq} has a non-decimal amount or delta (${String(e.amount)}, ${String(e.delta)})`);
      continue;
    }
    const d = dueOff.get(party) ?? dueOff.set(party, { due: 0n, want: 0n, seqs: [] }).get(party)!;
    d.due += delta;
    d.want += want;
    if (delta !== want) d.seqs.push(e.seq);
  }
  for (const [party, d] of dueOff) {
    if (d.seqs.length) found('due', party, `due ${fmtPaise(d.due)} but its documents add up to ${fmtPaise(d.want)} (entries ${d.seqs.join(', ')} disagree with their amounts)`);
  }

  // 3. Sales, purchases, notes and cancellations: complete ones have their movements and entry,
  // failed ones net to nothing.
  const movesBy = new Map<string, typeof movements>();
  for (const m of movements) {
    const k = `${m.companyId}:${m.kind}:${m.source_id}`;
    (movesBy.get(k) ?? movesBy.set(k, []).get(k)!).push(m);
  }
  const sourceBy = new Map(sources.map((s) => [`${s.companyId}:${s.kind}:${s.id}`, s]));
  const seen = new Set<string>();

  /**
   * A document kind as the other stores know it: `kind` is both its stock source kind and its
   * entries' sourceKind; `entryKind` what its entry is called; `stock` the direction its lines
   * move (-1 out); `due` the sign of amount - paid on the party's due.
   */
  interface DocKind { kind: 'sale' | 'purchase' | 'credit-note' | 'debit-note' | 'sale-cancel'; entryKind: string; stock: 1 | -1; due: 1 | -1 }
  const SALE: DocKind = { kind: 'sale', entryKind: 'sale', stock: -1, due: 1 };
  const PURCHASE: DocKind = { kind: 'purchase', entryKind: 'purchase', stock: 1, due: 1 };
  const CREDIT_NOTE: DocKind = { kind: 'credit-note', entryKind: 'credit_note', stock: 1, due: -1 };
  const DEBIT_NOTE: DocKind = { kind: 'debit-note', entryKind: 'debit_note', stock: -1, due: -1 };
  /** Its movements and entry carry the cancellation attempt's id (cancelId), not the sale's. */
  const SALE_CANCEL: DocKind = { kind: 'sale-cancel', entryKind: 'cancellation', stock: 1, due: -1 };
  /** Movements of a credit note are kind sale-return, of a debit note purchase-return. */
  const stockKindOf = (k: DocKind['kind']) => (k === 'credit-note' ? 'sale-return' : k === 'debit-note' ? 'purchase-return' : k);

  const check = (dk: DocKind, doc: Doc, id: number, money: { total: string; paid: string }, party: { kind: string; id: unknown }, lines: Doc[]) => {
    const c = doc.companyId as number;
    const kind = dk.kind;
    const stockKind = stockKindOf(kind);
    const name = `company ${c} ${kind} ${id}`;
    seen.add(`${c}:${kind}:${id}`);
    const out = movesBy.get(`${c}:${stockKind}:${id}`) ?? [];
    const back = movesBy.get(`${c}:${stockKind}-reversal:${id}`) ?? [];
    const ents = entriesBy.get(`${c}:${kind}:${id}`) ?? [];
    const src = sourceBy.get(`${c}:${stockKind}:${id}`);
    const net = new Map<number, bigint>();
    for (const m of [...out, ...back]) net.set(m.product_id, (net.get(m.product_id) ?? 0n) + BigInt(m.qty_m));
    const entryNet = ents.reduce((a, e) => a + paise(e.delta), 0n);
    // The party and the products it names are its own company's.
    const partyKey = `${c}:${party.kind}:${party.id}`;
    if (!parties.has(partyKey)) {
      const other = owners(party.kind === 'customer' ? allCustomers : allDistributors, party.kind === 'customer' ? 'client_id' : 'distributor_id', party.id, c);
      found(other.length ? 'cross-company' : 'orphan', name, `for ${party.kind} ${String(party.id)}${elsewhere(other)}`);
    }
    for (const l of lines) {
      if (productKeys.has(`${c}:${l.product_id}`)) continue;
      const other = owners(allProducts, 'product_id', l.product_id, c);
      found(other.length ? 'cross-company' : 'orphan', name, `line of product ${l.product_id}${elsewhere(other)}`);
    }
    for (const e of ents) {
      if (e.partyKind !== party.kind || e.partyId !== party.id) found('document-entry', name, `entry ${e.seq} is on ${e.partyKind} ${e.partyId}, not on its ${party.kind} ${String(party.id)}`);
    }
    if (doc.status === 'pending' || doc.status === 'compensating') {
      inFlight.push(`${name} (${doc.status})`);
      return;
    }
    if (doc.status === 'complete') {
      const want = new Map<number, bigint>();
      for (const l of lines) {
        const u = units(l.quantity, l.per_peice_quantity ?? '1');
        if (u !== 0n) want.set(l.product_id, (want.get(l.product_id) ?? 0n) + BigInt(dk.stock) * u);
      }
      // A note crediting only shipping moves no stock.
      if (want.size && (!src || src.reversed)) found('document-stock', name, `complete but its stock is ${src ? 'reversed' : 'not applied'}`);
      if (back.length) found('document-stock', name, 'complete but has reversal movements');
      for (const [pid, q] of want) if ((net.get(pid) ?? 0n) !== q) found('document-stock', name, `product ${pid} moved ${net.get(pid) ?? 0n} but the document says ${q} (thousandths)`);
      for (const pid of net.keys()) if (!want.has(pid)) found('document-stock', name, `moved product ${pid} that is not on it`);
      const posted = ents.filter((e) => e.entryKind === dk.entryKind);
      if (posted.length !== 1) found('document-entry', name, `complete with ${posted.length} ${dk.entryKind} entries (want 1)`);
      if (ents.some((e) => e.entryKind === 'reversal')) found('document-entry', name, 'complete but its entry is reversed');
      if (posted[0] && paise(posted[0].amount) !== paise(money.total)) found('document-entry', name, `entry amount ${posted[0].amount} but total ${money.total}`);
      if (posted[0] && entryNet !== BigInt(dk.due) * (paise(money.total) - paise(money.paid))) found('document-entry', name, `entry delta ${posted[0].delta} but ${dk.due < 0 ? '-' : ''}(total - paid) = ${dk.due < 0 ? '-' : ''}(${money.total} - ${money.paid})`);
    } else {
      // Failed: whatever was applied must have been undone; anything left is half applied.
      for (const [pid, q] of net) if (q !== 0n) found('half-applied', name, `${doc.status} but product ${pid} is left moved by ${q}`);
      if (entryNet !== 0n) found('half-applied', name, `${doc.status} but its entries leave ${fmtPaise(entryNet)} due`);
    }
  };
  const customerOf = (s: Doc) => ({ kind: 'customer', id: s.customer?.client_id ?? s.clientId });
  const saleOf = new Map(sales.map((s) => [`${s.companyId}:${s.saleId}`, s]));
  const purchaseOf = new Map(purchases.map((p) => [`${p.companyId}:${p.purchaseId}`, p]));
  for (const s of sales) check(SALE, s, s.saleId, { total: s.amount, paid: s.paid ?? '0' }, customerOf(s), s.lines ?? []);
  for (const p of purchases) check(PURCHASE, p, p.purchaseId, { total: p.total, paid: p.paid ?? '0' }, { kind: 'distributor', id: p.distributorId }, p.lines ?? []);
  for (const n of creditNotes) check(CREDIT_NOTE, n, n.creditNoteId, { total: n.amount, paid: n.refund ?? '0' }, customerOf(n), n.lines ?? []);
  for (const n of debitNotes) check(DEBIT_NOTE, n, n.debitNoteId, { total: n.amount, paid: n.refund ?? '0' }, { kind: 'distributor', id: n.distributorId }, n.lines ?? []);
  for (const x of cancels) {
    const sale = saleOf.get(`${x.companyId}:${x.saleId}`);
    if (!sale) {
      found('orphan', `company ${x.companyId} sale-cancel ${x.cancelId}`, `cancels sale ${x.saleId}, which does not exist`);
      continue;
    }
    // Each attempt is its own stock and ledger source: its cancelId.
    check(SALE_CANCEL, x, x.cancelId, { total: sale.amount, paid: sale.paid ?? '0' }, customerOf(sale), sale.lines ?? []);
    if (x.status === 'complete' && !sale.cancelled) found('document-entry', `company ${x.companyId} sale ${x.saleId}`, 'its cancellation is complete but the sale is not marked cancelled');
  }
  // A sale marked cancelled has a complete cancellation (attempts before it may have failed).
  for (const sale of sales) {
    if (!sale.cancelled) continue;
    const attempts = cancels.filter((x) => x.companyId === sale.companyId && x.saleId === sale.saleId);
    if (!attempts.some((x) => x.status === 'complete' || x.status === 'pending' || x.status === 'compensating')) found('half-applied', `company ${sale.companyId} sale ${sale.saleId}`, 'marked cancelled without a complete cancellation');
  }

  // Returns never exceed what was sold or bought, and a cancelled bill has none.
  const returned = (notes: Doc[], docId: (n: Doc) => string) => {
    const by = new Map<string, Map<number, bigint>>();
    for (const n of notes) {
      if (n.status !== 'complete') continue;
      const perLine = by.get(docId(n)) ?? by.set(docId(n), new Map()).get(docId(n))!;
      for (const l of n.lines ?? []) perLine.set(l.sl_no, (perLine.get(l.sl_no) ?? 0n) + toUnits(l.quantity, 1000));
    }
    return by;
  };
  const overReturned = (record: string, lines: Doc[], back: Map<number, bigint> | undefined, what: string) => {
    if (!back) return;
    const sold = new Map<number, bigint>(lines.map((l) => [l.sl_no as number, toUnits(l.quantity, 1000)]));
    for (const [sl, q] of back) {
      if (!sold.has(sl)) found('over-returned', record, `returned line ${sl}, which is not on it`);
      else if (q > sold.get(sl)!) found('over-returned', record, `line ${sl} returned ${q} but ${what} ${sold.get(sl)} (thousandths of packs)`);
    }
  };
  const creditBySale = returned(creditNotes, (n) => `${n.companyId}:${n.saleId}`);
  for (const [k, back] of creditBySale) {
    const sale = saleOf.get(k);
    const [c, id] = k.split(':');
    const record = `company ${c} sale ${id}`;
    if (!sale) {
      found('orphan', record, 'credit notes of a sale that does not exist');
      continue;
    }
    overReturned(record, sale.lines ?? [], back, 'sold');
    if (sale.cancelled) found('over-returned', record, 'cancelled, yet it has complete credit notes');
    // The per-line counts the sale keeps (its reservation check) agree with its notes.
    for (const r of (sale.returned ?? []) as Doc[]) {
      if (toUnits(r.quantity, 1000) !== (back.get(r.sl_no) ?? 0n)) found('over-returned', record, `keeps line ${r.sl_no} returned ${r.quantity} but its credit notes return ${back.get(r.sl_no) ?? 0n} thousandths`);
    }
  }
  for (const [k, back] of returned(debitNotes, (n) => `${n.companyId}:${n.purchaseId}`)) {
    const [c, id] = k.split(':');
    const p = purchaseOf.get(k);
    if (!p) found('orphan', `company ${c} purchase ${id}`, 'debit notes of a purchase that does not exist');
    else overReturned(`company ${c} purchase ${id}`, p.lines ?? [], back, 'bought');
  }

  // Stock or entries for a document that does not exist (or is another company's).
  const docsOf: Record<DocKind['kind'], [Doc[], string]> = {
    sale: [allSales, 'saleId'],
    purchase: [allPurchases, 'purchaseId'],
    'credit-note': [allCreditNotes, 'creditNoteId'],
    'debit-note': [allDebitNotes, 'debitNoteId'],
    'sale-cancel': [allCancels, 'cancelId'],
  };
  const kindOfStock: Record<string, DocKind['kind']> = { sale: 'sale', purchase: 'purchase', 'sale-return': 'credit-note', 'purchase-return': 'debit-note', 'sale-cancel': 'sale-cancel' };
  for (const m of movements) {
    const base = kindOfStock[String(m.kind).replace('-reversal', '')];
    if (base && !seen.has(`${m.companyId}:${base}:${m.source_id}`)) {
      const other = owners(docsOf[base][0], docsOf[base][1], m.source_id, m.companyId);
      found(other.length ? 'cross-company' : 'orphan', `company ${m.companyId} ${base} ${m.source_id}`, `movement of ${m.kind} ${m.source_id} (product ${m.product_id})${elsewhere(other)}`);
    }
  }
  for (const e of entries) {
    const base = e.sourceKind as DocKind['kind'];
    if (docsOf[base] && !seen.has(`${e.companyId}:${base}:${e.sourceId}`)) {
      const other = owners(docsOf[base][0], docsOf[base][1], e.sourceId, e.companyId);
      found(other.length ? 'cross-company' : 'orphan', `company ${e.companyId} ${base} ${e.sourceId}`, `entry ${e.seq} for ${base} ${e.sourceId}${elsewhere(other)}`);
    }
  }

  // Number series: per company and financial year, serials 1..N with no gap and none given
  // twice. A GST sale that failed after taking its number keeps it (a cancelled invoice) and
  // counts; notes take theirs only when they complete.
  const gapless = (kind: 'invoice-series' | 'note-series', what: string, docs: Doc[], serialOf: (d: Doc) => { fy: string; serial: number } | null, idOf: (d: Doc) => number) => {
    const series = new Map<string, Map<number, number[]>>();
    for (const d of docs) {
      const n = serialOf(d);
      if (!n || !(n.serial > 0)) continue;
      const k = `company ${d.companyId} ${what} ${n.fy}`;
      const bySerial = series.get(k) ?? series.set(k, new Map()).get(k)!;
      bySerial.set(n.serial, [...(bySerial.get(n.serial) ?? []), idOf(d)]);
    }
    for (const [record, bySerial] of series) {
      const top = Math.max(...bySerial.keys());
      const missing: number[] = [];
      for (let n = 1; n <= top; n++) if (!bySerial.has(n)) missing.push(n);
      if (missing.length) found(kind, record, `serials ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ` and ${missing.length - 10} more` : ''} missing below ${top}`);
      for (const [n, ids] of bySerial) if (ids.length > 1) found(kind, record, `serial ${n} given to ${ids.join(', ')}`);
    }
  };
  for (const sale of sales) {
    const g = sale.gst as Doc | null | undefined;
    if (g && !(Number(g.serial) > 0) && sale.status === 'complete') found('invoice-series', `company ${sale.companyId} sale ${sale.saleId}`, 'a complete GST sale without an invoice number');
  }
  gapless('invoice-series', 'invoices', sales, (s) => (s.gst ? { fy: s.gst.fy, serial: Number(s.gst.serial) } : null), (s) => s.saleId);
  const noteSerial = (n: Doc) => ({ fy: n.fy as string, serial: Number(n.serial) });
  for (const [notes, label, idOf] of [[creditNotes, 'credit notes', (n: Doc) => n.creditNoteId], [debitNotes, 'debit notes', (n: Doc) => n.debitNoteId]] as const) {
    for (const n of notes) {
      if (n.status === 'complete' && !(Number(n.serial) > 0)) found('note-series', `company ${n.companyId} ${label === 'credit notes' ? 'credit-note' : 'debit-note'} ${idOf(n)}`, 'complete without a number');
      if (n.status === 'failed' && Number(n.serial) > 0) found('note-series', `company ${n.companyId} ${label === 'credit notes' ? 'credit-note' : 'debit-note'} ${idOf(n)}`, `failed but took number ${n.serial}`);
    }
    gapless('note-series', label, notes, noteSerial, idOf);
  }

  const unique = [...new Map(findings.map((f) => [f.message, f])).values()];
  return {
    companies: companies.size,
    products: products.length,
    movements: movements.length,
    entries: entries.length,
    parties: parties.size,
    sales: sales.length,
    purchases: purchases.length,
    notes: creditNotes.length + debitNotes.length + cancels.length,
    inFlight,
    violations: unique.map((f) => f.message),
    findings: unique,
  };
}

/** The reports' read model against the owners' data (reliability/src/audit-reports.ts). */
export { auditReports, type ReportsAudit, type ReportsAuditOptions } from './audit-reports';
