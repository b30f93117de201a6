import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import {
  classifyInvoice,
  Decimal,
  DOC_NATURE_CREDIT_NOTES,
  DOC_NATURE_INVOICES,
  GSTR1_CSV_HEADERS,
  gstr1CsvDate,
  gstr1CsvPos,
  gstr1CsvTypes,
  gstr1CsvUqc,
  parseInvoiceNo,
  toUqc,
  type Gstr1CsvSection,
} from '@bahi/gst';
import { csvLine as typedCsvLine, type CellValue } from '@bahi/tabular';
import { Models, type SaleDoc } from '../common/schemas';
import { ReturnModels, type CreditNoteDoc } from '../returns/schema';
import { monthNotes, type ReturnNote } from './notes-data';
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
type TaxedLine = { gst_rate: string; taxable_value: string; igst: string; cgst: string; sgst: string };
function itemsByRate(s: ReturnSale): { num: number; itm_det: ItmDet }[] {
  return byRate(s.gst.lines, s.gst.inter_state);
}
/** A credit note's items per rate, as an invoice's (its lines carry the reversed figures). */
function noteItems(n: ReturnNote): { num: number; itm_det: ItmDet }[] {
  return byRate(noteLines(n), n.gst.inter_state);
}
const noteLines = (n: ReturnNote): TaxedLine[] => n.lines.flatMap((l) => (l.gst ? [l.gst] : []));
function byRate(lines: TaxedLine[], interState: boolean): { num: number; itm_det: ItmDet }[] {
  const byRate = new Map<string, Heads>();
  for (const l of lines) {
    const key = String(rateNum(l.gst_rate));
    if (!byRate.has(key)) byRate.set(key, heads());
    addLine(byRate.get(key)!, l);
  }
  return [...byRate.entries()]
    .sort((a, b) => rateNum(a[0]) - rateNum(b[0]))
    .map(([rt, h], i) => ({
      num: i + 1,
      itm_det: interState
        ? { txval: n2(h.txval), rt: rateNum(rt), iamt: n2(h.iamt), csamt: 0 }
        : { txval: n2(h.txval), rt: rateNum(rt), camt: n2(h.camt), samt: n2(h.samt), csamt: 0 },
    }));
}
function subLine(h: Heads, l: TaxedLine): void {
  h.txval -= paiseOf(l.taxable_value);
  h.iamt -= paiseOf(l.igst);
  h.camt -= paiseOf(l.cgst);
  h.samt -= paiseOf(l.sgst);
}
/** A netted row never goes below zero: the schema's (and the offline tool's) amounts are non-negative. */
const clamp = (h: Heads): Heads => ({ txval: Math.max(0, h.txval), iamt: Math.max(0, h.iamt), camt: Math.max(0, h.camt), samt: Math.max(0, h.samt) });

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
  b2cs = new Map<string, { sply_ty: 'INTRA' | 'INTER'; pos: string; rt: number; h: Heads; netted?: boolean }>();
  hsn = new Map<string, { hsn_sc: string; desc: string; uqc: string; rt: number; qty: Decimal; h: Heads; netted?: boolean }>();
  series = new Map<string, SeriesRow>();
  b2cl = new Map<string, number[]>();
  /** The credit note series (doc_issue nature 5), the notes to registered buyers (cdnr) and those of large inter-state B2C invoices (cdnur). */
  noteSeries = new Map<string, SeriesRow>();
  cdnr: ReturnNote[] = [];
  cdnur: ReturnNote[] = [];
  /** Notes to unregistered buyers inter-state: cdnur or b2cs by their original invoice's value, decided after the pass. */
  pendingB2c: ReturnNote[] = [];

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
    addToSeries(this.series, s.gst.invoice_no, s.gst.serial, Boolean(s.cancelled));
  }

  /**
   * A credit note of the month: counted in its series; the HSN summary is net of every note
   * (Table 12); a registered buyer's note goes to cdnr (Table 9B); an unregistered buyer's
   * nets b2cs (Table 7 is net of notes) unless its invoice was a b2cl one (cdnur).
   */
  addNote(n: ReturnNote): void {
    addToSeries(this.noteSeries, n.credit_note_no, n.serial, false);
    for (const l of n.lines) {
      if (!l.gst) continue;
      const rt = rateNum(l.gst.gst_rate);
      // As computeInvoice froze the invoice's: the HSN trimmed, the unit as a UQC.
      const hsn = l.hsn_code.trim();
      const uqc = toUqc(l.unit);
      const hk = `${hsn}|${uqc}|${rt}`;
      if (!this.hsn.has(hk)) this.hsn.set(hk, { hsn_sc: hsn, desc: l.product_name.slice(0, 30), uqc, rt, qty: D0(), h: heads() });
      const row = this.hsn.get(hk)!;
      row.qty = row.qty.minus(new Decimal(l.quantity).times(l.per_peice_quantity || '1'));
      subLine(row.h, l.gst);
      row.netted = true;
    }
    if (n.gst.gstin) this.cdnr.push(n);
    else if (n.gst.inter_state) this.pendingB2c.push(n);
    else this.netB2cs(n);
  }

  netB2cs(n: ReturnNote): void {
    const sply_ty = n.gst.inter_state ? 'INTER' : 'INTRA';
    for (const l of noteLines(n)) {
      const rt = rateNum(l.gst_rate);
      const key = `${sply_ty}|${n.gst.place_of_supply}|${rt}`;
      if (!this.b2cs.has(key)) this.b2cs.set(key, { sply_ty, pos: n.gst.place_of_supply, rt, h: heads() });
      const row = this.b2cs.get(key)!;
      subLine(row.h, l);
      row.netted = true;
    }
  }

  b2csRows() {
    return [...this.b2cs.values()]
      .filter((r) => !r.netted || r.h.txval > 0)
      .map((r) => (r.netted ? { ...r, h: clamp(r.h) } : r))
      .sort((a, b) => a.sply_ty.localeCompare(b.sply_ty) || a.pos.localeCompare(b.pos) || a.rt - b.rt);
  }
  hsnRows() {
    return [...this.hsn.values()]
      .filter((r) => !r.netted || r.h.txval > 0 || r.qty.greaterThan(0))
      .map((r) => (r.netted ? { ...r, qty: Decimal.max(r.qty, 0), h: clamp(r.h) } : r))
      .sort((a, b) => a.hsn_sc.localeCompare(b.hsn_sc) || a.uqc.localeCompare(b.uqc) || a.rt - b.rt);
  }
  seriesRows() {
    return [...this.series.values()].sort((a, b) => a.from.localeCompare(b.from));
  }
  noteSeriesRows() {
    return [...this.noteSeries.values()].sort((a, b) => a.from.localeCompare(b.from));
  }
  cdnrRows() {
    return [...this.cdnr].sort((a, b) => a.gst.gstin!.localeCompare(b.gst.gstin!) || a.credit_note_no.localeCompare(b.credit_note_no));
  }
  cdnurRows() {
    return [...this.cdnur].sort((a, b) => a.credit_note_no.localeCompare(b.credit_note_no));
  }
}

