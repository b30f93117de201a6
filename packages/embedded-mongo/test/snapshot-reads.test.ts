/**
 * Reads inside a transaction see the data as it was when the transaction began (MongoDB's
 * snapshot), not what others committed since; writing a document changed or deleted since then
 * is a write conflict.
 */
import { MongoServerError } from 'mongodb';
import { startHarness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.stop());

test('a transaction reads its snapshot through scans, index lookups, sorts and counts', async () => {
  const c = h.client.db('snap').collection<{ _id: number; n: number }>('items');
  await c.createIndex({ n: 1 });
  await c.insertMany([{ _id: 1, n: 1 }, { _id: 2, n: 2 }]);
  const session = h.client.startSession();
  try {
    session.startTransaction();
    expect(await c.findOne({ _id: 1 }, { session })).toEqual({ _id: 1, n: 1 });
    // Others commit: a change, an insert and a delete.
    await c.updateOne({ _id: 1 }, { $set: { n: 10 } });
    await c.insertOne({ _id: 3, n: 3 });
    await c.deleteOne({ _id: 2 });
    expect(await c.find({}, { session }).toArray()).toEqual([{ _id: 1, n: 1 }, { _id: 2, n: 2 }]);
    expect(await c.find({ n: { $gte: 1 } }, { session }).sort({ n: -1 }).toArray()).toEqual([{ _id: 2, n: 2 }, { _id: 1, n: 1 }]);
    expect(await c.find({ n: 10 }, { session }).toArray()).toEqual([]);
    expect(await c.countDocuments({}, { session })).toBe(2);
    expect(await c.countDocuments({ n: 1 }, { session })).toBe(1);
    expect(await c.aggregate([{ $match: { _id: { $in: [1, 2, 3] } } }, { $sort: { _id: 1 } }], { session }).toArray()).toEqual([{ _id: 1, n: 1 }, { _id: 2, n: 2 }]);
    // Outside the transaction: the latest data.
    expect(await c.find({}).toArray()).toEqual([{ _id: 1, n: 10 }, { _id: 3, n: 3 }]);
    // Writing what changed (or vanished) since the snapshot: a transient write conflict.
    const err = await c.updateOne({ _id: 2 }, { $set: { n: 20 } }, { session }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).codeName).toBe('WriteConflict');
    expect((err as MongoServerError).hasErrorLabel('TransientTransactionError')).toBe(true);
    await session.abortTransaction();
  } finally {
    await session.endSession();
  }
  // A transaction begun after the changes reads them.
  const later = h.client.startSession();
  try {
    await later.withTransaction(async () => {
      expect(await c.find({}, { session: later }).toArray()).toEqual([{ _id: 1, n: 10 }, { _id: 3, n: 3 }]);
    });
  } finally {
    await later.endSession();
  }
});
