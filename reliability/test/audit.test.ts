// The auditor is shown broken states: each kind of violation is planted in a small consistent
// data set (written in the shape the services store) in scratch databases on the embedded
// server, and the auditor must report exactly that violation, naming the record, and nothing else.
import { startMongo, type MongoHandle } from '@bahi/devstack';
import { MongoClient } from 'mongodb';
import { audit, type ViolationKind } from '../src/audit';

type Doc = Record<string, any>;
interface Data {
  products: Doc[];
  movements: Doc[];
  stock_sources: Doc[];
  purchases: Doc[];
  entries: Doc[];
  entry_sources: Doc[];
  customers: Doc[];
  distributors: Doc[];
  sales: Doc[];
  credit_notes: Doc[];
  sale_cancels: Doc[];
  debit_notes: Doc[];
}

const day = '2026-11-20';
const at = new Date('2026-11-20T10:00:00Z');

/**
 * Two companies, each with products, a walk-in and a named customer, a distributor, an opening
 * balance, a complete purchase, a complete sale, a payment; company 1 also a failed sale that
 * was undone (stock back, entry reversed). Everything agrees.
 */
function consistent(): Data {
  const d: Data = { products: [], movements: [], stock_sources: [], purchases: [], entries: [], entry_sources: [], customers: [], distributors: [], sales: [], credit_notes: [], sale_cancels: [], debit_notes: [] };
  for (const [c, base] of [[1, 0], [2, 100]] as const) {
    // Ids differ between companies, so a reference into the other company is told apart from none.
    const p1 = base + 1;
    const p2 = base + 2;
    const walkIn = base + 1;
    const cust = base + 2;
    const dist = base + 1;
    const stock = new Map<number, number>();
    const seq = { move: 0, entry: 0 };
    d.products.push({ companyId: c, product_id: p1, product_name: 'Rice 1 kg', ppq_m: 1000, stock_m: 0 }, { companyId: c, product_id: p2, product_name: 'Dal pack of 2', ppq_m: 2000, stock_m: 0 });
    d.customers.push({ companyId: c, client_id: walkIn, name: 'Walk-in', mobile_no: '0000000000', walkIn: true }, { companyId: c, client_id: cust, name: 'Asha', mobile_no: `98765${c}0000`, walkIn: false });
    d.distributors.push({ companyId: c, distributor_id: dist, name: 'Wholesale Co' });
    const move = (kind: string, sourceId: number, line: number, productId: number, qtyM: number) => {
      const s = (stock.get(productId) ?? 0) + qtyM;
      stock.set(productId, s);
      d.movements.push({ companyId: c, product_id: productId, kind, source_id: sourceId, line, qty_m: qtyM, rate_p: 5000, stock_m: s, date: at, seq: ++seq.move });
    };
    const entry = (e: Doc) => d.entries.push({ companyId: c, seq: ++seq.entry, paid: '0.00', date: day, dueDate: null, ...e });

    entry({ partyKind: 'customer', partyId: cust, entryKind: 'opening', sourceKind: 'opening', sourceId: 1, amount: '100.00', delta: '100.00' });

    // Purchase 1: 10 x p1 and 5 packs of 2 of p2, 500.00, 200.00 paid.
    const purchaseLines = [
      { sl_no: 1, product_id: p1, quantity: '10', per_peice_quantity: '1', rate: '30.00', disc: '0', amount: '300.00', units: '10' },
      { sl_no: 2, product_id: p2, quantity: '5', per_peice_quantity: '2', rate: '20.00', disc: '0', amount: '200.00', units: '10' },
    ];
    d.purchases.push({ companyId: c, purchaseId: 1, status: 'complete', distributorId: dist, bill_no: `B-${c}`, lines: purchaseLines, total: '500.00', paid: '200.00', date: day });
    move('purchase', 1, 1, p1, 10_000);
    move('purchase', 1, 2, p2, 10_000);
    d.stock_sources.push({ companyId: c, kind: 'purchase', id: 1, reversed: false, at });
    entry({ partyKind: 'distributor', partyId: dist, entryKind: 'purchase', sourceKind: 'purchase', sourceId: 1, amount: '500.00', paid: '200.00', delta: '300.00' });
    d.entry_sources.push({ companyId: c, sourceKind: 'purchase', sourceId: 1, reversed: false, at });

    // Sale 1: 2 x p1 and 1 pack of 2 of p2 to the named customer, 180.00, 50.00 paid.
    const sale = (saleId: number, status: string, client: number, lines: Doc[], amount: string, paid: string) =>
      d.sales.push({ companyId: c, saleId, status, clientId: client, customer: { client_id: client, walkIn: client === walkIn }, lines, amount, paid, date: day });
    sale(1, 'complete', cust, [
      { sl_no: 1, product_id: p1, quantity: '2', per_peice_quantity: '1', mrp: '50.00', discount: '0' },
      { sl_no: 2, product_id: p2, quantity: '1', per_peice_quantity: '2', mrp: '80.00', discount: '0' },
    ], '180.00', '50.00');
    move('sale', 1, 1, p1, -2000);
    move('sale', 1, 2, p2, -2000);
    d.stock_sources.push({ companyId: c, kind: 'sale', id: 1, reversed: false, at });
    entry({ partyKind: 'customer', partyId: cust, entryKind: 'sale', sourceKind: 'sale', sourceId: 1, amount: '180.00', paid: '50.00', delta: '130.00' });
    d.entry_sources.push({ companyId: c, sourceKind: 'sale', sourceId: 1, reversed: false, at });

    entry({ partyKind: 'customer', partyId: cust, entryKind: 'payment_received', sourceKind: 'payment', sourceId: 1, amount: '7.25', delta: '-7.25' });

    // Credit note 1: 1 of the 2 x p1 of sale 1 comes back, 50.00, 20.00 refunded.
    one(d.sales, { companyId: c, saleId: 1 }).returned = [{ sl_no: 1, quantity: '1' }];
    d.credit_notes.push({ companyId: c, creditNoteId: 1, status: 'complete', saleId: 1, clientId: cust, customer: { client_id: cust, walkIn: false }, fy: '26-27', serial: 1, credit_note_no: 'CN/26-27/0001',
      lines: [{ sl_no: 1, product_id: p1, quantity: '1', per_peice_quantity: '1', value: '50.00' }], amount: '50.00', refund: '20.00', date: day });
    move('sale-return', 1, 1, p1, 1000);
    d.stock_sources.push({ companyId: c, kind: 'sale-return', id: 1, reversed: false, at });
    entry({ partyKind: 'customer', partyId: cust, entryKind: 'credit_note', sourceKind: 'credit-note', sourceId: 1, amount: '50.00', paid: '20.00', delta: '-30.00' });

    // Debit note 1: 2 of the 10 x p1 of purchase 1 go back, 60.00, nothing refunded yet.
    d.debit_notes.push({ companyId: c, debitNoteId: 1, status: 'complete', purchaseId: 1, distributorId: dist, fy: '26-27', serial: 1, debit_note_no: 'DN/26-27/0001',
      lines: [{ sl_no: 1, product_id: p1, quantity: '2', per_peice_quantity: '1', value: '60.00' }], amount: '60.00', refund: '0', date: day });
    move('purchase-return', 1, 1, p1, -2000);
    d.stock_sources.push({ companyId: c, kind: 'purchase-return', id: 1, reversed: false, at });
    entry({ partyKind: 'distributor', partyId: dist, entryKind: 'debit_note', sourceKind: 'debit-note', sourceId: 1, amount: '60.00', paid: '0.00', delta: '-60.00' });

    // Sale 4 to the named customer, 100.00 with 40.00 paid, then cancelled (attempt 1, its own
    // stock and ledger source): stock back, due undone.
    d.sales.push({ companyId: c, saleId: 4, status: 'complete', clientId: cust, customer: { client_id: cust, walkIn: false },
      lines: [{ sl_no: 1, product_id: p2, quantity: '1', per_peice_quantity: '2', mrp: '50.00', discount: '0' }], amount: '100.00', paid: '40.00', date: day, cancelled: { date: day, reason: 'Wrong customer', by: 1 } });
    move('sale', 4, 1, p2, -2000);
    d.stock_sources.push({ companyId: c, kind: 'sale', id: 4, reversed: false, at });
    entry({ partyKind: 'customer', partyId: cust, entryKind: 'sale', sourceKind: 'sale', sourceId: 4, amount: '100.00', paid: '40.00', delta: '60.00' });
    d.sale_cancels.push({ companyId: c, cancelId: 1, saleId: 4, status: 'complete', reason: 'Wrong customer', date: day });
    move('sale-cancel', 1, 1, p2, 2000);
    d.stock_sources.push({ companyId: c, kind: 'sale-cancel', id: 1, reversed: false, at });
    entry({ partyKind: 'customer', partyId: cust, entryKind: 'cancellation', sourceKind: 'sale-cancel', sourceId: 1, amount: '100.00', paid: '40.00', delta: '-60.00' });

    if (c === 1) {
      // Sale 2 failed after both steps: stock put back, entry reversed.
      sale(2, 'failed', walkIn, [{ sl_no: 1, product_id: p1, quantity: '1', per_peice_quantity: '1', mrp: '50.00', discount: '0' }], '50.00', '50.00');
      move('sale', 2, 1, p1, -1000);
      entry({ partyKind: 'customer', partyId: walkIn, entryKind: 'sale', sourceKind: 'sale', sourceId: 2, amount: '50.00', paid: '50.00', delta: '0.00' });
      move('sale-reversal', 2, 1, p1, 1000);
      d.stock_sources.push({ companyId: c, kind: 'sale', id: 2, reversed: true, at });
      entry({ partyKind: 'customer', partyId: walkIn, entryKind: 'reversal', sourceKind: 'sale', sourceId: 2, amount: '50.00', paid: '50.00', delta: '-0.00' });
      d.entry_sources.push({ companyId: c, sourceKind: 'sale', sourceId: 2, reversed: true, at });
    }
    for (const p of d.products) if (p.companyId === c) p.stock_m = stock.get(p.product_id) ?? 0;
  }
  // GST mode: each company's complete sale 1 is invoice 0001 of its year.
  for (const c of [1, 2]) one(d.sales, { companyId: c, saleId: 1 }).gst = { fy: '26-27', serial: 1, invoice_no: `C${c}/26-27/0001` };
  return d;
}

