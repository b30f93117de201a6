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

describe('GSTR-2B credit and debit notes (cdnr, cdnra) and amended invoices (b2ba)', () => {
  const dn: Record<string, { id: number; no: string }> = {};
  const giveBack = async (purchaseId: number, k: string) => {
    const sl = (await request(inv.url).get(`/getPurchaseDetails?purchaseId=${purchaseId}`).set(auth(G)).expect(200)).body.lines[0].sl_no;
    const r = await request(inv.url).post('/purchaseReturn').set(auth(G)).send({ purchaseId, lines: [{ sl_no: sl, quantity: 1 }], refund: 0, idempotencyKey: k, reason: 'Damaged' });
    if (r.status !== 200) throw new Error(`return: ${r.status} ${JSON.stringify(r.body)}`);
    return { id: r.body.debitNoteId as number, no: r.body.debit_note_no as string };
  };
  /** A portal note: `nt` entries as India Compliance's GSTR2bCDNR reads them (ntnum, typ C/D, dt, val, items). */
  const note = (ntnum: string, typ: 'C' | 'D', txval: number, t: { igst?: number; cgst?: number; sgst?: number }, extra: Record<string, unknown> = {}) => {
    const tax = { igst: 0, cgst: 0, sgst: 0, cess: 0, ...t };
    return { ntnum, typ, suptyp: 'R', dt, val: txval + tax.igst + tax.cgst + tax.sgst, pos: '27', rev: 'N', itcavl: 'Y', rsn: '', diffprcnt: 1, srctyp: '', items: [{ num: 1, rt: 0, txval, ...tax }], ...extra };
  };
  // Lower case and without the leading zeros: the supplier's way of writing our number.
  const loose = (no: string) => no.toLowerCase().replace(/\/0+/, '/');
  let notesFile: object;

  beforeAll(async () => {
    // Sugar 2 x 2000.00 at 5 %: taxable 4000.00, CGST 100.00 + SGST 100.00.
    ids.p5 = await buy('MW/0060', d.mumbai, [[2, p.sugar]]);
    // One sugar back: taxable 2000.00, CGST 50.00 + SGST 50.00.
    dn.sugar = await giveBack(ids.p5, 'dn-sugar');
    // The mixer of P3 back: taxable 1500.50, IGST 270.09.
    dn.mixer = await giveBack(ids.p3!, 'dn-mixer');
    // The bulb of P4 back: taxable 100.00, CGST 6.00 + SGST 6.00.
    dn.bulb4 = await giveBack(ids.p4!, 'dn-bulb4');
    // One of P2's two bulbs back: taxable 100.00, CGST 6.00 + SGST 6.00; the supplier reports no note for it.
    dn.bulb2 = await giveBack(ids.p2!, 'dn-bulb2');
    const b2b = (file as { data: { docdata: { b2b: { ctin: string; inv: unknown[] }[] } } }).data.docdata.b2b;
    notesFile = {
      data: {
        gstin: MH_COMPANY,
        rtnprd,
        docdata: {
          b2b: [
            // The first file's bills, P5's, and P4's as first reported (tax 7 + 7: wrong; amended below).
            { ...b2b[0], inv: [...b2b[0]!.inv, invoice('MW/0060', 4000, { cgst: 100, sgst: 100 }), invoice('MW/0050', 100, { cgst: 7, sgst: 7 })] },
            b2b[1],
          ],
          // The amendment of MW/0050 under a new number: it replaces the first report and matches P4 by the original number.
          b2ba: [{ ctin: MH_GSTIN, trdnm: 'MUMBAI WHOLESALE', supfildt: dt, supprd: rtnprd, inv: [{ ...invoice('MW/0050-A', 100, { cgst: 6, sgst: 6 }), oinum: 'MW/0050', oidt: dt }] }],
          cdnr: [
            // Our note for the sugar, tax 100.30 (within Rs 1); a supplier's debit note we have no counterpart of.
            { ctin: MH_GSTIN, trdnm: 'MUMBAI WHOLESALE', supfildt: dt, supprd: rtnprd, nt: [note(loose(dn.sugar.no), 'C', 2000, { cgst: 50, sgst: 50.3 }), note('SDN-5', 'D', 100, { cgst: 6, sgst: 6 })] },
            // The mixer's note with IGST 265.09: Rs 5 off.
            { ctin: GJ_GSTIN, trdnm: 'SURAT TRADERS', supfildt: dt, supprd: rtnprd, nt: [note(dn.mixer.no, 'C', 1500.5, { igst: 265.09 })] },
          ],
          // P4's bulb note amended to the supplier's own number; matched by the number first reported.
          cdnra: [{ ctin: MH_GSTIN, trdnm: 'MUMBAI WHOLESALE', supfildt: dt, supprd: rtnprd, nt: [note('MWCN-9', 'C', 100, { cgst: 6, sgst: 6 }, { ontnum: dn.bulb4.no, ontdt: dt, onttyp: 'C' })] }],
        },
      },
    };
  }, 120_000);

  it('matches the credit notes with the debit notes by the same rules as bills; a debit note from the supplier is missing in the books', async () => {
    const r = (await post(notesFile).expect(200)).body;
    expect(r.notes.matched.map((m: any) => [m.books.debitNoteId, m.books.bill_no, m.portal.bill_no, m.books.tax, m.portal.tax, m.portal.section ?? 'cdnr'])).toEqual([
      [dn.sugar.id, dn.sugar.no, loose(dn.sugar.no), '100.00', '100.30', 'cdnr'],
      [dn.bulb4.id, dn.bulb4.no, 'MWCN-9', '12.00', '12.00', 'cdnra'],
    ]);
    expect(r.notes.matched[1].portal).toMatchObject({ note_type: 'C', original_bill_no: dn.bulb4.no, original_bill_date: today() });
    expect(r.notes.differences.map((x: any) => [x.books.debitNoteId, x.books.purchase_bill_no, x.fields])).toEqual([[dn.mixer.id, 'ST-7', [{ field: 'tax', books: '270.09', portal: '265.09' }]]]);
    expect(r.notes.missing_in_books).toEqual([
      { gstin: MH_GSTIN, supplier: 'MUMBAI WHOLESALE', bill_no: 'SDN-5', bill_date: today(), value: '112.00', taxable: '100.00', tax: '12.00', itc_available: true, note_type: 'D' },
    ]);
    expect(r.notes.missing_in_2b).toEqual([
      { debitNoteId: dn.bulb2.id, purchaseId: ids.p2, distributorId: d.mumbai, supplier: 'Mumbai Wholesale', gstin: MH_GSTIN, bill_no: dn.bulb2.no, bill_date: today(), taxable: '100.00', tax: '12.00', purchase_bill_no: 'MW/0043' },
    ]);
    // Bills: the amended MW/0050 replaced its first report and matched P4 by the original number; P5 matched.
    expect(r.matched.map((m: any) => [m.books.purchaseId, m.portal.bill_no, m.portal.section ?? 'b2b', m.portal.tax])).toEqual([
      [ids.p1, 'mw-42', 'b2b', '100.00'],
      [ids.p2, 'MW/0043', 'b2b', '24.80'],
      [ids.p5, 'MW/0060', 'b2b', '200.00'],
      [ids.p4, 'MW/0050-A', 'b2ba', '12.00'],
    ]);
    expect(r.matched[3].portal).toMatchObject({ original_bill_no: 'MW/0050', original_bill_date: today() });
    expect(r.differences.map((x: any) => x.books.purchaseId)).toEqual([ids.p3]);
    expect(r.missing_in_books.map((x: any) => x.bill_no)).toEqual(['ST-9']);
    expect(r.missing_in_2b).toEqual([]);
    expect((await request(inv.url).get(`/gst/gstr2b?period=${period}`).set(auth(G)).expect(200)).body).toEqual(r);
  });

  it('refuses a note without a type or an amendment without its original number, naming it; the stored 2B stays', async () => {
    const bad = (docdata: object) => post({ data: { gstin: MH_COMPANY, rtnprd, docdata } }).expect(400);
    expect((await bad({ cdnr: [{ ctin: MH_GSTIN, nt: [note('CN-1', 'X' as 'C', 10, {})] }] })).body.message).toBe(`The note CN-1 of ${MH_GSTIN} has the type 'X'; a note is C (credit) or D (debit).`);
    expect((await bad({ b2ba: [{ ctin: MH_GSTIN, inv: [invoice('A-2', 10, {})] }] })).body.message).toBe(`The amended invoice A-2 of ${MH_GSTIN} in b2ba has no original number (oinum).`);
    expect((await bad({ cdnr: [{ ctin: MH_GSTIN, inv: [] }] })).body.message).toBe(`Supplier ${MH_GSTIN} in the GSTR-2B file has no list of notes (nt) in cdnr.`);
    expect((await request(inv.url).get(`/gst/gstr2b?period=${period}`).set(auth(G)).expect(200)).body.notes.matched).toHaveLength(2);
  });

  it('itc_from_matched_only: a debit note takes credit back when its credit note or its purchase was matched, else not', async () => {
    const inward = () => nestRequest<GstInwardReply>(nc, Subjects.inventory.gstInward, { companyId: GST, from: `${period}-01`, to: today() }) as Promise<GstInwardReply>;
    // All bills: CGST 50 (P1) + 12 (P2) + 6 (P4) + 100 (P5) = 168.00 less every note 50 + 6 + 6 = 62.00: 106.00,
    // SGST the same; IGST 270.09 (P3) - 270.09 (its note) = 0.00.
    expect((await inward()).itc).toEqual({ igst: '0.00', cgst: '106.00', sgst: '106.00' });
    COMPANIES[GST]!.itc_from_matched_only = true;
    try {
      // Matched bills P1, P2, P4 (b2ba), P5: CGST 50 + 12 + 6 + 100 = 168.00; P3 (a difference) none.
      // Notes: sugar (matched) 50 and bulb4 (matched, cdnra) 6 come off; bulb2's credit note is missing but its
      // purchase P2 was matched, so its 6 comes off too; the mixer's note is a difference and P3's credit was
      // never taken: nothing comes off (IGST stays 0.00, not -270.09). 168.00 - 62.00 = 106.00.
      expect((await inward()).itc).toEqual({ igst: '0.00', cgst: '106.00', sgst: '106.00' });
      // With the first file (no notes, no P5, MW/0050 not reported): P1 and P2 matched only: CGST 50 + 12 = 62.00;
      // bulb2's purchase P2 matched: 6 off; sugar's P5 and bulb4's P4 unmatched, their notes unmatched: nothing off. 56.00.
      await post(file).expect(200);
      expect((await inward()).itc).toEqual({ igst: '0.00', cgst: '56.00', sgst: '56.00' });
    } finally {
      COMPANIES[GST]!.itc_from_matched_only = false;
    }
  });
});
