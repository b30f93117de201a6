// The day book paged: a day of more transactions than a page, pages that add up to the whole
// day's totals (kept on the day row, not summed from the rows), a page past the end, bad page
// numbers, and the exports (CSV, the documents' request) still carrying every row.
import { getConnectionToken } from '@nestjs/mongoose';
import type { Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { JSONCodec } from 'nats';
import { DocumentSubjects, EventSubjects as E } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { addDays } from '../src/params';
import { C, daybookTotalsFromRows } from '../src/store';
import { startReports, tokenFor, type Stack } from './helpers';

const CO = 3;
const D = addDays(today(), -2);
const at = new Date().toISOString();
const token = tokenFor(CO);

const sale = (saleId: number, amount: string, paid: string) => ({
  eventId: `sale:${CO}:${saleId}:completed`, companyId: CO, occurredAt: at, date: D, saleId, clientId: null, customerName: 'Walk-in', walkIn: true,
  lines: [{ sl_no: 1, product_id: 1, product_name: 'Rice', unit: 'pcs', quantity: '1', per_peice_quantity: '1', units: '1', rate: amount, disc: '0', amount, cp: '1.00', taxable_value: null, gst_rate: null, cgst: null, sgst: null, igst: null }],
  subtotal: amount, tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount, paid, dueDate: D, gst: null,
});
const payment = (paymentId: number, amount: string) => ({
  eventId: `entry:${CO}:payment:${paymentId}`, companyId: CO, occurredAt: at, date: D, entryKind: 'payment_received', party: { kind: 'customer', id: 4 },
  source: { kind: 'payment', id: paymentId }, seq: paymentId, amount, paid: '0', delta: `-${amount}`, dueDate: null, docNo: null, paymentId, payType: 'cash', transactionId: '',
});

const saleEntry = (saleId: number, amount: string) => ({
  eventId: `entry:${CO}:sale:${saleId}`, companyId: CO, occurredAt: at, date: D, entryKind: 'sale', party: { kind: 'customer', id: 4 },
  source: { kind: 'sale', id: saleId }, seq: 1000 + saleId, amount, paid: amount, delta: '0', dueDate: null, docNo: null,
});

interface DayRow {
  kind: string;
  ref: number;
  amount: string;
  cashIn: string;
  cashOut: string;
}
const paise = (v: string) => Math.round(Number(v) * 100);
const sum = (rows: DayRow[], k: 'amount' | 'cashIn' | 'cashOut') => rows.reduce((a, r) => a + paise(r[k]), 0);

let s: Stack;
let db: Db;
const day = async (q = '') => (await s.get(`/reports/daybook?date=${D}${q}`, token).expect(200)).body;

beforeAll(async () => {
  s = await startReports();
  db = (s.svc.app.get(getConnectionToken()) as Connection).db as unknown as Db;
  await s.consumers.caughtUp(60_000);
  // 130 bills of 1.00 to 130.00, the even ones paid at the counter; 5 payments of 10.00.
  for (let i = 1; i <= 130; i++) await s.publish(E.sales.saleCompleted, sale(i, `${i}.00`, i % 2 === 0 ? `${i}.00` : '0'));
  for (let i = 1; i <= 5; i++) await s.publish(E.ledger.paymentReceived, payment(i, '10.00'));
  // The ledger's entries of the paid bills: the money the day book counts (cash; no modes on them, as before modes).
  for (let i = 2; i <= 130; i += 2) await s.publish(E.ledger.entryPosted, saleEntry(i, `${i}.00`));
  await s.consumers.caughtUp(60_000);
}, 180_000);

afterAll(() => s?.stop());

// Bills 1 + 2 + ... + 130 = 130 x 131 / 2 = 8515.00; paid 2 + 4 + ... + 130 = 65 x 66 = 4290.00,
// with the payments' 5 x 10.00 = 50.00 cash in 4340.00; 135 transactions, nothing paid out.
const TOTALS = { count: 135, byKind: { sale: '8515.00', 'payment-received': '50.00' }, cashIn: '4340.00', cashOut: '0.00', bankIn: '0.00', bankOut: '0.00' };

describe('the day book, a page at a time', () => {
  it('gives 100 rows a page and the whole day totals on every page; the pages add up to them', async () => {
    const p0 = await day();
    const p1 = await day('&page=1');
    expect(p0.page).toBe(0);
    expect(p0.pageSize).toBe(100);
    expect(p0.rows).toHaveLength(100);
    expect(p1.rows).toHaveLength(35);
    expect(p0.totals).toEqual(TOTALS);
    expect(p1.totals).toEqual(TOTALS);
    const all: DayRow[] = [...p0.rows, ...p1.rows];
    // Every transaction once, across the pages.
    expect(new Set(all.map((r) => `${r.kind}:${r.ref}`)).size).toBe(135);
    expect(sum(all, 'amount')).toBe(851_500 + 5_000);
    expect(sum(all, 'cashIn')).toBe(434_000);
    expect(sum(all, 'cashOut')).toBe(0);
    // pageNo is the same page.
    expect((await day('&pageNo=1')).rows).toEqual(p1.rows);
  });

  it('answers a page past the end with no rows and the day totals', async () => {
    const p = await day('&page=2');
    expect(p.rows).toEqual([]);
    expect(p.totals).toEqual(TOTALS);
    // A day with nothing: no rows, zero totals.
    const empty = (await s.get(`/reports/daybook?date=${addDays(D, -1)}`, token).expect(200)).body;
    expect(empty).toMatchObject({ rows: [], totals: { count: 0, byKind: {}, cashIn: '0.00', cashOut: '0.00', bankIn: '0.00', bankOut: '0.00' } });
  });

  it('refuses a bad page number with a sentence', async () => {
    for (const q of ['&page=-1', '&page=abc', '&pageNo=1.5', '&pageNo=x']) {
      const res = await s.get(`/reports/daybook?date=${D}${q}`, token).expect(400);
      expect(res.body.message).toMatch(q.startsWith('&pageNo') ? /^pageNo must be a whole number from 0 to \d+\.$/ : /^page must be a whole number from 0 to \d+\.$/);
    }
  });

  it('exports every row of the day, in the pages order (CSV and the documents request)', async () => {
    const pages: DayRow[] = [...(await day()).rows, ...(await day('&page=1')).rows];
    const csv = await s.get(`/reports/daybook?date=${D}&format=csv`, token).expect(200);
    const lines = csv.text.replace(/^\uFEFF/, '').trim().split(/\r\n/);
    expect(lines[0]).toBe('Kind,Ref,Number,Party,Amount,Cash in,Cash out,Bank in,Bank out');
    // Kind, Ref: every transaction of the day, in the order of the pages.
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(':'))).toEqual(pages.map((r) => `${r.kind}:${r.ref}`));

    const codec = JSONCodec<{ response?: { report: { rows: DayRow[]; totals: unknown }; more: boolean } }>();
    const reply = codec.decode((await s.nc.request(DocumentSubjects.reportRows, JSONCodec().encode({ id: 'r1', pattern: DocumentSubjects.reportRows, data: { companyId: CO, name: 'daybook', query: { date: D }, maxRows: 500 } }), { timeout: 10_000 })).data);
    expect(reply.response!.more).toBe(false);
    expect(reply.response!.report.rows.map((r) => r.ref)).toEqual(pages.map((r) => r.ref));
    expect(reply.response!.report.totals).toEqual(TOTALS);
  });

  it('makes the day totals from the transactions for a read model kept before them', async () => {
    const unset = Object.fromEntries(['sale', 'payment-received'].flatMap((k) => [[`dbN_${k}`, ''], [`dbA_${k}`, '']]));
    await db.collection(C.daily).updateMany({ companyId: CO }, { $unset: unset });
    expect((await day()).totals.count).toBe(0);
    await db.collection<{ _id: string }>('meta').deleteOne({ _id: 'daybook_totals' });
    expect(await daybookTotalsFromRows({ db } as never)).toBeGreaterThanOrEqual(1);
    expect((await day()).totals).toEqual(TOTALS);
    // Once made, not made again.
    expect(await daybookTotalsFromRows({ db } as never)).toBe(0);
  });
});
