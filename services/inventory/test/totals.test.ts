import request from 'supertest';
import { Decimal, round2 } from '@bahi/service-kit';
import { parseFilters, ProductsService } from '../src/products/products.service';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

// getProductList's count and totals come from running per-bucket totals; after every kind of
// change they must equal a full recomputation over the products.
let s: Stack;
const A = token(1);
let ply: number;
let hw: number;
let products: ProductsService;
let sourceId = 1;

beforeAll(async () => {
  s = await startInventory();
  products = s.svc.app.get(ProductsService);
  ply = await makeCategory(s.url, A, 'Plywood');
  hw = await makeCategory(s.url, A, 'Hardware');
});
afterAll(() => s?.stop());

const list = async (query: string, t = A) => {
  const r = await request(s.url).get(`/getProductList?pageNo=0${query}`).set(auth(t));
  expect(r.status).toBe(200);
  return { count: r.body.count, noOfPages: r.body.noOfPages, totalStock: r.body.totalStock, totalAmount: r.body.totalAmount };
};

/** The same reply fields from a scan of every matching product. */
async function recomputed(companyId: number, query: Record<string, string>) {
  const t = await products.scanTotals(products.filterQuery(companyId, parseFilters(query)));
  return {
    count: t.n,
    noOfPages: Math.max(1, Math.ceil(t.n / 10)),
    totalStock: new Decimal(t.stock.toString()).dividedBy(1000).toFixed(),
    totalAmount: round2(new Decimal(t.value.toString()).dividedBy(100_000)).toFixed(2),
  };
}

const FILTERS = (): Record<string, string>[] => [
  {},
  { category: String(ply) },
  { category: String(hw) },
  { brand: 'Greenply' },
  { category: String(ply), brand: 'Greenply' },
  { stock: '0' },
  { stock: '2' },
  { active: '1' },
  { active: '0' },
  { category: String(ply), brand: 'Century', stock: '1', active: '1' },
];

async function expectExact(companyId = 1, t = A) {
  for (const f of FILTERS()) {
    const qs = Object.entries(f).map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join('');
    expect({ f, ...(await list(qs, t)) }).toEqual({ f, ...(await recomputed(companyId, f)) });
  }
}

const move = (kind: string, lines: [number, string, string][], id = sourceId++) =>
  s.ask('inventory.stock.apply', { companyId: 1, source: { kind, id }, lines: lines.map(([product_id, quantity, rate]) => ({ product_id, quantity, rate })) });

const edit = (id: number, fields: Record<string, unknown>) =>
  request(s.url)
    .post('/editProduct')
    .set(auth(A))
    .send({ product_id: id, catagory: ply, brand_name: 'Greenply', name: `P${id}`, mrp: '100', cp: '80', unit: 'pcs', ...fields });

