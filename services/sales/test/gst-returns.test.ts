// GST returns: GET /gst/gstr1 (JSON and the offline tool's CSV) and /gst/gstr3b against the real
// sales service. A hand-computed April 2026 is seeded as complete sales shaped exactly as checkout
// freezes them (SaleGst from @bahi/gst computeInvoice); one month is sold through POST /MAKE_SALE.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import type { GstLine, SaleGst } from '@bahi/contracts';
import { computeInvoice, formatInvoiceNo, stateName } from '@bahi/gst';
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
}
interface Seed {
  serial: number;
  fy?: string;
  date: string;
  buyer?: { name: string; gstin?: string; state?: string };
  lines: SeedLine[];
  cancelled?: boolean;
  companyId?: number;
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
    sl_no: i + 1, hsn_code: c.hsn, uqc: c.uqc, gst_rate: c.rate, price_includes_tax: x.lines[i]!.incl, qty: c.qty,
    line_taxable: c.lineTaxable, share: c.share, taxable_value: c.taxable, cgst: c.cgst, sgst: c.sgst, igst: c.igst,
  }));
  const gst: SaleGst = {
    tax_mode: 'gst', document: 'tax-invoice', invoice_no: formatInvoiceNo('SG', fy, x.serial), fy, serial: x.serial, invoice_date: x.date,
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
    expect((await M.get('/gst/gstr1?period=2026-04&format=csv&section=exp').expect(400)).body.message).toMatch(/section must be one of b2b, b2cl, b2cs, hsn, docs/);
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

  it('answers the portal offline tool JSON, valid against packages/gst/schemas/gstr1.schema.json', async () => {
    const r = await M.get('/gst/gstr1?period=2026-04').expect(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['content-disposition']).toBe(`attachment; filename="GSTR1_${GSTIN_MH}_042026.json"`);
    const g = JSON.parse(r.text);
    expectValid(g);
    expect(g.gstin).toBe(GSTIN_MH);
    expect(g.fp).toBe('042026');
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
    // b2cs: 0005 (exactly 1,00,000, inter-state) and 0006 (walk-in, intra) by type, pos and rate; 0007 cancelled is left out.
    expect(g.b2cs).toEqual([
      { sply_ty: 'INTER', pos: '29', typ: 'OE', rt: 0, txval: 100000, iamt: 0, csamt: 0 },
      { sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 12, txval: 190, camt: 11.4, samt: 11.4, csamt: 0 },
      { sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 18, txval: 1500, camt: 135, samt: 135, csamt: 0 },
    ]);
    // HSN by code, unit and rate, all of the month's invoices but the cancelled one:
    // 4820 at 12 %: 2 (0001, IGST 22.80) + 2 (0006, 11.40 + 11.40) = 4 pcs, 380.00.
    // 7323 at 18 %: 3 (0001) + 1 (0002) + 1 (0004) + 3 (0006) = 8 pcs; 1500 + 100 + 100000 + 1500 = 103100;
    //   IGST 270 + 18000 = 18270; CGST 9 + 135 = 144, SGST the same.
    expect(g.hsn.data).toEqual([
      { num: 1, hsn_sc: '0401', desc: 'Fresh Milk', uqc: 'PCS', qty: 1, rt: 0, txval: 100000, iamt: 0, camt: 0, samt: 0, csamt: 0 },
      { num: 2, hsn_sc: '1006', desc: 'Rice', uqc: 'PCS', qty: 1, rt: 5, txval: 100, iamt: 5, camt: 0, samt: 0, csamt: 0 },
      { num: 3, hsn_sc: '4820', desc: 'Notebook', uqc: 'PCS', qty: 4, rt: 12, txval: 380, iamt: 22.8, camt: 11.4, samt: 11.4, csamt: 0 },
      { num: 4, hsn_sc: '7323', desc: expect.stringMatching(/^(Steel Bottle|Rate Eighteen)$/), uqc: 'PCS', qty: 8, rt: 18, txval: 103100, iamt: 18270, camt: 144, samt: 144, csamt: 0 },
    ]);
    // The series 0001-0007: seven issued, one cancelled.
    expect(g.doc_issue).toEqual({ doc_det: [{ doc_num: 1, docs: [{ num: 1, from: 'SG/26-27/0001', to: 'SG/26-27/0007', totnum: 7, cancel: 1, net_issue: 6 }] }] });
  });

  it('31 March 23:59 IST is in March (the old series); 1 April 00:00 IST opens April', async () => {
    const march = JSON.parse((await M.get('/gst/gstr1?period=2026-03').expect(200)).text);
    expectValid(march);
    expect(march.b2b).toEqual([{ ctin: GSTIN_GJ, inv: [expect.objectContaining({ inum: 'SG/25-26/0099', idt: '31-03-2026', val: 590 })] }]);
    expect(march.doc_issue.doc_det[0].docs).toEqual([{ num: 1, from: 'SG/25-26/0099', to: 'SG/25-26/0099', totnum: 1, cancel: 0, net_issue: 1 }]);
    const april = JSON.parse((await M.get('/gst/gstr1?period=2026-04').expect(200)).text);
    expect(april.doc_issue.doc_det[0].docs[0].from).toBe('SG/26-27/0001');
  });

  it('a month without sales is an empty, valid return', async () => {
    const g = JSON.parse((await M.get('/gst/gstr1?period=2026-06').expect(200)).text);
    expectValid(g);
    expect(g).toEqual({ gstin: GSTIN_MH, fp: '062026', b2b: [], b2cs: [], hsn: { data: [] }, doc_issue: { doc_det: [] }, cdnr: [], cdnur: [], b2cl: [] });
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
    expect(b2cs).toEqual(['Type,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN', 'OE,29-Karnataka,,0,100000.00,,', 'OE,27-Maharashtra,,12,190.00,,', 'OE,27-Maharashtra,,18,1500.00,,', '']);
    const hsn = await M.get('/gst/gstr1?period=2026-04&format=csv&section=hsn').expect(200);
    expect(hsn.headers['content-disposition']).toBe('attachment; filename="GSTR1_hsn_042026.csv"');
    const rows = hsn.text.split('\r\n');
    expect(rows[0]).toBe('HSN,Description,UQC,Total Quantity,Total Value,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount');
    // 4820: value 380 + 22.80 + 11.40 + 11.40 = 425.60.
    expect(rows[3]).toBe('4820,Notebook,PCS-PIECES,4.00,425.60,12,380.00,22.80,11.40,11.40,');
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
}
async function seedNote(x: { serial: number; date: string; saleId: number; sale: SaleGst; lines: NoteSeedLine[]; amount: string }): Promise<void> {
  const g = x.sale;
  const lines = x.lines.map((l, i) => ({
    sl_no: i + 1, product_id: i + 1, product_name: l.name, hsn_code: l.hsn, unit: 'pcs', mrp: '0', discount: '0', quantity: l.qty, per_peice_quantity: '1',
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
    // HSN net of every note:
    // 4820: invoices 2 + 1 + 10 + 3 = 16 pcs, 190 + 95 + 950 + 285 = 1520.00, IGST 22.80 + 34.20 = 57.00, CGST 5.70 + 57.00 = 62.70;
    //   notes 1 + 4 + 1 = 6 pcs, 95 + 380 + 95 = 570.00, IGST 11.40 + 11.40 = 22.80, CGST 22.80
    //   net 10 pcs, 950.00, IGST 34.20, CGST 39.90, SGST 39.90
    // 7323: invoices 3 + 2 + 200 + 5 = 210 pcs, 1500 + 1000 + 100000 + 2500 = 105000.00, IGST 270 + 18000 = 18270.00, CGST 90 + 225 = 315.00;
    //   notes 1 + 1 + 10 + 2 = 14 pcs, 500 + 500 + 5000 + 1000 = 7000.00, IGST 90 + 900 = 990.00, CGST 45 + 90 = 135.00
    //   net 196 pcs, 98000.00, IGST 17280.00, CGST 180.00, SGST 180.00
    expect(g.hsn.data).toEqual([
      { num: 1, hsn_sc: '4820', desc: 'Notebook', uqc: 'PCS', qty: 10, rt: 12, txval: 950, iamt: 34.2, camt: 39.9, samt: 39.9, csamt: 0 },
      { num: 2, hsn_sc: '7323', desc: 'Steel Bottle', uqc: 'PCS', qty: 196, rt: 18, txval: 98000, iamt: 17280, camt: 180, samt: 180, csamt: 0 },
    ]);
    // Invoices 0011-0016: six, 0015 cancelled; credit notes 0001-0005 (nature 5).
    expect(g.doc_issue).toEqual({
      doc_det: [
        { doc_num: 1, docs: [{ num: 1, from: 'SG/26-27/0011', to: 'SG/26-27/0016', totnum: 6, cancel: 1, net_issue: 5 }] },
        { doc_num: 5, docs: [{ num: 1, from: 'CN/26-27/0001', to: 'CN/26-27/0005', totnum: 5, cancel: 0, net_issue: 5 }] },
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
    const hsn = (await M.get('/gst/gstr1?period=2026-05&format=csv&section=hsn').expect(200)).text.split('\r\n');
    // 4820: 950.00 + 34.20 + 39.90 + 39.90 = 1064.00
    expect(hsn[1]).toBe('4820,Notebook,PCS-PIECES,10.00,1064.00,12,950.00,34.20,39.90,39.90,');
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
      inter_state_unreg: [{ pos: '29', txval: 95190, iamt: 17122.8 }],
      // No purchases in May: no credit, everything in cash.
      itc: { iamt: 0, camt: 0, samt: 0, csamt: 0 },
      net_payable: { iamt: 17314.2, camt: 219.9, samt: 219.9, csamt: 0 },
      itc_carried: { iamt: 0, camt: 0, samt: 0 },
    });
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
  it('leaves the b2cs and HSN rows out instead of negative, and GSTR-3B at zero', async () => {
    // 21: walk-in, 1 bottle = 500.00 + CGST 45 + SGST 45.
    await seed({ serial: 21, date: '2026-07-03', lines: [bottle('1')] });
    // CN6 on May's walk-in invoice 14: 2 bottles = 1000.00 + 90 + 90 = 1180.00.
    await seedNote({ serial: 6, date: '2026-07-10', saleId: walkInMay.saleId, sale: walkInMay.gst, amount: '1180.00', lines: [{ name: 'Steel Bottle', hsn: '7323', qty: '2', rate: '18', taxable: '1000.00', cgst: '90.00' }] });
    const g = JSON.parse((await M.get('/gst/gstr1?period=2026-07').expect(200)).text);
    expectValid(g);
    // INTRA 27 18 %: 500.00 - 1000.00 < 0 and HSN 7323: 1 - 2 pcs, 500.00 - 1000.00 < 0: no row (the schema takes no negative amount).
    expect(g.b2cs).toEqual([]);
    expect(g.hsn.data).toEqual([]);
    expect(g.cdnr).toEqual([]);
    expect(g.cdnur).toEqual([]);
    expect(g.doc_issue.doc_det).toEqual([
      { doc_num: 1, docs: [{ num: 1, from: 'SG/26-27/0021', to: 'SG/26-27/0021', totnum: 1, cancel: 0, net_issue: 1 }] },
      { doc_num: 5, docs: [{ num: 1, from: 'CN/26-27/0006', to: 'CN/26-27/0006', totnum: 1, cancel: 0, net_issue: 1 }] },
    ]);
    const r = (await M.get('/gst/gstr3b?period=2026-07').expect(200)).body;
    // 500.00 - 1000.00 and 45.00 - 90.00 per head: Table 3.1 takes no negative value, so 0.
    expect(r.outward).toEqual({ txval: 0, iamt: 0, camt: 0, samt: 0, csamt: 0 });
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
    const issuedBefore = before.doc_issue.doc_det.find((d: { doc_num: number }) => d.doc_num === 1)?.docs[0]?.totnum ?? 0;
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
