import { JSONCodec } from 'nats';
import { DocumentSubjects, EventSubjects as E, type HistoryEvent } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { openTable } from '@bahi/tabular';
import { addDays } from '../src/params';
import { startReports, tokenFor, type Stack } from './helpers';

const D = today();
const at = new Date().toISOString();
const base = (eventId: string, companyId = 1) => ({ eventId, companyId, occurredAt: at, date: D });

const saleLine = (sl_no: number, product_id: number, name: string, units: string, rate: string, amount: string, cp: string | null) => ({
  sl_no, product_id, product_name: name, unit: 'pcs', quantity: units, per_peice_quantity: '1', units, rate, disc: '0', amount, cp,
  taxable_value: null, gst_rate: null, cgst: null, sgst: null, igst: null,
});
const sale = (saleId: number, clientId: number, lines: ReturnType<typeof saleLine>[], amount: string, paid: string, companyId = 1) => ({
  ...base(`sale:${companyId}:${saleId}:completed`, companyId), saleId, clientId, customerName: 'Asha Verma', walkIn: false, lines,
  subtotal: amount, tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount, paid, dueDate: D, gst: null,
});
const entry = (eventId: string, kind: string, partyKind: 'customer' | 'distributor', partyId: number, source: { kind: string; id: number }, seq: number, delta: string, companyId = 1) => ({
  ...base(eventId, companyId), entryKind: kind, party: { kind: partyKind, id: partyId }, source, seq, amount: delta.replace('-', ''), paid: '0', delta, dueDate: D, docNo: null,
});
const product = (id: number, name: string, category: string, cp: string, mrp: string, min: string, occurredAt = at) => ({
  ...base(`product:1:${id}:${occurredAt}`), occurredAt, product_id: id, product_name: name, category: { id: 1, name: category }, brand_name: 'House', unit: 'pcs',
  cp, mrp, min_stock: min, default_stock: '0', stock: '0', hsn_code: '', active: 1,
});
const stock = (id: string, kind: string, sourceId: number, moves: [number, string][]) => ({
  ...base(`stock:1:${kind}:${sourceId}:${id}`), fact: 'applied', source: { kind, id: sourceId },
  movements: moves.map(([product_id, quantity], i) => ({ product_id, line: i + 1, quantity, rate: '0', stock: '0' })),
});

/** An opening balance older than the streams hold: only the ledger's history knows it. */
const history: HistoryEvent[] = [
  { subject: E.ledger.entryPosted, event: { ...entry('entry:1:opening:9', 'opening', 'customer', 9, { kind: 'opening', id: 9 }, 1, '25.00'), date: '2025-01-10' } as never },
  { subject: E.ledger.entryPosted, event: { ...entry('entry:1:opening:11', 'opening', 'customer', 11, { kind: 'opening', id: 11 }, 2, '100.00'), date: addDays(D, -45) } as never },
];

let s: Stack;

