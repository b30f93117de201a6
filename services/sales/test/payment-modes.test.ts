// Issue 28: payment modes on MAKE_SALE and the sales return, and the return's preview, against the
// real inventory and ledger. Figures worked out by hand beside them.
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { as, category, customer, product, startSales, tokenFor, type Stack } from './helpers';

let s: Stack;
let mgr: string;
let staff: string;
let M: ReturnType<typeof as>;
let S: ReturnType<typeof as>;
let sheet: number;
let chalk: number;
let asha: number;

const uidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).uid as number;
const history = async (id: number) => (await as(s.ledger.url, mgr).get(`/getAllClientsHistory?pageNo=0&id=${id}`)).body.list;

async function fill(who: ReturnType<typeof as>, code: string) {
  await who.del('/clearCart/1').expect(200);
  return (await who.get(`/addProductIntoCart/${encodeURIComponent(code)}?cart_no=1`).expect(200)).body[0][0];
}

beforeAll(async () => {
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  staff = tokenFor(s.companyId, 'staff');
  M = as(s.url, mgr);
  S = as(s.url, staff);
  const cat = await category(s.inventory.url, mgr, 'Plywood');
  sheet = await product(s.inventory.url, mgr, cat, { name: 'Greenply 18mm', mrp: '1650', stock: '50' });
  chalk = await product(s.inventory.url, mgr, cat, { name: 'Chalk', mrp: '0.85', stock: '50' });
  asha = await customer(s.ledger.url, mgr, 'Asha Verma', '9876500028');
}, 120_000);
afterAll(() => s?.stop());

