import request from 'supertest';
import { as, auth, category, product, startSales, tokenFor, type Stack } from './helpers';

/**
 * Issue 28, hand-computed: Greenply 18mm at Rs 2,850.00 and Edge Tape at Rs 20.00. A line's
 * discount never above its rate, the summary discount never above the bill before it, a staff
 * member's discount above the company's percent approved by a manager's PIN (recorded on the sale),
 * the PIN's lockout, and a due left on the walk-in customer as walkin_credit says.
 */
let s: Stack;
let mgr: string;
let staff: ReturnType<typeof as>;
let boss: ReturnType<typeof as>;
let greenply: number;
let tape: number;
let kiranId: number;
const PIN = '2468';
const settings = (extra: Record<string, unknown>) =>
  request(s.identity.url).post('/setCompanyDetails').set(auth(mgr)).send({ id: s.companyId, name: 'Sharma General Store', add1: '4 Station Road', mob1: '9822001122', ...extra }).expect(200);
const cart = async () => (await staff.get('/getProducts?cart_no=1').expect(200)).body;
/** The company cache in sales drops on identity.company.changed; this waits for a setting to reach it. */
async function until(fn: () => Promise<boolean>) {
  for (let i = 0; i < 50 && !(await fn()); i++) await new Promise((r) => setTimeout(r, 100));
}

beforeAll(async () => {
  process.env.BAHI_LOCKOUT_SECONDS = '300';
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  staff = as(s.url, tokenFor(s.companyId, 'staff'));
  boss = as(s.url, tokenFor(s.companyId, 'manager'));
  const cat = await category(s.inventory.url, mgr, 'Boards');
  greenply = await product(s.inventory.url, mgr, cat, { name: 'Greenply 18mm', mrp: '2850', unit: 'pcs', stock: '40' });
  tape = await product(s.inventory.url, mgr, cat, { name: 'Edge Tape', mrp: '20', unit: 'pcs', stock: '40' });
  // A real manager with a PIN: made by the manager, own password set, then PUT /profile/pin.
  await request(s.identity.url).post('/users').set(auth(mgr)).send({ name: 'Kiran Rao', email: 'kiran@sharma.in', password: 'kiran-temp-1', position: 'manager' }).expect(201);
  const first = await request(s.identity.url).post('/loginReact').send({ email: 'kiran@sharma.in', password: 'kiran-temp-1' }).expect(200);
  await request(s.identity.url).post('/manage/profile/edit/updatePassword').set(auth(first.body.token)).send({ current_password: 'kiran-temp-1', new_password: 'kiran-own-12', re_type_new_password: 'kiran-own-12' }).expect(200);
  const kiran = await request(s.identity.url).post('/loginReact').send({ email: 'kiran@sharma.in', password: 'kiran-own-12' }).expect(200);
  kiranId = kiran.body.user.id;
  await request(s.identity.url).put('/profile/pin').set(auth(kiran.body.token)).send({ current_password: 'kiran-own-12', pin: PIN }).expect(200);
  // Staff may not set a PIN (position checked by identity).
  await request(s.identity.url).put('/profile/pin').set(auth(tokenFor(s.companyId, 'staff'))).send({ current_password: 'x', pin: '1234' }).expect(403);
}, 180_000);
afterAll(() => s?.stop());

