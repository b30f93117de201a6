import request from 'supertest';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

let s: Stack;
const A = token(1, 'manager');
const STAFF = token(1, 'staff');
const B = token(2, 'manager');
let ply: number;
let hw: number;

beforeAll(async () => {
  s = await startInventory();
  ply = await makeCategory(s.url, A, 'Plywood', [['Thickness', '18'], ['Size', '8x4']]);
  hw = await makeCategory(s.url, A, 'Hardware');
});
afterAll(() => s?.stop());

const get = (path: string, t = A) => request(s.url).get(path).set(auth(t));
const post = (path: string, body: unknown, t = A) => request(s.url).post(path).set(auth(t)).send(body as object);

describe('createNewProduct', () => {
  it('creates with sequential ids, quantity per piece defaulting to 1', async () => {
    const r = await post('/createNewProduct', { catagory: ply, brand_name: 'Greenply', name: 'Club 18mm', mrp: '2850.50', cp: 2380, unit: 'sheet', per_peice_quantity: '' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ done: true, id: expect.any(Number) });
    const d = await get(`/getProductDetails?id=${r.body.id}`);
    expect(d.status).toBe(200);
    expect(d.body.product).toMatchObject({ product_name: 'Club 18mm', brand_name: 'Greenply', mrp: '2850.50', cp: '2380.00', per_peice_quantity: '1', stock: '0', active: 1, category: { id: ply, name: 'Plywood' } });
    expect(d.body.product.image_url).toBe('/api/productImage/default.svg');
    expect(d.body.specField).toEqual(['Thickness', 'Size']);
    expect(d.body.specsValues).toEqual({ Thickness: '18', Size: '8x4' });
    expect(d.body.brands).toContain('Greenply');
    expect(d.body.units).toContain('sheet');
    const next = await makeProduct(s.url, A, { catagory: ply });
    expect(next).toBe(r.body.id + 1);
  });

  it.each([
    [{ brand_name: 'X', name: 'N', mrp: 1, cp: 1, unit: 'pcs' }, 'Category is required.'],
    [{ catagory: 1, name: 'N', mrp: 1, cp: 1, unit: 'pcs' }, 'Brand is required.'],
    [{ catagory: 1, brand_name: 'X', name: '  ', mrp: 1, cp: 1, unit: 'pcs' }, 'Product name is required.'],
    [{ catagory: 1, brand_name: 'X', name: 'N', cp: 1, unit: 'pcs' }, 'MRP is required.'],
    [{ catagory: 1, brand_name: 'X', name: 'N', mrp: 1, unit: 'pcs' }, 'Cost price is required.'],
    [{ catagory: 1, brand_name: 'X', name: 'N', mrp: 1, cp: 1 }, 'Unit is required.'],
    [{ catagory: 1, brand_name: 'X', name: 'N', mrp: 'abc', cp: 1, unit: 'pcs' }, 'MRP must be a number.'],
    [{ catagory: 1, brand_name: 'X', name: 'N', mrp: '1.234', cp: 1, unit: 'pcs' }, 'MRP can have at most 2 decimal places.'],
    [{ catagory: 1, brand_name: 'X', name: 'N', mrp: 1, cp: -1, unit: 'pcs' }, 'Cost price cannot be negative.'],
    [{ catagory: 1, brand_name: 'X', name: 'N', mrp: 1, cp: 1, unit: 'pcs', per_peice_quantity: 0 }, 'Quantity per piece must be more than 0.'],
    [{ catagory: 999, brand_name: 'X', name: 'N', mrp: 1, cp: 1, unit: 'pcs' }, 'Category 999 does not exist.'],
    [{ catagory: 1, brand_name: 'X', name: 'N', mrp: 1, cp: 1, unit: 'pcs', colour: 'red' }, 'Unknown field: colour.'],
  ])('refuses bad input %j with a clear message and stores nothing', async (body, message) => {
    const before = (await get('/getProductList')).body.count;
    const r = await post('/createNewProduct', body);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
    expect((await get('/getProductList')).body.count).toBe(before);
  });

  it('staff get 403 on every catalogue write', async () => {
    const id = await makeProduct(s.url, A, { catagory: hw, name: 'Staff target' });
    const writes = [
      post('/createNewProduct', { catagory: hw, brand_name: 'X', name: 'N', mrp: 1, cp: 1, unit: 'pcs' }, STAFF),
      post('/editProduct', { product_id: id }, STAFF),
      post('/duplicateProduct', { originalProductId: id }, STAFF),
      request(s.url).delete(`/product/${id}`).set(auth(STAFF)),
      request(s.url).post(`/updateProductImage/${id}`).set(auth(STAFF)).attach('image', Buffer.from('x'), 'a.png'),
      post('/catagory/add', { name: 'Nope' }, STAFF),
      request(s.url).delete(`/deleteCatagory/${hw}`).set(auth(STAFF)),
      request(s.url).put(`/editCatagory/${ply}/editLabel`).set(auth(STAFF)).send({ label_feature_1: 'Size' }),
    ];
    for (const r of await Promise.all(writes)) {
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('Only a manager can do this.');
    }
    expect((await get(`/getProductDetails?id=${id}`, STAFF)).status).toBe(200);
    expect((await get(`/getProductDetails?id=${id}`)).body.product.product_name).toBe('Staff target');
  });

  it('needs a token', async () => {
    expect((await request(s.url).get('/getProductList')).status).toBe(401);
  });
});

