/**
 * What an update changed: nModified (0 for an update that leaves the stored BSON as it was, 1 for
 * one that changes a value or its BSON type, as MongoDB decides), the stored version left
 * untouched by the copy on write, and index entries kept by updates that touch no indexed field
 * and moved by those that do.
 */
import { EJSON } from 'bson';
import { Decimal128, Long, type Collection, type Document } from 'mongodb';
import { Index } from '../src/indexes';
import { startHarness, type Harness } from './helpers';

let h: Harness;
let n = 0;
const fresh = (): Collection<Document> => h.client.db('changes').collection(`c${++n}`);

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

/** A document with its BSON types spelled out (Decimal128, Long, int or double, field order). */
const typed = (doc: unknown): string => EJSON.stringify(doc, { relaxed: false });

/** nModified of one updateOne on a fresh collection holding `doc`, and the document after. */
async function modified(doc: Document, update: Document | Document[], opts: { arrayFilters?: Document[] } = {}): Promise<{ n: number; after: Document | null }> {
  const c = fresh();
  await c.insertOne({ _id: 1 as never, ...doc });
  const replacement = !Array.isArray(update) && !Object.keys(update)[0].startsWith('$');
  const r = replacement ? await c.replaceOne({ _id: 1 as never }, update) : await c.updateOne({ _id: 1 as never }, update, opts);
  expect(r.matchedCount).toBe(1);
  return { n: r.modifiedCount, after: await c.findOne({ _id: 1 as never }) };
}

describe('nModified of an update that changes nothing is 0', () => {
  const base = { a: 5, s: 'x', d: Decimal128.fromString('10.50'), o: { p: 1, q: 2 }, arr: [1, 2, 3], big: Long.fromString('9007199254740993'), when: new Date('2024-04-01T00:00:00Z') };
  const noops: Array<[string, Document | Document[], { arrayFilters?: Document[] }?]> = [
    ['$set of the same scalars', { $set: { a: 5, s: 'x' } }],
    ['$set of the same Decimal128, Long and Date', { $set: { d: Decimal128.fromString('10.50'), big: Long.fromString('9007199254740993'), when: new Date('2024-04-01T00:00:00Z') } }],
    ['$set of the same sub-document, same field order', { $set: { o: { p: 1, q: 2 } } }],
    ['$set of a nested path to its value', { $set: { 'o.q': 2 } }],
    ['$set of an array element to its value', { $set: { 'arr.1': 2 } }],
    ['$set of _id to itself', { $set: { _id: 1, a: 5 } }],
    ['$unset of a missing field', { $unset: { missing: '' } }],
    ['$inc by 0', { $inc: { a: 0 } }],
    ['$mul by 1', { $mul: { a: 1 } }],
    ['$min above the value', { $min: { a: 9 } }],
    ['$max below the value', { $max: { a: 1 } }],
    ['$rename of a missing field', { $rename: { missing: 'other' } }],
    ['$addToSet of a present element', { $addToSet: { arr: 2 } }],
    ['$pull of an absent element', { $pull: { arr: 9 } }],
    ['$pullAll of absent elements', { $pullAll: { arr: [8, 9] } }],
    ['$pop of an empty array', { $pop: { empty: 1 } }],
    ['$bit or 0', { $bit: { a: { or: 0 } } }],
    ['positional $[] set to the same values', { $set: { 'rows.$[].k': 1 } }],
    ['$[id] with arrayFilters matching nothing', { $set: { 'rows.$[r].k': 7 } }, { arrayFilters: [{ 'r.k': 99 }] }],
    ['a pipeline setting the same value', [{ $set: { a: 5 } }]],
    ['a replacement by the same document', { a: 5, s: 'x', d: Decimal128.fromString('10.50'), o: { p: 1, q: 2 }, arr: [1, 2, 3], big: Long.fromString('9007199254740993'), when: new Date('2024-04-01T00:00:00Z'), empty: [], rows: [{ k: 1 }, { k: 1 }] }],
  ];
  // Rows by number: jest's each hangs formatting BSON values.
  it.each(noops.map(([name], i) => [name, i] as const))('%s', async (_name, i) => {
    const [, update, opts] = noops[i];
    const r = await modified({ ...base, empty: [], rows: [{ k: 1 }, { k: 1 }] }, update, opts);
    expect(r.n).toBe(0);
    expect(typed(r.after)).toBe(typed({ _id: 1, ...base, empty: [], rows: [{ k: 1 }, { k: 1 }] }));
  });

  it('findAndModify answers the unchanged document, and updateMany counts matches apart from modifications', async () => {
    const c = fresh();
    await c.insertMany([
      { _id: 1 as never, k: 1, v: 5 },
      { _id: 2 as never, k: 1, v: 6 },
    ]);
    const doc = await c.findOneAndUpdate({ _id: 1 as never }, { $set: { v: 5 } }, { returnDocument: 'after' });
    expect(doc).toEqual({ _id: 1, k: 1, v: 5 });
    const many = await c.updateMany({ k: 1 }, { $set: { v: 6 } });
    expect([many.matchedCount, many.modifiedCount]).toEqual([2, 1]);
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, k: 1, v: 6 },
      { _id: 2, k: 1, v: 6 },
    ]);
  });
});

