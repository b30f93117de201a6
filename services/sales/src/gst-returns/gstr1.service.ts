import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import {
  DOC_NATURE_CREDIT_NOTES,
  DOC_NATURE_INVOICES,
  DOC_TYPES,
  GSTR1_CSV_HEADERS,
  GSTR1_HASH,
  GSTR1_VERSION,
  gstr1CsvDate,
  gstr1CsvPos,
  gstr1CsvTypes,
  gstr1CsvUqc,
  NIL_SUPPLY_DESCRIPTIONS,
  type Gstr1CsvSection,
} from '@bahi/gst';
import { csvLine as typedCsvLine, type CellValue } from '@bahi/tabular';
import { Models, type SaleDoc } from '../common/schemas';
import { ReturnModels, type CreditNoteDoc } from '../returns/schema';
import { jsonDate, n2, noteItems, ReturnTotals, saleItems, sectionOf, taxableLines, type HsnRow, type ResolvedNote, type SeriesRow } from './gstr1-totals';
import { paiseOf, paiseText } from './paise';
import type { ReturnPeriod } from './period';
import { noteTotals, periodTotals } from './period-totals';
import { invoices, monthByDay, monthFilter, saleCursor, type ReturnSale } from './returns-data';
import type { Sink } from './sink';

/** The sections Bahi writes, in the order the file has them. */
export const GSTR1_JSON_SECTIONS = ['b2b', 'b2cl', 'b2cs', 'cdnr', 'cdnur', 'nil', 'hsn', 'doc_issue'] as const;
export type Gstr1JsonSection = (typeof GSTR1_JSON_SECTIONS)[number];

/**
 * How a GSTR-1 (or an IFF) is built for a period. Left out: every section, nothing excluded.
 * gst-filing uses them for a quarterly filer: an IFF is `sections: b2b, cdnr`; the quarter's
 * GSTR-1 leaves out of b2b and cdnr what its filed IFFs reported (its HSN summary and documents
 * issued still cover the whole quarter) and appends the amendments.
 */
export interface Gstr1Options {
  sections?: ReadonlySet<Gstr1JsonSection>;
  /** Invoice and note numbers already reported (a filed IFF): left out of b2b and cdnr only. */
  reported?: { invoices?: ReadonlySet<string>; notes?: ReadonlySet<string> };
  /** Sections in the portal's shape written after Bahi's (b2ba, cdnra); an empty one is left out. */
  extra?: Record<string, unknown>;
}

/** b2b invoice (Table 4A): regular, no reverse charge; its taxable lines per rate. */
const b2bInvoice = (s: ReturnSale) => ({
  inum: s.gst.invoice_no,
  idt: jsonDate(s.gst.invoice_date),
  val: n2(paiseOf(s.gst.invoice_value)),
  pos: s.gst.place_of_supply,
  rchrg: 'N',
  inv_typ: 'R',
  itms: saleItems(s),
});
/** cdnr's note (Table 9B, registered): type C, regular B2B supply, no reverse charge. */
const cdnrNote = (r: ResolvedNote) => ({ ntty: 'C', nt_num: r.note.credit_note_no, nt_dt: jsonDate(r.note.date), pos: r.note.gst.place_of_supply, rchrg: 'N', inv_typ: 'R', val: n2(paiseOf(r.note.amount)), itms: noteItems(r) });
/** cdnur's note (Table 9B, unregistered): a large inter-state B2C invoice's (typ B2CL). */
const cdnurNote = (r: ResolvedNote) => ({ typ: 'B2CL', ntty: 'C', nt_num: r.note.credit_note_no, nt_dt: jsonDate(r.note.date), pos: r.note.gst.place_of_supply, val: n2(paiseOf(r.note.amount)), itms: noteItems(r) });
const hsnJson = (rows: HsnRow[]) =>
  rows.map((r, i) => ({
    num: i + 1,
    hsn_sc: r.hsn_sc,
    desc: r.desc,
    user_desc: r.desc,
    uqc: r.uqc,
    qty: Number(r.qty.toFixed(2)),
    rt: r.rt,
    txval: n2(r.h.txval),
    iamt: n2(r.h.iamt),
    camt: n2(r.h.camt),
    samt: n2(r.h.samt),
    csamt: 0,
  }));
