// Sorted finds that walk an index (and counts read from one) must give exactly what the
// in-memory path gives: each query runs on an indexed collection and on an unindexed copy.
import type { Collection, Db, Document } from 'mongodb';
import { Index } from '../src/indexes';
import { startHarness, type Harness } from './helpers';

let h: Harness;
let db: Db;
let indexed: Collection;
let plain: Collection;

// Enough documents per company that the planner prefers the index walk to the candidate set.
const N = 2600;

function docFor(i: number): Document {
  const d: Document = { _id: i, companyId: i % 2 ? 1 : 2, n: Math.floor(i / 7) % 50, k: i };
  if (i % 11) d.name = `item ${String((i * 13) % 97).padStart(2, '0')}`; // ties and missing names
  if (i % 17 === 0) d.n = null;
  if (i % 23 === 0) d.n = `s${i % 3}`; // another type bracket
  if (i % 5 === 0) d.status = 'void';
  else d.status = 'complete';
  return d;
}

beforeAll(async () => {
  h = await startHarness();
  db = h.client.db('ordered');
  indexed = db.collection('indexed');
  plain = db.collection('plain');
  await indexed.createIndex({ companyId: 1, k: -1 });
  await indexed.createIndex({ companyId: 1, n: 1, name: 1 });
  await indexed.createIndex({ companyId: 1, name: 1 });
  await indexed.createIndex({ status: 1 });
  // Shuffled insertion order, so natural order differs from key order.
  const order = Array.from({ length: N }, (_, i) => (i * 7919) % N);
  for (let at = 0; at < N; at += 500) {
    const batch = order.slice(at, at + 500).map(docFor);
    await indexed.insertMany(batch);
    await plain.insertMany(batch);
  }
});
afterAll(() => h.stop());

async function same(filter: Document, sort: Document, skip = 0, limit = 0): Promise<Document[]> {
  const run = (c: Collection) => c.find(filter).sort(sort).skip(skip).limit(limit).toArray();
  const [a, b] = await Promise.all([run(indexed), run(plain)]);
  expect(a.map((d) => d._id)).toEqual(b.map((d) => d._id));
  return a;
}

describe('sorted find on an index', () => {
  it.each([
    [{ k: 1 }, 0, 20],
    [{ k: -1 }, 0, 20],
    [{ k: -1 }, 600, 20],
    [{ k: 1 }, 1290, 50],
    [{ k: -1 }, 0, 0],
  ])('single sort key %j, skip %i, limit %i', async (sort, skip, limit) => {
    const docs = await same({ companyId: 1 }, sort, skip, limit);
    expect(docs.length).toBe(Math.min(limit || 1300, 1300 - skip));
  });

  it('takes the index walk for the paged-list shapes (and not for a selective other index)', () => {
    const coll = h.server.engine.collection('ordered', 'indexed')!;
    const f = (raw: Document) => h.server.engine.filter(coll, raw);
    expect(coll.sortedMatch(f({ companyId: 1 }), { k: -1 }, null, 0, 20)).toHaveLength(20);
    expect(coll.sortedMatch(f({ companyId: 1, status: 'complete' }), { k: 1 }, null, 20, 20)).toHaveLength(20);
    expect(coll.sortedMatch(f({ companyId: 1 }), { n: 1, name: 1 }, null, 0, 20)).toHaveLength(20);
    expect(coll.sortedMatch(f({ companyId: 1 }), { name: 1, n: 1 }, null, 0, 20)).toBeNull();
    expect(coll.sortedMatch(f({ companyId: 1 }), { k: 1, n: -1 }, null, 0, 20)).toBeNull();
    expect(coll.sortedMatch(f({ companyId: 1, k: 5 }), { n: 1 }, null, 0, 20)).toBeNull();
  });

  it('keeps ties in natural order, ascending and descending, across type brackets and nulls', async () => {
    for (const dir of [1, -1] as const) {
      await same({ companyId: 2 }, { n: dir }, 0, 300);
      await same({ companyId: 2 }, { n: dir }, 900, 300);
    }
  });

  it('sorts by a compound index suffix', async () => {
    await same({ companyId: 1 }, { n: 1, name: 1 }, 0, 40);
    await same({ companyId: 1 }, { n: -1, name: -1 }, 100, 40);
    await same({ companyId: 1, n: 3 }, { name: 1 }, 0, 10);
    await same({ companyId: 1, n: 3 }, { name: -1 }, 2, 5);
  });

  it('sorts documents missing the field first (ascending) and last (descending)', async () => {
    const asc = await same({ companyId: 1 }, { name: 1 }, 0, 200);
    expect(asc[0].name).toBeUndefined();
    const desc = await same({ companyId: 1 }, { name: -1 }, 0, 1300);
    expect(desc[desc.length - 1].name).toBeUndefined();
  });

  it('applies the rest of the filter while walking', async () => {
    await same({ companyId: 1, status: 'complete' }, { k: -1 }, 0, 25);
    await same({ companyId: 1, status: 'void' }, { k: -1 }, 40, 25);
    await same({ companyId: 1, status: 'none' }, { k: -1 }, 0, 25);
    await same({ companyId: 1, k: { $gt: 1000 } }, { k: 1 }, 3, 10);
  });

  it('gives the same page through aggregate $match, $sort, $skip, $limit', async () => {
    const pipe = [{ $match: { companyId: 2 } }, { $sort: { k: -1 } }, { $skip: 30 }, { $limit: 15 }];
    const [a, b] = await Promise.all([indexed.aggregate(pipe).toArray(), plain.aggregate(pipe).toArray()]);
    expect(a.map((d) => d._id)).toEqual(b.map((d) => d._id));
    expect(a).toHaveLength(15);
  });

  it('stays exact after updates, deletes and reinserts', async () => {
    for (const c of [indexed, plain]) {
      await c.updateMany({ companyId: 1, k: { $lt: 200 } }, { $set: { k: 5000 } });
      await c.deleteMany({ companyId: 1, n: 7 });
      await c.insertOne({ _id: 'late' as never, companyId: 1, k: 4000, n: 7, name: 'item 00', status: 'complete' });
    }
    await same({ companyId: 1 }, { k: -1 }, 0, 120);
    await same({ companyId: 1 }, { n: 1, name: 1 }, 0, 1300);
    await same({ companyId: 1 }, { name: 1 }, 500, 100);
  });

  it('falls back to the in-memory sort once a document holds an array in an indexed field', async () => {
    const c = db.collection('multikey');
    const p = db.collection('multikey_plain');
    await c.createIndex({ companyId: 1, n: 1 });
    const docs: Document[] = Array.from({ length: 1500 }, (_, i) => ({ _id: i, companyId: 1, n: i === 700 ? [5000, -1] : (i * 31) % 1500 }));
    await c.insertMany(docs);
    await p.insertMany(docs);
    for (const dir of [1, -1] as const) {
      const [a, b] = await Promise.all([c.find({ companyId: 1 }).sort({ n: dir }).limit(5).toArray(), p.find({ companyId: 1 }).sort({ n: dir }).limit(5).toArray()]);
      expect(a.map((d) => d._id)).toEqual(b.map((d) => d._id));
      expect(a[0]._id).toBe(700);
    }
  });
});