describe('tenancy', () => {
  it('company B never sees company A products, and ids of A are 404 for B', async () => {
    const id = await makeProduct(s.url, A, { catagory: hw, name: 'Secret hinge' });
    const list = await get('/getProductList', B);
    expect(list.body.list).toEqual([]);
    expect(list.body.totalStock).toBe('0');
    expect((await get(`/getProductDetails?id=${id}`, B)).status).toBe(404);
    expect((await get(`/getProductHistory?id=${id}`, B)).status).toBe(404);
    expect((await get(`/getLabelDetails/${id}`, B)).status).toBe(404);
    expect((await post('/duplicateProduct', { originalProductId: id }, B)).status).toBe(404);
    expect((await request(s.url).delete(`/product/${id}`).set(auth(B))).status).toBe(404);
    expect((await post('/editProduct', { product_id: id, catagory: hw, brand_name: 'X', name: 'Hacked', mrp: 1, cp: 1, unit: 'pcs' }, B)).status).toBe(404);
    expect((await get(`/editCatagory/${hw}`, B)).status).toBe(404);
    expect((await get('/getCategoryList', B)).body.categoryList).toEqual([]);
    expect((await get('/productPage/null', B)).body.product_list).toEqual([]);
    expect(await s.ask('inventory.product.lookup', { companyId: 2, code: String(id) })).toBeNull();
    expect((await get(`/getProductDetails?id=${id}`)).body.product.product_name).toBe('Secret hinge');
  });
});

