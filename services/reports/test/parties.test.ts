// Party names: ledger's party.changed events name the customers and distributors the reports
// know only from ledger entries (an opening balance, a payment), in the ageing, the dashboard's
// overdue list and the day book; redelivered once, an older change arriving late ignored, and a
// rebuild from zero names them again.
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { EventSubjects as E, type HistoryEvent } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { addDays } from '../src/params';
import { C } from '../src/store';
import { startReports, type Stack } from './helpers';

const D = today();
const base = (eventId: string, date = D) => ({ eventId, companyId: 1, occurredAt: new Date().toISOString(), date });
const entry = (seq: number, kind: string, partyKind: 'customer' | 'distributor', partyId: number, source: { kind: string; id: number }, delta: string, date = D, dueDate: string | null = D) => ({
  ...base(`entry:1:${seq}`, date), entryKind: kind, party: { kind: partyKind, id: partyId }, source, seq, amount: delta.replace('-', ''), paid: '0', delta, dueDate, docNo: null,
});
const party = (kind: 'customer' | 'distributor', id: number, name: string, version: number) => ({
  ...base(`party:1:${kind}:${id}:v${version}`), party: { kind, id }, name, mobile: kind === 'customer' ? `98765${String(id).padStart(5, '0')}` : '', gstin: null, walkIn: false, version,
});

/** Older than the streams hold: an opening balance of customer 21 and of distributor 31, and both parties, from the ledger's history. */
const history: HistoryEvent[] = [
  { subject: E.ledger.entryPosted, event: entry(1, 'opening', 'customer', 21, { kind: 'opening', id: 1 }, '500.00', addDays(D, -40), addDays(D, -10)) as never },
  { subject: E.ledger.entryPosted, event: entry(2, 'opening', 'distributor', 31, { kind: 'opening', id: 2 }, '700.00', addDays(D, -40), addDays(D, -10)) as never },
  { subject: E.ledger.partyChanged, event: party('customer', 21, 'Meena Stores', 1_000) as never },
  { subject: E.ledger.partyChanged, event: party('distributor', 31, 'Kolkata Agencies', 1_000) as never },
];

let s: Stack;

beforeAll(async () => {
  s = await startReports(history);
  await s.consumers.caughtUp(30_000);
}, 60_000);
afterAll(() => s?.stop());

type AgeingRow = { partyId: number; name: string; balance: string };
const ageing = async (side: 'receivable' | 'payable') => (await s.get(`/reports/ageing?side=${side}`).expect(200)).body.rows as AgeingRow[];
const seenCount = () => s.svc.app.get<Connection>(getConnectionToken()).db!.collection(C.recent).countDocuments();
const nameOf = async (side: 'receivable' | 'payable', id: number) => (await ageing(side)).find((r) => r.partyId === id)?.name;

