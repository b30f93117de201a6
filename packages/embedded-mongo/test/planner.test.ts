/**
 * The planner uses partial and sparse indexes only for queries implying their filter, `$type`
 * and `$exists` slices of an indexed field, and compound indexes for sorts (an equality prefix
 * and the next keys, in the index's direction or all reversed); explain names the index used.
 */
import type { Collection, Document } from 'mongodb';
import { startHarness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.stop());

async function plan(coll: Collection, filter: Document, sort?: Document, limit?: number): Promise<string> {
  const reply = await coll.db.command({ explain: { find: coll.collectionName, filter, ...(sort ? { sort } : {}), ...(limit ? { limit } : {}) } });
  const w = reply.queryPlanner.winningPlan;
  // A SORT stage over the read: the index (if any) only found the documents.
  if (w.stage === 'SORT') return `SORT(${w.inputStage.inputStage?.indexName ?? w.inputStage.stage})`;
  return w.inputStage?.indexName ?? w.stage;
}

test('a partial index serves the queries implying its filter, and only those', async () => {
  const c = h.client.db('planner').collection('outbox');
  await c.createIndex({ evt: 1 }, { name: 'evt_pending', partialFilterExpression: { evt: { $type: 'string' } } });
  await c.insertMany([
    { n: 1, evt: 'a.1' },
    { n: 2 },
    { n: 3, evt: 'b.2' },
    { n: 4, evt: null },
    { n: 5, evt: 7 },
  ]);
  expect(await plan(c, { evt: { $type: 'string' } })).toBe('evt_pending');
  expect(await plan(c, { evt: 'a.1' })).toBe('evt_pending');
  expect(await plan(c, { evt: { $in: ['a.1', 'b.2'] } })).toBe('evt_pending');
  expect(await plan(c, { evt: { $gte: 'a' } })).toBe('evt_pending');
  // Not implied: 7 and null would be missed.
  expect(await plan(c, { evt: { $exists: true } })).toBe('COLLSCAN');
  expect(await plan(c, { evt: 7 })).toBe('COLLSCAN');
  expect(await plan(c, {})).toBe('COLLSCAN');
  expect((await c.find({ evt: { $type: 'string' } }).toArray()).map((d) => d.n)).toEqual([1, 3]);
  expect((await c.find({ evt: { $exists: true } }).toArray()).map((d) => d.n)).toEqual([1, 3, 4, 5]);
  expect((await c.find({ evt: 7 }).toArray()).map((d) => d.n)).toEqual([5]);
  // Leaving the filter drops the entry; entering it adds one.
  await c.updateOne({ n: 1 }, { $unset: { evt: 1 } });
  await c.updateOne({ n: 5 }, { $set: { evt: 'c.3' } });
  expect((await c.find({ evt: { $type: 'string' } }).toArray()).map((d) => d.n)).toEqual([3, 5]);
  expect(await c.countDocuments({ evt: { $type: 'string' } })).toBe(2);
});

test('a partial range filter is implied by a narrower range or an equality inside it', async () => {
  const c = h.client.db('planner').collection('stock');
  await c.createIndex({ companyId: 1, qty: 1 }, { name: 'low', partialFilterExpression: { qty: { $lt: 10 } } });
  await c.insertMany([1, 5, 9, 10, 20].map((qty, i) => ({ companyId: 1, qty, i })));
  expect(await plan(c, { companyId: 1, qty: { $lt: 5 } })).toBe('low');
  expect(await plan(c, { companyId: 1, qty: { $lte: 9 } })).toBe('low');
  expect(await plan(c, { companyId: 1, qty: 9 })).toBe('low');
  expect(await plan(c, { companyId: 1, qty: { $lte: 10 } })).toBe('COLLSCAN');
  expect(await plan(c, { companyId: 1 })).toBe('COLLSCAN');
  expect((await c.find({ companyId: 1, qty: { $lt: 10 } }).toArray()).map((d) => d.qty)).toEqual([1, 5, 9]);
  expect((await c.find({ companyId: 1, qty: { $lte: 10 } }).toArray()).map((d) => d.qty)).toEqual([1, 5, 9, 10]);
});

test('a sparse index serves queries that exclude documents without the field, never a bare sort', async () => {
  const c = h.client.db('planner').collection('sparse');
  await c.createIndex({ gstin: 1 }, { sparse: true });
  await c.insertMany([{ n: 1, gstin: '29B' }, { n: 2 }, { n: 3, gstin: '27A' }, { n: 4, gstin: null }]);
  expect(await plan(c, { gstin: '27A' })).toBe('gstin_1');
  expect(await plan(c, { gstin: { $exists: true } })).toBe('gstin_1');
  expect(await plan(c, { gstin: null })).toBe('COLLSCAN');
  expect(await plan(c, {}, { gstin: 1 })).toBe('SORT(COLLSCAN)');
  expect((await c.find({ gstin: { $exists: true } }).toArray()).map((d) => d.n)).toEqual([1, 3, 4]);
  expect((await c.find({}).sort({ gstin: 1, n: 1 }).toArray()).map((d) => d.n)).toEqual([2, 4, 3, 1]);
});

