// Issue 29: expenses. Figures computed by hand in the comments; events read back off JetStream.
import request from 'supertest';
import { JSONCodec } from 'nats';
import { EventStreams, EventSubjects, Subjects, type HistoryPageReply } from '@bahi/contracts';
import { as, auth, COMPANIES, startLedger, tokenFor, type Stack } from './helpers';

let stack: Stack;
let A: ReturnType<typeof as>;
let staffA: ReturnType<typeof as>;
const codec = JSONCodec<any>();
const del = (token: string, path: string) => request(stack.url).delete(path).set(auth(token));
const OCT = '/expenses?from=2026-10-01&to=2026-10-31';

async function expenseEvents(): Promise<any[]> {
  const jsm = await stack.nc.jetstreamManager();
  const info = await jsm.streams.info(EventStreams.ledger.name).catch(() => null);
  const out: any[] = [];
  for (let seq = info?.state.first_seq ?? 1; info && info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(EventStreams.ledger.name, { seq });
    if (m.subject === EventSubjects.ledger.expenseChanged) out.push({ ...codec.decode(m.data), msgId: m.header?.get('Nats-Msg-Id') });
  }
  return out;
}

let rent: number;
let tea: number;
let power: number;

beforeAll(async () => {
  stack = await startLedger();
  A = as(stack.url, tokenFor(1));
  staffA = as(stack.url, tokenFor(1, 'staff'));
}, 60_000);
afterAll(() => stack?.stop());