describe('equalities on several leading fields of a compound index', () => {
  it.each([
    [{ companyId: 1, n: { $in: [3, 4, 30] } }],
    [{ companyId: 2, n: 5, name: { $gt: 'item 5' } }],
    [{ companyId: { $in: [1, 2] }, n: 7 }],
    [{ companyId: 1, n: null }],
  ])('find(%j) gives what the unindexed collection gives, in natural order', async (filter) => {
    const [a, b] = await Promise.all([indexed.find(filter).toArray(), plain.find(filter).toArray()]);
    expect(a.map((d) => d._id)).toEqual(b.map((d) => d._id));
    expect(a.length).toBeGreaterThan(0);
  });
});

describe('counts', () => {
  it.each([
    [{ companyId: 1 }],
    [{ companyId: 2, n: 3 }],
    [{ companyId: 1, n: 0 }],
    [{ companyId: 2, n: 49 }],
    [{ companyId: 2, n: 999 }],
    [{ companyId: 2, n: 3, name: 'item 10' }],
    [{ status: 'void' }],
    [{ companyId: 1, status: 'complete' }],
    [{ companyId: 9 }],
    [{ companyId: 1, n: { $gte: 40 } }],
  ])('countDocuments(%j) equals the count without indexes', async (filter) => {
    const [a, b] = await Promise.all([indexed.countDocuments(filter), plain.countDocuments(filter)]);
    expect(a).toBe(b);
    const direct = await db.command({ count: 'indexed', query: filter });
    expect(direct.n).toBe(b);
  });

  it('counts through the legacy count command with skip and limit', async () => {
    const r = await db.command({ count: 'indexed', query: { companyId: 2 }, skip: 10, limit: 100 });
    expect(r.n).toBe(100);
  });
});

describe('the ordered index itself', () => {
  it('walks one prefix in key order both ways, ties by id', () => {
    const index = new Index({ v: 2, key: { c: 1, x: 1 }, name: 'c_1_x_1' });
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: `i${String(i).padStart(5, '0')}`, doc: { c: i % 3, x: (i * 7) % 1000 } }));
    for (const r of rows.slice(0, 1500)) index.add(r.id, r.doc);
    for (const r of rows.slice(1500)) index.add(r.id, r.doc);
    for (const r of rows.filter((_, i) => i % 10 === 0)) index.remove(r.id, r.doc);
    const kept = rows.filter((_, i) => i % 10 !== 0 && i % 3 === 1);
    const expected = kept.sort((a, b) => a.doc.x - b.doc.x || (a.id < b.id ? -1 : 1)).map((r) => r.id);
    expect([...index.walk([1], 1)].map((it) => it.id)).toEqual(expected);
    expect([...index.walk([1], -1)].map((it) => it.id)).toEqual([...expected].reverse());
  });

  it('counts the entries under a prefix across chunk boundaries', () => {
    const index = new Index({ v: 2, key: { c: 1, s: 1, x: 1 }, name: 'c_1_s_1_x_1' });
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: `i${i}`, doc: { c: i % 4, s: i % 7 === 0 ? 'void' : 'complete', x: i } }));
    for (const r of rows) index.add(r.id, r.doc);
    for (const r of rows.filter((_, i) => i % 11 === 0)) index.remove(r.id, r.doc);
    const kept = rows.filter((_, i) => i % 11 !== 0);
    for (const c of [0, 1, 2, 3, 4]) {
      expect(index.countPrefix([c])).toBe(kept.filter((r) => r.doc.c === c).length);
      for (const st of ['complete', 'void', 'other']) {
        expect(index.countPrefix([c, st])).toBe(kept.filter((r) => r.doc.c === c && r.doc.s === st).length);
      }
    }
    expect(index.countPrefix([])).toBe(kept.length);
  });
});
