import { Subjects } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { openTable } from '@bahi/tabular';
import { overdueAccounts, type AccountEntry } from '../src/reminders/overdue';
import { as, customerForm, startLedger, tokenFor, type Stack } from './helpers';

const e = (partyId: number, seq: number, delta: string, dueDate: string | null, entryKind = 'sale'): AccountEntry => ({ partyId, seq, delta, dueDate, entryKind });

describe('the overdue list around midnight in India (UTC+05:30)', () => {
  const entries: AccountEntry[] = [
    e(1, 1, '500', '2026-03-10'), // due date 10 March
    e(2, 2, '1200.50', '2026-03-09'), // 9 March
    e(3, 3, '300', '2026-03-01'), // paid in full below: not overdue
    e(3, 4, '-300', '2026-03-20', 'payment_received'),
    e(4, 5, '250', null), // no due date: never overdue
    e(5, 6, '100', '2026-02-01'), // a later reversal sets no due date: still 1 Feb
    e(5, 7, '40', '2026-04-30', 'reversal'),
    e(6, 8, '75', '2026-02-01'), // a later sale moved the due date to 12 March
    e(6, 9, '25', '2026-03-12'),
  ];

  it('at 23:59:59.999 IST on 10 March a due date of 10 March is not overdue yet', () => {
    const now = Date.parse('2026-03-10T18:29:59.999Z'); // = 2026-03-10 23:59:59.999 IST
    expect(today(now)).toBe('2026-03-10');
    expect(overdueAccounts(entries, now)).toEqual([
      // customer 5: 1 Feb -> 10 Mar = 28 (Feb) - 1 + 10 = 37 days; due 100 + 40 = 140
      { partyId: 5, due: '140', dueDate: '2026-02-01', daysOverdue: 37 },
      // customer 2: 9 Mar -> 10 Mar = 1 day
      { partyId: 2, due: '1200.5', dueDate: '2026-03-09', daysOverdue: 1 },
    ]);
  });

  it('at 00:00 IST on 11 March (18:30 UTC on 10 March) it is one day overdue', () => {
    const now = Date.parse('2026-03-10T18:30:00.000Z'); // = 2026-03-11 00:00 IST
    expect(today(now)).toBe('2026-03-11');
    expect(overdueAccounts(entries, now)).toEqual([
      { partyId: 5, due: '140', dueDate: '2026-02-01', daysOverdue: 38 },
      { partyId: 2, due: '1200.5', dueDate: '2026-03-09', daysOverdue: 2 },
      // customer 1: 500 due since 10 March, 1 day
      { partyId: 1, due: '500', dueDate: '2026-03-10', daysOverdue: 1 },
    ]);
  });

  it('on 13 March customer 6 (due date moved to 12 March by a later sale) is 1 day overdue with 75 + 25 = 100 due', () => {
    const now = Date.parse('2026-03-13T06:00:00Z');
    const six = overdueAccounts(entries, now).find((a) => a.partyId === 6);
    expect(six).toEqual({ partyId: 6, due: '100', dueDate: '2026-03-12', daysOverdue: 1 });
  });

  it('sorts equal days by the larger due, then by customer', () => {
    const now = Date.parse('2026-03-11T06:00:00Z');
    const list = overdueAccounts([e(7, 1, '10', '2026-03-01'), e(8, 2, '99.99', '2026-03-01'), e(9, 3, '10', '2026-03-01')], now);
    expect(list.map((a) => a.partyId)).toEqual([8, 7, 9]);
  });
});

