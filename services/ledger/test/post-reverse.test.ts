import { Subjects, type CustomerStatement, type EntryPostReply, type EntryReverseReply, type PartyDueReply } from '@bahi/contracts';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { RELAY_COMMENT } from '@bahi/service-kit';
import { AccountsService } from '../src/accounts/accounts.service';
import { as, customerForm, distributorForm, startLedger, tokenFor, type Stack } from './helpers';

// A caller (sales, purchases) posts a source's entry and, when anything fails, reverses it. After
// a NATS timeout the reverse can arrive before the post or run beside it: these tests hold the
// ledger to "a reversed source never leaves a due", whatever the order.

let stack: Stack;
let A: ReturnType<typeof as>;
let cust: number;
let dist: number;
let entries: AccountsService['model'];
let client: mongo.MongoClient;

const sale = (id: number, over: Record<string, unknown> = {}) => ({
  companyId: 1,
  party: { kind: 'customer', id: cust },
  source: { kind: 'sale', id },
  amount: '1000',
  paid: '250.5',
  dueDate: '2030-06-01',
  date: '2030-05-01',
  ...over,
});
const post = (msg: unknown) => stack.ask<EntryPostReply>(Subjects.ledger.entryPost, msg);
const reverse = (kind: 'sale' | 'purchase', id: number) => stack.ask<EntryReverseReply>(Subjects.ledger.entryReverse, { companyId: 1, source: { kind, id } });
const due = (kind: 'customer' | 'distributor', id: number) => stack.ask<PartyDueReply>(Subjects.ledger.partyDue, { companyId: 1, party: { kind, id } });
const rowsOf = (kind: 'sale' | 'purchase', id: number) => entries.find({ companyId: 1, sourceKind: kind, sourceId: id }).lean();

/** A customer with nothing on their account yet, so any stray entry shows. */
async function freshCustomer(n: number): Promise<number> {
  const res = await A.post('/clients/addClient', customerForm({ mobile_no: `91234${String(n).padStart(5, '0')}`, name: `Customer ${n}` }));
  expect(res.body.done).toBe(true);
  return res.body.id;
}

beforeAll(async () => {
  stack = await startLedger({ monitorCommands: true });
  A = as(stack.url, tokenFor(1));
  cust = (await A.post('/clients/addClient', customerForm())).body.id;
  dist = (await A.post('/addDistributor', distributorForm())).body.id;
  entries = stack.svc.app.get(AccountsService).model;
  client = stack.svc.app.get<Connection>(getConnectionToken()).getClient();
}, 60_000);
afterAll(() => stack?.stop());

