/**
 * Differential test of the planner (fast-check): the same generated documents go into a
 * collection without secondary indexes and into collections with each kind of index (single,
 * descending, compound, mixed-direction compound, partial, compound partial, sparse); the same
 * generated queries (equality, `$in`, ranges, `$exists`, `$type`, sorts on one or two keys,
 * limit) by find, aggregate and countDocuments must give the same documents in the same order
 * (ties keep insertion order, which both the index walk and the in-memory sort give).
 */
import fc from 'fast-check';
import type { Db, Document } from 'mongodb';
import { startHarness, type Harness } from './helpers';

let h: Harness;
let db: Db;
beforeAll(async () => {
  h = await startHarness();
  db = h.client.db('differential');
});
afterAll(async () => h.stop());

const INDEXES: Array<{ name: string; key: Document; options?: Document }> = [
  { name: 'single', key: { a: 1 } },
  { name: 'desc', key: { b: -1 } },
  { name: 'compound', key: { a: 1, b: 1 } },
  { name: 'mixed', key: { c: 1, a: 1, b: -1 } },
  { name: 'partial', key: { a: 1 }, options: { partialFilterExpression: { a: { $type: 'number' } } } },
  { name: 'partialExists', key: { b: 1 }, options: { partialFilterExpression: { b: { $exists: true } } } },
  { name: 'partialRange', key: { c: 1, a: 1 }, options: { partialFilterExpression: { a: { $gt: 2 } } } },
  { name: 'sparse', key: { b: 1 }, options: { sparse: true } },
];

const FIELDS = ['a', 'b', 'c'] as const;
const value = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 6 }) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 6, noNaN: true }) },
  { weight: 3, arbitrary: fc.constantFrom('x', 'y', 'z', '') },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom(new Date('2026-04-01T00:00:00Z'), new Date('2026-11-28T00:00:00Z')) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom('x', 'y')), { maxLength: 2 }) },
);
const doc = fc.record({ a: value, b: value, c: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant('k')) }, { requiredKeys: [] });

const scalar = fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom('x', 'y', ''), fc.constant(null), fc.boolean());
const predicate = fc.oneof(
  scalar,
  fc.record({ $in: fc.array(scalar, { minLength: 1, maxLength: 3 }) }),
  fc.tuple(fc.constantFrom('$gt', '$gte', '$lt', '$lte'), fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom('x', 'y'))).map(([op, v]) => ({ [op]: v })),
  fc
    .tuple(fc.constantFrom('$gt', '$gte'), fc.integer({ min: 0, max: 3 }), fc.constantFrom('$lt', '$lte'), fc.integer({ min: 2, max: 6 }))
    .map(([lo, x, hi, y]) => ({ [lo]: x, [hi]: y })),
  fc.boolean().map((b) => ({ $exists: b })),
  fc.constantFrom('number', 'string', 'bool', 'null', 'date', 'array', 'int', 'double', ['string', 'number']).map((t) => ({ $type: t })),
);
const filter = fc.array(fc.tuple(fc.constantFrom(...FIELDS), predicate), { maxLength: 2 }).map((preds) => {
  const f: Document = {};
  for (const [k, p] of preds) {
    if (p && typeof p === 'object' && !Array.isArray(p) && !Object.keys(p).length) continue;
    f[k] = p;
  }
  return f;
});
const sort = fc.oneof(
  fc.constant(null),
  fc.uniqueArray(fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom(1, -1)), { minLength: 1, maxLength: 2, selector: (t) => t[0] }).map((keys) => Object.fromEntries(keys)),
);
const query = fc.record({ filter, sort, limit: fc.constantFrom(0, 0, 1, 3) });

test('every index kind gives the same results as a collection scan', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(doc, { maxLength: 30 }), fc.array(query, { minLength: 1, maxLength: 6 }), async (docs, queries) => {
      await db.dropDatabase();
      const plain = db.collection('plain');
      if (docs.length) await plain.insertMany(docs.map((d, i) => ({ _id: i, ...d })) as never);
      else await db.createCollection('plain');
      for (const ix of INDEXES) {
        const c = db.collection(ix.name);
        await c.createIndex(ix.key, ix.options ?? {});
        if (docs.length) await c.insertMany(docs.map((d, i) => ({ _id: i, ...d })) as never);
      }
      for (const q of queries) {
        const run = async (name: string) => {
          const c = db.collection(name);
          let cursor = c.find(q.filter);
          if (q.sort) cursor = cursor.sort(q.sort);
          if (q.limit) cursor = cursor.limit(q.limit);
          const pipeline: Document[] = [{ $match: q.filter }];
          if (q.sort) pipeline.push({ $sort: q.sort });
          if (q.limit) pipeline.push({ $limit: q.limit });
          const found = (await cursor.toArray()).map((d) => d._id);
          const aggregated = (await c.aggregate(pipeline).toArray()).map((d) => d._id);
          return { found: q.sort ? found : found.sort(), aggregated: q.sort ? aggregated : aggregated.sort(), count: await c.countDocuments(q.filter) };
        };
        const expected = await run('plain');
        for (const ix of INDEXES) {
          const got = await run(ix.name);
          if (JSON.stringify(got) !== JSON.stringify(expected)) {
            throw new Error(`${ix.name} differs for ${JSON.stringify(q)}: ${JSON.stringify(got)} vs scan ${JSON.stringify(expected)}`);
          }
        }
        // A collection scan agrees with itself across find and aggregate.
        expect(expected.aggregated).toEqual(expected.found);
      }
    }),
    { numRuns: 60 },
  );
}, 240_000);