const one = <T extends Doc>(docs: T[], match: Doc): T => {
  const hits = docs.filter((x) => Object.entries(match).every(([k, v]) => x[k] === v));
  if (hits.length !== 1) throw new Error(`test data: ${hits.length} records match ${JSON.stringify(match)}`);
  return hits[0]!;
};
/** Running stock after movements were added or dropped: each movement's stock and each product's, in order. */
const resettle = (d: Data) => {
  const stock = new Map<string, number>();
  for (const m of [...d.movements].sort((a, b) => a.companyId - b.companyId || a.seq - b.seq)) {
    const k = `${m.companyId}:${m.product_id}`;
    m.stock_m = (stock.get(k) ?? 0) + m.qty_m;
    stock.set(k, m.stock_m);
  }
  for (const p of d.products) p.stock_m = stock.get(`${p.companyId}:${p.product_id}`) ?? 0;
};
const drop = (docs: Doc[], match: Doc) => {
  const keep = docs.filter((x) => !Object.entries(match).every(([k, v]) => x[k] === v));
  if (keep.length === docs.length) throw new Error(`test data: nothing matches ${JSON.stringify(match)}`);
  docs.splice(0, docs.length, ...keep);
};

let mongo: MongoHandle;
let client: MongoClient;
let n = 0;