const money = (s: string): string => paiseText(paiseOf(s));

/**
 * GSTR-1 of a period in the GST portal's offline-tool JSON (README "GSTR-1 JSON"), or one section
 * as the tool's CSV. A function of (company, period, options), so gst-filing builds quarters and
 * IFFs with it. Streamed: b2b invoices are written as a cursor sorted by buyer GSTIN reads them;
 * the aggregates come from one pass (period-totals.ts); b2cl invoices (rare: above Rs 1,00,000)
 * are remembered by id and read back grouped by place of supply. An empty section is left out.
 */
@Injectable()
export class Gstr1Service {
  constructor(
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    @InjectModel(ReturnModels.CreditNote) private readonly notes: Model<CreditNoteDoc>,
  ) {}

  async json(companyId: number, gstin: string, p: ReturnPeriod, out: Sink, opts: Gstr1Options = {}): Promise<void> {
    const want = (s: Gstr1JsonSection) => !opts.sections || opts.sections.has(s);
    const skipInv = opts.reported?.invoices;
    const skipNote = opts.reported?.notes;
    await out.write(`{"gstin":${JSON.stringify(gstin)},"fp":${JSON.stringify(p.fp)},"version":${JSON.stringify(GSTR1_VERSION)},"hash":${JSON.stringify(GSTR1_HASH)}`);

    if (want('b2b')) {
      let ctin: string | null = null;
      let firstInv = true;
      for await (const s of this.b2bCursor(companyId, p)) {
        if (!taxableLines(s).length || skipInv?.has(s.gst.invoice_no)) continue;
        const inv = JSON.stringify(b2bInvoice(s));
        const g = s.gst.recipient.gstin!;
        if (g !== ctin) {
          await out.write(`${ctin === null ? ',"b2b":[' : ']},'}{"ctin":${JSON.stringify(g)},"inv":[`);
          ctin = g;
          firstInv = true;
        }
        await out.write(firstInv ? inv : `,${inv}`);
        firstInv = false;
      }
      if (ctin !== null) await out.write(']}]');
    }
    const onlyB2b = GSTR1_JSON_SECTIONS.every((s) => s === 'b2b' || !want(s));
    if (onlyB2b) return this.close(out, opts);
    // An IFF (b2b and cdnr) needs only the notes; everything else the invoices' pass too.
    const t = GSTR1_JSON_SECTIONS.some((s) => s !== 'b2b' && s !== 'cdnr' && want(s)) ? await this.totals(companyId, p) : await noteTotals(this.sales, this.notes, companyId, p, new ReturnTotals());

    if (want('b2cl') && t.b2cl.size) {
      await out.write(',"b2cl":[');
      let firstPos = true;
      for (const pos of [...t.b2cl.keys()].sort()) {
        await out.write(`${firstPos ? '' : ','}{"pos":${JSON.stringify(pos)},"inv":[`);
        firstPos = false;
        let first = true;
        for await (const s of this.byIds(companyId, t.b2cl.get(pos)!)) {
          const inv = { inum: s.gst.invoice_no, idt: jsonDate(s.gst.invoice_date), val: n2(paiseOf(s.gst.invoice_value)), itms: saleItems(s) };
          await out.write(`${first ? '' : ','}${JSON.stringify(inv)}`);
          first = false;
        }
        await out.write(']}');
      }
      await out.write(']');
    }
    const section = async (name: Gstr1JsonSection | string, value: unknown, empty: boolean) => {
      if (!empty) await out.write(`,${JSON.stringify(name)}:${JSON.stringify(value)}`);
    };
    if (want('b2cs')) {
      const rows = t.b2csRows().map((r) =>
        r.sply_ty === 'INTER'
          ? { sply_ty: r.sply_ty, pos: r.pos, typ: 'OE', rt: r.rt, txval: n2(r.h.txval), iamt: n2(r.h.iamt), csamt: 0 }
          : { sply_ty: r.sply_ty, pos: r.pos, typ: 'OE', rt: r.rt, txval: n2(r.h.txval), camt: n2(r.h.camt), samt: n2(r.h.samt), csamt: 0 },
      );
      await section('b2cs', rows, !rows.length);
    }
    if (want('cdnr')) {
      const cdnr = groupByCtin(t.cdnrRows().filter((r) => !skipNote?.has(r.note.credit_note_no)));
      await section('cdnr', cdnr, !cdnr.length);
    }
    if (want('cdnur')) {
      const cdnur = t.cdnurRows().map(cdnurNote);
      await section('cdnur', cdnur, !cdnur.length);
    }
    if (want('nil')) {
      const inv = t.nilRows().map((r) => ({ sply_ty: r.sply_ty, nil_amt: n2(r.nil), expt_amt: n2(r.expt), ngsup_amt: n2(r.ngsup) }));
      await section('nil', { inv }, !inv.length);
    }
    if (want('hsn')) {
      const b2b = hsnJson(t.hsnRows('b2b'));
      const b2c = hsnJson(t.hsnRows('b2c'));
      await section('hsn', { ...(b2b.length ? { hsn_b2b: b2b } : {}), ...(b2c.length ? { hsn_b2c: b2c } : {}) }, !b2b.length && !b2c.length);
    }
    if (want('doc_issue')) {
      const doc = docIssue(t);
      await section('doc_issue', doc, !doc.doc_det.length);
    }
    await this.close(out, opts);
  }

