// Issue 29's figures from the owners' events, hand-computed: profit before tax and shipping net of
// the summary discount (GST mode, simple mode, a mixed GST bill), cash in hand and the bank balance
// by payment mode from the books' opening, the day book's cash and bank, the cash and bank books
// with running balances, new dues net of cancels and credit notes, low stock only with a minimum,
// profit and loss by month with expenses (their latest version).
import { EventSubjects as E } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { addDays } from '../src/params';
import { startReports, tokenFor, type Stack } from './helpers';

const CO = 5;
const D1 = today();
const D0 = addDays(D1, -1);
const token = tokenFor(CO);
let clock = Date.parse('2026-01-01T04:00:00Z');
/** Each event a later commit time than the one before (the day book and cash book order). */
const next = () => new Date((clock += 60_000)).toISOString();
const base = (eventId: string, date: string) => ({ eventId, companyId: CO, occurredAt: next(), date });
type Pay = { mode: string; amount: string };

const line = (sl_no: number, product_id: number, name: string, units: string, rate: string, amount: string, cp: string, net_value: string, line_taxable: string | null = null) => ({
  sl_no, product_id, product_name: name, unit: 'pcs', quantity: units, per_peice_quantity: '1', units, rate, disc: '0', amount, cp,
  taxable_value: line_taxable, gst_rate: null, cgst: null, sgst: null, igst: null, line_taxable, net_value,
});
const sale = (saleId: number, date: string, lines: ReturnType<typeof line>[], o: { subtotal: string; discount?: string; shipping?: string; amount: string; paid: string; gst?: boolean }) => ({
  ...base(`sale:${CO}:${saleId}:completed`, date), saleId, clientId: 3, customerName: 'Asha Verma', walkIn: false, lines,
  subtotal: o.subtotal, tax: 0, taxAmount: '0', shipping: o.shipping ?? '0', discount: o.discount ?? '0', amount: o.amount, paid: o.paid, dueDate: date,
  gst: o.gst ? { tax_mode: 'gst', invoice_no: `INV-${saleId}`, inter_state: false, taxable_total: '0', cgst_total: '0', sgst_total: '0', igst_total: '0', round_off: '0' } : null,
});
let seq = 0;
const entry = (kind: string, partyKind: 'customer' | 'distributor', partyId: number, source: { kind: string; id: number }, date: string, amount: string, paid: string, delta: string, payments: Pay[]) => ({
  ...base(`entry:${CO}:${++seq}`, date), entryKind: kind, party: { kind: partyKind, id: partyId }, source, seq, amount, paid, delta, dueDate: null, docNo: null, payments, by: 21,
});
const payment = (kind: 'payment_received' | 'payment_given', partyKind: 'customer' | 'distributor', partyId: number, id: number, date: string, amount: string, payments: Pay[]) => ({
  ...entry(kind, partyKind, partyId, { kind: 'payment', id }, date, amount, '0', kind === 'payment_received' ? `-${amount}` : `-${amount}`, payments), paymentId: id, payType: payments[0]!.mode, transactionId: '',
});
const expense = (expenseId: number, version: number, date: string, category: string, amount: string, payments: Pay[], deleted = false) => ({
  ...base(`expense:${CO}:${expenseId}:${version}`, date), expenseId, version, category, amount, payments, note: `${category} note`, by: { id: 21, name: 'Manager' }, deleted,
});
const product = (id: number, name: string, min: string) => ({
  ...base(`product:${CO}:${id}`, D1), product_id: id, product_name: name, category: { id: 1, name: 'Store' }, brand_name: 'House', unit: 'pcs',
  cp: '1.00', mrp: '2.00', min_stock: min, default_stock: '0', stock: '0', hsn_code: '', active: 1,
});

let s: Stack;

