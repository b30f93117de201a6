import { Decimal128, Long, MongoBulkWriteError, MongoServerError, ObjectId, type Db } from 'mongodb';
import { startHarness, type Harness } from './helpers';

let h: Harness;
let db: Db;
let n = 0;
const fresh = () => db.collection(`c${++n}`);

beforeAll(async () => {
  h = await startHarness();
  db = h.client.db('crud');
});
afterAll(() => h.stop());

describe('insert', () => {
  it('generates an ObjectId _id, stores it first and returns it', async () => {
    const c = fresh();
    const { insertedId } = await c.insertOne({ name: 'Rice 5kg', _hidden: 1 });
    expect(insertedId).toBeInstanceOf(ObjectId);
    const doc = await c.findOne({ _id: insertedId });
    expect(Object.keys(doc!)).toEqual(['_id', 'name', '_hidden']);
  });

  it('keeps BSON types: dates, ObjectIds, Decimal128, Long, nested arrays', async () => {
    const c = fresh();
    const ref = new ObjectId();
    const when = new Date('2024-04-01T10:00:00Z');
    await c.insertOne({ _id: 'k' as never, when, ref, price: Decimal128.fromString('10.50'), big: Long.fromString('9007199254740993'), grid: [[1, 2], [3]] });
    const doc = await c.findOne({ _id: 'k' as never });
    expect(doc!.when).toEqual(when);
    expect(doc!.ref.equals(ref)).toBe(true);
    expect(doc!.price.toString()).toBe('10.50');
    expect(String(doc!.big)).toBe('9007199254740993');
    expect(doc!.grid).toEqual([[1, 2], [3]]);
  });

  it('rejects a duplicate _id as write error 11000 and, ordered, stops there', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1 as never });
    const err = await c.insertMany([{ _id: 2 }, { _id: 1 }, { _id: 3 }] as never[]).catch((e) => e);
    expect(err).toBeInstanceOf(MongoBulkWriteError);
    expect(err.code).toBe(11000);
    expect(err.writeErrors[0].index).toBe(1);
    expect(await c.countDocuments()).toBe(2);
  });

  it('unordered inserts go on after a failure', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1 as never });
    const err = await c.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }] as never[], { ordered: false }).catch((e) => e);
    expect(err.writeErrors).toHaveLength(1);
    expect(await c.countDocuments()).toBe(3);
  });

  it('rejects an array _id', async () => {
    const err = await fresh().insertOne({ _id: [1, 2] as never }).catch((e) => e);
    expect(err.code).toBe(53);
  });
});

