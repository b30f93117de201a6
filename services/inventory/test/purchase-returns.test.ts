import request from 'supertest';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { Subjects, type DebitNoteDetails, type DebitNoteListReply, type GetPurchaseDetailsReply, type GstInwardReply, type HistoryReply, type PurchaseReturnReply } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { financialYearOf, today } from '@bahi/service-kit';
import { AppModule } from '../src/app.module';
import { DEBIT_NOTE_MODEL, type DebitNoteDoc } from '../src/purchases/debit-note.schema';
import { DebitNotesService } from '../src/purchases/debit-notes.service';
import { PURCHASE_MODEL, type PurchaseDoc } from '../src/purchases/purchase.schema';
import { Movement } from '../src/schemas';
import { auth, makeCategory, makeProduct, SECRET, token } from './helpers';

// ledger and sales run in-process from their builds (they are not dependencies of inventory).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: LedgerModule } = require('@bahi/ledger/dist/app.module') as { AppModule: unknown };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: SalesModule } = require('@bahi/sales/dist/app.module') as { AppModule: unknown };

// Purchase returns (debit notes): figures to the paisa against hand arithmetic, stock and the
// distributor's due moved once, all or nothing, and the input tax netted for GSTR-3B.

const MH_COMPANY = '27AAPFU0939F1ZV';
const MH_GSTIN = '27AAACB1234C1ZF';
const GJ_GSTIN = '24AAGCS5678K1ZT';
const SIMPLE = 1;
const GST = 2;
const COMPANIES: Record<number, Record<string, unknown>> = {
  [SIMPLE]: {},
  [GST]: { tax_mode: 'gst', gstin: MH_COMPANY, state_code: '27', invoice_prefix: 'GT' },
};

let mongo: MongoHandle;
let nats: NatsHandle;
let inv: TestService;
let ledger: TestService;
let sales: TestService;
let nc: NatsConnection;
let purchases: Model<PurchaseDoc>;
let notes: Model<DebitNoteDoc>;
let movements: Model<Movement>;
const tag = Math.random().toString(36).slice(2, 8);
const opts = (service: 'inventory' | 'ledger' | 'sales') => ({ service, mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: SECRET, dbName: `bahi_${service}_${tag}` });
const ask = <R = any>(subject: string, data: unknown) => nestRequest<R>(nc, subject, data) as Promise<R>;

const M = token(SIMPLE, 'manager');
const STAFF = token(SIMPLE, 'staff');
const G = token(GST, 'manager');
const p: Record<string, number> = {};
const d: Record<string, number> = {};
const FY = financialYearOf(today());

