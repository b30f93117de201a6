import { classifyInvoice, Decimal, lineSupplyType, nilSupplyKind, parseInvoiceNo, toUqc, type NilSupplyKind, type SupplyType } from '@bahi/gst';
import type { ReturnNote } from './notes-data';
import { paiseNumber, paiseOf } from './paise';
import type { ReturnSale } from './returns-data';

/** Amounts are summed as exact integer paise and become JSON numbers only at the edge. */
export const n2 = paiseNumber;
const rateNum = (r: string): number => Number(r);
/** '2026-04-01' -> '01-04-2026' (GSTR-1 JSON dates). */
export const jsonDate = (iso: string): string => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

/** Per tax head, in paise. */
export interface Heads {
  txval: number;
  iamt: number;
  camt: number;
  samt: number;
}
export const heads = (): Heads => ({ txval: 0, iamt: 0, camt: 0, samt: 0 });
export type TaxedLine = { gst_rate: string; taxable_value: string; igst: string; cgst: string; sgst: string };
/** A line's figures in paise, read once per line however many tables it goes to. */
const paiseHeads = (l: TaxedLine): Heads => ({ txval: paiseOf(l.taxable_value), iamt: paiseOf(l.igst), camt: paiseOf(l.cgst), samt: paiseOf(l.sgst) });
/** Adds (sign 1) or takes off (sign -1, a credit note) a line's figures. */
function addHeads(h: Heads, p: Heads, sign: 1 | -1 = 1): void {
  h.txval += sign * p.txval;
  h.iamt += sign * p.iamt;
  h.camt += sign * p.camt;
  h.samt += sign * p.samt;
}
const addLine = (h: Heads, l: TaxedLine, sign: 1 | -1 = 1): void => addHeads(h, paiseHeads(l), sign);
const isZero = (h: Heads): boolean => !h.txval && !h.iamt && !h.camt && !h.samt;

/** itm_det per rate of one document: iamt on an inter-state supply, camt and samt on an intra-state one. */
export interface ItmDet {
  txval: number;
  rt: number;
  iamt?: number;
  camt?: number;
  samt?: number;
  csamt: number;
}
export function byRate(lines: TaxedLine[], interState: boolean): { num: number; itm_det: ItmDet }[] {
  const rows = new Map<string, Heads>();
  for (const l of lines) {
    const key = String(rateNum(l.gst_rate));
    if (!rows.has(key)) rows.set(key, heads());
    addLine(rows.get(key)!, l);
  }
  return [...rows.entries()]
    .sort((a, b) => rateNum(a[0]) - rateNum(b[0]))
    .map(([rt, h], i) => ({
      num: i + 1,
      itm_det: interState
        ? { txval: n2(h.txval), rt: rateNum(rt), iamt: n2(h.iamt), csamt: 0 }
        : { txval: n2(h.txval), rt: rateNum(rt), camt: n2(h.camt), samt: n2(h.samt), csamt: 0 },
    }));
}

/** A sale's lines that are taxable supplies (b2b, b2cl, b2cs); nil, exempt and non-GST lines go to Table 8. */
export const taxableLines = (s: ReturnSale) => s.gst.lines.filter((l) => lineSupplyType(l.supply_type, l.gst_rate) === 'taxable');
export const saleItems = (s: ReturnSale) => byRate(taxableLines(s), s.gst.inter_state);

/** A credit note's line with the supply type of the bill line it credits. */
export interface NoteLine {
  line: ReturnNote['lines'][number];
  gst: TaxedLine;
  type: SupplyType;
}
export interface ResolvedNote {
  note: ReturnNote;
  lines: NoteLine[];
  /** The taxable lines only: what cdnr, cdnur and b2cs carry. */
  taxable: TaxedLine[];
}
export const noteItems = (r: ResolvedNote) => byRate(r.taxable, r.note.gst.inter_state);

/**
 * Where a tax invoice goes: its GST block's own document decides (a composition bill of supply is
 * not a GSTR-1 document; a gst-mode bill of only exempt lines is reported in Table 8 and Table 13).
 */
export const sectionOf = (s: ReturnSale) =>
  classifyInvoice({ registeredCustomer: s.gst.b2b, interState: s.gst.inter_state, invoiceValue: s.gst.invoice_value });