describe('find', () => {
  let c: ReturnType<typeof fresh>;
  beforeAll(async () => {
    c = fresh();
    await c.insertMany([
      { _id: 1, name: 'Rice', qty: 10, cat: 'grain', tags: ['staple', 'bulk'], supplier: { city: 'Pune' } },
      { _id: 2, name: 'Dal', qty: 5, cat: 'pulse', tags: ['staple'], supplier: { city: 'Nagpur' } },
      { _id: 3, name: 'Salt', qty: 0, cat: 'spice', tags: [] },
      { _id: 4, name: 'Sugar', qty: 7.5, cat: 'grain', tags: ['sweet'], supplier: { city: 'Pune' } },
      { _id: 5, name: 'oil', qty: null, cat: 'oil' },
    ] as never[]);
  });

  const names = (docs: Array<Record<string, unknown>>) => docs.map((d) => d.name);

  it('filters with comparison, logical, element, array and regex operators', async () => {
    expect(names(await c.find({ qty: { $gt: 5 } }).toArray())).toEqual(['Rice', 'Sugar']);
    expect(names(await c.find({ qty: { $gte: 5, $lt: 10 } }).toArray())).toEqual(['Dal', 'Sugar']);
    expect(names(await c.find({ cat: { $in: ['pulse', 'spice'] } }).toArray())).toEqual(['Dal', 'Salt']);
    expect(names(await c.find({ $or: [{ qty: 0 }, { cat: 'oil' }] }).toArray())).toEqual(['Salt', 'oil']);
    expect(names(await c.find({ tags: 'staple' }).toArray())).toEqual(['Rice', 'Dal']);
    expect(names(await c.find({ tags: { $size: 0 } }).toArray())).toEqual(['Salt']);
    expect(names(await c.find({ tags: { $all: ['staple', 'bulk'] } }).toArray())).toEqual(['Rice']);
    expect(names(await c.find({ 'supplier.city': 'Pune' }).toArray())).toEqual(['Rice', 'Sugar']);
    expect(names(await c.find({ supplier: { $exists: false } }).toArray())).toEqual(['Salt', 'oil']);
    expect(names(await c.find({ qty: null }).toArray())).toEqual(['oil']);
    expect(names(await c.find({ name: /^s/i }).toArray())).toEqual(['Salt', 'Sugar']);
    expect(names(await c.find({ name: { $regex: 'AL', $options: 'i' } }).toArray())).toEqual(['Dal', 'Salt']);
    expect(names(await c.find({ qty: { $type: 'double' } }).toArray())).toEqual(['Sugar']);
    expect(names(await c.find({ qty: { $type: 'number' } }).toArray())).toEqual(['Rice', 'Dal', 'Salt', 'Sugar']);
    expect(names(await c.find({ $expr: { $gt: ['$qty', 6] } }).toArray())).toEqual(['Rice', 'Sugar']);
    expect(names(await c.find({ qty: { $not: { $gt: 5 } } }).toArray())).toEqual(['Dal', 'Salt', 'oil']);
  });

  it('sorts (MongoDB type order, nulls first), skips and limits', async () => {
    expect(names(await c.find().sort({ qty: 1 }).toArray())).toEqual(['oil', 'Salt', 'Dal', 'Sugar', 'Rice']);
    expect(names(await c.find().sort({ cat: 1, qty: -1 }).toArray())).toEqual(['Rice', 'Sugar', 'oil', 'Dal', 'Salt']);
    expect(names(await c.find().sort({ _id: -1 }).skip(1).limit(2).toArray())).toEqual(['Sugar', 'Salt']);
  });

  it('projects with inclusion, exclusion, nested paths, $slice, $elemMatch and positional $', async () => {
    expect(await c.findOne({ _id: 1 as never }, { projection: { name: 1 } })).toEqual({ _id: 1, name: 'Rice' });
    expect(await c.findOne({ _id: 1 as never }, { projection: { name: 1, _id: 0 } })).toEqual({ name: 'Rice' });
    expect(await c.findOne({ _id: 1 as never }, { projection: { tags: 0, supplier: 0, cat: 0 } })).toEqual({ _id: 1, name: 'Rice', qty: 10 });
    expect(await c.findOne({ _id: 1 as never }, { projection: { 'supplier.city': 1 } })).toEqual({ _id: 1, supplier: { city: 'Pune' } });
    expect(await c.findOne({ _id: 1 as never }, { projection: { tags: { $slice: 1 }, name: 1 } })).toEqual({ _id: 1, name: 'Rice', tags: ['staple'] });
    expect(await c.findOne({ tags: 'bulk' }, { projection: { 'tags.$': 1 } })).toEqual({ _id: 1, tags: ['bulk'] });
    // projecting never changes the stored document
    expect(await c.findOne({ _id: 1 as never })).toMatchObject({ supplier: { city: 'Pune' }, tags: ['staple', 'bulk'] });
    const err = await c.findOne({}, { projection: { name: 1, qty: 0 } }).catch((e) => e);
    expect(err).toBeInstanceOf(MongoServerError);
  });

  it('serves 1,000 documents in batches of 10 through getMore, and kills a cursor closed early', async () => {
    const big = fresh();
    await big.insertMany(Array.from({ length: 1000 }, (_, i) => ({ i })));
    const cursor = big.find({}, { batchSize: 10 }).sort({ i: -1 });
    let count = 0;
    let last = Infinity;
    for await (const d of cursor) {
      expect(d.i).toBeLessThan(last);
      last = d.i;
      count++;
    }
    expect(count).toBe(1000);
    const openCursors = async () => (await db.admin().serverStatus()).metrics.cursor.open.total;
    const early = big.find({}, { batchSize: 10 });
    await early.next();
    expect(await openCursors()).toBe(1);
    await early.close();
    expect(await openCursors()).toBe(0);
  });

  it('compares ObjectIds and Dates by value, to the millisecond', async () => {
    const e = fresh();
    const id = new ObjectId();
    const at = new Date('2024-03-31T18:30:00.123Z');
    await e.insertMany([
      { ref: id, at },
      { ref: new ObjectId(), at: new Date(at.getTime() + 1) },
    ]);
    expect(await e.countDocuments({ ref: new ObjectId(id.toHexString()) })).toBe(1);
    expect(await e.countDocuments({ ref: { $in: [new ObjectId(id.toHexString())] } })).toBe(1);
    expect(await e.countDocuments({ at: new Date('2024-03-31T18:30:00.123Z') })).toBe(1);
    expect(await e.countDocuments({ at: { $gt: at } })).toBe(1);
    expect(await e.countDocuments({ at: { $gte: at, $lte: new Date(at.getTime() + 1) } })).toBe(2);
    await e.createIndex({ ref: 1 });
    await e.createIndex({ at: 1 });
    expect(await e.countDocuments({ ref: new ObjectId(id.toHexString()) })).toBe(1);
    expect(await e.countDocuments({ at: new Date(at.getTime()) })).toBe(1);
    expect(await e.countDocuments({ at: { $gt: at } })).toBe(1);
  });

  it('answers an empty result for a missing collection', async () => {
    expect(await db.collection('nope').find({ a: 1 }).toArray()).toEqual([]);
    expect(await db.collection('nope').countDocuments()).toBe(0);
  });

  it('counts and distinct', async () => {
    expect(await c.countDocuments({ cat: 'grain' })).toBe(2);
    expect(await c.estimatedDocumentCount()).toBe(5);
    expect(await c.distinct('cat')).toEqual(['grain', 'oil', 'pulse', 'spice']);
    expect(await c.distinct('tags', { cat: 'grain' })).toEqual(['bulk', 'staple', 'sweet']);
  });
});

