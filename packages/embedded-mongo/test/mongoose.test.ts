import mongoose, { Schema, type Connection } from 'mongoose';
import { EmbeddedMongo } from '../src';

let server: EmbeddedMongo;
let conn: Connection;

beforeAll(async () => {
  server = await EmbeddedMongo.start({ port: 0 });
  conn = await mongoose.createConnection(`${server.uri}/bahi_test`).asPromise();
});
afterAll(async () => {
  await conn.close();
  await server.stop();
});

const counterSchema = new Schema({ companyId: { type: Number, required: true }, name: { type: String, required: true }, seq: { type: Number, default: 0 } });
counterSchema.index({ companyId: 1, name: 1 }, { unique: true });

const productSchema = new Schema(
  {
    companyId: { type: Number, required: true, index: true },
    id: { type: Number, required: true },
    name: { type: String, required: true, trim: true, minlength: 2 },
    price: { type: Schema.Types.Decimal128, required: true },
    stock: { type: Number, default: 0, min: 0 },
    brand: { type: Schema.Types.ObjectId, ref: 'Brand' },
    specs: [{ key: String, value: String }],
  },
  { timestamps: true },
);
productSchema.index({ companyId: 1, id: 1 }, { unique: true });

const brandSchema = new Schema({ companyId: Number, name: String });

async function nextId(companyId: number, name: string): Promise<number> {
  const Counter = conn.model('Counter', counterSchema);
  const doc = await Counter.findOneAndUpdate({ companyId, name }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
  return doc!.seq;
}

describe('mongoose 9 on the embedded server', () => {
  it('builds schema indexes and answers health pings', async () => {
    const Product = conn.model('Product', productSchema);
    await Product.init();
    const names = (await Product.collection.indexes()).map((i) => i.name).sort();
    expect(names).toEqual(['_id_', 'companyId_1', 'companyId_1_id_1']);
    expect(await conn.db!.admin().ping()).toMatchObject({ ok: 1 });
  });

  it('hands out per-company sequential ids under concurrency', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, () => nextId(1, 'product')));
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await nextId(2, 'product')).toBe(1);
  });

  it('validates, saves, updates and reads documents with timestamps, Decimal128 and subdocuments', async () => {
    const Product = conn.model('Product', productSchema);
    const Brand = conn.model('Brand', brandSchema);
    const brand = await Brand.create({ companyId: 1, name: 'Tata' });
    await expect(Product.create({ companyId: 1, id: 99, name: 'x', price: '1' })).rejects.toThrow(/minimum allowed length/);
    const p = await Product.create({ companyId: 1, id: 1, name: '  Salt 1kg ', price: '25.50', brand: brand._id, specs: [{ key: 'weight', value: '1kg' }] });
    expect(p.name).toBe('Salt 1kg');
    expect(p.createdAt).toBeInstanceOf(Date);
    p.specs.push({ key: 'type', value: 'iodised' });
    p.stock = 10;
    await p.save();
    const found = await Product.findOne({ companyId: 1, id: 1 }).populate('brand').lean();
    expect(found!.specs.map((s) => s.key)).toEqual(['weight', 'type']);
    expect(found!.price.toString()).toBe('25.50');
    expect((found!.brand as unknown as { name: string }).name).toBe('Tata');
    expect(found!.__v).toBe(1);
    const updated = await Product.findOneAndUpdate({ companyId: 1, id: 1 }, { $inc: { stock: -3 } }, { returnDocument: 'after', runValidators: true });
    expect(updated!.stock).toBe(7);
    expect(updated!.updatedAt!.getTime()).toBeGreaterThanOrEqual(p.updatedAt!.getTime());
    await expect(Product.updateOne({ companyId: 1, id: 1 }, { $inc: { stock: -100 } }, { runValidators: true })).resolves.toBeDefined();
  });

  it('reports duplicate keys the way mongoose users check them', async () => {
    const Product = conn.model('Product', productSchema);
    await Product.init();
    await Product.create({ companyId: 5, id: 1, name: 'Oil', price: '100' });
    const err = await Product.create({ companyId: 5, id: 1, name: 'Ghee', price: '500' }).catch((e) => e);
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ companyId: 5, id: 1 });
    expect(err.keyPattern).toEqual({ companyId: 1, id: 1 });
  });

  it('pages, counts, sorts and aggregates', async () => {
    const Product = conn.model('Product', productSchema);
    await Product.insertMany(Array.from({ length: 25 }, (_, i) => ({ companyId: 9, id: i + 1, name: `Item ${String(i + 1).padStart(2, '0')}`, price: String(i * 10), stock: i })));
    const page2 = await Product.find({ companyId: 9 }).sort({ id: -1 }).skip(10).limit(10).select('id name -_id').lean();
    expect(page2.map((p) => p.id)).toEqual([15, 14, 13, 12, 11, 10, 9, 8, 7, 6]);
    expect(await Product.countDocuments({ companyId: 9, stock: { $gte: 20 } })).toBe(5);
    expect(await Product.find({ companyId: 9, name: /item 0/i }).countDocuments()).toBe(9);
    const [agg] = await Product.aggregate([{ $match: { companyId: 9 } }, { $group: { _id: '$companyId', stock: { $sum: '$stock' }, n: { $sum: 1 } } }]);
    expect(agg).toEqual({ _id: 9, stock: 300, n: 25 });
    expect(await Product.distinct('stock', { companyId: 9, stock: { $lt: 3 } })).toEqual([0, 1, 2]);
    expect(await Product.exists({ companyId: 9, id: 25 })).toBeTruthy();
    const del = await Product.deleteMany({ companyId: 9, stock: { $lt: 5 } });
    expect(del.deletedCount).toBe(5);
  });

  it('runs connection.transaction with rollback on error', async () => {
    const Counter = conn.model('Counter', counterSchema);
    await Counter.init();
    const before = await Counter.countDocuments();
    await expect(
      conn.transaction(async (session) => {
        await Counter.create([{ companyId: 77, name: 'sale', seq: 1 }], { session });
        throw new Error('checkout failed');
      }),
    ).rejects.toThrow('checkout failed');
    expect(await Counter.countDocuments()).toBe(before);
    await conn.transaction(async (session) => {
      await Counter.create([{ companyId: 77, name: 'sale', seq: 1 }], { session });
      await Counter.updateOne({ companyId: 77, name: 'sale' }, { $inc: { seq: 1 } }, { session });
    });
    expect((await Counter.findOne({ companyId: 77 }).lean())!.seq).toBe(2);
  });

  it('syncIndexes drops indexes no longer in the schema', async () => {
    const schema = new Schema({ a: { type: String, index: true }, b: String });
    const M = conn.model('Sync', schema);
    await M.init();
    await M.collection.createIndex({ b: 1 });
    const dropped = await M.syncIndexes();
    expect(dropped).toEqual(['b_1']);
    expect((await M.collection.indexes()).map((i) => i.name)).toEqual(['_id_', 'a_1']);
  });
});
