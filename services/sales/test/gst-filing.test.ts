// Quarterly filers (QRMP), IFF, filed periods and amendments against the real stack (identity,
// inventory, ledger, sales on the embedded MongoDB and nats-server). Sales are made through
// POST /MAKE_SALE with back dates in quarter 2026-27-Q2 (July-September 2026); every figure is
// worked out by hand in the comments.
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { gstinCheckChar } from '@bahi/gst';
import { today } from '@bahi/service-kit';
import { quarterOf } from '../src/gst-filing/periods';
import { ReturnModels, type CreditNoteDoc } from '../src/returns/schema';
import { as, auth, category, product, startSales, tokenFor, type Stack } from './helpers';

const GSTIN_MH = '27AAPFU0939F1ZV'; // the company (Maharashtra)
const GSTIN_GJ = '24AAGCS5678K1ZT'; // Surat Traders (Gujarat)
const GSTIN_GJ2 = `24AAACB1234C1Z${gstinCheckChar('24AAACB1234C1Z')}`; // the corrected GSTIN, same state
const GSTIN_MH2 = `27AAACB1234C1Z${gstinCheckChar('27AAACB1234C1Z')}`; // another state

let s: Stack;
let mgr: string;
let staff: string;
let M: ReturnType<typeof as>;
let bottle: number; // 590.00 incl. 18 %, HSN 7323
let notebook: number; // 100.00 excl. 12 %, HSN 4820
let surat: number;
const inv = (n: number) => `SG/26-27/${String(n).padStart(4, '0')}`;
const NOW_Q = quarterOf(today().slice(0, 7)).label;
const cnDate = today().split('-').reverse().join('-');

const company = (extra: object) =>
  request(s.identity.url).post('/setCompanyDetails').set(auth(mgr)).send({ id: s.companyId, name: 'Sharma General Store', add1: '4 Station Road', add2: 'Pune', mob1: '9822001122', mob2: '', email: 'shop@sharma.in', ...extra });

async function sell(date: string, items: [number, string][], clientId = 0, paid = '0') {
  await M.del('/clearCart/1').expect(200);
  for (const [id, qty] of items) await M.get(`/addProductIntoCart/${encodeURIComponent(`${qty}*${id}`)}?cart_no=1`).expect(200);
  return M.post('/MAKE_SALE', { clientId, cart_no: 1, paid, date, dueDate: today() });
}

/** GET as raw text (the download's exact bytes). */
const raw = async (path: string, token = mgr) => {
  const r = await request(s.url).get(path).set(auth(token)).buffer(true).parse((res, cb) => {
    let t = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (t += c));
    res.on('end', () => cb(null, t));
  });
  return { status: r.status, text: r.body as string, headers: r.headers };
};
const json = async (path: string) => {
  const r = await raw(path);
  expect(r.status).toBe(200);
  return JSON.parse(r.text);
};
/** Table 12 rows however the month's format holds them (one list, or split B2B / B2C): taxable value per HSN. */
function hsnTxval(doc: any): Record<string, number> {
  const rows: any[] = doc.hsn?.data ?? [...(doc.hsn?.hsn_b2b ?? []), ...(doc.hsn?.hsn_b2c ?? [])];
  const out: Record<string, number> = {};
  for (const r of rows) out[r.hsn_sc] = Math.round(((out[r.hsn_sc] ?? 0) + r.txval) * 100) / 100;
  return out;
}
const filed = (period: string, arn: string, token = mgr) => request(s.url).post(`/gst/periods/${period}/filed`).set(auth(token)).send({ arn });

let B: number, C: number;

