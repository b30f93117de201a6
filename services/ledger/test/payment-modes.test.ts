import { Subjects } from '@bahi/contracts';
import { AccountsService } from '../src/accounts/accounts.service';
import { as, customerForm, distributorForm, startLedger, tokenFor, type Stack } from './helpers';

// Issue 28: each money call's tenders, and the user who took the money, on the ledger's entries.
let stack: Stack;
let A: ReturnType<typeof as>;
let staffA: ReturnType<typeof as>;
let cust: number;
let dist: number;

beforeAll(async () => {
  stack = await startLedger();
  A = as(stack.url, tokenFor(1));
  staffA = as(stack.url, tokenFor(1, 'staff'));
  cust = (await A.post('/clients/addClient', customerForm({ mobile_no: '9811100028' }))).body.id;
  dist = (await A.post('/addDistributor', distributorForm())).body.id;
}, 60_000);
afterAll(() => stack?.stop());

const history = async () => (await A.get(`/getAllClientsHistory?pageNo=0&id=${cust}`)).body.list;

describe('payment modes on the ledger', () => {
  it('a sale of 2,650.00 paid 500 cash + 1,150 UPI: the entry keeps both tenders and the cashier; the due is 1,000.00', async () => {
    const payments = [{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1150.00', ref: 'UPI412345678901' }];
    const posted = await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 501 }, amount: '2650.00', paid: '1650.00', payments, by: 12 });
    expect(posted).toEqual({ posted: true });
    const [row] = await history();
    expect(row).toMatchObject({ type: 'Sale', ref: 501, amount: 2650, paid: 1650, balance: 1000 });
    expect(row.payments).toEqual([{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1150', ref: 'UPI412345678901' }]);
    // The ledger README's fields for the cash books: payments and by (the cashier's user id).
    const entry = await stack.svc.app.get(AccountsService).model.findOne({ companyId: 1, sourceKind: 'sale', sourceId: 501 }).lean();
    expect(entry).toMatchObject({ by: 12, payments: [{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1150', ref: 'UPI412345678901' }] });
  });

  it('a post whose tenders do not add up to paid is refused (400) and posts nothing', async () => {
    const err = await stack
      .ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 502 }, amount: '100', paid: '100', payments: [{ mode: 'cash', amount: '90' }] })
      .catch((e: Error) => e);
    expect(String((err as Error).message)).toContain('The payments add up to Rs 90.00 but paid is Rs 100.00; they must be equal.');
    expect(await history()).toHaveLength(1);
  });

  it('salesDuePayment: split tender by a staff member; receipt and history show the tenders; the receipt type names both modes', async () => {
    const res = await staffA.post('/salesDuePayment', { client_id: cust, amount: '1000', nextDD: '2026-12-31', payments: [{ mode: 'cash', amount: '400' }, { mode: 'card', amount: '600', ref: 'AUTH 0042' }] });
    expect(res.body).toEqual({ done: true, paymentId: expect.any(Number) });
    const receipt = (await A.get(`/getSalesPaymentDetails?id=${res.body.paymentId}`)).body.data;
    expect(receipt).toMatchObject({ amount: 1000, previous_due: 1000, due: 0, type: 'Cash + Card', transaction_id: 'AUTH 0042' });
    expect(receipt.payments).toEqual([{ mode: 'cash', amount: '400' }, { mode: 'card', amount: '600', ref: 'AUTH 0042' }]);
    const [row] = await history();
    expect(row).toMatchObject({ type: 'Payment Received', amount: 1000, balance: 0 });
    expect(row.payments).toEqual(receipt.payments);
    // Staff user 12 (tokenFor(1, 'staff')) took it.
    const entry = await stack.svc.app.get(AccountsService).model.findOne({ companyId: 1, sourceKind: 'payment', sourceId: res.body.paymentId }).lean();
    expect(entry?.by).toBe(12);
  });

  it('without payments the amount is cash, exactly as the spec\'s callers send it', async () => {
    const res = await A.post('/salesDuePayment', { client_id: cust, amount: 250.5, nextDD: '2026-12-31' });
    const receipt = (await A.get(`/getSalesPaymentDetails?id=${res.body.paymentId}`)).body.data;
    expect(receipt.type).toBe('Cash');
    expect(receipt.payments).toEqual([{ mode: 'cash', amount: '250.5' }]);
  });

  it('refuses a sum mismatch, a bad mode, a ref over 40 characters with 400 and a sentence; nothing recorded', async () => {
    const before = (await history()).length;
    const cases: [unknown, string][] = [
      [[{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1000' }], 'The payments add up to Rs 1500.00 but amount is Rs 1650.00; they must be equal.'],
      [[{ mode: 'paytm', amount: '1650' }], 'Payment 1: the mode must be one of Cash, UPI, Card, Cheque, Bank transfer (cash, upi, card, cheque, bank).'],
      [[{ mode: 'cheque', amount: '1650', ref: '1'.repeat(41) }], 'Payment 1: the reference (UPI reference, cheque number) can be at most 40 characters.'],
      [[{ mode: 'upi', amount: '-1650' }], 'Payment 1: the amount must be more than 0.'],
      ['cash', 'payments must be a list of tenders, each with mode, amount and ref.'],
    ];
    for (const [payments, err] of cases) {
      const res = await A.post('/salesDuePayment', { client_id: cust, amount: '1650.00', nextDD: '2026-12-31', payments });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ done: false, err });
    }
    expect(await history()).toHaveLength(before);
  });

  it('purchaseDuePaymentReact: a cheque and a bank transfer; the distributor history shows them', async () => {
    await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'distributor', id: dist }, source: { kind: 'purchase', id: 77 }, amount: '5000', paid: '0' });
    const res = await A.post('/purchaseDuePaymentReact', { distributorId: dist, amount: '3000', nextDD: '2026-12-31', payments: [{ mode: 'cheque', amount: '2000', ref: '000123' }, { mode: 'bank', amount: '1000' }] });
    expect(res.body).toEqual({ done: true, paymentId: expect.any(Number) });
    const list = (await A.get(`/distributorsHistory?pageNo=0&id=${dist}`)).body.list;
    expect(list[0]).toMatchObject({ type: 'Payment Given', amount: 3000, balance: 2000 });
    expect(list[0].payments).toEqual([{ mode: 'cheque', amount: '2000', ref: '000123' }, { mode: 'bank', amount: '1000' }]);
    // The purchase paid nothing: no tenders on its row.
    expect(list[1]).toMatchObject({ type: 'Purchase', payments: [] });
    const bad = await A.post('/purchaseDuePaymentReact', { distributorId: dist, amount: '10', payments: [{ mode: 'bank', amount: '9.99' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.err).toBe('The payments add up to Rs 9.99 but amount is Rs 10.00; they must be equal.');
  });

  it('a reversal carries the undone tenders', async () => {
    await stack.ask(Subjects.ledger.entryReverse, { companyId: 1, source: { kind: 'sale', id: 501 } });
    const [row] = await history();
    expect(row.type).toBe('Reversal of sale 501');
    expect(row.payments).toEqual([{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1150', ref: 'UPI412345678901' }]);
  });
});
