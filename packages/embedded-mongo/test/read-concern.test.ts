/**
 * Cluster time and read concern: replies carry operationTime and $clusterTime, a causally
 * consistent session reads its own writes (afterClusterTime), and a snapshot read either answers
 * from one point in time, named in atClusterTime, or is refused; never newer data than asked for.
 */
import { MongoServerError, Timestamp, type Document } from 'mongodb';
import { startHarness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.stop());

const db = () => h.client.db('rc');
const refused = async (cmd: Document) => {
  const err = await db().command(cmd).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MongoServerError);
  return err as MongoServerError;
};

test('every reply carries operationTime and $clusterTime, and a write moves them on', async () => {
  const a = await db().command({ ping: 1 });
  expect(a.operationTime).toBeInstanceOf(Timestamp);
  expect(a.$clusterTime.clusterTime).toEqual(a.operationTime);
  expect(Number(a.$clusterTime.signature.keyId)).toBe(0);
  const w = await db().command({ insert: 'items', documents: [{ _id: 1, n: 1 }] });
  expect(w.operationTime.greaterThan(a.operationTime)).toBe(true);
  // An error reply carries them too.
  const bad = await refused({ find: 'items', readConcern: { level: 'bogus' } });
  expect(bad.codeName).toBe('FailedToParse');
  expect(bad.message).toMatch(/'bogus' is not a valid readConcern level/);
});

test('a causally consistent session reads its own write (afterClusterTime), and the driver tracks the cluster time', async () => {
  const session = h.client.startSession({ causalConsistency: true });
  try {
    const c = db().collection<{ _id: string; v: number }>('causal');
    await c.insertOne({ _id: 'x', v: 1 }, { session });
    expect(session.operationTime).toBeInstanceOf(Timestamp);
    expect(await c.findOne({ _id: 'x' }, { session })).toEqual({ _id: 'x', v: 1 });
    expect(session.clusterTime?.clusterTime).toBeInstanceOf(Timestamp);
  } finally {
    await session.endSession();
  }
  // A time this server never handed out is refused, not waited for forever.
  const ahead = await refused({ find: 'causal', readConcern: { level: 'local', afterClusterTime: new Timestamp({ t: 0xffffffff, i: 1 }) } });
  expect(ahead.codeName).toBe('InvalidOptions');
});

test('a snapshot read outside a transaction names its atClusterTime; an older one is refused once anything was written', async () => {
  const c = db().collection<{ _id: number }>('snap');
  await c.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
  const r = await db().command({ find: 'snap', readConcern: { level: 'snapshot' }, batchSize: 1 });
  const at = r.cursor.atClusterTime as Timestamp;
  expect(at).toBeInstanceOf(Timestamp);
  expect(r.cursor.firstBatch).toEqual([{ _id: 1 }]);
  // The same point again works while nothing was written since.
  const again = await db().command({ aggregate: 'snap', pipeline: [{ $count: 'n' }], cursor: {}, readConcern: { level: 'snapshot', atClusterTime: at } });
  expect(again.cursor.firstBatch).toEqual([{ n: 3 }]);
  // The cursor's later batches come from the same point: a delete meanwhile does not show.
  await c.deleteOne({ _id: 3 });
  const more = await db().command({ getMore: r.cursor.id, collection: 'snap', batchSize: 10 });
  expect(more.cursor.nextBatch).toEqual([{ _id: 2 }, { _id: 3 }]);
  // After the write, that point is history this server does not keep: refused, never the latest data.
  const old = await refused({ find: 'snap', readConcern: { level: 'snapshot', atClusterTime: at } });
  expect(old.codeName).toBe('SnapshotTooOld');
  const future = await refused({ find: 'snap', readConcern: { level: 'snapshot', atClusterTime: new Timestamp({ t: 0xffffffff, i: 0 }) } });
  expect(future.codeName).toBe('SnapshotUnavailable');
  // Only find, aggregate and distinct take a snapshot read outside a transaction.
  const count = await refused({ count: 'snap', readConcern: { level: 'snapshot' } });
  expect(count.codeName).toBe('InvalidOptions');
  const distinct = await db().command({ distinct: 'snap', key: '_id', readConcern: { level: 'snapshot' } });
  expect(distinct.values).toEqual([1, 2]);
  expect(distinct.atClusterTime).toBeInstanceOf(Timestamp);
});

test('a snapshot session through the driver reads from one point, and is refused after a write rather than shown newer data', async () => {
  const c = db().collection<{ _id: number }>('snapsession');
  await c.insertMany([{ _id: 1 }, { _id: 2 }]);
  const session = h.client.startSession({ snapshot: true });
  try {
    expect(await c.find({}, { session }).toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
    expect(await c.countDocuments({}, { session })).toBe(2);
    await c.insertOne({ _id: 3 });
    const err = await c.find({}, { session }).toArray().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).codeName).toBe('SnapshotTooOld');
  } finally {
    await session.endSession();
  }
});
