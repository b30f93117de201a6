// Inventory's domain events on JetStream (a real nats-server -js): stock moved per applied and
// reversed source, product changed per write; each once, with exact figures; the history answers the same.
import { JSONCodec } from 'nats';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection, mongo } from 'mongoose';
import { RELAY_COMMENT } from '@bahi/service-kit';
import { EventStreams, Subjects, type HistoryPageReply, type ProductChangedEvent, type StockMovedEvent } from '@bahi/contracts';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';
import request from 'supertest';

let s: Stack;
const M = token(41, 'manager');
const codec = JSONCodec<any>();
/** The relay's commands (RELAY_COMMENT): `<command> <collection>`. */
const relayCommands: string[] = [];

async function streamEvents(): Promise<{ subject: string; msgId: string | undefined; event: any }[]> {
  const jsm = await s.nc.jetstreamManager();
  const info = await jsm.streams.info(EventStreams.inventory.name);
  const out: { subject: string; msgId: string | undefined; event: any }[] = [];
  for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(EventStreams.inventory.name, { seq });
    out.push({ subject: m.subject, msgId: m.header?.get('Nats-Msg-Id'), event: codec.decode(m.data) });
  }
  return out;
}

/** The stream's events matching `pick`, once at least `n` are there (or after the wait). */
async function waitFor(pick: (e: { subject: string; event: any }) => boolean, n = 1, ms = 5000) {
  const end = Date.now() + ms;
  for (;;) {
    const found = (await streamEvents().catch(() => [])).filter(pick);
    if (found.length >= n || Date.now() > end) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  s = await startInventory({ monitorCommands: true });
  s.svc.app
    .get<Connection>(getConnectionToken())
    .getClient()
    .on('commandStarted', (e: mongo.CommandStartedEvent) => {
      if (e.command.comment === RELAY_COMMENT) relayCommands.push(`${e.commandName} ${String(e.command[e.commandName])}`);
    });
  // Stands in for identity's company details (simple mode): the import asks for the tax mode.
  s.nc.subscribe(Subjects.identity.companyDetails, {
    callback: (_e, msg) => {
      const req = JSONCodec().decode(msg.data) as { id: string; data: { companyId: number } };
      msg.respond(JSONCodec().encode({ id: req.id, response: { id: req.data.companyId, name: 'Company', add1: '', add2: '', mob1: '', mob2: '', email: '', logo: null, upiId: null }, isDisposed: true }));
    },
  });
  await s.nc.flush();
}, 60_000);
afterAll(() => s?.stop());

