import request from 'supertest';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

// The stock side of returns and cancelled bills: sale-return and sale-cancel come in,
// purchase-return goes out, each once per source, and an undo puts the stock back once.

let s: Stack;
const A = token(1);
let rice: number;
let dal: number;

beforeAll(async () => {
  s = await startInventory();
  const cat = await makeCategory(s.url, A, 'Grocery');
  rice = await makeProduct(s.url, A, { catagory: cat, name: 'Basmati Rice 5kg', mrp: '650', cp: '540' });
  dal = await makeProduct(s.url, A, { catagory: cat, name: 'Toor Dal', unit: 'kg', mrp: '160', cp: '132.5' });
  await s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'purchase', id: 1 }, lines: [{ product_id: rice, quantity: '10', rate: '540' }, { product_id: dal, quantity: '20', rate: '132.5' }] });
});
afterAll(() => s?.stop());

const stockOf = async (id: number) => (await request(s.url).get(`/getProductDetails?id=${id}`).set(auth(A))).body.product.stock as string;
const history = async (id: number) =>
  ((await request(s.url).get(`/getProductHistory?id=${id}&pageNo=0`).set(auth(A))).body.result as { type: string; Qty: string; Stock: string }[]).map((h) => [h.type, h.Qty, h.Stock]);

describe('return and cancellation stock kinds', () => {
  it('a sale return and a cancelled bill bring goods in, a purchase return takes them out, each once', async () => {
    const ret = { companyId: 1, source: { kind: 'sale-return', id: 5 }, lines: [{ product_id: rice, quantity: '2', rate: '650' }] };
    expect(await s.ask('inventory.stock.apply', ret)).toMatchObject({ applied: true, negativeStock: [] });
    expect(await s.ask('inventory.stock.apply', ret)).toMatchObject({ applied: false });
    await s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'sale-cancel', id: 9 }, lines: [{ product_id: dal, quantity: '2.5', rate: '160' }] });
    const out = await s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'purchase-return', id: 3 }, lines: [{ product_id: rice, quantity: '4', rate: '540' }, { product_id: dal, quantity: '1.25', rate: '132.5' }] });
    expect(out.movements.map((m: { quantity: string }) => m.quantity)).toEqual(['-4', '-1.25']);
    // Rice 10 + 2 - 4 = 8; dal 20 + 2.5 - 1.25 = 21.25.
    expect([await stockOf(rice), await stockOf(dal)]).toEqual(['8', '21.25']);
    expect(await history(rice)).toEqual([
      ['Purchase return', '-4', '8'],
      ['Sale return', '2', '12'],
      ['Buy', '10', '10'],
    ]);
    expect((await history(dal))[1]).toEqual(['Sale cancelled', '2.5', '22.5']);
  });

  it('an undo puts each back exactly once, with its own history type', async () => {
    for (const kind of ['sale-return', 'purchase-return', 'sale-cancel']) {
      const id = kind === 'sale-return' ? 5 : kind === 'purchase-return' ? 3 : 9;
      expect(await s.ask('inventory.stock.reverse', { companyId: 1, source: { kind, id } })).toEqual({ reversed: true });
      expect(await s.ask('inventory.stock.reverse', { companyId: 1, source: { kind, id } })).toEqual({ reversed: false });
    }
    // Back to the purchase alone: rice 10, dal 20.
    expect([await stockOf(rice), await stockOf(dal)]).toEqual(['10', '20']);
    expect((await history(rice)).slice(0, 2)).toEqual([
      ['Purchase return undone', '4', '10'],
      ['Sale return undone', '-2', '6'],
    ]);
    expect((await history(dal))[0]).toEqual(['Sale cancellation undone', '-2.5', '20']);
  });

  it('an undo arriving before its apply makes the late apply move nothing', async () => {
    expect(await s.ask('inventory.stock.reverse', { companyId: 1, source: { kind: 'purchase-return', id: 77 } })).toEqual({ reversed: false });
    expect(await s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'purchase-return', id: 77 }, lines: [{ product_id: rice, quantity: '1', rate: '540' }] })).toMatchObject({ applied: false, movements: [] });
    expect(await stockOf(rice)).toBe('10');
  });

  it('refuses a reversal kind sent as a source of its own', async () => {
    await expect(s.ask('inventory.stock.apply', { companyId: 1, source: { kind: 'purchase-return-reversal', id: 1 }, lines: [{ product_id: rice, quantity: '1', rate: '1' }] })).rejects.toMatchObject({ status: 400 });
    expect(await stockOf(rice)).toBe('10');
  });
});
