import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startNats, type NatsHandle } from '@bahi/devstack';
import { EventSubjects as E } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import request from 'supertest';
import { startTestService } from '@bahi/service-kit/testing';
import { AppModule } from '../src/app.module';
import { Consumers } from '../src/consumers';
import { SECRET, startReports, tokenFor, type Stack } from './helpers';

const D = today();
const sale = (saleId: number, amount: string) => ({
  eventId: `sale:1:${saleId}:completed`, companyId: 1, occurredAt: new Date().toISOString(), date: D, saleId, clientId: 0, customerName: 'Walk-in', walkIn: true,
  lines: [{ sl_no: 1, product_id: 1, product_name: 'Rice', unit: 'pcs', quantity: '1', per_peice_quantity: '1', units: '1', rate: amount, disc: '0', amount, cp: '1.00', taxable_value: null, gst_rate: null, cgst: null, sgst: null, igst: null }],
  subtotal: amount, tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount, paid: amount, dueDate: D, gst: null,
});

let s: Stack;
let natsAgain: NatsHandle | null = null;
const store = fs.mkdtempSync(path.join(os.tmpdir(), 'reports-js-'));

afterAll(async () => {
  await s?.svc.close();
  await s?.nc.close();
  await natsAgain?.stop();
  await s?.mongo.stop();
  fs.rmSync(store, { recursive: true, force: true });
});

it('loses and doubles nothing when NATS, then the reports service, stop and come back', async () => {
  const port = await freePort();
  s = await startReports([], { port, storeDir: store });
  await s.consumers.caughtUp(30_000);
  for (let i = 1; i <= 5; i++) await s.publish(E.sales.saleCompleted, sale(i, '10.00'));
  await s.consumers.caughtUp(30_000);
  // NATS goes away (its stream and the durable consumer's position are on disk) and comes back on the same port.
  await s.nats.stop();
  await new Promise((r) => setTimeout(r, 1500));
  natsAgain = await startNats({ port, storeDir: store });
  // The publisher retries until NATS and its JetStream are back (as the owners' relays do); the
  // last two bills come after the restart, one of them twice.
  const publish = async (...args: Parameters<Stack['publish']>) => {
    for (let i = 0; ; i++) {
      try {
        return await s.publish(...args);
      } catch (err) {
        if (i > 60) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  for (let i = 6; i <= 7; i++) await publish(E.sales.saleCompleted, sale(i, '10.00'));
  await publish(E.sales.saleCompleted, sale(6, '10.00'), 'sent-again');
  await s.consumers.caughtUp(60_000);
  const res = await s.get(`/reports/sales-register?from=${D}&to=${D}`).expect(200);
  // 7 bills of 10.00 = 70.00, each once.
  expect(res.body.totals).toMatchObject({ count: 7, amount: '70.00', paid: '70.00' });

  // The reports service stops; two bills are made meanwhile; it starts again on its database and
  // goes on from its durable consumers' position: 9 bills, 90.00, nothing counted twice.
  const dbName = s.svc.config.dbName;
  await s.svc.close();
  for (let i = 8; i <= 9; i++) await publish(E.sales.saleCompleted, sale(i, '10.00'));
  const again = await startTestService(AppModule, { service: 'reports', mongoUri: s.mongo.uri, natsUrl: natsAgain.url, jwtSecret: SECRET, dbName });
  s.svc = again;
  await again.app.get(Consumers).caughtUp(60_000);
  const after = await request(again.url).get(`/reports/sales-register?from=${D}&to=${D}`).set('Authorization', `Bearer ${tokenFor(1)}`).expect(200);
  expect(after.body.totals).toMatchObject({ count: 9, amount: '90.00' });
}, 120_000);
