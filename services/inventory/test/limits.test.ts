import request from 'supertest';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

// Numbers, ids, pages and spec maps have upper bounds: past them a 400 naming the field, and
// nothing stored.
let s: Stack;
let A: string;
let cat: number;
let id: number;

beforeAll(async () => {
  s = await startInventory();
  A = token(1);
  cat = await makeCategory(s.url, A, 'Grocery');
  id = await makeProduct(s.url, A, { catagory: cat, name: 'Rice' });
}, 60_000);
afterAll(() => s?.stop());

const get = (path: string) => request(s.url).get(path).set(auth(A));
const post = (path: string, body: object) => request(s.url).post(path).set(auth(A)).send(body);
const product = { catagory: 0, brand_name: 'Acme', name: 'Thing', mrp: '100', cp: '80', unit: 'pcs', per_peice_quantity: 1 };
const details = async () => (await get(`/getProductDetails?id=${id}`)).body.product;

describe('inventory limits', () => {
  it('prices past 1e11 rupees and quantities past 1e9 answer 400 and store nothing', async () => {
    const count = (await get('/getProductList?pageNo=0')).body;
    for (const [over, msg] of [
      [{ mrp: '100000000000.01' }, /MRP must be at most 100000000000/],
      [{ cp: '9'.repeat(40) }, /Cost price must be a number of at most 30 characters/],
      [{ cp: '999999999999' }, /Cost price must be at most 100000000000/],
      [{ per_peice_quantity: '1000000001' }, /Quantity per piece must be at most 1000000000/],
    ] as const) {
      const res = await post('/createNewProduct', { ...product, catagory: cat, ...over });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(msg);
    }
    expect((await get('/getProductList?pageNo=0')).body).toEqual(count);
    const before = await details();
    const edit = await post('/editProduct', { ...product, catagory: cat, product_id: id, stock: '-99999999999' });
    expect(edit.status).toBe(400);
    expect(edit.body.message).toMatch(/Stock must be at most 1000000000 either way/);
    expect(await details()).toEqual(before);
  });

  it('ids past 2^31 and page numbers past 1e6 answer 400', async () => {
    for (const [path, msg] of [
      ['/getProductDetails?id=2147483648', /id must be a positive whole number up to 2147483647/],
      ['/getProductList?pageNo=99999999999', /pageNo must be at most 1000000/],
      ['/getPurchaseDetails?purchaseId=99999999999999999999', /purchaseId must be/],
    ] as const) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.message).toMatch(msg);
    }
    const edit = await post('/editProduct', { ...product, catagory: cat, product_id: '99999999999999999999' });
    expect(edit.status).toBe(400);
    expect(edit.body.message).toMatch(/product_id/);
    const big = await post('/createNewProduct', { ...product, catagory: '99999999999999999999' });
    expect(big.status).toBe(400);
    expect(big.body.message).toMatch(/Category/);
  });

  it('a product holds at most 50 specs of bounded names', async () => {
    const before = await details();
    const specs = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`s${i}`, 'x']));
    const res = await post('/editProduct', { ...product, catagory: cat, product_id: id, specs });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/specs can hold at most 50/);
    const long = await post('/editProduct', { ...product, catagory: cat, product_id: id, specs: { ['k'.repeat(61)]: 'x' } });
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/spec name can be at most 60 characters/);
    expect(await details()).toEqual(before);
  });

  it('a purchase refuses a cart number past 20 and a payment past 1e11', async () => {
    const base = { bill_no: 'B-1', distributor: 1, officer: '', due_date: '2099-01-01' };
    const cart = await post('/checkOutPurchase', { ...base, paid: '0', cart_no: 21 });
    expect(cart.status).toBe(400);
    expect(cart.body.message).toMatch(/cart_no must be at most 20/);
    const paid = await post('/checkOutPurchase', { ...base, paid: '100000000001', cart_no: 1 });
    expect(paid.status).toBe(400);
    expect(paid.body.message).toMatch(/valid payment amount/);
  });
});
