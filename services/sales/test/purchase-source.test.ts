import { Subjects } from '@bahi/contracts';
import { as, category, product, startSales, tokenFor, type Stack } from './helpers';

let s: Stack;
let mgr: string;
let rice: number;
let dal: number;
let uid: number;

beforeAll(async () => {
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  uid = JSON.parse(Buffer.from(mgr.split('.')[1]!, 'base64url').toString()).uid;
  const cat = await category(s.inventory.url, mgr, 'Grocery');
  rice = await product(s.inventory.url, mgr, cat, { name: 'Basmati Rice', mrp: '99.99', unit: 'kg' });
  dal = await product(s.inventory.url, mgr, cat, { name: 'Toor Dal', mrp: '45', unit: 'kg', per_peice_quantity: '0.5' });
}, 120_000);
afterAll(() => s?.stop());

describe('sales.cart.get / clear, sales.estimate.get (what a purchase reads)', () => {
  it("reads a user's cart, empties it when unchanged, and only the bought lines when it changed", async () => {
    const A = as(s.url, mgr);
    const key = { companyId: s.companyId, userId: uid, cart_no: 1 };
    expect(await s.ask(Subjects.sales.cartGet, key)).toEqual({ lines: [], tax: 0, shipping: '0', discount: '0', version: 0 });
    await A.get(`/addProductIntoCart/${rice}`).expect(200);
    await A.post('/upShip/', { cart_no: 1, shipping: '20.5' }).expect(200);
    const got = await s.ask(Subjects.sales.cartGet, key);
    expect(got.lines).toEqual([{ sl_no: expect.any(Number), product_id: rice, product_name: 'Basmati Rice', mrp: '99.99', unit: 'kg', quantity: '1', per_peice_quantity: '1', discount: '0' }]);
    expect(got.shipping).toBe('20.5');
    // Another line arrives after the purchase read the cart: it stays.
    await A.get(`/addProductIntoCart/${dal}`).expect(200);
    expect(await s.ask(Subjects.sales.cartClear, { ...key, version: got.version, sl_nos: got.lines.map((l: any) => l.sl_no) })).toEqual({ cleared: true });
    const left = await s.ask(Subjects.sales.cartGet, key);
    expect(left.lines.map((l: any) => l.product_id)).toEqual([dal]);
    // Repeating the clear changes nothing more.
    expect(await s.ask(Subjects.sales.cartClear, { ...key, version: got.version, sl_nos: got.lines.map((l: any) => l.sl_no) })).toEqual({ cleared: false });
    expect(await s.ask(Subjects.sales.cartClear, { ...key, version: left.version, sl_nos: [left.lines[0].sl_no] })).toEqual({ cleared: true });
    expect((await s.ask(Subjects.sales.cartGet, key)).lines).toEqual([]);
    await expect(s.ask(Subjects.sales.cartGet, { companyId: s.companyId, cart_no: 1 })).rejects.toMatchObject({ status: 400 });
  });

  it('reads an estimate of the company; null for an unknown one or another company', async () => {
    const A = as(s.url, mgr);
    await A.get(`/addProductIntoCart/${dal}`).expect(200);
    const est = await A.get('/createEstimate?cart_no=1&clientId=0').expect(200);
    const got = await s.ask(Subjects.sales.estimateGet, { companyId: s.companyId, estimateId: est.body.estimateId });
    expect(got.lines.map((l: any) => [l.product_id, l.per_peice_quantity])).toEqual([[dal, '0.5']]);
    expect(await s.ask(Subjects.sales.estimateGet, { companyId: s.companyId + 1, estimateId: est.body.estimateId })).toBeNull();
    expect(await s.ask(Subjects.sales.estimateGet, { companyId: s.companyId, estimateId: 999 })).toBeNull();
  });

  it('refuses a malformed payload with 400 and a sentence, and changes nothing (sales.cart.clear, cart.get, estimate.get)', async () => {
    const A = as(s.url, mgr);
    const key = { companyId: s.companyId, userId: uid, cart_no: 2 };
    await A.get(`/addProductIntoCart/${rice}?cart_no=2`).expect(200);
    const before = await s.ask(Subjects.sales.cartGet, key);
    expect(before.lines).toHaveLength(1);
    const bad: Record<string, unknown>[] = [
      { ...key, version: { $gt: 0 }, sl_nos: [] },
      { ...key, version: { $gte: 0 }, sl_nos: [] },
      { ...key, companyId: String(s.companyId), version: before.version, sl_nos: [] },
      { ...key, companyId: { $gt: 0 }, version: before.version, sl_nos: [] },
      { ...key, userId: -1, version: before.version, sl_nos: [] },
      { ...key, cart_no: 1.5, version: before.version, sl_nos: [] },
      { ...key, version: before.version, sl_nos: [{ $gt: 0 }] },
      { ...key, version: before.version, sl_nos: 'all' },
      { ...key, version: before.version, sl_nos: Array.from({ length: 5000 }, (_, i) => i + 1) },
      { ...key, version: before.version, sl_nos: [], extra: true },
      { ...key, sl_nos: [] },
    ];
    for (const payload of bad) {
      await expect(s.ask(Subjects.sales.cartClear, payload)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/\w.*\.$/) });
    }
    await expect(s.ask(Subjects.sales.cartClear, bad[0])).rejects.toMatchObject({ status: 400, message: 'version must be a whole number of 0 or more.' });
    await expect(s.ask(Subjects.sales.cartClear, bad[9])).rejects.toMatchObject({ status: 400, message: "Unknown field 'extra'." });
    for (const payload of [null, 5, 'x', [key]]) {
      await expect(s.ask(Subjects.sales.cartClear, payload)).rejects.toMatchObject({ status: 400 });
    }
    expect(await s.ask(Subjects.sales.cartGet, key)).toEqual(before);
    await expect(s.ask(Subjects.sales.cartGet, { ...key, userId: { $gt: 0 } })).rejects.toMatchObject({ status: 400 });
    await expect(s.ask(Subjects.sales.cartGet, { ...key, companyId: String(s.companyId) })).rejects.toMatchObject({ status: 400 });
    await expect(s.ask(Subjects.sales.estimateGet, { companyId: s.companyId, estimateId: { $gt: 0 } })).rejects.toMatchObject({ status: 400 });
    await expect(s.ask(Subjects.documents.saleDocument, { companyId: s.companyId, saleId: { $gt: 0 } })).rejects.toMatchObject({ status: 400 });
    await expect(s.ask(Subjects.documents.estimateDocument, { companyId: -1, estimateId: 1 })).rejects.toMatchObject({ status: 400 });
  });
});
