import request from 'supertest';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { Subjects } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { AppModule } from '../src/app.module';
import { today } from '@bahi/service-kit';
import { PURCHASE_MODEL, type PurchaseDoc } from '../src/purchases/purchase.schema';
import { PurchasesService } from '../src/purchases/purchases.service';
import { auth, makeCategory, makeProduct, SECRET, token } from './helpers';

// ledger and sales run in-process from their builds (they are not dependencies of inventory).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: LedgerModule } = require('@bahi/ledger/dist/app.module') as { AppModule: unknown };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: SalesModule } = require('@bahi/sales/dist/app.module') as { AppModule: unknown };

let mongo: MongoHandle;
let nats: NatsHandle;
let inv: TestService;
let ledger: TestService;
let sales: TestService;
let nc: NatsConnection;
const tag = Math.random().toString(36).slice(2, 8);
const opts = (service: 'inventory' | 'ledger' | 'sales') => ({ service, mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: SECRET, dbName: `bahi_${service}_${tag}` });
const ask = <R = any>(subject: string, data: unknown) => nestRequest<R>(nc, subject, data) as Promise<R>;

const M = token(1, 'manager');
const STAFF = token(1, 'staff');
const B = token(2, 'manager');
let rice: number;
let first: number;
let dal: number;
let dist: number;
let officer: number;
let otherOfficer: number;

