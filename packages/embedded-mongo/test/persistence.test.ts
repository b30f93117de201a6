import { Decimal128, MongoClient } from 'mongodb';
import { EmbeddedMongo } from '../src';
import { startHarness, tempDir } from './helpers';

describe('persistence (dbPath)', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.remove());

  it('keeps documents, indexes, collection options and natural order across restarts', async () => {
    const first = await startHarness({ dbPath: tmp.dir });
    const db = first.client.db('shop');
    await db.createCollection('products', { validator: { name: { $type: 'string' } } });
    const products = db.collection('products');
    await products.createIndex({ companyId: 1, id: 1 }, { unique: true });
    await products.insertMany([
      { companyId: 1, id: 2, name: 'Dal', price: Decimal128.fromString('99.50') },
      { companyId: 1, id: 1, name: 'Rice' },
      { companyId: 2, id: 1, name: 'Salt' },
    ]);
    await products.updateOne({ companyId: 1, id: 1 }, { $set: { name: 'Rice 5kg' } });
    await products.deleteOne({ companyId: 2 });
    await db.collection('scratch').insertOne({ x: 1 });
    await db.collection('scratch').drop();
    await first.stop();

    const second = await startHarness({ dbPath: tmp.dir });
    const again = second.client.db('shop');
    expect((await again.listCollections().toArray()).map((c) => [c.name, (c as { options?: unknown }).options])).toEqual([
      ['products', { validator: { name: { $type: 'string' } } }],
    ]);
    const docs = await again.collection('products').find({}, { projection: { _id: 0 } }).toArray();
    expect(docs.map((d) => d.name)).toEqual(['Dal', 'Rice 5kg']);
    expect(docs[0].price.toString()).toBe('99.50');
    expect((await again.collection('products').indexes()).map((i) => i.name)).toEqual(['_id_', 'companyId_1_id_1']);
    const dup = await again.collection('products').insertOne({ companyId: 1, id: 2, name: 'Dup' }).catch((e) => e);
    expect(dup.code).toBe(11000);
    // new inserts go after the reloaded ones
    await again.collection('products').insertOne({ companyId: 3, id: 1, name: 'Oil' });
    expect((await again.collection('products').find().toArray()).map((d) => d.name)).toEqual(['Dal', 'Rice 5kg', 'Oil']);
    await second.stop();
  });

  it('persists committed transactions only', async () => {
    const first = await startHarness({ dbPath: tmp.dir });
    const c = first.client.db('shop').collection('ledger');
    const committed = first.client.startSession();
    await committed.withTransaction(async () => {
      await c.insertOne({ _id: 'a' } as never, { session: committed });
      await c.insertOne({ _id: 'b' } as never, { session: committed });
    });
    await committed.endSession();
    const aborted = first.client.startSession();
    aborted.startTransaction();
    await c.insertOne({ _id: 'c' } as never, { session: aborted });
    await c.deleteOne({ _id: 'a' } as never, { session: aborted });
    await aborted.abortTransaction();
    await aborted.endSession();
    const open = first.client.startSession();
    open.startTransaction();
    await c.insertOne({ _id: 'd' } as never, { session: open });
    await first.stop();
    await open.endSession().catch(() => undefined);

    const second = await startHarness({ dbPath: tmp.dir });
    expect(await second.client.db('shop').collection('ledger').find().toArray()).toEqual([{ _id: 'a' }, { _id: 'b' }]);
    await second.stop();
  });

  it('renames and drops databases durably', async () => {
    const first = await startHarness({ dbPath: tmp.dir });
    await first.client.db('a').collection('x').insertOne({ v: 1 });
    await first.client.db('a').collection('x').rename('y');
    await first.client.db('b').collection('z').insertOne({ v: 2 });
    await first.client.db('b').dropDatabase();
    await first.stop();
    const second = await startHarness({ dbPath: tmp.dir });
    const names = (await second.client.db('admin').admin().listDatabases()).databases.map((d) => d.name);
    expect(names).toEqual(['a']);
    expect(await second.client.db('a').collection('y').countDocuments()).toBe(1);
    await second.stop();
  });

  it('refuses a second server on the same data directory', async () => {
    const first = await EmbeddedMongo.start({ port: 0, dbPath: tmp.dir });
    await expect(EmbeddedMongo.start({ port: 0, dbPath: tmp.dir })).rejects.toThrow(/in use by another embedded MongoDB server/);
    await first.stop();
    const again = await EmbeddedMongo.start({ port: 0, dbPath: tmp.dir });
    await again.stop();
  });

  it('keeps data written just before stop', async () => {
    const server = await EmbeddedMongo.start({ port: 0, dbPath: tmp.dir });
    const client = await MongoClient.connect(server.uri);
    await client.db('d').collection('c').insertMany(Array.from({ length: 2000 }, (_, i) => ({ i })));
    await client.close();
    await server.stop();
    const again = await startHarness({ dbPath: tmp.dir });
    expect(await again.client.db('d').collection('c').countDocuments()).toBe(2000);
    await again.stop();
  });
});