describe('nModified of an update that changes a value or its BSON type is 1', () => {
  it('5 (int) set to Decimal128("5") is a change, and the stored type follows', async () => {
    const r = await modified({ a: 5 }, { $set: { a: Decimal128.fromString('5') } });
    expect(r.n).toBe(1);
    expect(r.after!.a).toBeInstanceOf(Decimal128);
    expect(r.after!.a.toString()).toBe('5');
  });

  it('Decimal128("5") set to Decimal128("5.0") is a change (another representation)', async () => {
    const r = await modified({ a: Decimal128.fromString('5') }, { $set: { a: Decimal128.fromString('5.0') } });
    expect(r.n).toBe(1);
    expect(r.after!.a.toString()).toBe('5.0');
  });

  it('a Long past 2^53 set to the nearest double is a change', async () => {
    const r = await modified({ a: Long.fromString('9007199254740993') }, { $set: { a: 9007199254740992 } });
    expect(r.n).toBe(1);
    expect(r.after!.a).toBe(9007199254740992);
  });

  it('0 set to -0 is a change (int 0 to double -0.0)', async () => {
    const r = await modified({ a: 0 }, { $set: { a: -0 } });
    expect(r.n).toBe(1);
    expect(Object.is(r.after!.a, -0)).toBe(true);
  });

  it('a sub-document set to the same fields in another order is a change, stored in the new order', async () => {
    const r = await modified({ o: { p: 1, q: 2 } }, { $set: { o: { q: 2, p: 1 } } });
    expect(r.n).toBe(1);
    expect(Object.keys(r.after!.o)).toEqual(['q', 'p']);
  });

  it('a missing field set to null, $inc creating 0 and $currentDate are changes', async () => {
    expect((await modified({ a: 1 }, { $set: { b: null } })).n).toBe(1);
    const inc = await modified({ a: 1 }, { $inc: { b: 0 } });
    expect([inc.n, inc.after!.b]).toEqual([1, 0]);
    expect((await modified({ a: 1 }, { $currentDate: { at: true } })).n).toBe(1);
  });

  it('a Date set to the same instant as a number is a change', async () => {
    const at = new Date('2024-04-01T00:00:00Z');
    const r = await modified({ at }, { $set: { at: at.getTime() } });
    expect([r.n, r.after!.at]).toEqual([1, at.getTime()]);
  });

  it('a replacement differing only in a field order is a change', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1 as never, a: 1, b: 2 });
    const r = await c.replaceOne({ _id: 1 as never }, { b: 2, a: 1 });
    expect(r.modifiedCount).toBe(1);
    expect(Object.keys((await c.findOne({ _id: 1 as never }))!)).toEqual(['_id', 'b', 'a']);
  });
});