const inAs = (t: string) => ({
  get: (path: string) => request(inv.url).get(path).set(auth(t)),
  post: (path: string, body: object, headers: Record<string, string> = {}) => request(inv.url).post(path).set(auth(t)).set(headers).send(body),
});
const cart = (t: string) => ({
  get: (path: string) => request(sales.url).get(path).set(auth(t)),
  post: (path: string, body: object) => request(sales.url).post(path).set(auth(t)).send(body),
});
const stockOf = async (companyId: number, id: number) => (await ask(Subjects.inventory.productLookup, { companyId, code: String(id) })).stock as string;
const dueOf = async (companyId: number, id: number) => (await ask(Subjects.ledger.partyDue, { companyId, party: { kind: 'distributor', id } })).due as string;
const future = () => {
  const x = new Date(`${today()}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + 30);
  return x.toISOString().slice(0, 10);
};
let keyN = 0;
const key = () => `dn-${tag}-${++keyN}`;

async function fill(t: string, lines: [number, number, string?][], extra: { tax?: 0 | 1; shipping?: string; discount?: string } = {}) {
  for (const [q, id, disc] of lines) {
    const r = await cart(t).get(`/addProductIntoCart/${encodeURIComponent(`${q}*${id}`)}`).expect(200);
    if (disc) await cart(t).post('/upDisc/', { sl_no: r.body[0][0].sl_no, discount: disc }).expect(200);
  }
  if (extra.tax !== undefined) await cart(t).post('/upTax/', { cart_no: 1, tax: extra.tax }).expect(200);
  if (extra.shipping) await cart(t).post('/upShip/', { cart_no: 1, shipping: extra.shipping }).expect(200);
  if (extra.discount) await cart(t).post('/upSummeryDisc/', { cart_no: 1, discount: extra.discount }).expect(200);
}

async function buy(t: string, distributor: number, paid = '0'): Promise<number> {
  const r = await inAs(t).post('/checkOutPurchase', { bill_no: `B-${++keyN}`, distributor, officer: '', paid, due_date: future(), cart_no: 1 });
  if (r.status !== 200) throw new Error(`purchase: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body[0].purchaseId;
}

const details = async (t: string, id: number) => (await inAs(t).get(`/getPurchaseDetails?purchaseId=${id}`).expect(200)).body as GetPurchaseDetailsReply;
const noteOf = async (t: string, id: number) => (await inAs(t).get(`/getDebitNoteDetails?id=${id}`).expect(200)).body as DebitNoteDetails;
/** sl_no of each line of a purchase, in cart order. */
const slNos = async (t: string, id: number) => (await details(t, id)).lines.map((l) => l.sl_no);
const giveBack = (t: string, purchaseId: number, lines: [number, number | string][], refund: number | string = 0, k = key()) =>
  inAs(t).post('/purchaseReturn', { purchaseId, lines: lines.map(([sl_no, quantity]) => ({ sl_no, quantity })), refund, idempotencyKey: k, reason: 'Damaged' });

async function distributor(t: string, name: string, fields: Record<string, unknown>): Promise<number> {
  const r = await request(ledger.url)
    .post('/addDistributor')
    .set(auth(t))
    .send({ name, address_line_1: '1 Market Road', address_line_2: '', city_or_district: 'Town', country: 'India', postal_code: '400001', officers: [], ...fields });
  if (r.status !== 200) throw new Error(`distributor: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

beforeAll(async () => {
  process.env.BAHI_DEMO = '0';
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  nc = await connect({ servers: nats.url });
  const jc = JSONCodec();
  nc.subscribe(Subjects.identity.sessionRevocations, {
    callback: (_e, msg) => msg.respond(jc.encode({ id: (jc.decode(msg.data) as { id?: string }).id, response: { revocations: [] } })),
  });
  nc.subscribe(Subjects.identity.companyDetails, {
    callback: (_e, msg) => {
      const req = jc.decode(msg.data) as { id: string; data: { companyId: number } };
      const c = req.data.companyId;
      msg.respond(jc.encode({ id: req.id, response: { id: c, name: `Company ${c}`, add1: '', add2: '', mob1: '', mob2: '', email: '', logo: null, upiId: null, ...COMPANIES[c] }, isDisposed: true }));
    },
  });
  await nc.flush();
  inv = await startTestService(AppModule, opts('inventory'));
  ledger = await startTestService(LedgerModule, opts('ledger'));
  sales = await startTestService(SalesModule, opts('sales'));
  purchases = inv.app.get(getModelToken(PURCHASE_MODEL));
  notes = inv.app.get(getModelToken(DEBIT_NOTE_MODEL));
  movements = inv.app.get(getModelToken(Movement.name));

  const cat = await makeCategory(inv.url, M, 'Grocery');
  p.rice = await makeProduct(inv.url, M, { catagory: cat, name: 'Basmati Rice 5kg', brand_name: 'India Gate', mrp: '650', cp: '540' });
  p.dal = await makeProduct(inv.url, M, { catagory: cat, name: 'Toor Dal', brand_name: 'Tata', unit: 'kg', mrp: '160', cp: '132.5', per_peice_quantity: '2.5' });
  p.oil = await makeProduct(inv.url, M, { catagory: cat, name: 'Mustard Oil 1L', mrp: '200', cp: '150' });
  d.gupta = await distributor(M, 'Gupta Wholesale', { state: 'WB' });

  const g = await makeCategory(inv.url, G, 'Goods');
  p.sugar = await makeProduct(inv.url, G, { catagory: g, name: 'Sugar 50kg', mrp: '2400', cp: '2000', tax: '5', hsn_code: '1701' });
  p.mixer = await makeProduct(inv.url, G, { catagory: g, name: 'Mixer', mrp: '2500', cp: '1500.50', tax: '18', hsn_code: '8509' });
  p.bulb = await makeProduct(inv.url, G, { catagory: g, name: 'Bulb', mrp: '150', cp: '100', tax: '12', hsn_code: '8539' });
  p.fan = await makeProduct(inv.url, G, { catagory: g, name: 'Fan', mrp: '900', cp: '600', tax: '28', hsn_code: '84145110' });
  d.mumbai = await distributor(G, 'Mumbai Wholesale', { state: 'MH', gstin: MH_GSTIN });
  d.surat = await distributor(G, 'Surat Traders', { state: 'Gujarat', gstin: GJ_GSTIN });
  d.corner = await distributor(G, 'Corner Supplier', { state: 'MH' });
}, 120_000);

afterAll(async () => {
  await nc?.close();
  for (const svc of [sales, ledger, inv]) await svc?.close().catch(() => undefined);
  await nats?.stop();
  await mongo?.stop();
});

const ids: Record<string, number> = {};
const dn: Record<string, PurchaseReturnReply> = {};

describe('purchase return in simple mode', () => {
  // Rice 10 x 540.00 = 5400.00; Dal 4 packs of 2.5 kg at (132.50 - 0.25) = 10 kg x 132.25 = 1322.50.
  // Subtotal 6722.50; 18 % tax = 1210.05; shipping 150.50; summary discount 73.05.
  // Total 6722.50 + 1210.05 + 150.50 - 73.05 = 8010.00; paid 1000.00, so the due is 7010.00.
  // A line's full value = amount - discount share + tax share, the shares in proportion to amounts:
  //   Rice: 5400 - 73.05 x 5400 / 6722.50 (58.6791) + 1210.05 x 5400 / 6722.50 (972.00) = 6313.3209
  //   Dal:  1322.50 - 14.3709 + 238.05 = 1546.1791
  it('a first partial return: 3 of 10 rice at their share, stock out at the purchase rate, due down', async () => {
    await fill(M, [[10, p.rice], [4, p.dal, '0.25']], { tax: 1, shipping: '150.50', discount: '73.05' });
    const riceBefore = await stockOf(SIMPLE, p.rice);
    ids.simple = await buy(M, d.gupta, '1000');
    expect(await details(M, ids.simple)).toMatchObject({ subTotal: 6722.5, taxAmount: 1210.05, total: 8010, paid: 1000 });
    expect(await dueOf(SIMPLE, d.gupta)).toBe('7010');
    const [rice] = await slNos(M, ids.simple);

    // Rice 3/10: subtotal 1620.00; discount 58.6791 x 0.3 = 17.6037 -> 17.60; tax 972.00 x 0.3 = 291.60;
    // value 6313.3209 x 0.3 = 1893.9963 -> 1894.00. No shipping (not everything came back).
    const r = await giveBack(M, ids.simple, [[rice, 3]]);
    expect(r.status).toBe(200);
    dn.first = r.body;
    expect(r.body).toEqual({ success: true, debitNoteId: expect.any(Number), debit_note_no: `DN/${FY}/0001`, amount: 1894, refund: 0, warnings: [] });
    const n = await noteOf(M, r.body.debitNoteId);
    expect(n).toMatchObject({ purchaseId: ids.simple, name: 'Gupta Wholesale', reason: 'Damaged', subtotal: 1620, discount: 17.6, tax: 291.6, shipping: 0, amount: 1894, refund: 0, gst: null });
    expect(n.lines).toEqual([
      expect.objectContaining({ sl_no: rice, product_id: p.rice, quantity: 3, per_peice_quantity: 1, rate: 540, disc: 0, amount: 1620, value: 1894, taxable_value: null }),
    ]);
    // 7010.00 - 1894.00 = 5116.00; stock 10 in, 3 out at 540.00 a unit.
    expect(await dueOf(SIMPLE, d.gupta)).toBe('5116');
    expect(Number(await stockOf(SIMPLE, p.rice)) - Number(riceBefore)).toBe(7);
    const out = await movements.find({ companyId: SIMPLE, kind: 'purchase-return', source_id: r.body.debitNoteId }).lean();
    expect(out.map((m) => [m.product_id, m.qty_m, m.rate_p])).toEqual([[p.rice, -3000, 54000]]);
  });

  it('a second partial return of two lines with a refund', async () => {
    const [rice, dal] = await slNos(M, ids.simple);
    // Rice 2/10: 1080.00, discount 11.7358 -> 11.74, tax 194.40, value 1262.6642 -> 1262.66.
    // Dal 1/4: 330.625 -> 330.63, discount 3.5927 -> 3.59, tax 59.5125 -> 59.51, value 386.5448 -> 386.54.
    // Amount 1262.66 + 386.54 = 1649.20; the distributor pays 100.00 back: due 5116.00 - (1649.20 - 100.00) = 3566.80.
    const r = await giveBack(M, ids.simple, [[rice, 2], [dal, 1]], '100');
    expect(r.status).toBe(200);
    dn.second = r.body;
    expect(r.body).toMatchObject({ debit_note_no: `DN/${FY}/0002`, amount: 1649.2, refund: 100 });
    const n = await noteOf(M, r.body.debitNoteId);
    expect(n).toMatchObject({ subtotal: 1410.63, discount: 15.33, tax: 253.91, shipping: 0, amount: 1649.2, refund: 100 });
    expect(n.lines.map((l) => [l.sl_no, l.quantity, l.amount, l.value])).toEqual([
      [rice, 2, 1080, 1262.66],
      [dal, 1, 330.63, 386.54],
    ]);
    expect(await dueOf(SIMPLE, d.gupta)).toBe('3566.8');
    // Dal leaves as 1 pack x 2.5 kg = 2.5 kg at 132.25.
    const out = await movements.find({ companyId: SIMPLE, kind: 'purchase-return', source_id: r.body.debitNoteId }).sort({ line: 1 }).lean();
    expect(out.map((m) => [m.product_id, m.qty_m, m.rate_p])).toEqual([
      [p.rice, -2000, 54000],
      [p.dal, -2500, 13225],
    ]);
    const det = await details(M, ids.simple);
    expect(det.returns).toEqual([
      { sl_no: rice, sold: 10, returned: 5, returnable: 5 },
      { sl_no: dal, sold: 4, returned: 1, returnable: 3 },
    ]);
  });

  it('refuses more than bought minus returned, an unknown line, a refund above the value, and changes nothing', async () => {
    const [rice, dal] = await slNos(M, ids.simple);
    const before = { due: await dueOf(SIMPLE, d.gupta), rice: await stockOf(SIMPLE, p.rice), notes: await notes.countDocuments({}) };
    const cases: [Parameters<typeof giveBack>[2], number | string, string][] = [
      [[[rice, 6]], 0, `Line ${rice} (Basmati Rice 5kg): 6 is more than can be returned (bought 10, returned 5, so at most 5).`],
      [[[999, 1]], 0, `lines[0]: purchase ${ids.simple} has no line 999.`],
      [[[dal, 0]], 0, `Line ${dal} (Toor Dal): quantity must be more than 0.`],
      [[[dal, 'x']], 0, `Line ${dal} (Toor Dal): quantity must be a number.`],
      [[[rice, 1], [rice, 1]], 0, `Line ${rice} (Basmati Rice 5kg) is named twice.`],
      [[], 0, 'lines must list at least one line of the purchase to return.'],
      // Rice 1/10: 631.3321 -> 631.33
      [[[rice, 1]], '631.34', "The refund (631.34) is more than the debit note's value (631.33)."],
      [[[rice, 1]], '-1', 'refund cannot be negative.'],
    ];
    for (const [lines, refund, message] of cases) {
      const r = await giveBack(M, ids.simple, lines, refund);
      expect([r.status, r.body.message]).toEqual([400, message]);
    }
    expect((await inAs(M).post('/purchaseReturn', { purchaseId: ids.simple, lines: [{ sl_no: rice, quantity: 1 }], refund: 0 })).body.message).toMatch(/^idempotencyKey is required/);
    expect((await giveBack(M, 99999, [[1, 1]])).status).toBe(404);
    // Another company's purchase is not found; staff may not return.
    expect((await giveBack(G, ids.simple, [[rice, 1]])).status).toBe(404);
    expect((await giveBack(STAFF, ids.simple, [[rice, 1]])).status).toBe(403);
    expect({ due: await dueOf(SIMPLE, d.gupta), rice: await stockOf(SIMPLE, p.rice), notes: await notes.countDocuments({}) }).toEqual(before);
  });

  it('the completing return takes the remainders and the shipping: the notes add up to the purchase total', async () => {
    const [rice, dal] = await slNos(M, ids.simple);
    // Rice: its value 6313.32 less 1894.00 and 1262.66 = 3156.66 (subtotal 5400 - 1620 - 1080 = 2700.00).
    // Dal: 1546.18 - 386.54 = 1159.64. Shipping 150.50 comes back with the last goods.
    // Amount = total 8010.00 - 1894.00 - 1649.20 = 4466.80 = 3156.66 + 1159.64 + 150.50.
    const r = await giveBack(M, ids.simple, [[rice, 5], [dal, 3]]);
    expect(r.status).toBe(200);
    dn.third = r.body;
    expect(r.body).toMatchObject({ debit_note_no: `DN/${FY}/0003`, amount: 4466.8 });
    const n = await noteOf(M, r.body.debitNoteId);
    expect(n).toMatchObject({ subtotal: 3691.87, shipping: 150.5, amount: 4466.8 });
    expect(n.lines.map((l) => [l.sl_no, l.value])).toEqual([
      [rice, 3156.66],
      [dal, 1159.64],
    ]);
    // 1894.00 + 1649.20 + 4466.80 = 8010.00, the purchase total.
    const det = await details(M, ids.simple);
    expect(det.debitNotes!.map((x) => x.amount).reduce((a, b) => a + b, 0)).toBeCloseTo(8010, 6);
    expect(det.debitNotes!.map((x) => x.debit_note_no)).toEqual([`DN/${FY}/0001`, `DN/${FY}/0002`, `DN/${FY}/0003`]);
    expect(det.returns!.every((l) => l.returnable === 0)).toBe(true);
    // Paid 1000.00, 100.00 came back, everything returned: the distributor owes 900.00.
    expect(await dueOf(SIMPLE, d.gupta)).toBe('-900');
    expect((await giveBack(M, ids.simple, [[rice, 1]])).body.message).toBe(`Line ${rice} (Basmati Rice 5kg): 1 is more than can be returned (bought 10, returned 10, so at most 0).`);
  });

  it('lists notes newest first, shows them on the distributor account, and serves the document data', async () => {
    const list = (await inAs(M).get('/getDebitNoteList?pageNo=0').expect(200)).body as DebitNoteListReply;
    expect(list.noOfPages).toBe(1);
    expect(list.list.map((x) => [x.debit_note_no, x.Amount, x.Refund, x.Distributors, x.purchaseId])).toEqual([
      [`DN/${FY}/0003`, 4466.8, 0, 'Gupta Wholesale', ids.simple],
      [`DN/${FY}/0002`, 1649.2, 100, 'Gupta Wholesale', ids.simple],
      [`DN/${FY}/0001`, 1894, 0, 'Gupta Wholesale', ids.simple],
    ]);
    expect((await inAs(G).get('/getDebitNoteList?pageNo=0').expect(200)).body.list).toEqual([]);
    expect((await inAs(G).get(`/getDebitNoteDetails?id=${dn.first.debitNoteId}`)).status).toBe(404);
    expect((await inAs(STAFF).get('/getDebitNoteList?pageNo=0')).status).toBe(403);

    const hist = (await request(ledger.url).get(`/distributorsHistory?pageNo=0&id=${d.gupta}`).set(auth(M)).expect(200)).body as HistoryReply;
    expect(hist.list.slice(0, 3).map((h) => [h.type, h.ref, h.amount, h.paid, h.balance, h.hide_link, h.doc_no])).toEqual([
      ['Debit Note', dn.third.debitNoteId, 4466.8, 0, -900, 'debit-note', `DN/${FY}/0003`],
      ['Debit Note', dn.second.debitNoteId, 1649.2, 100, 3566.8, 'debit-note', `DN/${FY}/0002`],
      ['Debit Note', dn.first.debitNoteId, 1894, 0, 5116, 'debit-note', `DN/${FY}/0001`],
    ]);

    const doc = await ask<DebitNoteDetails | null>(Subjects.documents.debitNoteDocument, { companyId: SIMPLE, debitNoteId: dn.second.debitNoteId });
    expect(doc).toEqual(await noteOf(M, dn.second.debitNoteId));
    expect(await ask(Subjects.documents.debitNoteDocument, { companyId: GST, debitNoteId: dn.second.debitNoteId })).toBeNull();

    // Product history names the movement.
    const ph = (await inAs(M).get(`/getProductHistory?id=${p.rice}&pageNo=0`).expect(200)).body as { result: { type: string; Qty: string }[] };
    expect(ph.result.slice(0, 4).map((h) => [h.type, h.Qty])).toEqual([
      ['Purchase return', '-5'],
      ['Purchase return', '-2'],
      ['Purchase return', '-3'],
      ['Buy', '10'],
    ]);
  });
});

describe('purchase return in GST mode', () => {
  it('intra-state: CGST and SGST reversed at the line rates; the completing return carries the round off', async () => {
    // As in gst-purchases: Sugar 3 x 2000 at 5 %, Mixer 2 x (1500.50 - 0.50) at 18 %, shipping 100, discount 30.
    // Taxable 6046.67 and 3023.33; CGST = SGST 151.17 and 272.10; 9916.54 -> total 9917.00.
    await fill(G, [[3, p.sugar], [2, p.mixer, '0.50']], { shipping: '100', discount: '30' });
    ids.intra = await buy(G, d.mumbai);
    const [sugar, mixer] = await slNos(G, ids.intra);
    // Sugar 1/3: taxable 6046.67 / 3 = 2015.5567 -> 2015.56; CGST = SGST 151.17 / 3 = 50.39; value 2116.34.
    const r = await giveBack(G, ids.intra, [[sugar, 1]]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ debit_note_no: `DN/${FY}/0001`, amount: 2116.34 });
    const n = await noteOf(G, r.body.debitNoteId);
    expect(n.gst).toEqual({
      tax_mode: 'gst',
      invoice_no: expect.any(String),
      invoice_date: today(),
      gstin: MH_GSTIN,
      place_of_supply: '27',
      place_of_supply_name: 'Maharashtra',
      inter_state: false,
      state_tax_name: 'SGST',
      taxable_total: 2015.56,
      cgst_total: 50.39,
      sgst_total: 50.39,
      igst_total: 0,
      tax_total: 100.78,
      round_off: 0,
    });
    expect(n.lines).toEqual([expect.objectContaining({ sl_no: sugar, hsn_code: '1701', gst_rate: 5, taxable_value: 2015.56, cgst: 50.39, sgst: 50.39, igst: 0, value: 2116.34 })]);
    expect(await dueOf(GST, d.mumbai)).toBe('7800.66'); // 9917.00 - 2116.34

    // The rest: Sugar 6046.67 - 2015.56 = 4031.11, CGST = SGST 151.17 - 50.39 = 100.78 (value 4232.67);
    // Mixer whole: 3023.33 + 272.10 x 2 = 3567.53. Taxable 7054.44 + tax 745.76 = 7800.20;
    // amount = 9917.00 - 2116.34 = 7800.66, so the round off is 0.46 (the purchase's own).
    const last = await giveBack(G, ids.intra, [[sugar, 2], [mixer, 2]]);
    expect(last.status).toBe(200);
    const m = await noteOf(G, last.body.debitNoteId);
    expect(m.gst).toMatchObject({ taxable_total: 7054.44, cgst_total: 372.88, sgst_total: 372.88, tax_total: 745.76, round_off: 0.46 });
    expect(m.lines.map((l) => [l.sl_no, l.taxable_value, l.cgst, l.value])).toEqual([
      [sugar, 4031.11, 100.78, 4232.67],
      [mixer, 3023.33, 272.1, 3567.53],
    ]);
    expect(m.amount).toBe(7800.66);
    expect(await dueOf(GST, d.mumbai)).toBe('0');
  });

  it('inter-state: IGST reversed; an unregistered distributor\'s note reverses tax that was never credit', async () => {
    // Bulb 3 x 100 at 12 % (IGST 36.00) and Fan 1 x 600 at 28 % (IGST 168.00): 900 + 204 = 1104.00.
    await fill(G, [[3, p.bulb], [1, p.fan]]);
    ids.inter = await buy(G, d.surat);
    const [bulb] = await slNos(G, ids.inter);
    // Bulb 1/3: taxable 100.00, IGST 12.00, value 112.00.
    const r = await giveBack(G, ids.inter, [[bulb, 1]]);
    expect(r.status).toBe(200);
    expect((await noteOf(G, r.body.debitNoteId)).gst).toMatchObject({ inter_state: true, gstin: GJ_GSTIN, taxable_total: 100, igst_total: 12, cgst_total: 0, tax_total: 12 });
    expect(await dueOf(GST, d.surat)).toBe('992'); // 1104 - 112

    // Corner Supplier (Maharashtra, no GSTIN): Bulb 2 x 100, CGST = SGST 6.00 each: 224.00. Return 1: 100 + 6 + 6 = 112.00.
    await fill(G, [[2, p.bulb]]);
    ids.corner = await buy(G, d.corner);
    const [cb] = await slNos(G, ids.corner);
    const c = await giveBack(G, ids.corner, [[cb, 1]]);
    expect(c.body).toMatchObject({ amount: 112 });
    expect((await noteOf(G, c.body.debitNoteId)).gst).toMatchObject({ gstin: null, inter_state: false, taxable_total: 100, cgst_total: 6, sgst_total: 6 });
  });

  it('GSTR-3B inward tax is net of debit notes; ITC only for registered distributors', async () => {
    // Purchases today: taxable 9070.00 + 900.00 + 200.00 = 10170.00; CGST 423.27 + 12.00 = 435.27 (SGST
    // the same); IGST 204.00. Debit notes: taxable 2015.56 + 7054.44 + 100.00 + 100.00 = 9270.00;
    // CGST 50.39 + 372.88 + 6.00 = 429.27; IGST 12.00.
    // Net: taxable 900.00, CGST = SGST 6.00, IGST 192.00.
    // ITC (Mumbai and Surat have GSTINs): CGST 423.27 - 50.39 - 372.88 = 0.00; IGST 204.00 - 12.00 = 192.00.
    const all = await ask<GstInwardReply>(Subjects.inventory.gstInward, { companyId: GST, from: today(), to: today() });
    expect(all).toEqual({ purchases: 3, taxable: '900.00', igst: '192.00', cgst: '6.00', sgst: '6.00', itc: { igst: '192.00', cgst: '0.00', sgst: '0.00' } });
    // A note dated outside the range does not count: move the Surat note to next year.
    await notes.updateOne({ companyId: GST, purchaseId: ids.inter }, { $set: { date: '2099-01-01' } });
    const moved = await ask<GstInwardReply>(Subjects.inventory.gstInward, { companyId: GST, from: today(), to: today() });
    // IGST back to 204.00 (all and ITC); taxable 1000.00.
    expect(moved).toMatchObject({ taxable: '1000.00', igst: '204.00', itc: { igst: '204.00', cgst: '0.00', sgst: '0.00' } });
    await notes.updateOne({ companyId: GST, purchaseId: ids.inter }, { $set: { date: today() } });
  });
});

describe('all or nothing', () => {
  it('returns racing for the last packs: never more than bought, stock and due move once per note that went through', async () => {
    // Oil 5 x 150.00 = 750.00, no tax; three returns of 2 at once (300.00 each) for 5 packs: two fit, one cannot.
    await fill(M, [[5, p.oil]]);
    const id = await buy(M, d.gupta);
    const [oil] = await slNos(M, id);
    const stock = await stockOf(SIMPLE, p.oil);
    const due = await dueOf(SIMPLE, d.gupta);
    const all = await Promise.all([giveBack(M, id, [[oil, 2]]), giveBack(M, id, [[oil, 2]]), giveBack(M, id, [[oil, 2]])]);
    expect(all.map((r) => r.status).sort()).toEqual([200, 200, 400]);
    const refused = all.find((r) => r.status === 400)!;
    expect(refused.body.message).toContain(`Line ${oil} (Mustard Oil 1L): 2 is more than can be returned (bought 5, returned 4, so at most 1).`);
    // 2 x 2 packs out; due down 2 x 300.00 = 600.00.
    expect(Number(stock) - Number(await stockOf(SIMPLE, p.oil))).toBe(4);
    expect(Number(due) - Number(await dueOf(SIMPLE, d.gupta))).toBe(600);
    expect((await details(M, id)).returns).toEqual([{ sl_no: oil, sold: 5, returned: 4, returnable: 1 }]);
    expect(await notes.countDocuments({ companyId: SIMPLE, purchaseId: id, status: 'complete' })).toBe(2);
  });

  it('a retried or double-sent key returns once and answers the same note', async () => {
    await fill(M, [[2, p.oil]]);
    const id = await buy(M, d.gupta);
    const [oil] = await slNos(M, id);
    const stock = await stockOf(SIMPLE, p.oil);
    const k = key();
    const [a, b] = await Promise.all([giveBack(M, id, [[oil, 1]], 0, k), giveBack(M, id, [[oil, 1]], 0, k)]);
    const c = await giveBack(M, id, [[oil, 1]], 0, k);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(c.body).toEqual(a.body);
    expect(Number(stock) - Number(await stockOf(SIMPLE, p.oil))).toBe(1);
    expect(await notes.countDocuments({ companyId: SIMPLE, purchaseId: id })).toBe(1);
  });

  it('ledger unreachable after the stock went out: stock comes back, no number is taken, the packs are free again', async () => {
    await fill(M, [[2, p.oil]]);
    const id = await buy(M, d.gupta);
    const [oil] = await slNos(M, id);
    const stock = await stockOf(SIMPLE, p.oil);
    const due = await dueOf(SIMPLE, d.gupta);
    const lastNumber = (await notes.find({ companyId: SIMPLE, serial: { $gt: 0 } }).sort({ serial: -1 }).limit(1).lean())[0]?.serial ?? 0;
    await ledger.close();
    let r;
    try {
      r = await giveBack(M, id, [[oil, 2]]);
    } finally {
      ledger = await startTestService(LedgerModule, opts('ledger'));
    }
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(r.body.message).toMatch(/^The debit note could not be completed/);
    // The stock reverse ran before the ledger's; the ledger's undo waits for the re-driver.
    expect(await stockOf(SIMPLE, p.oil)).toBe(stock);
    const left = await notes.findOne({ companyId: SIMPLE, purchaseId: id }).lean();
    expect(left).toMatchObject({ serial: 0, debit_note_no: '' });
    expect(['compensating', 'failed']).toContain(left!.status);
    await inv.app.get(DebitNotesService).redrive();
    expect(await notes.findOne({ companyId: SIMPLE, purchaseId: id }).lean()).toMatchObject({ status: 'failed', serial: 0 });
    expect(await dueOf(SIMPLE, d.gupta)).toBe(due);
    expect((await details(M, id)).returns).toEqual([{ sl_no: oil, sold: 2, returned: 0, returnable: 2 }]);
    // The reservation was pulled off the purchase (taken once, released once: version 2).
    expect(await purchases.findOne({ companyId: SIMPLE, purchaseId: id }).lean()).toMatchObject({ returnHolds: [], returnsVersion: 2 });
    // The next return takes the next number: none was lost.
    const again = await giveBack(M, id, [[oil, 2]]);
    expect(again.status).toBe(200);
    expect(again.body.debit_note_no).toBe(`DN/${FY}/${String(lastNumber + 1).padStart(4, '0')}`);
  }, 60_000);

  /** Runs a return whose process "dies" at `step`: nothing is undone then, as after a kill; the lease then runs out. */
  async function crashedReturn(purchaseId: number, lines: [number, number][], step: 'ledger' | 'after-number'): Promise<number> {
    const svc = inv.app.get(DebitNotesService) as unknown as {
      saga: { compensate: unknown };
      nats: { send: (s: string, d: unknown) => Promise<unknown> };
      finish: unknown;
    };
    const { compensate } = svc.saga;
    const send = svc.nats.send;
    const finish = svc.finish;
    svc.saga.compensate = async () => false;
    if (step === 'ledger') svc.nats.send = (subject, data) => (subject === Subjects.ledger.entryPost ? Promise.reject(new Error('killed')) : send.call(svc.nats, subject, data));
    else svc.finish = () => Promise.reject(new Error('killed'));
    try {
      const r = await giveBack(M, purchaseId, lines);
      // Past the point of no return the kit's Saga never undoes: 503, to be finished.
      expect(r.status).toBe(step === 'ledger' ? 500 : 503);
    } finally {
      Object.assign(svc.saga, { compensate });
      Object.assign(svc, { finish });
      svc.nats.send = send;
    }
    const left = (await notes.findOne({ companyId: SIMPLE, purchaseId, status: 'pending' }).lean())!;
    await notes.updateOne({ companyId: SIMPLE, debitNoteId: left.debitNoteId }, { $set: { lockedUntil: new Date(0) } });
    // Twice: a background round already running would not have seen the expired lease.
    await inv.app.get(DebitNotesService).redrive();
    await inv.app.get(DebitNotesService).redrive();
    return left.debitNoteId;
  }

  it('killed after the stock went out, before the ledger: the re-driver undoes it (stock back, packs free, no number)', async () => {
    await fill(M, [[3, p.oil]]);
    const id = await buy(M, d.gupta);
    const [oil] = await slNos(M, id);
    const stock = await stockOf(SIMPLE, p.oil);
    const due = await dueOf(SIMPLE, d.gupta);
    const noteId = await crashedReturn(id, [[oil, 2]], 'ledger');
    expect(await notes.findOne({ companyId: SIMPLE, debitNoteId: noteId }).lean()).toMatchObject({ status: 'failed', serial: 0, stockApplied: false });
    expect(await stockOf(SIMPLE, p.oil)).toBe(stock);
    expect(await dueOf(SIMPLE, d.gupta)).toBe(due);
    expect((await details(M, id)).returns).toEqual([{ sl_no: oil, sold: 3, returned: 0, returnable: 3 }]);
  });

  it('killed after the point of no return: the re-driver finishes it (numbered, on the account with its number)', async () => {
    await fill(M, [[3, p.oil]]);
    const id = await buy(M, d.gupta);
    const [oil] = await slNos(M, id);
    const stock = await stockOf(SIMPLE, p.oil);
    const due = await dueOf(SIMPLE, d.gupta);
    const noteId = await crashedReturn(id, [[oil, 2]], 'after-number');
    const done = (await notes.findOne({ companyId: SIMPLE, debitNoteId: noteId }).lean())!;
    expect(done).toMatchObject({ status: 'complete', ledgerPosted: true, amount: '300.00' });
    expect(done.debit_note_no).toMatch(new RegExp(`^DN/${FY}/\\d{4}$`));
    // 2 x 150.00 = 300.00 off the due; 2 packs out.
    expect(Number(due) - Number(await dueOf(SIMPLE, d.gupta))).toBe(300);
    expect(Number(stock) - Number(await stockOf(SIMPLE, p.oil))).toBe(2);
    const hist = (await request(ledger.url).get(`/distributorsHistory?pageNo=0&id=${d.gupta}`).set(auth(M)).expect(200)).body as HistoryReply;
    expect(hist.list[0]).toMatchObject({ type: 'Debit Note', ref: noteId, doc_no: done.debit_note_no });
  });

  it('stock may go below zero: the note warns', async () => {
    await fill(M, [[1, p.oil]]);
    const id = await buy(M, d.gupta);
    const [oil] = await slNos(M, id);
    // Sell the oil off through a stock change, then return the bought one.
    const left = Number(await stockOf(SIMPLE, p.oil));
    await ask(Subjects.inventory.stockApply, { companyId: SIMPLE, source: { kind: 'sale', id: 777001 }, lines: [{ product_id: p.oil, quantity: String(left), rate: '200' }] });
    const r = await giveBack(M, id, [[oil, 1]]);
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([`Stock of Mustard Oil 1L (${p.oil}) is now below zero.`]);
    expect(await stockOf(SIMPLE, p.oil)).toBe('-1');
  });
});

describe('payment modes on a purchase return (issue 28)', () => {
  it('the refund comes back split (cash + bank); a split that misses the refund is refused and changes nothing', async () => {
    // 2 oil bought at cost 150.00 = 300.00 (no tax, shipping or discount); returning both credits 300.00.
    await fill(M, [[2, p.oil]]);
    const id = await buy(M, d.gupta);
    const [oil] = await slNos(M, id);
    const send = (payments: unknown) =>
      inAs(M).post('/purchaseReturn', { purchaseId: id, lines: [{ sl_no: oil, quantity: 2 }], refund: '300', payments, idempotencyKey: key(), reason: 'Leaking' });
    // The dialog's figure is the server's: 1 of 2 = 150.00, both = 300.00 (what the note books below).
    const preview = async (lines: string) => (await inAs(M).get(`/previewPurchaseReturn?purchaseId=${id}&lines=${lines}`).expect(200)).body;
    expect(await preview(`${oil}:1`)).toEqual({ value: '150.00', refund_max: '150.00', lines: [{ sl_no: oil, quantity: '1', value: '150.00' }] });
    expect(await preview(`${oil}:2`)).toEqual({ value: '300.00', refund_max: '300.00', lines: [{ sl_no: oil, quantity: '2', value: '300.00' }] });
    expect((await inAs(M).get(`/previewPurchaseReturn?purchaseId=${id}&lines=${oil}:3`)).status).toBe(400);
    const miss = await send([{ mode: 'cash', amount: '200' }, { mode: 'bank', amount: '90' }]);
    expect([miss.status, miss.body.message]).toEqual([400, 'The payments add up to Rs 290.00 but refund is Rs 300.00; they must be equal.']);
    expect((await details(M, id)).debitNotes ?? []).toEqual([]);
    const ok = await send([{ mode: 'cash', amount: '200' }, { mode: 'bank', amount: '100', ref: 'NEFT 88' }]);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ amount: 300, refund: 300 });
    const hist = (await request(ledger.url).get(`/distributorsHistory?pageNo=0&id=${d.gupta}`).set(auth(M)).expect(200)).body as HistoryReply;
    expect(hist.list[0]).toMatchObject({ type: 'Debit Note', amount: 300, paid: 300, payments: [{ mode: 'cash', amount: '200' }, { mode: 'bank', amount: '100', ref: 'NEFT 88' }] });
  });
});
