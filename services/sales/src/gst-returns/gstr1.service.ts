import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import {
  classifyInvoice,
  csvLine,
  Decimal,
  DOC_NATURE_INVOICES,
  GSTR1_CSV_HEADERS,
  gstr1CsvDate,
  gstr1CsvPos,
  gstr1CsvUqc,
  parseInvoiceNo,
  type Gstr1CsvSection,
} from '@bahi/gst';
import { Models, type SaleDoc } from '../common/schemas';
import { paiseNumber, paiseOf, paiseText } from './paise';
import type { ReturnPeriod } from './period';
import { invoices, monthByDay, monthFilter, saleCursor, type ReturnSale } from './returns-data';
import type { Sink } from './sink';

const D0 = () => new Decimal(0);
/** Amounts are summed as exact integer paise and become JSON numbers only here, at the edge. */
const n2 = paiseNumber;
const rateNum = (r: string): number => Number(r);
/** '2026-04-01' -> '01-04-2026' (GSTR-1 JSON dates). */
const jsonDate = (iso: string): string => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

/** Per tax head, in paise. */
interface Heads {
  txval: number;
  iamt: number;
  camt: number;
  samt: number;
}
const heads = (): Heads => ({ txval: 0, iamt: 0, camt: 0, samt: 0 });
function addLine(h: Heads, l: { taxable_value: string; igst: string; cgst: string; sgst: string }): void {
  h.txval += paiseOf(l.taxable_value);
  h.iamt += paiseOf(l.igst);
  h.camt += paiseOf(l.cgst);
  h.samt += paiseOf(l.sgst);
}

/** itm_det per rate of one invoice: iamt on an inter-state supply, camt and samt on an intra-state one. */
interface ItmDet {
  txval: number;
  rt: number;
  iamt?: number;
  camt?: number;
  samt?: number;
  csamt: number;
}
function itemsByRate(s: ReturnSale): { num: number; itm_det: ItmDet }[] {
  const byRate = new Map<string, Heads>();
  for (const l of s.gst.lines) {
    const key = String(rateNum(l.gst_rate));
    if (!byRate.has(key)) byRate.set(key, heads());
    addLine(byRate.get(key)!, l);
  }
  return [...byRate.entries()]
    .sort((a, b) => rateNum(a[0]) - rateNum(b[0]))
    .map(([rt, h], i) => ({
      num: i + 1,
      itm_det: s.gst.inter_state
        ? { txval: n2(h.txval), rt: rateNum(rt), iamt: n2(h.iamt), csamt: 0 }
        : { txval: n2(h.txval), rt: rateNum(rt), camt: n2(h.camt), samt: n2(h.samt), csamt: 0 },
    }));
}

const section = (s: ReturnSale) =>
  classifyInvoice({ document: s.gst.document, registeredCustomer: s.gst.b2b, interState: s.gst.inter_state, invoiceValue: s.gst.invoice_value });

interface SeriesRow {
  from: string;
  fromSerial: number;
  to: string;
  toSerial: number;
  total: number;
  cancelled: number;
}

/** The month's small aggregates (b2cs, hsn, doc_issue) and the b2cl invoices' ids, from one pass. */
class MonthTotals {
  b2cs = new Map<string, { sply_ty: 'INTRA' | 'INTER'; pos: string; rt: number; h: Heads }>();
  hsn = new Map<string, { hsn_sc: string; desc: string; uqc: string; rt: number; qty: Decimal; h: Heads }>();
  series = new Map<string, SeriesRow>();
  b2cl = new Map<string, number[]>();

  add(s: ReturnSale): void {
    this.addSeries(s);
    if (s.cancelled) return;
    const kind = section(s);
    if (kind === 'b2cl') {
      const pos = s.gst.place_of_supply;
      if (!this.b2cl.has(pos)) this.b2cl.set(pos, []);
      this.b2cl.get(pos)!.push(s.saleId);
    }
    const names = new Map(s.lines.map((l) => [l.sl_no, l.product_name]));
    for (const l of s.gst.lines) {
      const rt = rateNum(l.gst_rate);
      if (kind === 'b2cs') {
        const sply_ty = s.gst.inter_state ? 'INTER' : 'INTRA';
        const key = `${sply_ty}|${s.gst.place_of_supply}|${rt}`;
        if (!this.b2cs.has(key)) this.b2cs.set(key, { sply_ty, pos: s.gst.place_of_supply, rt, h: heads() });
        addLine(this.b2cs.get(key)!.h, l);
      }
      // Table 12: one row per HSN, unit and rate (the portal keeps them apart).
      const hk = `${l.hsn_code}|${l.uqc}|${rt}`;
      if (!this.hsn.has(hk)) this.hsn.set(hk, { hsn_sc: l.hsn_code, desc: (names.get(l.sl_no) ?? '').slice(0, 30), uqc: l.uqc, rt, qty: D0(), h: heads() });
      const row = this.hsn.get(hk)!;
      row.qty = row.qty.plus(l.qty);
      addLine(row.h, l);
    }
  }