describe('update', () => {
  it('applies field, arithmetic and array operators', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1, n: 1, arr: [1, 2, 3], items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 2 }], old: 'x' } as never);
    await c.updateOne({ _id: 1 as never }, {
      $inc: { n: 2, 'counts.views': 1 },
      $set: { 'meta.by': 'me' },
      $unset: { old: '' },
      $push: { arr: { $each: [4, 5], $slice: -4 } },
      $min: { low: 3 },
      $max: { high: 9 },
      $currentDate: { touched: true },
    } as never);
    const doc = await c.findOne({ _id: 1 as never });
    expect(doc).toMatchObject({ n: 3, counts: { views: 1 }, meta: { by: 'me' }, arr: [2, 3, 4, 5], low: 3, high: 9 });
    expect(doc!.old).toBeUndefined();
    expect(doc!.touched).toBeInstanceOf(Date);

    await c.updateOne({ _id: 1, 'items.sku': 'b' } as never, { $inc: { 'items.$.qty': 5 } } as never);
    await c.updateOne({ _id: 1 } as never, { $set: { 'items.$[it].flag': true } } as never, { arrayFilters: [{ 'it.qty': { $gt: 5 } }] });
    await c.updateOne({ _id: 1 } as never, { $pull: { arr: { $gte: 4 } }, $addToSet: { tags: { $each: ['x', 'x', 'y'] } } } as never);
    expect(await c.findOne({ _id: 1 as never })).toMatchObject({
      items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 7, flag: true }],
      arr: [2, 3],
      tags: ['x', 'y'],
    });
  });

  it('appends a single $push value (a cart line) to an existing, missing or nested array, with $set and $inc beside it', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1, lines: [{ sl: 1, q: '1' }], v: 1, meta: {} } as never);
    const line = { sl: 2, q: '2', tags: ['a'], at: new Date(0) };
    const after = await c.findOneAndUpdate({ _id: 1, 'lines.sl': { $ne: 2 } } as never, { $push: { lines: line, fresh: 'x', 'meta.list': [1, 2] }, $inc: { v: 1 }, $set: { note: 'n' } } as never, { returnDocument: 'after' });
    expect(after).toEqual({ _id: 1, lines: [{ sl: 1, q: '1' }, line], v: 2, meta: { list: [[1, 2]] }, note: 'n', fresh: ['x'] });
    // The pushed value is a copy: changing the caller's object changes nothing stored.
    line.tags.push('b');
    expect(((await c.findOne({ _id: 1 as never }))!.lines as { tags?: string[] }[])[1]!.tags).toEqual(['a']);
    // The guard now fails: nothing pushed twice.
    expect(await c.findOneAndUpdate({ _id: 1, 'lines.sl': { $ne: 2 } } as never, { $push: { lines: { sl: 2 } } } as never)).toBeNull();
    // Modifiers, a non-array target and an array on the path still behave as MongoDB's.
    await c.updateOne({ _id: 1 as never }, { $push: { fresh: { $each: ['y', 'z'], $position: 0 } } } as never);
    expect((await c.findOne({ _id: 1 as never }))!.fresh).toEqual(['y', 'z', 'x']);
    expect(await c.updateOne({ _id: 1 as never }, { $push: { v: 1 } } as never).then(() => 0, (e) => e.code)).toBe(2);
    await c.updateOne({ _id: 1 as never }, { $push: { 'lines.0.tags': 't' } } as never);
    expect(((await c.findOne({ _id: 1 as never }))!.lines as { tags?: string[] }[])[0]!.tags).toEqual(['t']);
  });

  it('$ne matches what MongoDB matches: arrays, sub-document arrays, null and missing fields (checked against mingo\'s path)', async () => {
    const c = fresh();
    await c.insertMany([
      { _id: 1, v: 2, lines: [{ p: 1 }, { p: 2 }] },
      { _id: 2, v: 3, lines: [{ p: 1 }] },
      { _id: 3, v: [1, 2], lines: [] },
      { _id: 4, v: null },
      { _id: 5 },
      { _id: 6, v: '2', lines: [{ p: null }] },
      { _id: 7, v: new Date(0), lines: [{ q: 1 }] },
    ] as never[]);
    const ids = async (f: object) => (await c.find(f).toArray()).map((d) => d._id);
    for (const f of [{ v: { $ne: 2 } }, { 'lines.p': { $ne: 2 } }, { v: { $ne: null } }, { 'lines.p': { $ne: null } }, { v: { $ne: new Date(0) } }, { v: { $ne: '2' } }, { v: 2, 'lines.p': { $ne: 1 } }]) {
      // `$and` around the same filter takes mingo's path: both must agree.
      expect(await ids(f)).toEqual(await ids({ $and: [f] }));
    }
    expect(await ids({ 'lines.p': { $ne: 2 } })).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('reports matched and modified counts; an update that changes nothing modifies nothing', async () => {
    const c = fresh();
    await c.insertMany([{ k: 1, v: 1 }, { k: 1, v: 2 }, { k: 2, v: 1 }]);
    const r = await c.updateMany({ k: 1 }, { $set: { v: 1 } });
    expect(r.matchedCount).toBe(2);
    expect(r.modifiedCount).toBe(1);
  });

  it('upserts from the filter equality fields with $setOnInsert', async () => {
    const c = fresh();
    const r = await c.updateOne({ companyId: 7, name: 'sale' }, { $inc: { seq: 1 }, $setOnInsert: { createdBy: 'x' } }, { upsert: true });
    expect(r.upsertedCount).toBe(1);
    await c.updateOne({ companyId: 7, name: 'sale' }, { $inc: { seq: 1 }, $setOnInsert: { createdBy: 'y' } }, { upsert: true });
    const docs = await c.find({}, { projection: { _id: 0 } }).toArray();
    expect(docs).toEqual([{ companyId: 7, name: 'sale', seq: 2, createdBy: 'x' }]);
  });

  it('replaces a document keeping its _id', async () => {
    const c = fresh();
    const { insertedId } = await c.insertOne({ a: 1, b: 2 });
    await c.replaceOne({ _id: insertedId }, { c: 3 });
    expect(await c.findOne({ _id: insertedId })).toEqual({ _id: insertedId, c: 3 });
  });

  it('supports pipeline updates', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1, price: 10, qty: 3 } as never);
    await c.updateOne({ _id: 1 as never }, [{ $set: { total: { $multiply: ['$price', '$qty'] } } }, { $unset: 'qty' }]);
    expect(await c.findOne({ _id: 1 as never })).toEqual({ _id: 1, price: 10, total: 30 });
  });

  it('keeps Decimal128 and Long arithmetic exact', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1, amount: Decimal128.fromString('0.10'), big: Long.fromString('9007199254740993') } as never);
    await c.updateOne({ _id: 1 as never }, { $inc: { amount: Decimal128.fromString('0.20'), big: Long.fromNumber(1) } });
    const doc = await c.findOne({ _id: 1 as never });
    expect(doc!.amount.toString()).toBe('0.30');
    expect(String(doc!.big)).toBe('9007199254740994');
  });

  it('refuses what MongoDB refuses', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1, s: 'text', n: 5, arr: 'no' } as never);
    const codeOf = (p: Promise<unknown>) => p.then(() => 0, (e) => e.code);
    expect(await codeOf(c.updateOne({ _id: 1 as never }, { $inc: { s: 1 } } as never))).toBe(14);
    expect(await codeOf(c.updateOne({ _id: 1 as never }, { $inc: { n: 'x' } } as never))).toBe(14);
    expect(await codeOf(c.updateOne({ _id: 1 as never }, { $set: { _id: 2 } } as never))).toBe(66);
    expect(await codeOf(c.updateOne({ _id: 1 as never }, { $set: { a: 1, 'a.b': 2 } } as never))).toBe(40);
    expect(await codeOf(c.updateOne({ _id: 1 as never }, { $push: { arr: 1 } } as never))).toBe(2);
    expect(await codeOf(c.updateOne({ _id: 1 as never }, { $set: { 'n.x': 1 } } as never))).toBe(28);
    expect(await codeOf(c.updateOne({ _id: 1 as never }, { $foo: { n: 1 } } as never))).toBe(9);
    expect(await c.findOne({ _id: 1 as never })).toEqual({ _id: 1, s: 'text', n: 5, arr: 'no' });
  });
});