export interface SeriesRow {
  from: string;
  fromSerial: number;
  to: string;
  toSerial: number;
  total: number;
  cancelled: number;
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

export interface HsnRow {
  hsn_sc: string;
  desc: string;
  uqc: string;
  rt: number;
  qty: Decimal;
  h: Heads;
}
export interface B2csRow {
  sply_ty: 'INTRA' | 'INTER';
  pos: string;
  rt: number;
  h: Heads;
}
export interface NilRow {
  nil: number;
  expt: number;
  ngsup: number;
}

/**
 * A period's GSTR-1 aggregates from one pass over its invoices and one over its credit notes:
 * b2cs (Table 7, net of notes to unregistered buyers, negative when the notes are larger), the
 * HSN summary split into supplies to registered buyers and the rest (Table 12), nil / exempt /
 * non-GST supplies (Table 8), the series issued (Table 13), the b2cl invoices' ids, the notes of
 * cdnr / cdnur, and what GSTR-3B Table 3.1 and 3.2 take from the same figures.
 */
export class ReturnTotals {
  b2cs = new Map<string, B2csRow>();
  hsnB2b = new Map<string, HsnRow>();
  hsnB2c = new Map<string, HsnRow>();
  nil = new Map<NilSupplyKind, NilRow>();
  series = new Map<string, SeriesRow>();
  noteSeries = new Map<string, SeriesRow>();
  b2cl = new Map<string, number[]>();
  cdnr: ResolvedNote[] = [];
  cdnur: ResolvedNote[] = [];
  /** GSTR-3B 3.1(a): taxable outward supplies net of the notes (every b2b, b2cl, b2cs, cdnr, cdnur figure). */
  outward = heads();
  /** 3.2: the inter-state part of 3.1(a) to unregistered persons, by place of supply. */
  unreg = new Map<string, { txval: number; iamt: number }>();

  add(s: ReturnSale): void {
    addToSeries(this.series, s.gst.invoice_no, s.gst.serial, Boolean(s.cancelled));
    if (s.cancelled) return;
    const registered = Boolean(s.gst.b2b);
    const names = new Map(s.lines.map((l) => [l.sl_no, l.product_name]));
    const taxable = taxableLines(s);
    const kind = taxable.length ? sectionOf(s) : null;
    if (kind === 'b2cl') {
      const pos = s.gst.place_of_supply;
      if (!this.b2cl.has(pos)) this.b2cl.set(pos, []);
      this.b2cl.get(pos)!.push(s.saleId);
    }
    for (const l of s.gst.lines) {
      const type = lineSupplyType(l.supply_type, l.gst_rate);
      const p = paiseHeads(l);
      if (type === 'taxable') {
        if (kind === 'b2cs') this.b2csLine(s.gst.inter_state, s.gst.place_of_supply, l.gst_rate, p, 1);
        this.outwardLine(p, s.gst.inter_state && !registered, s.gst.place_of_supply, 1);
      } else {
        this.nilLine(s.gst.inter_state, registered, type, p.txval, 1);
      }
      if (type !== 'non_gst') this.hsnLine(registered, l.hsn_code, l.uqc, l.gst_rate, p, names.get(l.sl_no) ?? '', l.qty, 1);
    }
  }

  /**
   * A credit note of the period: counted in its series; the HSN summary (its buyer's half) and
   * Table 8 net of it; its taxable lines go to cdnr for a registered buyer, else to cdnur when its
   * invoice was a b2cl one (`largeInvoice`) or they net b2cs (Table 7 is net of such notes).
   */
  addNote(r: ResolvedNote, largeInvoice: boolean): void {
    const n = r.note;
    addToSeries(this.noteSeries, n.credit_note_no, n.serial, false);
    const registered = Boolean(n.gst.gstin);
    for (const { line, gst, type } of r.lines) {
      const p = paiseHeads(gst);
      if (type === 'taxable') {
        this.outwardLine(p, n.gst.inter_state && !registered, n.gst.place_of_supply, -1);
        if (!registered && !(n.gst.inter_state && largeInvoice)) this.b2csLine(n.gst.inter_state, n.gst.place_of_supply, gst.gst_rate, p, -1);
      } else {
        this.nilLine(n.gst.inter_state, registered, type, p.txval, -1);
      }
      // As computeInvoice froze the invoice's: the HSN trimmed, the unit as a UQC.
      if (type !== 'non_gst') this.hsnLine(registered, line.hsn_code.trim(), toUqc(line.unit), gst.gst_rate, p, line.product_name, new Decimal(line.quantity).times(line.per_peice_quantity || '1'), -1);
    }
    if (!r.taxable.length) return;
    if (registered) this.cdnr.push(r);
    else if (n.gst.inter_state && largeInvoice) this.cdnur.push(r);
  }

