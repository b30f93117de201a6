// The reports auditor is shown a read model that agrees with the owners' data, then one that lost
// an event and one that counted an event twice: it must stay silent, then name each difference.
import { startMongo, type MongoHandle } from '@bahi/devstack';
import { MongoClient } from 'mongodb';
import { auditReports } from '../src/audit-reports';

let mongo: MongoHandle;
let client: MongoClient;
let n = 0;

beforeAll(async () => {
  mongo = await startMongo();
  client = await MongoClient.connect(mongo.uri);
});
afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

const day = '2026-11-20';
const at = (hhmm: string) => new Date(`${day}T${hhmm}:00.000Z`);

/**
 * Owner data: a 190.00 bill (50.00 paid: 30.00 cash, 20.00 UPI) with a 30.00 credit note, a
 * 1000.00 purchase (400.00 paid in cash, before payment modes), a 25.00 cash payment, the ledger
 * entries, two products; expenses (tea 15.00 cash by the cashier, electricity 120.00 UPI by the
 * manager, a deleted one); the cashier's closed register session.
 */
async function owners(p: string, over: { sessions?: object[] } = {}) {
  await client.db(`${p}_sales`).collection('sales').insertMany([
    {
      companyId: 1, saleId: 1, date: day, status: 'complete', amount: '190.00', paid: '50.00',
      // Frozen costs: 2 x 40.00 + 1 x 30.00 = 110.00.
      lines: [{ sl_no: 1, quantity: '2', per_peice_quantity: '1', cp: '40.00' }, { sl_no: 2, quantity: '1', per_peice_quantity: '1', cp: '30.00' }],
    },
    { companyId: 1, saleId: 2, date: day, status: 'failed', amount: '80.00', paid: '0', lines: [{ sl_no: 1, quantity: '1', per_peice_quantity: '1', cp: '50.00' }] },
    // Sold (3 x 10.00 = 30.00 of cost) and cancelled the same day: its cost goes back.
    { companyId: 1, saleId: 3, date: day, status: 'complete', amount: '45.00', paid: '0', lines: [{ sl_no: 1, quantity: '3', per_peice_quantity: '1', cp: '10.00' }] },
  ]);
  await client.db(`${p}_sales`).collection('sale_cancels').insertOne({ companyId: 1, saleId: 3, date: day, status: 'complete' });
  // The note takes line 2 back: 30.00 of cost.
  await client.db(`${p}_sales`).collection('credit_notes').insertOne({ companyId: 1, creditNoteId: 1, saleId: 1, date: day, status: 'complete', amount: '30.00', refund: '0', lines: [{ sl_no: 2, quantity: '1', per_peice_quantity: '1' }] });
  await client.db(`${p}_inventory`).collection('purchases').insertOne({ companyId: 1, purchaseId: 1, status: 'complete', total: '1000.00', paid: '400.00' });
  await client.db(`${p}_inventory`).collection('products').insertMany([{ companyId: 1, product_id: 1, stock_m: 18000 }, { companyId: 1, product_id: 2, stock_m: 7500 }]);
  await client.db(`${p}_ledger`).collection('entries').insertMany([
    { companyId: 1, seq: 1, partyKind: 'customer', partyId: 3, delta: '140.00' },
    { companyId: 1, seq: 2, partyKind: 'customer', partyId: 3, delta: '-30.00' },
    { companyId: 1, seq: 3, partyKind: 'distributor', partyId: 7, delta: '600.00' },
    // The money of those documents (delta 0 here: the balances above already hold the dues).
    { companyId: 1, seq: 4, date: day, entryKind: 'sale', sourceKind: 'sale', sourceId: 1, partyKind: 'customer', partyId: 3, amount: '190.00', paid: '50.00', delta: '0.00', payments: [{ mode: 'cash', amount: '30.00' }, { mode: 'upi', amount: '20.00' }], by: 11, createdAt: at('10:05') },
    { companyId: 1, seq: 5, date: day, entryKind: 'payment_received', sourceKind: 'payment', sourceId: 1, partyKind: 'customer', partyId: 3, amount: '25.00', paid: '0', delta: '0.00', payments: [{ mode: 'cash', amount: '25.00' }], by: 11, createdAt: at('10:20') },
    { companyId: 1, seq: 6, date: day, entryKind: 'purchase', sourceKind: 'purchase', sourceId: 1, partyKind: 'distributor', partyId: 7, amount: '1000.00', paid: '400.00', delta: '0.00', by: 12, createdAt: at('09:00') },
  ]);
  await client.db(`${p}_ledger`).collection('expenses').insertMany([
    { companyId: 1, expenseId: 1, date: day, category: 'Tea', amount: '15.00', payments: [{ mode: 'cash', amount: '15.00' }], by: { id: 11, name: 'Asha' }, version: 1, deleted: false, createdAt: at('10:30') },
    { companyId: 1, expenseId: 2, date: day, category: 'Electricity', amount: '120.00', payments: [{ mode: 'upi', amount: '120.00' }], by: { id: 12, name: 'Manager' }, version: 1, deleted: false, createdAt: at('11:00') },
    { companyId: 1, expenseId: 3, date: day, category: 'Tea', amount: '99.00', payments: [{ mode: 'cash', amount: '99.00' }], by: { id: 11, name: 'Asha' }, version: 2, deleted: true, createdAt: at('10:40') },
  ]);
  // Asha's session 10:00-12:00: cash 30.00 + 25.00 - 15.00 (tea) = 40.00; UPI 20.00.
  await client.db(`${p}_ledger`).collection('register_sessions').insertMany(
    (over.sessions ?? [{ companyId: 1, sessionId: 1, userId: 11, userName: 'Asha', date: day, openedAt: at('10:00'), closedAt: at('12:00'), open: false, openingCash: '500.00', totals: { cash: '40.00', upi: '20.00', card: '0.00', cheque: '0.00', bank: '0.00' } }]) as never[],
  );
}

