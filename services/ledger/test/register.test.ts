import request from 'supertest';
import { signToken } from '@bahi/auth';
import { Subjects, type RegisterDocument } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { as, auth, COMPANIES, customerForm, distributorForm, SECRET, startLedger, tokenFor, type Stack } from './helpers';

// Issue 29, the cash register: one session per cashier, figures from the entries each cashier
// recorded (`by`) while it was open. Every figure below is worked out by hand in the comments.
let stack: Stack;
let mgr: ReturnType<typeof as>;
let ravi: ReturnType<typeof as>;
let sita: ReturnType<typeof as>;
let cust: number;
let dist: number;

const RAVI = 101;
const SITA = 102;
const MGR = 11; // tokenFor(1, 'manager')

const staffToken = (uid: number, name: string, companyId = 1) =>
  signToken({ sub: `u${uid}`, uid, name, email: `${uid}@t.local`, position: 'staff', companyId, companyName: COMPANIES[companyId]!.name, sid: `s-${uid}` }, SECRET);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Posts a document's entry as sales or inventory do, with its tenders and the user who took the money. */
function post(source: { kind: string; id: number }, party: { kind: string; id: number }, amount: string, paid: string, payments: unknown[], by: number, extra: Record<string, unknown> = {}) {
  return stack.ask(Subjects.ledger.entryPost, { companyId: 1, party, source, amount, paid, payments, by, ...extra });
}

beforeAll(async () => {
  stack = await startLedger();
  mgr = as(stack.url, tokenFor(1));
  ravi = as(stack.url, staffToken(RAVI, 'Ravi Kumar'));
  sita = as(stack.url, staffToken(SITA, 'Sita Devi'));
  cust = (await mgr.post('/clients/addClient', customerForm({ mobile_no: '9811100029' }))).body.id;
  dist = (await mgr.post('/addDistributor', distributorForm())).body.id;
}, 60_000);
afterAll(() => stack?.stop());

const C = () => ({ kind: 'customer', id: cust });
const D = () => ({ kind: 'distributor', id: dist });