/** One more document of a series (PREFIX/YY-YY): from and to by serial, total and cancelled. */
function addToSeries(series: Map<string, SeriesRow>, no: string, serial: number, cancelled: boolean): void {
  const parsed = parseInvoiceNo(no);
  const key = parsed.ok ? `${parsed.prefix}/${parsed.fy}` : no;
  const row = series.get(key);
  if (!row) {
    series.set(key, { from: no, fromSerial: serial, to: no, toSerial: serial, total: 1, cancelled: cancelled ? 1 : 0 });
    return;
  }
  if (serial < row.fromSerial) Object.assign(row, { from: no, fromSerial: serial });
  if (serial > row.toSerial) Object.assign(row, { to: no, toSerial: serial });
  row.total++;
  if (cancelled) row.cancelled++;
}

/** cdnr's note (Table 9B, registered): type C, regular B2B supply, no reverse charge. */
const cdnrNote = (n: ReturnNote) => ({ ntty: 'C', nt_num: n.credit_note_no, nt_dt: jsonDate(n.date), pos: n.gst.place_of_supply, rchrg: 'N', inv_typ: 'R', val: n2(paiseOf(n.amount)), itms: noteItems(n) });
/** cdnur's note (Table 9B, unregistered): a large inter-state B2C invoice's (typ B2CL). */
const cdnurNote = (n: ReturnNote) => ({ typ: 'B2CL', ntty: 'C', nt_num: n.credit_note_no, nt_dt: jsonDate(n.date), pos: n.gst.place_of_supply, val: n2(paiseOf(n.amount)), itms: noteItems(n) });

/**
 * GSTR-1 of one month in the GST portal's offline-tool JSON, or one section as the tool's CSV.
 * Streamed: b2b invoices are written as a cursor sorted by buyer GSTIN reads them; b2cs, hsn
 * and doc_issue are small maps from a second pass; b2cl invoices (rare: above Rs 1,00,000) are
 * remembered by id from that pass and read back grouped by place of supply.
 */