describe('delete and findAndModify', () => {
  it('deletes one or many', async () => {
    const c = fresh();
    await c.insertMany([{ k: 1 }, { k: 1 }, { k: 2 }]);
    expect((await c.deleteOne({ k: 1 })).deletedCount).toBe(1);
    expect((await c.deleteMany({})).deletedCount).toBe(2);
  });

  it('findOneAndUpdate returns the before or after image; findOneAndDelete removes', async () => {
    const c = fresh();
    await c.insertMany([{ k: 1, v: 1 }, { k: 1, v: 2 }]);
    const before = await c.findOneAndUpdate({ k: 1 }, { $inc: { v: 10 } }, { sort: { v: -1 } });
    expect(before).toMatchObject({ v: 2 });
    const after = await c.findOneAndUpdate({ k: 1 }, { $inc: { v: 10 } }, { sort: { v: 1 }, returnDocument: 'after', projection: { _id: 0 } });
    expect(after).toEqual({ k: 1, v: 11 });
    const upserted = await c.findOneAndUpdate({ k: 9 }, { $set: { v: 0 } }, { upsert: true, returnDocument: 'after', includeResultMetadata: true });
    expect(upserted.lastErrorObject).toMatchObject({ n: 1, updatedExisting: false });
    expect(await c.findOneAndDelete({ k: 9 })).toMatchObject({ v: 0 });
    expect(await c.findOneAndReplace({ v: 12 }, { k: 2 }, { returnDocument: 'after' })).toMatchObject({ k: 2 });
  });

  it('bulkWrite mixes operations', async () => {
    const c = fresh();
    const r = await c.bulkWrite([
      { insertOne: { document: { _id: 1, v: 1 } as never } },
      { insertOne: { document: { _id: 2, v: 1 } as never } },
      { updateOne: { filter: { _id: 1 }, update: { $set: { v: 2 } } } },
      { updateMany: { filter: {}, update: { $inc: { v: 1 } } } },
      { replaceOne: { filter: { _id: 3 }, replacement: { v: 9 }, upsert: true } },
      { deleteOne: { filter: { _id: 2 } } },
    ] as never);
    expect(r.insertedCount).toBe(2);
    expect(r.matchedCount).toBe(3);
    expect(r.upsertedCount).toBe(1);
    expect(r.deletedCount).toBe(1);
    expect(await c.find().toArray()).toEqual([{ _id: 1, v: 3 }, { _id: 3, v: 9 }]);
  });
});