const inAs = (t: string) => ({
  get: (p: string) => request(inv.url).get(p).set(auth(t)),
  post: (p: string, body: object, headers: Record<string, string> = {}) => request(inv.url).post(p).set(auth(t)).set(headers).send(body),
});
const cart = (t: string) => ({
  get: (p: string) => request(sales.url).get(p).set(auth(t)),
  post: (p: string, body: object) => request(sales.url).post(p).set(auth(t)).send(body),
});
const stockOf = async (id: number) => (await ask(Subjects.inventory.productLookup, { companyId: 1, code: String(id) })).stock as string;
const dueOf = async (id: number) => (await ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'distributor', id } })).due as string;
const cartLines = async (t: string) => (await cart(t).get('/getProducts?cart_no=1').expect(200)).body.cart as { sl_no: number; product_id: number }[];
const future = () => {
  const d = new Date(`${today()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 30);
  return d.toISOString().slice(0, 10);
};

/** Rice x10 and dal 4 packets of 2.5 kg with 0.25 off, 18% tax, 150.50 shipping, 73.05 discount. */
async function fillCart(t: string) {
  await cart(t).get(`/addProductIntoCart/${encodeURIComponent(`10*${rice}`)}`).expect(200);
  const d = await cart(t).get(`/addProductIntoCart/${encodeURIComponent(`4*${dal}`)}`).expect(200);
  await cart(t).post('/upDisc/', { sl_no: d.body[0][0].sl_no, discount: '0.25' }).expect(200);
  await cart(t).post('/upTax/', { cart_no: 1, tax: 1 }).expect(200);
  await cart(t).post('/upShip/', { cart_no: 1, shipping: '150.50' }).expect(200);
  await cart(t).post('/upSummeryDisc/', { cart_no: 1, discount: '73.05' }).expect(200);
}

beforeAll(async () => {
  process.env.BAHI_DEMO = '0';
  [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  nc = await connect({ servers: nats.url });
  // Stands in for identity: the guards answer 503 until the revoked sessions are loaded.
  nc.subscribe(Subjects.identity.sessionRevocations, {
    callback: (_e, msg) => msg.respond(JSONCodec().encode({ id: (JSONCodec().decode(msg.data) as { id?: string }).id, response: { revocations: [] } })),
  });
  // And for company details: simple mode (a reply without tax_mode, as before GST mode). GST purchases: gst-purchases.test.ts.
  nc.subscribe(Subjects.identity.companyDetails, {
    callback: (_e, msg) => {
      const req = JSONCodec().decode(msg.data) as { id: string; data: { companyId: number } };
      const c = req.data.companyId;
      msg.respond(JSONCodec().encode({ id: req.id, response: { id: c, name: `Company ${c}`, add1: '', add2: '', mob1: '', mob2: '', email: '', logo: null, upiId: null }, isDisposed: true }));
    },
  });
  await nc.flush();
  inv = await startTestService(AppModule, opts('inventory'));
  ledger = await startTestService(LedgerModule, opts('ledger'));
  sales = await startTestService(SalesModule, opts('sales'));
  const cat = await makeCategory(inv.url, M, 'Grocery', [['Grade', 'A']]);
  rice = await makeProduct(inv.url, M, { catagory: cat, name: 'Basmati Rice 5kg', brand_name: 'India Gate', mrp: '650', cp: '540', barcode: '8901234567890' });
  dal = await makeProduct(inv.url, M, { catagory: cat, name: 'Toor Dal', brand_name: 'Tata', unit: 'kg', mrp: '160', cp: '132.5', per_peice_quantity: '2.5' });
  const d = await request(ledger.url)
    .post('/addDistributor')
    .set(auth(M))
    .send({ name: 'Gupta Wholesale', address_line_1: '7 Burrabazar', address_line_2: '', city_or_district: 'Kolkata', state: 'WB', country: 'India', postal_code: '700001', officers: [{ name: 'Ravi' }, { name: 'Sunil' }] });
  if (d.status !== 200) throw new Error(`distributor: ${d.status} ${JSON.stringify(d.body)}`);
  dist = d.body.id;
  [officer, otherOfficer] = d.body.distributor.officers.map((o: { id: number }) => o.id);
}, 120_000);

afterAll(async () => {
  await nc?.close();
  for (const s of [sales, ledger, inv]) await s?.close().catch(() => undefined);
  await nats?.stop();
  await mongo?.stop();
});

describe('purchase checkout', () => {
  it('loads distributors and officers for the purchase panel', async () => {
    const r = await inAs(M).get('/checkOutPurchase').expect(200);
    expect(r.body.distributors).toEqual([{ distributor_id: dist, name: 'Gupta Wholesale' }]);
    expect(r.body.officers.map((o: { name: string; distributor_id: number }) => [o.name, o.distributor_id])).toEqual([['Ravi', dist], ['Sunil', dist]]);
  });

  it('answers 403 to staff on every purchase call', async () => {
    const S = inAs(STAFF);
    for (const r of [
      await S.get('/checkOutPurchase'),
      await S.post('/checkOutPurchase', { bill_no: 'X', distributor: dist, officer: '', paid: '0', due_date: today(), cart_no: 1 }),
      await S.post('/checkOutPurchaseFromEstimate', { bill_no: 'X', distributor: dist, officer: '', paid: '0', due_date: today(), estimateId: 1 }),
      await S.get('/getPurchaseList?pageNo=0'),
      await S.get('/getPurchaseDetails?purchaseId=1'),
      await S.get('/getPurchaseLabelDetails?purchaseId=1'),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('Only a manager can do this.');
    }
  });

  it('validates with the spec messages and changes nothing', async () => {
    const ok = { bill_no: 'GW-1', distributor: String(dist), officer: String(officer), paid: '0', due_date: today(), cart_no: 1 };
    expect((await inAs(M).post('/checkOutPurchase', ok).expect(400)).body.message).toBe('cart is emplty!!');
    await fillCart(M);
    const yesterday = new Date(Date.now() + 330 * 60_000 - 86_400_000).toISOString().slice(0, 10);
    const cases: [object, string][] = [
      [{ bill_no: '  ' }, 'Bill number is required.'],
      [{ paid: '-1' }, 'Please enter a valid payment amount.'],
      [{ paid: 'abc' }, 'Please enter a valid payment amount.'],
      [{ paid: '' }, 'Please enter a valid payment amount.'],
      [{ due_date: '' }, 'Please select a due date.'],
      [{ due_date: '2025-02-30' }, 'Please select a due date.'],
      [{ due_date: yesterday }, 'Due date cannot be in the past.'],
      [{ distributor: '' }, 'Select a valid Distributor from the list'],
      [{ distributor: '999' }, 'Select a valid Distributor from the list'],
      [{ officer: '999' }, 'Select a valid officer of the distributor.'],
    ];
    for (const [change, message] of cases) {
      const r = await inAs(M).post('/checkOutPurchase', { ...ok, ...change });
      expect([r.status, r.body.message]).toEqual([400, message]);
    }
    expect(await stockOf(rice)).toBe('0');
    expect(await dueOf(dist)).toBe('0');
    expect(await cartLines(M)).toHaveLength(2);
    expect((await inAs(M).get('/getPurchaseList').expect(200)).body).toEqual({ purchaseList: [], noOfPages: 1 });
  });

  it('buys the cart at cost price: stock rises, the distributor owes, the cart empties', async () => {
    const body = { bill_no: 'GW-1001', distributor: String(dist), officer: String(otherOfficer), paid: '2000', due_date: future(), cart_no: 1 };
    // A double submit of the same cart buys once.
    const [r, again] = await Promise.all([inAs(M).post('/checkOutPurchase', body), inAs(M).post('/checkOutPurchase', body)]);
    expect(r.status).toBe(200);
    first = r.body[0].id;
    expect(r.body).toEqual([{ id: first, purchaseId: first, warnings: [] }]);
    expect(again.body[0]?.id).toBe(first);
    expect(await stockOf(rice)).toBe('10');
    expect(await stockOf(dal)).toBe('10');
    // rice 540 x 10 = 5400; dal (132.50 - 0.25) x 4 x 2.5 = 1322.50; subtotal 6722.50; tax 1210.05;
    // total 6722.50 + 1210.05 + 150.50 - 73.05 = 8010.00; due 8010.00 - 2000 = 6010.
    expect(Number(await dueOf(dist))).toBe(6010);
    expect(await cartLines(M)).toEqual([]);
    const list = await inAs(M).get('/getPurchaseList?pageNo=0').expect(200);
    expect(list.body).toEqual({ purchaseList: [{ id: first, Date: today(), Distributors: 'Gupta Wholesale', 'Total Amount': 8010, Paid: 2000 }], noOfPages: 1 });
    const d = await inAs(M).get(`/getPurchaseDetails?purchaseId=${first}`).expect(200);
    expect(d.body).toMatchObject({
      id: first,
      bill_no: 'GW-1001',
      name: 'Gupta Wholesale',
      distributor_id: dist,
      officer: { id: otherOfficer, name: 'Sunil' },
      paid: 2000,
      previous_due: 0,
      new_due: 6010,
      duedate: body.due_date,
      shipping: 150.5,
      summery_discount: 73.05,
      tax: 1,
      taxAmount: 1210.05,
      subTotal: 6722.5,
      total: 8010,
    });
    expect(d.body.lines.map((l: any) => [l.product_name, l.quantity, l.per_peice_quantity, l.rate, l.disc, l.amount, l.units])).toEqual([
      ['Basmati Rice 5kg', 10, 1, 540, 0, 5400, 10],
      ['Toor Dal', 4, 2.5, 132.5, 0.25, 1322.5, 10],
    ]);
    const h = (await inAs(M).get(`/getProductHistory?id=${dal}`).expect(200)).body.result;
    expect(h.map((x: any) => [x.type, x.Qty, x.Rate, x.Stock])).toEqual([['Buy', '10', '132.25', '10']]);
    const hist = (await request(ledger.url).get(`/distributorsHistory?pageNo=0&id=${dist}`).set(auth(M)).expect(200)).body.list;
    expect(hist[0]).toMatchObject({ type: 'Purchase', ref: first, amount: 8010, paid: 2000, balance: 6010 });
  });

  it('gives label details: packets default to the pieces bought', async () => {
    const r = await inAs(M).get(`/getPurchaseLabelDetails?purchaseId=${first}`).expect(200);
    expect(r.body).toMatchObject({ purchase_id: first, date: today(), distributor_name: 'Gupta Wholesale' });
    expect(r.body.labels.map((l: any) => [l.product_id, l.code, l.packets, l.mrp, l.features])).toEqual([
      [rice, '8901234567890', 10, '650.00', [{ field_name: 'Grade', alias: 'Grade', value: 'A' }]],
      [dal, String(dal), 4, '160.00', [{ field_name: 'Grade', alias: 'Grade', value: 'A' }]],
    ]);
    const viaNats = await ask(Subjects.documents.purchaseLabels, { companyId: 1, purchaseId: first });
    expect(viaNats.lines.map((l: any) => [l.product.product_id, l.packets])).toEqual([[rice, 10], [dal, 4]]);
    expect(await ask(Subjects.documents.purchaseLabels, { companyId: 2, purchaseId: first })).toBeNull();
  });

  it('keeps companies apart: another company sees no purchase (404)', async () => {
    await inAs(B).get(`/getPurchaseDetails?purchaseId=${first}`).expect(404);
    await inAs(B).get(`/getPurchaseLabelDetails?purchaseId=${first}`).expect(404);
    expect((await inAs(B).get('/getPurchaseList').expect(200)).body.purchaseList).toEqual([]);
    // Company B cannot use company A's distributor either.
    const bCat = await makeCategory(inv.url, B, 'Stationery');
    const pen = await makeProduct(inv.url, B, { catagory: bCat, name: 'Pen' });
    await cart(B).get(`/addProductIntoCart/${pen}`).expect(200);
    const r = await inAs(B).post('/checkOutPurchase', { bill_no: 'B1', distributor: String(dist), officer: '', paid: '0', due_date: today(), cart_no: 1 });
    expect([r.status, r.body.message]).toEqual([400, 'Select a valid Distributor from the list']);
  });

  it('buys from an estimate with the officer blank; the estimate stays', async () => {
    await cart(M).get(`/addProductIntoCart/${encodeURIComponent(`3*${rice}`)}`).expect(200);
    const est = await cart(M).get('/createEstimate?cart_no=1&clientId=0').expect(200);
    const estimateId = est.body.estimateId;
    const body = { bill_no: 'GW-1002', distributor: String(dist), officer: '', paid: '0', due_date: today(), estimateId };
    const r = await inAs(M).post('/checkOutPurchaseFromEstimate', body).expect(200);
    expect(r.body[0].id).toBeGreaterThan(first);
    expect(await stockOf(rice)).toBe('13');
    expect(Number(await dueOf(dist))).toBe(6010 + 1620);
    const d = await inAs(M).get(`/getPurchaseDetails?purchaseId=${r.body[0].id}`).expect(200);
    expect(d.body).toMatchObject({ officer: null, previous_due: 6010, new_due: 7630, total: 1620 });
    expect((await ask(Subjects.sales.estimateGet, { companyId: 1, estimateId })).lines).toHaveLength(1);
    expect((await inAs(M).post('/checkOutPurchaseFromEstimate', { ...body, estimateId: 9999 })).status).toBe(404);
    expect((await inAs(M).post('/checkOutPurchaseFromEstimate', { ...body, estimateId: '' })).body.message).toBe('No estimate id found');
  });

  it('all or nothing: the ledger failing after the stock came in puts the stock back; the retry buys once', async () => {
    await cart(M).get('/getProducts?cart_no=1').expect(200);
    await request(sales.url).delete('/clearCart/1').set(auth(M));
    await cart(M).get(`/addProductIntoCart/${encodeURIComponent(`2*${rice}`)}`).expect(200);
    const before = await stockOf(rice);
    const dueBefore = await dueOf(dist);
    const svc = inv.app.get(PurchasesService);
    const model = inv.app.get<Model<PurchaseDoc>>(getModelToken(PURCHASE_MODEL));
    // The ledger answers the distributor questions, then is gone when the due is to be posted.
    const distributor = await ask(Subjects.ledger.distributorLookup, { companyId: 1, distributorId: dist });
    const due = await ask(Subjects.ledger.partyDue, { companyId: 1, party: { kind: 'distributor', id: dist } });
    await ledger.close();
    const codec = JSONCodec<{ id: string }>();
    const replay = (subject: string, answer: unknown) =>
      nc.subscribe(subject, { callback: (_e, m) => m.respond(JSONCodec().encode({ id: codec.decode(m.data).id, response: answer, isDisposed: true })) });
    const subs = [replay(Subjects.ledger.distributorLookup, distributor), replay(Subjects.ledger.partyDue, due)];
    await nc.flush();
    const body = { bill_no: 'GW-1003', distributor: String(dist), officer: '', paid: '0', due_date: today(), cart_no: 1 };
    const r = await inAs(M).post('/checkOutPurchase', body, { 'Idempotency-Key': 'midway' });
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect(r.body.message).toMatch(/The purchase could not be completed .*undone automatically; the cart is unchanged/);
    expect(await stockOf(rice)).toBe(before);
    expect(await cartLines(M)).toHaveLength(1);
    expect((await model.findOne({ idempotencyKey: 'midway' }).lean())?.status).toBe('compensating');
    expect((await inAs(M).get('/getPurchaseList').expect(200)).body.purchaseList).toHaveLength(2);
    subs.forEach((x) => x.unsubscribe());
    ledger = await startTestService(LedgerModule, opts('ledger'));
    await svc.redrive();
    const failed = (await model.findOne({ failedKey: 'midway' }).lean()) as PurchaseDoc;
    expect(failed.status).toBe('failed');
    expect(await dueOf(dist)).toBe(dueBefore);
    const ok = await inAs(M).post('/checkOutPurchase', body, { 'Idempotency-Key': 'midway' }).expect(200);
    expect(ok.body[0].id).not.toBe(failed.purchaseId);
    const again = await inAs(M).post('/checkOutPurchase', body, { 'Idempotency-Key': 'midway' }).expect(200);
    expect(again.body[0].id).toBe(ok.body[0].id);
    expect(Number(await stockOf(rice)) - Number(before)).toBe(2);
    expect(Number(await dueOf(dist)) - Number(dueBefore)).toBe(1080);
    expect(await cartLines(M)).toEqual([]);
  });

  // Issue 27: a purchase stopped at each of its steps (BAHI_TEST_FAIL_AT: the step throws there,
  // as when a reply is lost; the fault tests SIGKILL inventory at the same points) and then sent
  // again with the same key buys exactly once and empties the cart once. Before the fix, a stop
  // after the cart was emptied undid the purchase and the retry answered "cart is emplty!!".
  it.each([
    ['purchase.after-record', 'undone'],
    ['purchase.after-stock', 'undone'],
    ['purchase.after-ledger', 'kept'],
    ['purchase.after-cart-emptied', 'kept'],
  ])('stopped at %s, the same key again buys exactly once (%s)', async (point, fate) => {
    await request(sales.url).delete('/clearCart/1').set(auth(M));
    await cart(M).get(`/addProductIntoCart/${encodeURIComponent(`3*${rice}`)}`).expect(200);
    const model = inv.app.get<Model<PurchaseDoc>>(getModelToken(PURCHASE_MODEL));
    const before = await stockOf(rice);
    const dueBefore = await dueOf(dist);
    const key = `stopped-${point}`;
    const body = { bill_no: key, distributor: String(dist), officer: '', paid: '0', due_date: today(), cart_no: 1 };
    process.env.BAHI_TEST_FAIL_AT = point;
    let first: request.Response;
    try {
      first = await inAs(M).post('/checkOutPurchase', body, { 'Idempotency-Key': key });
    } finally {
      delete process.env.BAHI_TEST_FAIL_AT;
    }
    const stored = (await model.findOne({ companyId: 1, $or: [{ idempotencyKey: key }, { failedKey: key }] }).lean()) as PurchaseDoc;
    if (fate === 'undone') {
      expect(first.status).toBe(500);
      expect(first.body.message).toBe('The purchase could not be completed (an internal error). Nothing was bought; the cart is unchanged.');
      expect(stored).toMatchObject({ status: 'failed', ledgerPosted: false });
      expect(await stockOf(rice)).toBe(before);
      expect(await cartLines(M)).toHaveLength(1);
    } else {
      // Past the point of no return: never undone; the answer says it will be finished.
      expect(first.status).toBe(503);
      expect(first.body.message).toBe(`Purchase ${stored.purchaseId} is recorded but its last step failed (an internal error); it will be finished automatically. Send it again to see it.`);
      expect(stored).toMatchObject({ status: 'pending', ledgerPosted: true, idempotencyKey: key });
    }
    const retry = await inAs(M).post('/checkOutPurchase', body, { 'Idempotency-Key': key });
    expect(retry.status).toBe(200);
    // A purchase past its point of no return is the answer; an undone one is bought afresh.
    if (fate === 'kept') expect(retry.body[0].purchaseId).toBe(stored.purchaseId);
    else expect(retry.body[0].purchaseId).not.toBe(stored.purchaseId);
    const again = await inAs(M).post('/checkOutPurchase', body, { 'Idempotency-Key': key }).expect(200);
    expect(again.body[0].purchaseId).toBe(retry.body[0].purchaseId);
    expect(await model.countDocuments({ companyId: 1, status: 'complete', idempotencyKey: key })).toBe(1);
    // 3 x 540.00 = 1620.00 owed once; 3 in once; the cart emptied.
    expect(Number(await stockOf(rice)) - Number(before)).toBe(3);
    expect(Number(await dueOf(dist)) - Number(dueBefore)).toBe(1620);
    expect(await cartLines(M)).toEqual([]);
  });

  it('the re-driver undoes a purchase a crash left pending', async () => {
    const svc = inv.app.get(PurchasesService);
    const model = inv.app.get<Model<PurchaseDoc>>(getModelToken(PURCHASE_MODEL));
    const before = await stockOf(dal);
    const dueBefore = await dueOf(dist);
    const purchaseId = 9001;
    await ask(Subjects.inventory.stockApply, { companyId: 1, source: { kind: 'purchase', id: purchaseId }, lines: [{ product_id: dal, quantity: '5', rate: '132.5' }] });
    await ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'distributor', id: dist }, source: { kind: 'purchase', id: purchaseId }, amount: '662.5', paid: '0' });
    await model.create({
      companyId: 1, purchaseId, status: 'pending', idempotencyKey: 'crashed', lockedUntil: new Date(Date.now() - 1000),
      source: { kind: 'cart', userId: 1, cart_no: 1, estimateId: 0, version: 0, sl_nos: [] }, bill_no: 'X', distributorId: dist, distributorName: 'Gupta Wholesale',
      officer: null, date: today(), dueDate: today(), paid: '0', lines: [], tax: 0, shipping: '0', discount: '0', subtotal: '662.5', taxAmount: '0', total: '662.50', previousDue: '0',
      // Crashed before it recorded the entry as posted: the cart was not touched yet, so undo.
      stockApplied: true, ledgerPosted: false, warnings: [], createdBy: 1,
    });
    expect(await stockOf(dal)).not.toBe(before);
    // The background re-driver may get there first; either way the purchase is undone.
    await svc.redrive();
    expect(await stockOf(dal)).toBe(before);
    expect(await dueOf(dist)).toBe(dueBefore);
    expect((await model.findOne({ companyId: 1, purchaseId }).lean())?.status).toBe('failed');
    await inAs(M).get(`/getPurchaseDetails?purchaseId=${purchaseId}`).expect(404);
  });

  it('the re-driver finishes a purchase a crash left pending after its due was posted (the cart may be gone)', async () => {
    const svc = inv.app.get(PurchasesService);
    const model = inv.app.get<Model<PurchaseDoc>>(getModelToken(PURCHASE_MODEL));
    const before = await stockOf(dal);
    const dueBefore = await dueOf(dist);
    const purchaseId = 9002;
    await ask(Subjects.inventory.stockApply, { companyId: 1, source: { kind: 'purchase', id: purchaseId }, lines: [{ product_id: dal, quantity: '4', rate: '132.5' }] });
    await ask(Subjects.ledger.entryPost, { companyId: 1, party: { kind: 'distributor', id: dist }, source: { kind: 'purchase', id: purchaseId }, amount: '530', paid: '0' });
    await model.create({
      companyId: 1, purchaseId, status: 'pending', idempotencyKey: 'crashed-late', lockedUntil: new Date(Date.now() - 1000),
      source: { kind: 'cart', userId: 1, cart_no: 1, estimateId: 0, version: 0, sl_nos: [] }, bill_no: 'Y', distributorId: dist, distributorName: 'Gupta Wholesale',
      officer: null, date: today(), dueDate: today(), paid: '0', lines: [], tax: 0, shipping: '0', discount: '0', subtotal: '530', taxAmount: '0', total: '530.00', previousDue: '0',
      stockApplied: true, ledgerPosted: true, warnings: [], createdBy: 1,
    });
    await svc.redrive();
    expect((await model.findOne({ companyId: 1, purchaseId }).lean())?.status).toBe('complete');
    expect(Number(await stockOf(dal)) - Number(before)).toBe(4);
    expect(Number(await dueOf(dist)) - Number(dueBefore)).toBe(530);
  });
});

describe('payment modes on a purchase (issue 28)', () => {
  it('a purchase paid by cheque + bank transfer: the ledger entry and the distributor history keep both', async () => {
    await request(sales.url).delete('/clearCart/1').set(auth(M)).expect(200);
    await cart(M).get(`/addProductIntoCart/${encodeURIComponent(`2*${rice}`)}`).expect(200);
    // Rice bought at its cost 540 x 2 = 1,080.00 (no tax, shipping or discount): paid 800 cheque + 280 bank.
    const body = { bill_no: 'GW-PM', distributor: String(dist), officer: '', due_date: future(), cart_no: 1, paid: '1080' };
    const refuse = async (payments: unknown, msg: string) => {
      const r = await inAs(M).post('/checkOutPurchase', { ...body, payments });
      expect([r.status, r.body.message]).toEqual([400, msg]);
    };
    await refuse([{ mode: 'cheque', amount: '800' }, { mode: 'bank', amount: '200' }], 'The payments add up to Rs 1000.00 but paid is Rs 1080.00; they must be equal.');
    await refuse([{ mode: 'barter', amount: '1080' }], 'Payment 1: the mode must be one of Cash, UPI, Card, Cheque, Bank transfer (cash, upi, card, cheque, bank).');
    await refuse([{ mode: 'cheque', amount: '1080', ref: '9'.repeat(41) }], 'Payment 1: the reference (UPI reference, cheque number) can be at most 40 characters.');
    expect(await cartLines(M)).toHaveLength(1);
    const payments = [{ mode: 'cheque', amount: '800', ref: '004512' }, { mode: 'bank', amount: '280.00' }];
    const r = await inAs(M).post('/checkOutPurchase', { ...body, payments }).expect(200);
    const list = (await request(ledger.url).get(`/distributorsHistory?pageNo=0&id=${dist}`).set(auth(M))).body.list;
    expect(list[0]).toMatchObject({ type: 'Purchase', ref: r.body.purchaseId ?? expect.any(Number), amount: 1080, paid: 1080, balance: expect.any(Number) });
    expect(list[0].payments).toEqual([{ mode: 'cheque', amount: '800', ref: '004512' }, { mode: 'bank', amount: '280' }]);
  });
});