  private b2csLine(interState: boolean, pos: string, rate: string, p: Heads, sign: 1 | -1): void {
    const sply_ty = interState ? 'INTER' : 'INTRA';
    const rt = rateNum(rate);
    const key = `${sply_ty}|${pos}|${rt}`;
    if (!this.b2cs.has(key)) this.b2cs.set(key, { sply_ty, pos, rt, h: heads() });
    addHeads(this.b2cs.get(key)!.h, p, sign);
  }

  private outwardLine(p: Heads, interStateUnregistered: boolean, pos: string, sign: 1 | -1): void {
    addHeads(this.outward, p, sign);
    if (!interStateUnregistered) return;
    const row = this.unreg.get(pos) ?? { txval: 0, iamt: 0 };
    row.txval += sign * p.txval;
    row.iamt += sign * p.iamt;
    this.unreg.set(pos, row);
  }

  private nilLine(interState: boolean, registered: boolean, type: SupplyType, value: number, sign: 1 | -1): void {
    const k = nilSupplyKind(interState, registered);
    const row = this.nil.get(k) ?? { nil: 0, expt: 0, ngsup: 0 };
    const v = sign * value;
    if (type === 'exempt') row.expt += v;
    else if (type === 'non_gst') row.ngsup += v;
    else row.nil += v;
    this.nil.set(k, row);
  }

  /** Table 12: one row per HSN, unit and rate (the portal keeps them apart), in the buyer's half. */
  private hsnLine(registered: boolean, hsn: string, uqc: string, rate: string, p: Heads, name: string, qty: Decimal | string, sign: 1 | -1): void {
    const map = registered ? this.hsnB2b : this.hsnB2c;
    const rt = rateNum(rate);
    const key = `${hsn}|${uqc}|${rt}`;
    if (!map.has(key)) map.set(key, { hsn_sc: hsn, desc: name.slice(0, 30), uqc, rt, qty: new Decimal(0), h: heads() });
    const row = map.get(key)!;
    row.qty = sign > 0 ? row.qty.plus(qty) : row.qty.minus(qty);
    addHeads(row.h, p, sign);
  }

  /** b2cs rows as netted, negative ones kept (credit notes above the period's B2C sales); a row netted to nothing is left out. */
  b2csRows(): B2csRow[] {
    return [...this.b2cs.values()].filter((r) => !isZero(r.h)).sort((a, b) => a.sply_ty.localeCompare(b.sply_ty) || a.pos.localeCompare(b.pos) || a.rt - b.rt);
  }
  hsnRows(half: 'b2b' | 'b2c'): HsnRow[] {
    return [...(half === 'b2b' ? this.hsnB2b : this.hsnB2c).values()]
      .filter((r) => !isZero(r.h) || !r.qty.isZero())
      .sort((a, b) => a.hsn_sc.localeCompare(b.hsn_sc) || a.uqc.localeCompare(b.uqc) || a.rt - b.rt);
  }
  /** Table 8 by kind of supply (paise), a kind with nothing left out. */
  nilRows(): ({ sply_ty: NilSupplyKind } & NilRow)[] {
    const order: NilSupplyKind[] = ['INTRB2B', 'INTRAB2B', 'INTRB2C', 'INTRAB2C'];
    return order.flatMap((k) => {
      const r = this.nil.get(k);
      return r && (r.nil || r.expt || r.ngsup) ? [{ sply_ty: k, ...r }] : [];
    });
  }
  /** Table 8's totals by kind, for GSTR-3B 3.1(c) (nil and exempt) and 3.1(e) (non-GST). */
  nilTotals(): NilRow {
    const t = { nil: 0, expt: 0, ngsup: 0 };
    for (const r of this.nil.values()) {
      t.nil += r.nil;
      t.expt += r.expt;
      t.ngsup += r.ngsup;
    }
    return t;
  }
  seriesRows(): SeriesRow[] {
    return [...this.series.values()].sort((a, b) => a.from.localeCompare(b.from));
  }
  noteSeriesRows(): SeriesRow[] {
    return [...this.noteSeries.values()].sort((a, b) => a.from.localeCompare(b.from));
  }
  cdnrRows(): ResolvedNote[] {
    return [...this.cdnr].sort((a, b) => a.note.gst.gstin!.localeCompare(b.note.gst.gstin!) || a.note.credit_note_no.localeCompare(b.note.credit_note_no));
  }
  cdnurRows(): ResolvedNote[] {
    return [...this.cdnur].sort((a, b) => a.note.credit_note_no.localeCompare(b.note.credit_note_no));
  }
}