describe('payment modes on a sale', () => {
  it('a 1,650.00 sale paid 500 cash + 1,150 UPI: the bill and the customer history show both tenders, the ledger the cashier', async () => {
    await fill(S, `1*${sheet}`);
    const payments = [{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1150.00', ref: 'UPI 412345678901' }];
    const r = await S.post('/MAKE_SALE', { clientId: asha, cart_no: 1, paid: '1650.00', payments }).expect(200);
    const bill = (await S.get(`/getBillDetails?id=${r.body.saleId}`).expect(200)).body.saleDetails;
    expect(bill).toMatchObject({ amount: 1650, paid: 1650, due: 0 });
    expect(bill.payments).toEqual([{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1150', ref: 'UPI 412345678901' }]);
    const [row] = await history(asha);
    expect(row).toMatchObject({ type: 'Sale', ref: r.body.saleId, amount: 1650, paid: 1650, balance: 0, payments: bill.payments });
    // The ledger's entry keeps the tenders and the staff member who took the money.
    const entries = s.ledger.app.get<Connection>(getConnectionToken()).db!.collection('entries');
    const entry = await entries.findOne({ companyId: s.companyId, sourceKind: 'sale', sourceId: r.body.saleId });
    expect(entry).toMatchObject({ by: uidOf(staff), payments: bill.payments });
  });

  it('without payments the paid amount is cash; nothing paid is no tender', async () => {
    await fill(S, `1*${sheet}`);
    const r = await S.post('/MAKE_SALE', { clientId: asha, cart_no: 1, paid: '650' }).expect(200);
    expect((await S.get(`/getBillDetails?id=${r.body.saleId}`)).body.saleDetails.payments).toEqual([{ mode: 'cash', amount: '650' }]);
    await fill(S, `1*${sheet}`);
    const none = await S.post('/MAKE_SALE', { clientId: asha, cart_no: 1, paid: '0' }).expect(200);
    expect((await S.get(`/getBillDetails?id=${none.body.saleId}`)).body.saleDetails.payments).toEqual([]);
  });

  it('refuses a sum mismatch, a bad mode and a ref over 40 characters with 400 and a sentence; the cart stays, nothing sold', async () => {
    const line = await fill(S, `1*${sheet}`);
    const lastSale = (await S.get('/getSaleList?pageNo=0')).body;
    const cases: [unknown, string][] = [
      [[{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1000' }], 'The payments add up to Rs 1500.00 but paid is Rs 1650.00; they must be equal.'],
      [[{ mode: 'credit', amount: '1650' }], 'Payment 1: the mode must be one of Cash, UPI, Card, Cheque, Bank transfer (cash, upi, card, cheque, bank).'],
      [[{ mode: 'upi', amount: '1650', ref: 'R'.repeat(41) }], 'Payment 1: the reference (UPI reference, cheque number) can be at most 40 characters.'],
      [{ mode: 'cash', amount: '1650' }, 'payments must be a list of tenders, each with mode, amount and ref.'],
    ];
    for (const [payments, msg] of cases) {
      const res = await S.post('/MAKE_SALE', { clientId: asha, cart_no: 1, paid: '1650', payments });
      expect([res.status, res.body.message]).toEqual([400, msg]);
    }
    const cart = (await S.get('/getProducts?cart_no=1')).body;
    expect(JSON.stringify(cart)).toContain(`"sl_no":${line.sl_no}`);
    expect((await S.get('/getSaleList?pageNo=0')).body).toEqual(lastSale);
  });
});

describe('the return: preview and refund modes', () => {
  // Chalk 0.85 x 2 = 1.70; tax 18 % = 0.306 -> 0.31; bill 2.01. Returning 1 of 2 packs credits
  // half the line: 2.01 / 2 = 1.005 -> 1.01 (half away from zero; a float would show 1.00).
  let saleId: number;
  let sl: number;
  beforeAll(async () => {
    sl = (await fill(M, `2*${chalk}`)).sl_no;
    await M.post('/upTax', { cart_no: 1, tax: 1 }).expect(200);
    saleId = (await M.post('/MAKE_SALE', { clientId: asha, cart_no: 1, paid: '2.01' }).expect(200)).body.saleId;
    expect((await M.get(`/getBillDetails?id=${saleId}`)).body.saleDetails.amount).toBe(2.01);
  });

  it('GET /previewReturn answers the figure the return books', async () => {
    const p = await S.get(`/previewReturn?saleId=${saleId}&lines=${sl}:1`).expect(200);
    expect(p.body).toEqual({ value: '1.01', refund_max: '1.01', lines: [{ sl_no: sl, quantity: '1', value: '1.01' }] });
    const bad = await S.get(`/previewReturn?saleId=${saleId}&lines=${sl}:3`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(`Line ${sl} (Chalk): only 2 of 2 can be returned (0 already returned); asked for 3.`);
    expect((await S.get(`/previewReturn?saleId=${saleId}&lines=x`)).status).toBe(400);
    // The refund split 0.51 cash + 0.50 UPI; a split that misses the refund is refused first.
    const miss = await M.post('/salesReturn', { saleId, lines: [{ sl_no: sl, quantity: 1 }], refund: '1.01', payments: [{ mode: 'cash', amount: '1' }] });
    expect([miss.status, miss.body.message]).toEqual([400, 'The payments add up to Rs 1.00 but refund is Rs 1.01; they must be equal.']);
    const ret = await M.post('/salesReturn', { saleId, lines: [{ sl_no: sl, quantity: 1 }], refund: '1.01', payments: [{ mode: 'cash', amount: '0.51' }, { mode: 'upi', amount: '0.50' }] }).expect(200);
    expect(ret.body).toMatchObject({ amount: 1.01, refund: 1.01 });
    const [row] = await history(asha);
    expect(row).toMatchObject({ type: 'Credit Note', amount: 1.01, paid: 1.01, payments: [{ mode: 'cash', amount: '0.51' }, { mode: 'upi', amount: '0.5' }] });
    // The second pack completes the line: 2.01 - 1.01 = 1.00.
    expect((await S.get(`/previewReturn?saleId=${saleId}&lines=${sl}:1`)).body).toEqual({ value: '1.00', refund_max: '1.00', lines: [{ sl_no: sl, quantity: '1', value: '1.00' }] });
  });
});

describe('a cancelled bill gives its counter payment back in the modes it was taken (issue 29)', () => {
  it('the ledger cancellation entry carries the bill\'s tenders and the manager who cancelled', async () => {
    // 1,650.00 paid 300.00 UPI + 200.00 cash (1,150.00 due); cancelled: the 500.00 goes back as it came.
    await fill(S, `1*${sheet}`);
    const payments = [{ mode: 'upi', amount: '300', ref: 'UTR55' }, { mode: 'cash', amount: '200' }];
    const sale = await S.post('/MAKE_SALE', { clientId: asha, cart_no: 1, paid: '500', payments }).expect(200);
    await M.post('/cancelSale', { saleId: sale.body.saleId, reason: 'Billed twice' }).expect(200);
    const entries = s.ledger.app.get<Connection>(getConnectionToken()).db!.collection('entries');
    const entry = await entries.findOne({ companyId: s.companyId, sourceKind: 'sale-cancel', entryKind: 'cancellation', refId: sale.body.saleId });
    expect(entry).toMatchObject({ amount: '1650', paid: '500', delta: '-1150', by: uidOf(mgr), payments: [{ mode: 'upi', amount: '300', ref: 'UTR55' }, { mode: 'cash', amount: '200' }] });
  });
});