describe('indexes', () => {
  it('follows updates: an indexed field that changes moves, one that does not stays found', async () => {
    const c = db.collection<{ _id: number; status?: string; n?: number; code?: string; tags?: string[]; stock?: number; open?: boolean; note?: string }>(`c${++n}`);
    await c.createIndex({ status: 1, n: 1 });
    await c.createIndex({ code: 1 }, { unique: true });
    await c.createIndex({ tags: 1 });
    await c.createIndex({ note: 1 }, { partialFilterExpression: { open: true } });
    await c.insertMany([
      { _id: 1, status: 'pending', n: 1, code: 'a', tags: ['x'], stock: 5, open: true, note: 'n1' },
      { _id: 2, status: 'pending', n: 2, code: 'b', tags: ['y'], stock: 5, open: true, note: 'n2' },
    ]);
    // Untouched indexed fields: still found by them, through each index.
    await c.updateOne({ _id: 1 }, { $inc: { stock: -2 } });
    expect(await c.find({ status: 'pending' }).hint({ status: 1, n: 1 }).toArray()).toHaveLength(2);
    expect((await c.findOne({ code: 'a' }, { hint: { code: 1 } }))?.stock).toBe(3);
    // Changed ones move: old values find nothing, new ones find the document.
    await c.updateOne({ _id: 1 }, { $set: { status: 'complete', code: 'c', open: false }, $push: { tags: 'z' } });
    expect((await c.find({ status: 'pending' }).hint({ status: 1, n: 1 }).toArray()).map((d) => d._id)).toEqual([2]);
    expect((await c.find({ status: 'complete' }).hint({ status: 1, n: 1 }).toArray()).map((d) => d._id)).toEqual([1]);
    expect(await c.findOne({ code: 'a' }, { hint: { code: 1 } })).toBeNull();
    expect((await c.find({ tags: 'z' }).hint({ tags: 1 }).toArray()).map((d) => d._id)).toEqual([1]);
    expect((await c.find({ note: 'n1', open: true }).toArray()).map((d) => d._id)).toEqual([]);
    // The unique index knows the new value and no longer the old one.
    expect((await c.insertOne({ _id: 3, code: 'c' }).catch((e) => e)).code).toBe(11000);
    await c.insertOne({ _id: 4, code: 'a' });
  });

  it('creates, lists and drops indexes; the same spec twice is a no-op', async () => {
    const c = fresh();
    expect(await c.createIndex({ companyId: 1, id: 1 }, { unique: true })).toBe('companyId_1_id_1');
    expect(await c.createIndex({ companyId: 1, id: 1 }, { unique: true })).toBe('companyId_1_id_1');
    await c.createIndex({ name: 'text' });
    const names = (await c.indexes()).map((i) => i.name);
    expect(names).toEqual(['_id_', 'companyId_1_id_1', 'name_text']);
    const conflict = await c.createIndex({ companyId: 1, id: 1 }, { name: 'companyId_1_id_1', unique: false }).catch((e) => e);
    expect(conflict.code).toBe(85);
    await c.dropIndex('name_text');
    expect((await c.indexes()).map((i) => i.name)).toEqual(['_id_', 'companyId_1_id_1']);
    expect((await c.dropIndex('nope').catch((e) => e)).code).toBe(27);
    expect((await c.dropIndex('_id_').catch((e) => e)).code).toBe(72);
  });

  it('enforces compound unique keys per company with keyPattern and keyValue', async () => {
    const c = fresh();
    await c.createIndex({ companyId: 1, id: 1 }, { unique: true });
    await c.insertMany([{ companyId: 1, id: 1 }, { companyId: 2, id: 1 }]);
    const err = await c.insertOne({ companyId: 1, id: 1 }).catch((e) => e);
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ companyId: 1, id: 1 });
    expect(err.keyValue).toEqual({ companyId: 1, id: 1 });
    expect(err.message).toContain('index: companyId_1_id_1 dup key: { companyId: 1, id: 1 }');
    // updates cannot create a duplicate either
    const upd = await c.updateOne({ companyId: 2 }, { $set: { companyId: 1 } }).catch((e) => e);
    expect(upd.code).toBe(11000);
    expect(await c.countDocuments({ companyId: 2 })).toBe(1);
  });

  it('sparse and partial unique indexes skip documents without the key', async () => {
    const c = fresh();
    await c.createIndex({ email: 1 }, { unique: true, sparse: true });
    await c.createIndex({ phone: 1 }, { unique: true, partialFilterExpression: { phone: { $type: 'string' } } });
    await c.insertMany([{ a: 1 }, { a: 2 }, { email: 'x@y', phone: null }, { phone: null }]);
    expect((await c.insertOne({ email: 'x@y' }).catch((e) => e)).code).toBe(11000);
    await c.insertOne({ phone: '99' });
    expect((await c.insertOne({ phone: '99' }).catch((e) => e)).code).toBe(11000);
  });

  it('refuses a unique index over duplicates', async () => {
    const c = fresh();
    await c.insertMany([{ k: 1 }, { k: 1 }]);
    const err = await c.createIndex({ k: 1 }, { unique: true }).catch((e) => e);
    expect(err.code).toBe(11000);
    expect((await c.indexes()).map((i) => i.name)).toEqual(['_id_']);
  });

  it('uses an index for equality lookups (explain) and finds the same documents as a scan', async () => {
    const c = fresh();
    await c.insertMany(Array.from({ length: 500 }, (_, i) => ({ companyId: i % 5, id: i, tags: [`t${i % 7}`] })));
    await c.createIndex({ companyId: 1, id: 1 });
    await c.createIndex({ tags: 1 });
    const plan = await c.find({ companyId: 3, id: 13 }).explain();
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('companyId_1_id_1');
    expect(await c.find({ companyId: 3, id: { $in: [13, 14, 18, 23] } }).toArray()).toHaveLength(3);
    const byIndex = await c.find({ companyId: 3, id: { $gte: 400 } }).toArray();
    const byScan = (await c.find({}).toArray()).filter((d) => d.companyId === 3 && d.id >= 400);
    expect(byIndex).toEqual(byScan);
    expect(byIndex.length).toBeGreaterThan(0);
    const all = await c.find({}).toArray();
    expect(await c.countDocuments({ tags: 't3' })).toBe(all.filter((d) => d.tags[0] === 't3').length);
    expect(await c.countDocuments({ tags: { $in: ['t3', 't4'] }, companyId: 1 })).toBe(all.filter((d) => ['t3', 't4'].includes(d.tags[0]) && d.companyId === 1).length);
  });

  it('answers range predicates from the index exactly as a scan does', async () => {
    const c = fresh();
    const values: unknown[] = [5, 7.5, -1, 10, 'a', 'b', null, new Date(1000), new Date(5000), [1, 20], [], { x: 1 }, true, 3, 5];
    await c.insertMany(values.map((v, i) => ({ i, v })));
    const queries: Array<Record<string, unknown>> = [
      { v: { $gt: 5 } },
      { v: { $gte: 5 } },
      { v: { $gt: 2, $lt: 8 } },
      { v: { $gte: -1, $lte: 3 } },
      { v: { $lt: 'b' } },
      { v: { $gt: new Date(2000) } },
      { v: { $gt: 5, $lt: 10 } },
      { v: { $gt: 2, $lt: 'z' } },
      { $and: [{ v: { $gt: 1 } }, { v: { $lt: 100 } }] },
      { _id: { $gte: 0 } },
    ];
    const scan: number[][] = [];
    for (const q of queries) scan.push((await c.find(q).toArray()).map((d) => d.i));
    await c.createIndex({ v: 1 });
    for (let k = 0; k < queries.length; k++) {
      expect([k, (await c.find(queries[k]).toArray()).map((d) => d.i)]).toEqual([k, scan[k]]);
    }
    expect(scan[0]).toEqual([1, 3, 9]);
    expect(scan[6]).toEqual([1, 9]);
    const plan = await c.find({ v: { $gt: 5 } }).explain();
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain('v_1');
  });

  it('supports $text over a text index', async () => {
    const c = fresh();
    await c.createIndex({ name: 'text', brand: 'text' });
    await c.insertMany([{ name: 'Basmati Rice', brand: 'India Gate' }, { name: 'Toor Dal', brand: 'Tata' }, { name: 'Rice Bran Oil', brand: 'Fortune' }]);
    expect((await c.find({ $text: { $search: 'rice' } }).toArray()).map((d) => d.name)).toEqual(['Basmati Rice', 'Rice Bran Oil']);
    expect((await c.find({ $text: { $search: 'rice -oil' } }).toArray()).map((d) => d.name)).toEqual(['Basmati Rice']);
    expect((await c.find({ $text: { $search: '"india gate"' } }).toArray()).map((d) => d.name)).toEqual(['Basmati Rice']);
  });
});

