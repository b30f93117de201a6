import request from 'supertest';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

let s: Stack;
const A = token(1);
let p1: number;
let p2: number;

beforeAll(async () => {
  s = await startInventory();
  const cat = await makeCategory(s.url, A, 'Grocery');
  p1 = await makeProduct(s.url, A, { catagory: cat, name: 'Basmati Rice 5kg', brand_name: 'India Gate', mrp: '650', cp: '540', barcode: '8901234567890' });
  p2 = await makeProduct(s.url, A, { catagory: cat, name: 'Toor Dal', brand_name: 'Tata', unit: 'kg', mrp: '160', cp: '132.5' });
});
afterAll(() => s?.stop());

const stockOf = async (id: number) => (await request(s.url).get(`/getProductDetails?id=${id}`).set(auth(A))).body.product.stock;

describe('inventory.product.*', () => {
  it('looks up an active product by id, "id : name" or barcode', async () => {
    const byId = await s.ask('inventory.product.lookup', { companyId: 1, code: String(p1) });
    expect(byId).toMatchObject({ product_id: p1, product_name: 'Basmati Rice 5kg', brand_name: 'India Gate', mrp: '650.00', cp: '540.00', per_peice_quantity: '1', stock: '0', tax: '1', barcode: '8901234567890', active: 1, category: { name: 'Grocery' } });
    expect((await s.ask('inventory.product.lookup', { companyId: 1, code: `${p1} : Basmati Rice 5kg` }))?.product_id).toBe(p1);
    expect((await s.ask('inventory.product.lookup', { companyId: 1, code: '8901234567890' }))?.product_id).toBe(p1);
    expect(await s.ask('inventory.product.lookup', { companyId: 1, code: '424242' })).toBeNull();
    expect(await s.ask('inventory.product.lookup', { companyId: 1, code: '' })).toBeNull();
    await expect(s.ask('inventory.product.lookup', { code: '1' })).rejects.toMatchObject({ status: 400 });
  });

  it('names each company its own category when both have the same category id', async () => {
    // Category names are kept in memory by company and id: company 3's category 1 is not company 1's.
    const B = token(3);
    const other = await makeCategory(s.url, B, 'Hardware');
    const theirs = await makeProduct(s.url, B, { catagory: other, name: 'Hinge', brand_name: 'Godrej', mrp: '40', cp: '30' });
    const mine = await s.ask('inventory.product.lookup', { companyId: 1, code: String(p1) });
    const their = await s.ask('inventory.product.lookup', { companyId: 3, code: String(theirs) });
    expect(their.category.id).toBe(mine.category.id);
    expect([mine.category.name, their.category.name]).toEqual(['Grocery', 'Hardware']);
    expect((await s.ask('inventory.product.lookup', { companyId: 1, code: String(p1) })).category.name).toBe('Grocery');
  });

  it('returns many by ids and suggests by id prefix, name words and barcode', async () => {
    const many = await s.ask('inventory.product.many', { companyId: 1, productIds: [p2, 9999, p1] });
    expect(many.map((p: { product_id: number }) => p.product_id)).toEqual([p2, p1]);
    const first = await s.ask('inventory.product.suggest', { companyId: 1 });
    expect(first).toEqual([
      { product_id: p1, product_name: 'Basmati Rice 5kg', stock: '0', mrp: '650.00' },
      { product_id: p2, product_name: 'Toor Dal', stock: '0', mrp: '160.00' },
    ]);
    expect((await s.ask('inventory.product.suggest', { companyId: 1, text: 'rice bas' })).map((p: { product_id: number }) => p.product_id)).toEqual([p1]);
    expect((await s.ask('inventory.product.suggest', { companyId: 1, text: 'tata' })).map((p: { product_id: number }) => p.product_id)).toEqual([p2]);
    expect((await s.ask('inventory.product.suggest', { companyId: 1, text: String(p2) })).map((p: { product_id: number }) => p.product_id)).toEqual([p2]);
    expect(await s.ask('inventory.product.suggest', { companyId: 2, text: 'rice' })).toEqual([]);
  });
});