test('$type on an indexed field reads its type bracket', async () => {
  const c = h.client.db('planner').collection('typed');
  await c.createIndex({ v: 1 });
  await c.insertMany([{ v: 1 }, { v: 'x' }, { v: 2.5 }, { v: true }, { v: ['y', 3] }, { v: null }, {}]);
  expect(await plan(c, { v: { $type: 'string' } })).toBe('v_1');
  expect(await plan(c, { v: { $type: ['number', 'bool'] } })).toBe('v_1');
  expect(await plan(c, { v: { $type: 'array' } })).toBe('COLLSCAN');
  expect((await c.find({ v: { $type: 'string' } }).toArray()).map((d) => d.v)).toEqual(['x', ['y', 3]]);
  expect((await c.find({ v: { $type: 'number' } }).toArray()).map((d) => d.v)).toEqual([1, 2.5, ['y', 3]]);
  expect((await c.find({ v: { $type: 'int' } }).toArray()).map((d) => d.v)).toEqual([1, ['y', 3]]);
});

test('a compound index serves an equality prefix and a sort on its next keys, forwards and reversed', async () => {
  const c = h.client.db('planner').collection('invoices');
  await c.createIndex({ companyId: 1, date: 1, no: -1 }, { name: 'by_date' });
  const docs = [];
  // 1,500 invoices in company 1 (so the walk beats an equality lookup), 10 in company 2.
  for (let i = 0; i < 1510; i++) docs.push({ companyId: i < 1500 ? 1 : 2, date: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}`, no: i });
  await c.insertMany(docs as never);
  expect(await plan(c, { companyId: 1 }, { date: 1, no: -1 }, 5)).toBe('by_date');
  expect(await plan(c, { companyId: 1 }, { date: -1, no: 1 }, 5)).toBe('by_date');
  // Mixed against the index's directions: sorted in memory.
  expect(await plan(c, { companyId: 1 }, { date: 1, no: 1 }, 5)).toBe('SORT(by_date)');
  // Few enough matches: the equality lookup, then a sort in memory.
  expect(await plan(c, { companyId: 2 }, { date: 1, no: -1 }, 5)).toBe('SORT(by_date)');
  const first = await c.find({ companyId: 1 }).sort({ date: 1, no: -1 }).limit(3).toArray();
  expect(first.map((d) => [d.date, d.no])).toEqual([['2026-11-01', 1484], ['2026-11-01', 1456], ['2026-11-01', 1428]]);
  const last = await c.find({ companyId: 1 }).sort({ date: -1, no: 1 }).limit(3).toArray();
  expect(last.map((d) => [d.date, d.no])).toEqual([['2026-11-28', 27], ['2026-11-28', 55], ['2026-11-28', 83]]);
  const mixed = await c.find({ companyId: 1 }).sort({ date: 1, no: 1 }).limit(2).toArray();
  expect(mixed.map((d) => [d.date, d.no])).toEqual([['2026-11-01', 0], ['2026-11-01', 28]]);
  const agg = await c.aggregate([{ $match: { companyId: 1 } }, { $sort: { date: -1, no: 1 } }, { $limit: 2 }]).toArray();
  expect(agg.map((d) => d.no)).toEqual([27, 55]);
  const explained = await c.db.command({ explain: { aggregate: 'invoices', pipeline: [{ $match: { companyId: 1 } }, { $sort: { date: -1, no: 1 } }], cursor: {} } });
  expect(explained.queryPlanner.winningPlan.inputStage.indexName).toBe('by_date');
});

test('a sorted walk starts and ends at the span of the sort key\'s $in values or range', async () => {
  const c = h.client.db('planner').collection('sales');
  await c.createIndex({ companyId: 1, date: 1 });
  const dates = ['2026-04-10', '2026-05-02', '2026-05-20', '2026-06-01', '2026-06-15', '2026-07-09'];
  const docs = Array.from({ length: 9000 }, (_, i) => ({ _id: i, companyId: 1 + (i % 2), date: dates[(i * 7) % dates.length] }));
  await c.insertMany(docs as never);
  // What a scan in insertion order, stably sorted, gives.
  const expected = (keep: (d: (typeof docs)[0]) => boolean, dir: 1 | -1) =>
    docs.filter((d) => d.companyId === 1 && keep(d)).sort((a, b) => dir * a.date.localeCompare(b.date)).map((d) => d._id);
  const may = ['2026-05-02', '2026-05-20']; // 1,500 of company 1's sales: more than an equality lookup would sort in memory
  expect(await plan(c, { companyId: 1, date: { $in: may } }, { date: 1 })).toBe('companyId_1_date_1');
  for (const dir of [1, -1] as const) {
    expect((await c.find({ companyId: 1, date: { $in: may } }).sort({ date: dir }).toArray()).map((d) => d._id)).toEqual(expected((d) => may.includes(d.date), dir));
    const range = { $gt: '2026-05-02', $lte: '2026-06-15' };
    expect((await c.find({ companyId: 1, date: range }).sort({ date: dir }).toArray()).map((d) => d._id)).toEqual(expected((d) => d.date > '2026-05-02' && d.date <= '2026-06-15', dir));
    expect((await c.find({ companyId: 1, date: { $gte: '2026-06-01' } }).sort({ date: dir }).limit(5).toArray()).map((d) => d._id)).toEqual(expected((d) => d.date >= '2026-06-01', dir).slice(0, 5));
    expect((await c.find({ companyId: 1, date: { $lt: '2026-05-03' } }).sort({ date: dir }).toArray()).map((d) => d._id)).toEqual(expected((d) => d.date < '2026-05-03', dir));
  }
});