describe('editProduct, history and stock levels', () => {
  it('edits fields, turns a typed stock into an adjustment movement, and shows it in history', async () => {
    const id = await makeProduct(s.url, A, { catagory: ply, name: 'Ply 12mm', brand_name: 'Century', mrp: '1850', cp: '1540' });
    const edit = {
      product_id: id, catagory: ply, active: 1, quantity_per_peice: '1', brand_name: 'Century', name: 'CenturyPly 12mm',
      mrp: '1900', cp: '1550.25', stock: '2.5', min_stock: '5', default_stock: '20', tax: '18', unit: 'sheet',
      specs: { Thickness: '12', Size: '8x4' }, barcode: '8901000000012', hsn_code: '4412',
    };
    const r = await post('/editProduct', edit);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ done: true, err: null });
    const d = (await get(`/getProductDetails?id=${id}`)).body;
    expect(d.product).toMatchObject({ product_name: 'CenturyPly 12mm', mrp: '1900.00', cp: '1550.25', stock: '2.5', min_stock: '5', default_stock: '20', tax: '1.18', tax_percent: '18', barcode: '8901000000012', hsn_code: '4412', stock_level: 0 });
    expect(d.specsValues).toEqual({ Thickness: '12', Size: '8x4' });
    // Same stock again: no new movement.
    await post('/editProduct', { ...edit, stock: '12' });
    await post('/editProduct', { ...edit, stock: '12' });
    const h = await get(`/getProductHistory?id=${id}&pageNo=0`);
    expect(h.status).toBe(200);
    expect(h.body.result).toHaveLength(2);
    expect(h.body.result[0]).toMatchObject({ type: 'Adjustment', Qty: '9.5', Rate: '1550.25', Stock: '12' });
    expect(h.body.result[1]).toMatchObject({ type: 'Adjustment', Qty: '2.5', Stock: '2.5' });
    expect(h.body.noOfPages).toBe(1);
    expect((await get(`/getProductDetails?id=${id}`)).body.product.stock_level).toBe(1);
  });

  it('refuses bad edits and changes nothing', async () => {
    const id = await makeProduct(s.url, A, { catagory: ply, name: 'Keep me', mrp: '10' });
    const base = { product_id: id, catagory: ply, brand_name: 'B', name: 'Changed', mrp: '12', cp: '9', unit: 'pcs' };
    for (const [patch, msg] of [
      [{ mrp: 'x' }, 'MRP must be a number.'],
      [{ stock: '1.2345' }, 'Stock can have at most 3 decimal places.'],
      [{ tax: '120' }, 'tax must be a percent between 0 and 100.'],
      [{ active: 'maybe' }, 'active must be 1 or 0.'],
      [{ quantity_per_peice: '0' }, 'Quantity per piece must be more than 0.'],
      [{ specs: ['x'] }, 'specs must be an object of spec name to value.'],
    ] as const) {
      const r = await post('/editProduct', { ...base, ...patch });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(msg);
    }
    expect((await post('/editProduct', { ...base, product_id: 99999 })).status).toBe(404);
    expect((await get(`/getProductDetails?id=${id}`)).body.product).toMatchObject({ product_name: 'Keep me', mrp: '10.00' });
  });
});

