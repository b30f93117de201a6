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
    expect(g).toEqual({ gstin: GSTIN_MH, fp: '062026', b2b: [], b2cs: [], hsn: { data: [] }, doc_issue: { doc_det: [] }, b2cl: [] });
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
