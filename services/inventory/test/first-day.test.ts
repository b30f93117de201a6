import request from 'supertest';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { Subjects, type GetPurchaseDetailsReply, type PreviewPurchaseReply } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { today } from '@bahi/service-kit';
import { AppModule } from '../src/app.module';
import { PURCHASE_MODEL, type PurchaseDoc } from '../src/purchases/purchase.schema';
import { auth, makeCategory, makeProduct, SECRET, token } from './helpers';

// ledger and sales run in-process from their builds (they are not dependencies of inventory).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: LedgerModule } = require('@bahi/ledger/dist/app.module') as { AppModule: unknown };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: SalesModule } = require('@bahi/sales/dist/app.module') as { AppModule: unknown };

// GSTINs with correct check characters (packages/gst/README.md works them out).
const MH_COMPANY = '27AAPFU0939F1ZV';
const GJ_GSTIN = '24AAGCS5678K1ZT';

// Company 1 is in GST mode in Maharashtra, 3 simple (identity's reply without tax_mode).
const GST = 1;
const SIMPLE = 3;
const COMPANIES: Record<number, Record<string, unknown>> = {
  [GST]: { tax_mode: 'gst', gstin: MH_COMPANY, state_code: '27', invoice_prefix: 'GT' },
  [SIMPLE]: {},
};

let mongo: MongoHandle;
let nats: NatsHandle;
let inv: TestService;
let ledger: TestService;
let sales: TestService;
let nc: NatsConnection;
let purchases: Model<PurchaseDoc>;
const tag = Math.random().toString(36).slice(2, 8);
const opts = (service: 'inventory' | 'ledger' | 'sales') => ({ service, mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: SECRET, dbName: `bahi_${service}_${tag}` });
const ask = <R = any>(subject: string, data: unknown) => nestRequest<R>(nc, subject, data) as Promise<R>;

const G = token(GST, 'manager');
const S = token(SIMPLE, 'manager');
const p: Record<string, number> = {};
const d: Record<string, number> = {};

const inAs = (t: string) => ({
  get: (path: string) => request(inv.url).get(path).set(auth(t)),
  post: (path: string, body: object) => request(inv.url).post(path).set(auth(t)).send(body),
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

/** Fills cart 1: [quantity, product, per-unit discount][], then the tax flag, shipping and summary discount. */
async function fill(t: string, lines: [number, number, string?][], extra: { tax?: 0 | 1; shipping?: string; discount?: string } = {}) {
  for (const [q, id, disc] of lines) {
    const r = await cart(t).get(`/addProductIntoCart/${encodeURIComponent(`${q}*${id}`)}`).expect(200);
    if (disc) await cart(t).post('/upDisc/', { sl_no: r.body[0][0].sl_no, discount: disc }).expect(200);
  }
  if (extra.tax !== undefined) await cart(t).post('/upTax/', { cart_no: 1, tax: extra.tax }).expect(200);
  if (extra.shipping) await cart(t).post('/upShip/', { cart_no: 1, shipping: extra.shipping }).expect(200);
  if (extra.discount) await cart(t).post('/upSummeryDisc/', { cart_no: 1, discount: extra.discount }).expect(200);
}

const details = async (t: string, id: number) => (await inAs(t).get(`/getPurchaseDetails?purchaseId=${id}`).expect(200)).body as GetPurchaseDetailsReply;

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
  // Stands in for identity: the guards wait for the revoked sessions; company details carry the tax mode.
  nc.subscribe(Subjects.identity.sessionRevocations, {
    callback: (_e, msg) => msg.respond(jc.encode({ id: (jc.decode(msg.data) as { id?: string }).id, response: { revocations: [] } })),
  });
  nc.subscribe(Subjects.identity.companyDetails, {
    callback: (_e, msg) => {
      const req = jc.decode(msg.data) as { id: string; data: { companyId: number } };
      const c = req.data.companyId;
      const details = { id: c, name: `Company ${c}`, add1: '', add2: '', mob1: '', mob2: '', email: '', logo: null, upiId: null, ...COMPANIES[c] };
      msg.respond(jc.encode({ id: req.id, response: details, isDisposed: true }));
    },
  });
  await nc.flush();
  inv = await startTestService(AppModule, opts('inventory'));
  ledger = await startTestService(LedgerModule, opts('ledger'));
  sales = await startTestService(SalesModule, opts('sales'));
  purchases = inv.app.get(getModelToken(PURCHASE_MODEL));

  const g = await makeCategory(inv.url, G, 'Goods');
  p.sugar = await makeProduct(inv.url, G, { catagory: g, name: 'Sugar 50kg', mrp: '2400', cp: '2000', tax: '5', hsn_code: '1701' });
  p.mixer = await makeProduct(inv.url, G, { catagory: g, name: 'Mixer', mrp: '2500', cp: '1500.50', tax: '18', hsn_code: '8509' });
  const s = await makeCategory(inv.url, S, 'Grocery');
  p.rice = await makeProduct(inv.url, S, { catagory: s, name: 'Rice 1kg', mrp: '50', cp: '40' });
  p.oil = await makeProduct(inv.url, S, { catagory: s, name: 'Oil 1L', mrp: '150', cp: '120.50' });
  d.surat = await distributor(G, 'Surat Traders', { state: 'Gujarat', gstin: GJ_GSTIN });
  d.plain = await distributor(S, 'Plain Supplier', { state: 'WB' });
}, 120_000);

