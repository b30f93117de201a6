import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { type CartDoc, Models } from '../src/common/schemas';
import { as, category, product, startSales, tokenFor, type Stack } from './helpers';

// Odd path escapes and out-of-range numbers: a 4xx with a sentence (or the spec's plain
// answer), never a 500, never a stored change.
let s: Stack;
let A: ReturnType<typeof as>;
let rice: number;

beforeAll(async () => {
  s = await startSales();
  const mgr = tokenFor(s.companyId, 'manager');
  A = as(s.url, tokenFor(s.companyId));
  const cat = await category(s.inventory.url, mgr, 'Grocery');
  rice = await product(s.inventory.url, mgr, cat, { name: 'Basmati Rice', mrp: '99.99', unit: 'kg', stock: '100' });
}, 120_000);
afterAll(() => s?.stop());

const message = (r: { body: any }) => String(r.body?.message ?? '');

describe('product codes in the path are decoded once', () => {
  it('%25 is the code "%": not found, the spec\'s empty array', async () => {
    const r = await A.get('/addProductIntoCart/%25');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
  });

  it('%25 after a quantity is still one decode: "2*%25" is quantity 2 of code "%"', async () => {
    expect((await A.get('/addProductIntoCart/2*%25').expect(200)).body).toEqual([]);
  });

  it.each(['%', '%E0%A4', '%zz'])('a broken escape (%s) answers 400 with a sentence', async (code) => {
    const r = await A.get(`/addProductIntoCart/${code}`);
    expect(r.status).toBe(400);
    expect(message(r)).toMatch(/\w+ \w+/);
  });

  it('a control character (%00) answers 400 naming the product code', async () => {
    const r = await A.get('/addProductIntoCart/%00');
    expect(r.status).toBe(400);
    expect(message(r)).toMatch(/product id or barcode/);
  });

  it('the same decoding holds for estimates', async () => {
    const r = await A.get('/addProductIntoEstimate/%25/1');
    expect(r.status).toBeLessThan(500);
    expect((await A.get('/addProductIntoEstimate/%E0%A4/1')).status).toBe(400);
  });

  it('a normal code still adds, and the cart holds nothing from the odd ones', async () => {
    await A.get(`/addProductIntoCart/${rice}`).expect(200);
    const cart = (await A.get('/getProducts?cart_no=1').expect(200)).body.cart;
    expect(cart.map((l: any) => l.product_id)).toEqual([rice]);
    await A.del('/clearCart/1').expect(200);
  });
});

describe('numbers have bounds', () => {
  it('a cart_no beyond the few carts a counter has answers 400 and stores no cart', async () => {
    for (const r of [
      await A.get('/getProducts?cart_no=1000000'),
      await A.get(`/addProductIntoCart/${rice}?cart_no=1000000`),
      await A.get(`/addProductIntoCart/${rice}?cart_no=99999999999999999999`),
      await A.post('/upTax/', { cart_no: 2147483648, tax: 1 }),
      await A.post('/upShip/', { cart_no: 1e20, shipping: '1' }),
      await A.post('/MAKE_SALE', { cart_no: 1e6, clientId: 0, paid: '0' }),
      await A.del('/clearCart/1000000'),
    ]) {
      expect(r.status).toBe(400);
      expect(message(r)).toMatch(/cart_no must be at most \d+/);
    }
    const carts = await s.sales.app.get<Model<CartDoc>>(getModelToken(Models.Cart)).countDocuments({ cart_no: { $gt: 20 } });
    expect(carts).toBe(0);
  });

  it('ids beyond 2^31 answer 400 naming the field', async () => {
    const r = await A.post('/upQuan/', { sl_no: 99999999999999999999, quantity: '1' });
    expect(r.status).toBe(400);
    expect(message(r)).toMatch(/sl_no must be at most/);
    expect(message(await A.get('/getBillDetails?id=1e20').expect(400))).toMatch(/id must be/);
  });

  it('amounts and quantities beyond a sane maximum answer 400 and change nothing', async () => {
    await A.get(`/addProductIntoCart/${rice}`).expect(200);
    const before = (await A.get('/getProducts?cart_no=1').expect(200)).body;
    const sl = before.cart[0].sl_no;
    const tooBig = [
      await A.post('/upQuan/', { sl_no: sl, quantity: '9'.repeat(400) }),
      await A.post('/upQuan/', { sl_no: sl, quantity: '10000000000' }),
      await A.post('/upDisc/', { sl_no: sl, discount: '100000000001' }),
      await A.post('/upShip/', { cart_no: 1, shipping: 1e15 }),
      await A.post('/upSummeryDisc/', { cart_no: 1, discount: '1' + '0'.repeat(30) }),
      await A.get(`/addProductIntoCart/${rice}?quantity=${'9'.repeat(50)}`),
      await A.get(`/addProductIntoCart/${encodeURIComponent(`${'9'.repeat(50)}*${rice}`)}`),
      await A.post('/MAKE_SALE', { cart_no: 1, clientId: 0, paid: '1e3' }),
      await A.post('/MAKE_SALE', { cart_no: 1, clientId: 0, paid: '999999999999999' }),
    ];
    for (const r of tooBig) {
      expect(r.status).toBe(400);
      expect(message(r)).toMatch(/(quantity|discount|shipping|paid) must be/);
    }
    expect((await A.get('/getProducts?cart_no=1').expect(200)).body).toEqual(before);
  });

  it('page numbers and text lengths are bounded', async () => {
    expect(message(await A.get('/getSaleList?pageNo=99999999999').expect(400))).toMatch(/pageNo must be at most/);
    expect(message(await A.get(`/getProducts?cart_no=1&text=${'a'.repeat(101)}`).expect(400))).toMatch(/text/);
  });

  it('a code longer than any barcode answers 400', async () => {
    expect(message(await A.get(`/addProductIntoCart/${'1'.repeat(201)}`).expect(400))).toMatch(/product id or barcode/);
  });
});
