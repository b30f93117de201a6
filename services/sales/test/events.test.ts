// Sales' domain events on JetStream (a real nats-server -js, the real inventory and ledger): each
// fact arrives once, with the figures worked out by hand beside it; the history answers the same.
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { JSONCodec } from 'nats';
import { EventStreams, Subjects, type HistoryPageReply, type SaleCancelledEvent, type SaleCompletedEvent, type SaleReturnedEvent } from '@bahi/contracts';
import { Models, type SaleDoc } from '../src/common/schemas';
import { as, category, customer, editProduct, product, startSales, tokenFor, type Stack } from './helpers';

let s: Stack;
let M: ReturnType<typeof as>;
let mgr: string;
let soap: number;
let rice: number;
let cat: number;
let asha: number;
let sales: Model<SaleDoc>;
const codec = JSONCodec<Record<string, unknown>>();

/** Every message of the sales stream: subject, Nats-Msg-Id and payload. */
async function streamEvents(): Promise<{ subject: string; msgId: string | undefined; event: any }[]> {
  const jsm = await s.nc.jetstreamManager();
  const info = await jsm.streams.info(EventStreams.sales.name);
  const out = [];
  for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(EventStreams.sales.name, { seq });
    out.push({ subject: m.subject, msgId: m.header?.get('Nats-Msg-Id'), event: codec.decode(m.data) });
  }
  return out;
}