/** Writes `data` into fresh databases and audits them. */
async function auditOf(data: Data) {
  const prefix = `audit${++n}`;
  const db = { inventory: `${prefix}_inventory`, ledger: `${prefix}_ledger`, sales: `${prefix}_sales` };
  const where: Record<keyof Data, string> = {
    products: db.inventory, movements: db.inventory, stock_sources: db.inventory, purchases: db.inventory,
    entries: db.ledger, entry_sources: db.ledger, customers: db.ledger, distributors: db.ledger, sales: db.sales,
    credit_notes: db.sales, sale_cancels: db.sales, debit_notes: db.inventory,
  };
  for (const [coll, docs] of Object.entries(data) as [keyof Data, Doc[]][]) {
    if (docs.length) await client.db(where[coll]).collection(coll).insertMany(docs.map((x) => ({ ...x })));
  }
  return audit(mongo.uri, { db });
}

beforeAll(async () => {
  mongo = await startMongo();
  client = new MongoClient(mongo.uri);
  await client.connect();
}, 60_000);
afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

it('a consistent data set has no violations', async () => {
  const r = await auditOf(consistent());
  expect(r.violations).toEqual([]);
  expect(r.inFlight).toEqual([]);
  expect([r.companies, r.products, r.sales, r.purchases, r.parties, r.notes]).toEqual([2, 4, 5, 2, 6, 6]);
});

it('a sale still pending is in flight, not a violation', async () => {
  const d = consistent();
  // Not numbered yet: a GST sale takes its number when it completes.
  d.sales.push({ ...one(d.sales, { companyId: 1, saleId: 1 }), saleId: 3, status: 'pending', gst: { fy: '26-27', serial: 0, invoice_no: '' } });
  const r = await auditOf(d);
  expect(r.violations).toEqual([]);
  expect(r.inFlight).toEqual(['company 1 sale 3 (pending)']);
});