  private async close(out: Sink, opts: Gstr1Options): Promise<void> {
    for (const [name, value] of Object.entries(opts.extra ?? {})) {
      if (Array.isArray(value) ? value.length : value) await out.write(`,${JSON.stringify(name)}:${JSON.stringify(value)}`);
    }
    await out.write('}');
  }

  async csv(companyId: number, p: ReturnPeriod, sec: Gstr1CsvSection, out: Sink): Promise<void> {
    // The one CSV writer of every export: text guarded against formulas, numbers left numbers.
    const types = gstr1CsvTypes(sec);
    const csvLine = (cells: readonly CellValue[]) => typedCsvLine(cells, types);
    await out.write(typedCsvLine(GSTR1_CSV_HEADERS[sec]));
    if (sec === 'b2b') {
      for await (const s of this.b2bCursor(companyId, p)) {
        for (const { itm_det: d } of saleItems(s)) {
          await out.write(
            csvLine([s.gst.recipient.gstin, s.gst.recipient.name, s.gst.invoice_no, gstr1CsvDate(s.gst.invoice_date), money(s.gst.invoice_value), gstr1CsvPos(s.gst.place_of_supply), 'N', '', 'Regular B2B', '', d.rt, paiseText(Math.round(d.txval * 100)), '']),
          );
        }
      }
      return;
    }
    if (sec === 'b2cl') {
      for await (const s of invoices(monthByDay(this.sales, companyId, p, { 'gst.b2b': false }))) {
        if (!taxableLines(s).length || sectionOf(s) !== 'b2cl') continue;
        for (const { itm_det: d } of saleItems(s)) {
          await out.write(csvLine([s.gst.invoice_no, gstr1CsvDate(s.gst.invoice_date), money(s.gst.invoice_value), gstr1CsvPos(s.gst.place_of_supply), '', d.rt, paiseText(Math.round(d.txval * 100)), '', '']));
        }
      }
      return;
    }
    // The notes' sections need only the notes' pass; the rest the invoices' too.
    const t = sec === 'cdnr' || sec === 'cdnur' ? await noteTotals(this.sales, this.notes, companyId, p, new ReturnTotals()) : await this.totals(companyId, p);
    if (sec === 'cdnr') {
      for (const r of t.cdnrRows()) {
        const n = r.note;
        for (const { itm_det: d } of noteItems(r)) {
          await out.write(csvLine([n.gst.gstin, n.gst.recipient_name, n.credit_note_no, gstr1CsvDate(n.date), 'C', gstr1CsvPos(n.gst.place_of_supply), 'N', 'Regular B2B', money(n.amount), '', d.rt, paiseText(Math.round(d.txval * 100)), '']));
        }
      }
    } else if (sec === 'cdnur') {
      for (const r of t.cdnurRows()) {
        const n = r.note;
        for (const { itm_det: d } of noteItems(r)) {
          await out.write(csvLine(['B2CL', n.credit_note_no, gstr1CsvDate(n.date), 'C', gstr1CsvPos(n.gst.place_of_supply), money(n.amount), '', d.rt, paiseText(Math.round(d.txval * 100)), '']));
        }
      }
    } else if (sec === 'b2cs') {
      for (const r of t.b2csRows()) await out.write(csvLine(['OE', gstr1CsvPos(r.pos), '', r.rt, paiseText(r.h.txval), '', '']));
    } else if (sec === 'hsn_b2b' || sec === 'hsn_b2c') {
      for (const r of t.hsnRows(sec === 'hsn_b2b' ? 'b2b' : 'b2c')) {
        await out.write(
          csvLine([r.hsn_sc, r.desc, gstr1CsvUqc(r.uqc), r.qty.toFixed(2), paiseText(r.h.txval + r.h.iamt + r.h.camt + r.h.samt), r.rt, paiseText(r.h.txval), paiseText(r.h.iamt), paiseText(r.h.camt), paiseText(r.h.samt), '']),
        );
      }
    } else if (sec === 'exemp') {
      for (const r of t.nilRows()) await out.write(csvLine([NIL_SUPPLY_DESCRIPTIONS[r.sply_ty], paiseText(r.nil), paiseText(r.expt), paiseText(r.ngsup)]));
    } else {
      for (const r of t.seriesRows()) await out.write(csvLine([DOC_NATURE_INVOICES, r.from, r.to, r.total, r.cancelled]));
      for (const r of t.noteSeriesRows()) await out.write(csvLine([DOC_NATURE_CREDIT_NOTES, r.from, r.to, r.total, r.cancelled]));
    }
  }