describe('aggregate', () => {
  let sales: ReturnType<typeof fresh>;
  let customers: ReturnType<typeof fresh>;
  beforeAll(async () => {
    sales = fresh();
    customers = fresh();
    await customers.insertMany([{ _id: 1, name: 'Asha' }, { _id: 2, name: 'Ravi' }] as never[]);
    await sales.insertMany([
      { customerId: 1, total: 100, day: new Date('2024-01-01') },
      { customerId: 1, total: 50, day: new Date('2024-01-02') },
      { customerId: 2, total: 70, day: new Date('2024-01-02') },
    ]);
  });

  it('matches, groups, sorts and looks up other collections', async () => {
    const out = await sales
      .aggregate([
        { $match: { total: { $gte: 50 } } },
        { $group: { _id: '$customerId', sum: { $sum: '$total' }, n: { $sum: 1 } } },
        { $sort: { sum: -1 } },
        { $lookup: { from: customers.collectionName, localField: '_id', foreignField: '_id', as: 'customer' } },
        { $unwind: '$customer' },
        { $project: { _id: 0, name: '$customer.name', sum: 1, n: 1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { sum: 150, n: 2, name: 'Asha' },
      { sum: 70, n: 1, name: 'Ravi' },
    ]);
  });

  it('refuses a $facet whose sub-pipeline is not an array of stages with MongoDB\'s errors (a null stage was an InternalError)', async () => {
    const refused = async (facet: unknown) => {
      const err = await sales.aggregate([{ $facet: facet } as never]).toArray().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MongoServerError);
      expect((err as MongoServerError).codeName).not.toBe('InternalError');
      return (err as MongoServerError).message;
    };
    expect(await refused({ u: [null, { $count: 'n' }] })).toMatch(/exactly one field/);
    expect(await refused({ u: [{ $count: 'n', $limit: 1 }] })).toMatch(/exactly one field/);
    expect(await refused({ u: [{ $nope: 1 }] })).toMatch(/Unrecognized pipeline stage name: '\$nope'/);
    expect(await refused({ u: { $count: 'n' } })).toMatch(/arguments to \$facet must be arrays, u is type object/);
    expect(await refused([])).toMatch(/must be an object/);
  });

  it('counts with $count and facets, and leaves stored documents unchanged', async () => {
    const [res] = await sales
      .aggregate([{ $facet: { total: [{ $count: 'n' }], big: [{ $match: { total: { $gt: 60 } } }, { $count: 'n' }] } }, { $set: { 'x.y': 1 } }])
      .toArray();
    expect(res.total).toEqual([{ n: 3 }]);
    expect(res.big).toEqual([{ n: 2 }]);
    await sales.aggregate([{ $set: { total: 0 } }]).toArray();
    expect(await sales.countDocuments({ total: 0 })).toBe(0);
  });

  it('writes results with $out and $merge', async () => {
    const target = `out${n}`;
    await sales.aggregate([{ $group: { _id: '$customerId', sum: { $sum: '$total' } } }, { $out: target }]).toArray();
    expect(await db.collection(target).find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, sum: 150 }, { _id: 2, sum: 70 }]);
    await customers.aggregate([{ $project: { name: 1 } }, { $merge: { into: target, on: '_id', whenMatched: 'merge' } }]).toArray();
    expect(await db.collection(target).find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, sum: 150, name: 'Asha' },
      { _id: 2, sum: 70, name: 'Ravi' },
    ]);
  });

  it('answers errors for unknown stages', async () => {
    const err = await sales.aggregate([{ $nope: {} }]).toArray().catch((e) => e);
    expect(err).toBeInstanceOf(MongoServerError);
  });
});