describe('inventory.stock.apply / reverse', () => {
  it('applies a purchase once: a retried message never counts twice', async () => {
    const msg = { companyId: 1, source: { kind: 'purchase', id: 1 }, date: '2025-01-15T10:00:00.000Z', lines: [{ product_id: p1, quantity: '10', rate: '540' }, { product_id: p2, quantity: '25.5', rate: '132.5' }] };
    const first = await s.ask('inventory.stock.apply', msg);
    expect(first.applied).toBe(true);
    expect(first.movements).toEqual([
      { product_id: p1, kind: 'purchase', source: { kind: 'purchase', id: 1 }, line: 1, quantity: '10', rate: '540.00', stock: '10', date: '2025-01-15T10:00:00.000Z' },
      { product_id: p2, kind: 'purchase', source: { kind: 'purchase', id: 1 }, line: 2, quantity: '25.5', rate: '132.50', stock: '25.5', date: '2025-01-15T10:00:00.000Z' },
    ]);
    const again = await Promise.all([s.ask('inventory.stock.apply', msg), s.ask('inventory.stock.apply', msg)]);
    expect(again.map((r) => r.applied)).toEqual([false, false]);
    expect(again[0].movements).toEqual(first.movements);
    expect(await stockOf(p1)).toBe('10');
    expect(await stockOf(p2)).toBe('25.5');
  });

  it('takes a sale out, may go below zero and says so', async () => {
    const r = await s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 1 }, lines: [{ product_id: p1, quantity: '12', rate: '650' }, { product_id: p2, quantity: '0.25', rate: '160' }] });
    expect(r.applied).toBe(true);
    expect(r.movements.map((m: { quantity: string; stock: string }) => [m.quantity, m.stock])).toEqual([['-12', '-2'], ['-0.25', '25.25']]);
    expect(r.negativeStock).toEqual([p1]);
    const h = (await request(s.url).get(`/getProductHistory?id=${p1}`).set(auth(A))).body.result;
    expect(h.map((x: { type: string; Qty: string; Rate: string; Stock: string }) => [x.type, x.Qty, x.Rate, x.Stock])).toEqual([
      ['Sell', '-12', '650.00', '-2'],
      ['Buy', '10', '540.00', '10'],
    ]);
  });

  it('is all or nothing: an unknown product leaves every stock as it was', async () => {
    const before = [await stockOf(p1), await stockOf(p2)];
    await expect(
      s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 2 }, lines: [{ product_id: p1, quantity: '1', rate: '1' }, { product_id: 9999, quantity: '1', rate: '1' }] }),
    ).rejects.toMatchObject({ status: 404, message: 'Product 9999 not found.' });
    expect([await stockOf(p1), await stockOf(p2)]).toEqual(before);
    // The failed source was not recorded: the corrected message applies.
    const ok = await s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 2 }, lines: [{ product_id: p1, quantity: '1', rate: '650' }] });
    expect(ok.applied).toBe(true);
  });

  it('refuses bad lines with a clear message', async () => {
    const bad = async (lines: unknown, source: unknown = { kind: 'sale', id: 3 }) => s.ask('inventory.stock.apply', { companyId: 1, source, lines }).catch((e) => e);
    expect((await bad([])).message).toBe('lines must list at least one product.');
    expect((await bad([{ product_id: p1, quantity: '-1', rate: '1' }])).message).toBe('lines[0].quantity cannot be negative.');
    expect((await bad([{ product_id: p1, quantity: 'x', rate: '1' }])).message).toBe('lines[0].quantity must be a number.');
    expect((await bad([{ product_id: p1, quantity: '1', rate: '1' }], { kind: 'gift', id: 1 })).status).toBe(400);
    // Another company cannot move company 1's stock.
    await expect(s.ask('inventory.stock.apply', { companyId: 2, source: { kind: 'sale', id: 9 }, lines: [{ product_id: p1, quantity: '1', rate: '1' }] })).rejects.toMatchObject({ status: 404 });
  });

  it('reverses a sale exactly once', async () => {
    const before = await stockOf(p2);
    await s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 10 }, lines: [{ product_id: p2, quantity: '2', rate: '160' }] });
    expect(await stockOf(p2)).toBe(String(Number(before) - 2));
    expect(await s.ask('inventory.stock.reverse', { companyId: 1, source: { kind: 'sale', id: 10 } })).toEqual({ reversed: true });
    expect(await s.ask('inventory.stock.reverse', { companyId: 1, source: { kind: 'sale', id: 10 } })).toEqual({ reversed: false });
    expect(await s.ask('inventory.stock.reverse', { companyId: 1, source: { kind: 'sale', id: 404 } })).toEqual({ reversed: false });
    expect(await stockOf(p2)).toBe(before);
    const h = (await request(s.url).get(`/getProductHistory?id=${p2}`).set(auth(A))).body.result;
    expect(h[0]).toMatchObject({ type: 'Sell return', Qty: '2' });
    await expect(s.ask('inventory.stock.reverse', { companyId: 1, source: { kind: 'adjustment', id: 1 } })).rejects.toMatchObject({ status: 400 });
  });

  it('an apply arriving after its sale was already undone moves nothing', async () => {
    // The seller timed out (database down), undid the sale, and then the queued apply ran.
    const before = await stockOf(p2);
    expect(await s.ask('inventory.stock.reverse', { companyId: 1, source: { kind: 'sale', id: 11 } })).toEqual({ reversed: false });
    const late = await s.ask<any>('inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 11 }, lines: [{ product_id: p2, quantity: '3', rate: '160' }] });
    expect(late).toMatchObject({ applied: false, movements: [] });
    expect(await stockOf(p2)).toBe(before);
  });
});