const PROFIT_DAYS = [
  { _id: `1:${day}:1`, companyId: 1, date: day, productId: 1, qty: 2, value: 12000, cost: 8000 },
  { _id: `1:${day}:2`, companyId: 1, date: day, productId: 2, qty: 0, value: 0, cost: 0 },
  { _id: `1:${day}:3`, companyId: 1, date: day, productId: 3, qty: 0, value: 0, cost: 0 },
];
const BILL_3 = { _id: '1:3', companyId: 1, saleId: 3, sold: true, amount: 4500, paid: 0, returned: 0, cancelled: true };

/** The read model as the projections leave it for those facts (paise). */
async function reports(p: string, over: { invoices?: object[]; parties?: object[]; cashMoves?: object[]; profitDays?: object[]; expenses?: number } = {}) {
  const db = client.db(`${p}_reports`);
  await db.collection('invoices').insertMany((over.invoices ?? [{ _id: '1:1', companyId: 1, saleId: 1, sold: true, amount: 19000, paid: 5000, returned: 3000 }, BILL_3]) as never[]);
  await db.collection('purchases').insertOne({ _id: '1:1', companyId: 1, purchaseId: 1, bought: true, amount: 100000, paid: 40000 } as never);
  await db.collection('parties').insertMany((over.parties ?? [{ _id: '1:r:3', companyId: 1, side: 'r', partyId: 3, balance: 11000 }, { _id: '1:p:7', companyId: 1, side: 'p', partyId: 7, balance: 60000 }]) as never[]);
  await db.collection('products').insertMany([{ _id: '1:1', companyId: 1, productId: 1, stock: 18 }, { _id: '1:2', companyId: 1, productId: 2, stock: 7.5 }] as never[]);
  // The cash book: cash 30 + 25 - 400 - 15 = -360.00 on the day; bank 20 - 120 = -100.00.
  await db.collection('cash_moves').insertMany(
    (over.cashMoves ?? [
      { _id: 'entry:1:4', companyId: 1, date: day, at: at('10:05').toISOString(), kind: 'sale', cash: 3000, bank: 2000, by: 11 },
      { _id: 'entry:1:5', companyId: 1, date: day, at: at('10:20').toISOString(), kind: 'payment-received', cash: 2500, bank: 0, by: 11 },
      { _id: 'entry:1:6', companyId: 1, date: day, at: at('09:00').toISOString(), kind: 'purchase', cash: -40000, bank: 0, by: 12 },
      { _id: 'expense:1:1', companyId: 1, date: day, at: at('10:30').toISOString(), kind: 'expense', cash: -1500, bank: 0, by: null },
      { _id: 'expense:1:2', companyId: 1, date: day, at: at('11:00').toISOString(), kind: 'expense', cash: 0, bank: -12000, by: null },
    ]) as never[],
  );
  // The day's expenses: tea 15.00 + electricity 120.00 (the deleted one not).
  await db.collection('daily').insertOne({ _id: `1:${day}`, companyId: 1, date: day, expenses: over.expenses ?? 13500 } as never);
  // Profit's frozen cost: product 1 80.00; product 2 30.00 sold and 30.00 returned; product 3 30.00 sold and cancelled.
  await db.collection('profit_day').insertMany((over.profitDays ?? PROFIT_DAYS) as never[]);
}

