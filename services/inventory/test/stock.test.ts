import request from 'supertest';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { RELAY_COMMENT } from '@bahi/service-kit';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

let s: Stack;
const A = token(1);
let p1: number;
let p2: number;

beforeAll(async () => {
  s = await startInventory({ monitorCommands: true });
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

describe('a stock-out in few commands (issue 33)', () => {
  let cat: number;
  let x: number;
  let y: number;
  const apply = (kind: string, id: number, lines: [number, string, string][]) =>
    s.ask('inventory.stock.apply', { companyId: 1, source: { kind, id }, lines: lines.map(([product_id, quantity, rate]) => ({ product_id, quantity, rate })) });
  const history = async (id: number) =>
    ((await request(s.url).get(`/getProductHistory?id=${id}`).set(auth(A))).body.result as { type: string; Qty: string; Stock: string; source: { id: number } }[]).map((h) => [h.type, h.Qty, h.Stock, h.source.id]);
  const details = async (id: number) => (await request(s.url).get(`/getProductDetails?id=${id}`).set(auth(A))).body.product;
  const totals = async (q: string) => {
    const r = await request(s.url).get(`/getProductList?pageNo=0&category=${cat}${q}`).set(auth(A));
    return [r.body.count, r.body.totalStock, r.body.totalAmount];
  };

  beforeAll(async () => {
    cat = await makeCategory(s.url, A, 'Hardware');
    x = await makeProduct(s.url, A, { catagory: cat, name: 'Hinge 4in', brand_name: 'Godrej', mrp: '45', cp: '31.05', min_stock: '2', default_stock: '8' });
    y = await makeProduct(s.url, A, { catagory: cat, name: 'Screw box', brand_name: 'Godrej', mrp: '120', cp: '96.40' });
    expect((await apply('purchase', 500, [[x, '10', '31.05'], [y, '4', '96.40']])).applied).toBe(true);
  });

  it('a sale naming one product on two lines: each line stock after, the level, totals and history', async () => {
    // x: 10 (High, >= 8) -3 = 7 (On) -6 = 1 (Low, <= 2); y (no min or default: High): 4 - 1.5 = 2.5.
    // High before: 10 x 31.05 + 4 x 96.40 = 310.50 + 385.60 = 696.10.
    expect(await totals('&stock=2')).toEqual([2, '14', '696.10']);
    const r = await apply('sale', 500, [[x, '3', '45'], [y, '1.5', '120'], [x, '6', '45']]);
    expect(r.movements.map((m: { product_id: number; line: number; quantity: string; stock: string }) => [m.product_id, m.line, m.quantity, m.stock])).toEqual([
      [x, 1, '-3', '7'],
      [y, 2, '-1.5', '2.5'],
      [x, 3, '-6', '1'],
    ]);
    expect(r.negativeStock).toEqual([]);
    expect(await details(x)).toMatchObject({ stock: '1', stock_level: 0 });
    expect((await details(y)).stock).toBe('2.5');
    // Low: x, 1 x 31.05 = 31.05; High: y, 2.5 x 96.40 = 241.00; the category: 3.5, 272.05.
    expect(await totals('&stock=0')).toEqual([1, '1', '31.05']);
    expect(await totals('&stock=2')).toEqual([1, '2.5', '241.00']);
    expect(await totals('')).toEqual([2, '3.5', '272.05']);
    expect(await history(x)).toEqual([
      ['Sell', '-6', '1', 500],
      ['Sell', '-3', '7', 500],
      ['Buy', '10', '10', 500],
    ]);
    // Past zero: a later sale of x warns once, though it names x twice.
    const neg = await apply('sale', 501, [[x, '1', '45'], [x, '1', '45']]);
    expect(neg.movements.map((m: { stock: string }) => m.stock)).toEqual(['0', '-1']);
    expect(neg.negativeStock).toEqual([x]);
    expect(await apply('purchase', 501, [[x, '1', '31.05']])).toMatchObject({ applied: true });
  });

  it('costs the same six commands for one line or five: source, products read, one update, movements, totals, commit', async () => {
    const conn = s.svc.app.get<Connection>(getConnectionToken());
    const [client, db] = [conn.getClient(), conn.db!];
    const sent: string[] = [];
    // The event relay's look-up and mark (after the answer, off the apply's path) are counted apart.
    const listen = (e: mongo.CommandStartedEvent) => void (e.commandName !== 'endSessions' && e.command.comment !== RELAY_COMMENT && sent.push(`${e.commandName} ${String(e.command[e.commandName])}`));
    client.on('commandStarted', listen);
    try {
      for (const [id, lines] of [
        [510, [[y, '0.5', '120']]],
        [511, [[x, '1', '45'], [y, '0.25', '120'], [x, '1', '45'], [y, '0.25', '120'], [x, '1', '45']]],
      ] as [number, [number, string, string][]][]) {
        // The relay's work for the sale before (its look-up of the movements too) is done first.
        while (await db.collection('stock_sources').countDocuments({ evt: { $type: 'string' } })) await new Promise((r) => setTimeout(r, 20));
        sent.length = 0;
        expect((await apply('sale', id, lines)).applied).toBe(true);
        expect(sent).toEqual(['insert stock_sources', 'find products', 'update products', 'insert movements', 'update product_totals', 'commitTransaction 1']);
      }
    } finally {
      client.off('commandStarted', listen);
    }
  });

  it('orders a product history in commit order, also after movements numbered by the old company counter', async () => {
    const z = await makeProduct(s.url, A, { catagory: cat, name: 'Latch', brand_name: 'Godrej', mrp: '60', cp: '50' });
    expect((await apply('purchase', 520, [[z, '100', '50']])).applied).toBe(true);
    // As the version before kept it: movements numbered 1, 2, ... by a company counter, no mv_seq on the product.
    const db = s.svc.app.get<Connection>(getConnectionToken()).db!;
    await db.collection('movements').updateOne({ companyId: 1, product_id: z }, { $set: { seq: 7 } });
    await db.collection('products').updateOne({ companyId: 1, product_id: z }, { $unset: { mv_seq: '' } });
    // Twenty sales at once, one unit each: whatever order they commit in, each stock after is one below the one before.
    await Promise.all(Array.from({ length: 20 }, (_, i) => apply('sale', 530 + i, [[z, '1', '60']])));
    const h = await history(z);
    expect(h.map((r) => r[2])).toEqual(['80', '81', '82', '83', '84', '85', '86', '87', '88', '89']);
    const page2 = ((await request(s.url).get(`/getProductHistory?id=${z}&pageNo=2`).set(auth(A))).body.result as { type: string; Stock: string }[]).map((r) => [r.type, r.Stock]);
    expect(page2).toEqual([['Buy', '100']]);
    expect((await details(z)).stock).toBe('80');
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
