import request from 'supertest';
import { Subjects } from '@bahi/contracts';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

let s: Stack;
let A: string;
let ply: number;
let board: number;
let sheet: number;

const edit = (t: string, body: Record<string, unknown>) => request(s.url).post('/editProduct').set(auth(t)).send(body).expect(200);

beforeAll(async () => {
  s = await startInventory();
  A = token(1);
  ply = await makeCategory(s.url, A, 'Plywood', [['Thickness', '6'], ['Size', '8x4']]);
  board = await makeProduct(s.url, A, { catagory: ply, name: 'Marine Ply', brand_name: 'Century', mrp: '1450.5', cp: '1200', unit: 'sheet', barcode: '890111' });
  await edit(A, { product_id: board, catagory: ply, brand_name: 'Century', name: 'Marine Ply', mrp: '1450.5', cp: '1200', unit: 'sheet', barcode: '890111', stock: '12.5', specs: { Thickness: '18' } });
  sheet = await makeProduct(s.url, A, { catagory: ply, name: 'Commercial Ply', brand_name: 'Greenply', mrp: '900', cp: '700', unit: 'sheet' });
}, 60_000);
afterAll(() => s?.stop());

describe('inventory.stockbook.rows', () => {
  it('answers the rows of a category with its spec columns, like the stock book screen', async () => {
    const book = await s.ask(Subjects.documents.stockBook, { companyId: 1, category: ply });
    expect(book.category).toEqual({ id: ply, name: 'Plywood' });
    expect(book.specField).toEqual(['Thickness', 'Size']);
    expect(book.list).toEqual([
      { product_id: board, product_name: 'Marine Ply', brand_name: 'Century', mrp: '1450.50', cp: '1200.00', stock: '12.5', unit: 'sheet', specs: ['18', ''] },
      { product_id: sheet, product_name: 'Commercial Ply', brand_name: 'Greenply', mrp: '900.00', cp: '700.00', stock: '0', unit: 'sheet', specs: ['', ''] },
    ]);
    const screen = (await request(s.url).get(`/getProductListForStockBook?category=${ply}`).set(auth(A)).expect(200)).body;
    expect(book.list.map((r: { product_id: number }) => r.product_id)).toEqual(screen.list.map((r: { product_id: number }) => r.product_id));
  });

  it('applies the brand, stock and active filters', async () => {
    const brand = await s.ask(Subjects.documents.stockBook, { companyId: 1, category: ply, brand: 'Greenply' });
    expect(brand.list.map((r: { product_id: number }) => r.product_id)).toEqual([sheet]);
    const inactive = await s.ask(Subjects.documents.stockBook, { companyId: 1, category: ply, active: 0 });
    expect(inactive.list).toEqual([]);
    const withNulls = await s.ask(Subjects.documents.stockBook, { companyId: 1, category: ply, brand: null, stock: null, active: null });
    expect(withNulls.list).toHaveLength(2);
  });

  it('refuses a missing category and finds no category of another company', async () => {
    await expect(s.ask(Subjects.documents.stockBook, { companyId: 1 })).rejects.toMatchObject({ status: 400, message: 'Please Select A Category.' });
    await expect(s.ask(Subjects.documents.stockBook, { companyId: 2, category: ply })).rejects.toMatchObject({ status: 404 });
  });
});

describe('inventory.label.details', () => {
  it('answers the same data as GET /getLabelDetails/{id}', async () => {
    const l = await s.ask(Subjects.documents.labelDetails, { companyId: 1, productId: board });
    expect(l).toEqual({
      product: { product_id: board, product_name: 'Marine Ply', brand_name: 'Century', mrp: '1450.50', unit: 'sheet', per_peice_quantity: '1', barcode: '890111', stock: '12.5' },
      category: { id: ply, name: 'Plywood' },
      features: [
        { field_name: 'Thickness', alias: 'Thickness', value: '18' },
        { field_name: 'Size', alias: 'Size', value: '8x4' },
      ],
      code: '890111',
    });
    expect(l).toEqual((await request(s.url).get(`/getLabelDetails/${board}`).set(auth(A)).expect(200)).body);
    expect((await s.ask(Subjects.documents.labelDetails, { companyId: 1, productId: sheet })).code).toBe(String(sheet));
  });

  it('answers null for an unknown product or one of another company', async () => {
    expect(await s.ask(Subjects.documents.labelDetails, { companyId: 1, productId: 9999 })).toBeNull();
    expect(await s.ask(Subjects.documents.labelDetails, { companyId: 2, productId: board })).toBeNull();
  });
});
