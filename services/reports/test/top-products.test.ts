/**
 * A whole month's products by value, paged: one find sorted as the {companyId, month, value,
 * productId} index is (highest value first, ties by product), whatever order the rows were written in.
 */
import { getConnectionToken } from '@nestjs/mongoose';
import type { Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { C } from '../src/store';
import { startReports, type Stack } from './helpers';

let s: Stack;
let db: Db;

beforeAll(async () => {
  s = await startReports();
  await s.consumers.caughtUp(60_000);
  db = s.svc.app.get<Connection>(getConnectionToken()).db as unknown as Db;
}, 120_000);

afterAll(async () => {
  await s?.stop();
});

it('pages a month of tied values highest first, ties by product, through the index', async () => {
  // Products 150 down to 1 (written against product order): value 30.00 when p % 3 = 0, 20.00 when 2, 10.00 when 1.
  const rows = [];
  for (let p = 150; p >= 1; p--) {
    const value = [3000, 1000, 2000][p % 3]!; // paise, as the projector keeps them
    rows.push({ _id: `1:2025-08:${p}`, companyId: 1, month: '2025-08', productId: p, name: `P${p}`, qty: 1, value, cost: 0, costless: 0, profit: value });
  }
  await db.collection(C.profitMonth).insertMany(rows as never);
  const page = async (n: number) =>
    ((await s.get(`/reports/profit?from=2025-08-01&to=2025-08-31&by=product&page=${n}`).expect(200)).body.rows as Array<{ productId: number; value: string }>).map((r) => [r.productId, r.value]);
  const first = await page(0);
  expect(first).toHaveLength(100);
  // 50 products at 30.00 (3, 6, ..., 150), then 50 at 20.00 (2, 5, ..., 149).
  expect(first.slice(0, 2)).toEqual([[3, '30.00'], [6, '30.00']]);
  expect(first.slice(48, 52)).toEqual([[147, '30.00'], [150, '30.00'], [2, '20.00'], [5, '20.00']]);
  expect(first[99]).toEqual([149, '20.00']);
  // Page 1: the 50 at 10.00, 1, 4, ..., 148.
  const second = await page(1);
  expect(second).toHaveLength(50);
  expect(second[0]).toEqual([1, '10.00']);
  expect(second[49]).toEqual([148, '10.00']);
  // The sort is the index's order (the embedded server walks it past 1,000 rows, MongoDB always).
  const indexes = (await db.collection(C.profitMonth).indexes()).map((i) => i.name);
  expect(indexes).toEqual(expect.arrayContaining(['companyId_1_month_1_value_-1_productId_1', 'companyId_1_month_1_profit_-1_productId_1']));
  expect(indexes).not.toContain('companyId_1_month_1_value_-1');
});
