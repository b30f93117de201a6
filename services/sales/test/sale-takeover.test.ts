// A sale past its point of no return (stock out, due posted) whose attempt died before finishing:
// the same key again finishes it within the request and answers the sale, without sending the
// stock or the due again (the kit's Saga; the load test's retries answered 503 for 30-38 s).
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Subjects } from '@bahi/contracts';
import { Models, type SaleDoc } from '../src/common/schemas';
import { as, category, customer, product, startSales, tokenFor, type Stack } from './helpers';

let s: Stack;
let A: ReturnType<typeof as>;
let rice: number;
let asha: number;
let sales: Model<SaleDoc>;

const stock = async (id: number) => (await s.ask<{ stock: string }>(Subjects.inventory.productLookup, { companyId: s.companyId, code: String(id) })).stock;
const due = async () => (await s.ask<{ due: string }>(Subjects.ledger.partyDue, { companyId: s.companyId, party: { kind: 'customer', id: asha } })).due;

beforeAll(async () => {
  s = await startSales();
  const mgr = tokenFor(s.companyId, 'manager');
  A = as(s.url, tokenFor(s.companyId));
  const cat = await category(s.inventory.url, mgr, 'Grocery');
  rice = await product(s.inventory.url, mgr, cat, { name: 'Basmati Rice', mrp: '99.99', unit: 'kg', stock: '100' });
  asha = await customer(s.ledger.url, mgr, 'Asha Verma', '9876500001');
  sales = s.sales.app.get<Model<SaleDoc>>(getModelToken(Models.Sale));
}, 120_000);
afterAll(() => s?.stop());

it('a sale stopped right after its point of no return (sale.after-ledger) answers 503, and the same key finishes it: stock and due once, the cart emptied', async () => {
  await A.get(`/addProductIntoCart/${encodeURIComponent(`2*${rice}`)}?cart_no=3`).expect(200);
  const [stockBefore, dueBefore] = [await stock(rice), await due()];
  process.env.BAHI_TEST_FAIL_AT = 'sale.after-ledger';
  let first;
  try {
    first = await A.post('/MAKE_SALE', { clientId: asha, paid: '50', cart_no: 3 }, { 'Idempotency-Key': 'k-after-ledger' });
  } finally {
    delete process.env.BAHI_TEST_FAIL_AT;
  }
  expect(first.status).toBe(503);
  expect(first.body.message).toMatch(/^Sale \d+ is recorded but its last step failed \(an internal error\); it will be finished automatically\. Send it again to see it\.$/);
  const stored = (await sales.findOne({ companyId: s.companyId, idempotencyKey: 'k-after-ledger' }).lean())!;
  expect(stored).toMatchObject({ status: 'pending', ledgerPosted: true });
  const retry = await A.post('/MAKE_SALE', { clientId: asha, paid: '50', cart_no: 3 }, { 'Idempotency-Key': 'k-after-ledger' }).expect(200);
  expect(retry.body.saleId).toBe(stored.saleId);
  // 2 kg out of 100; 2 x 99.99 = 199.98 billed, 50 paid: 149.98 owed, once.
  expect(Number(stockBefore) - Number(await stock(rice))).toBe(2);
  expect(Math.round((Number(await due()) - Number(dueBefore)) * 100)).toBe(14998);
  expect((await A.get('/getProducts?cart_no=3').expect(200)).body.cart).toEqual([]);
  expect(await sales.countDocuments({ companyId: s.companyId, idempotencyKey: 'k-after-ledger', status: 'complete' })).toBe(1);
});

it('a sale left past its point of no return by a process that died answers the retry at once (not after its lease), sending nothing again', async () => {
  const saleId = 91001;
  await s.ask(Subjects.inventory.stockApply, { companyId: s.companyId, source: { kind: 'sale', id: saleId }, lines: [{ product_id: rice, quantity: '3', rate: '99.99' }] });
  await s.ask(Subjects.ledger.entryPost, { companyId: s.companyId, party: { kind: 'customer', id: asha }, source: { kind: 'sale', id: saleId }, amount: '299.97', paid: '0' });
  const [stockMid, dueMid] = [await stock(rice), await due()];
  // Its owner: a process of this host that has exited; its lease still a minute long.
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  await sales.create({
    companyId: s.companyId, saleId, status: 'pending', idempotencyKey: 'k-dead-owner', lockedUntil: new Date(Date.now() + 60_000), owner: `${dead}@${os.hostname()}#0a1b2c3d`,
    source: { kind: 'cart', userId: 1, cart_no: 9, estimateId: 0, version: 0 }, clientId: asha,
    customer: { client_id: asha, name: 'Asha Verma', mobile_no: '', address_line_1: '', address_line_2: '', city_or_district: '', state: '', country: '', postal_code: '', walkIn: false },
    date: '2030-03-02', dueDate: '2030-03-02', paid: '0', lines: [], tax: 0, shipping: '0', discount: '0', subtotal: '299.97', taxAmount: '0', amount: '299.97', previousDue: '0',
    stockApplied: true, ledgerPosted: true, warnings: [], createdBy: 1,
  });
  const t0 = Date.now();
  const retry = await A.post('/MAKE_SALE', { clientId: asha, paid: '0', cart_no: 9 }, { 'Idempotency-Key': 'k-dead-owner' }).expect(200);
  expect(Date.now() - t0).toBeLessThan(2000);
  expect(retry.body).toMatchObject({ success: true, saleId });
  expect(await stock(rice)).toBe(stockMid);
  expect(await due()).toBe(dueMid);
  expect((await sales.findOne({ companyId: s.companyId, saleId }).lean())!.status).toBe('complete');
});