afterAll(async () => {
  await nc?.close();
  for (const svc of [sales, ledger, inv]) await svc?.close().catch(() => undefined);
  await nats?.stop();
  await mongo?.stop();
});

const preview = async (t: string, q = '') => (await inAs(t).get(`/previewPurchase?cart_no=1${q}`).expect(200)).body as PreviewPurchaseReply;

describe('Add Product on the first form', () => {
  it('barcode, opening stock, minimum and default stock: the opening stock is a movement, in the history and the list totals', async () => {
    const s = (await inAs(S).get('/getProductList?pageNo=0').expect(200)).body;
    const id = await makeProduct(inv.url, S, { catagory: (await inAs(S).get('/getCategoryBrand').expect(200)).body.cat[0].id, name: 'Dal 1kg', mrp: '110', cp: '92.50', barcode: '8901234567894', opening_stock: '12', min_stock: '5', default_stock: '20' });
    const list = (await inAs(S).get(`/getProductList?pageNo=0&text=${id}`).expect(200)).body;
    // text = the product id finds it (its name has no such word).
    expect(list.list.map((r: { product_id: number }) => r.product_id)).toContain(id);
    const row = list.list.find((r: { product_id: number }) => r.product_id === id);
    // 5 < 12 < 20: level 1 (on); stock 12 at 92.50 = 1110.00 added to the totals.
    expect(row).toMatchObject({ stock: '12', min_stock: '5', default_stock: '20', stock_level: 1 });
    const after = (await inAs(S).get('/getProductList?pageNo=0').expect(200)).body;
    expect(Number(after.totalStock) - Number(s.totalStock)).toBe(12);
    expect((Number(after.totalAmount) * 100 - Number(s.totalAmount) * 100).toFixed(0)).toBe('111000');
    const hist = (await inAs(S).get(`/getProductHistory?id=${id}&pageNo=0`).expect(200)).body;
    expect(hist.result).toHaveLength(1);
    expect(hist.result[0]).toMatchObject({ Qty: '12', Stock: '12' });
    expect(await stockOf(SIMPLE, id)).toBe('12');
    // The barcode finds it too.
    expect((await inAs(S).get('/getProductList?pageNo=0&text=8901234567894').expect(200)).body.list.map((r: { product_id: number }) => r.product_id)).toEqual([id]);
  });

  it('no opening stock: no movement; a bad opening stock is refused with a sentence and nothing is stored', async () => {
    const cat = (await inAs(S).get('/getCategoryBrand').expect(200)).body.cat[0].id;
    const id = await makeProduct(inv.url, S, { catagory: cat, name: 'Salt', mrp: '20', cp: '15' });
    expect((await inAs(S).get(`/getProductHistory?id=${id}&pageNo=0`).expect(200)).body.result).toHaveLength(0);
    const before = (await inAs(S).get('/getProductList?pageNo=0').expect(200)).body.count;
    const bad = await inAs(S).post('/createNewProduct', { catagory: cat, brand_name: 'Acme', name: 'Jaggery', mrp: '60', cp: '50', unit: 'kg', opening_stock: '-3' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Opening stock/);
    expect((await inAs(S).get('/getProductList?pageNo=0').expect(200)).body.count).toBe(before);
    // Staff may not add products.
    await request(inv.url).post('/createNewProduct').set(auth(token(SIMPLE, 'staff'))).send({ catagory: cat, brand_name: 'A', name: 'B', mrp: '1', cp: '1', unit: 'pcs', opening_stock: '1' }).expect(403);
  });

  it('GST fields on the first form', async () => {
    const cat = (await inAs(G).get('/getCategoryBrand').expect(200)).body.cat[0].id;
    const id = await makeProduct(inv.url, G, { catagory: cat, name: 'Ghee', mrp: '600', cp: '500', tax: '12', hsn_code: '0405', price_includes_tax: false, supply_type: 'taxable', opening_stock: '4', min_stock: '2', default_stock: '10' });
    const row = (await inAs(G).get(`/getProductList?pageNo=0&text=${id}`).expect(200)).body.list.find((r: { product_id: number }) => r.product_id === id);
    expect(row).toMatchObject({ tax_percent: '12', hsn_code: '0405', price_includes_tax: false, stock: '4', stock_level: 1 });
  });
});

describe('the purchase panel before confirming', () => {
  it('simple mode: the preview at cost price, the 18 % on the subtotal; an edited cost and the bill date stored as previewed', async () => {
    // Rice 3 x 40.00 = 120.00; Oil 2 x 120.50 = 241.00; subtotal 361.00; 18 % = 64.98;
    // 361.00 + 64.98 + shipping 50.00 - discount 20.00 = 455.98 (the cart showed these at MRP: 3 x 50 + 2 x 150).
    await fill(S, [[3, p.rice], [2, p.oil]], { tax: 1, shipping: '50', discount: '20' });
    const first = await preview(S);
    expect(first).toMatchObject({ subtotal: '361.00', tax: '64.98', shipping: '50.00', discount: '20.00', total: '455.98' });
    expect(first.lines.map((l) => [l.cp, l.taxable, l.tax])).toEqual([
      ['40.00', '120.00', '0.00'],
      ['120.50', '241.00', '0.00'],
    ]);
    // The bill says rice cost 38.50: 3 x 38.50 = 115.50; subtotal 356.50; 18 % = 64.17; 356.50 + 64.17 + 30.00 = 450.67.
    const rice = first.lines[0]!.sl_no;
    const edited = await preview(S, `&costs=${rice}:38.50`);
    expect(edited).toMatchObject({ subtotal: '356.50', tax: '64.17', total: '450.67' });
    const r = await inAs(S).post('/checkOutPurchase', { bill_no: 'R-1', distributor: d.plain, officer: '', paid: '0', due_date: future(), cart_no: 1, bill_date: today(), lines: [{ sl_no: rice, cp: '38.50' }] });
    expect(r.status).toBe(200);
    const det = await details(S, r.body[0].purchaseId);
    expect(det).toMatchObject({ subTotal: 356.5, taxAmount: 64.17, total: 450.67, bill_date: today() });
    expect(det.lines.map((l) => l.rate)).toEqual([38.5, 120.5]);
    expect(String(det.total)).toBe(String(Number(edited.total)));
    // The stock came in at the bill's cost: rice's purchase movement at 38.50.
    const hist = (await inAs(S).get(`/getProductHistory?id=${p.rice}&pageNo=0`).expect(200)).body;
    expect(hist.result[0]).toMatchObject({ Qty: '3', Rate: '38.50' });
  });

  it('GST mode: the preview per line from the company state, then with an inter-state distributor; the stored purchase equals it', async () => {
    // Sugar 2 x 2000.00 = 4000.00 at 5 %; Mixer 1 x 1500.50 at 18 %. Before a distributor is picked: intra-state,
    // CGST = SGST: 4000 x 2.5 % = 100.00 each -> 200.00; 1500.50 x 9 % = 135.045 -> 135.05 each -> 270.10.
    // Tax 470.10; 5500.50 + 470.10 = 5970.60 -> invoice value 5971.00.
    await fill(G, [[2, p.sugar], [1, p.mixer]]);
    const a = await preview(G);
    expect(a).toMatchObject({ subtotal: '5500.50', tax: '470.10', shipping: '0.00', discount: '0.00', total: '5971.00' });
    expect(a.lines.map((l) => [l.cp, l.taxable, l.tax])).toEqual([
      ['2000.00', '4000.00', '200.00'],
      ['1500.50', '1500.50', '270.10'],
    ]);
    // Surat (Gujarat): IGST 4000 x 5 % = 200.00; 1500.50 x 18 % = 270.09; 470.09; 5970.59 -> 5971.00.
    const b = await preview(G, `&distributor=${d.surat}`);
    expect(b).toMatchObject({ tax: '470.09', total: '5971.00' });
    expect(b.lines.map((l) => l.tax)).toEqual(['200.00', '270.09']);
    // The mixer's bill cost is 1400.00: IGST 252.00; tax 452.00; 5400.00 + 452.00 = 5852.00.
    const mixer = a.lines[1]!.sl_no;
    const c = await preview(G, `&distributor=${d.surat}&costs=${mixer}:1400`);
    expect(c).toMatchObject({ subtotal: '5400.00', tax: '452.00', total: '5852.00' });
    const r = await inAs(G).post('/checkOutPurchase', { bill_no: 'G-1', distributor: d.surat, officer: '', paid: '0', due_date: future(), cart_no: 1, lines: [{ sl_no: mixer, cp: '1400' }] });
    expect(r.status).toBe(200);
    const det = await details(G, r.body[0].purchaseId);
    expect(det).toMatchObject({ subTotal: 5400, taxAmount: 452, total: 5852 });
    expect(det.gst?.lines.map((l) => [l.taxable_value, l.igst])).toEqual([
      ['4000.00', '200.00'],
      ['1400.00', '252.00'],
    ]);
    expect(det.bill_date).toBeUndefined();
    expect(await dueOf(GST, d.surat)).toBe('5852');
  });

  it('bad input: 400 with a sentence, nothing bought; staff 403; an empty cart', async () => {
    await fill(S, [[1, p.rice]]);
    const sl = (await preview(S)).lines[0]!.sl_no;
    const bads: [Record<string, unknown>, RegExp][] = [
      [{ lines: [{ sl_no: sl, cp: 'abc' }] }, /Cost price of line/],
      [{ lines: [{ sl_no: sl, cp: '-1' }] }, /Cost price of line/],
      [{ lines: [{ cp: '10' }] }, /sl_no/],
      [{ lines: 'x' }, /lines must be a list/],
      [{ bill_date: '2026-02-30' }, /Bill date must be a date/],
      [{ bill_date: '2999-01-01' }, /Bill date cannot be in the future/],
    ];
    const purchasesBefore = await purchases.countDocuments({ companyId: SIMPLE });
    for (const [extra, msg] of bads) {
      const r = await inAs(S).post('/checkOutPurchase', { bill_no: 'X', distributor: d.plain, officer: '', paid: '0', due_date: future(), cart_no: 1, ...extra });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(msg);
    }
    expect(await purchases.countDocuments({ companyId: SIMPLE })).toBe(purchasesBefore);
    expect((await inAs(S).get('/previewPurchase?cart_no=1&costs=1:x').expect(400)).body.message).toMatch(/Cost price of line 1/);
    expect((await inAs(S).get('/previewPurchase?cart_no=1&distributor=abc').expect(400)).body.message).toMatch(/distributor/);
    await request(inv.url).get('/previewPurchase?cart_no=1').set(auth(token(SIMPLE, 'staff'))).expect(403);
    expect((await inAs(S).get('/previewPurchase?cart_no=2').expect(400)).body.message).toBe('cart is emplty!!');
  });
});
