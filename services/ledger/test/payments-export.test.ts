import { Subjects } from '@bahi/contracts';
import { as, customerForm, distributorForm, startLedger, tokenFor, type Stack } from './helpers';

// "Download all data": GET /export/payments, one row per tender of every entry that moved money.
let stack: Stack;
let A: ReturnType<typeof as>;
let cust: number;
let dist: number;

beforeAll(async () => {
  stack = await startLedger();
  A = as(stack.url, tokenFor(1));
  cust = (await A.post('/clients/addClient', customerForm({ mobile_no: '9811100031' }))).body.id;
  dist = (await A.post('/addDistributor', distributorForm())).body.id;
  // Bill 601: 2,650.00, paid 500.00 cash + 1,150.00 UPI taken by user 12; bill 602 on credit (no money, no row).
  const payments = [{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1150', ref: 'UPI 4471' }];
  await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 601 }, amount: '2650.00', paid: '1650.00', payments, by: 12 });
  await stack.ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'customer', id: cust }, source: { kind: 'sale', id: 602 }, amount: '400.00', paid: '0', payments: [], by: 12 });
  // The manager (user 11) receives 250.50 without modes (cash) and gives the distributor 300.00 by cheque.
  expect((await A.post('/salesDuePayment', { client_id: cust, amount: 250.5, nextDD: '2030-12-31' })).status).toBe(200);
  expect((await A.post('/purchaseDuePaymentReact', { distributorId: dist, amount: '300', nextDD: '2030-12-31', payments: [{ mode: 'cheque', amount: '300', ref: 'CHQ 7' }] })).status).toBe(200);
}, 60_000);
afterAll(() => stack?.stop());

/** CSV rows as header -> text. */
function records(csv: string): Record<string, string>[] {
  const [head, ...rows] = csv.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
  const headers = head!.split(',');
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [headers[i]!, v])));
}

it('lists each tender with its mode, reference and who took or gave it, customers then distributors, amounts with 2 decimals', async () => {
  const res = await A.get('/export/payments?format=csv');
  expect(res.status).toBe(200);
  const keys = ['Party', 'Party ID', 'Type', 'Ref', 'Mode', 'Amount', 'Reference', 'By (user ID)'];
  const rows = records(res.text).map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])));
  expect(rows).toEqual([
    { Party: 'Customer', 'Party ID': String(cust), Type: 'Sale', Ref: '601', Mode: 'Cash', Amount: '500.00', Reference: '', 'By (user ID)': '12' },
    { Party: 'Customer', 'Party ID': String(cust), Type: 'Sale', Ref: '601', Mode: 'UPI', Amount: '1150.00', Reference: 'UPI 4471', 'By (user ID)': '12' },
    { Party: 'Customer', 'Party ID': String(cust), Type: 'Payment Received', Ref: expect.any(String), Mode: 'Cash', Amount: '250.50', Reference: '', 'By (user ID)': '11' },
    { Party: 'Distributor', 'Party ID': String(dist), Type: 'Payment Given', Ref: expect.any(String), Mode: 'Cheque', Amount: '300.00', Reference: 'CHQ 7', 'By (user ID)': '11' },
  ]);
});

it("answers only the caller's company and refuses staff with 403", async () => {
  expect(records((await as(stack.url, tokenFor(2)).get('/export/payments?format=csv')).text)).toEqual([]);
  expect((await as(stack.url, tokenFor(1, 'staff')).get('/export/payments?format=csv')).status).toBe(403);
});
