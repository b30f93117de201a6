/**
 * Plain field projections (src/projection.ts): built straight from the stored document for
 * find and for a pipeline's `$project`, with MongoDB's rules (_id first, arrays projected per
 * element, nested arrays per the command), compared with mingo's `$project` on random documents,
 * and checked through the driver: results across batches, stored documents left unchanged.
 */
import { Aggregator } from 'mingo/aggregator';
import fc from 'fast-check';
import type { Db } from 'mongodb';
import { mingoOptions } from '../src/matcher';
import { plainProjection } from '../src/projection';
import type { Doc } from '../src/values';
import { startHarness, type Harness } from './helpers';

type Row = { _id: number; [field: string]: unknown };

const pipelineProject = (spec: Doc) => plainProjection(spec, { recurseNestedArrays: true })!;
const findProject = (spec: Doc) => plainProjection(spec, { recurseNestedArrays: false })!;

describe('plainProjection', () => {
  it('keeps the listed fields in the document order, _id first', () => {
    const out = pipelineProject({ c: 1, a: true })({ a: 1, _id: 7, b: 2, c: 3 });
    expect(Object.keys(out)).toEqual(['_id', 'a', 'c']);
    expect(out).toEqual({ _id: 7, a: 1, c: 3 });
    expect(pipelineProject({ a: 1, _id: 0 })({ _id: 7, a: 1 })).toEqual({ a: 1 });
    expect(pipelineProject({ _id: 1 })({ _id: 7, a: 1 })).toEqual({ _id: 7 });
  });

  it('projects into sub-documents and array elements; scalars under a path go, documents without it stay empty', () => {
    const p = pipelineProject({ 'a.b': 1, _id: 0 });
    expect(p({ a: [1, { b: 2, c: 1 }, { c: 3 }, null] })).toEqual({ a: [{ b: 2 }, {}] });
    expect(p({ a: { c: 1 } })).toEqual({ a: {} });
    expect(p({ a: 5 })).toEqual({});
    expect(p({ a: null })).toEqual({});
    expect(p({ x: 1 })).toEqual({});
    expect(pipelineProject({ 'a.b.c': 1, 'a.d': 1 })({ _id: 1, a: { d: 1, b: { c: 1, e: 2 }, q: 1 } })).toEqual({ _id: 1, a: { d: 1, b: { c: 1 } } });
  });

  it('nested arrays: $project recurses into them, find leaves them out of an inclusion and untouched in an exclusion', () => {
    const doc = { _id: 1, a: [[{ b: 1, c: 2 }, 3], { b: 4, c: 5 }] };
    expect(pipelineProject({ 'a.b': 1 })(doc)).toEqual({ _id: 1, a: [[{ b: 1 }], { b: 4 }] });
    expect(findProject({ 'a.b': 1 })(doc)).toEqual({ _id: 1, a: [{ b: 4 }] });
    expect(pipelineProject({ 'a.b': 0 })(doc)).toEqual({ _id: 1, a: [[{ c: 2 }, 3], { c: 5 }] });
    expect(findProject({ 'a.b': 0 })(doc)).toEqual({ _id: 1, a: [[{ b: 1, c: 2 }, 3], { c: 5 }] });
  });

  it('excludes fields, nested paths and _id, keeping the rest in order', () => {
    const out = pipelineProject({ 'g.x': 0, b: false, _id: 0 })({ _id: 1, a: 1, b: 2, g: { y: 1, x: 2 }, s: 'k' });
    expect(out).toEqual({ a: 1, g: { y: 1 }, s: 'k' });
    expect(Object.keys(out)).toEqual(['a', 'g', 's']);
    expect(pipelineProject({ _id: 0 })({ _id: 1, a: 1 })).toEqual({ a: 1 });
    expect(pipelineProject({ _id: 1, a: 0 })({ _id: 1, a: 1, b: 2 })).toEqual({ _id: 1, b: 2 });
  });

  it('never modifies the document it reads', () => {
    const doc = { _id: 1, a: { b: [{ c: 1, d: 2 }] }, e: 3 };
    const before = JSON.stringify(doc);
    pipelineProject({ 'a.b.c': 1 })(doc);
    pipelineProject({ 'a.b.c': 0, e: 0 })(doc);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it('leaves expressions, operators, mixed and colliding paths to mingo (null)', () => {
    for (const spec of [{}, { a: '$b' }, { a: { $slice: 1 } }, { a: 1, b: 0 }, { a: 1, 'a.b': 1 }, { 'a.b': 1, a: 1 }, { 'a.$': 1 }, { 'a..b': 1 }, { '_id.x': 1 }, { a: 2 }, { 'p.__proto__': 1 }]) {
      expect(plainProjection(spec, { recurseNestedArrays: true })).toBeNull();
    }
  });

  it('agrees with mingo $project on random documents and projections', () => {
    const field = fc.constantFrom('a', 'b', 'c');
    const scalar = fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null), fc.boolean());
    // No array directly inside an array: mingo recurses into those for an inclusion only.
    const { value } = fc.letrec<{ value: unknown; doc: Doc; list: unknown[] }>((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, scalar, tie('doc'), tie('list')),
      doc: fc.dictionary(field, tie('value'), { maxKeys: 3 }) as fc.Arbitrary<Doc>,
      list: fc.array(fc.oneof(scalar, tie('doc')), { maxLength: 3 }),
    }));
    const doc = fc.record({ _id: fc.integer(), a: value, b: value, c: value }, { requiredKeys: ['_id'] });
    const path = fc.array(field, { minLength: 1, maxLength: 3 }).map((p) => p.join('.'));
    const spec = fc.tuple(fc.uniqueArray(path, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.constantFrom(undefined, 0, 1)).map(([paths, on, id]) => {
      const s: Doc = {};
      for (const p of paths) s[p] = on ? 1 : 0;
      if (id !== undefined) s._id = id;
      return s;
    });
    let compared = 0;
    fc.assert(
      fc.property(doc, spec, (d, s) => {
        const project = plainProjection(s, { recurseNestedArrays: true });
        if (!project) return; // a path collision: mingo's error
        let expected: unknown;
        try {
          expected = new Aggregator([{ $project: s }], mingoOptions()).run([structuredClone(d)])[0];
        } catch {
          return; // mingo refuses some deep exclusions MongoDB takes ({ 'b.a.a': 0 })
        }
        compared++;
        expect(project(d)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
    expect(compared).toBeGreaterThan(1000);
  });
});

describe('projections through the driver', () => {
  let h: Harness;
  let db: Db;
  beforeAll(async () => {
    h = await startHarness();
    db = h.client.db('projection');
  });
  afterAll(() => h.stop());

  it('an aggregation ending in $project serves projected documents batch by batch and leaves the stored ones whole', async () => {
    const c = db.collection<Row>('sales');
    await c.createIndex({ companyId: 1, status: 1, day: 1 });
    const docs = Array.from({ length: 250 }, (_, i) => ({ _id: i, companyId: 1, status: 'complete', day: i % 2 ? 'd1' : 'd2', lines: [{ n: i, name: `p${i}`, big: 'x'.repeat(50) }], gst: { value: i, other: true } }));
    await c.insertMany(docs);
    const out = await c.aggregate([{ $match: { companyId: 1, status: 'complete', day: 'd1' } }, { $project: { _id: 0, 'lines.name': 1, 'gst.value': 1 } }], { batchSize: 40 }).toArray();
    expect(out).toHaveLength(125);
    expect(out[0]).toEqual({ lines: [{ name: 'p1' }], gst: { value: 1 } });
    expect(out.map((d) => (d.gst as { value: number }).value)).toEqual(docs.filter((d) => d.day === 'd1').map((d) => d._id));
    // After a sort too, and with stages after the projection.
    const sorted = await c.aggregate([{ $match: { companyId: 1 } }, { $sort: { 'gst.value': -1 } }, { $project: { 'gst.value': 1 } }, { $limit: 2 }]).toArray();
    expect(sorted).toEqual([{ _id: 249, gst: { value: 249 } }, { _id: 248, gst: { value: 248 } }]);
    const grouped = await c.aggregate([{ $project: { day: 1 } }, { $group: { _id: '$day', n: { $sum: 1 } } }, { $sort: { _id: 1 } }]).toArray();
    expect(grouped).toEqual([{ _id: 'd1', n: 125 }, { _id: 'd2', n: 125 }]);
    expect(await c.findOne({ _id: 3 })).toEqual(docs[3]);
  });

  it('a later stage that modifies documents does not reach the stored ones', async () => {
    const c = db.collection<Row>('nested');
    await c.insertOne({ _id: 1, a: { b: 1, c: 2 }, d: 3 });
    const out = await c.aggregate([{ $project: { a: 1 } }, { $addFields: { 'a.b': 9 } }]).toArray();
    expect(out).toEqual([{ _id: 1, a: { b: 9, c: 2 } }]);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: { b: 1, c: 2 }, d: 3 });
  });

  it('find projects nested arrays as MongoDB does (left out of an inclusion, whole in an exclusion)', async () => {
    const c = db.collection<Row>('grid');
    await c.insertOne({ _id: 1, a: [[{ b: 1, c: 2 }], { b: 3, c: 4 }], z: 1 });
    expect(await c.findOne({ _id: 1 }, { projection: { 'a.b': 1 } })).toEqual({ _id: 1, a: [{ b: 3 }] });
    expect(await c.findOne({ _id: 1 }, { projection: { 'a.b': 0, z: 0 } })).toEqual({ _id: 1, a: [[{ b: 1, c: 2 }], { c: 4 }] });
    expect(await c.aggregate([{ $project: { 'a.b': 1 } }]).toArray()).toEqual([{ _id: 1, a: [[{ b: 1 }], { b: 3 }] }]);
  });
});
