// GST returns: GET /gst/gstr1 (JSON and the offline tool's CSV) and /gst/gstr3b against the real
// sales service. A hand-computed April 2026 is seeded as complete sales shaped exactly as checkout
// freezes them (SaleGst from @bahi/gst computeInvoice); one month is sold through POST /MAKE_SALE.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import type { GstLine, SaleGst } from '@bahi/contracts';
import { computeInvoice, formatInvoiceNo, GSTR1_VERSION, stateName } from '@bahi/gst';
import { today } from '@bahi/service-kit';
import { Models, type SaleDoc } from '../src/common/schemas';
import { ReturnModels, type CreditNoteDoc } from '../src/returns/schema';
import { as, auth, category, product, startSales, tokenFor, type Stack } from './helpers';

const GSTIN_MH = '27AAPFU0939F1ZV'; // the company (Maharashtra)
const GSTIN_GJ = '24AAGCS5678K1ZT'; // a buyer in Gujarat
const GSTIN_MH_BUYER = '27AAACB1234C1ZF'; // a buyer in Maharashtra

// The schema is kept in packages/gst; ajv 6 (root) or 8 (sales' devDependency) both read draft-07.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const AjvModule = require('ajv');
const Ajv = AjvModule.default ?? AjvModule;
const schema = JSON.parse(readFileSync(join(dirname(require.resolve('@bahi/gst/package.json')), 'schemas', 'gstr1.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true }).compile(schema);
function expectValid(body: unknown) {
  const ok = validate(body);
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}

let s: Stack;
let mgr: string;
let M: ReturnType<typeof as>;
let sales: Model<SaleDoc>;
let notes: Model<CreditNoteDoc>;
let saleId = 70_000;

interface SeedLine {
  name: string;
  mrp: string;
  qty: string;
  disc?: string;
  rate: string;
  incl: boolean;
  hsn: string;
  unit?: string;
  /** Frozen on the sale's GST line as checkout does; left out: a sale from before the field. */
  supply?: 'taxable' | 'nil' | 'exempt' | 'non_gst';
}
interface Seed {
  serial: number;
  fy?: string;
  date: string;
  buyer?: { name: string; gstin?: string; state?: string };
  lines: SeedLine[];
  cancelled?: boolean;
  companyId?: number;
  /** A gst-mode bill of only nil/exempt/non-GST lines is a bill of supply in the same series. */
  document?: 'tax-invoice' | 'bill-of-supply';
}

/** A complete GST-mode sale as checkout stores it (common/gst.ts saleGst), numbered. */
async function seed(x: Seed): Promise<SaleGst> {
  const fy = x.fy ?? '26-27';
  const inv = computeInvoice({
    mode: 'gst',
    companyState: '27',
    customerGstin: x.buyer?.gstin ?? null,
    customerState: x.buyer?.state ?? null,
    lines: x.lines.map((l) => ({ mrp: l.mrp, discount: l.disc ?? '0', quantity: l.qty, per_peice_quantity: '1', rate: l.rate, priceIncludesTax: l.incl, hsn: l.hsn, unit: l.unit ?? 'pcs' })),
  });
  const walkIn = !x.buyer;
  const stateCode = x.buyer?.gstin?.slice(0, 2) ?? x.buyer?.state ?? null;
  const lines: GstLine[] = inv.lines.map((c, i) => ({
    sl_no: i + 1, hsn_code: c.hsn, uqc: c.uqc, gst_rate: c.rate, ...(x.lines[i]!.supply ? { supply_type: x.lines[i]!.supply } : {}), price_includes_tax: x.lines[i]!.incl, qty: c.qty,
    line_taxable: c.lineTaxable, share: c.share, taxable_value: c.taxable, cgst: c.cgst, sgst: c.sgst, igst: c.igst,
  }));
  const gst: SaleGst = {
    tax_mode: 'gst', document: x.document ?? 'tax-invoice', invoice_no: formatInvoiceNo('SG', fy, x.serial), fy, serial: x.serial, invoice_date: x.date,
    supplier: { name: 'Sharma General Store', address: ['4 Station Road'], gstin: GSTIN_MH, state_code: '27', state_name: 'Maharashtra', mobile: '', email: '' },
    recipient: { name: x.buyer?.name ?? 'Unknown', address: [], gstin: x.buyer?.gstin ?? null, state_code: stateCode, state_name: stateCode ? stateName(stateCode) : null, mobile: '', email: '' },
    b2b: inv.registeredCustomer, place_of_supply: inv.placeOfSupply, place_of_supply_name: stateName(inv.placeOfSupply), inter_state: inv.interState,
    state_tax_name: inv.stateTaxName, reverse_charge: false, lines,
    taxable_total: inv.taxable, cgst_total: inv.cgst, sgst_total: inv.sgst, igst_total: inv.igst, tax_total: inv.tax, exact_total: inv.exactTotal, round_off: inv.roundOff, invoice_value: inv.invoiceValue,
  };
  const id = ++saleId;
  await sales.collection.insertOne({
    companyId: x.companyId ?? s.companyId, saleId: id, status: 'complete', idempotencyKey: `seed-${id}`,
    source: { kind: 'cart', userId: 1, cart_no: 1, estimateId: 0, version: 0 }, clientId: walkIn ? 0 : id,
    customer: { client_id: walkIn ? 0 : id, name: x.buyer?.name ?? 'Walk-in', mobile_no: '', address_line_1: '', address_line_2: '', city_or_district: '', state: stateCode ?? '', country: 'India', postal_code: '', walkIn, gstin: x.buyer?.gstin ?? null, state_code: stateCode },
    date: x.date, dueDate: x.date, paid: '0', tax: 0, shipping: '0', discount: '0', previousDue: '0', createdBy: 1,
    lines: x.lines.map((l, i) => ({ sl_no: i + 1, product_id: i + 1, product_name: l.name, mrp: l.mrp, unit: l.unit ?? 'pcs', stock: '0', quantity: l.qty, per_peice_quantity: '1', discount: l.disc ?? '0', hsn_code: l.hsn, gst_rate: l.rate, price_includes_tax: l.incl })),
    subtotal: inv.lines.reduce((a, c) => a + Number(c.gross), 0).toFixed(2), taxAmount: inv.tax, amount: inv.invoiceValue, tax_mode: 'gst', gst,
    ...(x.cancelled ? { cancelled: true } : {}),
  } as never);
  return gst;
}

const bottle = (qty: string): SeedLine => ({ name: 'Steel Bottle', mrp: '590', qty, rate: '18', incl: true, hsn: '7323' });
const notebook = (qty: string): SeedLine => ({ name: 'Notebook', mrp: '100', qty, disc: '5', rate: '12', incl: false, hsn: '4820' });
const surat = { name: 'Surat Traders', gstin: GSTIN_GJ };

const company = (extra: object) =>
  request(s.identity.url).post('/setCompanyDetails').set(auth(mgr)).send({ id: s.companyId, name: 'Sharma General Store', add1: '4 Station Road', add2: 'Pune', mob1: '9822001122', mob2: '', email: 'shop@sharma.in', ...extra });

beforeAll(async () => {
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  M = as(s.url, mgr);
  sales = s.sales.app.get<Model<SaleDoc>>(getModelToken(Models.Sale));
  notes = s.sales.app.get<Model<CreditNoteDoc>>(getModelToken(ReturnModels.CreditNote));
}, 120_000);
afterAll(() => s?.stop());

describe('who may file, and what', () => {
  it('a simple-mode company gets 400 saying GSTR-1 and GSTR-3B are filed by regular taxpayers', async () => {
    const r = await M.get('/gst/gstr1?period=2026-04').expect(400);
    expect(r.body.message).toMatch(/GSTR-1 is filed by regular taxpayers.*GST mode/);
    expect((await M.get('/gst/gstr3b?period=2026-04').expect(400)).body.message).toMatch(/GSTR-3B is filed by regular taxpayers/);
  });

  it('a composition company is told it files CMP-08 / GSTR-4', async () => {
    await company({ tax_mode: 'composition', gstin: GSTIN_MH, invoice_prefix: 'SG' }).expect(200);
    expect((await M.get('/gst/gstr1?period=2026-04').expect(400)).body.message).toMatch(/composition taxpayer files CMP-08 and GSTR-4/);
    await company({ tax_mode: 'gst', gstin: GSTIN_MH, invoice_prefix: 'SG' }).expect(200);
  });

  it('staff get 403; a bad period, format or section is 400 with a sentence', async () => {
    const staff = as(s.url, tokenFor(s.companyId, 'staff'));
    await staff.get('/gst/gstr1?period=2026-04').expect(403);
    await staff.get('/gst/gstr3b?period=2026-04').expect(403);
    expect((await M.get('/gst/gstr1').expect(400)).body.message).toMatch(/period=YYYY-MM/);
    expect((await M.get('/gst/gstr1?period=2026-13').expect(400)).body.message).toMatch(/not a period like 2026-04/);
    expect((await M.get('/gst/gstr1?period=04-2026').expect(400)).body.message).toMatch(/period=YYYY-MM/);
    expect((await M.get('/gst/gstr1?period=2017-06').expect(400)).body.message).toMatch(/GST began on 1 July 2017/);
    expect((await M.get('/gst/gstr3b?period=x').expect(400)).body.message).toMatch(/period/);
    expect((await M.get('/gst/gstr1?period=2026-04&format=xml').expect(400)).body.message).toMatch(/format must be json or csv/);
    expect((await M.get('/gst/gstr1?period=2026-04&format=csv&section=exp').expect(400)).body.message).toMatch(/section must be one of b2b, b2cl, b2cs, hsn_b2b, hsn_b2c, exemp, docs, cdnr, cdnur/);
  });
});

describe('GSTR-1 of a hand-computed April 2026 (company in Maharashtra, 27)', () => {
  beforeAll(async () => {
    // 31 March 23:59 IST: invoice date 2026-03-31, the old year's series: March's return only.
    await seed({ serial: 99, fy: '25-26', date: '2026-03-31', buyer: surat, lines: [bottle('1')] });
    // 0001 (1 April 00:00 IST), B2B Gujarat, mixed rates: the worked example, IGST 270.00 + 22.80, value 1983.
    await seed({ serial: 1, date: '2026-04-01', buyer: surat, lines: [bottle('3'), notebook('2')] });
    // 0002 B2B Maharashtra (intra): 100 excl. 18 % -> CGST 9 + SGST 9, value 118.
    await seed({ serial: 2, date: '2026-04-05', buyer: { name: 'Pune Traders', gstin: GSTIN_MH_BUYER }, lines: [{ name: 'Rate Eighteen', mrp: '100', qty: '1', rate: '18', incl: false, hsn: '7323' }] });
    // 0003 B2B Gujarat again (same ctin as 0001): 100 excl. 5 % -> IGST 5, value 105.
    await seed({ serial: 3, date: '2026-04-10', buyer: surat, lines: [{ name: 'Rice', mrp: '100', qty: '1', rate: '5', incl: false, hsn: '1006' }] });
    // 0004 unregistered buyer in Karnataka (29), inter-state, value 1,18,000 > 1,00,000: b2cl.
    await seed({ serial: 4, date: '2026-04-12', buyer: { name: 'Mysore Stores', state: '29' }, lines: [{ name: 'Steel Bottle', mrp: '100000', qty: '1', rate: '18', incl: false, hsn: '7323' }] });
    // 0005 the same buyer at exactly 1,00,000 (0 %): not above the threshold, so b2cs INTER 29, and nil rated in 3B.
    await seed({ serial: 5, date: '2026-04-15', buyer: { name: 'Mysore Stores', state: '29' }, lines: [{ name: 'Fresh Milk', mrp: '100000', qty: '1', rate: '0', incl: false, hsn: '0401' }] });
    // 0006 walk-in (intra): the worked example, CGST = SGST = 135.00 + 11.40.
    await seed({ serial: 6, date: '2026-04-20', lines: [bottle('3'), notebook('2')] });
    // 0007 cancelled: only doc_issue counts it.
    await seed({ serial: 7, date: '2026-04-30', lines: [{ name: 'Rice', mrp: '100', qty: '1', rate: '5', incl: false, hsn: '1006' }], cancelled: true });
    // Another company's April sale never appears.
    await seed({ serial: 1, date: '2026-04-02', buyer: surat, lines: [bottle('7')], companyId: s.companyId + 1000 });
  });

  it('answers the portal offline tool JSON (version, hash, HSN split, Table 8, doc_typ), valid against packages/gst/schemas/gstr1.schema.json', async () => {
    const r = await M.get('/gst/gstr1?period=2026-04').expect(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['content-disposition']).toBe(`attachment; filename="GSTR1_${GSTIN_MH}_042026.json"`);
    const g = JSON.parse(r.text);
    expectValid(g);
    expect(g.gstin).toBe(GSTIN_MH);
    expect(g.fp).toBe('042026');
    expect([g.version, g.hash]).toEqual([GSTR1_VERSION, 'hash']);
    // Sections in the offline tool's order; none empty.
    expect(Object.keys(g)).toEqual(['gstin', 'fp', 'version', 'hash', 'b2b', 'b2cl', 'b2cs', 'nil', 'hsn', 'doc_issue']);
    // b2b grouped by buyer GSTIN (24... before 27...), invoices in series order, itms per rate.
    expect(g.b2b).toEqual([
      {
        ctin: GSTIN_GJ,
        inv: [
          {
            inum: 'SG/26-27/0001', idt: '01-04-2026', val: 1983, pos: '24', rchrg: 'N', inv_typ: 'R',
            // 2 x (100 - 5) = 190 excl. 12 % -> IGST 22.80; 3 x 590 = 1770 incl. 18 % -> 1500.00, IGST 270.00.
            itms: [{ num: 1, itm_det: { txval: 190, rt: 12, iamt: 22.8, csamt: 0 } }, { num: 2, itm_det: { txval: 1500, rt: 18, iamt: 270, csamt: 0 } }],
          },
          { inum: 'SG/26-27/0003', idt: '10-04-2026', val: 105, pos: '24', rchrg: 'N', inv_typ: 'R', itms: [{ num: 1, itm_det: { txval: 100, rt: 5, iamt: 5, csamt: 0 } }] },
        ],
      },
      {
        ctin: GSTIN_MH_BUYER,
        inv: [{ inum: 'SG/26-27/0002', idt: '05-04-2026', val: 118, pos: '27', rchrg: 'N', inv_typ: 'R', itms: [{ num: 1, itm_det: { txval: 100, rt: 18, camt: 9, samt: 9, csamt: 0 } }] }],
      },
    ]);
    // Above Rs 1,00,000 inter-state to an unregistered buyer: 100000 + 18 % = 118000.
    expect(g.b2cl).toEqual([{ pos: '29', inv: [{ inum: 'SG/26-27/0004', idt: '12-04-2026', val: 118000, itms: [{ num: 1, itm_det: { txval: 100000, rt: 18, iamt: 18000, csamt: 0 } }] }] }]);
    // b2cs: 0006 (walk-in, intra) by type, pos and rate; 0007 cancelled is left out. 0005 (Fresh Milk at 0 %,
    // sold before supply types existed) is a nil-rated supply: Table 8, not Table 7 (the old export put it in b2cs at rate 0).
    expect(g.b2cs).toEqual([
      { sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 12, txval: 190, camt: 11.4, samt: 11.4, csamt: 0 },
      { sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 18, txval: 1500, camt: 135, samt: 135, csamt: 0 },
    ]);
    expect(g.nil).toEqual({ inv: [{ sply_ty: 'INTRB2C', nil_amt: 100000, expt_amt: 0, ngsup_amt: 0 }] });
    // HSN by code, unit and rate, split by buyer (Table 12 since May 2025), all invoices but the cancelled one.
    // B2B (0001, 0002, 0003): 1006 1 pc 100.00 IGST 5; 4820 2 pcs 190.00 IGST 22.80;
    //   7323 3 (0001) + 1 (0002) = 4 pcs, 1500 + 100 = 1600.00, IGST 270.00, CGST 9.00, SGST 9.00.
    expect(g.hsn.hsn_b2b).toEqual([
      { num: 1, hsn_sc: '1006', desc: 'Rice', user_desc: 'Rice', uqc: 'PCS', qty: 1, rt: 5, txval: 100, iamt: 5, camt: 0, samt: 0, csamt: 0 },
      { num: 2, hsn_sc: '4820', desc: 'Notebook', user_desc: 'Notebook', uqc: 'PCS', qty: 2, rt: 12, txval: 190, iamt: 22.8, camt: 0, samt: 0, csamt: 0 },
      { num: 3, hsn_sc: '7323', desc: 'Steel Bottle', user_desc: 'Steel Bottle', uqc: 'PCS', qty: 4, rt: 18, txval: 1600, iamt: 270, camt: 9, samt: 9, csamt: 0 },
    ]);
    // B2C (0004, 0005, 0006): the nil-rated milk at rate 0; 4820 2 pcs 190.00 CGST 11.40 SGST 11.40;
    //   7323 1 (0004) + 3 (0006) = 4 pcs, 100000 + 1500 = 101500.00, IGST 18000.00, CGST 135.00, SGST 135.00.
    // (Together 7323 is 8 pcs, 103100.00, IGST 18270.00, CGST 144.00: the old single list's row.)
    expect(g.hsn.hsn_b2c).toEqual([
      { num: 1, hsn_sc: '0401', desc: 'Fresh Milk', user_desc: 'Fresh Milk', uqc: 'PCS', qty: 1, rt: 0, txval: 100000, iamt: 0, camt: 0, samt: 0, csamt: 0 },
      { num: 2, hsn_sc: '4820', desc: 'Notebook', user_desc: 'Notebook', uqc: 'PCS', qty: 2, rt: 12, txval: 190, iamt: 0, camt: 11.4, samt: 11.4, csamt: 0 },
      { num: 3, hsn_sc: '7323', desc: 'Steel Bottle', user_desc: 'Steel Bottle', uqc: 'PCS', qty: 4, rt: 18, txval: 101500, iamt: 18000, camt: 135, samt: 135, csamt: 0 },
    ]);
    // The series 0001-0007: seven issued, one cancelled.
    expect(g.doc_issue).toEqual({ doc_det: [{ doc_num: 1, doc_typ: 'Invoices for outward supply', docs: [{ num: 1, from: 'SG/26-27/0001', to: 'SG/26-27/0007', totnum: 7, cancel: 1, net_issue: 6 }] }] });
  });

  it('31 March 23:59 IST is in March (the old series); 1 April 00:00 IST opens April', async () => {
    const march = JSON.parse((await M.get('/gst/gstr1?period=2026-03').expect(200)).text);
    expectValid(march);
    expect(march.b2b).toEqual([{ ctin: GSTIN_GJ, inv: [expect.objectContaining({ inum: 'SG/25-26/0099', idt: '31-03-2026', val: 590 })] }]);
    expect(march.doc_issue.doc_det[0].docs).toEqual([{ num: 1, from: 'SG/25-26/0099', to: 'SG/25-26/0099', totnum: 1, cancel: 0, net_issue: 1 }]);
    const april = JSON.parse((await M.get('/gst/gstr1?period=2026-04').expect(200)).text);
    expect(april.doc_issue.doc_det[0].docs[0].from).toBe('SG/26-27/0001');
  });

  it('a month without sales is a valid return with no section (the offline tool leaves empty sections out)', async () => {
    const g = JSON.parse((await M.get('/gst/gstr1?period=2026-06').expect(200)).text);
    expectValid(g);
    expect(g).toEqual({ gstin: GSTIN_MH, fp: '062026', version: GSTR1_VERSION, hash: 'hash' });
  });

  it('the CSV per section has the offline tool headers and rows', async () => {
    const b2b = await M.get('/gst/gstr1?period=2026-04&format=csv&section=b2b').expect(200);
    expect(b2b.headers['content-type']).toMatch(/^text\/csv/);
    expect(b2b.headers['content-disposition']).toBe('attachment; filename="GSTR1_b2b_042026.csv"');
    expect(b2b.text.split('\r\n')).toEqual([
      'GSTIN/UIN of Recipient,Receiver Name,Invoice Number,Invoice date,Invoice Value,Place Of Supply,Reverse Charge,Applicable % of Tax Rate,Invoice Type,E-Commerce GSTIN,Rate,Taxable Value,Cess Amount',
      '24AAGCS5678K1ZT,Surat Traders,SG/26-27/0001,01-Apr-2026,1983.00,24-Gujarat,N,,Regular B2B,,12,190.00,',
      '24AAGCS5678K1ZT,Surat Traders,SG/26-27/0001,01-Apr-2026,1983.00,24-Gujarat,N,,Regular B2B,,18,1500.00,',
      '24AAGCS5678K1ZT,Surat Traders,SG/26-27/0003,10-Apr-2026,105.00,24-Gujarat,N,,Regular B2B,,5,100.00,',
      '27AAACB1234C1ZF,Pune Traders,SG/26-27/0002,05-Apr-2026,118.00,27-Maharashtra,N,,Regular B2B,,18,100.00,',
      '',
    ]);
    const b2cl = (await M.get('/gst/gstr1?period=2026-04&format=csv&section=b2cl').expect(200)).text.split('\r\n');
    expect(b2cl).toEqual([
      'Invoice Number,Invoice date,Invoice Value,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN',
      'SG/26-27/0004,12-Apr-2026,118000.00,29-Karnataka,,18,100000.00,,',
      '',
    ]);
    const b2cs = (await M.get('/gst/gstr1?period=2026-04&format=csv&section=b2cs').expect(200)).text.split('\r\n');
    expect(b2cs).toEqual(['Type,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN', 'OE,27-Maharashtra,,12,190.00,,', 'OE,27-Maharashtra,,18,1500.00,,', '']);
    const hsn = await M.get('/gst/gstr1?period=2026-04&format=csv&section=hsn_b2b').expect(200);
    expect(hsn.headers['content-disposition']).toBe('attachment; filename="GSTR1_hsn_b2b_042026.csv"');
    const rows = hsn.text.split('\r\n');
    expect(rows[0]).toBe('HSN,Description,UQC,Total Quantity,Total Value,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount');
    // 4820 B2B: value 190.00 + 22.80 = 212.80.
    expect(rows[2]).toBe('4820,Notebook,PCS-PIECES,2.00,212.80,12,190.00,22.80,0.00,0.00,');
    const b2c = (await M.get('/gst/gstr1?period=2026-04&format=csv&section=hsn_b2c').expect(200)).text.split('\r\n');
    // 4820 B2C: 190.00 + 11.40 + 11.40 = 212.80; the milk at rate 0.
    expect(b2c.slice(1)).toEqual(['0401,Fresh Milk,PCS-PIECES,1.00,100000.00,0,100000.00,0.00,0.00,0.00,', '4820,Notebook,PCS-PIECES,2.00,212.80,12,190.00,0.00,11.40,11.40,', '7323,Steel Bottle,PCS-PIECES,4.00,119770.00,18,101500.00,18000.00,135.00,135.00,', '']);
    const exemp = (await M.get('/gst/gstr1?period=2026-04&format=csv&section=exemp').expect(200)).text.split('\r\n');
    expect(exemp).toEqual(['Description,Nil Rated Supplies,Exempted(other than nil rated/non GST supply),Non-GST Supplies', 'Inter-State supplies to unregistered persons,100000.00,0.00,0.00', '']);
    const docs = (await M.get('/gst/gstr1?period=2026-04&format=csv&section=docs').expect(200)).text.split('\r\n');
    expect(docs).toEqual(['Nature of Document,Sr. No. From,Sr. No. To,Total Number,Cancelled', 'Invoices for outward supply,SG/26-27/0001,SG/26-27/0007,7,1', '']);
  });
});

describe('GSTR-3B', () => {
  it('outward taxable and tax per head, nil rated, inter-state to unregistered by place of supply, ITC from inventory and the cash payable', async () => {
    const r = (await M.get('/gst/gstr3b?period=2026-04').expect(200)).body;
    // 3.1(a), rate > 0, not cancelled: 1690 (0001) + 100 (0002) + 100 (0003) + 100000 (0004) + 1690 (0006) = 103580;
    // IGST 292.80 + 5 + 18000 = 18297.80; CGST 9 + 146.40 = 155.40, SGST the same.
    expect(r).toEqual({
      gstin: GSTIN_MH,
      ret_period: '042026',
      outward: { txval: 103580, iamt: 18297.8, camt: 155.4, samt: 155.4, csamt: 0 },
      nil_exempt: { txval: 100000 },
      non_gst: { txval: 0 },
      excess: { txval: 0, iamt: 0, camt: 0, samt: 0 },
      inter_state_unreg: [{ pos: '29', txval: 100000, iamt: 18000 }],
      // No purchases in April: no credit, everything in cash.
      itc: { iamt: 0, camt: 0, samt: 0, csamt: 0 },
      net_payable: { iamt: 18297.8, camt: 155.4, samt: 155.4, csamt: 0 },
      itc_carried: { iamt: 0, camt: 0, samt: 0 },
    });
  });
});

/** May's walk-in invoice 14, which July's credit note returns to. */
let walkInMay: { saleId: number; gst: SaleGst };

/** A complete GST credit note as sales stores it (returns/schema.ts CreditNoteDoc), against a seeded sale. */
let noteId = 90_000;
interface NoteSeedLine {
  name: string;
  hsn: string;
  qty: string;
  rate: string;
  taxable: string;
  igst?: string;
  cgst?: string;
  /** The bill line it credits; left out: the note's own position. */
  sl?: number;
  unit?: string;
}
async function seedNote(x: { serial: number; date: string; saleId: number; sale: SaleGst; lines: NoteSeedLine[]; amount: string }): Promise<void> {
  const g = x.sale;
  const lines = x.lines.map((l, i) => ({
    sl_no: l.sl ?? i + 1, product_id: i + 1, product_name: l.name, hsn_code: l.hsn, unit: l.unit ?? 'pcs', mrp: '0', discount: '0', quantity: l.qty, per_peice_quantity: '1',
    amount: l.taxable, summary_discount: '0', tax: '0', value: '0',
    gst: { gst_rate: l.rate, taxable_value: l.taxable, igst: l.igst ?? '0.00', cgst: l.cgst ?? '0.00', sgst: l.cgst ?? '0.00' },
  }));
  const sum = (k: 'taxable_value' | 'igst' | 'cgst' | 'sgst') => lines.reduce((a, l) => a + Number(l.gst[k]), 0).toFixed(2);
  const id = ++noteId;
  await notes.collection.insertOne({
    companyId: s.companyId, creditNoteId: id, status: 'complete', idempotencyKey: `note-${id}`, saleId: x.saleId, fy: '26-27', serial: x.serial,
    credit_note_no: formatInvoiceNo('CN', '26-27', x.serial), date: x.date, sale_date: g.invoice_date, reason: '', clientId: 0, customer: {}, lines,
    subtotal: sum('taxable_value'), discount: '0', tax: '0', shipping: '0', amount: x.amount, refund: '0', completesBill: false, tax_mode: 'gst',
    gst: {
      tax_mode: 'gst', invoice_no: g.invoice_no, invoice_date: g.invoice_date, gstin: g.recipient.gstin, recipient_name: g.recipient.name,
      place_of_supply: g.place_of_supply, place_of_supply_name: g.place_of_supply_name, inter_state: g.inter_state, state_tax_name: g.state_tax_name,
      taxable_total: sum('taxable_value'), igst_total: sum('igst'), cgst_total: sum('cgst'), sgst_total: sum('sgst'), tax_total: '0', round_off: '0.00',
    },
  } as never);
}

describe('GSTR-1 and GSTR-3B of a hand-computed May 2026 with credit notes and a cancelled invoice', () => {
  const pune = { name: 'Pune Traders', gstin: GSTIN_MH_BUYER };
  const mysore = { name: 'Mysore Stores', state: '29' };
  beforeAll(async () => {
    // Invoices (series SG/26-27, serials 11-16):
    // 11 B2B inter-state to Surat: 3 bottles 590 incl. 18 % = 1500.00 + IGST 270.00; 2 notebooks (100 - 5) excl. 12 % = 190.00 + IGST 22.80.
    const i11 = await seed({ serial: 11, date: '2026-05-04', buyer: surat, lines: [bottle('3'), notebook('2')] });
    const s11 = saleId;
    // 12 B2B intra-state to Pune: 2 bottles = 1000.00 + CGST 90 + SGST 90; 1 notebook = 95.00 + CGST 5.70 + SGST 5.70.
    const i12 = await seed({ serial: 12, date: '2026-05-05', buyer: pune, lines: [bottle('2'), notebook('1')] });
    const s12 = saleId;
    // 13 B2C inter-state to Karnataka above Rs 1,00,000: 200 bottles = 118000.00 incl. = 100000.00 + IGST 18000.00 (b2cl).
    const i13 = await seed({ serial: 13, date: '2026-05-06', buyer: mysore, lines: [bottle('200')] });
    const s13 = saleId;
    // 14 walk-in (intra): 5 bottles = 2500.00 + 225 + 225; 10 notebooks = 950.00 + 57 + 57.
    const i14 = await seed({ serial: 14, date: '2026-05-07', lines: [bottle('5'), notebook('10')] });
    const s14 = saleId;
    walkInMay = { saleId: s14, gst: i14 };
    // 15 walk-in, cancelled: 1 bottle.
    await seed({ serial: 15, date: '2026-05-08', lines: [bottle('1')], cancelled: true });
    // 16 B2C inter-state small to Karnataka: 3 notebooks = 285.00 + IGST 34.20 (value 319.20 -> 319, b2cs).
    const i16 = await seed({ serial: 16, date: '2026-05-09', buyer: mysore, lines: [notebook('3')] });
    const s16 = saleId;
    // Credit notes CN/26-27/0001-0005, a note on each side of the two rates where both were sold:
    // CN1 on 11 (Surat): 1 bottle 500.00 + IGST 90.00 and 1 notebook 95.00 + IGST 11.40 = 696.40.
    await seedNote({ serial: 1, date: '2026-05-20', saleId: s11, sale: i11, amount: '696.40', lines: [{ name: 'Steel Bottle', hsn: '7323', qty: '1', rate: '18', taxable: '500.00', igst: '90.00' }, { name: 'Notebook', hsn: '4820', qty: '1', rate: '12', taxable: '95.00', igst: '11.40' }] });
    // CN2 on 12 (Pune): 1 bottle 500.00 + CGST 45 + SGST 45 = 590.00.
    await seedNote({ serial: 2, date: '2026-05-21', saleId: s12, sale: i12, amount: '590.00', lines: [{ name: 'Steel Bottle', hsn: '7323', qty: '1', rate: '18', taxable: '500.00', cgst: '45.00' }] });
    // CN3 on 13 (the b2cl invoice): 10 bottles 5000.00 + IGST 900.00 = 5900.00 -> cdnur B2CL.
    await seedNote({ serial: 3, date: '2026-05-22', saleId: s13, sale: i13, amount: '5900.00', lines: [{ name: 'Steel Bottle', hsn: '7323', qty: '10', rate: '18', taxable: '5000.00', igst: '900.00' }] });
    // CN4 on 14 (walk-in): 2 bottles 1000.00 + 90 + 90; 4 notebooks 380.00 + 22.80 + 22.80 = 1605.60 -> nets b2cs INTRA 27.
    await seedNote({ serial: 4, date: '2026-05-23', saleId: s14, sale: i14, amount: '1605.60', lines: [{ name: 'Steel Bottle', hsn: '7323', qty: '2', rate: '18', taxable: '1000.00', cgst: '90.00' }, { name: 'Notebook', hsn: '4820', qty: '4', rate: '12', taxable: '380.00', cgst: '22.80' }] });
    // CN5 on 16 (small inter-state B2C): 1 notebook 95.00 + IGST 11.40 = 106.40 -> nets b2cs INTER 29.
    await seedNote({ serial: 5, date: '2026-05-24', saleId: s16, sale: i16, amount: '106.40', lines: [{ name: 'Notebook', hsn: '4820', qty: '1', rate: '12', taxable: '95.00', igst: '11.40' }] });
  });

  it('GSTR-1 JSON: b2b and b2cl as invoiced, cdnr and cdnur, b2cs and HSN net of the notes, cancelled and credit note series in doc_issue', async () => {
    const g = JSON.parse((await M.get('/gst/gstr1?period=2026-05').expect(200)).text);
    expectValid(g);
    // Invoices stay as issued; the notes are reported on their own.
    expect(g.b2b.map((c: { ctin: string; inv: { inum: string; val: number }[] }) => [c.ctin, c.inv.map((i) => [i.inum, i.val])])).toEqual([
      [GSTIN_GJ, [['SG/26-27/0011', 1983]]],
      // 1095.00 + 95.70 + 95.70 = 1286.40 -> 1286
      [GSTIN_MH_BUYER, [['SG/26-27/0012', 1286]]],
    ]);
    expect(g.b2cl).toEqual([{ pos: '29', inv: [{ inum: 'SG/26-27/0013', idt: '06-05-2026', val: 118000, itms: [{ num: 1, itm_det: { txval: 100000, rt: 18, iamt: 18000, csamt: 0 } }] }] }]);
    expect(g.cdnr).toEqual([
      {
        ctin: GSTIN_GJ,
        nt: [
          {
            ntty: 'C', nt_num: 'CN/26-27/0001', nt_dt: '20-05-2026', pos: '24', rchrg: 'N', inv_typ: 'R', val: 696.4,
            itms: [{ num: 1, itm_det: { txval: 95, rt: 12, iamt: 11.4, csamt: 0 } }, { num: 2, itm_det: { txval: 500, rt: 18, iamt: 90, csamt: 0 } }],
          },
        ],
      },
      { ctin: GSTIN_MH_BUYER, nt: [{ ntty: 'C', nt_num: 'CN/26-27/0002', nt_dt: '21-05-2026', pos: '27', rchrg: 'N', inv_typ: 'R', val: 590, itms: [{ num: 1, itm_det: { txval: 500, rt: 18, camt: 45, samt: 45, csamt: 0 } }] }] },
    ]);
    // The original invoice 0013 was 118000.00 > 1,00,000 inter-state unregistered: Table 9B unregistered, typ B2CL.
    expect(g.cdnur).toEqual([{ typ: 'B2CL', ntty: 'C', nt_num: 'CN/26-27/0003', nt_dt: '22-05-2026', pos: '29', val: 5900, itms: [{ num: 1, itm_det: { txval: 5000, rt: 18, iamt: 900, csamt: 0 } }] }]);
    // b2cs net of CN4 and CN5 (0015 cancelled is left out):
    // INTER 29 12 %: 285.00 - 95.00 = 190.00, IGST 34.20 - 11.40 = 22.80
    // INTRA 27 12 %: 950.00 - 380.00 = 570.00, CGST 57.00 - 22.80 = 34.20 (SGST the same)
    // INTRA 27 18 %: 2500.00 - 1000.00 = 1500.00, CGST 225.00 - 90.00 = 135.00
    expect(g.b2cs).toEqual([
      { sply_ty: 'INTER', pos: '29', typ: 'OE', rt: 12, txval: 190, iamt: 22.8, csamt: 0 },
      { sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 12, txval: 570, camt: 34.2, samt: 34.2, csamt: 0 },
      { sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 18, txval: 1500, camt: 135, samt: 135, csamt: 0 },
    ]);
    // HSN net of every note, in each buyer's half:
    // B2B 4820: invoices 2 (0011) + 1 (0012) = 3 pcs, 190 + 95 = 285.00, IGST 22.80, CGST 5.70; CN1 1 pc 95.00 IGST 11.40
    //   -> 2 pcs, 190.00, IGST 11.40, CGST 5.70, SGST 5.70
    // B2B 7323: invoices 3 + 2 = 5 pcs, 1500 + 1000 = 2500.00, IGST 270, CGST 90; CN1 1 pc 500 IGST 90, CN2 1 pc 500 CGST 45
    //   -> 3 pcs, 1500.00, IGST 180.00, CGST 45.00, SGST 45.00
    // B2C 4820: invoices 10 (0014) + 3 (0016) = 13 pcs, 950 + 285 = 1235.00, IGST 34.20, CGST 57.00; CN4 4 pcs 380 CGST 22.80, CN5 1 pc 95 IGST 11.40
    //   -> 8 pcs, 760.00, IGST 22.80, CGST 34.20, SGST 34.20
    // B2C 7323: invoices 200 (0013) + 5 (0014) = 205 pcs, 102500.00, IGST 18000, CGST 225; CN3 10 pcs 5000 IGST 900, CN4 2 pcs 1000 CGST 90
    //   -> 193 pcs, 96500.00, IGST 17100.00, CGST 135.00, SGST 135.00
    // (B2B + B2C: 4820 10 pcs 950.00, 7323 196 pcs 98000.00: the old single list's rows.)
    const row = (num: number, hsn: string, name: string, qty: number, rt: number, txval: number, iamt: number, camt: number) => ({ num, hsn_sc: hsn, desc: name, user_desc: name, uqc: 'PCS', qty, rt, txval, iamt, camt, samt: camt, csamt: 0 });
    expect(g.hsn).toEqual({
      hsn_b2b: [row(1, '4820', 'Notebook', 2, 12, 190, 11.4, 5.7), row(2, '7323', 'Steel Bottle', 3, 18, 1500, 180, 45)],
      hsn_b2c: [row(1, '4820', 'Notebook', 8, 12, 760, 22.8, 34.2), row(2, '7323', 'Steel Bottle', 193, 18, 96500, 17100, 135)],
    });
    // Invoices 0011-0016: six, 0015 cancelled; credit notes 0001-0005 (nature 5).
    expect(g.doc_issue).toEqual({
      doc_det: [
        { doc_num: 1, doc_typ: 'Invoices for outward supply', docs: [{ num: 1, from: 'SG/26-27/0011', to: 'SG/26-27/0016', totnum: 6, cancel: 1, net_issue: 5 }] },
        { doc_num: 5, doc_typ: 'Credit Note', docs: [{ num: 1, from: 'CN/26-27/0001', to: 'CN/26-27/0005', totnum: 5, cancel: 0, net_issue: 5 }] },
      ],
    });
  });

  it('GSTR-1 CSV: cdnr, cdnur and the credit note series in docs, in the offline tool templates', async () => {
    const cdnr = await M.get('/gst/gstr1?period=2026-05&format=csv&section=cdnr').expect(200);
    expect(cdnr.headers['content-disposition']).toBe('attachment; filename="GSTR1_cdnr_052026.csv"');
    expect(cdnr.text.split('\r\n')).toEqual([
      'GSTIN/UIN of Recipient,Receiver Name,Note Number,Note Date,Note Type,Place Of Supply,Reverse Charge,Note Supply Type,Note Value,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount',
      '24AAGCS5678K1ZT,Surat Traders,CN/26-27/0001,20-May-2026,C,24-Gujarat,N,Regular B2B,696.40,,12,95.00,',
      '24AAGCS5678K1ZT,Surat Traders,CN/26-27/0001,20-May-2026,C,24-Gujarat,N,Regular B2B,696.40,,18,500.00,',
      '27AAACB1234C1ZF,Pune Traders,CN/26-27/0002,21-May-2026,C,27-Maharashtra,N,Regular B2B,590.00,,18,500.00,',
      '',
    ]);
    const cdnur = (await M.get('/gst/gstr1?period=2026-05&format=csv&section=cdnur').expect(200)).text.split('\r\n');
    expect(cdnur).toEqual([
      'UR Type,Note Number,Note Date,Note Type,Place Of Supply,Note Value,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount',
      'B2CL,CN/26-27/0003,22-May-2026,C,29-Karnataka,5900.00,,18,5000.00,',
      '',
    ]);
    const b2cs = (await M.get('/gst/gstr1?period=2026-05&format=csv&section=b2cs').expect(200)).text.split('\r\n');
    expect(b2cs).toEqual(['Type,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN', 'OE,29-Karnataka,,12,190.00,,', 'OE,27-Maharashtra,,12,570.00,,', 'OE,27-Maharashtra,,18,1500.00,,', '']);
    const hsn = (await M.get('/gst/gstr1?period=2026-05&format=csv&section=hsn_b2c').expect(200)).text.split('\r\n');
    // 4820 B2C: 760.00 + 22.80 + 34.20 + 34.20 = 851.20
    expect(hsn[1]).toBe('4820,Notebook,PCS-PIECES,8.00,851.20,12,760.00,22.80,34.20,34.20,');
    const docs = (await M.get('/gst/gstr1?period=2026-05&format=csv&section=docs').expect(200)).text.split('\r\n');
    expect(docs).toEqual(['Nature of Document,Sr. No. From,Sr. No. To,Total Number,Cancelled', 'Invoices for outward supply,SG/26-27/0011,SG/26-27/0016,6,1', 'Credit Note,CN/26-27/0001,CN/26-27/0005,5,0', '']);
  });

  it('GSTR-3B: 3.1(a) and 3.2 net of the credit notes, the cancelled invoice out', async () => {
    const r = (await M.get('/gst/gstr3b?period=2026-05').expect(200)).body;
    // Invoices (0015 cancelled): taxable 1690 + 1095 + 100000 + 3450 + 285 = 106520.00;
    //   IGST 292.80 + 18000.00 + 34.20 = 18327.00; CGST 95.70 + 282.00 = 377.70 (SGST the same)
    // Notes: taxable 595 + 500 + 5000 + 1380 + 95 = 7570.00; IGST 101.40 + 900.00 + 11.40 = 1012.80; CGST 45.00 + 112.80 = 157.80
    // Net: 98950.00; IGST 17314.20; CGST 219.90; SGST 219.90 (= the HSN summary's totals)
    // 3.2 Karnataka: 100000 + 285 - 5000 - 95 = 95190.00; IGST 18000 + 34.20 - 900 - 11.40 = 17122.80
    expect(r).toEqual({
      gstin: GSTIN_MH,
      ret_period: '052026',
      outward: { txval: 98950, iamt: 17314.2, camt: 219.9, samt: 219.9, csamt: 0 },
      nil_exempt: { txval: 0 },
      non_gst: { txval: 0 },
      excess: { txval: 0, iamt: 0, camt: 0, samt: 0 },
      inter_state_unreg: [{ pos: '29', txval: 95190, iamt: 17122.8 }],
      // No purchases in May: no credit, everything in cash.
      itc: { iamt: 0, camt: 0, samt: 0, csamt: 0 },
      net_payable: { iamt: 17314.2, camt: 219.9, samt: 219.9, csamt: 0 },
      itc_carried: { iamt: 0, camt: 0, samt: 0 },
    });
  });
});

describe('a nil / exempt / non-GST month (August 2026): Table 8, the HSN summary at rate 0, GSTR-3B 3.1(c) and (e)', () => {
  const pune = { name: 'Pune Traders', gstin: GSTIN_MH_BUYER };
  const veg = (mrp: string): SeedLine => ({ name: 'Fresh Vegetables', mrp, qty: '1', rate: '0', incl: false, hsn: '0702', unit: 'kg', supply: 'exempt' });
  beforeAll(async () => {
    // 31 B2B intra (Pune): exempt vegetables 200.00 + a taxable notebook (100 - 5) excl. 12 % = 95.00 + CGST 5.70 + SGST 5.70.
    await seed({ serial: 31, date: '2026-08-03', buyer: pune, lines: [veg('200'), { ...notebook('1'), supply: 'taxable' }] });
    // 32 B2B inter (Surat): nil-rated salt only, 300.00: in Table 8, not in b2b.
    await seed({ serial: 32, date: '2026-08-04', buyer: surat, lines: [{ name: 'Salt', mrp: '300', qty: '1', rate: '0', incl: false, hsn: '2501', unit: 'kg', supply: 'nil' }] });
    // 33 walk-in: petrol 500.00 (non-GST: in Table 8, not in the HSN summary) + exempt vegetables 150.00.
    const i33 = await seed({ serial: 33, date: '2026-08-05', lines: [{ name: 'Petrol', mrp: '500', qty: '1', rate: '0', incl: false, hsn: '2710', unit: 'ltr', supply: 'non_gst' }, veg('150')] });
    const s33 = saleId;
    // 34 walk-in, only exempt lines: a bill of supply in the same series, 80.00.
    await seed({ serial: 34, date: '2026-08-06', lines: [veg('80')], document: 'bill-of-supply' });
    // 35 unregistered buyer in Karnataka (inter-state): exempt 400.00.
    await seed({ serial: 35, date: '2026-08-07', buyer: { name: 'Mysore Stores', state: '29' }, lines: [veg('400')] });
    // CN7 on 33: 1 kg of vegetables back, 50.00 exempt (the note line 2 credits bill line 2, the exempt one).
    await seedNote({ serial: 7, date: '2026-08-20', saleId: s33, sale: i33, amount: '50.00', lines: [{ name: 'Fresh Vegetables', hsn: '0702', qty: '1', rate: '0', taxable: '50.00', sl: 2, unit: 'kg' }] });
  });

  it('GSTR-1: only taxable lines in b2b, Table 8 by kind of supply, nil and exempt in the HSN summary at rate 0', async () => {
    const g = JSON.parse((await M.get('/gst/gstr1?period=2026-08').expect(200)).text);
    expectValid(g);
    expect(g.b2b).toEqual([
      { ctin: GSTIN_MH_BUYER, inv: [{ inum: 'SG/26-27/0031', idt: '03-08-2026', val: 306, pos: '27', rchrg: 'N', inv_typ: 'R', itms: [{ num: 1, itm_det: { txval: 95, rt: 12, camt: 5.7, samt: 5.7, csamt: 0 } }] }] },
    ]);
    expect(g.b2cs).toBeUndefined();
    expect(g.b2cl).toBeUndefined();
    // INTRB2B: salt 300.00 nil; INTRAB2B: 200.00 exempt; INTRB2C: 400.00 exempt;
    // INTRAB2C: exempt 150.00 (33) + 80.00 (34) - 50.00 (CN7) = 180.00, non-GST petrol 500.00.
    expect(g.nil).toEqual({
      inv: [
        { sply_ty: 'INTRB2B', nil_amt: 300, expt_amt: 0, ngsup_amt: 0 },
        { sply_ty: 'INTRAB2B', nil_amt: 0, expt_amt: 200, ngsup_amt: 0 },
        { sply_ty: 'INTRB2C', nil_amt: 0, expt_amt: 400, ngsup_amt: 0 },
        { sply_ty: 'INTRAB2C', nil_amt: 0, expt_amt: 180, ngsup_amt: 500 },
      ],
    });
    const row = (num: number, hsn: string, name: string, uqc: string, qty: number, rt: number, txval: number, camt = 0) => ({ num, hsn_sc: hsn, desc: name, user_desc: name, uqc, qty, rt, txval, iamt: 0, camt, samt: camt, csamt: 0 });
    // B2B: vegetables 1 kg 200.00 and salt 1 kg 300.00 at 0; the notebook. B2C: vegetables 1 + 1 + 1 - 1 = 2 kg, 150 + 80 + 400 - 50 = 580.00; no petrol.
    expect(g.hsn).toEqual({
      hsn_b2b: [row(1, '0702', 'Fresh Vegetables', 'KGS', 1, 0, 200), row(2, '2501', 'Salt', 'KGS', 1, 0, 300), row(3, '4820', 'Notebook', 'PCS', 1, 12, 95, 5.7)],
      hsn_b2c: [row(1, '0702', 'Fresh Vegetables', 'KGS', 2, 0, 580)],
    });
    // Five documents in the series, the bill of supply among them; the credit note.
    expect(g.doc_issue.doc_det.map((d: { doc_num: number; doc_typ: string; docs: { totnum: number }[] }) => [d.doc_num, d.doc_typ, d.docs[0]!.totnum])).toEqual([
      [1, 'Invoices for outward supply', 5],
      [5, 'Credit Note', 1],
    ]);
    const exemp = (await M.get('/gst/gstr1?period=2026-08&format=csv&section=exemp').expect(200)).text.split('\r\n');
    expect(exemp.slice(1)).toEqual([
      'Inter-State supplies to registered persons,300.00,0.00,0.00',
      'Intra-State supplies to registered persons,0.00,200.00,0.00',
      'Inter-State supplies to unregistered persons,0.00,400.00,0.00',
      'Intra-State supplies to unregistered persons,0.00,180.00,500.00',
      '',
    ]);
  });

  it('GSTR-3B: 3.1(a) the notebook only, 3.1(c) nil + exempt = 1080.00, 3.1(e) non-GST 500.00', async () => {
    const r = (await M.get('/gst/gstr3b?period=2026-08').expect(200)).body;
    expect(r.outward).toEqual({ txval: 95, iamt: 0, camt: 5.7, samt: 5.7, csamt: 0 });
    // 300 + 200 + 400 + 180 = 1080.00
    expect(r.nil_exempt).toEqual({ txval: 1080 });
    expect(r.non_gst).toEqual({ txval: 500 });
    expect(r.inter_state_unreg).toEqual([]);
  });
});

/** GSTR-3B Table 3.1 as the same period's GSTR-1 reports it: every taxable figure less the notes, Table 8 for (c) and (e). */
function gstr1Liability(g: Record<string, any>) {
  const t = { txval: 0, iamt: 0, camt: 0, samt: 0 };
  const add = (d: Record<string, number>, sign: number) => {
    for (const k of ['txval', 'iamt', 'camt', 'samt'] as const) t[k] += sign * Math.round((d[k] ?? 0) * 100);
  };
  for (const c of g.b2b ?? []) for (const i of c.inv) for (const it of i.itms) add(it.itm_det, 1);
  for (const c of g.b2cl ?? []) for (const i of c.inv) for (const it of i.itms) add(it.itm_det, 1);
  for (const r of g.b2cs ?? []) add(r, 1);
  for (const c of g.cdnr ?? []) for (const n of c.nt) for (const it of n.itms) add(it.itm_det, n.ntty === 'C' ? -1 : 1);
  for (const n of g.cdnur ?? []) for (const it of n.itms) add(it.itm_det, n.ntty === 'C' ? -1 : 1);
  let nilExempt = 0;
  let nonGst = 0;
  for (const r of g.nil?.inv ?? []) {
    nilExempt += Math.round(r.nil_amt * 100) + Math.round(r.expt_amt * 100);
    nonGst += Math.round(r.ngsup_amt * 100);
  }
  const rupees = (p: number) => Math.max(0, p) / 100;
  return { outward: { txval: rupees(t.txval), iamt: rupees(t.iamt), camt: rupees(t.camt), samt: rupees(t.samt), csamt: 0 }, nil_exempt: { txval: rupees(nilExempt) }, non_gst: { txval: rupees(nonGst) } };
}

describe('the schema is the offline tool structure, not ours: it refuses what the portal refuses', () => {
  const base = { gstin: GSTIN_MH, fp: '042026', version: GSTR1_VERSION, hash: 'hash' };
  const hsnRow = { num: 1, hsn_sc: '7323', desc: 'Steel Bottle', uqc: 'PCS', qty: 1, rt: 18, txval: 100, iamt: 18, camt: 0, samt: 0, csamt: 0 };
  it.each<[string, object]>([
    ['the single HSN list of before May 2025', { ...base, hsn: { data: [hsnRow] } }],
    ['an empty HSN summary', { ...base, hsn: {} }],
    ['an empty section', { ...base, b2b: [] }],
    ['a file without version', { gstin: GSTIN_MH, fp: '042026', hash: 'hash' }],
    ['a unit outside the UQC list', { ...base, hsn: { hsn_b2c: [{ ...hsnRow, uqc: 'PIECES' }] } }],
    ['a 5-digit HSN', { ...base, hsn: { hsn_b2c: [{ ...hsnRow, hsn_sc: '73239' }] } }],
    ['documents issued without their type', { ...base, doc_issue: { doc_det: [{ doc_num: 1, docs: [{ num: 1, from: 'A1', to: 'A2', totnum: 2, cancel: 0, net_issue: 2 }] }] } }],
    ['a document type that is not its number', { ...base, doc_issue: { doc_det: [{ doc_num: 5, doc_typ: 'Invoices for outward supply', docs: [{ num: 1, from: 'A1', to: 'A2', totnum: 2, cancel: 0, net_issue: 2 }] }] } }],
    ['a Table 8 row of an unknown kind', { ...base, nil: { inv: [{ sply_ty: 'INTER', nil_amt: 1, expt_amt: 0, ngsup_amt: 0 }] } }],
    ['an intra-state b2cs row with IGST', { ...base, b2cs: [{ sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 18, txval: 100, iamt: 18, csamt: 0 }] }],
  ])('refuses %s', (_what, doc) => {
    expect(validate(doc)).toBe(false);
  });
  it('takes a negative b2cs and HSN row (credit notes above the month)', () => {
    expectValid({ ...base, b2cs: [{ sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 18, txval: -500, camt: -45, samt: -45, csamt: 0 }], hsn: { hsn_b2c: [{ ...hsnRow, qty: -1, txval: -500, iamt: 0, camt: -45, samt: -45 }] } });
  });
});

describe('sales made through POST /MAKE_SALE', () => {
  it('a B2B inter-state sale and a walk-in sale appear in that month GSTR-1 as sold', async () => {
    const cat = await category(s.inventory.url, mgr, 'Returns');
    const b = await product(s.inventory.url, mgr, cat, { name: 'Steel Bottle', mrp: '590', tax: '18', hsn_code: '7323', unit: 'pcs', stock: '100' });
    const nb = await product(s.inventory.url, mgr, cat, { name: 'Notebook', mrp: '100', tax: '12', price_includes_tax: false, hsn_code: '4820', unit: 'pcs', stock: '100' });
    const c = await request(s.ledger.url).post('/clients/addClient').set(auth(mgr)).send({
      mobile_no: '9876500099', name: 'Surat Traders', address_line_1: '9 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: GSTIN_GJ,
    });
    expect(c.status).toBe(200);
    const cashier = as(s.url, tokenFor(s.companyId));
    const sell = async (clientId: number) => {
      await cashier.del('/clearCart/1').expect(200);
      await cashier.get(`/addProductIntoCart/${encodeURIComponent(`3*${b}`)}?cart_no=1`).expect(200);
      const line = (await cashier.get(`/addProductIntoCart/${encodeURIComponent(`2*${nb}`)}?cart_no=1`).expect(200)).body[0][0];
      await cashier.post('/upDisc', { sl_no: line.sl_no, discount: '5', cart_no: 1 }).expect(200);
      return (await cashier.post('/MAKE_SALE', { clientId, paid: '0', date: '2031-05-10' }).expect(200)).body.invoice_no as string;
    };
    const b2bNo = await sell(c.body.id);
    const walkInNo = await sell(0);
    const g = JSON.parse((await M.get('/gst/gstr1?period=2031-05').expect(200)).text);
    expectValid(g);
    expect(g.b2b).toEqual([
      {
        ctin: GSTIN_GJ,
        inv: [{ inum: b2bNo, idt: '10-05-2031', val: 1983, pos: '24', rchrg: 'N', inv_typ: 'R', itms: [{ num: 1, itm_det: { txval: 190, rt: 12, iamt: 22.8, csamt: 0 } }, { num: 2, itm_det: { txval: 1500, rt: 18, iamt: 270, csamt: 0 } }] }],
      },
    ]);
    expect(g.b2cs).toEqual([
      { sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 12, txval: 190, camt: 11.4, samt: 11.4, csamt: 0 },
      { sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 18, txval: 1500, camt: 135, samt: 135, csamt: 0 },
    ]);
    const [from, to] = [b2bNo, walkInNo].sort();
    expect(g.doc_issue.doc_det[0].docs).toEqual([{ num: 1, from, to, totnum: 2, cancel: 0, net_issue: 2 }]);
    expect(from).toMatch(/^SG\/31-32\/000[12]$/);
  });
});

describe('an exempt product sold through POST /MAKE_SALE (supply type frozen at the sale)', () => {
  it('leaves b2cs for Table 8 and the HSN summary at rate 0', async () => {
    const cat = await category(s.inventory.url, mgr, 'Vegetables');
    const veg = await product(s.inventory.url, mgr, cat, { name: 'Fresh Vegetables', mrp: '40', tax: '0', hsn_code: '0702', unit: 'kg', supply_type: 'exempt', stock: '100' });
    const cashier = as(s.url, tokenFor(s.companyId));
    await cashier.del('/clearCart/1').expect(200);
    await cashier.get(`/addProductIntoCart/${encodeURIComponent(`2*${veg}`)}?cart_no=1`).expect(200);
    const sold = (await cashier.post('/MAKE_SALE', { clientId: 0, paid: '0', date: '2031-05-20' }).expect(200)).body as { saleId: number };
    const stored = await sales.findOne({ saleId: sold.saleId }).lean();
    expect(stored!.gst!.lines[0]).toMatchObject({ supply_type: 'exempt', gst_rate: '0', taxable_value: '80.00' });
    // The bill view reads each line's type to title an all-exempt bill a Bill of Supply (@bahi/gst isBillOfSupply).
    const bill = (await cashier.get(`/getBillDetails?id=${sold.saleId}`).expect(200)).body;
    expect(bill.soldProducts[0]).toMatchObject({ supply_type: 'exempt', gst_rate: 0, taxable_value: 80 });
    const g = JSON.parse((await M.get('/gst/gstr1?period=2031-05').expect(200)).text);
    expectValid(g);
    // 2 kg x 40.00 = 80.00 exempt, intra-state to an unregistered buyer; b2cs keeps only the month's taxable sales.
    expect(g.nil).toEqual({ inv: [{ sply_ty: 'INTRAB2C', nil_amt: 0, expt_amt: 80, ngsup_amt: 0 }] });
    expect(g.b2cs.every((r: { rt: number }) => r.rt > 0)).toBe(true);
    expect(g.hsn.hsn_b2c).toEqual(expect.arrayContaining([{ num: 1, hsn_sc: '0702', desc: 'Fresh Vegetables', user_desc: 'Fresh Vegetables', uqc: 'KGS', qty: 2, rt: 0, txval: 80, iamt: 0, camt: 0, samt: 0, csamt: 0 }]));
  });
});

describe('GSTR-3B with input tax from a real purchase (this month)', () => {
  it('sets the IGST credit of an inter-state purchase off against the CGST and SGST of an intra-state sale', async () => {
    const cat = await category(s.inventory.url, mgr, 'Fans');
    const fan = await product(s.inventory.url, mgr, cat, { name: 'Table Fan', mrp: '1180', cp: '1000', tax: '18', hsn_code: '8414', unit: 'pcs', stock: '10' });
    const dist = await request(s.ledger.url).post('/addDistributor').set(auth(mgr)).send({
      name: 'Surat Wholesale', address_line_1: '1 Market Road', address_line_2: '', city_or_district: 'Surat', country: 'India', postal_code: '395003', officers: [], state: 'GJ', gstin: GSTIN_GJ,
    });
    expect(dist.status).toBe(200);
    // Purchase 2 fans at cp 1000.00 (before tax) from Gujarat: IGST 2 x 1000 x 18 % = 360.00 of credit.
    await M.del('/clearCart/1').expect(200);
    await M.get(`/addProductIntoCart/${encodeURIComponent(`2*${fan}`)}?cart_no=1`).expect(200);
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const bought = await request(s.inventory.url).post('/checkOutPurchase').set(auth(mgr)).send({ bill_no: 'SW-1', distributor: dist.body.id, officer: '', paid: '0', due_date: due, cart_no: 1 });
    expect(bought.status).toBe(200);
    // Sell 1 fan to the walk-in at 1180.00 incl. 18 %: taxable 1000.00, CGST 90.00 + SGST 90.00.
    const cashier = as(s.url, tokenFor(s.companyId));
    await cashier.del('/clearCart/1').expect(200);
    await cashier.get(`/addProductIntoCart/${encodeURIComponent(`1*${fan}`)}?cart_no=1`).expect(200);
    await cashier.post('/MAKE_SALE', { clientId: 0, paid: '0' }).expect(200);

    const r = (await M.get(`/gst/gstr3b?period=${today().slice(0, 7)}`).expect(200)).body;
    expect(r.outward).toEqual({ txval: 1000, iamt: 0, camt: 90, samt: 90, csamt: 0 });
    expect(r.itc).toEqual({ iamt: 360, camt: 0, samt: 0, csamt: 0 });
    // IGST credit first against IGST (0), then CGST 90 and SGST 90 (s.49(5)(a), Rule 88A): nothing in cash, 180.00 carried.
    expect(r.net_payable).toEqual({ iamt: 0, camt: 0, samt: 0, csamt: 0 });
    expect(r.itc_carried).toEqual({ iamt: 180, camt: 0, samt: 0 });
  });
});

describe('a month whose credit notes exceed its B2C sales (July 2026)', () => {
  it('writes negative b2cs and HSN values (never floored or dropped), GSTR-3B 3.1 at zero with the excess to adjust', async () => {
    // 21: walk-in, 1 bottle = 500.00 + CGST 45 + SGST 45.
    await seed({ serial: 21, date: '2026-07-03', lines: [bottle('1')] });
    // CN6 on May's walk-in invoice 14: 2 bottles = 1000.00 + 90 + 90 = 1180.00.
    await seedNote({ serial: 6, date: '2026-07-10', saleId: walkInMay.saleId, sale: walkInMay.gst, amount: '1180.00', lines: [{ name: 'Steel Bottle', hsn: '7323', qty: '2', rate: '18', taxable: '1000.00', cgst: '90.00' }] });
    const g = JSON.parse((await M.get('/gst/gstr1?period=2026-07').expect(200)).text);
    expectValid(g);
    // INTRA 27 18 %: 500.00 - 1000.00 = -500.00; CGST 45.00 - 90.00 = -45.00 (SGST the same). Flooring it at 0 would
    // overpay 45 + 45 of tax; the offline tool takes the negative row (the old export dropped it).
    expect(g.b2cs).toEqual([{ sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 18, txval: -500, camt: -45, samt: -45, csamt: 0 }]);
    // HSN 7323 (B2C): 1 - 2 = -1 pc, 500.00 - 1000.00 = -500.00.
    expect(g.hsn).toEqual({ hsn_b2c: [{ num: 1, hsn_sc: '7323', desc: 'Steel Bottle', user_desc: 'Steel Bottle', uqc: 'PCS', qty: -1, rt: 18, txval: -500, iamt: 0, camt: -45, samt: -45, csamt: 0 }] });
    expect(g.cdnr).toBeUndefined();
    expect(g.cdnur).toBeUndefined();
    expect(g.doc_issue.doc_det).toEqual([
      { doc_num: 1, doc_typ: 'Invoices for outward supply', docs: [{ num: 1, from: 'SG/26-27/0021', to: 'SG/26-27/0021', totnum: 1, cancel: 0, net_issue: 1 }] },
      { doc_num: 5, doc_typ: 'Credit Note', docs: [{ num: 1, from: 'CN/26-27/0006', to: 'CN/26-27/0006', totnum: 1, cancel: 0, net_issue: 1 }] },
    ]);
    const csv = (await M.get('/gst/gstr1?period=2026-07&format=csv&section=b2cs').expect(200)).text.split('\r\n');
    expect(csv[1]).toBe('OE,27-Maharashtra,,18,-500.00,,');
    const r = (await M.get('/gst/gstr3b?period=2026-07').expect(200)).body;
    // Table 3.1 takes no negative value: 0, and the 500.00 of value and 45.00 + 45.00 of tax are the excess to adjust.
    expect(r.outward).toEqual({ txval: 0, iamt: 0, camt: 0, samt: 0, csamt: 0 });
    expect(r.excess).toEqual({ txval: 500, iamt: 0, camt: 45, samt: 45 });
    expect(r.net_payable).toEqual({ iamt: 0, camt: 0, samt: 0, csamt: 0 });
  });
});

describe('a real sales return and a real cancel (this month)', () => {
  it('POST /salesReturn puts its credit note in cdnr and POST /cancelSale counts the invoice as cancelled in doc_issue', async () => {
    const cat = await category(s.inventory.url, mgr, 'Kitchen');
    const b = await product(s.inventory.url, mgr, cat, { name: 'Steel Bottle', mrp: '590', tax: '18', hsn_code: '7323', unit: 'pcs', stock: '50' });
    const c = await request(s.ledger.url).post('/clients/addClient').set(auth(mgr)).send({
      mobile_no: '9876500077', name: 'Surat Traders', address_line_1: '9 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: GSTIN_GJ,
    });
    expect(c.status).toBe(200);
    const sell = async (clientId: number) => {
      await M.del('/clearCart/1').expect(200);
      await M.get(`/addProductIntoCart/${encodeURIComponent(`3*${b}`)}?cart_no=1`).expect(200);
      return (await M.post('/MAKE_SALE', { clientId, paid: '0' }).expect(200)).body as { saleId: number; invoice_no: string };
    };
    const before = JSON.parse((await M.get(`/gst/gstr1?period=${today().slice(0, 7)}`).expect(200)).text);
    const issuedBefore = before.doc_issue?.doc_det.find((d: { doc_num: number }) => d.doc_num === 1)?.docs[0]?.totnum ?? 0;
    const b2b = await sell(c.body.id);
    const walkIn = await sell(0);
    const stored = await sales.findOne({ saleId: b2b.saleId }).lean();
    // 1 of 3 bottles at 590.00 incl. 18 %: 500.00 + IGST 90.00 = 590.00.
    const ret = await M.post('/salesReturn', { saleId: b2b.saleId, lines: [{ sl_no: stored!.lines[0]!.sl_no, quantity: 1 }], refund: 0, idempotencyKey: `gst-ret-${b2b.saleId}` }).expect(200);
    await M.post('/cancelSale', { saleId: walkIn.saleId, reason: 'Billed twice' }).expect(200);
    const g = JSON.parse((await M.get(`/gst/gstr1?period=${today().slice(0, 7)}`).expect(200)).text);
    expectValid(g);
    const mine = g.cdnr.find((x: { ctin: string }) => x.ctin === GSTIN_GJ);
    expect(mine.nt).toEqual([
      { ntty: 'C', nt_num: ret.body.credit_note_no, nt_dt: `${today().slice(8, 10)}-${today().slice(5, 7)}-${today().slice(0, 4)}`, pos: '24', rchrg: 'N', inv_typ: 'R', val: 590, itms: [{ num: 1, itm_det: { txval: 500, rt: 18, iamt: 90, csamt: 0 } }] },
    ]);
    const invoices = g.doc_issue.doc_det.find((d: { doc_num: number }) => d.doc_num === 1).docs[0];
    expect(invoices).toEqual(expect.objectContaining({ totnum: issuedBefore + 2, cancel: 1 }));
    expect(g.doc_issue.doc_det.find((d: { doc_num: number }) => d.doc_num === 5).docs).toEqual([{ num: 1, from: ret.body.credit_note_no, to: ret.body.credit_note_no, totnum: 1, cancel: 0, net_issue: 1 }]);
    // The cancelled walk-in invoice leaves b2cs as it was before the two sales.
    expect(g.b2cs).toEqual(before.b2cs);
  });
});

describe('GSTR-3B input tax net of a real purchase return (this month)', () => {
  it('a debit note for 1 of 2 fans takes 180.00 of IGST credit back, through inventory.gst.inward', async () => {
    const cat = await category(s.inventory.url, mgr, 'Coolers');
    const fan = await product(s.inventory.url, mgr, cat, { name: 'Desk Fan', mrp: '1180', cp: '1000', tax: '18', hsn_code: '8414', unit: 'pcs', stock: '0' });
    const dist = await request(s.ledger.url).post('/addDistributor').set(auth(mgr)).send({
      name: 'Surat Coolers', address_line_1: '2 Market Road', address_line_2: '', city_or_district: 'Surat', country: 'India', postal_code: '395003', officers: [], state: 'GJ', gstin: GSTIN_GJ,
    });
    expect(dist.status).toBe(200);
    const before = (await M.get(`/gst/gstr3b?period=${today().slice(0, 7)}`).expect(200)).body;
    // 2 fans at cp 1000.00 from Gujarat: IGST 2 x 1000 x 18 % = 360.00 more credit.
    await M.del('/clearCart/1').expect(200);
    await M.get(`/addProductIntoCart/${encodeURIComponent(`2*${fan}`)}?cart_no=1`).expect(200);
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const bought = await request(s.inventory.url).post('/checkOutPurchase').set(auth(mgr)).send({ bill_no: 'SC-9', distributor: dist.body.id, officer: '', paid: '0', due_date: due, cart_no: 1 });
    expect(bought.status).toBe(200);
    const purchaseId = bought.body[0].purchaseId as number;
    const details = await request(s.inventory.url).get(`/getPurchaseDetails?purchaseId=${purchaseId}`).set(auth(mgr));
    const mid = (await M.get(`/gst/gstr3b?period=${today().slice(0, 7)}`).expect(200)).body;
    // 1000 x 18 % x 2 = 360.00 (exact paise: compare in paise).
    expect(Math.round(mid.itc.iamt * 100) - Math.round(before.itc.iamt * 100)).toBe(36_000);
    // Return 1 fan: the debit note reverses 1000.00 x 18 % = 180.00 of IGST.
    const ret = await request(s.inventory.url)
      .post('/purchaseReturn')
      .set(auth(mgr))
      .send({ purchaseId, lines: [{ sl_no: details.body.lines[0].sl_no, quantity: 1 }], refund: 0, idempotencyKey: `gst-dn-${purchaseId}` });
    expect([ret.status, ret.body.debit_note_no]).toEqual([200, expect.stringMatching(/^DN\/\d\d-\d\d\/\d{4}$/)]);
    const after = (await M.get(`/gst/gstr3b?period=${today().slice(0, 7)}`).expect(200)).body;
    expect(Math.round(mid.itc.iamt * 100) - Math.round(after.itc.iamt * 100)).toBe(18_000);
    expect(after.itc.camt).toBe(mid.itc.camt);
    expect(after.outward).toEqual(mid.outward);
  });
});

describe('GSTR-3B Table 3.1 equals what the same month GSTR-1 reports (locked since July 2025)', () => {
  // Run last: every seeded month (July's negative one too) and this month's real sales, returns and cancels.
  it.each(['2026-04', '2026-05', '2026-07', '2026-08', today().slice(0, 7)])('%s', async (period) => {
    const g = JSON.parse((await M.get(`/gst/gstr1?period=${period}`).expect(200)).text);
    const r = (await M.get(`/gst/gstr3b?period=${period}`).expect(200)).body;
    expect({ outward: r.outward, nil_exempt: r.nil_exempt, non_gst: r.non_gst }).toEqual(gstr1Liability(g));
  });

  it('format=json is the portal GSTR-3B JSON with the same figures (May 2026)', async () => {
    const res = await M.get('/gst/gstr3b?period=2026-05&format=json').expect(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="GSTR3B_${GSTIN_MH}_052026.json"`);
    const j = res.body;
    expect(Object.keys(j)).toEqual(['gstin', 'ret_period', 'sup_details', 'inter_sup', 'itc_elg', 'inward_sup', 'intr_ltfee']);
    expect(j.gstin).toBe(GSTIN_MH);
    expect(j.ret_period).toBe('052026');
    // The May figures above: 98950.00; IGST 17314.20; CGST = SGST = 219.90.
    expect(j.sup_details).toEqual({
      osup_det: { txval: 98950, iamt: 17314.2, camt: 219.9, samt: 219.9, csamt: 0 },
      osup_zero: { txval: 0, iamt: 0, csamt: 0 },
      osup_nil_exmp: { txval: 0 },
      isup_rev: { txval: 0, iamt: 0, camt: 0, samt: 0, csamt: 0 },
      osup_nongst: { txval: 0 },
    });
    expect(j.inter_sup).toEqual({ unreg_details: [{ pos: '29', txval: 95190, iamt: 17122.8 }], comp_details: [], uin_details: [] });
    expect(j.itc_elg.itc_avl.map((x: { ty: string }) => x.ty)).toEqual(['IMPG', 'IMPS', 'ISRC', 'ISD', 'OTH']);
    expect(j.itc_elg.itc_net).toEqual({ iamt: 0, camt: 0, samt: 0, csamt: 0 });
    expect(j.intr_ltfee).toEqual({ intr_details: { iamt: 0, camt: 0, samt: 0, csamt: 0 }, ltfee_details: { camt: 0, samt: 0 } });
    expect((await M.get('/gst/gstr3b?period=2026-05&format=xml').expect(400)).body.message).toMatch(/format must be json/);
  });
});

describe('GET /gst/latest-period (where the GST page opens)', () => {
  it('is the month of the latest GST invoice of the caller company, null without one; staff 403', async () => {
    // The latest is the sale dated 2031-05-10 above (financial year 31-32), not today's.
    expect((await M.get('/gst/latest-period').expect(200)).body).toEqual({ period: '2031-05' });
    // The other company's only invoice is of 2 April 2026; a third has none.
    expect((await as(s.url, tokenFor(s.companyId + 1000, 'manager')).get('/gst/latest-period').expect(200)).body).toEqual({ period: '2026-04' });
    expect((await as(s.url, tokenFor(s.companyId + 2000, 'manager')).get('/gst/latest-period').expect(200)).body).toEqual({ period: null });
    await as(s.url, tokenFor(s.companyId, 'staff')).get('/gst/latest-period').expect(403);
  });
});