describe('GET /getClientsList?overdue=1 and POST /customers/reminded', () => {
  let stack: Stack;
  const A = () => as(stack.url, tokenFor(1));
  const staff = () => as(stack.url, tokenFor(1, 'staff'));
  const B = () => as(stack.url, tokenFor(2));
  const ids: Record<string, number> = {};
  /** YYYY-MM-DD `n` days before today at the shop. */
  const daysAgo = (n: number) => new Date(Date.parse(`${today()}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
  let saleNo = 100;
  const sale = (clientId: number, amount: string, paid: string, dueDate: string) =>
    stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: clientId }, source: { kind: 'sale', id: ++saleNo }, amount, paid, dueDate, date: daysAgo(40) });

  beforeAll(async () => {
    stack = await startLedger();
    for (const [name, mobile] of [['Anil', '9876500011'], ['Bina', '9876500012'], ['Chetan', '9876500013'], ['Deepa', '9876500014']] as const) {
      ids[name] = (await A().post('/clients/addClient', customerForm({ name, mobile_no: mobile }))).body.id;
    }
    // Company 2 has more customers than company 1: its last id is no customer of company 1.
    for (let i = 0; i < 5; i++) ids.Other = (await B().post('/clients/addClient', customerForm({ name: `Other Co customer ${i}`, mobile_no: `987650009${i}` }))).body.id;
    await sale(ids.Anil!, '1000', '400', daysAgo(3)); // due 600, 3 days overdue
    await sale(ids.Bina!, '250.75', '0', daysAgo(30)); // due 250.75, 30 days overdue
    await sale(ids.Chetan!, '500', '0', today()); // due today: not overdue
    await sale(ids.Deepa!, '800', '800', daysAgo(10)); // paid at the counter: nothing due
  }, 120_000);
  afterAll(() => stack?.stop());

  it('lists only customers past their due date with a due, most days overdue first', async () => {
    const res = await staff().get('/getClientsList?overdue=1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      clientsList: [
        { id: ids.Bina, name: 'Bina', mobile_no: '9876500012', city_or_district: 'Mumbai', due: 250.75, due_date: daysAgo(30), days_overdue: 30, last_reminded_at: null },
        // 1000 - 400 paid = 600
        { id: ids.Anil, name: 'Anil', mobile_no: '9876500011', city_or_district: 'Mumbai', due: 600, due_date: daysAgo(3), days_overdue: 3, last_reminded_at: null },
      ],
      noOfPages: 1,
    });
  });

  it('keeps the spec shape without the filter, and refuses a bad filter', async () => {
    const res = await A().get('/getClientsList');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.clientsList[0]).sort()).toEqual(['city_or_district', 'due', 'id', 'mobile_no', 'name']);
    const bad = await A().get('/getClientsList?overdue=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('overdue must be 0 or 1.');
  });

  it('records when customers were reminded and shows it on the overdue list', async () => {
    const before = Date.now();
    const res = await staff().post('/customers/reminded', { clientIds: [ids.Anil, ids.Bina] });
    expect(res.status).toBe(200);
    expect(res.body.done).toBe(true);
    const at = Date.parse(res.body.lastRemindedAt);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    const list = (await A().get('/getClientsList?overdue=1')).body.clientsList as { id: number; last_reminded_at: string | null }[];
    expect(list.map((r) => r.last_reminded_at)).toEqual([res.body.lastRemindedAt, res.body.lastRemindedAt]);
  });

  it('exports the overdue list as the Overdue filter shows it (CSV, staff too; company 2 gets only its header)', async () => {
    const r = await staff().get('/export/customers?overdue=1&format=csv').buffer(true);
    expect(r.status).toBe(200);
    expect(r.headers['content-disposition']).toContain('overdue-customers-');
    const t = await openTable(Buffer.from(r.text));
    expect(t.headers).toEqual(['Customer ID', 'Name', 'Mobile', 'City or district', 'Due', 'Due date', 'Days overdue', 'Last reminded']);
    const rows: string[][] = [];
    for await (const row of t.rows) rows.push(row.values);
    // The list's order and figures: Bina 250.75 (30 days), then Anil 1000 - 400 = 600.00 (3 days).
    expect(rows.map((v) => [v[1], v[4], v[6]])).toEqual([
      ['Bina', '250.75', '30'],
      ['Anil', '600.00', '3'],
    ]);
    const other = await B().get('/export/customers?overdue=1&format=csv').buffer(true);
    const o = await openTable(Buffer.from(other.text));
    const none: unknown[] = [];
    for await (const row of o.rows) none.push(row);
    expect(none).toEqual([]);
    const bad = await A().get('/export/customers?overdue=2&format=csv');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('overdue must be 0 or 1.');
  });

  it("never touches another company's customer (404) and refuses bad bodies with a sentence, changing nothing", async () => {
    const listed = async () => ((await A().get('/getClientsList?overdue=1')).body.clientsList as { last_reminded_at: string | null }[]).map((r) => r.last_reminded_at);
    const before = await listed();
    expect([ids.Anil, ids.Bina, ids.Chetan, ids.Deepa]).not.toContain(ids.Other);
    const other = await A().post('/customers/reminded', { clientIds: [ids.Anil, ids.Other] });
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(`Customer ${ids.Other} was not found.`);
    for (const [body, msg] of [
      [{ clientIds: [] }, 'clientIds must name at least one customer.'],
      [{ clientIds: ['5'] }, 'Every id of clientIds must be a whole number.'],
      [{}, 'clientIds must be a list of customer ids.'],
    ] as const) {
      const res = await A().post('/customers/reminded', body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain(msg);
    }
    expect(await listed()).toEqual(before);
    // Company 2's customers have no due.
    expect((await B().get('/getClientsList?overdue=1')).body).toEqual({ clientsList: [], noOfPages: 0 });
  });
});