describe('copy on write: an update leaves the version it replaced as it was', () => {
  it('a transaction opened before the update still reads the old sub-documents and arrays', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1 as never, o: { p: { q: 1 }, r: [1] }, lines: [{ qty: 1 }], n: 1 });
    const session = h.client.startSession();
    try {
      session.startTransaction();
      // The snapshot is taken by the transaction's first read.
      expect(await c.findOne({ _id: 1 as never }, { session })).toEqual({ _id: 1, o: { p: { q: 1 }, r: [1] }, lines: [{ qty: 1 }], n: 1 });
      await c.updateOne({ _id: 1 as never }, { $set: { 'o.p.q': 2 }, $push: { 'o.r': 2, lines: { qty: 2 } } as never, $inc: { n: 1 } });
      await c.updateOne({ _id: 1 as never }, { $inc: { 'lines.0.qty': 5 }, $unset: { 'o.p.q': '' } });
      expect(await c.findOne({ _id: 1 as never }, { session })).toEqual({ _id: 1, o: { p: { q: 1 }, r: [1] }, lines: [{ qty: 1 }], n: 1 });
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await c.findOne({ _id: 1 as never })).toEqual({ _id: 1, o: { p: {}, r: [1, 2] }, lines: [{ qty: 6 }, { qty: 2 }], n: 2 });
  });
});

