import { Long, MongoClient, MongoServerError, type Collection, type Db } from 'mongodb';
import { startHarness, type Harness } from './helpers';

let h: Harness;
let db: Db;
let n = 0;
const fresh = () => db.collection(`t${++n}`);

beforeAll(async () => {
  h = await startHarness({ transactionLifetimeSeconds: 3 });
  db = h.client.db('txn');
});
afterAll(() => h.stop());

describe('transactions', () => {
  it('commits several writes at once; nothing is visible outside before the commit', async () => {
    const c = fresh();
    await c.insertOne({ _id: 'stock', qty: 10 } as never);
    const session = h.client.startSession();
    try {
      session.startTransaction();
      await c.insertOne({ _id: 'sale', total: 5 } as never, { session });
      await c.updateOne({ _id: 'stock' as never }, { $inc: { qty: -1 } }, { session });
      // inside: own writes visible
      expect(await c.findOne({ _id: 'stock' as never }, { session })).toMatchObject({ qty: 9 });
      expect(await c.countDocuments({}, { session })).toBe(2);
      // outside: the committed state only
      expect(await c.findOne({ _id: 'stock' as never })).toMatchObject({ qty: 10 });
      expect(await c.findOne({ _id: 'sale' as never })).toBeNull();
      expect(await c.countDocuments({ total: { $exists: true } })).toBe(0);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await c.findOne({ _id: 'stock' as never })).toMatchObject({ qty: 9 });
    expect(await c.findOne({ _id: 'sale' as never })).toMatchObject({ total: 5 });
  });

  it('abort puts every document back, including deletes and index entries', async () => {
    const c = fresh();
    await c.createIndex({ code: 1 }, { unique: true });
    await c.insertMany([{ _id: 1, code: 'a' }, { _id: 2, code: 'b' }] as never[]);
    const session = h.client.startSession();
    session.startTransaction();
    await c.deleteOne({ _id: 1 as never }, { session });
    await c.updateOne({ _id: 2 as never }, { $set: { code: 'c' } }, { session });
    await c.insertOne({ _id: 3, code: 'a' } as never, { session });
    await session.abortTransaction();
    await session.endSession();
    expect(await c.find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, code: 'a' }, { _id: 2, code: 'b' }]);
    expect((await c.insertOne({ _id: 4, code: 'b' } as never).catch((e) => e)).code).toBe(11000);
    expect(await c.findOne({ code: 'c' })).toBeNull();
  });

  it('a second transaction writing the same document gets a retryable WriteConflict', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1, v: 0 } as never);
    const s1 = h.client.startSession();
    const s2 = h.client.startSession();
    s1.startTransaction();
    s2.startTransaction();
    await c.updateOne({ _id: 1 as never }, { $inc: { v: 1 } }, { session: s1 });
    const err = await c.updateOne({ _id: 1 as never }, { $inc: { v: 10 } }, { session: s2 }).catch((e) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(112);
    expect(err.hasErrorLabel('TransientTransactionError')).toBe(true);
    await s2.abortTransaction();
    await s1.commitTransaction();
    await s1.endSession();
    await s2.endSession();
    expect(await c.findOne({ _id: 1 as never })).toEqual({ _id: 1, v: 1 });
  });

  it('withTransaction retries conflicts until every increment lands', async () => {
    const c = fresh();
    await c.insertOne({ _id: 'counter', v: 0 } as never);
    const run = async () => {
      const session = h.client.startSession();
      try {
        await session.withTransaction(async () => {
          const doc = await c.findOne({ _id: 'counter' as never }, { session });
          await c.updateOne({ _id: 'counter' as never }, { $set: { v: doc!.v + 1 } }, { session });
        });
      } finally {
        await session.endSession();
      }
    };
    await Promise.all(Array.from({ length: 10 }, run));
    expect(await c.findOne({ _id: 'counter' as never })).toEqual({ _id: 'counter', v: 10 });
  });

  it('a plain write to a document a transaction holds waits for the commit', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1, v: 1 } as never);
    const session = h.client.startSession();
    session.startTransaction();
    await c.updateOne({ _id: 1 as never }, { $set: { v: 2 } }, { session });
    let done = false;
    const plain = c.updateOne({ _id: 1 as never }, { $inc: { v: 10 } }).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(done).toBe(false);
    await session.commitTransaction();
    await plain;
    await session.endSession();
    expect(await c.findOne({ _id: 1 as never })).toEqual({ _id: 1, v: 12 });
  });

  it('a unique key taken by an open transaction is not given to anyone else', async () => {
    const c: Collection = fresh();
    await c.createIndex({ email: 1 }, { unique: true });
    const session = h.client.startSession();
    session.startTransaction();
    await c.insertOne({ email: 'a@x' }, { session });
    const other = c.insertOne({ email: 'a@x' }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 50));
    await session.commitTransaction();
    await session.endSession();
    expect((await other).code).toBe(11000);
    expect(await c.countDocuments({ email: 'a@x' })).toBe(1);
  });

  it('a failed write aborts the transaction', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1 } as never);
    const session = h.client.startSession();
    session.startTransaction();
    await c.insertOne({ _id: 2 } as never, { session });
    expect((await c.insertOne({ _id: 1 } as never, { session }).catch((e) => e)).code).toBe(11000);
    const err = await c.insertOne({ _id: 3 } as never, { session }).catch((e) => e);
    expect(err.code).toBe(251);
    await session.abortTransaction().catch(() => undefined);
    await session.endSession();
    expect(await c.countDocuments()).toBe(1);
  });

  it('a transaction left open past its lifetime is aborted and releases its documents', async () => {
    const c = fresh();
    await c.insertOne({ _id: 1, v: 1 } as never);
    const session = h.client.startSession();
    session.startTransaction();
    await c.updateOne({ _id: 1 as never }, { $set: { v: 2 } }, { session });
    // a plain write waits, then proceeds once the server aborts the stale transaction (3 s here)
    await c.updateOne({ _id: 1 as never }, { $inc: { v: 100 } });
    expect(await c.findOne({ _id: 1 as never })).toEqual({ _id: 1, v: 101 });
    const err = await session.commitTransaction().catch((e) => e);
    expect(err.code).toBe(251);
    await session.endSession();
  });

  it('refuses commands that cannot run in a transaction', async () => {
    const c = fresh();
    const session = h.client.startSession();
    session.startTransaction();
    const err = await db.command({ listCollections: 1 }, { session }).catch((e) => e);
    expect(err.code).toBe(263);
    await session.abortTransaction().catch(() => undefined);
    await session.endSession();
    expect(await c.countDocuments()).toBe(0);
  });

  it('answers a retried retryable write from its first execution instead of applying it twice', async () => {
    // its own client: the session's txnNumber is set by hand here, which no later test should inherit
    const client = await MongoClient.connect(h.server.uri);
    const d = client.db('txn');
    const c = d.collection(`t${++n}`);
    const session = client.startSession();
    const cmd = { insert: c.collectionName, documents: [{ v: 1 }], txnNumber: Long.fromNumber(1_000_000) };
    const first = await d.command(cmd, { session });
    const again = await d.command({ ...cmd, documents: [{ v: 2 }] }, { session });
    expect(again).toEqual(first);
    expect(await c.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ v: 1 }]);
    const old = await d.command({ ...cmd, txnNumber: Long.fromNumber(999_999) }, { session }).catch((e) => e);
    expect(old.code).toBe(225);
    await session.endSession();
    await client.close();
  });
});