beforeAll(async () => {
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  staff = tokenFor(s.companyId, 'staff');
  M = as(s.url, mgr);
  await company({ tax_mode: 'gst', gstin: GSTIN_MH, invoice_prefix: 'SG' }).expect(200);
  const cat = await category(s.inventory.url, mgr, 'Stationery');
  bottle = await product(s.inventory.url, mgr, cat, { name: 'Steel Bottle', mrp: '590', tax: '18', hsn_code: '7323', unit: 'pcs', stock: '1000' });
  notebook = await product(s.inventory.url, mgr, cat, { name: 'Notebook', mrp: '100', tax: '12', price_includes_tax: false, hsn_code: '4820', unit: 'pcs', stock: '1000' });
  const c = await request(s.ledger.url).post('/clients/addClient').set(auth(mgr)).send({
    mobile_no: '9876500024', name: 'Surat Traders', address_line_1: '9 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: GSTIN_GJ,
  });
  if (c.status !== 200) throw new Error(`customer: ${c.status} ${JSON.stringify(c.body)}`);
  surat = c.body.id;
  // A (10 July, Surat, inter-state): 1 bottle 590 incl. 18 % -> taxable 500.00, IGST 90.00, value 590.
  // B (12 August, Surat): 2 notebooks 2 x 100 excl. 12 % -> taxable 200.00, IGST 24.00, value 224 (100 paid).
  // C (5 September, Surat): bottle + notebook -> taxable 500 + 100, IGST 90 + 12, value 702.
  // D (20 August, walk-in, intra-state): 1 bottle -> taxable 500.00, CGST 45.00, SGST 45.00, value 590.
  const made = [
    await sell('2026-07-10', [[bottle, '1']], surat),
    await sell('2026-08-12', [[notebook, '2']], surat, '100'),
    await sell('2026-09-05', [[bottle, '1'], [notebook, '1']], surat),
    await sell('2026-08-20', [[bottle, '1']]),
  ];
  for (const r of made) if (r.status !== 200) throw new Error(`sale: ${r.status} ${JSON.stringify(r.body)}`);
  [, B, C] = made.map((r) => r.body.saleId as number);
  expect(made.map((r) => r.body.invoice_no)).toEqual([inv(1), inv(2), inv(3), inv(4)]);
}, 180_000);
afterAll(() => s?.stop());