describe('discount limits at the counter (cart)', () => {
  let sl: number;

  it('a line discount above the rate is 400 with the sentence, and the cart is unchanged', async () => {
    sl = (await staff.get(`/addProductIntoCart/${greenply}`).expect(200)).body[0][0].sl_no;
    const r = await staff.post('/upDisc', { sl_no: sl, discount: '5000' }).expect(400);
    expect(r.body.message).toBe('The discount on Greenply 18mm cannot be more than its rate, Rs 2,850.00.');
    const c = await cart();
    expect(c.cart[0].discount).toBe(0);
    expect(c.summery.total).toBe(2850);
    // The whole rate is allowed at the default limit (100%): the spec's behaviour, total 0.00.
    await staff.post('/upDisc', { sl_no: sl, discount: '2850' }).expect(200);
    expect((await cart()).summery.total).toBe(0);
    await staff.post('/upDisc', { sl_no: sl, discount: '0' }).expect(200);
  });

  it('staff above staff_max_discount_percent: 403 needsApproval; a wrong PIN 403; the right PIN sets it', async () => {
    await settings({ staff_max_discount_percent: 10 });
    // 10% of 2,850.00 = 285.00: allowed as typed.
    await until(async () => (await staff.post('/upDisc', { sl_no: sl, discount: '285.01' })).status === 403);
    const ok = await staff.post('/upDisc', { sl_no: sl, discount: '285' }).expect(200);
    expect(ok.body.summery.total).toBe(2565);
    const need = await staff.post('/upDisc', { sl_no: sl, discount: '300' }).expect(403);
    expect(need.body).toMatchObject({ needsApproval: true, msg: 'A discount of Rs 300.00 on Greenply 18mm is more than 10% of its rate (Rs 285.00): a manager must approve it.' });
    const approvers = await staff.get('/approvers').expect(200);
    expect(approvers.body.approvers).toEqual(expect.arrayContaining([{ id: kiranId, name: 'Kiran Rao', has_pin: true }]));
    expect(approvers.body.approvers.every((a: { id: number }) => a.id !== undefined)).toBe(true);
    const wrong = await staff.post('/upDisc', { sl_no: sl, discount: '300', approver_id: kiranId, approval_pin: '1357' }).expect(403);
    expect(wrong.body.message).toBe('Wrong PIN for Kiran Rao; nothing was changed.');
    expect((await cart()).cart[0].discount).toBe(285);
    for (const bad of [{ approval_pin: 'abcd' }, { approval_pin: '12' }, { approver_id: 'x', approval_pin: PIN }, { approver_id: 0, approval_pin: PIN }]) {
      const r = await staff.post('/upDisc', { sl_no: sl, discount: '300', ...bad });
      expect(r.status).toBe(400);
    }
    const approved = await staff.post('/upDisc', { sl_no: sl, discount: '300', approver_id: kiranId, approval_pin: PIN }).expect(200);
    // 2,850.00 - 300.00 = 2,550.00
    expect(approved.body.summery.total).toBe(2550);
    // A manager is never asked: 2,000.00 on their own cart.
    const bsl = (await boss.get(`/addProductIntoCart/${greenply}`).expect(200)).body[0][0].sl_no;
    expect((await boss.post('/upDisc', { sl_no: bsl, discount: '2000' }).expect(200)).body.summery.total).toBe(850);
  });

  it('the summary discount: never above subtotal + shipping, staff limit 10% of the subtotal after line discounts', async () => {
    await staff.post('/upShip', { shipping: '50' }).expect(200);
    // Bill before the discount: 2,550.00 + 50.00 = 2,600.00.
    const over = await staff.post('/upSummeryDisc', { discount: '2600.01' }).expect(400);
    expect(over.body.message).toBe('The discount cannot be more than the bill before it, Rs 2,600.00.');
    // 10% of 2,550.00 = 255.00.
    expect((await staff.post('/upSummeryDisc', { discount: '255' }).expect(200)).body.summery.total).toBe(2345);
    const need = await staff.post('/upSummeryDisc', { discount: '1000' }).expect(403);
    expect(need.body.msg).toBe('A discount of Rs 1,000.00 on this bill is more than 10% of the subtotal (Rs 255.00): a manager must approve it.');
    expect((await cart()).summery.discount).toBe(255);
    const ok = await staff.post('/upSummeryDisc', { discount: '1000', approver_id: kiranId, approval_pin: PIN }).expect(200);
    // 2,600.00 - 1,000.00 = 1,600.00
    expect(ok.body.summery.total).toBe(1600);
  });

  it('a removal or quantity change that would leave the discount above the bill is refused the same way', async () => {
    await staff.get(`/addProductIntoCart/${tape}`).expect(200);
    // Without Greenply: 20.00 + 50.00 = 70.00, under the 1,000.00 discount.
    const sentence = 'This would leave the discount of Rs 1,000.00 more than the bill before it, Rs 70.00: lower the discount first.';
    expect((await staff.get(`/removeProductFromCart/${sl}`).expect(400)).body.message).toBe(sentence);
    expect((await staff.post('/upQuan', { sl_no: sl, quantity: '0' }).expect(400)).body.message).toBe(sentence);
    const c = await cart();
    expect(c.cart.map((l: { product_id: number }) => l.product_id)).toEqual([greenply, tape]);
    // 2,550.00 + 20.00 + 50.00 - 1,000.00 = 1,620.00
    expect(c.summery.total).toBe(1620);
  });

  it('walkin_credit refuse: 400 naming the due; paid in full sells and records both approvals', async () => {
    await settings({ staff_max_discount_percent: 10, walkin_credit: 'refuse' });
    const refusedSentence = 'Rs 1,020.00 would stay due on the walk-in customer, whom nobody can be asked to pay: choose the customer or take the full amount.';
    let refused: request.Response | undefined;
    await until(async () => (refused = await staff.post('/MAKE_SALE', { cart_no: 1, paid: '600' })).status === 400);
    expect(refused!.body.message).toBe(refusedSentence);
    expect((await cart()).cart).toHaveLength(2);
    const sold = await staff.post('/MAKE_SALE', { cart_no: 1, paid: '1620' }).expect(200);
    const bill = (await staff.get(`/getBillDetails?id=${sold.body.saleId}`).expect(200)).body;
    expect(bill.saleDetails.amount).toBe(1620);
    expect(bill.saleDetails.approvals).toEqual([
      { sl_no: sl, kind: 'line', discount: '300', approver_id: kiranId, approver_name: 'Kiran Rao', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { sl_no: null, kind: 'summary', discount: '1000', approver_id: kiranId, approver_name: 'Kiran Rao', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    ]);
    const row = (await staff.get('/getSaleList?pageNo=0').expect(200)).body.salesList.find((r: { id: number }) => r.id === sold.body.saleId);
    expect(row.approved_by).toBe('Kiran Rao');
  });

  it('walkin_credit confirm (the counter asks) and allow: the server accepts a due on the walk-in', async () => {
    for (const mode of ['confirm', 'allow']) {
      await settings({ walkin_credit: mode });
      await staff.get(`/addProductIntoCart/${tape}`).expect(200);
      // What the counter asks before a part payment from the walk-in: 20.00 - 5.00 = 15.00.
      await until(async () => (await staff.get('/previewSale?cart_no=1&clientId=0&paid=5')).body.walkin_credit === mode);
      expect((await staff.get('/previewSale?cart_no=1&clientId=0&paid=5').expect(200)).body).toMatchObject({ amount: 20, walkin_due: '15.00', walkin_credit: mode });
      expect((await staff.get('/previewSale?cart_no=1&clientId=0&paid=20').expect(200)).body.walkin_due).toBeNull();
      expect((await staff.get('/previewSale?cart_no=1&clientId=0&paid=-1')).status).toBe(400);
      let r: request.Response | undefined;
      await until(async () => (r = await staff.post('/MAKE_SALE', { cart_no: 1, paid: '5' })).status === 200);
      expect(r!.status).toBe(200);
      const bill = (await staff.get(`/getBillDetails?id=${r!.body.saleId}`).expect(200)).body;
      // 20.00 - 5.00 paid: 15.00 due on the walk-in; no approvals.
      expect([bill.saleDetails.amount, bill.saleDetails.paid, bill.saleDetails.approvals]).toEqual([20, 5, []]);
    }
  });
});

describe('discount limits on an estimate', () => {
  it('updateDiscInEstimate and updateEstimateSummeryDisc: 400 above the rate or bill, 403 above the staff limit; makeSaleFromEstimate refuses a walk-in due', async () => {
    await settings({ staff_max_discount_percent: 10, walkin_credit: 'refuse' });
    await staff.get(`/addProductIntoCart/${greenply}`).expect(200);
    const est = (await staff.get('/createEstimate?cart_no=1&clientId=0').expect(200)).body.estimateId;
    const line = (await staff.get(`/getEstimateProductListSummery?estimateId=${est}`).expect(200)).body.cart[0];
    const over = await staff.post('/updateDiscInEstimate', { estimateId: est, sl_no: line.sl_no, discount: '2850.01' }).expect(400);
    expect(over.body.message).toBe('The discount on Greenply 18mm cannot be more than its rate, Rs 2,850.00.');
    const need = await staff.post('/updateDiscInEstimate', { estimateId: est, sl_no: line.sl_no, discount: '285.01' }).expect(403);
    expect(need.body.needsApproval).toBe(true);
    await staff.post('/updateDiscInEstimate', { estimateId: est, sl_no: line.sl_no, discount: '500', approver_id: kiranId, approval_pin: PIN }).expect(200);
    // 2,850.00 - 500.00 = 2,350.00 before the summary discount.
    const sum = await staff.post('/updateEstimateSummeryDisc', { id: est, discount: '2350.01' }).expect(400);
    expect(sum.body.message).toBe('The discount cannot be more than the bill before it, Rs 2,350.00.');
    // 10% of 2,350.00 = 235.00; 2,350.00 - 235.00 = 2,115.00
    expect((await staff.post('/updateEstimateSummeryDisc', { id: est, discount: '235' }).expect(200)).body.summery.total).toBe(2115);
    const refused = await staff.post('/makeSaleFromEstimate', { estimateId: est, paid: '2000' }).expect(400);
    expect(refused.body.message).toBe('Rs 115.00 would stay due on the walk-in customer, whom nobody can be asked to pay: choose the customer or take the full amount.');
    const sold = await staff.post('/makeSaleFromEstimate', { estimateId: est, paid: '2115' }).expect(200);
    const bill = (await staff.get(`/getBillDetails?id=${sold.body.saleId}`).expect(200)).body;
    expect(bill.saleDetails.approvals).toEqual([expect.objectContaining({ sl_no: line.sl_no, kind: 'line', discount: '500', approver_name: 'Kiran Rao' })]);
  });
});

describe("a manager's PIN locks after 5 wrong tries", () => {
  it('5 wrong PINs: 403 each; the 6th try (even the right PIN) 429 with Retry-After and "locked"; nothing changed', async () => {
    const sl = (await staff.get(`/addProductIntoCart/${greenply}`).expect(200)).body[0][0].sl_no;
    for (let i = 0; i < 5; i++) {
      const r = await staff.post('/upDisc', { sl_no: sl, discount: '400', approver_id: kiranId, approval_pin: `900${i}` });
      expect(r.status).toBe(i < 4 ? 403 : 429);
    }
    const locked = await staff.post('/upDisc', { sl_no: sl, discount: '400', approver_id: kiranId, approval_pin: PIN }).expect(429);
    expect(locked.body.message).toContain('locked');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(250);
    expect((await cart()).cart.find((l: { sl_no: number }) => l.sl_no === sl).discount).toBe(0);
  });
});