/** The small day of the money tests, published deliberately out of order (notes and a cancel before their sales). */
async function publishDay() {
  // Inventory: stock moves before the products they move are described, then the products, an older change last.
  await s.publish(E.inventory.stockMoved, stock('a', 'purchase', 1, [[1, '20'], [2, '10']]));
  await s.publish(E.inventory.productChanged, product(1, 'Rice 5kg', 'Grocery', '40.00', '50.00', '5'));
  await s.publish(E.inventory.productChanged, product(2, 'Soap', 'Personal', '20.00', '30.00', '10'));
  await s.publish(E.inventory.productChanged, product(2, 'Soap (old name)', 'Old', '1.00', '1.00', '0', new Date(Date.now() - 86_400_000).toISOString()));
  await s.publish(E.inventory.purchaseCompleted, {
    ...base('purchase:1:1:completed'), purchaseId: 1, bill_no: 'ET-2231', distributorId: 7, distributorName: 'Eastern Traders', lines: [], subtotal: '1000.00', tax: 0, taxAmount: '0',
    shipping: '0', discount: '0', amount: '1000.00', paid: '400.00', dueDate: D, gst: null,
  });
  await s.publish(E.inventory.stockMoved, stock('b', 'sale', 1, [[1, '-2'], [2, '-3']]));
  await s.publish(E.inventory.stockMoved, stock('c', 'sale', 2, [[1, '-1']]));
  await s.publish(E.inventory.stockMoved, stock('d', 'sale-return', 1, [[2, '1']]));
  await s.publish(E.inventory.stockMoved, stock('e', 'sale-cancel', 2, [[1, '1']]));
  // Sales: the credit note of bill 1 and the cancel of bill 2 arrive before both bills.
  await s.publish(E.sales.saleReturned, {
    ...base('credit-note:1:1:completed'), creditNoteId: 1, credit_note_no: 'CN/26-27/0001', saleId: 1, clientId: 3, customerName: 'Asha Verma',
    lines: [{ sl_no: 2, product_id: 2, product_name: 'Soap', quantity: '1', units: '1', amount: '30.00', value: '30.00', cp: null }],
    subtotal: '30.00', discount: '0', tax: '0', shipping: '0', amount: '30.00', refund: '0', gst: null,
  });
  await s.publish(E.sales.saleCancelled, { ...base('sale:1:2:cancelled'), saleId: 2, clientId: 3, reason: 'Wrong bill', amount: '50.00', paid: '0' });
  await s.publish(E.sales.saleCompleted, sale(1, 3, [saleLine(1, 1, 'Rice 5kg', '2', '50', '100.00', '40.00'), saleLine(2, 2, 'Soap', '3', '30', '90.00', '20.00')], '190.00', '50.00'));
  await s.publish(E.sales.saleCompleted, sale(2, 3, [saleLine(1, 1, 'Rice 5kg', '1', '50', '50.00', '40.00')], '50.00', '0'));
  // Ledger: each party's due is the sum of its entries' deltas.
  // The money the documents moved (cash; the events carry no modes, as before modes existed).
  await s.publish(E.ledger.entryPosted, { ...entry('entry:1:purchase:1', 'purchase', 'distributor', 7, { kind: 'purchase', id: 1 }, 1, '600.00'), amount: '1000.00', paid: '400.00' });
  await s.publish(E.ledger.entryPosted, { ...entry('entry:1:sale:1', 'sale', 'customer', 3, { kind: 'sale', id: 1 }, 2, '140.00'), amount: '190.00', paid: '50.00' });
  await s.publish(E.ledger.entryPosted, entry('entry:1:sale:2', 'sale', 'customer', 3, { kind: 'sale', id: 2 }, 3, '50.00'));
  await s.publish(E.ledger.entryPosted, entry('entry:1:cn:1', 'credit_note', 'customer', 3, { kind: 'credit-note', id: 1 }, 4, '-30.00'));
  await s.publish(E.ledger.entryPosted, entry('entry:1:cancel:2', 'cancellation', 'customer', 3, { kind: 'sale-cancel', id: 2 }, 5, '-50.00'));
  await s.publish(E.ledger.paymentReceived, { ...entry('entry:1:payment:1', 'payment_received', 'customer', 3, { kind: 'payment', id: 1 }, 6, '-60.00'), paymentId: 1, payType: 'cash', transactionId: '' });
  // Another company's sale: never in company 1's reports.
  await s.publish(E.sales.saleCompleted, sale(1, 5, [saleLine(1, 1, 'Other', '1', '999', '999.00', '1.00')], '999.00', '999.00', 2));
}

async function allReports() {
  const paths = ['/reports/daybook', '/reports/sales-register', '/reports/purchase-register', '/reports/stock-summary', '/reports/profit?by=product', '/reports/profit?by=category', '/reports/profit?by=month', '/reports/ageing?side=receivable', '/reports/ageing?side=payable', '/reports/dashboard'];
  const out: Record<string, unknown> = {};
  for (const p of paths) {
    const res = await s.get(p).expect(200);
    out[p] = res.body;
  }
  return out;
}

beforeAll(async () => {
  s = await startReports(history);
  await s.consumers.caughtUp(60_000);
  await publishDay();
  await s.consumers.caughtUp(60_000);
}, 120_000);

