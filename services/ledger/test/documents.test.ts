import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { Subjects } from '@bahi/contracts';
import { RELAY_COMMENT } from '@bahi/service-kit';
import { as, customerForm, startLedger, tokenFor, type Stack } from './helpers';

let stack: Stack;
let A: ReturnType<typeof as>;
let B: ReturnType<typeof as>;
let asha: number;
let paymentId: number;

beforeAll(async () => {
  stack = await startLedger({ monitorCommands: true });
  A = as(stack.url, tokenFor(1));
  B = as(stack.url, tokenFor(2));
  asha = (await A.post('/clients/addClient', customerForm({ address_line_1: '7 Hill Road' }))).body.id;
  // More entries than one page of the ledger screen, so the statement must gather every page.
  for (let i = 1; i <= 12; i++) {
    const r = await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: asha }, source: { kind: 'sale', id: i }, amount: '100.25', paid: '50', dueDate: '2030-01-15', date: `2030-01-${String(i).padStart(2, '0')}` });
    expect(r).toBeTruthy();
  }
  const pay = await A.post('/salesDuePayment', { client_id: asha, amount: '200.5', nextDD: '2030-02-01' });
  expect(pay.body).toEqual({ done: true, paymentId: expect.any(Number) });
  paymentId = pay.body.paymentId;
}, 60_000);
afterAll(() => stack?.stop());

describe('ledger.receipt.document', () => {
  it('answers the receipt of a payment, as the receipt view shows it', async () => {
    const r = await stack.ask<any>(Subjects.documents.receiptDocument, { companyId: 1, paymentId });
    // 12 x 50.25 = 603 due before, 402.5 after
    expect(r).toEqual({
      id: paymentId,
      client_id: asha,
      name: 'Asha Verma',
      mobile_no: '9876500001',
      address: expect.stringContaining('7 Hill Road'),
      type: 'Cash',
      transaction_id: '',
      amount: 200.5,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      next_due_date: '2030-02-01',
      previous_due: 603,
      due: 402.5,
      payments: [{ mode: 'cash', amount: '200.5' }],
    });
    const http = (await A.get(`/getSalesPaymentDetails?id=${paymentId}`)).body.data;
    expect(r).toEqual(http);
  });

  it('answers null for an unknown payment or one of another company', async () => {
    expect(await stack.ask(Subjects.documents.receiptDocument, { companyId: 1, paymentId: 999 })).toBeNull();
    expect(await stack.ask(Subjects.documents.receiptDocument, { companyId: 2, paymentId })).toBeNull();
  });
});

describe('ledger.customer.statement', () => {
  it('answers every entry of the account, oldest first, with the due', async () => {
    const s = await stack.ask<any>(Subjects.documents.customerStatement, { companyId: 1, clientId: asha });
    expect(s.customer).toMatchObject({ client_id: asha, name: 'Asha Verma' });
    expect(s.rows).toHaveLength(13);
    expect(s.rows.slice(0, 12).map((r: any) => r.ref)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(s.rows[0]).toMatchObject({ date: '2030-01-01', type: 'Sale', amount: 100.25, paid: 50, balance: 50.25, hide_link: 'bill' });
    expect(s.rows[12]).toMatchObject({ type: 'Payment Received', ref: paymentId, amount: 200.5, balance: 402.5, hide_link: 'receipt' });
    expect(s.due).toBe('402.5');
    expect(s.dueDate).toBe('2030-02-01');
    // The same rows as the ledger screen's pages, reversed.
    const p0 = (await A.get(`/getAllClientsHistory?id=${asha}&pageNo=0`)).body.list;
    const p1 = (await A.get(`/getAllClientsHistory?id=${asha}&pageNo=1`)).body.list;
    expect(s.rows).toEqual([...p0, ...p1].reverse());
  });

  it('answers null for an unknown customer, one of another company and the walk-in customer', async () => {
    expect(await stack.ask(Subjects.documents.customerStatement, { companyId: 1, clientId: 999 })).toBeNull();
    expect(await stack.ask(Subjects.documents.customerStatement, { companyId: 2, clientId: asha })).toBeNull();
    const other = (await B.post('/clients/addClient', customerForm({ name: 'Bina Sen', mobile_no: '9876500002' }))).body.id;
    expect(await stack.ask(Subjects.documents.customerStatement, { companyId: 2, clientId: other })).toMatchObject({ customer: { name: 'Bina Sen' }, rows: [], due: '0' });
    const walkIn = await stack.ask<any>(Subjects.ledger.customerLookup, { companyId: 1, clientId: 0 });
    expect(await stack.ask(Subjects.documents.customerStatement, { companyId: 1, clientId: walkIn.client_id })).toBeNull();
  });

  it('reads the account once however many pages it has (linear), with the same rows as the ledger screen', async () => {
    const many = (await A.post('/clients/addClient', customerForm({ name: 'Chitra Rao', mobile_no: '9876500003' }))).body.id;
    const n = 95; // 10 pages of the ledger screen
    for (let i = 1; i <= n; i++) {
      const r = await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: many }, source: { kind: 'sale', id: 1000 + i }, amount: '10', paid: '1', dueDate: '2030-03-01', date: '2030-02-01' });
      expect(r).toBeTruthy();
    }
    const client = stack.svc.app.get<Connection>(getConnectionToken()).getClient();
    const reads: string[] = [];
    const listen = (e: mongo.CommandStartedEvent) => {
      // The event relay's look-up of unpublished entries (after the inserts above) is not the statement's.
      if (e.commandName === 'find' && e.command.find === 'entries' && e.command.comment !== RELAY_COMMENT) reads.push(JSON.stringify(e.command.filter));
    };
    client.on('commandStarted', listen);
    let s: any;
    try {
      s = await stack.ask<any>(Subjects.documents.customerStatement, { companyId: 1, clientId: many });
    } finally {
      client.off('commandStarted', listen);
    }
    // One read of the rows and one of the due, not one read of every entry per page.
    expect(reads.length).toBeLessThanOrEqual(2);
    expect(s.rows).toHaveLength(n);
    expect(s.rows[n - 1]).toMatchObject({ balance: 855 });
    expect(s.due).toBe('855');
    const pages: any[] = [];
    for (let p = 0; p < 10; p++) pages.push(...(await A.get(`/getAllClientsHistory?id=${many}&pageNo=${p}`)).body.list);
    expect(s.rows).toEqual(pages.reverse());
    expect(s.entries).toBe(n);
    // documents' page limit: an account longer than maxRows is counted, not read or sent.
    reads.length = 0;
    client.on('commandStarted', listen);
    try {
      const over = await stack.ask<any>(Subjects.documents.customerStatement, { companyId: 1, clientId: many, maxRows: n - 1 });
      expect(over).toMatchObject({ rows: [], entries: n, due: '855' });
      expect(reads.length).toBeLessThanOrEqual(1);
    } finally {
      client.off('commandStarted', listen);
    }
    expect((await stack.ask<any>(Subjects.documents.customerStatement, { companyId: 1, clientId: many, maxRows: n })).rows).toHaveLength(n);
  }, 60_000);
});
