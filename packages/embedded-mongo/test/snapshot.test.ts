import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startHarness, tempDir } from './helpers';

describe('bahiSnapshot (a consistent copy of every database)', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.remove());

  it('copies every committed write of every database as of one instant, without open transactions', async () => {
    const live = await startHarness({ dbPath: path.join(tmp.dir, 'live') });
    const sales = live.client.db('bahi_sales').collection('sales');
    const entries = live.client.db('bahi_ledger').collection('entries');
    await sales.insertMany([{ saleId: 1 }, { saleId: 2 }]);
    await entries.insertMany([{ saleId: 1 }, { saleId: 2 }]);
    const open = live.client.startSession();
    open.startTransaction();
    await sales.insertOne({ saleId: 99 }, { session: open });

    // A writer adds a sale and its entry in one transaction, over and over, while the copy is taken.
    let stop = false;
    let n = 3;
    const writer = (async () => {
      while (!stop) {
        const s = live.client.startSession();
        const id = n++;
        await s.withTransaction(async () => {
          await sales.insertOne({ saleId: id }, { session: s });
          await entries.insertOne({ saleId: id }, { session: s });
        });
        await s.endSession();
      }
    })();
    await new Promise((r) => setTimeout(r, 50));
    const reply = await live.client.db('admin').command({ bahiSnapshot: path.join(tmp.dir, 'copy') });
    stop = true;
    await writer;
    await open.abortTransaction();
    await open.endSession();

    expect(reply.ok).toBe(1);
    expect(reply.bytes).toBeGreaterThan(0);
    const counts = reply.counts as Record<string, number>;
    expect(Object.keys(counts)).toEqual(['bahi_ledger.entries', 'bahi_sales.sales']);
    // Both halves of every transaction or neither: the same number of sales and entries.
    expect(counts['bahi_sales.sales']).toBe(counts['bahi_ledger.entries']);
    expect(counts['bahi_sales.sales']).toBeGreaterThanOrEqual(2);
    await live.stop();

    // The copy is a data directory a server starts on, holding exactly what was counted.
    const copy = await startHarness({ dbPath: path.join(tmp.dir, 'copy') });
    const copied = await copy.client.db('bahi_sales').collection('sales').find().toArray();
    expect(copied.length).toBe(counts['bahi_sales.sales']);
    expect(copied.some((d) => d.saleId === 99)).toBe(false);
    const copiedEntries = await copy.client.db('bahi_ledger').collection('entries').find().toArray();
    expect(copiedEntries.map((d) => d.saleId).sort((a, b) => a - b)).toEqual(
      copied.map((d) => d.saleId).sort((a, b) => a - b),
    );
    await copy.stop();
  });

  it('is refused to a readWrite user, on an in-memory server and into a folder that holds files', async () => {
    const auth = {
      users: [
        { user: 'root', password: 'rootpass', roles: ['root'] },
        { user: 'sales', password: 'salespass', roles: [{ role: 'readWrite' as const, db: 'bahi_sales' }] },
      ],
    };
    const h = await startHarness({ dbPath: path.join(tmp.dir, 'live'), auth });
    const asSales = await MongoClient.connect(h.server.uri.replace('//', '//sales:salespass@') + '/?authSource=admin');
    const refused = await asSales
      .db('admin')
      .command({ bahiSnapshot: path.join(tmp.dir, 'x') })
      .catch((e) => e);
    expect(refused.code).toBe(13);
    await asSales.close();
    const asRoot = await MongoClient.connect(h.server.uri.replace('//', '//root:rootpass@') + '/?authSource=admin');
    const notEmpty = await asRoot
      .db('admin')
      .command({ bahiSnapshot: path.join(tmp.dir, 'live') })
      .catch((e) => e);
    expect(notEmpty.codeName).toBe('BadValue');
    const relative = await asRoot
      .db('admin')
      .command({ bahiSnapshot: 'copy' })
      .catch((e) => e);
    expect(relative.codeName).toBe('BadValue');
    await asRoot.close();
    await h.stop();

    const memory = await startHarness();
    const none = await memory.client
      .db('admin')
      .command({ bahiSnapshot: path.join(tmp.dir, 'y') })
      .catch((e) => e);
    expect(none.codeName).toBe('IllegalOperation');
    await memory.stop();
  });
});
