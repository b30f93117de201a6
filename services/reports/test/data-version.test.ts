import { EventSubjects as E } from '@bahi/contracts';
import { dataVersion, today } from '@bahi/service-kit';
import { startTestService } from '@bahi/service-kit/testing';
import mongoose from 'mongoose';
import request from 'supertest';
import { AppModule } from '../src/app.module';
import { Consumers, READ_MODEL_VERSION } from '../src/consumers';
import { migrations } from '../src/migrations';
import { SECRET, startReports, tokenFor, type Stack } from './helpers';

const D = today();
const sale = (saleId: number, amount: string) => ({
  eventId: `sale:1:${saleId}:completed`, companyId: 1, occurredAt: new Date().toISOString(), date: D, saleId, clientId: 0, customerName: 'Walk-in', walkIn: true,
  lines: [{ sl_no: 1, product_id: 1, product_name: 'Rice', unit: 'pcs', quantity: '1', per_peice_quantity: '1', units: '1', rate: amount, disc: '0', amount, cp: '1.00', taxable_value: null, gst_rate: null, cgst: null, sgst: null, igst: null }],
  subtotal: amount, tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount, paid: amount, dueDate: D, gst: null,
});

let s: Stack;
let conn: mongoose.Connection | undefined;
afterAll(async () => {
  await conn?.close();
  await s?.svc.close();
  await s?.nc.close();
  await s?.nats.stop();
  await s?.mongo.stop();
});

it('records its data version on start and rebuilds the read model when it was built at another version', async () => {
  s = await startReports();
  await s.consumers.caughtUp(30_000);
  for (let i = 1; i <= 3; i++) await s.publish(E.sales.saleCompleted, sale(i, '25.50'));
  await s.consumers.caughtUp(30_000);
  const dbName = s.svc.config.dbName!;
  await s.svc.close();
  conn = await mongoose.createConnection(s.mongo.uri, { dbName }).asPromise();
  const db = conn.db!;
  expect((await db.collection('meta').findOne({ _id: 'built' as never }))!.version).toBe(READ_MODEL_VERSION);
  // As an older release left it: no version on the read model, and (to see the rebuild) rows lost.
  await db.collection('meta').updateOne({ _id: 'built' as never }, { $unset: { version: '' } });
  await db.collection('invoices').deleteMany({});
  await db.collection('daily').deleteMany({});

  const again = await startTestService(AppModule, { service: 'reports', mongoUri: s.mongo.uri, natsUrl: s.nats.url, jwtSecret: SECRET, dbName, migrations });
  s.svc = again;
  expect(await dataVersion(db)).toBe(READ_MODEL_VERSION);
  const consumers = again.app.get(Consumers);
  for (let i = 0; i < 100 && !(await db.collection('meta').findOne({ _id: 'built' as never, version: READ_MODEL_VERSION } as never)); i++) await new Promise((r) => setTimeout(r, 100));
  await consumers.idle();
  await consumers.caughtUp(60_000);
  // 3 bills of 25.50 = 76.50, made again from the streams (each once).
  const res = await request(again.url).get(`/reports/sales-register?from=${D}&to=${D}`).set('Authorization', `Bearer ${tokenFor(1)}`).expect(200);
  expect(res.body.totals).toMatchObject({ count: 3, amount: '76.50' });
}, 120_000);