async function eventsWithId(id: string, ms = 5000): Promise<{ subject: string; msgId: string | undefined; event: any }[]> {
  const end = Date.now() + ms;
  for (;;) {
    const found = (await streamEvents().catch(() => [])).filter((e) => e.event.eventId === id);
    if (found.length || Date.now() > end) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sell(items: [number, string, string?][], clientId: number, paid: string, summary: { tax?: 0 | 1; shipping?: string; discount?: string } = {}): Promise<number> {
  await M.del('/clearCart/1').expect(200);
  for (const [id, qty, disc] of items) {
    const line = (await M.get(`/addProductIntoCart/${encodeURIComponent(`${qty}*${id}`)}?cart_no=1`).expect(200)).body[0][0];
    if (disc) await M.post('/upDisc', { sl_no: line.sl_no, discount: disc, cart_no: 1 }).expect(200);
  }
  await M.post('/upTax', { cart_no: 1, tax: summary.tax ?? 0 }).expect(200);
  await M.post('/upShip', { cart_no: 1, shipping: summary.shipping ?? '0' }).expect(200);
  await M.post('/upSummeryDisc', { cart_no: 1, discount: summary.discount ?? '0' }).expect(200);
  return (await M.post('/MAKE_SALE', { clientId, cart_no: 1, paid }).expect(200)).body.saleId;
}

beforeAll(async () => {
  process.env.BAHI_EVENT_SWEEP_MS = '300';
  s = await startSales();
  sales = s.sales.app.get<Model<SaleDoc>>(getModelToken(Models.Sale));
  mgr = tokenFor(s.companyId, 'manager');
  M = as(s.url, mgr);
  cat = await category(s.inventory.url, mgr, 'Grocery');
  soap = await product(s.inventory.url, mgr, cat, { name: 'Neem Soap', mrp: '50', cp: '31.25', stock: '100' });
  rice = await product(s.inventory.url, mgr, cat, { name: 'Basmati 1kg', mrp: '120', cp: '92.40', stock: '100' });
  asha = await customer(s.ledger.url, mgr, 'Asha Verma', '9876500011');
}, 120_000);
afterAll(() => s?.stop());

describe('sales domain events', () => {
  let saleId: number;

  it('a sale completed arrives once, after the answer, with its lines, frozen cost, amount and paid', async () => {
    // Soap 4 x (50 - 2.50) = 190.00; rice 2 x 120 = 240.00; subtotal 430.00.
    // Tax 18 % of 430 = 77.40; shipping 20.00; summary discount 7.40: amount 430 + 77.40 + 20 - 7.40 = 520.00.
    saleId = await sell([[soap, '4', '2.50'], [rice, '2']], asha, '300', { tax: 1, shipping: '20', discount: '7.40' });
    const got = await eventsWithId(`sale:${s.companyId}:${saleId}:completed`);
    expect(got).toHaveLength(1);
    expect(got[0]!.subject).toBe('events.sales.sale.completed');
    expect(got[0]!.msgId).toBe(`sale:${s.companyId}:${saleId}:completed`);
    const e = got[0]!.event as SaleCompletedEvent;
    expect(e).toMatchObject({ companyId: s.companyId, saleId, clientId: asha, customerName: 'Asha Verma', walkIn: false, subtotal: '430', tax: 1, taxAmount: '77.4', shipping: '20', discount: '7.4', amount: '520', paid: '300', gst: null });
    expect(e.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(e.lines.map((l) => ({ product_id: l.product_id, quantity: l.quantity, units: l.units, rate: l.rate, disc: l.disc, amount: l.amount, cp: l.cp }))).toEqual([
      { product_id: soap, quantity: '4', units: '4', rate: '50', disc: '2.5', amount: '190', cp: '31.25' },
      { product_id: rice, quantity: '2', units: '2', rate: '120', disc: '0', amount: '240', cp: '92.4' },
    ]);
    // Profit's value: 7.40 off by 190 : 240 -> 3.27 (3.2698) and 4.13 (4.1302): 186.73 and 235.87.
    expect(e.lines.map((l) => l.net_value)).toEqual(['186.73', '235.87']);
  });

  it('a later cp change leaves the sale and its event as sold; the next cart line takes the new cp', async () => {
    await editProduct(s.inventory.url, mgr, soap, { catagory: cat, brand_name: 'Acme', name: 'Neem Soap', mrp: '50', cp: '35', unit: 'pcs', per_peice_quantity: 1 });
    // The history answers from the stored sale: the soap line keeps 31.25.
    const page = await s.ask<HistoryPageReply>(Subjects.sales.historyPage, { companyId: s.companyId, source: 'sale', limit: 1000 });
    const again = page.events.find((h) => h.event.eventId === `sale:${s.companyId}:${saleId}:completed`)!.event as SaleCompletedEvent;
    expect(again.lines.map((l) => l.cp)).toEqual(['31.25', '92.4']);
    const streamed = (await eventsWithId(`sale:${s.companyId}:${saleId}:completed`))[0]!.event;
    expect(again).toEqual(streamed);
    // Walk-in, 1 soap: 50.00, paid 50.
    const next = await sell([[soap, '1']], 0, '50');
    const e = (await eventsWithId(`sale:${s.companyId}:${next}:completed`))[0]!.event as SaleCompletedEvent;
    expect(e).toMatchObject({ clientId: 0, walkIn: true, amount: '50', paid: '50' });
    expect(e.lines[0]!.cp).toBe('35');
  });

  it('a credit note and a cancelled bill arrive once each, with their figures and the lines\' frozen cost', async () => {
    // Return 1 of the 2 rice of the first bill: amount 120.00; the rice line's share of the summary discount
    // 7.40 x 240/430 = 4.13, half of it 2.065 -> 2.06 (the pack left keeps 2.07); tax 18 % of 120 = 21.60;
    // value 120 - 2.06 + 21.60 = 139.54.
    const bill = (await M.get(`/getBillDetails?id=${saleId}`).expect(200)).body;
    const riceLine = bill.soldProducts.find((l: { product_id: number }) => l.product_id === rice).sl_no;
    const r = (await M.post('/salesReturn', { saleId, lines: [{ sl_no: riceLine, quantity: 1 }], refund: '0', idempotencyKey: 'ev-return-1' }).expect(200)).body;
    const note = await eventsWithId(`credit-note:${s.companyId}:${r.creditNoteId}:completed`);
    expect(note).toHaveLength(1);
    expect(note[0]!.subject).toBe('events.sales.sale.returned');
    const n = note[0]!.event as SaleReturnedEvent;
    expect(n).toMatchObject({ saleId, clientId: asha, credit_note_no: r.credit_note_no, amount: '139.54', refund: '0' });
    expect(n.lines).toEqual([{ sl_no: riceLine, product_id: rice, product_name: 'Basmati 1kg', quantity: '1', units: '1', amount: '120', value: '139.54', cp: '92.4' }]);

    // Cancel a fresh bill: 3 soap x 50 = 150.00, 100 paid.
    const third = await sell([[soap, '3']], asha, '100');
    await M.post('/cancelSale', { saleId: third, reason: 'Billed twice' }).expect(200);
    const cancelled = await eventsWithId(`sale:${s.companyId}:${third}:cancelled`);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.event as SaleCancelledEvent).toMatchObject({ saleId: third, clientId: asha, reason: 'Billed twice', amount: '150', paid: '100' });
    expect(Number.isSafeInteger((cancelled[0]!.event as SaleCancelledEvent).cancelId)).toBe(true);
    const history = await s.ask<HistoryPageReply>(Subjects.sales.historyPage, { source: 'sale-cancel' });
    expect(history.events.map((h) => h.event.eventId)).toContain(`sale:${s.companyId}:${third}:cancelled`);
  });

  it('with its stream gone a sale still succeeds at once; the sweep recreates the stream and publishes it', async () => {
    const jsm = await s.nc.jetstreamManager();
    await jsm.streams.delete(EventStreams.sales.name);
    // Walk-in, 2 soap x 50 = 100.00, paid 100.
    const started = Date.now();
    const lonely = await sell([[soap, '2']], 0, '100');
    expect(Date.now() - started).toBeLessThan(5000);
    const stored = await sales.collection.findOne({ companyId: s.companyId, saleId: lonely });
    expect(stored).toMatchObject({ status: 'complete', amount: '100' });
    // Published by the sweep (BAHI_EVENT_SWEEP_MS, 300 here) once the relay has made the stream again.
    const got = await eventsWithId(`sale:${s.companyId}:${lonely}:completed`, 10_000);
    expect(got.map((e) => e.event.amount)).toEqual(['100']);
    expect((await jsm.streams.info(EventStreams.sales.name)).config.max_age).toBe(400 * 86_400 * 1e9);
  });

  it('refuses a history page it cannot answer with a clear sentence', async () => {
    await expect(s.ask(Subjects.sales.historyPage, { source: 'invoices' })).rejects.toThrow('Unknown history source "invoices"');
    await expect(s.ask(Subjects.sales.historyPage, { source: 'sale', limit: 0 })).rejects.toThrow('limit must be a whole number from 1 to 1000.');
  });
});
