// Issue 29: the books' opening balances (PUT/GET /books/opening), managers only, published as
// events.ledger.books.opening on JetStream (read back here off the stream).
import { JSONCodec } from 'nats';
import { EventStreams, EventSubjects, Subjects, type HistoryPageReply } from '@bahi/contracts';
import { as, startLedger, tokenFor, type Stack } from './helpers';

let stack: Stack;
let A: ReturnType<typeof as>;
const codec = JSONCodec<any>();

async function openingEvents(): Promise<any[]> {
  const jsm = await stack.nc.jetstreamManager();
  const info = await jsm.streams.info(EventStreams.ledger.name).catch(() => null);
  const out: any[] = [];
  for (let seq = info?.state.first_seq ?? 1; info && info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(EventStreams.ledger.name, { seq });
    if (m.subject === EventSubjects.ledger.openingSet) out.push({ ...codec.decode(m.data), msgId: m.header?.get('Nats-Msg-Id') });
  }
  return out;
}
async function waitFor<T>(read: () => Promise<T[]>, n: number): Promise<T[]> {
  const end = Date.now() + 5000;
  for (;;) {
    const got = await read();
    if (got.length >= n || Date.now() > end) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  stack = await startLedger();
  A = as(stack.url, tokenFor(1));
}, 60_000);
afterAll(() => stack?.stop());

describe('opening balances', () => {
  it('before any: set false and zeros; a manager sets 12,500.00 cash and 40,250.75 in the bank on 1 Apr 2026; GET answers them', async () => {
    expect((await A.get('/books/opening')).body).toEqual({ date: '', cash: '0.00', bank: '0.00', set: false, by: null, at: null });
    const put = await A.put('/books/opening', { date: '2026-04-01', cash: 12500, bank: '40250.75' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ date: '2026-04-01', cash: '12500.00', bank: '40250.75', set: true, by: { id: 11, name: 'manager 1' } });
    expect((await A.get('/books/opening')).body).toEqual(put.body);
  });

  it('bad input is 400 with a sentence and changes nothing; the bank may be overdrawn, cash may not be below 0', async () => {
    const before = (await A.get('/books/opening')).body;
    const cases: [Record<string, unknown>, string][] = [
      [{ date: '2026-04-01', cash: -1, bank: 0 }, 'The opening cash cannot be below 0.'],
      [{ date: '2026-04-01', cash: '10.505', bank: 0 }, 'The opening cash can have at most 2 decimals (paise).'],
      [{ date: '2026-04-01', cash: 'ten', bank: 0 }, 'The opening cash must be a number of rupees, like 1500 or 1500.50.'],
      [{ date: '2026-04-01', cash: 10 }, 'Give the opening bank balance in rupees.'],
      [{ date: '2026-02-30', cash: 10, bank: 0 }, 'The opening date must be a date (YYYY-MM-DD).'],
      [{ date: '2999-01-01', cash: 10, bank: 0 }, 'The opening date cannot be in the future.'],
    ];
    for (const [b, sentence] of cases) {
      const r = await A.put('/books/opening', b);
      expect([r.status, r.body.message]).toEqual([400, sentence]);
    }
    expect((await A.get('/books/opening')).body).toEqual(before);
    const od = await A.put('/books/opening', { date: '2026-04-01', cash: '12500', bank: '-3000.50' });
    expect(od.body).toMatchObject({ cash: '12500.00', bank: '-3000.50' });
  });

  it('staff get 403 on both calls; another company sees only its own (none)', async () => {
    const staff = as(stack.url, tokenFor(1, 'staff'));
    expect((await staff.get('/books/opening')).status).toBe(403);
    const put = await staff.put('/books/opening', { date: '2026-04-01', cash: 1, bank: 1 });
    expect([put.status, put.body.message]).toEqual([403, 'Only a manager can do this.']);
    expect((await A.get('/books/opening')).body.bank).toBe('-3000.50');
    expect((await as(stack.url, tokenFor(2)).get('/books/opening')).body.set).toBe(false);
  });

  it('each PUT is published as events.ledger.books.opening with a rising version (latest wins); the history page answers the latest', async () => {
    await A.put('/books/opening', { date: '2026-04-01', cash: '12500.00', bank: '40250.75' });
    const events = await waitFor(openingEvents, 3);
    expect(events.map((e) => [e.cash, e.bank, e.date, e.companyId])).toEqual([
      ['12500', '40250.75', '2026-04-01', 1],
      ['12500', '-3000.5', '2026-04-01', 1],
      ['12500', '40250.75', '2026-04-01', 1],
    ]);
    expect(events[1].version).toBeGreaterThan(events[0].version);
    expect(events[2].version).toBeGreaterThan(events[1].version);
    for (const e of events) expect(e.msgId).toBe(e.eventId);
    expect(events[2].eventId).toBe(`opening:1:${events[2].version}`);
    const page = await stack.ask<HistoryPageReply>(Subjects.ledger.historyPage, { companyId: 1, source: 'opening' });
    expect(page.events).toEqual([{ subject: EventSubjects.ledger.openingSet, event: expect.objectContaining({ eventId: events[2].eventId, cash: '12500', bank: '40250.75' }) }]);
  });

  it('five PUTs at once: each write its own version; the last one is published and is what GET answers (latest wins)', async () => {
    const B = as(stack.url, tokenFor(2));
    await Promise.all([1, 2, 3, 4, 5].map((n) => B.put('/books/opening', { date: '2026-05-01', cash: `${n}00`, bank: '0' }).expect(200)));
    const final = (await B.get('/books/opening')).body;
    const version = Date.parse(final.at);
    // The relay publishes the record as it is: writes it has not seen yet are folded into the last.
    const published = async () => (await openingEvents()).filter((e) => e.companyId === 2);
    const end = Date.now() + 5000;
    while (!(await published()).some((e) => e.version === version) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const events = await published();
    expect(new Set(events.map((e) => e.version)).size).toBe(events.length);
    const latest = events.reduce((a, b) => (b.version > a.version ? b : a));
    expect([latest.version, `${latest.cash}.00`]).toEqual([version, final.cash]);
  });
});
