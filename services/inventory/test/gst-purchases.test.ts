import request from 'supertest';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { Subjects, type GetPurchaseDetailsReply, type GstInwardReply } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { today } from '@bahi/service-kit';
import { gstinCheckChar } from '@bahi/gst';
import { AppModule } from '../src/app.module';
import { Movement } from '../src/schemas';
import { PURCHASE_MODEL, type PurchaseDoc } from '../src/purchases/purchase.schema';
import { auth, makeCategory, makeProduct, SECRET, token } from './helpers';

// ledger and sales run in-process from their builds (they are not dependencies of inventory).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: LedgerModule } = require('@bahi/ledger/dist/app.module') as { AppModule: unknown };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: SalesModule } = require('@bahi/sales/dist/app.module') as { AppModule: unknown };

// GSTINs with correct check characters (packages/gst/README.md works them out).
const MH_COMPANY = '27AAPFU0939F1ZV';
const MH_GSTIN = '27AAACB1234C1ZF';
const GJ_GSTIN = '24AAGCS5678K1ZT';

// Company 1 is in GST mode in Maharashtra, 2 a composition dealer there, 3 simple (identity's
// reply without tax_mode, as before GST mode).
const GST = 1;
const COMP = 2;
const SIMPLE = 3;
// 4: GST mode in Chandigarh, a union territory without a legislature (UTGST).
const UT = 4;
const CH_COMPANY = `04AAPFU0939F1Z${gstinCheckChar('04AAPFU0939F1Z')}`;
const COMPANIES: Record<number, Record<string, unknown>> = {
  [GST]: { tax_mode: 'gst', gstin: MH_COMPANY, state_code: '27', invoice_prefix: 'GT' },
  [COMP]: { tax_mode: 'composition', gstin: MH_COMPANY, state_code: '27', invoice_prefix: 'CP' },
  [SIMPLE]: {},
  [UT]: { tax_mode: 'gst', gstin: CH_COMPANY, state_code: '04', invoice_prefix: 'CH' },
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
const C = token(COMP, 'manager');
const S = token(SIMPLE, 'manager');
const U = token(UT, 'manager');
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

async function buy(t: string, distributor: number, paid = '0'): Promise<number> {
  const r = await inAs(t).post('/checkOutPurchase', { bill_no: `B-${Math.random()}`, distributor, officer: '', paid, due_date: future(), cart_no: 1 });
  if (r.status !== 200) throw new Error(`purchase: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body[0].purchaseId;
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
  p.tea = await makeProduct(inv.url, G, { catagory: g, name: 'Tea', unit: 'kg', mrp: '1500', cp: '1200', per_peice_quantity: '0.25', tax: '5', hsn_code: '0902' });
  p.bulb = await makeProduct(inv.url, G, { catagory: g, name: 'Bulb', mrp: '150', cp: '100', tax: '12', hsn_code: '8539' });
  p.fan = await makeProduct(inv.url, G, { catagory: g, name: 'Fan', mrp: '900', cp: '600', tax: '28', hsn_code: '84145110' });
  p.nohsn = await makeProduct(inv.url, G, { catagory: g, name: 'Loose Nails', mrp: '10', cp: '8', tax: '18' });
  const c = await makeCategory(inv.url, C, 'Goods');
  p.cbulb = await makeProduct(inv.url, C, { catagory: c, name: 'Bulb', mrp: '150', cp: '100', tax: '12', hsn_code: '8539' });
  const s = await makeCategory(inv.url, S, 'Goods');
  p.sbulb = await makeProduct(inv.url, S, { catagory: s, name: 'Bulb', mrp: '150', cp: '100', tax: '12' });

  d.mumbai = await distributor(G, 'Mumbai Wholesale', { state: 'MH', gstin: MH_GSTIN });
  d.surat = await distributor(G, 'Surat Traders', { state: 'Gujarat', gstin: GJ_GSTIN });
  // The form requires a state now; a row saved before it may have none (as ledger's own tests insert one).
  d.local = 9001;
  await purchases.db
    .useDb(`bahi_ledger_${tag}`)
    .collection('distributors')
    .insertOne({ companyId: GST, distributor_id: d.local, name: 'Corner Supplier', address_line_1: 'a', address_line_2: '', city_or_district: 'Pune', state: '', country: 'India', postal_code: '411001', officers: [] });
  d.blr = await distributor(G, 'Bengaluru Unregistered', { state: 'KA' });
  d.cmumbai = await distributor(C, 'Mumbai Wholesale', { state: 'MH', gstin: MH_GSTIN });
  d.sdist = await distributor(S, 'Plain Supplier', { state: 'WB' });
  const u = await makeCategory(inv.url, U, 'Goods');
  p.ubulb = await makeProduct(inv.url, U, { catagory: u, name: 'Bulb', mrp: '150', cp: '100', tax: '12', hsn_code: '8539' });
  d.chd = await distributor(U, 'Sector 17 Traders', { state: 'Chandigarh' });
}, 120_000);

afterAll(async () => {
  await nc?.close();
  for (const svc of [sales, ledger, inv]) await svc?.close().catch(() => undefined);
  await nats?.stop();
  await mongo?.stop();
});

const ids: Record<string, number> = {};

describe('a purchase in GST mode', () => {
  it('intra-state registered distributor: CGST and SGST per line, shipping less discount apportioned, round off up', async () => {
    // Sugar 3 x 2000.00 at 5 % = 6000.00; Mixer 2 x (1500.50 - 0.50) at 18 % = 3000.00.
    // Shipping 100.00 - discount 30.00 = 70.00 spread by taxable value: 70 x 6000/9000 = 46.666.. -> 46.67,
    // 70 x 3000/9000 = 23.333.. -> 23.33 (sum 70.00). Taxable 6046.67 and 3023.33 = 9070.00.
    // Sugar CGST = SGST = 6046.67 x 5 / 200 = 151.16675 -> 151.17; Mixer 3023.33 x 18 / 200 = 272.0997 -> 272.10.
    // CGST 423.27 + SGST 423.27 = 846.54; 9070.00 + 846.54 = 9916.54 -> 9917.00 (round off +0.46).
    await fill(G, [[3, p.sugar], [2, p.mixer, '0.50']], { tax: 1, shipping: '100', discount: '30' });
    const before = await stockOf(GST, p.sugar);
    ids.intra = await buy(G, d.mumbai, '1000');
    const r = await details(G, ids.intra);
    expect(r).toMatchObject({ subTotal: 9000, shipping: 100, summery_discount: 30, tax: 0, taxAmount: 846.54, total: 9917, paid: 1000, new_due: 8917 });
    expect(r.gst).toEqual({
      distributor_gstin: MH_GSTIN,
      distributor_state_code: '27',
      distributor_state_name: 'Maharashtra',
      company_state_code: '27',
      inter_state: false,
      state_tax_name: 'SGST',
      lines: [
        { sl_no: r.lines[0].sl_no, hsn_code: '1701', gst_rate: '5', taxable_value: '6046.67', cgst: '151.17', sgst: '151.17', igst: '0.00' },
        { sl_no: r.lines[1].sl_no, hsn_code: '8509', gst_rate: '18', taxable_value: '3023.33', cgst: '272.10', sgst: '272.10', igst: '0.00' },
      ],
      taxable_total: '9070.00',
      cgst_total: '423.27',
      sgst_total: '423.27',
      igst_total: '0.00',
      tax_total: '846.54',
    });
    // The distributor is owed their tax invoice's value; stock comes in at cp (the tax is credit, not cost).
    expect(await dueOf(GST, d.mumbai)).toBe('8917');
    expect(Number(await stockOf(GST, p.sugar)) - Number(before)).toBe(3);
  });

  it('inter-state distributor: IGST on mixed rates, a per-piece unit, a paisa remainder to the largest line, round off down', async () => {
    // Tea 1 x 1200.00 x 0.25 kg at 5 % = 300.00; Bulb 3 x 100.00 at 12 % = 300.00; Fan 1 x 600.00 at 28 % = 600.00.
    // Shipping 0.30 - discount 0.20 = 0.10: 0.025 -> 0.03, 0.025 -> 0.03, 0.05 -> 0.05 = 0.11; the
    // extra -0.01 goes to the largest line (Fan): 0.04. Taxable 300.03 + 300.03 + 600.04 = 1200.10.
    // IGST 300.03 x 5 % = 15.0015 -> 15.00; 300.03 x 12 % = 36.0036 -> 36.00; 600.04 x 28 % = 168.0112 -> 168.01.
    // IGST 219.01; 1200.10 + 219.01 = 1419.11 -> 1419.00 (round off -0.11).
    await fill(G, [[1, p.tea], [3, p.bulb], [1, p.fan]], { shipping: '0.30', discount: '0.20' });
    ids.inter = await buy(G, d.surat);
    const r = await details(G, ids.inter);
    expect(r).toMatchObject({ subTotal: 1200, taxAmount: 219.01, total: 1419, tax: 0 });
    expect(r.gst).toMatchObject({
      distributor_gstin: GJ_GSTIN,
      distributor_state_code: '24',
      distributor_state_name: 'Gujarat',
      inter_state: true,
      taxable_total: '1200.10',
      cgst_total: '0.00',
      sgst_total: '0.00',
      igst_total: '219.01',
      tax_total: '219.01',
    });
    expect(r.gst!.lines.map((l) => [l.hsn_code, l.gst_rate, l.taxable_value, l.igst, l.cgst])).toEqual([
      ['0902', '5', '300.03', '15.00', '0.00'],
      ['8539', '12', '300.03', '36.00', '0.00'],
      ['84145110', '28', '600.04', '168.01', '0.00'],
    ]);
    expect(await dueOf(GST, d.surat)).toBe('1419');
  });

  it('freezes the GSTIN and state: changing the distributor afterwards does not change the purchase', async () => {
    const ka = '29AAGCS5678K1Z';
    const edit = await request(ledger.url)
      .put('/addDistributor')
      .set(auth(G))
      .send({ id: d.surat, name: 'Surat Traders', address_line_1: '1 Market Road', address_line_2: '', city_or_district: 'Town', state: 'KA', country: 'India', postal_code: '400001', gstin: ka + gstinCheckChar(ka), officers: [] });
    expect(edit.status).toBe(200);
    expect(edit.body.distributor).toMatchObject({ state_code: '29' });
    const r = await details(G, ids.inter);
    expect(r.gst).toMatchObject({ distributor_gstin: GJ_GSTIN, distributor_state_code: '24', distributor_state_name: 'Gujarat', igst_total: '219.01' });
  });

  it('a distributor with neither GSTIN nor state is taken to be in the company state (CGST/SGST, no ITC)', async () => {
    // Mixer 1 x 1500.50 at 18 %: CGST = SGST = 1500.50 x 9 % = 135.045 -> 135.05; 1500.50 + 270.10 = 1770.60 -> 1771.00.
    await fill(G, [[1, p.mixer]]);
    ids.local = await buy(G, d.local);
    const r = await details(G, ids.local);
    expect(r).toMatchObject({ total: 1771, taxAmount: 270.1 });
    expect(r.gst).toMatchObject({ distributor_gstin: null, distributor_state_code: null, distributor_state_name: null, inter_state: false, cgst_total: '135.05', sgst_total: '135.05', igst_total: '0.00' });
  });

  it('an unregistered distributor in another state (state only) is inter-state', async () => {
    // Bulb 1 x 100.00 at 12 %: IGST 12.00; 112.00.
    await fill(G, [[1, p.bulb]]);
    ids.blr = await buy(G, d.blr);
    const r = await details(G, ids.blr);
    expect(r).toMatchObject({ total: 112 });
    expect(r.gst).toMatchObject({ distributor_gstin: null, distributor_state_code: '29', distributor_state_name: 'Karnataka', inter_state: true, igst_total: '12.00' });
  });

  it('refuses a product without an HSN code naming it, and changes nothing', async () => {
    await fill(G, [[1, p.bulb], [2, p.nohsn]]);
    const stock = await stockOf(GST, p.nohsn);
    const due = await dueOf(GST, d.mumbai);
    const count = await purchases.countDocuments({ companyId: GST });
    const r = await inAs(G).post('/checkOutPurchase', { bill_no: 'NOHSN', distributor: d.mumbai, officer: '', paid: '0', due_date: future(), cart_no: 1 });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Loose Nails: set its HSN code in the catalogue before buying it in GST mode (the HSN-wise input tax needs it).');
    expect(await stockOf(GST, p.nohsn)).toBe(stock);
    expect(await dueOf(GST, d.mumbai)).toBe(due);
    expect(await purchases.countDocuments({ companyId: GST })).toBe(count);
    expect((await cart(G).get('/getProducts?cart_no=1').expect(200)).body.cart).toHaveLength(2);
    await request(sales.url).delete('/clearCart/1').set(auth(G)).expect(200);
    expect((await cart(G).get('/getProducts?cart_no=1').expect(200)).body.cart).toHaveLength(0);
  });
});

describe('composition and simple mode', () => {
  it('composition: the tax paid is in the total and in the stock cost, never credit', async () => {
    // Bulb 2 x 100.00 at 12 % from a Maharashtra distributor: CGST = SGST = 200 x 6 % = 12.00; total 224.00.
    // Stock cost per piece includes the tax it cannot claim: 100.00 x 1.12 = 112.00.
    await fill(C, [[2, p.cbulb]]);
    ids.comp = await buy(C, d.cmumbai);
    const r = await details(C, ids.comp);
    expect(r).toMatchObject({ subTotal: 200, taxAmount: 24, total: 224 });
    expect(r.gst).toMatchObject({ distributor_gstin: MH_GSTIN, inter_state: false, cgst_total: '12.00', sgst_total: '12.00', tax_total: '24.00' });
    const moves = await inv.app.get<Model<Movement>>(getModelToken(Movement.name)).find({ companyId: COMP, kind: 'purchase', source_id: ids.comp }).lean();
    expect(moves.map((m) => [m.product_id, m.qty_m, m.rate_p])).toEqual([[p.cbulb, 2000, 11200]]);
    const inward = await ask<GstInwardReply>(Subjects.inventory.gstInward, { companyId: COMP, from: today(), to: today() });
    expect(inward).toEqual({ purchases: 1, taxable: '200.00', igst: '0.00', cgst: '12.00', sgst: '12.00', itc: { igst: '0.00', cgst: '0.00', sgst: '0.00' } });
  });

  it('simple mode: the spec 18 % flag as before and gst null', async () => {
    // Bulb 3 x 100.00 = 300.00; 18 % = 54.00; 354.00.
    await fill(S, [[3, p.sbulb]], { tax: 1 });
    const id = await buy(S, d.sdist);
    const r = await details(S, id);
    expect(r).toMatchObject({ subTotal: 300, tax: 1, taxAmount: 54, total: 354, gst: null });
    expect(await ask<GstInwardReply>(Subjects.inventory.gstInward, { companyId: SIMPLE, from: '2000-01-01', to: '2099-12-31' })).toMatchObject({ purchases: 0, taxable: '0.00' });
  });
});

describe('inventory.gst.inward', () => {
  it('totals the input tax of complete purchases in [from, to]; ITC only from distributors with a GSTIN', async () => {
    // All four of company 1 today: taxable 9070.00 + 1200.10 + 1500.50 + 100.00 = 11870.60;
    // CGST 423.27 + 135.05 = 558.32 (SGST the same); IGST 219.01 + 12.00 = 231.01.
    // ITC: only Mumbai (GSTIN, CGST/SGST 423.27) and Surat (GSTIN, IGST 219.01).
    const all = await ask<GstInwardReply>(Subjects.inventory.gstInward, { companyId: GST, from: today(), to: today() });
    expect(all).toEqual({ purchases: 4, taxable: '11870.60', igst: '231.01', cgst: '558.32', sgst: '558.32', itc: { igst: '219.01', cgst: '423.27', sgst: '423.27' } });

    // Purchases are dated today; spread them over April and May to check the range's edges.
    await purchases.updateOne({ companyId: GST, purchaseId: ids.intra }, { $set: { date: '2026-04-30' } });
    await purchases.updateOne({ companyId: GST, purchaseId: ids.inter }, { $set: { date: '2026-05-01' } });
    await purchases.updateOne({ companyId: GST, purchaseId: ids.local }, { $set: { date: '2026-05-31' } });
    await purchases.updateOne({ companyId: GST, purchaseId: ids.blr }, { $set: { date: '2026-06-01' } });
    // May: Surat (1200.10, IGST 219.01, ITC) + local (1500.50, CGST/SGST 135.05, no ITC).
    expect(await ask<GstInwardReply>(Subjects.inventory.gstInward, { companyId: GST, from: '2026-05-01', to: '2026-05-31' })).toEqual({
      purchases: 2,
      taxable: '2700.60',
      igst: '219.01',
      cgst: '135.05',
      sgst: '135.05',
      itc: { igst: '219.01', cgst: '0.00', sgst: '0.00' },
    });
    expect(await ask<GstInwardReply>(Subjects.inventory.gstInward, { companyId: GST, from: '2026-04-01', to: '2026-04-30' })).toEqual({
      purchases: 1,
      taxable: '9070.00',
      igst: '0.00',
      cgst: '423.27',
      sgst: '423.27',
      itc: { igst: '0.00', cgst: '423.27', sgst: '423.27' },
    });
    // Another company's purchases never count.
    expect((await ask<GstInwardReply>(Subjects.inventory.gstInward, { companyId: COMP, from: '2026-04-01', to: '2026-06-30' })).purchases).toBe(0);
  });

  it('refuses bad dates with a 400 sentence', async () => {
    await expect(ask(Subjects.inventory.gstInward, { companyId: GST, from: '2026-13-01', to: '2026-05-31' })).rejects.toMatchObject({ status: 400, message: 'from and to must be real dates written YYYY-MM-DD.' });
    await expect(ask(Subjects.inventory.gstInward, { companyId: GST, from: '2026-06-01', to: '2026-05-31' })).rejects.toMatchObject({ status: 400, message: 'from (2026-06-01) is after to (2026-05-31).' });
    await expect(ask(Subjects.inventory.gstInward, { companyId: GST, from: 20260501, to: '2026-05-31' })).rejects.toMatchObject({ status: 400 });
  });
});

describe('a union territory without a legislature', () => {
  it('names the state half UTGST (the amount stays in sgst)', async () => {
    // Bulb 1 x 100.00 at 12 % within Chandigarh: CGST = UTGST = 6.00; 112.00.
    await fill(U, [[1, p.ubulb]]);
    const det = await details(U, await buy(U, d.chd));
    expect(det).toMatchObject({ total: 112 });
    expect(det.gst).toMatchObject({ company_state_code: '04', distributor_state_code: '04', distributor_state_name: 'Chandigarh', inter_state: false, state_tax_name: 'UTGST', cgst_total: '6.00', sgst_total: '6.00' });
  });
});

describe('from an estimate', () => {
  it('prices a purchase from an estimate the same way (intra-state: CGST and SGST)', async () => {
    // Bulb 2 x 100.00 at 12 % from Mumbai: CGST = SGST = 200.00 x 6 % = 12.00; 224.00.
    await cart(G).get(`/addProductIntoCart/${encodeURIComponent(`2*${p.bulb}`)}`).expect(200);
    const estimateId = (await cart(G).get('/createEstimate?cart_no=1&clientId=0').expect(200)).body.estimateId;
    const r = await inAs(G).post('/checkOutPurchaseFromEstimate', { bill_no: 'EST-1', distributor: d.mumbai, officer: '', paid: '0', due_date: future(), estimateId }).expect(200);
    const det = await details(G, r.body[0].purchaseId);
    expect(det).toMatchObject({ subTotal: 200, taxAmount: 24, total: 224 });
    expect(det.gst).toMatchObject({ distributor_gstin: MH_GSTIN, inter_state: false, taxable_total: '200.00', cgst_total: '12.00', sgst_total: '12.00', igst_total: '0.00' });
    expect(det.gst!.lines).toEqual([{ sl_no: det.lines[0].sl_no, hsn_code: '8539', gst_rate: '12', taxable_value: '200.00', cgst: '12.00', sgst: '12.00', igst: '0.00' }]);
  });
});

describe('Download all data: GET /export/purchaseLines', () => {
  /** CSV rows as header -> text. */
  const records = (csv: string) => {
    const [head, ...rows] = csv.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    const headers = head!.split(',');
    return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [headers[i]!, v])));
  };
  const keys = ['Product', 'HSN code', 'Quantity', 'Rate', 'Discount', 'Amount', 'Taxable value', 'GST %', 'CGST', 'SGST', 'IGST'];

  it("each line of the intra-state purchase above with its input tax as frozen on it (managers; another company's lines absent)", async () => {
    const res = await inAs(G).get('/export/purchaseLines?format=csv').expect(200);
    const rows = records(res.text).filter((r) => r['Purchase ID'] === String(ids.intra));
    // The figures of the first test: Sugar 3 x 2000.00 = 6000.00, taxable 6046.67, CGST = SGST 151.17 at 5 %;
    // Mixer 2 x (1500.50 - 0.50) = 3000.00, taxable 3023.33, CGST = SGST 272.10 at 18 %.
    expect(rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])))).toEqual([
      { Product: 'Sugar 50kg', 'HSN code': '1701', Quantity: '3', Rate: '2000.00', Discount: '0.00', Amount: '6000.00', 'Taxable value': '6046.67', 'GST %': '5', CGST: '151.17', SGST: '151.17', IGST: '0.00' },
      { Product: 'Mixer', 'HSN code': '8509', Quantity: '2', Rate: '1500.50', Discount: '0.50', Amount: '3000.00', 'Taxable value': '3023.33', 'GST %': '18', CGST: '272.10', SGST: '272.10', IGST: '0.00' },
    ]);
    expect(rows[0]!.Distributor).toBe('Mumbai Wholesale');
    // Company 3 (simple) has its own purchase only (Bulb 3 x 100.00 above), without tax per line.
    const simple = records((await inAs(S).get('/export/purchaseLines?format=csv').expect(200)).text);
    expect(simple.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])))).toEqual([
      { Product: 'Bulb', 'HSN code': '', Quantity: '3', Rate: '100.00', Discount: '0.00', Amount: '300.00', 'Taxable value': '', 'GST %': '', CGST: '', SGST: '', IGST: '' },
    ]);
  });

  it('staff are refused with 403', async () => {
    await inAs(token(GST, 'staff')).get('/export/purchaseLines?format=csv').expect(403);
  });
});