describe('collections and databases', () => {
  it('creates, lists, renames and drops collections', async () => {
    const d = h.client.db('catalog');
    await d.createCollection('a');
    expect((await d.createCollection('a').catch((e) => e)).code).toBe(48);
    await d.collection('b').insertOne({ x: 1 });
    expect((await d.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name)).toEqual(['a', 'b']);
    await d.collection('b').rename('c');
    expect(await d.collection('c').findOne({}, { projection: { _id: 0 } })).toEqual({ x: 1 });
    expect(await d.collection('a').drop()).toBe(true);
    expect(await d.collection('a').drop()).toBe(false);
    const dbs = (await h.client.db('admin').admin().listDatabases()).databases.map((x) => x.name);
    expect(dbs).toContain('catalog');
    await d.dropDatabase();
    expect((await h.client.db('admin').admin().listDatabases()).databases.map((x) => x.name)).not.toContain('catalog');
  });

  it('answers ping, buildInfo, serverStatus and CommandNotFound', async () => {
    const admin = h.client.db('admin');
    expect(await admin.command({ ping: 1 })).toMatchObject({ ok: 1 });
    expect((await admin.command({ buildInfo: 1 })).version).toMatch(/^7\./);
    expect((await admin.command({ serverStatus: 1 })).connections.current).toBeGreaterThan(0);
    const err = await admin.command({ frobnicate: 1 }).catch((e) => e);
    expect(err.code).toBe(59);
    expect(err.codeName).toBe('CommandNotFound');
  });

  it('counts the commands it runs in serverStatus, as MongoDB does', async () => {
    const admin = h.client.db('admin');
    const before = await admin.command({ serverStatus: 1 });
    const c = h.client.db('opcounts').collection('x');
    await c.insertOne({ a: 1 });
    await c.findOne({ a: 1 });
    await c.updateOne({ a: 1 }, { $set: { b: 2 } });
    await c.findOneAndUpdate({ a: 1 }, { $set: { b: 3 } });
    await c.deleteOne({ a: 1 });
    const after = await admin.command({ serverStatus: 1 });
    const grew = (k: string) => after.opcounters[k] - before.opcounters[k];
    expect([grew('insert'), grew('query'), grew('update'), grew('delete')]).toEqual([1, 1, 1, 1]);
    const session = h.client.startSession();
    await session.withTransaction(async () => {
      await c.insertOne({ a: 2 }, { session });
    });
    await session.endSession();
    const committed = await admin.command({ serverStatus: 1 });
    expect(committed.metrics.commands.commitTransaction.total - (after.metrics.commands.commitTransaction?.total ?? 0)).toBe(1);
    const fam = Object.keys(after.metrics.commands).find((k) => k.toLowerCase() === 'findandmodify')!;
    expect(after.metrics.commands[fam].total - (before.metrics.commands[fam]?.total ?? 0)).toBe(1);
  });
});