beforeAll(async () => {
  s = await startReports();
  await s.consumers.caughtUp(60_000);
  const P = (subject: string, e: Record<string, unknown>) => s.publish(subject, e);
  // Day one: the books open with 10,000.00 cash and 2,500.00 in the bank (an older version arriving late changes nothing).
  await P(E.ledger.openingSet, { ...base(`opening:${CO}:2`, D0), cash: '10000.00', bank: '2500.00', version: 2 });
  await P(E.ledger.openingSet, { ...base(`opening:${CO}:1`, D0), cash: '1.00', bank: '1.00', version: 1 });
  // Bill 1, GST mode: 2 plywood at 1,180.00 incl. 18 % (cost 800.00): taxable 2,000.00 (its net value); paid 2,360.00 cash.
  await P(E.sales.saleCompleted, sale(1, D0, [line(1, 1, 'Plywood', '2', '1180', '2360.00', '800', '2000.00', '2000.00')], { subtotal: '2360.00', amount: '2360.00', paid: '2360.00', gst: true }));
  await P(E.ledger.entryPosted, entry('sale', 'customer', 3, { kind: 'sale', id: 1 }, D0, '2360.00', '2360.00', '0', [{ mode: 'cash', amount: '2360.00' }]));
  // Bill 2, simple mode: rice 2 x 100.00 (cost 70.00), soap 4 x 25.00 (cost 15.00); 30.00 off the bill by
  // 200 : 100 -> 20.00 and 10.00: net 180.00 and 90.00; 18 % tax and 20.00 shipping on top: 338.60,
  // paid 138.60 cash + 200.00 UPI.
  await P(E.sales.saleCompleted, sale(2, D0, [line(1, 2, 'Rice', '2', '100', '200.00', '70', '180.00'), line(2, 3, 'Soap', '4', '25', '100.00', '15', '90.00')], { subtotal: '300.00', discount: '30.00', shipping: '20.00', amount: '338.60', paid: '338.60' }));
  await P(E.ledger.entryPosted, entry('sale', 'customer', 3, { kind: 'sale', id: 2 }, D0, '338.60', '338.60', '0', [{ mode: 'cash', amount: '138.60' }, { mode: 'upi', amount: '200.00' }]));
  // Bill 3 (today), a mixed GST bill: 10 tiles at 118.00 incl. 18 % (line taxable 1,000.00, cost 70.00) and 5 cement at
  // 280.00 incl. 28 % (1,400 x 100 / 128 = 1,093.75, cost 200.00); 50.00 off by 1,000 : 1,093.75 -> 23.88 and 26.12:
  // net 976.12 and 1,067.63 (100.00 shipping is not the goods'). Invoice 2,642.00: 642.00 cash + 1,000.00 card, 1,000.00 due.
  await P(E.sales.saleCompleted, sale(3, D1, [line(1, 4, 'Tile', '10', '118', '1180.00', '70', '976.12', '1000.00'), line(2, 5, 'Cement', '5', '280', '1400.00', '200', '1067.63', '1093.75')], { subtotal: '2580.00', discount: '50.00', shipping: '100.00', amount: '2642.00', paid: '1642.00', gst: true }));
  await P(E.ledger.entryPosted, entry('sale', 'customer', 3, { kind: 'sale', id: 3 }, D1, '2642.00', '1642.00', '1000.00', [{ mode: 'cash', amount: '642.00' }, { mode: 'card', amount: '1000.00' }]));
  // Bill 4: a chair 600.00 (cost 450.00), 500.00 paid in cash at the counter, then cancelled: the 500.00 goes back in cash.
  await P(E.sales.saleCompleted, sale(4, D1, [line(1, 6, 'Chair', '1', '600', '600.00', '450', '600.00')], { subtotal: '600.00', amount: '600.00', paid: '500.00' }));
  await P(E.ledger.entryPosted, entry('sale', 'customer', 3, { kind: 'sale', id: 4 }, D1, '600.00', '500.00', '100.00', [{ mode: 'cash', amount: '500.00' }]));
  await P(E.sales.saleCancelled, { ...base(`sale:${CO}:4:cancelled`, D1), saleId: 4, clientId: 3, reason: 'Wrong bill', amount: '600.00', paid: '500.00', cancelId: 1 });
  await P(E.ledger.entryPosted, entry('cancellation', 'customer', 3, { kind: 'sale-cancel', id: 1 }, D1, '600.00', '500.00', '-100.00', [{ mode: 'cash', amount: '500.00' }]));
  // A credit note on bill 2: 1 rice back (124.34 with its tax), 50.00 refunded by UPI; its profit back is half the rice line: 90.00 at 70.00.
  await P(E.sales.saleReturned, {
    ...base(`credit-note:${CO}:1:completed`, D1), creditNoteId: 1, credit_note_no: 'CN-1', saleId: 2, clientId: 3, customerName: 'Asha Verma',
    lines: [{ sl_no: 1, product_id: 2, product_name: 'Rice', quantity: '1', units: '1', amount: '100.00', value: '124.34', cp: '70' }],
    subtotal: '100.00', discount: '10.00', tax: '16.20', shipping: '18.14', amount: '124.34', refund: '50.00', gst: null,
  });
  await P(E.ledger.entryPosted, entry('credit_note', 'customer', 3, { kind: 'credit-note', id: 1 }, D1, '124.34', '50.00', '-74.34', [{ mode: 'upi', amount: '50.00' }]));
  // Money in and out: 300.00 received by bank transfer; a purchase of 5,000.00 with 1,500.00 cash + 500.00 cheque paid; 700.00 given by UPI.
  await P(E.ledger.paymentReceived, payment('payment_received', 'customer', 3, 1, D1, '300.00', [{ mode: 'bank', amount: '300.00' }]));
  await P(E.inventory.purchaseCompleted, {
    ...base(`purchase:${CO}:1:completed`, D1), purchaseId: 1, bill_no: 'ET-1', distributorId: 7, distributorName: 'Eastern Traders', lines: [], subtotal: '5000.00', tax: 0, taxAmount: '0',
    shipping: '0', discount: '0', amount: '5000.00', paid: '2000.00', dueDate: D1, gst: null,
  });
  await P(E.ledger.entryPosted, entry('purchase', 'distributor', 7, { kind: 'purchase', id: 1 }, D1, '5000.00', '2000.00', '3000.00', [{ mode: 'cash', amount: '1500.00' }, { mode: 'cheque', amount: '500.00' }]));
  await P(E.ledger.paymentGiven, payment('payment_given', 'distributor', 7, 2, D1, '700.00', [{ mode: 'upi', amount: '700.00' }]));
  // Expenses: rent 1,200.00 by bank; tea 80.00 cash edited to 90.00 (its first version arriving again late changes
  // nothing); electricity 400.00 cash, deleted.
  await P(E.ledger.expenseChanged, expense(1, 1, D1, 'rent', '1200.00', [{ mode: 'bank', amount: '1200.00' }]));
  await P(E.ledger.expenseChanged, expense(2, 1, D1, 'tea', '80.00', [{ mode: 'cash', amount: '80.00' }]));
  await P(E.ledger.expenseChanged, expense(2, 2, D1, 'tea', '90.00', [{ mode: 'cash', amount: '90.00' }]));
  await s.publish(E.ledger.expenseChanged, expense(2, 1, D1, 'tea', '80.00', [{ mode: 'cash', amount: '80.00' }]), `late-${CO}-2-1`);
  await P(E.ledger.expenseChanged, expense(3, 1, D1, 'electricity', '400.00', [{ mode: 'cash', amount: '400.00' }]));
  await P(E.ledger.expenseChanged, expense(3, 2, D1, 'electricity', '400.00', [{ mode: 'cash', amount: '400.00' }], true));
  // Stock: a product with no minimum at 0 is not low; one at 2 with a minimum of 5 is.
  await P(E.inventory.productChanged, product(10, 'No minimum', '0'));
  await P(E.inventory.productChanged, product(11, 'Glue', '5'));
  await P(E.inventory.stockMoved, { ...base(`stock:${CO}:purchase:9`, D1), fact: 'applied', source: { kind: 'purchase', id: 9 }, movements: [{ product_id: 11, line: 1, quantity: '2', rate: '1', stock: '2' }] });
  await s.consumers.caughtUp(60_000);
}, 180_000);

