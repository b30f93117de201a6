// Ledger's domain events on JetStream (a real nats-server -js): every entry once, payments as
// payment.received / payment.given, the rest as entry.posted; their deltas add up to the due.
// Every customer or distributor write as party.changed (the name reports shows).
import { JSONCodec } from 'nats';
import { EventStreams, EventSubjects, Subjects, type HistoryPageReply, type LedgerEntryEvent, type PartyChangedEvent, type PartyDueReply, type PaymentEvent } from '@bahi/contracts';
import { Money, RELAY_COMMENT } from '@bahi/service-kit';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { startTestService } from '@bahi/service-kit/testing';
import { AppModule } from '../src/app.module';
import { as, customerForm, distributorForm, SECRET, startLedger, tokenFor, type Stack } from './helpers';

let stack: Stack;
let A: ReturnType<typeof as>;
let cust: number;
let dist: number;
const codec = JSONCodec<any>();

async function streamEvents(): Promise<{ subject: string; msgId: string | undefined; event: any }[]> {
  const jsm = await stack.nc.jetstreamManager();
  const info = await jsm.streams.info(EventStreams.ledger.name);
  const out: { subject: string; msgId: string | undefined; event: any }[] = [];
  for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(EventStreams.ledger.name, { seq });
    out.push({ subject: m.subject, msgId: m.header?.get('Nats-Msg-Id'), event: codec.decode(m.data) });
  }
  return out;
}
const isParty = (e: { subject: string }) => e.subject === EventSubjects.ledger.partyChanged;
/** The entries' events (payments included), without the parties'. */
const entryEvents = async () => (await streamEvents()).filter((e) => !isParty(e));
async function waitForCount(n: number, ms = 5000, read = entryEvents) {
  const end = Date.now() + ms;
  for (;;) {
    const all = await read().catch(() => []);
    if (all.length >= n || Date.now() > end) return all;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The relay's commands (RELAY_COMMENT) since the test began: `<command> <collection>`. */
const relayCommands: string[] = [];

beforeAll(async () => {
  // No sweep during the tests: every lookup counted is a kick's.
  process.env.BAHI_EVENT_SWEEP_MS = '600000';
  stack = await startLedger({ monitorCommands: true });
  stack.svc.app
    .get<Connection>(getConnectionToken())
    .getClient()
    .on('commandStarted', (e: mongo.CommandStartedEvent) => {
      if (e.command.comment === RELAY_COMMENT) relayCommands.push(`${e.commandName} ${String(e.command[e.commandName])}`);
    });
  A = as(stack.url, tokenFor(1));
  cust = (await A.post('/clients/addClient', customerForm({ mobile_no: '9123400777', name: 'Ravi Events' }))).body.id;
  dist = (await A.post('/addDistributor', distributorForm())).body.id;
}, 60_000);
afterAll(async () => {
  delete process.env.BAHI_EVENT_SWEEP_MS;
  await stack?.stop();
});

describe('ledger domain events', () => {
  it('a sale entry, a payment received, a purchase, a payment given and a reversal arrive once each; the deltas sum to the due', async () => {
    relayCommands.length = 0;
    // Sale 1000.00 with 250.50 paid: delta +749.50. Payment 200.25: delta -200.25. Reversal of a second sale 80 (0 paid): +80 then -80.
    // Customer due = 749.50 - 200.25 + 80 - 80 = 549.25.
    await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 501 }, amount: '1000', paid: '250.50', dueDate: '2030-06-01', date: '2030-05-01' });
    // A repeated post (a retried message) adds no entry and no event.
    await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 501 }, amount: '1000', paid: '250.50', dueDate: '2030-06-01', date: '2030-05-01' });
    const pay = await A.post('/salesDuePayment', { client_id: cust, amount: '200.25', nextDD: '2030-07-01' });
    expect(pay.body.done).toBe(true);
    await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 502 }, amount: '80', paid: '0', date: '2030-05-02' });
    await stack.ask(Subjects.ledger.entryReverse, { companyId: 1, source: { kind: 'sale', id: 502 } });
    // Purchase 800.50 with 300 paid: +500.50; payment given 500: -500.00. Distributor due 0.50.
    await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'distributor', id: dist }, source: { kind: 'purchase', id: 77 }, amount: '800.50', paid: '300', date: '2030-05-03' });
    expect((await A.post('/purchaseDuePaymentReact', { distributorId: dist, amount: 500, nextDD: '2030-08-01' })).body.done).toBe(true);

    const all = await waitForCount(6);
    await new Promise((r) => setTimeout(r, 300));
    expect(await entryEvents()).toHaveLength(6);
    // Each post, payment and reversal handed its entry to the relay: cleared, never looked up
    // (the next test checks the events equal the stored entries' own).
    const onEntries = relayCommands.filter((c) => c.endsWith(' entries'));
    expect(onEntries.filter((c) => !c.startsWith('update'))).toEqual([]);
    expect(onEntries.length).toBeGreaterThanOrEqual(1);
    expect(onEntries.length).toBeLessThanOrEqual(6);
    expect(all.map((e) => e.msgId)).toEqual(all.map((e) => e.event.eventId));
    const ofCust = all.filter((e) => e.event.party.kind === 'customer');
    expect(ofCust.map((e) => [e.subject, e.event.entryKind, e.event.delta])).toEqual([
      ['events.ledger.entry.posted', 'sale', '749.5'],
      ['events.ledger.payment.received', 'payment_received', '-200.25'],
      ['events.ledger.entry.posted', 'sale', '80'],
      ['events.ledger.entry.posted', 'reversal', '-80'],
    ]);
    const sale = ofCust[0]!.event as LedgerEntryEvent;
    expect(sale).toMatchObject({ companyId: 1, date: '2030-05-01', source: { kind: 'sale', id: 501 }, amount: '1000', paid: '250.5', dueDate: '2030-06-01' });
    const received = ofCust[1]!.event as PaymentEvent;
    expect(received).toMatchObject({ paymentId: pay.body.paymentId, payType: 'Cash', amount: '200.25', dueDate: '2030-07-01' });
    // By mode for the cash books (issue 29): none given is cash; the reversal carries its entry's (none: 0 paid).
    expect(sale.payments).toEqual([{ mode: 'cash', amount: '250.5' }]);
    expect(sale.by).toBeNull();
    expect(received.payments).toEqual([{ mode: 'cash', amount: '200.25' }]);
    expect((ofCust[3]!.event as LedgerEntryEvent).payments).toEqual([]);
    const due = await stack.ask<PartyDueReply>(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'customer', id: cust } });
    expect(Money.add(...ofCust.map((e) => e.event.delta)).toFixed(2)).toBe('549.25');
    expect(Money.money(due.due).toFixed(2)).toBe('549.25');
    const ofDist = all.filter((e) => e.event.party.kind === 'distributor');
    expect(ofDist.map((e) => [e.subject, e.event.delta])).toEqual([
      ['events.ledger.entry.posted', '500.5'],
      ['events.ledger.payment.given', '-500'],
    ]);
  });

  it('the history answers every entry as the same event, oldest first, paged', async () => {
    const first = await stack.ask<HistoryPageReply>(Subjects.ledger.historyPage, { companyId: 1, source: 'entry', limit: 4 });
    const rest = await stack.ask<HistoryPageReply>(Subjects.ledger.historyPage, { companyId: 1, source: 'entry', limit: 4, after: first.next });
    expect(rest.next).toBeNull();
    const streamed = await entryEvents();
    expect([...first.events, ...rest.events].map((h) => h.event)).toEqual(streamed.map((e) => e.event));
    expect([...first.events, ...rest.events].map((h) => h.subject)).toEqual(streamed.map((e) => e.subject));
  });

  it('a customer and a distributor, created and edited, are published as party.changed with their names, each write once, newer versions later', async () => {
    const parties = () => streamEvents().then((all) => all.filter(isParty));
    const ofCust = (all: { event: PartyChangedEvent }[]) => all.filter((e) => e.event.party.kind === 'customer' && e.event.party.id === cust).map((e) => e.event);
    // beforeAll created one customer and one distributor.
    const created = ofCust(await waitForCount(2, 5000, parties));
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ companyId: 1, party: { kind: 'customer', id: cust }, name: 'Ravi Events', mobile: '9123400777', gstin: null, walkIn: false });
    // A rename: one more event, with a later version; the first one is not published again.
    expect((await A.put('/clients/addClient', { ...customerForm({ name: 'Ravi Events & Sons' }), id: cust, mobile_no: undefined })).body.done).toBe(true);
    expect((await A.put('/addDistributor', { ...distributorForm({ name: 'Eastern Traders (Howrah)' }), id: dist })).body.done).toBe(true);
    const all = await waitForCount(4, 5000, parties);
    await new Promise((r) => setTimeout(r, 300));
    const mine = (await parties()).filter((e) => e.event.party.id === cust || e.event.party.id === dist);
    expect(mine.map((e) => e.msgId)).toEqual(mine.map((e) => e.event.eventId));
    const custEvents = ofCust(mine);
    expect(custEvents.map((e) => e.name)).toEqual(['Ravi Events', 'Ravi Events & Sons']);
    expect(custEvents[1]!.version).toBeGreaterThanOrEqual(custEvents[0]!.version);
    const distEvents = mine.filter((e) => e.event.party.kind === 'distributor').map((e) => e.event as PartyChangedEvent);
    expect(distEvents.map((e) => e.name)).toEqual(['Eastern Traders', 'Eastern Traders (Howrah)']);
    expect(distEvents[1]).toMatchObject({ mobile: '', companyId: 1 });
    expect(all.length).toBeGreaterThanOrEqual(4);
    // The history answers each party as it now is (for a rebuild from zero).
    const hc = await stack.ask<HistoryPageReply>(Subjects.ledger.historyPage, { companyId: 1, source: 'customer' });
    expect(hc.events.filter((h) => (h.event as PartyChangedEvent).party.id === cust).map((h) => [h.subject, (h.event as PartyChangedEvent).name])).toEqual([[EventSubjects.ledger.partyChanged, 'Ravi Events & Sons']]);
    const hd = await stack.ask<HistoryPageReply>(Subjects.ledger.historyPage, { companyId: 1, source: 'distributor' });
    expect(hd.events.map((h) => (h.event as PartyChangedEvent).name)).toEqual(['Eastern Traders (Howrah)']);
    expect((hd.events[0]!.event as PartyChangedEvent).version).toBe(distEvents[1]!.version);
  });

  it('a party written before its event existed is published once when the ledger starts on that database', async () => {
    const db = stack.svc.app.get<Connection>(getConnectionToken()).db!;
    // As a database from before party events: a customer with no marks, and no record of the one-time publish.
    const at = new Date('2026-01-15T10:00:00Z');
    await db.collection('customers').insertOne({ companyId: 1, client_id: 9001, name: 'Old Ledger Customer', mobile_no: '9000090001', walkIn: false, gstin: null, createdAt: at, updatedAt: at });
    await db.collection('event_backfills').deleteMany({});
    const again = await startTestService(AppModule, { service: 'ledger', mongoUri: stack.mongo.uri, natsUrl: stack.nats.url, jwtSecret: SECRET, dbName: stack.svc.config.dbName });
    try {
      const old = async () => (await streamEvents()).filter((e) => isParty(e) && e.event.party.id === 9001);
      for (let i = 0; i < 100 && !(await old()).length; i++) await new Promise((r) => setTimeout(r, 50));
      const published = await old();
      expect(published.map((e) => e.event)).toEqual([expect.objectContaining({ name: 'Old Ledger Customer', version: at.getTime(), party: { kind: 'customer', id: 9001 } })]);
      // Once per database: a second start publishes nothing more.
      await again.close();
      const third = await startTestService(AppModule, { service: 'ledger', mongoUri: stack.mongo.uri, natsUrl: stack.nats.url, jwtSecret: SECRET, dbName: stack.svc.config.dbName });
      await new Promise((r) => setTimeout(r, 500));
      await third.close();
      expect(await old()).toHaveLength(1);
    } finally {
      await again.close().catch(() => undefined);
    }
  });
});