describe('getProductList totals', () => {
  let a: number;
  let b: number;
  let c: number;
  let d: number;

  it('count the products created, with stock 0', async () => {
    a = await makeProduct(s.url, A, { catagory: ply, brand_name: 'Greenply', name: 'Club 18mm', mrp: '2850.50', cp: '2380.25' });
    b = await makeProduct(s.url, A, { catagory: ply, brand_name: 'Century', name: 'Sainik 12mm', mrp: '1800', cp: '1512.40' });
    c = await makeProduct(s.url, A, { catagory: hw, brand_name: 'Hettich', name: 'Hinge', mrp: '45', cp: '31.05' });
    d = await makeProduct(s.url, A, { catagory: hw, brand_name: 'Greenply', name: 'Edge tape', unit: 'metre', mrp: '12', cp: '7.33' });
    expect(await list('')).toEqual({ count: 4, noOfPages: 1, totalStock: '0', totalAmount: '0.00' });
    await expectExact();
  });

  it('follow purchases, sales, adjustments and reversals', async () => {
    await move('purchase', [[a, '10', '2380.25'], [b, '7.5', '1512.40'], [c, '250', '31.05'], [d, '12.345', '7.33']]);
    // 10 x 2380.25 + 7.5 x 1512.40 + 250 x 31.05 + 12.345 x 7.33 = 23802.50 + 11343.00 + 7762.50 + 90.48885
    expect(await list('')).toMatchObject({ totalStock: '279.845', totalAmount: '42998.49' });
    await expectExact();
    const sale = sourceId;
    await move('sale', [[a, '3', '2850.50'], [c, '251', '45']]);
    await expectExact();
    await move('adjustment', [[b, '-0.5', '1512.40'], [d, '1.005', '7.33']]);
    await expectExact();
    expect(await s.ask('inventory.stock.reverse', { companyId: 1, source: { kind: 'sale', id: sale } })).toEqual({ reversed: true });
    await expectExact();
    const purchase = sourceId;
    await move('purchase', [[b, '4', '1512.40']]);
    expect(await s.ask('inventory.stock.reverse', { companyId: 1, source: { kind: 'purchase', id: purchase } })).toEqual({ reversed: true });
    await expectExact();
  });

  it('follow edits of cost, category, brand, levels, typed stock and activation', async () => {
    expect((await edit(a, { cp: '2400.10', stock: '10' })).status).toBe(200);
    await expectExact();
    expect((await edit(b, { catagory: hw, brand_name: 'Century', cp: '1512.40', min_stock: '1', default_stock: '5' })).status).toBe(200);
    await expectExact();
    expect((await edit(b, { catagory: ply, brand_name: 'Century', cp: '1500', stock: '3', min_stock: '1', default_stock: '5' })).status).toBe(200);
    await expectExact();
    expect(await list(`&category=${ply}&brand=Century&stock=1&active=1`)).toMatchObject({ count: 1, totalStock: '3', totalAmount: '4500.00' });
    expect((await edit(c, { catagory: hw, brand_name: 'Hettich', cp: '31.05', active: 0 })).status).toBe(200);
    await expectExact();
    expect((await edit(c, { catagory: hw, brand_name: 'Hettich', cp: '31.05', active: 1, min_stock: '1000' })).status).toBe(200);
    await expectExact();
  });

  it('follow duplication, deactivation and deletion', async () => {
    const dup = await request(s.url).post('/duplicateProduct').set(auth(A)).send({ originalProductId: a });
    expect(dup.status).toBe(200);
    await expectExact();
    expect((await request(s.url).delete(`/product/${dup.body.duplicatedProductId}`).set(auth(A))).body).toMatchObject({ deactivated: false });
    await expectExact();
    expect((await request(s.url).delete(`/product/${d}`).set(auth(A))).body).toMatchObject({ deactivated: true });
    await expectExact();
    expect(await list('&active=0')).toMatchObject({ count: 1 });
  });

  it('stay exact with movements at the same time', async () => {
    const many = [];
    for (let i = 0; i < 8; i++) many.push(await makeProduct(s.url, A, { catagory: ply, brand_name: 'Greenply', name: `Sheet ${i}`, mrp: '99.99', cp: '77.77' }));
    await Promise.all(many.map((id) => move('purchase', [[id, '40', '77.77']])));
    await expectExact();
    // Sales of the same and of different products of one bucket, all at once.
    await Promise.all([
      ...many.map((id) => move('sale', [[id, '1.5', '99.99']])),
      move('sale', [[many[0]!, '2', '99.99'], [a, '1', '2850']]),
      move('sale', [[many[0]!, '3', '99.99']]),
      edit(many[1]!, { name: 'Sheet 1', cp: '80.01', stock: '100' }),
    ]);
    await expectExact();
    expect(await list(`&category=${ply}&brand=Greenply`)).toMatchObject({ count: 9 });
  });

  it('a rush of fifty 3-line sales of one bucket all go through, exactly', async () => {
    const sheets: number[] = [];
    for (let i = 0; i < 6; i++) sheets.push(await makeProduct(s.url, A, { catagory: ply, brand_name: 'Rushply', name: `Rush ${i}`, mrp: '10', cp: '7' }));
    await Promise.all(sheets.map((id) => move('purchase', [[id, '500', '7']])));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) => move('sale', [0, 1, 2].map((l) => [sheets[(n + l * 2) % 6]!, '1', '10'] as [number, string, string]))),
    );
    expect(results.every((r) => r.applied)).toBe(true);
    await expectExact();
    const left = await Promise.all(sheets.map(async (id) => (await s.ask('inventory.product.lookup', { companyId: 1, code: String(id) })).stock));
    expect(left.map(Number).reduce((a, b) => a + b, 0)).toBe(6 * 500 - 150);
  });

  it('are built once for products that were there before them', async () => {
    const B = token(7);
    await products.model.insertMany(
      Array.from({ length: 25 }, (_, i) => ({
        companyId: 7, product_id: i + 1, product_name: `Old ${i}`, brand_name: `Brand ${i % 3}`, category: 1, mrp_p: 1000, cp_p: 333 + i,
        unit: 'pcs', ppq_m: 1000, stock_m: 1234 * i, min_m: 0, def_m: 10000, level: 1234 * i <= 0 ? 0 : 1234 * i >= 10000 ? 2 : 1, active: i % 5 ? 1 : 0,
      })),
    );
    const r = await list('&brand=Brand%201', B);
    expect(r).toEqual(await recomputed(7, { brand: 'Brand 1' }));
    expect((await list('', B)).count).toBe(25);
    expect((await list('', B)).noOfPages).toBe(3);
  });

  it('a text search still sums its matches', async () => {
    const r = await list('&text=sheet');
    expect(r).toEqual(await recomputed(1, { text: 'sheet' }));
    expect(r.count).toBe(8);
  });
});