describe('index entries on update', () => {
  /** The ids an index holds under one exact key (its fields' values in order). */
  function held(c: Collection<Document>, name: string, values: unknown[]): unknown[] {
    const coll = h.server.engine.collection('changes', c.collectionName)!;
    const index = coll.indexes.find((i) => i.name === name)!;
    return [...(index.lookup(Index.lookupKey(values)) ?? [])].sort();
  }

  it('an update of an indexed field moves its entries; one of other fields keeps them and calls no index maintenance', async () => {
    const c = fresh();
    await c.createIndex({ companyId: 1, barcode: 1 }, { name: 'barcode' });
    await c.createIndex({ companyId: 1, product_id: 1 }, { unique: true, name: 'product' });
    await c.createIndex({ 'gst.hsn': 1 }, { name: 'hsn' });
    await c.insertMany([
      { _id: 1 as never, companyId: 1, product_id: 10, barcode: 'A', stock: 5, gst: { hsn: '1006', rate: 5 } },
      { _id: 2 as never, companyId: 1, product_id: 11, barcode: 'B', stock: 5, gst: { hsn: '1006', rate: 5 } },
    ]);
    expect(held(c, 'barcode', [1, 'A'])).toEqual(['n1']);

    const adds = jest.spyOn(Index.prototype, 'add');
    const removes = jest.spyOn(Index.prototype, 'remove');
    try {
      // Stock, a price inside gst and a pushed line: no indexed field.
      await c.updateOne({ _id: 1 as never }, { $inc: { stock: -2 }, $set: { 'gst.rate': 12 }, $push: { log: 'sold 2' } as never });
      expect(adds).not.toHaveBeenCalled();
      expect(removes).not.toHaveBeenCalled();
      expect(held(c, 'barcode', [1, 'A'])).toEqual(['n1']);
      expect(held(c, 'hsn', ['1006'])).toEqual(['n1', 'n2']);

      // The barcode changes: that index moves the entry, the others are left alone.
      await c.updateOne({ _id: 1 as never }, { $set: { barcode: 'C' } });
      expect(new Set(adds.mock.instances.map((i) => (i as unknown as Index).name))).toEqual(new Set(['barcode']));
      expect(held(c, 'barcode', [1, 'A'])).toEqual([]);
      expect(held(c, 'barcode', [1, 'C'])).toEqual(['n1']);
      adds.mockClear();
      removes.mockClear();

      // A sub-document holding an indexed field, replaced whole with the same hsn: checked, kept.
      await c.updateOne({ _id: 2 as never }, { $set: { gst: { hsn: '1006', rate: 18 } } });
      expect(adds).not.toHaveBeenCalled();
      await c.updateOne({ _id: 2 as never }, { $set: { 'gst.hsn': '1005' } });
      expect(held(c, 'hsn', ['1006'])).toEqual(['n1']);
      expect(held(c, 'hsn', ['1005'])).toEqual(['n2']);
    } finally {
      adds.mockRestore();
      removes.mockRestore();
    }
    expect((await c.find({ companyId: 1, barcode: 'C' }).toArray()).map((d) => d._id)).toEqual([1]);
    expect(await c.countDocuments({ companyId: 1, barcode: 'A' })).toBe(0);
    expect(await c.findOne({ _id: 1 as never })).toEqual({ _id: 1, companyId: 1, product_id: 10, barcode: 'C', stock: 3, gst: { hsn: '1006', rate: 12 }, log: ['sold 2'] });
  });

  it('a unique index still refuses a duplicate made by an update, and frees the key an update left', async () => {
    const c = fresh();
    await c.createIndex({ companyId: 1, product_id: 1 }, { unique: true, name: 'product' });
    await c.insertMany([
      { _id: 1 as never, companyId: 1, product_id: 10, stock: 1 },
      { _id: 2 as never, companyId: 1, product_id: 11, stock: 1 },
    ]);
    const dup = await c.updateOne({ _id: 2 as never }, { $set: { product_id: 10 } }).catch((e) => e);
    expect(dup.code).toBe(11000);
    await c.updateOne({ _id: 2 as never }, { $inc: { stock: 1 } });
    await c.updateOne({ _id: 1 as never }, { $set: { product_id: 12 } });
    expect(held(c, 'product', [1, 10])).toEqual([]);
    await c.insertOne({ _id: 3 as never, companyId: 1, product_id: 10 });
    expect(held(c, 'product', [1, 10])).toEqual(['n3']);
    expect((await c.insertOne({ _id: 4 as never, companyId: 1, product_id: 12 }).catch((e) => e)).code).toBe(11000);
  });

  it('a positional update reaching an indexed field inside an array moves its entries', async () => {
    const c = fresh();
    await c.createIndex({ 'lines.product_id': 1 }, { name: 'lines' });
    await c.insertOne({ _id: 1 as never, lines: [{ product_id: 10, qty: 1 }, { product_id: 11, qty: 1 }] });
    await c.updateOne({ _id: 1 as never, 'lines.product_id': 10 }, { $set: { 'lines.$.product_id': 12 } });
    await c.updateOne({ _id: 1 as never, 'lines.product_id': 12 }, { $inc: { 'lines.$.qty': 1 } });
    expect(held(c, 'lines', [12])).toEqual(['n1']);
    expect(held(c, 'lines', [10])).toEqual([]);
    expect(held(c, 'lines', [12])).toEqual(['n1']);
    await c.updateOne({ _id: 1 as never }, { $set: { 'lines.1.product_id': 13 } });
    expect(held(c, 'lines', [11])).toEqual([]);
    expect(held(c, 'lines', [13])).toEqual(['n1']);
  });

  it('a partial index follows an update of its filter field, not of its key', async () => {
    const c = fresh();
    await c.createIndex({ companyId: 1 }, { name: 'pending', partialFilterExpression: { evt: { $type: 'string' } } });
    await c.insertOne({ _id: 1 as never, companyId: 1, evt: 'sale.1' });
    expect(held(c, 'pending', [1])).toEqual(['n1']);
    await c.updateOne({ _id: 1 as never }, { $unset: { evt: '' } });
    expect(held(c, 'pending', [1])).toEqual([]);
    await c.updateOne({ _id: 1 as never }, { $set: { evt: 'sale.2' } });
    expect(held(c, 'pending', [1])).toEqual(['n1']);
  });
});
