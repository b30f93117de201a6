import request from 'supertest';
import { DemoSeedService } from '../src/seed/demo.seed';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

let s: Stack;
const A = token(1);
beforeAll(async () => {
  s = await startInventory();
});
afterAll(() => s?.stop());

const get = (path: string, t = A) => request(s.url).get(path).set(auth(t));
const post = (path: string, body: unknown, t = A) => request(s.url).post(path).set(auth(t)).send(body as object);

describe('categories', () => {
  it('adds a category with specs and a parent, lists and views it', async () => {
    const parent = await makeCategory(s.url, A, 'Plywood');
    const r = await post('/catagory/add', { name: 'Marine Plywood', belongs_to: parent, spec_1: 'Thickness', default_1: '18', is_number_1: true, spec_2: 'Grade', default_2: 'BWP' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, id: parent + 1, message: 'Category Marine Plywood created.' });
    const list = (await get('/getCategoryList')).body;
    expect(list.categoryList).toEqual([
      { id: parent + 1, name: 'Marine Plywood', belongs_to: parent, belongs_to_name: 'Plywood' },
      { id: parent, name: 'Plywood', belongs_to: null, belongs_to_name: '' },
    ]);
    expect(list.noOfPages).toBe(1);
    const v = (await get(`/editCatagory/${r.body.id}`)).body;
    expect(v.category).toMatchObject({ id: r.body.id, name: 'Marine Plywood', belongs_to: parent, belongs_to_name: 'Plywood', label_feature_1: 'Thickness', label_feature_2: 'Grade', label_feature_3: '' });
    expect(v.category_specs).toEqual([
      { field_name: 'Thickness', default_value: '18', is_number: true, priority: 1, alias: 'Thickness' },
      { field_name: 'Grade', default_value: 'BWP', is_number: false, priority: 2, alias: 'Grade' },
    ]);
    const paged = (await get('/getCategoryList?pageNo=0')).body;
    expect(paged.categoryList).toHaveLength(2);
    // A page number MongoDB cannot skip to is bad input, not a 500 (every paged list shares the check).
    for (const bad of ['1e308', '99999999999999999999', '-1', '1.5']) {
      const r = await get(`/getCategoryList?pageNo=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/pageNo/);
    }
  });

  it.each([
    [{}, 'Category name is required.'],
    [{ name: 'X', spec_1: 'Size' }, 'Spec 1 (Size): the default value is required.'],
    [{ name: 'X', default_1: '4' }, 'Spec 1: the spec name is required.'],
    [{ name: 'X', spec_1: 'Size', default_1: 'a', is_number_1: true }, 'Spec Size: the default must be a number.'],
    [{ name: 'X', belongs_to: 999 }, 'Parent category 999 does not exist.'],
    [{ name: 'X', colour: 1 }, 'Unknown field: colour.'],
  ])('refuses %j with a clear message and stores nothing', async (body, message) => {
    const before = (await get('/getCategoryList')).body.categoryList.length;
    const r = await post('/catagory/add', body);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
    expect((await get('/getCategoryList')).body.categoryList).toHaveLength(before);
  });

  it('refuses a duplicate name', async () => {
    await makeCategory(s.url, A, 'Paints');
    const r = await post('/catagory/add', { name: 'Paints' });
    expect(r.status).toBe(409);
  });

  it('edits label features with print-as text', async () => {
    const id = await makeCategory(s.url, A, 'Laminates', [['Thickness', '1'], ['Finish', 'Suede'], ['Shade', 'Walnut'], ['Code', 'L1']]);
    const put = (body: object) => request(s.url).put(`/editCatagory/${id}/editLabel`).set(auth(A)).send(body);
    const r = await put({ label_feature_1: 'Shade', label_feature_alias_1: 'Colour', label_feature_2: 'Code', label_feature_alias_2: '' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, msg: 'Label features saved.' });
    const v = (await get(`/editCatagory/${id}`)).body;
    expect(v.category).toMatchObject({ label_feature_1: 'Shade', label_feature_alias_1: 'Colour', label_feature_2: 'Code', label_feature_alias_2: 'Code', label_feature_3: '' });
    expect((await put({ label_feature_1: 'Weight' })).body.message).toBe('Label feature 1: Weight is not a spec of Laminates.');
    expect((await put({ label_feature_4: 'Shade' })).status).toBe(400);
    // A missing form changes nothing (it used to clear every label feature).
    expect((await put({})).body.message).toMatch(/Send label_feature_1/);
    expect((await get(`/editCatagory/${id}`)).body.category.label_feature_1).toBe('Shade');
    expect((await put({ label_feature_1: 'Shade', label_feature_2: 'Shade' })).status).toBe(400);
    expect((await get(`/editCatagory/${id}`)).body.category.label_feature_1).toBe('Shade');
  });

  it('refuses to delete a category in use; deletes an unused one', async () => {
    const used = await makeCategory(s.url, A, 'Hardware');
    await makeProduct(s.url, A, { catagory: used });
    const r = await request(s.url).delete(`/deleteCatagory/${used}`).set(auth(A));
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ success: false, message: 'Cannot delete Hardware: 1 product uses it. Move or delete them first.' });
    const parent = await makeCategory(s.url, A, 'Doors');
    await makeCategory(s.url, A, 'Flush Doors', [], { belongs_to: parent });
    expect((await request(s.url).delete(`/deleteCatagory/${parent}`).set(auth(A))).status).toBe(409);
    const free = await makeCategory(s.url, A, 'Unused');
    const d = await request(s.url).delete(`/deleteCatagory/${free}`).set(auth(A));
    expect(d.body).toEqual({ success: true, message: 'Category Unused deleted.' });
    expect((await get(`/editCatagory/${free}`)).status).toBe(404);
    expect((await request(s.url).delete(`/deleteCatagory/${free}`).set(auth(token(2)))).status).toBe(404);
  });
});

describe('demo catalogue seed', () => {
  it('seeds categories with specs, brands and 50 products with opening stock, once', async () => {
    const seed = s.svc.app.get(DemoSeedService);
    expect(await seed.seed(7)).toBe(true);
    expect(await seed.seed(7)).toBe(false);
    const t = token(7);
    const list = (await get('/getProductList', t)).body;
    expect(list.count).toBe(50);
    expect(Number(list.totalStock)).toBeGreaterThan(0);
    const cats = (await get('/getCategoryList', t)).body.categoryList;
    expect(cats.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['Plywood', 'Marine Plywood', 'Laminates', 'Hardware', 'Adhesives', 'Paints']));
    expect((await get('/getCategoryBrand', t)).body.brand).toEqual(expect.arrayContaining(['Greenply', 'Fevicol', 'Hettich']));
    const h = (await get('/getProductHistory?id=1', t)).body.result;
    expect(h[0]).toMatchObject({ type: 'Adjustment', Qty: '42', Stock: '42' });
    expect((await get('/getProductList?stock=0', t)).body.count).toBeGreaterThan(0);
  });
});