  /** The month of the company's latest GST-mode invoice ('YYYY-MM'), or null; one index walk from the newest year's end. */
  async latestMonth(companyId: number): Promise<string | null> {
    const [s] = await this.sales
      .aggregate<{ gst: { invoice_date: string } }>([
        { $match: { companyId, status: 'complete', 'gst.fy': { $gt: '' }, 'gst.tax_mode': 'gst' } },
        { $sort: { 'gst.fy': -1, 'gst.invoice_date': -1 } },
        { $limit: 1 },
        { $project: { _id: 0, 'gst.invoice_date': 1 } },
      ]);
    return s ? s.gst.invoice_date.slice(0, 7) : null;
  }

  /** The period's totals, for GSTR-1 and for GSTR-3B (which must equal it). */
  totals(companyId: number, p: ReturnPeriod): Promise<ReturnTotals> {
    return periodTotals(this.sales, this.notes, companyId, p);
  }

  /** b2b invoices grouped by buyer GSTIN (the sort), in invoice order within a buyer. */
  private b2bCursor(companyId: number, p: ReturnPeriod) {
    return invoices(saleCursor(this.sales, monthFilter(companyId, p, { 'gst.b2b': true }), { 'gst.recipient.gstin': 1, 'gst.serial': 1 }));
  }

  private byIds(companyId: number, ids: number[]) {
    return invoices(saleCursor(this.sales, { companyId, saleId: { $in: ids } }, { 'gst.serial': 1 }));
  }
}

/** Table 13: each nature (1 invoices, 5 credit notes) with the offline tool's doc_typ and its series. */
function docIssue(t: ReturnTotals) {
  const rows = (series: SeriesRow[]) => series.map((r, i) => ({ num: i + 1, from: r.from, to: r.to, totnum: r.total, cancel: r.cancelled, net_issue: r.total - r.cancelled }));
  const docs = rows(t.seriesRows());
  const notes = rows(t.noteSeriesRows());
  return {
    doc_det: [...(docs.length ? [{ doc_num: 1, doc_typ: DOC_TYPES[1], docs }] : []), ...(notes.length ? [{ doc_num: 5, doc_typ: DOC_TYPES[5], docs: notes }] : [])],
  };
}

/** cdnr: per recipient GSTIN (sorted), its notes. */
function groupByCtin(notes: ResolvedNote[]): { ctin: string; nt: ReturnType<typeof cdnrNote>[] }[] {
  const out: { ctin: string; nt: ReturnType<typeof cdnrNote>[] }[] = [];
  for (const r of notes) {
    const last = out[out.length - 1];
    if (last && last.ctin === r.note.gst.gstin) last.nt.push(cdnrNote(r));
    else out.push({ ctin: r.note.gst.gstin!, nt: [cdnrNote(r)] });
  }
  return out;
}