describe('getProductList filters and totals', () => {
  it('filters by category, brand, stock level and active; totals follow the filter', async () => {
    const cat = await makeCategory(s.url, A, 'Adhesives');
    const mk = async (name: string, brand: string, stock: string, min: string, def: string, cp: string, active = 1) => {
      const id = await makeProduct(s.url, A, { catagory: cat, name, brand_name: brand, cp });
      await post('/editProduct', { product_id: id, catagory: cat, brand_name: brand, name, mrp: '500', cp, unit: 'kg', stock, min_stock: min, default_stock: def, active });
      return id;
    };
    await mk('Fevicol 1kg', 'Fevicol', '2', '5', '20', '318.50'); // Low
    await mk('Fevicol 5kg', 'Fevicol', '10', '5', '20', '1490'); // On
    await mk('Araldite', 'Araldite', '25.5', '5', '20', '205'); // High
    await mk('Old glue', 'Araldite', '1', '0', '10', '100', 0); // On, inactive
    const all = (await get(`/getProductList?category=${cat}`)).body;
    expect(all.list.map((p: { product_name: string }) => p.product_name)).toEqual(['Fevicol 1kg', 'Fevicol 5kg', 'Araldite', 'Old glue']);
    expect(all.totalStock).toBe('38.5');
    // 2*318.50 + 10*1490 + 25.5*205 + 1*100
    expect(all.totalAmount).toBe('20864.50');
    expect(all.noOfPages).toBe(1);
    const q = async (query: string) => (await get(`/getProductList?category=${cat}&${query}`)).body;
    expect((await q('stock=0')).list.map((p: { product_name: string }) => p.product_name)).toEqual(['Fevicol 1kg']);
    expect((await q('stock=1')).totalStock).toBe('11');
    expect((await q('stock=2')).totalAmount).toBe('5227.50');
    expect((await q('brand=Fevicol')).totalStock).toBe('12');
    expect((await q('active=0')).list).toHaveLength(1);
    expect((await q('active=1&brand=Araldite')).list).toHaveLength(1);
    expect((await get('/getProductList?stock=5')).status).toBe(400);
    expect((await get('/getProductList?pageNo=-1')).status).toBe(400);
    const cb = (await get('/getCategoryBrand')).body;
    expect(cb.brand).toEqual(expect.arrayContaining(['Fevicol', 'Araldite']));
    expect(cb.cat).toEqual(expect.arrayContaining([{ id: cat, name: 'Adhesives' }]));
    const sb = await get(`/getProductListForStockBook?category=${cat}&brand=Fevicol`);
    expect(sb.status).toBe(200);
    expect(sb.body.list).toHaveLength(2);
    expect(sb.body.filterDtls).toMatchObject({ category: 'Adhesives', brand: 'Fevicol' });
    expect((await get('/getProductListForStockBook')).body.message).toBe('Please Select A Category.');
  });

  it('keeps the stock book (cost prices) from staff, as its print in documents', async () => {
    const cat = await makeCategory(s.url, A, 'Cost kept');
    await makeProduct(s.url, A, { catagory: cat, name: 'Secret cost' });
    const r = await get(`/getProductListForStockBook?category=${cat}`, STAFF);
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).not.toContain('Secret cost');
    expect((await get(`/getProductListForStockBook?category=${cat}`)).status).toBe(200);
  });

  it('pages by 10 with a zero-based pageNo', async () => {
    const cat = await makeCategory(s.url, A, 'Screws');
    for (let i = 0; i < 12; i++) await makeProduct(s.url, A, { catagory: cat, name: `Screw ${i}` });
    const p0 = (await get(`/getProductList?category=${cat}&pageNo=0`)).body;
    const p1 = (await get(`/getProductList?category=${cat}&pageNo=1`)).body;
    expect(p0.list).toHaveLength(10);
    expect(p1.list).toHaveLength(2);
    expect(p0.noOfPages).toBe(2);
    const grid = (await get(`/productPage/${cat}?pageNumber=0&text=screw 1`)).body;
    expect(grid.product_list.map((p: { product_name: string }) => p.product_name)).toEqual(['Screw 1', 'Screw 10', 'Screw 11']);
    expect(grid).toMatchObject({ cat_id: cat, pageNumber: 0, pageCount: 1 });
    expect(grid.catagory).toEqual(expect.arrayContaining([{ id: cat, name: 'Screws' }]));
    const all = (await get('/productPage/null')).body;
    expect(all.cat_id).toBeNull();
    expect(all.product_list).toHaveLength(12);
  });

  it('productPage filters by the category spec fields', async () => {
    const id = await makeProduct(s.url, A, { catagory: ply, name: 'Spec ply' });
    await post('/editProduct', { product_id: id, catagory: ply, brand_name: 'Acme', name: 'Spec ply', mrp: '1', cp: '1', unit: 'pcs', specs: { Thickness: '6', Size: '7x4' } });
    const r = (await get(`/productPage/${ply}?Thickness=6`)).body;
    expect(r.product_list.map((p: { product_id: number }) => p.product_id)).toEqual([id]);
    expect(r.fields).toEqual([{ field_name: 'Thickness', is_number: false }, { field_name: 'Size', is_number: false }]);
    expect(r.query).toMatchObject({ Thickness: '6' });
  });
});

