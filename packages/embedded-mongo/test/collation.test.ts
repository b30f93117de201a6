/**
 * Collation: MongoDB's locale names with underscores (`en_US`) work wherever a collation is read
 * (sorts, case-folding unique indexes); matching or grouping strings under strength 1 or 2, which
 * the server does not implement, is refused with an error in find, aggregate `$match` and
 * distinct alike, never answered by code point.
 */
import { MongoServerError } from 'mongodb';
import { startHarness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.stop());

const folded = { locale: 'en_US', strength: 2 };

test('en_US sorts and folds a unique index like en', async () => {
  const c = h.client.db('coll').collection('names');
  await c.insertMany([{ n: 'b' }, { n: 'B' }, { n: 'a' }, { n: 'C' }]);
  const sorted = await c.find({}, { collation: { locale: 'en_US' } }).sort({ n: 1 }).toArray();
  expect(sorted.map((d) => d.n)).toEqual(['a', 'b', 'B', 'C']);
  const agg = await c.aggregate([{ $sort: { n: -1 } }], { collation: { locale: 'en_US' } }).toArray();
  expect(agg.map((d) => d.n)).toEqual(['C', 'B', 'b', 'a']);
  const emails = h.client.db('coll').collection('emails');
  await emails.createIndex({ email: 1 }, { unique: true, collation: folded });
  await emails.insertOne({ email: 'Shop@Example.in' });
  const dup = await emails.insertOne({ email: 'shop@example.in' }).catch((e: unknown) => e);
  expect((dup as MongoServerError).code).toBe(11000);
});

test('strength 2 matching is refused in find, $match and distinct, and nothing else changes', async () => {
  const c = h.client.db('coll').collection('names');
  const refusal = /collation of strength 1 or 2 is not supported/;
  await expect(c.find({ n: 'b' }, { collation: folded }).toArray()).rejects.toThrow(refusal);
  await expect(c.aggregate([{ $match: { n: 'b' } }], { collation: folded }).toArray()).rejects.toThrow(refusal);
  await expect(c.aggregate([{ $sort: { n: 1 } }, { $match: { n: 'b' } }], { collation: folded }).toArray()).rejects.toThrow(refusal);
  await expect(c.distinct('n', {}, { collation: folded })).rejects.toThrow(refusal);
  // Without a collation, or at strength 3, the same reads answer.
  expect(await c.distinct('n', {}, { collation: { locale: 'en_US', strength: 3 } })).toEqual(['B', 'C', 'a', 'b']);
  expect((await c.aggregate([{ $match: { n: 'b' } }]).toArray()).map((d) => d.n)).toEqual(['b']);
  expect(await c.countDocuments({})).toBe(4);
});