describe('expenses', () => {
  it('a manager adds rent by bank, tea in cash (no payments: cash) and electricity split cash + UPI; October totals 17,461.25', async () => {
    const r1 = await A.post('/expenses', { date: '2026-10-01', category: 'rent', amount: '15000', payments: [{ mode: 'bank', amount: '15000', ref: 'NEFT 88123' }], note: 'October rent' });
    expect(r1.status).toBe(201);
    expect(r1.body).toMatchObject({ date: '2026-10-01', category: 'rent', amount: '15000.00', payments: [{ mode: 'bank', amount: '15000.00', ref: 'NEFT 88123' }], note: 'October rent', by: { id: 11, name: 'manager 1' }, version: 1, deleted: false });
    rent = r1.body.id;
    const r2 = await A.post('/expenses', { date: '2026-10-03', category: 'Tea', amount: 120.5 });
    // The category is matched whatever its case and stored as the list writes it.
    expect(r2.body).toMatchObject({ category: 'tea', amount: '120.50', payments: [{ mode: 'cash', amount: '120.50' }], note: '' });
    tea = r2.body.id;
    const r3 = await A.post('/expenses', { date: '2026-10-15', category: 'electricity', amount: '2340.75', payments: [{ mode: 'cash', amount: '340.75' }, { mode: 'upi', amount: 2000, ref: 'UPI 4021' }] });
    power = r3.body.id;
    // November's transport is outside the range.
    await A.post('/expenses', { date: '2026-11-02', category: 'transport', amount: '450' });
    // 15000 + 120.50 + 2340.75 = 17461.25
    const list = (await A.get(OCT)).body;
    expect(list.total).toBe('17461.25');
    expect(list.noOfPages).toBe(1);
    expect(list.list.map((e: any) => [e.id, e.date, e.amount])).toEqual([
      [power, '2026-10-15', '2340.75'],
      [tea, '2026-10-03', '120.50'],
      [rent, '2026-10-01', '15000.00'],
    ]);
  });

  it('an edit needs a reason and keeps the history: tea 120.50 -> 135.50 makes October 17,476.25', async () => {
    const missing = await A.put(`/expenses/${tea}`, { date: '2026-10-03', category: 'tea', amount: '135.50' });
    expect([missing.status, missing.body.message]).toEqual([400, 'Give the reason for this change (it is kept in the expense history).']);
    const blank = await A.put(`/expenses/${tea}`, { date: '2026-10-03', category: 'tea', amount: '135.50', reason: '   ' });
    expect(blank.status).toBe(400);
    expect((await A.get(OCT)).body.total).toBe('17461.25');
    const ok = await A.put(`/expenses/${tea}`, { date: '2026-10-03', category: 'tea', amount: '135.50', note: 'with biscuits', reason: 'Bill said 135.50' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ amount: '135.50', payments: [{ mode: 'cash', amount: '135.50' }], version: 2, note: 'with biscuits' });
    // 15000 + 135.50 + 2340.75 = 17476.25
    expect((await A.get(OCT)).body.total).toBe('17476.25');
  });

  it('a delete needs a reason, keeps the expense marked deleted and out of the total: October 15,135.50', async () => {
    expect((await del(tokenFor(1), `/expenses/${power}`)).status).toBe(400);
    const d = await del(tokenFor(1), `/expenses/${power}?reason=${encodeURIComponent('Entered twice')}`);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ id: power, deleted: true, version: 2, amount: '2340.75' });
    // 15000 + 135.50 = 15135.50
    const list = (await A.get(OCT)).body;
    expect(list.total).toBe('15135.50');
    expect(list.list.map((e: any) => e.id)).toEqual([tea, rent]);
    // deleted=1 shows it, marked, still outside the total.
    const all = (await A.get(`${OCT}&deleted=1`)).body;
    expect(all.list.map((e: any) => [e.id, e.deleted])).toEqual([[power, true], [tea, false], [rent, false]]);
    expect(all.total).toBe('15135.50');
    const again = await A.put(`/expenses/${power}`, { date: '2026-10-15', category: 'electricity', amount: '1', reason: 'x' });
    expect([again.status, again.body.message]).toEqual([409, `Expense ${power} was deleted; it cannot be edited.`]);
  });

  it('GET /expenses/{id}/history: every write with who, when and why, oldest first', async () => {
    const h = (await A.get(`/expenses/${tea}/history`)).body;
    expect(h.id).toBe(tea);
    expect(h.list.map((r: any) => [r.version, r.action, r.by.name, r.reason, r.expense.amount, r.expense.note])).toEqual([
      [1, 'added', 'manager 1', '', '120.50', ''],
      [2, 'edited', 'manager 1', 'Bill said 135.50', '135.50', 'with biscuits'],
    ]);
    expect(Date.parse(h.list[1].at)).toBeGreaterThanOrEqual(Date.parse(h.list[0].at));
    const p = (await A.get(`/expenses/${power}/history`)).body.list;
    expect(p.map((r: any) => [r.action, r.reason, r.expense.amount])).toEqual([['added', '', '2340.75'], ['deleted', 'Entered twice', '2340.75']]);
    expect(p[0].expense.payments).toEqual([{ mode: 'cash', amount: '340.75' }, { mode: 'upi', amount: '2000.00', ref: 'UPI 4021' }]);
  });

  it('bad input is 400 with a sentence and records nothing', async () => {
    const count = async () => (await A.get('/expenses?from=2000-01-01&to=2026-11-28&deleted=1')).body.list.length;
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ date: '2026-10-05', category: 'tea', amount: -50 }, 'The amount must be more than 0.'],
      [{ date: '2026-10-05', category: 'tea', amount: 0 }, 'The amount must be more than 0.'],
      [{ date: '2026-10-05', category: 'tea', amount: '10.999' }, 'The amount can have at most 2 decimals (paise).'],
      [{ date: '2026-10-05', category: 'tea', amount: '500', payments: [{ mode: 'cash', amount: '300' }] }, 'The payments add up to Rs 300.00 but amount is Rs 500.00; they must be equal.'],
      [{ date: '2026-10-05', category: 'tea', amount: '500', payments: [{ mode: 'gold', amount: '500' }] }, 'Payment 1: the mode must be one of Cash, UPI, Card, Cheque, Bank transfer (cash, upi, card, cheque, bank).'],
      [{ date: '2026-10-05', category: 'petrol', amount: '500' }, '"petrol" is not an expense category; choose one of rent, salary, electricity, transport, tea, other (a manager can add categories).'],
      [{ date: '2026-10-05', amount: '500' }, 'Give the category.'],
      [{ date: '2999-10-05', category: 'tea', amount: '5' }, 'The expense date cannot be in the future.'],
      [{ date: '5 Oct', category: 'tea', amount: '5' }, 'The expense date must be a date (YYYY-MM-DD).'],
      [{ date: '2026-10-05', category: 'tea', amount: '5', note: 'x'.repeat(201) }, 'The note can be at most 200 characters.'],
    ];
    for (const [b, sentence] of cases) {
      const r = await A.post('/expenses', b);
      expect([r.status, r.body.message]).toEqual([400, sentence]);
    }
    const badEdit = await A.put(`/expenses/${rent}`, { date: '2026-10-01', category: 'rent', amount: '15000', payments: [{ mode: 'bank', amount: '14000' }], reason: 'typo' });
    expect([badEdit.status, badEdit.body.message]).toEqual([400, 'The payments add up to Rs 14000.00 but amount is Rs 15000.00; they must be equal.']);
    expect((await A.get(`/expenses/${rent}/history`)).body.list).toHaveLength(1);
    expect((await A.get('/expenses?from=2026-10-31&to=2026-10-01')).body.message).toBe('from must be on or before to.');
    expect(await count()).toBe(before);
  });

  it('staff: refused (403) while staff_expenses is off; allowed to add, list and read history when on; never to edit, delete or change categories', async () => {
    const off = await staffA.post('/expenses', { date: '2026-10-20', category: 'tea', amount: '40' });
    expect([off.status, off.body.message]).toEqual([403, 'Only a manager can do this; a manager can let staff record expenses in Setting.']);
    expect((await staffA.get(OCT)).status).toBe(403);
    COMPANIES[1]!.staff_expenses = true;
    try {
      const on = await staffA.post('/expenses', { date: '2026-10-20', category: 'tea', amount: '40' });
      expect(on.status).toBe(201);
      expect(on.body.by).toEqual({ id: 12, name: 'staff 1' });
      // 15135.50 + 40 = 15175.50
      expect((await staffA.get(OCT)).body.total).toBe('15175.50');
      expect((await staffA.get(`/expenses/${on.body.id}/history`)).body.list[0].by.name).toBe('staff 1');
      expect((await staffA.put(`/expenses/${on.body.id}`, { date: '2026-10-20', category: 'tea', amount: '4', reason: 'x' })).status).toBe(403);
      expect((await del(tokenFor(1, 'staff'), `/expenses/${on.body.id}?reason=x`)).status).toBe(403);
      expect((await staffA.put('/expenses/categories', { categories: ['tea'] })).status).toBe(403);
      expect((await staffA.get('/expenses/categories')).status).toBe(200);
    } finally {
      COMPANIES[1]!.staff_expenses = false;
    }
  });

  it('categories: defaults, a used one cannot be removed (409, nothing changed), an unused one can, a new one takes expenses', async () => {
    expect((await A.get('/expenses/categories')).body).toEqual({ categories: ['rent', 'salary', 'electricity', 'transport', 'tea', 'other'], in_use: ['rent', 'transport', 'tea'] });
    const used = await A.put('/expenses/categories', { categories: ['rent', 'salary', 'electricity', 'transport', 'other', 'petrol'] });
    expect([used.status, used.body.message]).toEqual([409, 'The category "tea" is used by 2 expense(s); move them to another category or delete them before removing it.']);
    expect((await A.get('/expenses/categories')).body.categories).toContain('tea');
    // electricity's only expense was deleted: it does not block.
    const dup = await A.put('/expenses/categories', { categories: ['rent', 'Rent'] });
    expect([dup.status, dup.body.message]).toEqual([400, 'The category "Rent" is written twice.']);
    const ok = await A.put('/expenses/categories', { categories: ['rent', 'transport', 'tea', 'other', 'petrol'] });
    expect(ok.body).toEqual({ categories: ['rent', 'transport', 'tea', 'other', 'petrol'], in_use: ['rent', 'transport', 'tea'] });
    expect((await A.post('/expenses', { date: '2026-10-21', category: 'petrol', amount: '300' })).status).toBe(201);
    expect((await A.post('/expenses', { date: '2026-10-21', category: 'salary', amount: '300' })).status).toBe(400);
  });

  it('paging: 10 a page, newest first; the total covers every page', async () => {
    // Twelve tea expenses of 10.10 in September: total 121.20, 2 pages.
    for (let d = 1; d <= 12; d++) await A.post('/expenses', { date: `2026-09-${String(d).padStart(2, '0')}`, category: 'tea', amount: '10.10' });
    const p0 = (await A.get('/expenses?from=2026-09-01&to=2026-09-30&pageNo=0')).body;
    const p1 = (await A.get('/expenses?from=2026-09-01&to=2026-09-30&pageNo=1')).body;
    expect([p0.list.length, p1.list.length, p0.noOfPages, p0.total, p1.total]).toEqual([10, 2, 2, '121.20', '121.20']);
    expect(p0.list[0].date).toBe('2026-09-12');
    expect(p1.list.map((e: any) => e.date)).toEqual(['2026-09-02', '2026-09-01']);
  });

  it('tenancy: another company sees none of them and cannot touch them (404)', async () => {
    const B = as(stack.url, tokenFor(2));
    expect((await B.get(OCT)).body).toEqual({ list: [], noOfPages: 0, total: '0.00' });
    expect((await B.put(`/expenses/${rent}`, { date: '2026-10-01', category: 'rent', amount: '1', reason: 'x' })).status).toBe(404);
    expect((await del(tokenFor(2), `/expenses/${rent}?reason=x`)).status).toBe(404);
    expect((await B.get(`/expenses/${rent}/history`)).status).toBe(404);
    expect((await A.get(`/expenses/${rent}/history`)).body.list).toHaveLength(1);
  });

  it('every write is published once as events.ledger.expense.changed (latest version wins); the history page answers each expense as it is', async () => {
    const end = Date.now() + 5000;
    let events: any[] = [];
    // rent, tea, electricity, transport (4 adds) + tea edit + electricity delete + staff tea + petrol + 12 September = 20
    while ((events = await expenseEvents()).length < 20 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(events).toHaveLength(20);
    for (const e of events) expect(e.msgId).toBe(e.eventId);
    const teaEvents = events.filter((e) => e.expenseId === tea);
    expect(teaEvents.map((e) => [e.eventId, e.version, e.amount, e.date, e.category, e.deleted, e.by.name])).toEqual([
      [`expense:1:${tea}:v1`, 1, '120.5', '2026-10-03', 'tea', false, 'manager 1'],
      [`expense:1:${tea}:v2`, 2, '135.5', '2026-10-03', 'tea', false, 'manager 1'],
    ]);
    const powerEvents = events.filter((e) => e.expenseId === power);
    expect(powerEvents.map((e) => [e.version, e.deleted, e.amount])).toEqual([[1, false, '2340.75'], [2, true, '2340.75']]);
    expect(powerEvents[1].payments).toEqual([{ mode: 'cash', amount: '340.75' }, { mode: 'upi', amount: '2000', ref: 'UPI 4021' }]);
    const page = await stack.ask<HistoryPageReply>(Subjects.ledger.historyPage, { companyId: 1, source: 'expense' });
    // 18 expenses: rent, tea, electricity, transport, staff's tea, petrol, 12 September teas.
    expect(page.events).toHaveLength(18);
    expect(page.events.find((h) => (h.event as any).expenseId === power)?.event).toMatchObject({ version: 2, deleted: true });
  });

  it('removing a category races adding an expense in it (10 times): never both succeed', async () => {
    const B = as(stack.url, tokenFor(2));
    const all = ['rent', 'salary', 'electricity', 'transport', 'tea', 'other'];
    let both = 0;
    for (let round = 0; round < 10; round++) {
      const cat = `misc ${round}`;
      expect((await B.put('/expenses/categories', { categories: [...all, cat] })).status).toBe(200);
      const [added, removed] = await Promise.all([B.post('/expenses', { date: '2026-10-10', category: cat, amount: '1' }), B.put('/expenses/categories', { categories: all })]);
      expect([201, 400]).toContain(added.status);
      expect([200, 409]).toContain(removed.status);
      if (added.status === 201 && removed.status === 200) both++;
      // Whatever the order, a live expense's category is still in the list.
      const list = (await B.get('/expenses/categories')).body;
      if (added.status === 201) expect(list.categories).toContain(cat);
      if (added.status === 201) expect((await request(stack.url).delete(`/expenses/${added.body.id}?reason=race`).set(auth(tokenFor(2)))).status).toBe(200);
    }
    expect(both).toBe(0);
  }, 60_000);
});