describe('malformed NATS payloads', () => {
  it('answer 400 with a sentence and change nothing, on every inventory handler', async () => {
    const before = [await stockOf(p1), await stockOf(p2)];
    const line = { product_id: p1, quantity: '1', rate: '540' };
    const bad: [string, unknown][] = [
      ['inventory.product.lookup', { companyId: '1', code: String(p1) }],
      ['inventory.product.lookup', { companyId: 1, code: { $gt: '' } }],
      ['inventory.product.lookup', { companyId: 1, code: 'x'.repeat(101) }],
      ['inventory.product.many', { companyId: 1, productIds: [{ $gt: 0 }] }],
      ['inventory.product.many', { companyId: 1, productIds: 'all' }],
      ['inventory.product.many', { companyId: -1, productIds: [p1] }],
      ['inventory.product.suggest', { companyId: 1, text: { $regex: '.' } }],
      ['inventory.product.suggest', { companyId: 1, limit: 10_000 }],
      ['inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: { $gt: 0 } }, lines: [line] }],
      ['inventory.stock.apply', { companyId: 1, source: { kind: 'gift', id: 900 }, lines: [line] }],
      ['inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 900 }, lines: [{ ...line, product_id: '1' }] }],
      ['inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 900 }, lines: [{ ...line, quantity: 1 }] }],
      ['inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 900 }, lines: [{ ...line, extra: 1 }] }],
      ['inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 900 }, lines: line }],
      ['inventory.stock.apply', { companyId: 1, source: { kind: 'sale', id: 900 }, lines: Array.from({ length: 1001 }, () => line) }],
      ['inventory.stock.reverse', { companyId: 1, source: { kind: 'purchase', id: '1' } }],
      ['inventory.stock.reverse', { companyId: { $gt: 0 }, source: { kind: 'purchase', id: 1 } }],
      ['inventory.stockbook.rows', { companyId: 1, category: { $gt: 0 } }],
      ['inventory.stockbook.rows', { companyId: 1, category: 1, brand: { $ne: null } }],
      ['inventory.label.details', { companyId: 1, productId: -5 }],
      ['inventory.purchase.labels', { companyId: 1, purchaseId: { $gt: 0 } }],
    ];
    const outcomes = await Promise.all(
      bad.map(([subject, data]) =>
        s.ask(subject, data).then(
          (r) => `${subject} ${JSON.stringify(data).slice(0, 80)}: answered ${JSON.stringify(r).slice(0, 60)}`,
          (e: { status: number; message: string }) => (e.status === 400 && /\w.*\.$/.test(e.message) ? 'refused' : `${subject}: ${e.status} ${e.message}`),
        ),
      ),
    );
    expect(outcomes.filter((o) => o !== 'refused')).toEqual([]);
    expect([await stockOf(p1), await stockOf(p2)]).toEqual(before);
  });
});