describe('who asks for what: monthly and quarterly filers', () => {
  it('a monthly filer asking for a quarter or an IFF gets a sentence; nothing is filed', async () => {
    expect((await M.get('/gst/gstr1?quarter=2026-27-Q2').expect(400)).body.message).toMatch(/files GSTR-1 every month: give period=YYYY-MM/);
    expect((await M.get('/gst/iff?period=2026-07').expect(400)).body.message).toMatch(/IFF is for quarterly filers \(QRMP\)/);
    expect((await filed('2026-27-Q2', 'AA2710260000013').expect(400)).body.message).toMatch(/files GSTR-1 every month: give the month/);
    expect((await M.get('/gst/periods').expect(200)).body).toEqual({ gst_filing: 'monthly', periods: [] });
  });

  it('a quarterly filer: the month is refused for GSTR-1 and 3B, bad labels and the third month as IFF too; staff get 403', async () => {
    await company({ gst_filing: 'quarterly' }).expect(200);
    expect((await M.get('/gst/gstr1?period=2026-07').expect(400)).body.message).toMatch(/files GSTR-1 quarterly \(QRMP\): ask for the quarter, quarter=2026-27-Q2, or the month's IFF \(GET \/gst\/iff\?period=2026-07\)/);
    expect((await M.get('/gst/gstr3b?period=2026-09').expect(400)).body.message).toMatch(/files GSTR-3B quarterly \(QRMP\): ask for the quarter, quarter=2026-27-Q2\.$/);
    for (const [q, msg] of [
      ['2026-Q2', /not a quarter: give it as quarter=2026-27-Q3/],
      ['2026-28-Q1', /not a financial year: 2026-27 follows 2026/],
      ['2026-27-Q5', /not a quarter/],
      ['', /Give the return period as period=YYYY-MM/],
    ] as const) {
      expect((await M.get(`/gst/gstr1?quarter=${q}`).expect(400)).body.message).toMatch(msg);
    }
    expect((await M.get('/gst/gstr1?quarter=2026-27-Q2&period=2026-07').expect(400)).body.message).toMatch(/either period \(a month\) or quarter/);
    expect((await M.get('/gst/iff?period=2026-09').expect(400)).body.message).toMatch(/September 2026 is the last month of quarter 2026-27-Q2: its invoices go in the quarter's GSTR-1/);
    expect((await M.get('/gst/iff?period=2026-13').expect(400)).body.message).toMatch(/period/);
    expect((await filed('2026-09', 'AA2710260000013').expect(400)).body.message).toMatch(/September 2026 is the last month of quarter 2026-27-Q2/);
    expect((await filed('2026-7', 'AA2710260000013').expect(400)).body.message).toMatch(/a quarter \(2026-27-Q3\) or, for an IFF, one of the first two months/);
    for (const path of ['/gst/iff?period=2026-07', '/gst/gstr1?quarter=2026-27-Q2', '/gst/periods', '/gst/amendments']) await request(s.url).get(path).set(auth(staff)).expect(403);
    await filed('2026-07', 'AA2708260000011', staff).expect(403);
    await request(s.url).post('/gst/amendments').set(auth(staff)).send({ kind: 'b2ba', original_no: inv(1), changes: { gstin: GSTIN_GJ2 } }).expect(403);
    expect((await M.get('/gst/periods').expect(200)).body.periods).toEqual([]);
  });

  it('an ARN is checked: its form, its state, its month against the period and today', async () => {
    const cases: [string, RegExp][] = [
      ['', /15-character ARN/],
      ['AA27082600000111', /15-character ARN/],
      ['A12708260000011', /15-character ARN/],
      ['AA2408260000011', /ARN's state code is 24, but this company's GSTIN is of state 27/],
      ['AA2713260000011', /ARN's month \(13\) is not a month/],
      ['AA2707260000011', /filed in 2026-07, before July 2026 ended/],
      ['AA2712990000011', /filed in 2099-12, which has not come yet/],
    ];
    for (const [arn, msg] of cases) expect((await filed('2026-07', arn).expect(400)).body.message).toMatch(msg);
    expect((await filed(NOW_Q, 'AA2708260000011').expect(400)).body.message).toMatch(new RegExp(`quarter ${NOW_Q} has not ended yet: its return can be filed from \\d{4}-\\d{2}-01`));
    await request(s.url).post('/gst/periods/2026-07/filed').set(auth(mgr)).send(['AA2708260000011']).expect(400);
    expect((await M.get('/gst/periods').expect(200)).body.periods).toEqual([]);
  });
});

describe("a quarterly filer's quarter with two IFFs (2026-27-Q2)", () => {
  let quarterBefore: any;
  let iffJuly: string;
  let iffAug: string;
  let quarterFiled: string;

  it('the quarter before any IFF is filed reports all three b2b invoices, the walk-in in b2cs and the whole HSN summary', async () => {
    quarterBefore = await json('/gst/gstr1?quarter=2026-27-Q2');
    expect(quarterBefore).toMatchObject({ gstin: GSTIN_MH, fp: '092026' });
    expect(quarterBefore.b2b).toHaveLength(1);
    expect(quarterBefore.b2b[0].ctin).toBe(GSTIN_GJ);
    expect(quarterBefore.b2b[0].inv.map((i: any) => [i.inum, i.idt, i.val])).toEqual([
      [inv(1), '10-07-2026', 590],
      [inv(2), '12-08-2026', 224],
      [inv(3), '05-09-2026', 702],
    ]);
    expect(quarterBefore.b2cs).toEqual([expect.objectContaining({ sply_ty: 'INTRA', pos: '27', rt: 18, txval: 500, camt: 45, samt: 45 })]);
    // Bottles 500 x 3 = 1500 (A, C, D); notebooks 200 + 100 = 300 (B, C).
    expect(hsnTxval(quarterBefore)).toEqual({ '4820': 300, '7323': 1500 });
  });

  it("July's IFF has July's b2b invoice only, in the IFF's shape (no b2cs, HSN or documents issued)", async () => {
    const r = await raw('/gst/iff?period=2026-07');
    expect(r.status).toBe(200);
    expect(r.headers['content-disposition']).toBe(`attachment; filename="IFF_${GSTIN_MH}_072026.json"`);
    iffJuly = r.text;
    const doc = JSON.parse(iffJuly);
    expect(Object.keys(doc).filter((k) => !['version', 'hash'].includes(k))).toEqual(['gstin', 'fp', 'b2b']);
    expect(doc).toMatchObject({ gstin: GSTIN_MH, fp: '072026' });
    expect(doc.b2b).toEqual([
      { ctin: GSTIN_GJ, inv: [{ inum: inv(1), idt: '10-07-2026', val: 590, pos: '24', rchrg: 'N', inv_typ: 'R', itms: [{ num: 1, itm_det: { txval: 500, rt: 18, iamt: 90, csamt: 0 } }] }] },
    ]);
  });

  it('marking July and August filed stores their IFFs; the quarter then leaves their invoices out, its HSN and documents still cover the quarter', async () => {
    const jul = (await filed('2026-07', ' aa2708260000011 ').expect(200)).body;
    expect(jul).toMatchObject({ success: true, period: '2026-07', kind: 'iff', from: '2026-07-01', to: '2026-07-31', fp: '072026', arn: 'AA2708260000011', bytes: Buffer.byteLength(iffJuly) });
    expect((await filed('2026-07', 'AA2708260000011').expect(409)).body.message).toMatch(/IFF of July 2026 is already marked filed \(ARN AA2708260000011\)/);
    iffAug = (await raw('/gst/iff?period=2026-08')).text;
    // August: B only (D went to a walk-in: B2C waits for the quarter).
    expect(JSON.parse(iffAug).b2b[0].inv.map((i: any) => [i.inum, i.val, i.itms])).toEqual([[inv(2), 224, [{ num: 1, itm_det: { txval: 200, rt: 12, iamt: 24, csamt: 0 } }]]]);
    await filed('2026-08', 'AA2709260000022').expect(200);
    const q = await json('/gst/gstr1?quarter=2026-27-Q2');
    // C: 500 at 18 % (IGST 90) and 100 at 12 % (IGST 12), value 702.
    expect(q.b2b).toEqual([
      {
        ctin: GSTIN_GJ,
        inv: [{ inum: inv(3), idt: '05-09-2026', val: 702, pos: '24', rchrg: 'N', inv_typ: 'R', itms: [{ num: 1, itm_det: { txval: 100, rt: 12, iamt: 12, csamt: 0 } }, { num: 2, itm_det: { txval: 500, rt: 18, iamt: 90, csamt: 0 } }] }],
      },
    ]);
    expect(q.b2cs).toEqual(quarterBefore.b2cs);
    expect(hsnTxval(q)).toEqual({ '4820': 300, '7323': 1500 });
    expect(q.doc_issue).toEqual(quarterBefore.doc_issue);
    expect(JSON.stringify(q.doc_issue)).toMatch(new RegExp(`"from":"${inv(1)}","to":"${inv(4)}","totnum":4,"cancel":0,"net_issue":4`));
    // The b2b CSV of the quarter leaves them out too; its HSN CSV does not.
    const b2bCsv = (await raw('/gst/gstr1?quarter=2026-27-Q2&format=csv&section=b2b')).text;
    expect(b2bCsv).toContain(inv(3));
    expect(b2bCsv).not.toContain(inv(1));
    expect(b2bCsv).not.toContain(inv(2));
  });

  it('the quarter is marked filed with the exact bytes it exports; re-exports answer them; an IFF of a filed quarter is refused', async () => {
    const before = await raw('/gst/gstr1?quarter=2026-27-Q2');
    const r = (await filed('2026-27-Q2', 'AA2710260000033').expect(200)).body;
    expect(r).toMatchObject({ period: '2026-27-Q2', kind: 'gstr1', from: '2026-07-01', to: '2026-09-30', fp: '092026', bytes: Buffer.byteLength(before.text) });
    quarterFiled = (await raw('/gst/gstr1?quarter=2026-27-Q2')).text;
    expect(quarterFiled).toBe(before.text);
    expect((await M.get('/gst/periods').expect(200)).body).toMatchObject({
      gst_filing: 'quarterly',
      periods: [
        { period: '2026-27-Q2', kind: 'gstr1', arn: 'AA2710260000033' },
        { period: '2026-08', kind: 'iff', arn: 'AA2709260000022' },
        { period: '2026-07', kind: 'iff', arn: 'AA2708260000011' },
      ],
    });
  });

  describe('a filed period that a later return and cancel do not change', () => {
    it('a return of a filed bill gets a credit note dated today; cancelling a filed bill makes a credit note instead; the filed exports stay byte for byte', async () => {
      // 1 notebook of C: taxable 100.00 + IGST 12.00 = 112.00.
      const sl = (await M.get(`/getBillDetails?id=${C}`).expect(200)).body.soldProducts.find((l: any) => l.product_id === notebook).sl_no;
      const ret = (await M.post('/salesReturn', { saleId: C, lines: [{ sl_no: sl, quantity: 1 }], refund: '0' }).expect(200)).body;
      expect(ret).toMatchObject({ credit_note_no: `CN/26-27/0001`, amount: 112 });
      expect((await M.get(`/getCreditNoteDetails?id=${ret.creditNoteId}`).expect(200)).body).toMatchObject({ date: today(), gst: { invoice_no: inv(3), invoice_date: '2026-09-05' } });
      // Cancelling B (August, in a filed IFF): a credit note for the whole bill, 224.00, with the 100 paid given back.
      const cancel = (await M.post('/cancelSale', { saleId: B, reason: 'Wrong buyer' }).expect(200)).body;
      expect(cancel).toMatchObject({ success: true, saleId: B, invoice_no: inv(2), credit_note_no: 'CN/26-27/0002' });
      const note = (await M.get(`/getCreditNoteDetails?id=${cancel.creditNoteId}`).expect(200)).body;
      expect(note).toMatchObject({ date: today(), amount: 224, refund: 100, reason: 'Cancelled after the return of August 2026 was filed: Wrong buyer' });
      expect(note.gst).toMatchObject({ invoice_no: inv(2), taxable_total: 200, igst_total: 24 });
      const bill = (await M.get(`/getBillDetails?id=${B}`).expect(200)).body;
      expect(bill.status).toBe('Returned');
      expect(bill.cancelled).toBeNull();
      // A double click: the same note.
      expect((await M.post('/cancelSale', { saleId: B, reason: 'Wrong buyer' }).expect(200)).body).toMatchObject({ credit_note_no: 'CN/26-27/0002' });
      // The filed returns answer what was filed, byte for byte.
      expect((await raw('/gst/gstr1?quarter=2026-27-Q2')).text).toBe(quarterFiled);
      expect((await raw('/gst/iff?period=2026-07')).text).toBe(iffJuly);
      expect((await raw('/gst/iff?period=2026-08')).text).toBe(iffAug);
      // The notes are the current quarter's (cdnr, dated today).
      const now = await json(`/gst/gstr1?quarter=${NOW_Q}`);
      expect(now.cdnr).toEqual([
        {
          ctin: GSTIN_GJ,
          nt: [
            expect.objectContaining({ nt_num: 'CN/26-27/0001', nt_dt: cnDate, val: 112, itms: [{ num: 1, itm_det: { txval: 100, rt: 12, iamt: 12, csamt: 0 } }] }),
            expect.objectContaining({ nt_num: 'CN/26-27/0002', nt_dt: cnDate, val: 224, itms: [{ num: 1, itm_det: { txval: 200, rt: 12, iamt: 24, csamt: 0 } }] }),
          ],
        },
      ]);
    });

    it('a back-dated sale into a filed period is refused with a sentence and changes nothing', async () => {
      const before = (await M.get('/getSaleList?pageNo=0').expect(200)).body.salesList.length;
      const aug = await sell('2026-08-15', [[bottle, '1']], surat);
      expect(aug.status).toBe(400);
      expect(aug.body.message).toMatch(/The IFF of August 2026 is filed \(ARN AA2709260000022\): a sale cannot be dated 2026-08-15 any more/);
      const sep = await sell('2026-09-30', [[bottle, '1']]);
      expect(sep.body.message).toMatch(/The GSTR-1 of quarter 2026-27-Q2 is filed \(ARN AA2710260000033\)/);
      expect((await M.get('/getSaleList?pageNo=0').expect(200)).body.salesList.length).toBe(before);
      expect((await raw('/gst/gstr1?quarter=2026-27-Q2')).text).toBe(quarterFiled);
    });
  });
});

describe('amendments (b2ba, cdnra) of filed documents, reported in the next open period', () => {
  it('refuses what cannot be amended, with a sentence, and records nothing', async () => {
    const post = (body: object) => request(s.url).post('/gst/amendments').set(auth(mgr)).send(body);
    expect((await post({ kind: 'b2c', original_no: inv(1), changes: {} }).expect(400)).body.message).toMatch(/kind must be b2ba .* or cdnra/);
    expect((await post({ kind: 'b2ba', original_no: '', changes: {} }).expect(400)).body.message).toMatch(/original_no must be the invoice number/);
    expect((await post({ kind: 'b2ba', original_no: 'SG/26-27/0999', changes: { gstin: GSTIN_GJ2 } }).expect(404)).body.message).toMatch(/No tax invoice numbered SG\/26-27\/0999/);
    expect((await post({ kind: 'b2ba', original_no: inv(4), changes: { gstin: GSTIN_GJ2 } }).expect(400)).body.message).toMatch(/went to an unregistered buyer: b2ba amends invoices to registered buyers/);
    expect((await post({ kind: 'cdnra', original_no: 'CN/26-27/0001', changes: { date: '2026-10-01' } }).expect(400)).body.message).toMatch(/in a period not filed yet/);
    const cases: [object, RegExp][] = [
      [{}, /nothing was given/],
      [{ name: 'X' }, /only gstin, date and items.*not name/],
      [{ gstin: '24AAACB1234C1ZA' }, /changes.gstin: .*check character/],
      [{ gstin: GSTIN_GJ }, /already carries/],
      [{ gstin: GSTIN_MH2 }, /of state 27, the original's of 24: a different place of supply/],
      [{ date: '2026-02-30' }, /real date/],
      [{ date: '2099-01-01' }, /future/],
      [{ date: '2026-03-31' }, /financial year 2026-27/],
      [{ items: [{ rate: 18, txval: '450' }] }, /must give every rate of SG\/26-27\/0003 \(12, 18 %\)/],
      [{ items: [{ rate: 5, txval: '450' }] }, /rate must be one of SG\/26-27\/0003's rates/],
      [{ items: [{ rate: 12, txval: '90' }, { rate: 18, txval: '-1' }] }, /txval must be the corrected taxable value/],
      [{ items: [{ rate: 12, txval: '90' }, { rate: 12, txval: '1' }] }, /rate 12 % is given twice/],
    ];
    for (const [changes, msg] of cases) expect((await post({ kind: 'b2ba', original_no: inv(3), changes }).expect(400)).body.message).toMatch(msg);
    expect((await M.get('/gst/amendments').expect(200)).body.amendments).toEqual([]);
  });

  it('a corrected GSTIN and a corrected value go to the next quarter not filed (Q3) in b2ba, in the offline tool\'s structure', async () => {
    const a = (await request(s.url).post('/gst/amendments').set(auth(mgr)).send({ kind: 'b2ba', original_no: inv(1), changes: { gstin: GSTIN_GJ2.toLowerCase() } }).expect(200)).body;
    expect(a).toMatchObject({ kind: 'b2ba', original_no: inv(1), original_period: '2026-07', report_in: '2026-27-Q3', ctin: GSTIN_GJ2 });
    // C's values corrected: 90.00 at 12 % (IGST 10.80) and 450.00 at 18 % (IGST 81.00): 631.80 -> 632 (to the rupee).
    const c = (await request(s.url).post('/gst/amendments').set(auth(mgr)).send({ kind: 'b2ba', original_no: inv(3), changes: { items: [{ rate: 18, txval: '450' }, { rate: 12, txval: 90 }], date: '2026-09-06' } }).expect(200)).body;
    expect(c.row).toEqual({
      oinum: inv(3), oidt: '05-09-2026', inum: inv(3), idt: '06-09-2026', val: 632, pos: '24', rchrg: 'N', inv_typ: 'R',
      itms: [{ num: 1, itm_det: { txval: 90, rt: 12, iamt: 10.8, csamt: 0 } }, { num: 2, itm_det: { txval: 450, rt: 18, iamt: 81, csamt: 0 } }],
    });
    expect((await request(s.url).post('/gst/amendments').set(auth(mgr)).send({ kind: 'b2ba', original_no: inv(1), changes: { date: '2026-07-11' } }).expect(409)).body.message).toMatch(/already has an amendment in the return of quarter 2026-27-Q3/);
    const q3 = await json('/gst/gstr1?quarter=2026-27-Q3');
    // By recipient GSTIN: 24AAACB... before 24AAGCS...
    expect(q3.b2ba).toEqual([
      { ctin: GSTIN_GJ2, inv: [{ oinum: inv(1), oidt: '10-07-2026', inum: inv(1), idt: '10-07-2026', val: 590, pos: '24', rchrg: 'N', inv_typ: 'R', itms: [{ num: 1, itm_det: { txval: 500, rt: 18, iamt: 90, csamt: 0 } }] }] },
      { ctin: GSTIN_GJ, inv: [c.row] },
    ]);
    expect(q3.cdnra).toBeUndefined();
    // The filed quarter is untouched; the list shows both.
    expect((await raw('/gst/gstr1?quarter=2026-27-Q2')).text).toBe((await raw('/gst/gstr1?quarter=2026-27-Q2')).text);
    expect((await M.get('/gst/amendments').expect(200)).body.amendments.map((x: any) => [x.original_no, x.report_in])).toEqual([
      [inv(3), '2026-27-Q3'],
      [inv(1), '2026-27-Q3'],
    ]);
  });
});

describe('cdnra: a filed credit note to a registered buyer', () => {
  it('a corrected note date goes to Q3 as cdnra, the original number and date kept in ont_num / ont_dt', async () => {
    // A note dated in the filed quarter cannot be made today (notes take today's date): one is
    // written as the returns store them, a copy of CN/26-27/0001 (100.00 @12 %, IGST 12.00, 112.00) dated 20 September.
    const notes = s.sales.app.get<Model<CreditNoteDoc>>(getModelToken(ReturnModels.CreditNote));
    const first = (await notes.findOne({ companyId: s.companyId, credit_note_no: 'CN/26-27/0001' }).lean()) as unknown as Record<string, unknown>;
    const { _id, ...copy } = first;
    void _id;
    await notes.collection.insertOne({ ...copy, creditNoteId: 901, serial: 901, credit_note_no: 'CN/26-27/0901', date: '2026-09-20', idempotencyKey: 'seed-cn-901' } as never);
    const r = (await request(s.url).post('/gst/amendments').set(auth(mgr)).send({ kind: 'cdnra', original_no: 'CN/26-27/0901', changes: { date: '2026-09-21' } }).expect(200)).body;
    expect(r).toMatchObject({ kind: 'cdnra', original_period: '2026-27-Q2', report_in: '2026-27-Q3', ctin: GSTIN_GJ });
    const row = { ont_num: 'CN/26-27/0901', ont_dt: '20-09-2026', ntty: 'C', nt_num: 'CN/26-27/0901', nt_dt: '21-09-2026', val: 112, pos: '24', rchrg: 'N', inv_typ: 'R', itms: [{ num: 1, itm_det: { txval: 100, rt: 12, iamt: 12, csamt: 0 } }] };
    expect(r.row).toEqual(row);
    expect((await json('/gst/gstr1?quarter=2026-27-Q3')).cdnra).toEqual([{ ctin: GSTIN_GJ, nt: [row] }]);
  });
});

describe('a monthly filer in another company (tenancy from the token)', () => {
  let mgr2: string;
  let M2: ReturnType<typeof as>;
  let rice: number;
  const sell2 = async (date: string) => {
    await M2.del('/clearCart/1').expect(200);
    await M2.get(`/addProductIntoCart/${rice}?cart_no=1`).expect(200);
    return M2.post('/MAKE_SALE', { clientId: 0, cart_no: 1, paid: '0', date, dueDate: today() });
  };

  beforeAll(async () => {
    const admin = await request(s.identity.url).post('/loginReact').send({ email: 'admin@bahi.local', password: 'admin12345' });
    const created = await request(s.identity.url)
      .post('/admin/createCompany')
      .set(auth(admin.body.token))
      .send({ cName: 'Patel Kirana', cAdd: '7 Market Road, Nashik', cMob: '9822001133', mName: 'Ravi', mEmail: `ravi-${Date.now()}@patel.in` });
    expect(created.status).toBe(201);
    mgr2 = tokenFor(created.body.companyId, 'manager');
    M2 = as(s.url, mgr2);
    await request(s.identity.url)
      .post('/setCompanyDetails')
      .set(auth(mgr2))
      .send({ id: created.body.companyId, name: 'Patel Kirana', add1: '7 Market Road', add2: 'Nashik', mob1: '9822001133', mob2: '', email: 'shop@patel.in', tax_mode: 'gst', gstin: GSTIN_MH2, invoice_prefix: 'PK' })
      .expect(200);
    const cat = await category(s.inventory.url, mgr2, 'Grocery');
    // Rice 5 kg, 250.00 incl. 5 %: taxable 238.10, CGST 5.95 + SGST 5.95 = 250.00.
    rice = await product(s.inventory.url, mgr2, cat, { name: 'Rice 5kg', mrp: '250', tax: '5', hsn_code: '1006', unit: 'pcs', stock: '100' });
    expect((await sell2('2026-10-05')).status).toBe(200);
  }, 120_000);

  it("marks October filed, answers its bytes after a later sale is refused; the other company's periods are its own", async () => {
    const before = await raw('/gst/gstr1?period=2026-10', mgr2);
    expect(before.status).toBe(200);
    expect(JSON.parse(before.text).b2cs).toEqual([expect.objectContaining({ sply_ty: 'INTRA', pos: '27', rt: 5, txval: 238.1, camt: 5.95, samt: 5.95 })]);
    const f = await request(s.url).post('/gst/periods/2026-10/filed').set(auth(mgr2)).send({ arn: 'AA2711260000044' }).expect(200);
    expect(f.body).toMatchObject({ period: '2026-10', kind: 'gstr1', from: '2026-10-01', to: '2026-10-31', fp: '102026', arn: 'AA2711260000044' });
    const late = await sell2('2026-10-31');
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/^The GSTR-1 of October 2026 is filed \(ARN AA2711260000044\): a sale cannot be dated 2026-10-31 any more\. Date it today/);
    expect((await raw('/gst/gstr1?period=2026-10', mgr2)).text).toBe(before.text);
    expect((await M2.get('/gst/periods').expect(200)).body).toMatchObject({ gst_filing: 'monthly', periods: [{ period: '2026-10' }] });
    expect((await M2.get('/gst/periods').expect(200)).body.periods).toHaveLength(1);
    // Demo company's own list is unchanged, and its October is open (a walk-in sale dated then is taken).
    expect((await M.get('/gst/periods').expect(200)).body.periods.map((p: any) => p.period)).toEqual(['2026-27-Q2', '2026-08', '2026-07']);
    expect((await sell('2026-10-31', [[bottle, '1']])).status).toBe(200);
  });
});