describe('inventory domain events', () => {
  let soap: number;
  let cat: number;

  it('a new product and each edit publish product.changed with its figures; the last write wins', async () => {
    cat = await makeCategory(s.url, M, 'Bath');
    soap = await makeProduct(s.url, M, { catagory: cat, name: 'Neem Soap', mrp: '50', cp: '31.25', unit: 'pcs' });
    const created = await waitFor((e) => e.subject === 'events.inventory.product.changed' && e.event.product_id === soap);
    expect(created).toHaveLength(1);
    expect(created[0]!.event as ProductChangedEvent).toMatchObject({ companyId: 41, product_name: 'Neem Soap', category: { id: cat, name: 'Bath' }, brand_name: 'Acme', unit: 'pcs', cp: '31.25', mrp: '50.00', stock: '0', active: 1 });
    const edit = await request(s.url).post('/editProduct').set(auth(M)).send({ product_id: soap, catagory: cat, brand_name: 'Acme', name: 'Neem Soap', mrp: '52', cp: '33', unit: 'pcs', per_peice_quantity: 1, min_stock: 5 });
    expect(edit.status).toBe(200);
    const both = await waitFor((e) => e.subject === 'events.inventory.product.changed' && e.event.product_id === soap, 2);
    expect(both.map((e) => [e.event.cp, e.event.mrp, e.event.min_stock])).toEqual([
      ['31.25', '50.00', '0'],
      ['33.00', '52.00', '5'],
    ]);
    expect(new Set(both.map((e) => e.event.eventId)).size).toBe(2);
  });

  it('a stock source applied publishes stock.moved once (a retried apply adds nothing); its reverse publishes reversed', async () => {
    const source = { kind: 'purchase', id: 9001 };
    relayCommands.length = 0;
    // In: 12 soap at 33.00; the stock goes 0 -> 12.
    const r = await s.ask(Subjects.inventory.stockApply, { companyId: 41, source, lines: [{ product_id: soap, quantity: '12', rate: '33' }] });
    expect(r.applied).toBe(true);
    const again = await s.ask(Subjects.inventory.stockApply, { companyId: 41, source, lines: [{ product_id: soap, quantity: '12', rate: '33' }] });
    expect(again.applied).toBe(false);
    const applied = await waitFor((e) => e.event.eventId === 'stock:41:purchase:9001:applied');
    await new Promise((r) => setTimeout(r, 300));
    expect(await waitFor((e) => e.event.eventId === 'stock:41:purchase:9001:applied', 2, 100)).toHaveLength(1);
    expect(applied[0]!.msgId).toBe('stock:41:purchase:9001:applied');
    expect(applied[0]!.event as StockMovedEvent).toMatchObject({ fact: 'applied', source, movements: [{ product_id: soap, line: 1, quantity: '12', rate: '33.00', stock: '12' }] });
    expect((await s.ask(Subjects.inventory.stockReverse, { companyId: 41, source })).reversed).toBe(true);
    const reversed = await waitFor((e) => e.event.eventId === 'stock:41:purchase:9001:reversed');
    // Out again: 12 - 12 = 0.
    expect(reversed.map((e) => e.event)).toEqual([expect.objectContaining({ fact: 'reversed', source, movements: [{ product_id: soap, line: 1, quantity: '-12', rate: '33.00', stock: '0' }] })]);
    // The apply and the reverse handed their record and movements to the relay: it cleared them
    // and looked nothing up (a sweep meanwhile, which looks up every source, purchases too, may).
    const sweeps = relayCommands.filter((c) => c === 'find purchases').length;
    const clears = relayCommands.filter((c) => c === 'update stock_sources').length;
    expect(clears).toBeGreaterThanOrEqual(2);
    expect(clears).toBeLessThanOrEqual(2 + sweeps);
    expect(relayCommands.filter((c) => c === 'find stock_sources')).toHaveLength(sweeps);
    expect(relayCommands.filter((c) => c === 'find movements').length).toBeLessThanOrEqual(sweeps);
  });

  it('a CSV import publishes product.changed for each product and stock.moved for each opening stock (by the sweep)', async () => {
    const csv = ['Name,Brand,Category,MRP,Cost,Unit,Stock', 'Shikakai Soap,Medimix,Bath,40,28.50,pcs,24', 'Amla Oil,Dabur,Bath,95,70,btl,0'].join('\n');
    const up = await request(s.url).post('/imports/products').set(auth(M)).attach('file', Buffer.from(csv), 'items.csv');
    expect(up.status).toBe(200);
    const run = await request(s.url).post(`/imports/products/${up.body.id}/run`).set(auth(M)).send({ mapping: { name: 0, brand_name: 1, category: 2, mrp: 3, cp: 4, unit: 5, stock: 6 }, mode: 'all' });
    expect(run.status).toBe(202);
    let st = { state: 'running', message: '' };
    for (let i = 0; i < 200 && st.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      st = (await request(s.url).get(`/imports/products/${up.body.id}`).set(auth(M))).body;
    }
    expect([st.state, st.message]).toEqual(['done', null]);
    const changed = await waitFor((e) => e.subject === 'events.inventory.product.changed' && ['Shikakai Soap', 'Amla Oil'].includes(e.event.product_name), 2, 10_000);
    expect(changed.map((e) => [e.event.product_name, e.event.cp, e.event.stock]).sort()).toEqual([
      ['Amla Oil', '70.00', '0'],
      ['Shikakai Soap', '28.50', '24'],
    ]);
    const shikakai = changed.find((e) => e.event.product_name === 'Shikakai Soap')!.event.product_id;
    // One opening-stock adjustment of 24 at its cost 28.50; none for the oil (stock 0).
    const moved = await waitFor((e) => e.subject === 'events.inventory.stock.moved' && e.event.source.kind === 'adjustment' && e.event.movements[0].product_id === shikakai, 1, 10_000);
    expect(moved.map((e) => e.event.movements)).toEqual([[{ product_id: shikakai, line: 1, quantity: '24', rate: '28.50', stock: '24' }]]);
  });

  it('the history pages answer the same events from the records, for one company or all', async () => {
    const stock = await s.ask<HistoryPageReply>(Subjects.inventory.historyPage, { companyId: 41, source: 'stock' });
    const streamed = await streamEvents();
    for (const id of ['stock:41:purchase:9001:applied', 'stock:41:purchase:9001:reversed'])
      expect(stock.events.find((h) => h.event.eventId === id)?.event).toEqual(streamed.find((e) => e.event.eventId === id)!.event);
    const products = await s.ask<HistoryPageReply>(Subjects.inventory.historyPage, { source: 'product', limit: 10 });
    expect(products.events.map((h) => (h.event as ProductChangedEvent).product_id)).toContain(soap);
    expect((await s.ask<HistoryPageReply>(Subjects.inventory.historyPage, { companyId: 42, source: 'product' })).events).toEqual([]);
    await expect(s.ask(Subjects.inventory.historyPage, { source: 'sales' })).rejects.toThrow('Unknown history source "sales"');
  });
});