describe('post and reverse of one source', () => {
  it('a post arriving after its reverse posts nothing (the undo of a timed-out post came first)', async () => {
    expect(await reverse('sale', 101)).toEqual({ reversed: false });
    expect(await post(sale(101))).toEqual({ posted: false });
    expect(await post(sale(101))).toEqual({ posted: false });
    expect(await rowsOf('sale', 101)).toEqual([]);
    expect(await due('customer', cust)).toEqual({ due: '0', dueDate: null });

    expect(await reverse('purchase', 101)).toEqual({ reversed: false });
    expect(await post({ ...sale(101), party: { kind: 'distributor', id: dist }, source: { kind: 'purchase', id: 101 } })).toEqual({ posted: false });
    expect(await due('distributor', dist)).toEqual({ due: '0', dueDate: null });
  });

  it('post and reverse of 30 sources at once, also each started while the other is mid-way: never a due left behind', async () => {
    const before = (await due('customer', cust)).due;
    // Starts `then` the moment the ledger sends MongoDB a command matching `test`.
    const triggers: { test: (c: mongo.Document) => boolean; then: () => void }[] = [];
    const listen = (e: mongo.CommandStartedEvent) => {
      const hit = triggers.findIndex((t) => t.test(e.command));
      if (hit >= 0) triggers.splice(hit, 1)[0].then();
    };
    const midway = <T>(test: (c: mongo.Document) => boolean, start: () => Promise<T>) =>
      new Promise<T>((resolve, reject) => triggers.push({ test, then: () => start().then(resolve, reject) }));
    client.on('commandStarted', listen);
    const ids = Array.from({ length: 30 }, (_, i) => 200 + i);
    let results: (readonly [EntryPostReply, EntryReverseReply])[];
    try {
      results = await Promise.all(
        ids.map((id) => {
          if (id % 3 === 0) return Promise.all([post(sale(id)), reverse('sale', id)]);
          if (id % 3 === 1) {
            // The reverse arrives while the post is writing its entry.
            const r = midway((c) => c.insert === 'entries' && c.documents?.[0]?.sourceId === id, () => reverse('sale', id));
            return Promise.all([post(sale(id)), r]);
          }
          // The post (a late one) arrives while the reverse is looking for the entry.
          const p = midway((c) => c.find === 'entries' && c.filter?.sourceId === id, () => post(sale(id)));
          return Promise.all([p, reverse('sale', id)]);
        }),
      );
    } finally {
      client.off('commandStarted', listen);
    }
    for (const [i, id] of ids.entries()) {
      const [p, r] = results[i];
      // Either nothing was posted, or the entry and its reversal both exist.
      expect([id, (await rowsOf('sale', id)).map((e) => e.entryKind).sort()]).toEqual([id, p.posted ? ['reversal', 'sale'] : []]);
      expect([id, r.reversed]).toEqual([id, p.posted]);
    }
    // The due is back where it was (a posted-then-reversed sale keeps its due date, as reversals do).
    expect((await due('customer', cust)).due).toBe(before);
    // A late retry of any of them changes nothing.
    expect((await Promise.all(ids.map((id) => post(sale(id))))).filter((p) => p.posted)).toEqual([]);
    expect((await due('customer', cust)).due).toBe(before);
  });

  it('repeated posts make one entry, repeated reverses one reversal; a posted source reverses as before', async () => {
    const c = await freshCustomer(1);
    const msg = sale(301, { party: { kind: 'customer', id: c } });
    const posts = await Promise.all([post(msg), post(msg), post(msg), post(msg)]);
    expect(posts.filter((p) => p.posted)).toHaveLength(1);
    expect(await post(msg)).toEqual({ posted: false });
    expect(await due('customer', c)).toEqual({ due: '749.5', dueDate: '2030-06-01' });

    const reverses = await Promise.all([reverse('sale', 301), reverse('sale', 301), reverse('sale', 301)]);
    expect(reverses.filter((r) => r.reversed)).toHaveLength(1);
    expect(await reverse('sale', 301)).toEqual({ reversed: false });
    expect(await post(msg)).toEqual({ posted: false });
    expect((await rowsOf('sale', 301)).map((e) => [e.entryKind, e.delta]).sort()).toEqual([
      ['reversal', '-749.5'],
      ['sale', '749.5'],
    ]);
    // Reversals keep the due date the sale set.
    expect(await due('customer', c)).toEqual({ due: '0', dueDate: '2030-06-01' });
  });

  it('entries posted before sources were recorded still reverse once and do not post twice', async () => {
    const c = await freshCustomer(2);
    // Old-style data: the entry alone, as the ledger stored it before this change.
    const old = { companyId: 1, partyKind: 'customer' as const, partyId: c, sourceKind: 'sale' as const, sourceId: 401, amount: '500', paid: '100', delta: '400', date: '2030-05-01', dueDate: '2030-06-01' };
    await entries.create({ ...old, seq: 900_001, entryKind: 'sale' as const });
    expect(await post(sale(401, { party: { kind: 'customer', id: c }, amount: '500', paid: '100' }))).toEqual({ posted: false });
    expect(await due('customer', c)).toEqual({ due: '400', dueDate: '2030-06-01' });
    expect(await Promise.all([reverse('sale', 401), reverse('sale', 401)])).toEqual(expect.arrayContaining([{ reversed: true }, { reversed: false }]));
    expect(await reverse('sale', 401)).toEqual({ reversed: false });
    expect(await post(sale(401, { party: { kind: 'customer', id: c } }))).toEqual({ posted: false });
    expect(await due('customer', c)).toEqual({ due: '0', dueDate: '2030-06-01' });

    // Old-style and already reversed by the old code: nothing more either way.
    await entries.create({ ...old, sourceId: 402, seq: 900_002, entryKind: 'sale' as const });
    await entries.create({ ...old, sourceId: 402, seq: 900_003, entryKind: 'reversal' as const, delta: '-400', dueDate: null });
    expect(await reverse('sale', 402)).toEqual({ reversed: false });
    expect(await post(sale(402, { party: { kind: 'customer', id: c } }))).toEqual({ posted: false });
    expect(await rowsOf('sale', 402)).toHaveLength(2);
    expect(await due('customer', c)).toEqual({ due: '0', dueDate: '2030-06-01' });
  });

  it('a source voided before it was posted leaves no trace in history, statement, lists or dues', async () => {
    const c = await freshCustomer(3);
    expect(await reverse('sale', 501)).toEqual({ reversed: false });
    expect(await post(sale(501, { party: { kind: 'customer', id: c } }))).toEqual({ posted: false });
    expect(await Promise.all([reverse('sale', 501), post(sale(501, { party: { kind: 'customer', id: c } }))])).toEqual([{ reversed: false }, { posted: false }]);

    expect((await A.get(`/getAllClientsHistory?id=${c}&pageNo=0`)).body).toEqual({ list: [], noOfPages: 0, name: 'Customer 3' });
    expect((await A.get(`/getClientDue?custId=${c}`)).body).toEqual({ due: 0 });
    expect((await A.get(`/getClientDueAndDueDate?custId=${c}`)).body).toEqual({ due: 0, dueDate: null });
    expect((await A.get(`/getClientsDetails?id=${c}`)).body.data).toEqual(expect.objectContaining({ due: 0, dueDate: null }));
    const list = (await A.get('/getClientsList?pageNo=0')).body.clientsList as { id: number; due: number }[];
    expect(list.find((r) => r.id === c)).toEqual(expect.objectContaining({ due: 0 }));
    const st = await stack.ask<CustomerStatement>(Subjects.documents.customerStatement, { companyId: 1, clientId: c });
    expect(st).toEqual(expect.objectContaining({ rows: [], due: '0', dueDate: null }));
    expect(await entries.countDocuments({ companyId: 1, partyKind: 'customer', partyId: c })).toBe(0);
  });
});