afterAll(() => s?.stop());

const get = async (path: string) => (await s.get(path, token).expect(200)).body;

describe('issue 29 figures (hand-computed)', () => {
  it('measures profit before tax and shipping, net of the summary discount, in both modes and a mixed bill', async () => {
    const byProduct = await get(`/reports/profit?from=${D0}&to=${D1}&by=product`);
    const rows = Object.fromEntries(byProduct.rows.map((r: Record<string, unknown>) => [r.name, [r.qty, r.value, r.cost, r.profit]]));
    expect(rows).toEqual({
      // GST: 2,000.00 - 1,600.00 = 400.00 (the 360.00 of tax is the government's).
      Plywood: [2, '2000.00', '1600.00', '400.00'],
      // Simple: 180.00 - 140.00 = 40.00, one back at 90.00 - 70.00: 90.00 - 70.00 = 20.00.
      Rice: [1, '90.00', '70.00', '20.00'],
      Soap: [4, '90.00', '60.00', '30.00'],
      // Mixed GST bill: 976.12 - 700.00 = 276.12; 1,067.63 - 1,000.00 = 67.63.
      Tile: [10, '976.12', '700.00', '276.12'],
      Cement: [5, '1067.63', '1000.00', '67.63'],
      // The cancelled chair nets to nothing: no row.
    });
    // 400 + 20 + 30 + 276.12 + 67.63 = 793.75 on 4,223.75.
    expect(byProduct.totals).toEqual({ value: '4223.75', cost: '3430.00', valueWithoutCost: '0.00', profit: '793.75' });
    expect((await get(`/reports/profit?from=${D0}&to=${D0}&by=product`)).totals.profit).toBe('470.00');
  });

  it('keeps cash in hand and the bank balance by payment mode from the opening (dashboard)', async () => {
    const dash = await get('/reports/dashboard');
    // Cash: 10,000.00 + 2,360.00 + 138.60 = 12,498.60 at day one's end; today + 642.00 + 500.00 - 500.00 (the
    // cancelled bill's counter payment given back) - 1,500.00 - 90.00 = 11,550.60.
    expect(dash.cards.cashInHand).toEqual({ today: '11550.60', yesterday: '12498.60' });
    // Bank: 2,500.00 + 200.00 UPI = 2,700.00; today + 1,000.00 card - 50.00 UPI refund + 300.00 - 500.00 cheque - 700.00 UPI - 1,200.00 rent = 1,550.00.
    expect(dash.cards.bankBalance).toEqual({ today: '1550.00', yesterday: '2700.00' });
    // New dues today: 1,000.00 + 100.00 - the cancel's undone 100.00 - the note's (124.34 - 50.00) = 925.66; day one's bills were paid.
    expect(dash.cards.newDues).toEqual({ today: '925.66', yesterday: '0.00' });
    // Only Glue (2 <= 5) is low; a product with no minimum never is.
    expect(dash.lowStock).toBe(1);
  });

  it('splits the day book into cash and bank, each row with its payments, expenses as rows', async () => {
    const day = await get(`/reports/daybook?date=${D1}`);
    // Cash in 642.00 + 500.00; out 500.00 + 1,500.00 + 90.00. Bank in 1,000.00 + 300.00; out 50.00 + 500.00 + 700.00 + 1,200.00.
    expect(day.totals).toMatchObject({ count: 9, cashIn: '1142.00', cashOut: '2090.00', bankIn: '1300.00', bankOut: '2450.00' });
    expect(day.totals.byKind).toMatchObject({ expense: '1290.00', 'sale-cancel': '600.00' });
    const rows = day.rows.map((r: Record<string, unknown>) => [r.kind, r.ref, r.cashIn, r.cashOut, r.bankIn, r.bankOut, r.payments]);
    expect(rows).toEqual([
      ['sale', 3, '642.00', '0.00', '1000.00', '0.00', [{ mode: 'cash', amount: '642.00' }, { mode: 'card', amount: '1000.00' }]],
      ['sale', 4, '500.00', '0.00', '0.00', '0.00', [{ mode: 'cash', amount: '500.00' }]],
      ['sale-cancel', 4, '0.00', '500.00', '0.00', '0.00', [{ mode: 'cash', amount: '500.00' }]],
      ['sale-return', 1, '0.00', '0.00', '0.00', '50.00', [{ mode: 'upi', amount: '50.00' }]],
      ['payment-received', 1, '0.00', '0.00', '300.00', '0.00', [{ mode: 'bank', amount: '300.00' }]],
      ['purchase', 1, '0.00', '1500.00', '0.00', '500.00', [{ mode: 'cash', amount: '1500.00' }, { mode: 'cheque', amount: '500.00' }]],
      ['payment-given', 2, '0.00', '0.00', '0.00', '700.00', [{ mode: 'upi', amount: '700.00' }]],
      ['expense', 1, '0.00', '0.00', '0.00', '1200.00', [{ mode: 'bank', amount: '1200.00' }]],
      ['expense', 2, '0.00', '90.00', '0.00', '0.00', [{ mode: 'cash', amount: '90.00' }]],
    ]);
    expect(day.rows[7]).toMatchObject({ party: 'rent', amount: '1200.00', note: 'rent note' });
  });

  it('lists every cash movement with its running balance from the opening, and the bank book from a later day', async () => {
    const cash = await get(`/reports/cashbook?from=${D0}&to=${D1}&mode=cash`);
    expect(cash.rows.map((r: Record<string, unknown>) => [r.date, r.kind, r.in, r.out, r.balance])).toEqual([
      [D0, 'sale', '2360.00', '0.00', '12360.00'],
      [D0, 'sale', '138.60', '0.00', '12498.60'],
      [D1, 'sale', '642.00', '0.00', '13140.60'],
      [D1, 'sale', '500.00', '0.00', '13640.60'],
      [D1, 'sale-cancel', '0.00', '500.00', '13140.60'],
      [D1, 'purchase', '0.00', '1500.00', '11640.60'],
      [D1, 'expense', '0.00', '90.00', '11550.60'],
    ]);
    // In 2,360.00 + 138.60 + 642.00 + 500.00 = 3,640.60; out 500.00 + 1,500.00 + 90.00 = 2,090.00.
    expect(cash.totals).toEqual({ opening: '10000.00', in: '3640.60', out: '2090.00', closing: '11550.60' });
    // The cancellation names its bill (4), not its own ledger source.
    expect(cash.rows[4]).toMatchObject({ kind: 'sale-cancel', source: 'sale-cancel', ref: 4, payments: [{ mode: 'cash', amount: '500.00' }] });
    expect(cash.openingDate).toBe(D0);
    // A range starting before the opening counts nothing before it.
    expect((await get(`/reports/cashbook?from=${addDays(D0, -3)}&to=${D1}&mode=cash`)).totals).toEqual(cash.totals);
    const bank = await get(`/reports/cashbook?from=${D1}&to=${D1}&mode=bank`);
    expect(bank.rows.map((r: Record<string, unknown>) => [r.kind, r.in, r.out, r.balance])).toEqual([
      ['sale', '1000.00', '0.00', '3700.00'],
      ['sale-return', '0.00', '50.00', '3650.00'],
      ['payment-received', '300.00', '0.00', '3950.00'],
      ['purchase', '0.00', '500.00', '3450.00'],
      ['payment-given', '0.00', '700.00', '2750.00'],
      ['expense', '0.00', '1200.00', '1550.00'],
    ]);
    expect(bank.totals).toEqual({ opening: '2700.00', in: '1300.00', out: '2450.00', closing: '1550.00' });
    expect(bank.rows[3]).toMatchObject({ party: 'Eastern Traders', payments: [{ mode: 'cheque', amount: '500.00' }] });
  });

  it('gives profit and loss by month with the expenses (latest versions, deleted ones out)', async () => {
    const pnl = await get(`/reports/pnl?from=${D0}&to=${D1}`);
    // Sales 4,223.75, cost 3,430.00, gross 793.75; expenses rent 1,200.00 + tea 90.00 = 1,290.00; net -496.25.
    expect(pnl.totals).toEqual({ sales: '4223.75', cost: '3430.00', gross_profit: '793.75', expenses: '1290.00', net_profit: '-496.25', valueWithoutCost: '0.00' });
    const months = [...new Set([D0.slice(0, 7), D1.slice(0, 7)])];
    expect(pnl.rows.map((r: { month: string }) => r.month)).toEqual(months);
    const paise = (k: string) => pnl.rows.reduce((t: number, r: Record<string, string>) => t + Math.round(Number(r[k]) * 100), 0);
    expect(paise('net_profit')).toBe(-49_625);
    // Day one alone: 2,270.00 - 1,800.00 = 470.00, no expenses.
    expect((await get(`/reports/pnl?from=${D0}&to=${D0}`)).totals).toMatchObject({ sales: '2270.00', cost: '1800.00', gross_profit: '470.00', expenses: '0.00', net_profit: '470.00' });
  });

  it('refuses bad parameters with a sentence and staff with 403', async () => {
    expect((await s.get(`/reports/cashbook?mode=card`, token).expect(400)).body.message).toBe('mode must be one of cash, bank.');
    expect((await s.get(`/reports/pnl?from=${D1}&to=${D0}`, token).expect(400)).body.message).toBe('from must be on or before to.');
    await s.get('/reports/cashbook', tokenFor(CO, 'staff')).expect(403);
    await s.get('/reports/pnl', tokenFor(CO, 'staff')).expect(403);
    // Another company sees none of it.
    expect((await s.get(`/reports/cashbook?from=${D0}&to=${D1}`, tokenFor(6)).expect(200)).body).toMatchObject({ rows: [], totals: { opening: '0.00', closing: '0.00' } });
  });
});