afterAll(async () => {
  await s?.stop();
});

describe('reports from the event streams', () => {
  it('nets a return and a cancel that arrived before their bills in the sales register (hand-computed)', async () => {
    const res = await s.get(`/reports/sales-register?from=${D}&to=${D}`).expect(200);
    // Bill 1: 190.00 less the 30.00 credit note = 160.00; bill 2: 50.00, cancelled = 0.
    expect(res.body.rows.map((r: Record<string, unknown>) => [r.saleId, r.amount, r.returned, r.cancelled, r.net])).toEqual([
      [1, '190.00', '30.00', false, '160.00'],
      [2, '50.00', '0.00', true, '0.00'],
    ]);
    // amount 190 + 50 = 240; returned 30; cancelled 50; net 160; paid 50 + 0 = 50.
    expect(res.body.totals).toEqual({ count: 2, amount: '240.00', returned: '30.00', cancelled: '50.00', net: '160.00', paid: '50.00' });
    // One customer's register sums its rows; the whole register reads the per-day totals: the same here.
    const one = await s.get(`/reports/sales-register?from=${D}&to=${D}&clientId=3`).expect(200);
    expect(one.body.totals).toEqual(res.body.totals);
    const nobody = await s.get(`/reports/sales-register?from=${D}&to=${D}&clientId=4`).expect(200);
    expect(nobody.body).toMatchObject({ rows: [], totals: { count: 0, amount: '0.00' } });
    // The purchase: 1000.00, 400.00 paid.
    const pur = await s.get(`/reports/purchase-register?from=${D}&to=${D}`).expect(200);
    expect(pur.body.totals).toEqual({ count: 1, amount: '1000.00', returned: '0.00', net: '1000.00', paid: '400.00' });
    // A simple-mode purchase names the distributor's own bill number too.
    expect(pur.body.rows[0]).toMatchObject({ purchaseId: 1, bill_no: 'ET-2231' });
    expect((await s.get(`/reports/purchase-register?from=${D}&to=${D}&distributorId=7`).expect(200)).body.totals).toEqual(pur.body.totals);
  });

  it('books profit on the frozen costs, the return at its sold cost and the cancel back to nothing', async () => {
    const res = await s.get(`/reports/profit?from=${D}&to=${D}&by=product`).expect(200);
    // Rice: bill 1 2 x 50 = 100 at cost 2 x 40 = 80; bill 2 50 at 40, cancelled: 100 - 80 = 20.
    // Soap: 3 x 30 = 90 at 3 x 20 = 60, one back (30 at 20): 60 - 40 = 20. (The old change with cp 1.00 came late and is ignored.)
    expect(res.body.rows.map((r: Record<string, unknown>) => [r.productId, r.qty, r.value, r.cost, r.profit])).toEqual([
      [1, 2, '100.00', '80.00', '20.00'],
      [2, 2, '60.00', '40.00', '20.00'],
    ]);
    expect(res.body.totals).toEqual({ value: '160.00', cost: '120.00', valueWithoutCost: '0.00', profit: '40.00' });
    const byCat = await s.get(`/reports/profit?from=${D}&to=${D}&by=category`).expect(200);
    expect(byCat.body.rows.map((r: Record<string, unknown>) => [r.category, r.profit])).toEqual([
      ['Grocery', '20.00'],
      ['Personal', '20.00'],
    ]);
    // The month so far reads the month rows (highest value first, through their index): the same rows.
    const month = await s.get(`/reports/profit?from=${D.slice(0, 8)}01&to=${D}&by=product`).expect(200);
    expect(month.body.rows).toEqual(res.body.rows);
    expect(month.body.totals).toEqual(res.body.totals);
    const byMonth = await s.get(`/reports/profit?from=${D.slice(0, 8)}01&to=${D}&by=month`).expect(200);
    expect(byMonth.body.rows).toEqual([{ month: D.slice(0, 7), value: '160.00', cost: '120.00', valueWithoutCost: '0.00', profit: '40.00', marginPct: 25 }]);
  });

  it('moves a product\'s profit with it when its category changes later', async () => {
    await s.publish(E.inventory.productChanged, product(2, 'Soap', 'Bath', '20.00', '30.00', '10', new Date(Date.now() + 1000).toISOString()));
    await s.consumers.caughtUp(30_000);
    const byCat = await s.get(`/reports/profit?from=${D}&to=${D}&by=category`).expect(200);
    expect(byCat.body.rows.map((r: Record<string, unknown>) => [r.category, r.value, r.profit])).toEqual([
      ['Grocery', '100.00', '20.00'],
      ['Bath', '60.00', '20.00'],
    ]);
  });

  it('gives the day book, dashboard cards, ageing and stock (hand-computed)', async () => {
    const day = await s.get(`/reports/daybook?date=${D}`).expect(200);
    expect(day.body.rows).toHaveLength(6);
    // Cash in: bill 1 paid 50 + payment 60 = 110; out: the purchase's 400 paid.
    expect(day.body.totals).toMatchObject({ count: 6, cashIn: '110.00', cashOut: '400.00', bankIn: '0.00', bankOut: '0.00', byKind: { sale: '240.00', 'sale-return': '30.00', 'sale-cancel': '50.00', purchase: '1000.00', 'payment-received': '60.00' } });

    const dash = await s.get('/reports/dashboard').expect(200);
    // Sales 240 - returns 30 - cancelled 50 = 160; collections 50 + 60 = 110; new dues 140 + 50 less the
    // cancel's undone 50 less the note's 30 (no refund) = 110; no opening: cash 50 + 60 - 400 = -290 at the day's end.
    expect(dash.body.cards).toEqual({
      sales: { today: '160.00', yesterday: '0.00' },
      collections: { today: '110.00', yesterday: '0.00' },
      newDues: { today: '110.00', yesterday: '0.00' },
      cashInHand: { today: '-290.00', yesterday: '0.00' },
      bankBalance: { today: '0.00', yesterday: '0.00' },
    });
    expect(dash.body.series).toHaveLength(30);
    expect(dash.body.series[29]).toEqual({ date: D, sales: '160.00', collections: '110.00' });
    expect(dash.body.topByValue.map((r: { productId: number }) => r.productId)).toEqual([1, 2]);
    // Soap: 10 in - 3 sold + 1 back = 8, at or below its minimum of 10; rice 18 > 5.
    expect(dash.body.lowStock).toBe(1);
    // Customer 3: 140 + 50 - 30 - 50 - 60 = 50 (today); from the ledger's history: customer 9's 25.00 opening
    // of 2025-01-10 and customer 11's 100.00 of 45 days ago.
    expect(dash.body.receivables.buckets).toEqual({ b0_30: '50.00', b31_60: '100.00', b61_90: '0.00', b90: '25.00' });

    const pay = await s.get('/reports/ageing?side=payable').expect(200);
    expect(pay.body.rows).toEqual([expect.objectContaining({ partyId: 7, name: 'Eastern Traders', balance: '600.00', b0_30: '600.00' })]);
    expect(pay.body.totals.balance).toBe('600.00');

    const st = await s.get('/reports/stock-summary').expect(200);
    // Rice 20 - 2 - 1 + 1 = 18: 18 x 40 = 720 at cost, 18 x 50 = 900 at MRP; Soap 8: 160 and 240.
    expect(st.body.rows.map((r: Record<string, unknown>) => [r.name, r.stock, r.costValue, r.mrpValue])).toEqual([
      ['Rice 5kg', 18, '720.00', '900.00'],
      ['Soap', 8, '160.00', '240.00'],
    ]);
    expect(st.body.totals).toEqual({ products: 2, stock: 26, costValue: '880.00', mrpValue: '1140.00' });
    const grocery = await s.get('/reports/stock-summary?category=Grocery').expect(200);
    expect(grocery.body.totals).toEqual({ products: 1, stock: 18, costValue: '720.00', mrpValue: '900.00' });
  });

  it('ages a balance with payments clearing the oldest dues first', async () => {
    // Customer 11: an opening of 100.00 45 days ago (history), a bill's due of 80.00 today, 30.00 paid:
    // the payment clears 30 of the opening, so 70 is 31-60 days old and 80 is 0-30: 150 owed.
    await s.publish(E.ledger.entryPosted, entry('entry:1:sale:11', 'sale', 'customer', 11, { kind: 'sale', id: 11 }, 7, '80.00'));
    await s.publish(E.ledger.paymentReceived, { ...entry('entry:1:payment:11', 'payment_received', 'customer', 11, { kind: 'payment', id: 2 }, 8, '-30.00'), paymentId: 2, payType: 'cash', transactionId: '' });
    // A bill of 40.00 posted and then reversed (its sale undone): it takes back its own due, not the opening's.
    await s.publish(E.ledger.entryPosted, entry('entry:1:sale:12', 'sale', 'customer', 11, { kind: 'sale', id: 12 }, 9, '40.00'));
    await s.publish(E.ledger.entryPosted, entry('entry:1:sale:12:rev', 'reversal', 'customer', 11, { kind: 'sale', id: 12 }, 10, '-40.00'));
    await s.consumers.caughtUp(30_000);
    const res = await s.get('/reports/ageing?side=receivable').expect(200);
    expect(res.body.rows.map((r: Record<string, unknown>) => [r.partyId, r.balance, r.b0_30, r.b31_60, r.b61_90, r.b90])).toEqual([
      [9, '25.00', '0.00', '0.00', '0.00', '25.00'],
      [11, '150.00', '80.00', '70.00', '0.00', '0.00'],
      [3, '50.00', '50.00', '0.00', '0.00', '0.00'],
    ]);
    // 25 + 150 + 50 = 225; 0-30: 80 + 50 = 130.
    expect(res.body.totals).toEqual({ parties: 3, balance: '225.00', b0_30: '130.00', b31_60: '70.00', b61_90: '0.00', b90: '25.00' });
  });

  it('counts a redelivered event once', async () => {
    const before = await allReports();
    // The same sale again under another message id (JetStream's de-duplication does not catch it): the event id does.
    await s.publish(E.sales.saleCompleted, sale(1, 3, [saleLine(1, 1, 'Rice 5kg', '2', '50', '100.00', '40.00'), saleLine(2, 2, 'Soap', '3', '30', '90.00', '20.00')], '190.00', '50.00'), 'another-msg-id');
    await s.publish(E.ledger.paymentReceived, { ...entry('entry:1:payment:1', 'payment_received', 'customer', 3, { kind: 'payment', id: 1 }, 6, '-60.00'), paymentId: 1, payType: 'cash', transactionId: '' }, 'again');
    await s.consumers.caughtUp(30_000);
    expect(await allReports()).toEqual(before);
  });

  it('keeps companies apart and lets only managers in', async () => {
    const other = await s.get(`/reports/sales-register?from=${D}&to=${D}`, tokenFor(2)).expect(200);
    expect(other.body.totals).toMatchObject({ count: 1, amount: '999.00' });
    // Company 2 knows only the product its own bill sold (no stock moved for it).
    const other2 = await s.get('/reports/stock-summary', tokenFor(2)).expect(200);
    expect(other2.body.rows.map((r: Record<string, unknown>) => [r.name, r.stock])).toEqual([['Other', 0]]);
    expect(other2.body.totals).toEqual({ products: 1, stock: 0, costValue: '0.00', mrpValue: '0.00' });
    for (const p of ['/reports/daybook', '/reports/sales-register', '/reports/purchase-register', '/reports/stock-summary', '/reports/profit', '/reports/ageing', '/reports/dashboard', '/reports/daybook?format=csv']) {
      await s.get(p, tokenFor(1, 'staff')).expect(403);
    }
    const res = await s.get('/reports/daybook').set('Authorization', '');
    expect(res.status).toBe(401);
  });

  it('refuses bad parameters with a sentence naming the field', async () => {
    const cases: [string, RegExp][] = [
      ['/reports/daybook?date=2026-02-30', /date/],
      ['/reports/sales-register?from=2026-05-02&to=2026-05-01', /from/],
      ['/reports/sales-register?clientId=abc', /clientId/],
      ['/reports/purchase-register?distributorId=0', /distributorId/],
      ['/reports/profit?by=colour', /by/],
      ['/reports/ageing?side=both', /side/],
      ['/reports/daybook?format=pdf', /format/],
      ['/reports/sales-register?from=2020-01-01&to=2026-01-01', /400 days/],
    ];
    for (const [p, re] of cases) {
      const res = await s.get(p).expect(400);
      expect(String(res.body.message)).toMatch(re);
    }
  });

  it('answers documents over NATS with the same report as its JSON route, the same 400s, and no rows past maxRows', async () => {
    const ask = async (payload: Record<string, unknown>) => {
      const msg = await s.nc.request(DocumentSubjects.reportRows, JSONCodec().encode({ id: 'r1', pattern: DocumentSubjects.reportRows, data: payload }), { timeout: 10_000 });
      return JSONCodec<{ response?: Record<string, any>; err?: { status: number; message: string } }>().decode(msg.data);
    };
    for (const [name, query, path] of [
      ['sales-register', { from: D, to: D }, `/reports/sales-register?from=${D}&to=${D}`],
      ['profit', { from: D, to: D, by: 'category' }, `/reports/profit?from=${D}&to=${D}&by=category`],
      ['ageing', { side: 'payable' }, '/reports/ageing?side=payable'],
      ['daybook', { date: D }, `/reports/daybook?date=${D}`],
    ] as const) {
      const http = (await s.get(path).expect(200)).body;
      const r = await ask({ companyId: 1, name, query, maxRows: 100 });
      expect(r.response).toMatchObject({ name, more: false });
      expect(r.response!.report.rows).toEqual(http.rows);
      expect(r.response!.report.totals).toEqual(http.totals);
    }
    // The company is the payload's (documents puts the token's there): company 2's register.
    expect((await ask({ companyId: 2, name: 'sales-register', query: { from: D, to: D }, maxRows: 100 })).response!.report.totals).toMatchObject({ count: 1, amount: '999.00' });
    // Two bills, one allowed: no rows, `more`; the totals still whole.
    const cut = await ask({ companyId: 1, name: 'sales-register', query: { from: D, to: D }, maxRows: 1 });
    expect(cut.response).toMatchObject({ more: true, report: { rows: [], totals: { count: 2, net: '160.00' } } });
    expect((await ask({ companyId: 1, name: 'profit', query: { by: 'colour' }, maxRows: 10 })).err).toMatchObject({ status: 400, message: 'by must be one of product, category, month.' });
    expect((await ask({ companyId: 1, name: 'cashflow', query: {}, maxRows: 10 })).err).toMatchObject({ status: 400 });
  });

  it('exports a report as CSV and XLSX with the same rows', async () => {
    const res = await s.get(`/reports/sales-register?from=${D}&to=${D}&format=csv`).expect(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.text.replace(/^\uFEFF/, '').trim().split(/\r\n/);
    expect(lines[0]).toMatch(/^Bill,Date,Invoice no,Customer,Amount,Returned,Cancelled,Net,Paid$/);
    expect(lines.slice(1)).toHaveLength(2);
    expect(lines[1]).toContain('190.00');
    // The same report as XLSX, read back: its two bills with their net as numbers.
    const xlsx = await s
      .get(`/reports/sales-register?from=${D}&to=${D}&format=xlsx`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const table = await openTable(xlsx.body as Buffer);
    expect(table.headers).toContain('Net');
    const nets: string[] = [];
    for await (const r of table.rows) nets.push(r.values[table.headers.indexOf('Net')]!);
    expect(nets).toEqual(['160', '0']);
  });

  it('rebuilt from zero (history, then the streams from the start) equals the live read model', async () => {
    const live = await allReports();
    await s.consumers.rebuild();
    await s.consumers.caughtUp(60_000);
    expect(await allReports()).toEqual(live);
  }, 90_000);
});