/** Each plant breaks exactly one thing; `want` is every [kind, record] the auditor must report. */
const plants: [string, (d: Data) => void, [ViolationKind, string][]][] = [
  [
    'stock of a product that is not the sum of its movements',
    (d) => {
      one(d.products, { companyId: 1, product_id: 2 }).stock_m += 1000;
    },
    [['stock', 'company 1 product 2']],
  ],
  [
    "a party's due that is not the sum of what its documents say (a payment's entry off by ten)",
    (d) => {
      one(d.entries, { companyId: 2, entryKind: 'payment_received' }).delta = '-72.50';
    },
    [['due', 'company 2 customer 102']],
  ],
  [
    'a complete sale without its ledger entry',
    (d) => {
      drop(d.entries, { companyId: 1, sourceKind: 'sale', sourceId: 1 });
      drop(d.entry_sources, { companyId: 1, sourceKind: 'sale', sourceId: 1 });
    },
    [['document-entry', 'company 1 sale 1']],
  ],
  [
    'a complete sale without its stock movements (stock never taken)',
    (d) => {
      drop(d.movements, { companyId: 2, kind: 'sale', source_id: 1 });
      drop(d.stock_sources, { companyId: 2, kind: 'sale', id: 1 });
      resettle(d);
    },
    [['document-stock', 'company 2 sale 1']],
  ],
  [
    'a half-applied purchase: failed, its stock still in and its entry not reversed',
    (d) => {
      one(d.purchases, { companyId: 1, purchaseId: 1 }).status = 'failed';
    },
    [['half-applied', 'company 1 purchase 1']],
  ],
  [
    'a half-applied purchase: complete with its stock in but no entry',
    (d) => {
      drop(d.entries, { companyId: 2, sourceKind: 'purchase', sourceId: 1 });
    },
    [['document-entry', 'company 2 purchase 1']],
  ],
  [
    "a cross-company reference: company 2's sale (and its entry) on company 1's customer",
    (d) => {
      const s = one(d.sales, { companyId: 2, saleId: 1 });
      s.clientId = 2;
      s.customer = { client_id: 2, walkIn: false };
      one(d.entries, { companyId: 2, sourceKind: 'sale', sourceId: 1 }).partyId = 2;
    },
    [['cross-company', 'company 2 sale 1'], ['cross-company', 'company 2 entry 3']],
  ],
  [
    "a cross-company reference: company 2's stock moved for company 1's sale 2",
    (d) => {
      d.movements.push({ ...one(d.movements, { companyId: 1, kind: 'sale', source_id: 2 }), companyId: 2, product_id: 101, seq: 99, qty_m: -1000 });
      resettle(d);
    },
    [['cross-company', 'company 2 sale 2']],
  ],
  [
    'a movement of a sale that exists nowhere',
    (d) => {
      d.movements.push({ ...one(d.movements, { companyId: 1, kind: 'sale', source_id: 1, line: 1 }), source_id: 9, seq: 99 });
      resettle(d);
    },
    [['orphan', 'company 1 sale 9']],
  ],
  [
    'an invoice number given twice in a year (a failed sale keeps its number, as a cancelled invoice, but not a taken one)',
    (d) => {
      one(d.sales, { companyId: 1, saleId: 2 }).gst = { fy: '26-27', serial: 1, invoice_no: 'C1/26-27/0001' };
    },
    [['invoice-series', 'company 1 invoices 26-27']],
  ],
  [
    "a gap in a year's invoice numbers (0001 missing)",
    (d) => {
      Object.assign(one(d.sales, { companyId: 2, saleId: 1 }).gst, { serial: 2, invoice_no: 'C2/26-27/0002' });
    },
    [['invoice-series', 'company 2 invoices 26-27']],
  ],
  [
    'a complete GST sale without an invoice number',
    (d) => {
      Object.assign(one(d.sales, { companyId: 2, saleId: 1 }).gst, { serial: 0, invoice_no: '' });
    },
    [['invoice-series', 'company 2 sale 1']],
  ],
  [
    'a line returned beyond what was sold (a second credit note for the other unit and one more)',
    (d) => {
      const n = one(d.credit_notes, { companyId: 1, creditNoteId: 1 });
      d.credit_notes.push({ ...n, creditNoteId: 2, serial: 2, credit_note_no: 'CN/26-27/0002', lines: [{ ...n.lines[0], quantity: '2' }], amount: '100.00', refund: '0' });
      d.movements.push({ companyId: 1, product_id: 1, kind: 'sale-return', source_id: 2, line: 1, qty_m: 2000, rate_p: 5000, date: at, seq: 99 });
      resettle(d);
      d.stock_sources.push({ companyId: 1, kind: 'sale-return', id: 2, reversed: false, at });
      d.entries.push({ companyId: 1, seq: 99, partyKind: 'customer', partyId: 2, entryKind: 'credit_note', sourceKind: 'credit-note', sourceId: 2, amount: '100.00', paid: '0', delta: '-100.00', date: day });
      one(d.sales, { companyId: 1, saleId: 1 }).returned = [{ sl_no: 1, quantity: '3' }];
    },
    [['over-returned', 'company 1 sale 1']],
  ],
  [
    'returned counts kept on a sale that disagree with its credit notes',
    (d) => {
      one(d.sales, { companyId: 2, saleId: 1 }).returned = [{ sl_no: 1, quantity: '0' }];
    },
    [['over-returned', 'company 2 sale 1']],
  ],
  [
    'a complete credit note without its ledger entry',
    (d) => {
      drop(d.entries, { companyId: 2, sourceKind: 'credit-note', sourceId: 1 });
    },
    [['document-entry', 'company 2 credit-note 1']],
  ],
  [
    'a failed debit note whose stock never came back',
    (d) => {
      const n = one(d.debit_notes, { companyId: 1, debitNoteId: 1 });
      Object.assign(n, { status: 'failed', serial: 0, debit_note_no: '' });
      drop(d.entries, { companyId: 1, sourceKind: 'debit-note', sourceId: 1 });
    },
    [['half-applied', 'company 1 debit-note 1']],
  ],
  [
    'a cancelled bill whose stock never came back',
    (d) => {
      drop(d.movements, { companyId: 2, kind: 'sale-cancel', source_id: 1 });
      resettle(d);
    },
    [['document-stock', 'company 2 sale-cancel 1']],
  ],
  [
    'a complete cancellation of a sale not marked cancelled',
    (d) => {
      one(d.sales, { companyId: 1, saleId: 4 }).cancelled = null;
    },
    [['document-entry', 'company 1 sale 4']],
  ],
  [
    'a sale marked cancelled whose only cancellation failed (an earlier failed attempt beside a complete one is fine)',
    (d) => {
      d.sale_cancels.push({ companyId: 2, cancelId: 2, saleId: 4, status: 'failed', reason: 'x', date: day });
      d.sales.push({ ...one(d.sales, { companyId: 2, saleId: 1 }), saleId: 5, status: 'complete', lines: [], amount: '0.00', paid: '0.00', gst: null, cancelled: { date: day, reason: 'x', by: 1 } });
      d.entries.push({ companyId: 2, seq: 98, partyKind: 'customer', partyId: 102, entryKind: 'sale', sourceKind: 'sale', sourceId: 5, amount: '0.00', paid: '0.00', delta: '0.00', date: day });
      d.stock_sources.push({ companyId: 2, kind: 'sale', id: 5, reversed: false, at });
      d.sale_cancels.push({ companyId: 2, cancelId: 3, saleId: 5, status: 'failed', reason: 'x', date: day });
    },
    [['half-applied', 'company 2 sale 5']],
  ],
  [
    "a gap in a year's credit note numbers",
    (d) => {
      Object.assign(one(d.credit_notes, { companyId: 2, creditNoteId: 1 }), { serial: 2, credit_note_no: 'CN/26-27/0002' });
    },
    [['note-series', 'company 2 credit notes 26-27']],
  ],
  [
    'a complete debit note without a number',
    (d) => {
      Object.assign(one(d.debit_notes, { companyId: 2, debitNoteId: 1 }), { serial: 0, debit_note_no: '' });
    },
    [['note-series', 'company 2 debit-note 1']],
  ],
];

it.each(plants)('reports %s, and nothing else', async (_what, plant, want) => {
  const d = consistent();
  plant(d);
  const r = await auditOf(d);
  const got = [...new Set(r.findings.map((f) => `${f.kind} | ${f.record}`))].sort();
  expect(got).toEqual(want.map(([k, rec]) => `${k} | ${rec}`).sort());
  // Every finding is also a sentence in the operator's list, naming the record.
  for (const f of r.findings) expect(r.violations).toContain(f.message);
  for (const [, rec] of want) expect(r.violations.some((v) => v.startsWith(`${rec}:`))).toBe(true);
});
