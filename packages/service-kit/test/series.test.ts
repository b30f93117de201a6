import mongoose from 'mongoose';
import { startMongo, type MongoHandle } from '@bahi/devstack';
import { DocumentSeries, financialYearOf } from '../src/series';

// Two DocumentSeries over one collection stand for two replicas numbering at once.
describe('DocumentSeries: gapless numbers per company and financial year', () => {
  let mongo: MongoHandle;
  let conn: mongoose.Connection;
  let notes: mongoose.mongo.Collection;
  const format = (fy: string, n: number) => `CN/${fy}/${String(n).padStart(4, '0')}`;
  const make = () => new DocumentSeries({ collection: notes, fyField: 'fy', serialField: 'serial', numberField: 'no', format });

  beforeAll(async () => {
    mongo = await startMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: 'series_test' }).asPromise();
    notes = conn.collection('notes') as unknown as mongoose.mongo.Collection;
    await notes.createIndex({ companyId: 1, fy: 1, serial: 1 }, { unique: true, partialFilterExpression: { serial: { $gt: 0 } } });
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.stop();
  });

  it('reads the financial year on the IST calendar (1 April starts a year)', () => {
    expect(financialYearOf('2027-03-31')).toBe('26-27');
    expect(financialYearOf('2027-04-01')).toBe('27-28');
  });

  it('forty documents numbered at once by two replicas get 1..40, each once, with their progress fields', async () => {
    await notes.insertMany(Array.from({ length: 40 }, (_, i) => ({ companyId: 7, id: i + 1, serial: 0, no: '', done: false })));
    const [a, b] = [make(), make()];
    const got = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).assign(7, '26-27', { id: i + 1 }, { done: true })));
    expect(got.map((g) => g.serial).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const docs = await notes.find({ companyId: 7 }).toArray();
    expect(docs.every((d) => d.done === true && d.no === format('26-27', d.serial as number))).toBe(true);
  });

  it('a numbered document keeps its number; another company and another year start at 1', async () => {
    const s = make();
    expect(await s.assign(7, '26-27', { id: 5 }, { again: true })).toEqual({ serial: (await notes.findOne({ companyId: 7, id: 5 }))!.serial, number: (await notes.findOne({ companyId: 7, id: 5 }))!.no });
    expect((await notes.findOne({ companyId: 7, id: 5 }))!.again).toBe(true);
    await notes.insertMany([{ companyId: 8, id: 1, serial: 0 }, { companyId: 7, id: 99, serial: 0 }]);
    expect(await s.assign(8, '26-27', { id: 1 })).toEqual({ serial: 1, number: 'CN/26-27/0001' });
    expect(await s.assign(7, '27-28', { id: 99 })).toEqual({ serial: 1, number: 'CN/27-28/0001' });
  });
});