async function run(over?: Parameters<typeof reports>[1], ownerOver?: Parameters<typeof owners>[1]) {
  const p = `ra${++n}`;
  await owners(p, ownerOver);
  await reports(p, over);
  return auditReports(mongo.uri, { db: { sales: `${p}_sales`, inventory: `${p}_inventory`, ledger: `${p}_ledger`, reports: `${p}_reports` } });
}

it('finds nothing when the reports agree with the owners', async () => {
  const r = await run();
  expect(r.mismatches).toEqual([]);
  expect(r.compared).toBeGreaterThan(8);
});

it('names a lost credit note and a payment counted twice', async () => {
  const r = await run({
    invoices: [{ _id: '1:1', companyId: 1, saleId: 1, sold: true, amount: 19000, paid: 5000, returned: 0 }, BILL_3],
    // 140 - 30 = 110.00 owed; the reports say 80.00 (a -30.00 counted twice).
    parties: [{ _id: '1:r:3', companyId: 1, side: 'r', partyId: 3, balance: 8000 }, { _id: '1:p:7', companyId: 1, side: 'p', partyId: 7, balance: 60000 }],
  });
  expect(r.mismatches.sort()).toEqual([
    'company 1: credit notes is 30.00 in the owner\'s data but 0.00 in the reports',
    'company 1: customer 3 owes 110.00 in the ledger but 80.00 in the reports',
  ]);
});

it('names a cash book that differs from the ledger by mode, a Z report that differs from the cash book, a wrong cost of goods sold, a lost cancel and a deleted expense still counted', async () => {
  const moves = (purchaseCash: number) => [
    { _id: 'entry:1:4', companyId: 1, date: day, at: at('10:05').toISOString(), kind: 'sale', cash: 3000, bank: 2000, by: 11 },
    { _id: 'entry:1:5', companyId: 1, date: day, at: at('10:20').toISOString(), kind: 'payment-received', cash: 2500, bank: 0, by: 11 },
    { _id: 'entry:1:6', companyId: 1, date: day, at: at('09:00').toISOString(), kind: 'purchase', cash: purchaseCash, bank: 0, by: 12 },
    { _id: 'expense:1:1', companyId: 1, date: day, at: at('10:30').toISOString(), kind: 'expense', cash: -1500, bank: 0, by: null },
    { _id: 'expense:1:2', companyId: 1, date: day, at: at('11:00').toISOString(), kind: 'expense', cash: 0, bank: -12000, by: null },
  ];
  // The purchase's 400.00 cash booked as 40.00: 30 + 25 - 40 - 15 = 0.00 against -360.00.
  expect((await run({ cashMoves: moves(-4000) })).mismatches).toEqual([`company 1: cash moved -360.00 on ${day} by the ledger's entries and expenses but 0.00 in the cash book`]);
  // The Z report says 45.00 cash and no UPI; the cash book has 40.00 and 20.00 for Asha's session.
  const z = { companyId: 1, sessionId: 1, userId: 11, userName: 'Asha', date: day, openedAt: at('10:00'), closedAt: at('12:00'), open: false, openingCash: '500.00', totals: { cash: '45.00', upi: '0.00', card: '0.00', cheque: '0.00', bank: '0.00' } };
  expect((await run(undefined, { sessions: [z] })).mismatches.sort()).toEqual([
    'company 1: register session 1 (Asha) took 0.00 in other modes by its Z report but 20.00 in the bank book',
    'company 1: register session 1 (Asha) took 45.00 in cash by its Z report but 40.00 in the cash book',
  ]);
  // Product 1's cost 70.00 instead of 2 x 40.00.
  const days = [{ ...PROFIT_DAYS[0]!, cost: 7000 }, PROFIT_DAYS[1]!, PROFIT_DAYS[2]!];
  expect((await run({ profitDays: days })).mismatches).toEqual([`company 1: profit's cost of goods sold on ${day} is 80.00 by the sales' frozen costs but 70.00 in the reports`]);
  // The deleted tea (99.00) still counted in the P&L: 234.00 against 135.00.
  expect((await run({ expenses: 23400 })).mismatches).toEqual([`company 1: expenses on ${day} are 135.00 in the ledger but 234.00 in the profit and loss`]);
  // The cancel of bill 3 lost: its 30.00 of cost still counted (80.00 + 30.00 = 110.00).
  const uncancelled = [PROFIT_DAYS[0]!, PROFIT_DAYS[1]!, { ...PROFIT_DAYS[2]!, qty: 3, value: 4500, cost: 3000 }];
  expect((await run({ profitDays: uncancelled })).mismatches).toEqual([`company 1: profit's cost of goods sold on ${day} is 80.00 by the sales' frozen costs but 110.00 in the reports`]);
});