describe('cost of a post (the sale hot path)', () => {
  it('a walk-in sale reads no customer once the walk-in is known: looked up, then posted', async () => {
    const walkIn = await stack.ask<{ client_id: number }>(Subjects.ledger.customerLookup, { companyId: 1, clientId: 0 });
    const sent: string[] = [];
    const listen = (e: mongo.CommandStartedEvent) => void (e.commandName !== 'endSessions' && sent.push(`${e.commandName}:${String((e.command as Record<string, unknown>)[e.commandName])}`));
    client.on('commandStarted', listen);
    try {
      for (let i = 0; i < 3; i++) {
        expect((await stack.ask<{ client_id: number }>(Subjects.ledger.customerLookup, { companyId: 1, clientId: 0 })).client_id).toBe(walkIn.client_id);
        expect(await post(sale(701 + i, { party: { kind: 'customer', id: walkIn.client_id } }))).toEqual({ posted: true });
      }
      expect(sent.filter((c) => c.endsWith(':customers'))).toEqual([]);
      expect(await rowsOf('sale', 703)).toHaveLength(1);
    } finally {
      client.off('commandStarted', listen);
    }
    // Another company's walk-in is its own.
    const other = await stack.ask<{ client_id: number; walkIn?: boolean }>(Subjects.ledger.customerLookup, { companyId: 2, clientId: 0 });
    expect(other.walkIn).toBe(true);
    await expect(post({ ...sale(704, { party: { kind: 'customer', id: walkIn.client_id } }), companyId: 2 })).rejects.toBeDefined();
  });

  it('a post costs at most 5 MongoDB commands, party check included (4 before source records)', async () => {
    const c = await freshCustomer(4);
    const sent: string[] = [];
    // The event relay's look-up and mark (after the answer, off the post's path) are counted apart.
    const relay = (e: mongo.CommandStartedEvent) => e.command.comment === RELAY_COMMENT;
    const listen = (e: mongo.CommandStartedEvent) => void (e.commandName !== 'endSessions' && !relay(e) && sent.push(e.commandName));
    client.on('commandStarted', listen);
    try {
      for (let i = 0; i < 10; i++) {
        sent.length = 0;
        expect(await post(sale(601 + i, { party: { kind: 'customer', id: c } }))).toEqual({ posted: true });
        // party, record upsert, entry counter, entry insert, commit
        expect(sent.length).toBeLessThanOrEqual(5);
      }
    } finally {
      client.off('commandStarted', listen);
    }
  });
});