  private addSeries(s: ReturnSale): void {
    const parsed = parseInvoiceNo(s.gst.invoice_no);
    const key = parsed.ok ? `${parsed.prefix}/${parsed.fy}` : s.gst.invoice_no;
    const serial = s.gst.serial;
    const row = this.series.get(key);
    if (!row) {
      this.series.set(key, { from: s.gst.invoice_no, fromSerial: serial, to: s.gst.invoice_no, toSerial: serial, total: 1, cancelled: s.cancelled ? 1 : 0 });
      return;
    }
    if (serial < row.fromSerial) Object.assign(row, { from: s.gst.invoice_no, fromSerial: serial });
    if (serial > row.toSerial) Object.assign(row, { to: s.gst.invoice_no, toSerial: serial });
    row.total++;
    if (s.cancelled) row.cancelled++;
  }

  b2csRows() {
    return [...this.b2cs.values()].sort((a, b) => a.sply_ty.localeCompare(b.sply_ty) || a.pos.localeCompare(b.pos) || a.rt - b.rt);
  }
  hsnRows() {
    return [...this.hsn.values()].sort((a, b) => a.hsn_sc.localeCompare(b.hsn_sc) || a.uqc.localeCompare(b.uqc) || a.rt - b.rt);
  }
  seriesRows() {
    return [...this.series.values()].sort((a, b) => a.from.localeCompare(b.from));
  }
}

/**
 * GSTR-1 of one month in the GST portal's offline-tool JSON, or one section as the tool's CSV.
 * Streamed: b2b invoices are written as a cursor sorted by buyer GSTIN reads them; b2cs, hsn
 * and doc_issue are small maps from a second pass; b2cl invoices (rare: above Rs 1,00,000) are
 * remembered by id from that pass and read back grouped by place of supply.
 */
@Injectable()
export class Gstr1Service {
  constructor(@InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>) {}

  async json(companyId: number, gstin: string, p: ReturnPeriod, out: Sink): Promise<void> {
    await out.write(`{"gstin":${JSON.stringify(gstin)},"fp":${JSON.stringify(p.fp)},"b2b":[`);
    let ctin: string | null = null;
    let firstInv = true;
    for await (const s of this.b2bCursor(companyId, p)) {
      const inv = JSON.stringify({
        inum: s.gst.invoice_no,
        idt: jsonDate(s.gst.invoice_date),
        val: n2(paiseOf(s.gst.invoice_value)),
        pos: s.gst.place_of_supply,
        rchrg: 'N',
        inv_typ: 'R',
        itms: itemsByRate(s),
      });
      const g = s.gst.recipient.gstin!;
      if (g !== ctin) {
        await out.write(`${ctin === null ? '' : ']},'}{"ctin":${JSON.stringify(g)},"inv":[`);
        ctin = g;
        firstInv = true;
      }
      await out.write(firstInv ? inv : `,${inv}`);
      firstInv = false;
    }
    await out.write(ctin === null ? ']' : ']}]');

    const totals = await this.totals(companyId, p);
    await out.write(',"b2cs":');
    await out.write(
      JSON.stringify(
        totals.b2csRows().map((r) =>
          r.sply_ty === 'INTER'
            ? { sply_ty: r.sply_ty, pos: r.pos, typ: 'OE', rt: r.rt, txval: n2(r.h.txval), iamt: n2(r.h.iamt), csamt: 0 }
            : { sply_ty: r.sply_ty, pos: r.pos, typ: 'OE', rt: r.rt, txval: n2(r.h.txval), camt: n2(r.h.camt), samt: n2(r.h.samt), csamt: 0 },
        ),
      ),
    );
    const hsn = totals.hsnRows().map((r, i) => ({
      num: i + 1,
      hsn_sc: r.hsn_sc,
      desc: r.desc,
      uqc: r.uqc,
      qty: Number(r.qty.toFixed(2)),
      rt: r.rt,
      txval: n2(r.h.txval),
      iamt: n2(r.h.iamt),
      camt: n2(r.h.camt),
      samt: n2(r.h.samt),
      csamt: 0,
    }));
    await out.write(`,"hsn":${JSON.stringify({ data: hsn })}`);
    await out.write(`,"doc_issue":${JSON.stringify(this.docIssue(totals))}`);

    await out.write(',"b2cl":[');
    let firstPos = true;
    for (const pos of [...totals.b2cl.keys()].sort()) {
      await out.write(`${firstPos ? '' : ','}{"pos":${JSON.stringify(pos)},"inv":[`);
      firstPos = false;
      let first = true;
      for await (const s of this.byIds(companyId, totals.b2cl.get(pos)!)) {
        const inv = { inum: s.gst.invoice_no, idt: jsonDate(s.gst.invoice_date), val: n2(paiseOf(s.gst.invoice_value)), itms: itemsByRate(s) };
        await out.write(`${first ? '' : ','}${JSON.stringify(inv)}`);
        first = false;
      }
      await out.write(']}');
    }
    await out.write(']}');
  }

