import { getConnectionToken } from '@nestjs/mongoose';
import type { Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { EventSubjects as E } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { addDays } from '../src/params';
import { runningTotalsFromDays } from '../src/projector';
import { startReports, tokenFor, type Stack } from './helpers';

// Three days before today, so no range below is a whole month (those read the month rows).
const D1 = addDays(today(), -3);
const D2 = addDays(today(), -2);
const D3 = addDays(today(), -1);
const at = new Date().toISOString();

const line = (sl_no: number, product_id: number, units: string, amount: string, cp: string | null) => ({
  sl_no, product_id, product_name: `P${product_id}`, unit: 'pcs', quantity: units, per_peice_quantity: '1', units, rate: '0', disc: '0', amount, cp,
  taxable_value: null, gst_rate: null, cgst: null, sgst: null, igst: null,
});
const sale = (saleId: number, date: string, lines: ReturnType<typeof line>[], amount: string) => ({
  eventId: `sale:1:${saleId}:completed`, companyId: 1, occurredAt: at, date, saleId, clientId: null, customerName: 'Walk-in', walkIn: true, lines,
  subtotal: amount, tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount, paid: amount, dueDate: null, gst: null,
});

let s: Stack;
let db: Db;

type Row = { productId: number; qty: number; value: string; cost: string; profit: string };
const rowsOf = async (from: string, to: string) =>
  ((await s.get(`/reports/profit?from=${from}&to=${to}&by=product`).expect(200)).body.rows as Row[]).map((r) => [r.productId, r.qty, r.value, r.cost, r.profit]);

beforeAll(async () => {
  s = await startReports();
  await s.consumers.caughtUp(60_000);
  // Out of date order: the last day first, a return of the first day's bill on the second day before that bill.
  await s.publish(E.sales.saleCompleted, sale(3, D3, [line(1, 1, '1', '50.00', '40.00'), line(2, 2000, '2', '60.00', '20.00')], '110.00'));
  await s.publish(E.sales.saleReturned, {
    eventId: 'credit-note:1:1:completed', companyId: 1, occurredAt: at, date: D2, creditNoteId: 1, credit_note_no: 'CN/1', saleId: 1, clientId: null, customerName: 'Walk-in',
    lines: [{ sl_no: 1, product_id: 1, product_name: 'P1', quantity: '1', units: '1', amount: '50.00', value: '50.00', cp: null }],
    subtotal: '50.00', discount: '0', tax: '0', shipping: '0', amount: '50.00', refund: '50.00', gst: null,
  });
  await s.publish(E.sales.saleCompleted, sale(1, D1, [line(1, 1, '2', '100.00', '40.00'), line(2, 2000, '1', '30.00', '20.00')], '130.00'));
  await s.publish(E.sales.saleCompleted, sale(2, D2, [line(1, 2000, '3', '90.00', '20.00'), line(2, 5, '1', '10.00', null)], '100.00'));
  await s.consumers.caughtUp(60_000);
  db = s.svc.app.get<Connection>(getConnectionToken()).db as unknown as Db;
}, 120_000);

afterAll(async () => {
  await s?.stop();
});

describe('profit by product over any range (running totals)', () => {
  it('gives each day and each run of days from the running totals, whatever order the events came in (hand-computed)', async () => {
    // D1: product 1: 2 units 100.00, cost 2 x 40 = 80.00; product 2000: 1 unit 30.00, cost 20.00.
    expect(await rowsOf(D1, D1)).toEqual([[1, 2, '100.00', '80.00', '20.00'], [2000, 1, '30.00', '20.00', '10.00']]);
    // D2: product 2000: 3 units 90.00, cost 60.00; product 1 returned 1 unit: -50.00 at its sold cost 80 x 1/2 = -40.00;
    // product 5: 10.00 sold before costs were frozen (no cost, no profit).
    expect(await rowsOf(D2, D2)).toEqual([[2000, 3, '90.00', '60.00', '30.00'], [5, 1, '10.00', '0.00', '0.00'], [1, -1, '-50.00', '-40.00', '-10.00']]);
    // D2..D3: 2000: 90 + 60 = 150.00, cost 60 + 2 x 20 = 100.00; product 1: -50 + 50 = 0 value, cost -40 + 40 = 0, qty -1 + 1 = 0 (dropped); 5: 10.00.
    expect(await rowsOf(D2, D3)).toEqual([[2000, 5, '150.00', '100.00', '50.00'], [5, 1, '10.00', '0.00', '0.00']]);
    // D1..D3: 2000: 30 + 90 + 60 = 180.00, cost 20 + 60 + 40 = 120.00; 1: 100 - 50 + 50 = 100.00, cost 80 - 40 + 40 = 80.00, 2 units; 5: 10.00.
    const all = await s.get(`/reports/profit?from=${D1}&to=${D3}&by=product`).expect(200);
    expect(all.body.rows.map((r: Row) => [r.productId, r.qty, r.value, r.cost, r.profit])).toEqual([[2000, 6, '180.00', '120.00', '60.00'], [1, 2, '100.00', '80.00', '20.00'], [5, 1, '10.00', '0.00', '0.00']]);
    // Totals: value 180 + 100 + 10 = 290.00, cost 200.00, 10.00 without cost, profit 290 - 10 - 200 = 80.00.
    expect(all.body.totals).toEqual({ value: '290.00', cost: '200.00', valueWithoutCost: '10.00', profit: '80.00' });
    // Each product's name is the product's (from the sale lines here).
    expect(all.body.rows.map((r: { name: string }) => r.name)).toEqual(['P2000', 'P1', 'P5']);
    // Before the first sale: nothing.
    expect(await rowsOf(addDays(D1, -5), addDays(D1, -1))).toEqual([]);
  });

  it('keeps a day document per bucket of products and date, each the sum of every change on or before it', async () => {
    // Products 1 and 5 share bucket 0, product 2000 is in bucket 1 (1,024 products a bucket): D1, D2, D3 each, plus the anchors.
    const docs = await db.collection('profit_cum').find({ companyId: 1 }).sort({ bucket: 1, date: 1 }).toArray();
    expect(docs.map((d) => [d.bucket, d.date])).toEqual([[0, '0000-00-00'], [0, D1], [0, D2], [0, D3], [1, '0000-00-00'], [1, D1], [1, D2], [1, D3]]);
    // Product 2000 through D3: 1 + 3 + 2 units, 30 + 90 + 60 = 180.00 = 18000 paise.
    expect(docs[7]!.p['2000']).toMatchObject({ q: 6, v: 18000, c: 12000 });
  });

  it('makes the same running totals from the day rows (a read model kept before them)', async () => {
    const before = [await rowsOf(D1, D1), await rowsOf(D2, D2), await rowsOf(D2, D3), await rowsOf(D1, D3)];
    const written = await runningTotalsFromDays(db);
    // Bucket 0 changed on D1, D2, D3 and bucket 1 on D1, D2, D3: 6 documents (anchors apart).
    expect(written).toBe(6);
    expect([await rowsOf(D1, D1), await rowsOf(D2, D2), await rowsOf(D2, D3), await rowsOf(D1, D3)]).toEqual(before);
  });

  it('counts a redelivered sale once in the running totals', async () => {
    await s.publish(E.sales.saleCompleted, sale(2, D2, [line(1, 2000, '3', '90.00', '20.00'), line(2, 5, '1', '10.00', null)], '100.00'), 'again-sale-2');
    await s.consumers.caughtUp(60_000);
    expect(await rowsOf(D2, D2)).toEqual([[2000, 3, '90.00', '60.00', '30.00'], [5, 1, '10.00', '0.00', '0.00'], [1, -1, '-50.00', '-40.00', '-10.00']]);
  });
});

describe('profit by product over a range starting and ending mid-month across two months', () => {
  // Company 2. P: the month before last, L: last month; the range is P-15 .. L-10.
  const thisMonth = `${today().slice(0, 7)}-01`;
  const L = addDays(thisMonth, -1).slice(0, 7);
  const P = addDays(`${L}-01`, -1).slice(0, 7);
  const token = tokenFor(2);
  const sale2 = (saleId: number, date: string, lines: ReturnType<typeof line>[], amount: string) => ({ ...sale(saleId, date, lines, amount), eventId: `sale:2:${saleId}:completed`, companyId: 2 });
  const range = async () => (await s.get(`/reports/profit?from=${P}-15&to=${L}-10&by=product`, token).expect(200)).body;

  beforeAll(async () => {
    // Product 7 (bucket 0) at cost 30.00 a unit, product 3000 (bucket 2) at 15.00; the days just outside the range too.
    await s.publish(E.sales.saleCompleted, sale2(201, `${P}-10`, [line(1, 7, '2', '100.00', '30.00')], '100.00'));
    await s.publish(E.sales.saleCompleted, sale2(202, `${P}-15`, [line(1, 7, '1', '50.00', '30.00'), line(2, 3000, '4', '80.00', '15.00')], '130.00'));
    await s.publish(E.sales.saleCompleted, sale2(203, `${P}-28`, [line(1, 3000, '1', '20.00', '15.00')], '20.00'));
    await s.publish(E.sales.saleCompleted, sale2(204, `${L}-05`, [line(1, 7, '3', '150.00', '30.00')], '150.00'));
    await s.publish(E.sales.saleCompleted, sale2(205, `${L}-10`, [line(1, 3000, '2', '40.00', '15.00')], '40.00'));
    await s.publish(E.sales.saleCompleted, sale2(206, `${L}-11`, [line(1, 7, '5', '250.00', '30.00')], '250.00'));
    await s.consumers.caughtUp(60_000);
  });

  it('counts only the days inside the range, both ends included (hand-computed)', async () => {
    const r = await range();
    // Product 7: bills 202 (1 unit, 50.00, cost 30.00) and 204 (3 units, 150.00, cost 90.00): 4 units, 200.00, cost 120.00, profit 80.00.
    // Product 3000: bills 202 (4, 80.00, 60.00), 203 (1, 20.00, 15.00), 205 (2, 40.00, 30.00): 7 units, 140.00, cost 105.00, profit 35.00.
    // Bills 201 (P-10) and 206 (L-11) are outside.
    expect(r.rows.map((x: Row) => [x.productId, x.qty, x.value, x.cost, x.profit])).toEqual([
      [7, 4, '200.00', '120.00', '80.00'],
      [3000, 7, '140.00', '105.00', '35.00'],
    ]);
    // 200.00 + 140.00 = 340.00; 120.00 + 105.00 = 225.00; 340.00 - 225.00 = 115.00.
    expect(r.totals).toEqual({ value: '340.00', cost: '225.00', valueWithoutCost: '0.00', profit: '115.00' });
  });

  it('gives the new figures once a sale inside the range arrives (the totals read before are not reused)', async () => {
    await range();
    await s.publish(E.sales.saleCompleted, sale2(207, `${L}-01`, [line(1, 3000, '10', '200.00', '15.00')], '200.00'));
    await s.consumers.caughtUp(60_000);
    const r = await range();
    // Product 3000: 7 + 10 = 17 units, 140.00 + 200.00 = 340.00, cost 105.00 + 150.00 = 255.00, profit 85.00: now first.
    expect(r.rows.map((x: Row) => [x.productId, x.qty, x.value, x.cost, x.profit])).toEqual([
      [3000, 17, '340.00', '255.00', '85.00'],
      [7, 4, '200.00', '120.00', '80.00'],
    ]);
    // 340.00 + 200.00 = 540.00; 255.00 + 120.00 = 375.00; profit 165.00.
    expect(r.totals).toEqual({ value: '540.00', cost: '375.00', valueWithoutCost: '0.00', profit: '165.00' });
  });
});
