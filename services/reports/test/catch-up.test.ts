// Catching up after a kill: what a killed reports process had been delivered but not acked comes
// again after the consumer's short ack_wait (not 30 s); a batch slower than ack_wait is kept ours
// by `working()` heartbeats, so it is not redelivered under it; a consumer made with the old
// ack_wait is updated at start.
import { nanos } from 'nats';
import request from 'supertest';
import { EventStreams, EventSubjects as E } from '@bahi/contracts';
import { today } from '@bahi/service-kit';
import { startTestService } from '@bahi/service-kit/testing';
import { AppModule } from '../src/app.module';
import { ACK_WAIT_MS, Consumers, durableOf } from '../src/consumers';
import { Projector } from '../src/projector';
import { SECRET, startReports, tokenFor, type Stack } from './helpers';

const D = today();
const SALES = EventStreams.sales.name;
const sale = (saleId: number, amount: string) => ({
  eventId: `sale:1:${saleId}:completed`, companyId: 1, occurredAt: new Date().toISOString(), date: D, saleId, clientId: 0, customerName: 'Walk-in', walkIn: true,
  lines: [{ sl_no: 1, product_id: 1, product_name: 'Rice', unit: 'pcs', quantity: '1', per_peice_quantity: '1', units: '1', rate: amount, disc: '0', amount, cp: '1.00', taxable_value: null, gst_rate: null, cgst: null, sgst: null, igst: null }],
  subtotal: amount, tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount, paid: amount, dueDate: D, gst: null,
});

let s: Stack;
afterAll(() => s?.stop());

const register = async () => (await request(s.svc.url).get(`/reports/sales-register?from=${D}&to=${D}`).set('Authorization', `Bearer ${tokenFor(1)}`).expect(200)).body.totals;

it('a consumer made with a 30 s ack_wait is updated at start; bills a killed process held come again within seconds; a batch slower than ack_wait is not redelivered under it', async () => {
  s = await startReports();
  await s.consumers.caughtUp(30_000);
  const jsm = await s.nc.jetstreamManager();
  expect((await jsm.consumers.info(SALES, durableOf(SALES))).config.ack_wait).toBe(nanos(ACK_WAIT_MS));

  // A read model whose consumer was made before, with a 30 s ack_wait: set to ACK_WAIT_MS when the service starts.
  const dbName = s.svc.config.dbName;
  const restart = async () => {
    await s.svc.close();
    s.svc = await startTestService(AppModule, { service: 'reports', mongoUri: s.mongo.uri, natsUrl: s.nats.url, jwtSecret: SECRET, dbName });
    s.consumers = s.svc.app.get(Consumers);
  };
  await jsm.consumers.update(SALES, durableOf(SALES), { ack_wait: nanos(30_000) });
  await restart();
  const ackWait = async () => (await jsm.consumers.info(SALES, durableOf(SALES))).config.ack_wait;
  for (let i = 0; i < 100 && (await ackWait()) !== nanos(ACK_WAIT_MS); i++) await new Promise((r) => setTimeout(r, 100));
  expect(await ackWait()).toBe(nanos(ACK_WAIT_MS));

  // A process that took two bills from the consumer and was killed before acking them (this test's
  // connection pulls them while the service is stopped): they come back once ACK_WAIT_MS is out.
  await s.svc.close();
  for (let i = 1; i <= 2; i++) await s.publish(E.sales.saleCompleted, sale(i, '10.00'));
  const dead = await s.nc.jetstream().consumers.get(SALES, durableOf(SALES));
  const held = [await dead.next({ expires: 5_000 }), await dead.next({ expires: 5_000 })];
  expect(held.map((m) => m?.json<{ saleId: number }>().saleId)).toEqual([1, 2]);
  const t0 = Date.now();
  s.svc = await startTestService(AppModule, { service: 'reports', mongoUri: s.mongo.uri, natsUrl: s.nats.url, jwtSecret: SECRET, dbName });
  s.consumers = s.svc.app.get(Consumers);
  await s.consumers.caughtUp(60_000);
  const ms = Date.now() - t0;
  process.stdout.write(`two bills held by a killed consumer applied ${ms} ms after the restart (ack_wait ${ACK_WAIT_MS} ms)\n`);
  // 2 bills x 10.00 = 20.00, each once.
  expect(await register()).toMatchObject({ count: 2, amount: '20.00' });
  // Within ack_wait and a few seconds of start-up, far from the 30 s it took before.
  expect(ms).toBeLessThan(ACK_WAIT_MS + 5_000);

  // A batch that takes twice ack_wait: heartbeats keep it ours, so JetStream does not redeliver it meanwhile.
  const projector = s.svc.app.get(Projector);
  const apply = projector.applyBatch.bind(projector);
  let slowed = false;
  projector.applyBatch = async (facts) => {
    if (!slowed && facts.some((f) => f.eventId === 'sale:1:3:completed')) {
      slowed = true;
      await new Promise((r) => setTimeout(r, 2 * ACK_WAIT_MS));
    }
    return apply(facts);
  };
  // Every delivery, redeliveries included, moves the consumer's sequence: one bill, one delivery.
  const before = (await jsm.consumers.info(SALES, durableOf(SALES))).delivered.consumer_seq;
  await s.publish(E.sales.saleCompleted, sale(3, '10.00'));
  await new Promise((r) => setTimeout(r, 500));
  await s.consumers.caughtUp(60_000);
  expect(slowed).toBe(true);
  expect((await jsm.consumers.info(SALES, durableOf(SALES))).delivered.consumer_seq).toBe(before + 1);
  // 3 bills x 10.00 = 30.00.
  expect(await register()).toMatchObject({ count: 3, amount: '30.00' });
}, 180_000);