describe('the cash register', () => {
  it('refuses a bad opening amount with a sentence and opens nothing', async () => {
    for (const [opening_cash, msg] of [
      [undefined, 'opening_cash is required: the cash in the drawer, in rupees.'],
      ['-5', 'opening_cash cannot be below 0.'],
      ['abc', 'opening_cash must be an amount in rupees, like 2000 or 2000.50.'],
      ['10.555', 'opening_cash can have at most 2 decimals (paise).'],
    ] as const) {
      const r = await ravi.post('/register/open', { opening_cash });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(msg);
    }
    expect((await ravi.get('/register/current')).body).toEqual({ open: false });
    expect((await ravi.post('/register/close', { counted_cash: 0 })).status).toBe(409);
  });

  it("two cashiers' sessions never mix: expected cash, difference, totals by mode and sales count", async () => {
    // Before Ravi opens: his sale of 300 cash belongs to no session.
    await post({ kind: 'sale', id: 900 }, C(), '300', '300', [{ mode: 'cash', amount: '300' }], RAVI);
    await sleep(5);

    // Two opens at once: exactly one session, the other a 409.
    const both = await Promise.all([ravi.post('/register/open', { opening_cash: '2000.00' }), ravi.post('/register/open', { opening_cash: '2000.00' })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const opened = both.find((r) => r.status === 200)!.body;
    expect(opened).toEqual({ id: expect.any(Number), opened_at: expect.any(String), opening_cash: 2000 });
    const again = await ravi.post('/register/open', { opening_cash: 100 });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('Your register is already open');
    expect((await sita.post('/register/open', { opening_cash: 500 })).status).toBe(200);
    expect((await mgr.post('/register/open', { opening_cash: 1000 })).status).toBe(200);

    // Ravi: sale 901 of 1,180 paid 1,000 cash + 180 UPI; sale 902 of 500 cash; sale 903 of 750 by card.
    await post({ kind: 'sale', id: 901 }, C(), '1180', '1180', [{ mode: 'cash', amount: '1000' }, { mode: 'upi', amount: '180', ref: 'UPI1' }], RAVI);
    await post({ kind: 'sale', id: 902 }, C(), '500', '500', [{ mode: 'cash', amount: '500' }], RAVI);
    await post({ kind: 'sale', id: 903 }, C(), '750', '750', [{ mode: 'card', amount: '750' }], RAVI);
    // Bill 902 cancelled (as sales posts it, guarded): its 500 paid at the counter given back in cash.
    await post({ kind: 'sale-cancel', id: 61 }, C(), '500', '500', [{ mode: 'cash', amount: '500' }], RAVI, { guard: { noPaymentAfter: { kind: 'sale', id: 902 } } });
    // A payment of 400 received by Ravi: 150 cash + 250 cheque.
    expect((await ravi.post('/salesDuePayment', { client_id: cust, amount: '400', payments: [{ mode: 'cash', amount: '150' }, { mode: 'cheque', amount: '250', ref: '000123' }] })).body.done).toBe(true);
    // A refund of 120 in cash on credit note 41 (value 300).
    await post({ kind: 'credit-note', id: 41 }, C(), '300', '120', [{ mode: 'cash', amount: '120' }], RAVI);
    // Sale 904 of 200 cash whose checkout failed and was undone: in and out, and no sale.
    await post({ kind: 'sale', id: 904 }, C(), '200', '200', [{ mode: 'cash', amount: '200' }], RAVI);
    expect(await stack.ask(Subjects.ledger.entryReverse, { companyId: 1, source: { kind: 'sale', id: 904 } })).toEqual({ reversed: true });

    // Sita at the next counter: sale 905 of 300 cash and a payment of 100 by UPI.
    await post({ kind: 'sale', id: 905 }, C(), '300', '300', [{ mode: 'cash', amount: '300' }], SITA);
    expect((await sita.post('/salesDuePayment', { client_id: cust, amount: '100', payments: [{ mode: 'upi', amount: '100' }] })).body.done).toBe(true);

    // The manager: 250 cash paid to the distributor, purchase 71 paid 300 cash + 100 bank, a 50 cash refund on debit note 81.
    expect((await mgr.post('/purchaseDuePaymentReact', { distributorId: dist, amount: '250' })).body.done).toBe(true);
    await post({ kind: 'purchase', id: 71 }, D(), '900', '400', [{ mode: 'cash', amount: '300' }, { mode: 'bank', amount: '100' }], MGR);
    await post({ kind: 'debit-note', id: 81 }, D(), '90', '50', [{ mode: 'cash', amount: '50' }], MGR);
    // ...and expenses: tea 120.50 from the drawer, electricity 500 by UPI, and one of 200 added then deleted (counts no more).
    expect((await mgr.post('/expenses', { date: today(), category: 'tea', amount: '120.50' })).status).toBe(201);
    expect((await mgr.post('/expenses', { date: today(), category: 'electricity', amount: '500', payments: [{ mode: 'upi', amount: '500' }] })).status).toBe(201);
    const wrong = await mgr.post('/expenses', { date: today(), category: 'other', amount: '200' });
    expect((await request(stack.url).delete(`/expenses/${wrong.body.id}?reason=typed%20twice`).set(auth(tokenFor(1)))).status).toBe(200);

    // Ravi's running figures. Cash: +1,000 +500 +150 -120 -500 +200 -200 = 1,030; in 1,850, out 820.
    const cur = (await ravi.get('/register/current')).body;
    expect(cur).toMatchObject({
      id: opened.id,
      open: true,
      user_id: RAVI,
      user_name: 'Ravi Kumar',
      opening_cash: 2000,
      cash_in: 1850,
      cash_out: 820,
      expected_cash: 3030,
      counted_cash: null,
      totals: { cash: 1030, upi: 180, card: 750, cheque: 250, bank: 0 },
      // 901, 902, 903 (904 undone); the cancelled 902 was still sold.
      sales_count: 3,
    });

    // sales asks over NATS (require_register).
    expect(await stack.ask(Subjects.ledger.registerCheck, { companyId: 1, userId: RAVI })).toEqual({ open: true });
    expect(await stack.ask(Subjects.ledger.registerCheck, { companyId: 1, userId: 999 })).toEqual({ open: false });
    expect(await stack.ask(Subjects.ledger.registerCheck, { companyId: 2, userId: RAVI })).toEqual({ open: false });

    // Ravi counts 3,000.00: 30.00 short.
    const closed = await ravi.post('/register/close', { counted_cash: '3000', note: 'Rs 30 short, checked twice' });
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual({ id: opened.id, expected_cash: 3030, counted_cash: 3000, difference: -30, totals: { cash: 1030, upi: 180, card: 750, cheque: 250, bank: 0 }, sales_count: 3 });
    expect((await ravi.get('/register/current')).body).toEqual({ open: false });
    expect((await ravi.post('/register/close', { counted_cash: '3000' })).status).toBe(409);

    // Sita: 500 + 300 = 800 expected; counted 800. UPI 100.
    const s = await sita.post('/register/close', { counted_cash: 800 });
    expect(s.body).toMatchObject({ expected_cash: 800, counted_cash: 800, difference: 0, totals: { cash: 300, upi: 100, card: 0, cheque: 0, bank: 0 }, sales_count: 1 });

    // Manager: 1,000 - 250 - 300 + 50 - 120.50 = 379.50 expected; out 250 + 300 + 120.50 = 670.50;
    // UPI -500 (electricity), bank -100 (purchase paid by transfer).
    const m = (await mgr.get('/register/current')).body;
    expect(m).toMatchObject({ expected_cash: 379.5, cash_in: 50, cash_out: 670.5, totals: { cash: -620.5, upi: -500, card: 0, cheque: 0, bank: -100 }, sales_count: 0 });
    const mz = await stack.ask<RegisterDocument>(Subjects.documents.registerDocument, { companyId: 1, sessionId: m.id, userId: MGR, manager: true });
    expect(mz.movements.filter((x) => x.kind === 'expense').map((x) => `${x.mode} ${x.amount}`)).toEqual(['cash -120.5', 'upi -500']);

    // After the close, Ravi's next sale is in no closed session: the frozen figures stay.
    await sleep(5);
    await post({ kind: 'sale', id: 906 }, C(), '100', '100', [{ mode: 'cash', amount: '100' }], RAVI);
    const mine = (await ravi.get('/register/sessions')).body;
    expect(mine.sessions).toHaveLength(1);
    expect(mine.sessions[0]).toMatchObject({ id: opened.id, open: false, expected_cash: 3030, counted_cash: 3000, difference: -30, cash_in: 1850, cash_out: 820, note: 'Rs 30 short, checked twice', sales_count: 3 });

    // The manager sees every cashier's session of the day; staff only their own.
    const all = (await mgr.get(`/register/sessions?date=${today()}`)).body.sessions;
    expect(all.map((x: { user_name: string }) => x.user_name).sort()).toEqual(['Ravi Kumar', 'Sita Devi', 'manager 1']);
    expect((await sita.get('/register/sessions')).body.sessions.map((x: { user_name: string }) => x.user_name)).toEqual(['Sita Devi']);
    expect((await mgr.get('/register/sessions?date=2020-01-01')).body.sessions).toEqual([]);
    expect((await mgr.get('/register/sessions?date=2026-02-30')).status).toBe(400);
    // Another company sees none of them.
    expect((await as(stack.url, tokenFor(2)).get('/register/sessions')).body.sessions).toEqual([]);

    // The Z report's data: exact strings, each tender a movement; staff may not read another cashier's.
    const doc = await stack.ask<RegisterDocument | null>(Subjects.documents.registerDocument, { companyId: 1, sessionId: opened.id, userId: MGR, manager: true });
    expect(doc).toMatchObject({ id: opened.id, open: false, user_name: 'Ravi Kumar', opening_cash: '2000', cash_in: '1850', cash_out: '820', expected_cash: '3030', counted_cash: '3000', difference: '-30', sales_count: 3 });
    expect(doc!.totals).toEqual({ cash: '1030', upi: '180', card: '750', cheque: '250', bank: '0' });
    const cash = doc!.movements.filter((x) => x.mode === 'cash').map((x) => x.amount);
    expect(cash).toEqual(['1000', '500', '-500', '150', '-120', '200', '-200']);
    // The cancellation is listed by its bill's number.
    expect(doc!.movements.find((x) => x.kind === 'cancellation')).toMatchObject({ ref: 902, mode: 'cash', amount: '-500' });
    // The Z report's cash = the sum of the session's cash movements (the cash book's rows for this cashier and window).
    expect(cash.reduce((a, b) => a + Number(b), 0)).toBe(1030);
    expect(await stack.ask(Subjects.documents.registerDocument, { companyId: 1, sessionId: opened.id, userId: SITA, manager: false })).toBeNull();
    expect(await stack.ask(Subjects.documents.registerDocument, { companyId: 2, sessionId: opened.id, userId: MGR, manager: true })).toBeNull();
  });

  it('a note longer than 500 characters or a bad counted_cash is refused and the session stays open', async () => {
    expect((await sita.post('/register/open', { opening_cash: 0 })).status).toBe(200);
    const long = await sita.post('/register/close', { counted_cash: 10, note: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('note can be at most 500 characters.');
    expect((await sita.post('/register/close', { counted_cash: -1 })).body.message).toBe('counted_cash cannot be below 0.');
    expect((await sita.get('/register/current')).body.open).toBe(true);
  });
});
