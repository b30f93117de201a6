// GSTR-2B matching (issue 31): hand-made 2B files in the portal's JSON structure against purchases.
import request from 'supertest';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { nestRequest } from '@bahi/auth';
import { Subjects, type GstInwardReply } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { today } from '@bahi/service-kit';
import { AppModule } from '../src/app.module';
import { auth, makeCategory, makeProduct, SECRET, token } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: LedgerModule } = require('@bahi/ledger/dist/app.module') as { AppModule: unknown };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AppModule: SalesModule } = require('@bahi/sales/dist/app.module') as { AppModule: unknown };

const MH_COMPANY = '27AAPFU0939F1ZV';
const MH_GSTIN = '27AAACB1234C1ZF';
const GJ_GSTIN = '24AAGCS5678K1ZT';
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
const tag = Math.random().toString(36).slice(2, 8);
const opts = (service: 'inventory' | 'ledger' | 'sales') => ({ service, mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: SECRET, dbName: `bahi_${service}_${tag}` });
const G = token(GST, 'manager');
const p: Record<string, number> = {};
const d: Record<string, number> = {};
const ids: Record<string, number> = {};

const period = today().slice(0, 7);
const [yy, mm, dd] = today().split('-');
const rtnprd = `${mm}${yy}`;
const dt = `${dd}-${mm}-${yy}`;
const future = () => {
  const x = new Date(`${today()}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + 30);
  return x.toISOString().slice(0, 10);
};

async function buy(bill_no: string, distributor: number, lines: [number, number][]): Promise<number> {
  for (const [q, id] of lines) await request(sales.url).get(`/addProductIntoCart/${encodeURIComponent(`${q}*${id}`)}`).set(auth(G)).expect(200);
  const r = await request(inv.url).post('/checkOutPurchase').set(auth(G)).send({ bill_no, bill_date: today(), distributor, officer: '', paid: '0', due_date: future(), cart_no: 1 });
  if (r.status !== 200) throw new Error(`purchase: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body[0].purchaseId;
}

/** The portal's GSTR-2B download: data.docdata.b2b[{ctin, trdnm, inv[{inum, dt, val, txval, igst, cgst, sgst, cess, items}]}]. */
const twoB = (b2b: unknown[], extra: Record<string, unknown> = {}) => ({ data: { gstin: MH_COMPANY, rtnprd, version: '1.0', gendt: dt, docdata: { b2b }, ...extra } });
const invoice = (inum: string, txval: number, t: { igst?: number; cgst?: number; sgst?: number }, date = dt) => {
  const tax = { igst: 0, cgst: 0, sgst: 0, cess: 0, ...t };
  return { inum, typ: 'R', dt: date, val: txval + tax.igst + tax.cgst + tax.sgst, pos: '27', rev: 'N', itcavl: 'Y', rsn: '', diffprcnt: 1, srctyp: 'e-Invoice', items: [{ num: 1, rt: 0, txval, ...tax }] };
};
const file = twoB([
  // P1 written 'mw-42' by the supplier, 'MW/0042' in the books: same bill.
  { ctin: MH_GSTIN, trdnm: 'MUMBAI WHOLESALE', supfildt: dt, supprd: rtnprd, inv: [invoice('mw-42', 2000, { cgst: 50, sgst: 50 }), invoice('MW/0043', 200, { cgst: 12.4, sgst: 12.4 })] },
  { ctin: GJ_GSTIN, trdnm: 'SURAT TRADERS', supfildt: dt, supprd: rtnprd, inv: [invoice('ST-7', 1500.5, { igst: 275.09 }), invoice('ST-9', 1000, { igst: 180 })] },
]);

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
  const g = await makeCategory(inv.url, G, 'Goods');
  p.sugar = await makeProduct(inv.url, G, { catagory: g, name: 'Sugar 50kg', mrp: '2400', cp: '2000', tax: '5', hsn_code: '1701' });
  p.mixer = await makeProduct(inv.url, G, { catagory: g, name: 'Mixer', mrp: '2500', cp: '1500.50', tax: '18', hsn_code: '8509' });
  p.bulb = await makeProduct(inv.url, G, { catagory: g, name: 'Bulb', mrp: '150', cp: '100', tax: '12', hsn_code: '8539' });
  const dist = async (name: string, fields: Record<string, unknown>) => {
    const r = await request(ledger.url).post('/addDistributor').set(auth(G)).send({ name, address_line_1: '1 Market Road', address_line_2: '', city_or_district: 'Town', country: 'India', postal_code: '400001', officers: [], ...fields });
    if (r.status !== 200) throw new Error(`distributor: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.id as number;
  };
  d.mumbai = await dist('Mumbai Wholesale', { state: 'MH', gstin: MH_GSTIN });
  d.surat = await dist('Surat Traders', { state: 'Gujarat', gstin: GJ_GSTIN });
  // Sugar 1 x 2000.00 at 5 %: CGST 50.00 + SGST 50.00 = 100.00.
  ids.p1 = await buy('MW/0042', d.mumbai, [[1, p.sugar]]);
  // Bulb 2 x 100.00 at 12 %: CGST 12.00 + SGST 12.00 = 24.00 (the 2B says 24.80: within Rs 1).
  ids.p2 = await buy('MW/0043', d.mumbai, [[2, p.bulb]]);
  // Mixer 1 x 1500.50 at 18 % from Gujarat: IGST 270.09 (the 2B says 275.09: Rs 5 off).
  ids.p3 = await buy('ST-7', d.surat, [[1, p.mixer]]);
  // Bulb 1 x 100.00 at 12 %: 12.00, never reported by the supplier.
  ids.p4 = await buy('MW/0050', d.mumbai, [[1, p.bulb]]);
}, 180_000);

afterAll(async () => {
  await nc?.close();
  for (const svc of [sales, ledger, inv]) await svc?.close().catch(() => undefined);
  await nats?.stop();
  await mongo?.stop();
});

const post = (body: unknown, t = G, q = `period=${period}`) => request(inv.url).post(`/gst/gstr2b?${q}`).set(auth(t)).send(body as object);

describe('GSTR-2B matching', () => {
  it('before an upload every purchase of the month is missing in 2B', async () => {
    const r = (await request(inv.url).get(`/gst/gstr2b?period=${period}`).set(auth(G)).expect(200)).body;
    expect(r).toMatchObject({ period, uploaded: false, matched: [], differences: [], missing_in_books: [] });
    expect(r.missing_in_2b.map((b: any) => b.purchaseId)).toEqual([ids.p1, ids.p2, ids.p3, ids.p4]);
  });

  it('refuses a wrong period, another GSTIN, a bad date, a non-2B body, staff and a simple company; nothing is stored', async () => {
    const msg = async (r: request.Test, re: RegExp) => expect(JSON.stringify((await r.expect(400)).body)).toMatch(re);
    await msg(post(file, G, 'period=2026-13'), /period must be a month written YYYY-MM/);
    await msg(post(twoB([], { rtnprd: '012020' })), /for the period 01\/2020/);
    await msg(post(twoB([], { gstin: '24AAGCS5678K1ZT' })), /belongs to GSTIN 24AAGCS5678K1ZT/);
    await msg(post(twoB([{ ctin: MH_GSTIN, trdnm: 'X', inv: [invoice('A1', 10, {}, '2026/10/05')] }])), /the portal writes dd-mm-yyyy/);
    await msg(post({ hello: 'world' }), /not a GSTR-2B JSON file/);
    await post(file, token(GST, 'staff')).expect(403);
    await msg(post(file, token(SIMPLE, 'manager')), /needs the company in GST mode/);
    expect((await request(inv.url).get(`/gst/gstr2b?period=${period}`).set(auth(G)).expect(200)).body.uploaded).toBe(false);
  });

  it('matches a bill number written differently and a tax Rs 0.80 off; Rs 5 off is a difference; the rest are missing', async () => {
    const r = (await post(file).expect(200)).body;
    expect(r.uploaded).toBe(true);
    expect(r.matched.map((m: any) => [m.books.purchaseId, m.books.bill_no, m.portal.bill_no, m.books.tax, m.portal.tax])).toEqual([
      [ids.p1, 'MW/0042', 'mw-42', '100.00', '100.00'],
      [ids.p2, 'MW/0043', 'MW/0043', '24.00', '24.80'],
    ]);
    expect(r.differences).toHaveLength(1);
    expect(r.differences[0].books).toMatchObject({ purchaseId: ids.p3, gstin: GJ_GSTIN, bill_no: 'ST-7', taxable: '1500.50', tax: '270.09', bill_date: today() });
    expect(r.differences[0].fields).toEqual([{ field: 'tax', books: '270.09', portal: '275.09' }]);
    expect(r.missing_in_books).toEqual([{ gstin: GJ_GSTIN, supplier: 'SURAT TRADERS', bill_no: 'ST-9', bill_date: today(), value: '1180.00', taxable: '1000.00', tax: '180.00', itc_available: true }]);
    expect(r.missing_in_2b).toEqual([{ purchaseId: ids.p4, distributorId: d.mumbai, supplier: 'Mumbai Wholesale', gstin: MH_GSTIN, bill_no: 'MW/0050', bill_date: today(), taxable: '100.00', tax: '12.00' }]);
    // GET answers the stored upload the same way.
    expect((await request(inv.url).get(`/gst/gstr2b?period=${period}`).set(auth(G)).expect(200)).body).toEqual(r);
  });

  it('a different bill date is a difference naming both dates', async () => {
    const r = (await post(twoB([{ ctin: MH_GSTIN, trdnm: 'MUMBAI WHOLESALE', inv: [invoice('MW 50', 100, { cgst: 6, sgst: 6 }, '01-01-2020')] }])).expect(200)).body;
    expect(r.differences.map((x: any) => [x.books.purchaseId, x.fields])).toEqual([[ids.p4, [{ field: 'bill_date', books: today(), portal: '2020-01-01' }]]]);
    expect(r.missing_in_2b.map((b: any) => b.purchaseId)).toEqual([ids.p1, ids.p2, ids.p3]);
  });

  it('itc_from_matched_only: GSTR-3B ITC comes from the matched bills only', async () => {
    await post(file).expect(200);
    const inward = () => nestRequest<GstInwardReply>(nc, Subjects.inventory.gstInward, { companyId: GST, from: `${period}-01`, to: today() }) as Promise<GstInwardReply>;
    // All four: CGST 50 + 12 + 6 = 68.00 and SGST the same; IGST 270.09.
    expect((await inward()).itc).toEqual({ igst: '270.09', cgst: '68.00', sgst: '68.00' });
    COMPANIES[GST]!.itc_from_matched_only = true;
    // Matched P1 (50 + 50) and P2 (12 + 12) only: P3 is a difference, P4 missing in 2B.
    expect((await inward()).itc).toEqual({ igst: '0.00', cgst: '62.00', sgst: '62.00' });
    COMPANIES[GST]!.itc_from_matched_only = false;
  });
});
