import request from 'supertest';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Subjects } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { Product } from '../src/schemas';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

// A product's GST rate history (rates: [{ rate, from }]); tax is the rate in force today.
let s: Stack;
const M = token(1, 'manager');
const STAFF = token(1, 'staff');
const OTHER = token(2, 'manager');
let cat = 0;
const SEPT = [
  { rate: '12', from: '2017-07-01' },
  { rate: '5', from: '2025-09-22' },
];

beforeAll(async () => {
  s = await startInventory();
  cat = await makeCategory(s.url, M, 'Garments');
});
afterAll(() => s?.stop());

const get = (path: string, t: string) => request(s.url).get(path).set(auth(t));
const post = (path: string, body: unknown, t: string) => request(s.url).post(path).set(auth(t)).send(body as object);
const details = async (id: number, t = M) => (await get(`/getProductDetails?id=${id}`, t).expect(200)).body.product;
const stored = (id: number) => s.svc.app.get<Model<Product>>(getModelToken(Product.name)).findOne({ companyId: 1, product_id: id }).lean();
const base = { catagory: 0, brand_name: 'Acme', name: 'Shirt', mrp: '1050', cp: '700', unit: 'pcs', hsn_code: '6205' };
const editOf = (id: number, extra: Record<string, unknown>) => ({ product_id: id, ...base, catagory: cat, ...extra });

describe('rates on createNewProduct', () => {
  it('stores the history; tax is the rate in force today, on details, rows and the NATS lookups', async () => {
    const id = await makeProduct(s.url, M, { ...base, catagory: cat, rates: [{ rate: 12, from: '2017-07-01' }, { rate: '5', from: '2025-09-22' }] });
    expect(await details(id)).toMatchObject({ tax: '1.05', tax_percent: '5', rates: SEPT });
    expect((await stored(id))?.tax).toBe('1.05');
    const row = (await get('/getProductList', M).expect(200)).body.list.find((r: { product_id: number }) => r.product_id === id);
    expect(row.tax_percent).toBe('5');
    expect(await s.ask(Subjects.inventory.productLookup, { companyId: 1, code: String(id) })).toMatchObject({ tax_percent: '5', rates: SEPT });
    expect(await s.ask(Subjects.inventory.productMany, { companyId: 1, productIds: [id] })).toEqual([expect.objectContaining({ tax_percent: '5', rates: SEPT })]);
  });

  it('accepts tax beside rates when it is the rate in force today', async () => {
    const id = await makeProduct(s.url, M, { ...base, catagory: cat, tax: '5', rates: SEPT });
    expect((await details(id)).tax_percent).toBe('5');
  });

  it('a product without rates keeps no history and its tax as before', async () => {
    const id = await makeProduct(s.url, M, { ...base, catagory: cat, tax: '18' });
    const d = await details(id);
    expect(d.tax_percent).toBe('18');
    expect(d.rates).toBeUndefined();
  });

  it.each<[unknown, Record<string, unknown>, string]>([
    [[{ rate: 14, from: '2017-07-01' }], {}, 'Rate step 1: 14 % is not a GST rate (allowed: 0, 0.1, 0.25, 1, 1.5, 3, 5, 6, 7.5, 12, 18, 28, 40).'],
    [[{ rate: 12, from: '2025-09-22' }, { rate: 5, from: '2025-09-21' }], {}, 'Rate step 2 starts on 2025-09-21, not after the step before it (2025-09-22); list the steps in date order.'],
    [[{ rate: 5, from: '2099-01-01' }], {}, `The first rate starts on 2099-01-01, after today (${today()}): a product needs a rate in force today.`],
    [[{ rate: 5, from: '2025-13-01' }], {}, 'Rate step 1: from must be a real date written YYYY-MM-DD.'],
    ['5', {}, 'rates must be a list of { rate, from } steps.'],
    [SEPT, { tax: '12' }, 'tax (12 %) is not the rate in force today by rates (5 % from 2025-09-22); send the same rate or leave tax out.'],
  ])('refuses rates %j (%j) with 400 and stores nothing', async (rates, extra, message) => {
    const before = (await get('/getProductList', M).expect(200)).body.count;
    const res = await post('/createNewProduct', { ...base, catagory: cat, rates, ...extra }, M).expect(400);
    expect(res.body.message).toBe(message);
    expect((await get('/getProductList', M).expect(200)).body.count).toBe(before);
  });

  it('is for managers only (403 to staff)', async () => {
    await post('/createNewProduct', { ...base, catagory: cat, rates: SEPT }, STAFF).expect(403);
  });
});

describe('rates on editProduct', () => {
  it('replaces the history when rates is sent', async () => {
    const id = await makeProduct(s.url, M, { ...base, catagory: cat, tax: '12' });
    await post('/editProduct', editOf(id, { rates: SEPT }), M).expect(200);
    expect(await details(id)).toMatchObject({ tax_percent: '5', rates: SEPT });
    // Another company cannot see or edit it.
    await post('/editProduct', editOf(id, { rates: SEPT }), OTHER).expect(404);
  });

  it('the edit form sending only the same tax keeps the history', async () => {
    const id = await makeProduct(s.url, M, { ...base, catagory: cat, rates: SEPT });
    await post('/editProduct', editOf(id, { tax: '5', name: 'Shirt, cotton' }), M).expect(200);
    expect(await details(id)).toMatchObject({ product_name: 'Shirt, cotton', tax_percent: '5', rates: SEPT });
  });

  it('a changed tax without rates becomes a step from today; going back to the old rate removes it', async () => {
    const id = await makeProduct(s.url, M, { ...base, catagory: cat, rates: SEPT });
    await post('/editProduct', editOf(id, { tax: '18' }), M).expect(200);
    expect(await details(id)).toMatchObject({ tax_percent: '18', rates: [...SEPT, { rate: '18', from: today() }] });
    await post('/editProduct', editOf(id, { tax: '5' }), M).expect(200);
    expect(await details(id)).toMatchObject({ tax_percent: '5', rates: SEPT });
  });

  it('an edit without tax keeps the rate in force today', async () => {
    const id = await makeProduct(s.url, M, { ...base, catagory: cat, rates: SEPT });
    await post('/editProduct', editOf(id, {}), M).expect(200);
    expect(await details(id)).toMatchObject({ tax: '1.05', tax_percent: '5', rates: SEPT });
  });

  it('refuses a bad history with 400 and changes nothing', async () => {
    const id = await makeProduct(s.url, M, { ...base, catagory: cat, rates: SEPT });
    const res = await post('/editProduct', editOf(id, { name: 'Renamed', rates: [{ rate: 5, from: '2025-09-22' }, { rate: 5, from: '2026-01-01' }] }), M).expect(400);
    expect(res.body.message).toBe('Rate step 2 repeats the rate of the step before it (5 %); leave it out.');
    expect(await details(id)).toMatchObject({ product_name: 'Shirt', rates: SEPT });
  });
});