@Injectable()
export class Gstr1Service {
  constructor(
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    @InjectModel(ReturnModels.CreditNote) private readonly notes: Model<CreditNoteDoc>,
  ) {}

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
    await out.write(`,"cdnr":${JSON.stringify(groupByCtin(totals.cdnrRows()))}`);
    await out.write(`,"cdnur":${JSON.stringify(totals.cdnurRows().map(cdnurNote))}`);

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
    // The one CSV writer of every export: text guarded against formulas, numbers left numbers.
    const types = gstr1CsvTypes(sec);
    const csvLine = (cells: readonly CellValue[]) => typedCsvLine(cells, types);
    await out.write(typedCsvLine(GSTR1_CSV_HEADERS[sec]));
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
    if (sec === 'cdnr' || sec === 'cdnur') {
      // Notes only: the invoices' pass is not needed for them.
      const t = await this.noteTotals(companyId, p, new MonthTotals());
      if (sec === 'cdnr') {
        for (const n of t.cdnrRows()) {
          for (const { itm_det: d } of noteItems(n)) {
            await out.write(csvLine([n.gst.gstin, n.gst.recipient_name, n.credit_note_no, gstr1CsvDate(n.date), 'C', gstr1CsvPos(n.gst.place_of_supply), 'N', 'Regular B2B', money(n.amount), '', d.rt, paiseText(Math.round(d.txval * 100)), '']));
          }
        }
      } else {
        for (const n of t.cdnurRows()) {
          for (const { itm_det: d } of noteItems(n)) {
            await out.write(csvLine(['B2CL', n.credit_note_no, gstr1CsvDate(n.date), 'C', gstr1CsvPos(n.gst.place_of_supply), money(n.amount), '', d.rt, paiseText(Math.round(d.txval * 100)), '']));
          }
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
      for (const r of totals.noteSeriesRows()) await out.write(csvLine([DOC_NATURE_CREDIT_NOTES, r.from, r.to, r.total, r.cancelled]));
    }
  }

  /** b2b invoices grouped by buyer GSTIN (the sort), in invoice order within a buyer. */
  private b2bCursor(companyId: number, p: ReturnPeriod) {
    return invoices(saleCursor(this.sales, monthFilter(companyId, p, { 'gst.b2b': true }), { 'gst.recipient.gstin': 1, 'gst.serial': 1 }));
  }

  private async totals(companyId: number, p: ReturnPeriod): Promise<MonthTotals> {
    const t = new MonthTotals();
    for await (const s of invoices(monthByDay(this.sales, companyId, p), { withCancelled: true })) t.add(s);
    return this.noteTotals(companyId, p, t);
  }

  /** The month's credit notes in one streamed pass; then the unregistered inter-state ones by their invoice's value. */
  private async noteTotals(companyId: number, p: ReturnPeriod, t: MonthTotals): Promise<MonthTotals> {
    for await (const n of monthNotes(this.notes, companyId, p)) t.addNote(n);
    if (t.pendingB2c.length) {
      const value = new Map<number, string>();
      const ids = [...new Set(t.pendingB2c.map((n) => n.saleId))];
      for await (const s of saleCursor(this.sales, { companyId, saleId: { $in: ids } })) value.set(s.saleId, s.gst.invoice_value);
      for (const n of t.pendingB2c) {
        // Table 9B takes notes of Table 5 (b2cl) invoices; the rest are netted in Table 7 (b2cs).
        const original = value.get(n.saleId);
        const large = original !== undefined && classifyInvoice({ registeredCustomer: false, interState: true, invoiceValue: original }) === 'b2cl';
        if (large) t.cdnur.push(n);
        else t.netB2cs(n);
      }
      t.pendingB2c = [];
    }
    return t;
  }

  private byIds(companyId: number, ids: number[]) {
    return invoices(saleCursor(this.sales, { companyId, saleId: { $in: ids } }, { 'gst.serial': 1 }));
  }

  private docIssue(t: MonthTotals) {
    const rows = (series: SeriesRow[]) => series.map((r, i) => ({ num: i + 1, from: r.from, to: r.to, totnum: r.total, cancel: r.cancelled, net_issue: r.total - r.cancelled }));
    const docs = rows(t.seriesRows());
    const notes = rows(t.noteSeriesRows());
    // Table 13 natures: 1 invoices for outward supply, 5 credit notes.
    return { doc_det: [...(docs.length ? [{ doc_num: 1, docs }] : []), ...(notes.length ? [{ doc_num: 5, docs: notes }] : [])] };
  }
}

const money = (s: string): string => paiseText(paiseOf(s));

/** cdnr: per recipient GSTIN (sorted), its notes. */
function groupByCtin(notes: ReturnNote[]): { ctin: string; nt: ReturnType<typeof cdnrNote>[] }[] {
  const out: { ctin: string; nt: ReturnType<typeof cdnrNote>[] }[] = [];
  for (const n of notes) {
    const last = out[out.length - 1];
    if (last && last.ctin === n.gst.gstin) last.nt.push(cdnrNote(n));
    else out.push({ ctin: n.gst.gstin!, nt: [cdnrNote(n)] });
  }
  return out;
}