  async csv(companyId: number, p: ReturnPeriod, sec: Gstr1CsvSection, out: Sink): Promise<void> {
    await out.write(csvLine(GSTR1_CSV_HEADERS[sec]));
    if (sec === 'b2b') {
      for await (const s of this.b2bCursor(companyId, p)) {
        for (const { itm_det: d } of itemsByRate(s)) {
          await out.write(
            csvLine([s.gst.recipient.gstin, s.gst.recipient.name, s.gst.invoice_no, gstr1CsvDate(s.gst.invoice_date), money(s.gst.invoice_value), gstr1CsvPos(s.gst.place_of_supply), 'N', '', 'Regular B2B', '', d.rt, paiseText(Math.round(d.txval * 100)), '']),
          );
        }
      }
      return;
    }
    if (sec === 'b2cl') {
      for await (const s of invoices(monthByDay(this.sales, companyId, p, { 'gst.b2b': false }))) {
        if (section(s) !== 'b2cl') continue;
        for (const { itm_det: d } of itemsByRate(s)) {
          await out.write(csvLine([s.gst.invoice_no, gstr1CsvDate(s.gst.invoice_date), money(s.gst.invoice_value), gstr1CsvPos(s.gst.place_of_supply), '', d.rt, paiseText(Math.round(d.txval * 100)), '', '']));
        }
      }
      return;
    }
    const totals = await this.totals(companyId, p);
    if (sec === 'b2cs') {
      for (const r of totals.b2csRows()) await out.write(csvLine(['OE', gstr1CsvPos(r.pos), '', r.rt, paiseText(r.h.txval), '', '']));
    } else if (sec === 'hsn') {
      for (const r of totals.hsnRows()) {
        await out.write(
          csvLine([r.hsn_sc, r.desc, gstr1CsvUqc(r.uqc), r.qty.toFixed(2), paiseText(r.h.txval + r.h.iamt + r.h.camt + r.h.samt), r.rt, paiseText(r.h.txval), paiseText(r.h.iamt), paiseText(r.h.camt), paiseText(r.h.samt), '']),
        );
      }
    } else {
      for (const r of totals.seriesRows()) await out.write(csvLine([DOC_NATURE_INVOICES, r.from, r.to, r.total, r.cancelled]));
    }
  }

  /** b2b invoices grouped by buyer GSTIN (the sort), in invoice order within a buyer. */
  private b2bCursor(companyId: number, p: ReturnPeriod) {
    return invoices(saleCursor(this.sales, monthFilter(companyId, p, { 'gst.b2b': true }), { 'gst.recipient.gstin': 1, 'gst.serial': 1 }));
  }

  private async totals(companyId: number, p: ReturnPeriod): Promise<MonthTotals> {
    const t = new MonthTotals();
    for await (const s of invoices(monthByDay(this.sales, companyId, p), { withCancelled: true })) t.add(s);
    return t;
  }

  private byIds(companyId: number, ids: number[]) {
    return invoices(saleCursor(this.sales, { companyId, saleId: { $in: ids } }, { 'gst.serial': 1 }));
  }

  private docIssue(t: MonthTotals) {
    const docs = t.seriesRows().map((r, i) => ({ num: i + 1, from: r.from, to: r.to, totnum: r.total, cancel: r.cancelled, net_issue: r.total - r.cancelled }));
    return { doc_det: docs.length ? [{ doc_num: 1, docs }] : [] };
  }
}

const money = (s: string): string => paiseText(paiseOf(s));