describe('validation, collation and what is not supported', () => {
  it('enforces a query-operator validator unless bypassed', async () => {
    await db.createCollection('validated', { validator: { qty: { $gte: 0 }, name: { $type: 'string' } } });
    const c = db.collection('validated');
    await c.insertOne({ name: 'ok', qty: 1 });
    const err = await c.insertOne({ name: 'bad', qty: -1 }).catch((e) => e);
    expect(err.code).toBe(121);
    expect((await c.updateOne({ name: 'ok' }, { $set: { qty: -5 } }).catch((e) => e)).code).toBe(121);
    await c.insertOne({ name: 'forced', qty: -1 }, { bypassDocumentValidation: true });
    expect(await c.countDocuments()).toBe(2);
  });

  it('folds case in a unique index with a strength-2 collation', async () => {
    const c = fresh();
    await c.createIndex({ email: 1 }, { unique: true, collation: { locale: 'en', strength: 2 } });
    await c.insertOne({ email: 'Asha@Example.com' });
    expect((await c.insertOne({ email: 'asha@example.COM' }).catch((e) => e)).code).toBe(11000);
  });

  it('answers NotImplemented or a named error instead of a wrong result', async () => {
    const c = fresh();
    await c.insertOne({ name: 'Rice' });
    const collated = await c.find({ name: 'rice' }, { collation: { locale: 'en', strength: 2 } }).toArray().catch((e) => e);
    expect(collated.code).toBe(238);
    expect((await db.createCollection('capped', { capped: true, size: 1024 }).catch((e) => e)).code).toBe(238);
    expect((await db.createCollection('view', { viewOn: 'x', pipeline: [] }).catch((e) => e)).code).toBe(238);
    const stage = await c.aggregate([{ $frobnicate: {} }]).toArray().catch((e) => e);
    expect(stage.code).toBe(40324);
    expect(stage.message).toContain('$frobnicate');
    const op = await c.find({ name: { $frobnicate: 1 } }).toArray().catch((e) => e);
    expect(op.code).toBe(2);
    expect(op.message).toContain('$frobnicate');
    // sorting under a collation is supported
    await c.insertMany([{ name: 'apple' }, { name: 'Banana' }]);
    const sorted = await c.find({}, { collation: { locale: 'en', strength: 2 } }).sort({ name: 1 }).toArray();
    expect(sorted.map((d) => d.name)).toEqual(['apple', 'Banana', 'Rice']);
  });
});

describe('aggregation never changes stored documents', () => {
  it('keeps documents intact through stages that rewrite their input', async () => {
    const c = fresh();
    await c.insertMany([{ _id: 1, a: { b: 1 }, list: [] }, { _id: 2, a: { b: 2 }, list: [1, 2] }] as never[]);
    const before = await c.find().toArray();
    await c.aggregate([{ $unwind: { path: '$list', preserveNullAndEmptyArrays: true, includeArrayIndex: 'i' } }]).toArray();
    await c.aggregate([{ $set: { 'a.c': 5 } }, { $unset: 'a.b' }]).toArray();
    await c.aggregate([{ $match: { _id: 2 } }, { $project: { 'a.b': 0 } }]).toArray();
    await c.aggregate([{ $replaceRoot: { newRoot: '$a' } }, { $set: { z: 1 } }]).toArray();
    expect(await c.find().toArray()).toEqual(before);
    expect(await c.countDocuments({ 'a.b': { $gte: 1 } })).toBe(2);
  });
});