describe('duplicate, delete, image, label', () => {
  it('duplicates a product without stock or barcode', async () => {
    const id = await makeProduct(s.url, A, { catagory: hw, name: 'Hinge', barcode: '111222' });
    await s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'purchase', id: 501 }, lines: [{ product_id: id, quantity: '7', rate: '10' }] });
    const r = await post('/duplicateProduct', { originalProductId: id });
    expect(r.status).toBe(200);
    const copy = (await get(`/getProductDetails?id=${r.body.duplicatedProductId}`)).body.product;
    expect(copy).toMatchObject({ product_name: 'Hinge', stock: '0', barcode: '', category: { id: hw } });
    expect(r.body.duplicatedProductId).not.toBe(id);
    expect((await post('/duplicateProduct', {})).status).toBe(400);
  });

  it('deletes a product without history; deactivates one with history', async () => {
    const fresh = await makeProduct(s.url, A, { catagory: hw, name: 'Fresh' });
    const d1 = await request(s.url).delete(`/product/${fresh}`).set(auth(A));
    expect(d1.body).toEqual({ success: true, deactivated: false, message: `Product ${fresh} deleted.` });
    expect((await get(`/getProductDetails?id=${fresh}`)).status).toBe(404);
    const used = await makeProduct(s.url, A, { catagory: hw, name: 'Used' });
    await s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 77 }, lines: [{ product_id: used, quantity: '1', rate: '100' }] });
    const d2 = await request(s.url).delete(`/product/${used}`).set(auth(A));
    expect(d2.status).toBe(200);
    expect(d2.body.deactivated).toBe(true);
    expect(d2.body.message).toContain('made inactive');
    expect((await get(`/getProductDetails?id=${used}`)).body.product.active).toBe(0);
    expect((await request(s.url).delete('/product/abc').set(auth(A))).status).toBe(400);
  });

  it('uploads an image to GridFS and serves it publicly by its unguessable name', async () => {
    const id = await makeProduct(s.url, A, { catagory: hw, name: 'Pictured' });
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const up = await request(s.url).post(`/updateProductImage/${id}`).set(auth(A)).attach('image', png, 'p.png');
    expect(up.status).toBe(200);
    expect(up.body.fileName).toMatch(/^p1-\d+-[0-9a-f]{24}\.png$/);
    const img = await request(s.url).get(`/productImage/${up.body.fileName}`).buffer(true);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(Buffer.from(img.body).equals(png)).toBe(true);
    expect((await get(`/getProductDetails?id=${id}`)).body.product.s3_object_name).toBe(up.body.fileName);
    const def = await request(s.url).get('/productImage/default.svg');
    expect(def.headers['content-type']).toContain('image/svg+xml');
    expect((await request(s.url).get('/productImage/p1-1-000000000000000000000000.png')).status).toBe(404);
    const bad = await request(s.url).post(`/updateProductImage/${id}`).set(auth(A)).attach('image', Buffer.from('not an image'), 'x.png');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The image must be a PNG, JPEG or WebP file.');
    expect((await request(s.url).post(`/updateProductImage/${id}`).set(auth(A))).status).toBe(400);
    expect((await request(s.url).post(`/updateProductImage/${id}`).set(auth(B)).attach('image', png, 'p.png')).status).toBe(404);
  });

  it('label details carry the category label features in print order', async () => {
    const id = await makeProduct(s.url, A, { catagory: ply, name: 'Label ply', barcode: '890777' });
    await post('/editProduct', { product_id: id, catagory: ply, brand_name: 'Acme', name: 'Label ply', mrp: '99.5', cp: '1', unit: 'sheet', specs: { Thickness: '9' } });
    const l = (await get(`/getLabelDetails/${id}`)).body;
    expect(l.product).toMatchObject({ product_id: id, product_name: 'Label ply', mrp: '99.50', unit: 'sheet', barcode: '890777' });
    expect(l.features).toEqual([
      { field_name: 'Thickness', alias: 'Thickness', value: '9' },
      { field_name: 'Size', alias: 'Size', value: '8x4' },
    ]);
    expect(l.code).toBe('890777');
  });
});