describe('party names from the ledger', () => {
  it('a customer and a distributor known only from an opening balance in the history appear by name in the ageing and the dashboard', async () => {
    expect((await ageing('receivable')).find((r) => r.partyId === 21)).toMatchObject({ name: 'Meena Stores', balance: '500.00' });
    expect((await ageing('payable')).find((r) => r.partyId === 31)).toMatchObject({ name: 'Kolkata Agencies', balance: '700.00' });
    const dash = (await s.get('/reports/dashboard').expect(200)).body;
    expect(dash.receivables.mostOverdue.find((r: AgeingRow) => r.partyId === 21)?.name).toBe('Meena Stores');
  });

  it('an opening balance then the party event from the stream: named; a redelivery counts once; a rename shows everywhere; an older change arriving late changes nothing', async () => {
    await s.publish(E.ledger.entryPosted, entry(3, 'opening', 'customer', 22, { kind: 'opening', id: 3 }, '250.00', addDays(D, -35), addDays(D, -5)));
    await s.consumers.caughtUp(30_000);
    // No event named it yet: the screens show "Customer 22".
    expect(await nameOf('receivable', 22)).toBe('');
    await s.publish(E.ledger.partyChanged, party('customer', 22, 'Sunil Kirana', 2_000));
    await s.consumers.caughtUp(30_000);
    expect(await nameOf('receivable', 22)).toBe('Sunil Kirana');

    // The same event again (a relay's republish past JetStream's duplicate window): applied once.
    const applied = s.consumers.applied;
    const seen = await seenCount();
    await s.publish(E.ledger.partyChanged, party('customer', 22, 'Sunil Kirana', 2_000), 'republished-after-the-window');
    await s.consumers.caughtUp(30_000);
    expect(s.consumers.applied).toBe(applied);
    expect(await seenCount()).toBe(seen);

    // A rename, then an older edit delivered late, then a bill still carrying the old name: the rename stands.
    await s.publish(E.ledger.partyChanged, party('customer', 22, 'Sunil Kirana & Sons', 3_000));
    await s.publish(E.ledger.partyChanged, party('customer', 22, 'Sunil K (older edit)', 2_500));
    await s.publish(E.sales.saleCompleted, {
      ...base('sale:1:40:completed'), saleId: 40, clientId: 22, customerName: 'Sunil Kirana', walkIn: false, lines: [],
      subtotal: '0', tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount: '0', paid: '0', dueDate: D, gst: null,
    });
    // A payment today: the day book names the payer by the ledger's current name.
    // Opening 250.00 - payment 100.00 = 150.00 still owed.
    await s.publish(E.ledger.paymentReceived, { ...entry(4, 'payment_received', 'customer', 22, { kind: 'payment', id: 9 }, '-100.00'), paymentId: 9, payType: 'Cash', transactionId: '' });
    await s.consumers.caughtUp(30_000);
    expect((await ageing('receivable')).find((r) => r.partyId === 22)).toMatchObject({ name: 'Sunil Kirana & Sons', balance: '150.00' });
    const day = (await s.get(`/reports/daybook?date=${D}`).expect(200)).body;
    expect(day.rows.find((r: { kind: string; ref: number }) => r.kind === 'payment-received' && r.ref === 9)).toMatchObject({ party: 'Sunil Kirana & Sons', partyId: 22, amount: '100.00' });
    const dash = (await s.get('/reports/dashboard').expect(200)).body;
    expect(dash.receivables.mostOverdue.find((r: AgeingRow) => r.partyId === 22)?.name).toBe('Sunil Kirana & Sons');
  });

  it('a bill names a customer the ledger has not named yet; the ledger event, even arriving after, then wins', async () => {
    await s.publish(E.ledger.entryPosted, entry(5, 'sale', 'customer', 23, { kind: 'sale', id: 41 }, '80.00'));
    await s.publish(E.sales.saleCompleted, {
      ...base('sale:1:41:completed'), saleId: 41, clientId: 23, customerName: 'Billed As Gopal', walkIn: false, lines: [],
      subtotal: '80.00', tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount: '80.00', paid: '0', dueDate: D, gst: null,
    });
    await s.consumers.caughtUp(30_000);
    expect(await nameOf('receivable', 23)).toBe('Billed As Gopal');
    await s.publish(E.ledger.partyChanged, party('customer', 23, 'Gopal Dairy', 4_000));
    await s.consumers.caughtUp(30_000);
    expect(await nameOf('receivable', 23)).toBe('Gopal Dairy');
  });

  it('a rebuild from zero (history, then the streams replayed in their order, the older edit after the rename) gives the same names', async () => {
    const before = { r: await ageing('receivable'), p: await ageing('payable') };
    await s.consumers.rebuild();
    await s.consumers.caughtUp(30_000);
    const after = { r: await ageing('receivable'), p: await ageing('payable') };
    expect(after).toEqual(before);
    expect(after.r.map((r) => [r.partyId, r.name])).toEqual(expect.arrayContaining([[21, 'Meena Stores'], [22, 'Sunil Kirana & Sons'], [23, 'Gopal Dairy']]));
    expect(after.p.map((r) => [r.partyId, r.name])).toEqual([[31, 'Kolkata Agencies']]);
  });
});
