// The GST page's pure rules: periods, labels, totals and download names.
import { stateByCode } from '@bahi/gst/dist/states';

/** One rate's figures in a GSTR-1 item (`itm_det`). */
export interface ItemDetail {
  txval: number;
  rt: number;
  iamt?: number;
  camt?: number;
  samt?: number;
  csamt?: number;
}
export interface Gstr1Item {
  num: number;
  itm_det: ItemDetail;
}
export interface Gstr1Invoice {
  inum: string;
  idt: string;
  val: number;
  pos?: string;
  rchrg?: string;
  inv_typ?: string;
  itms: Gstr1Item[];
}
export interface Gstr1B2b {
  ctin: string;
  inv: Gstr1Invoice[];
}
export interface Gstr1B2cl {
  pos: string;
  inv: Gstr1Invoice[];
}
export interface Gstr1B2cs {
  sply_ty: 'INTRA' | 'INTER';
  pos: string;
  typ: string;
  rt: number;
  txval: number;
  iamt?: number;
  camt?: number;
  samt?: number;
  csamt?: number;
}
export interface Gstr1Hsn {
  num: number;
  hsn_sc: string;
  desc?: string;
  uqc: string;
  qty: number;
  val?: number;
  txval: number;
  rt?: number;
  iamt?: number;
  camt?: number;
  samt?: number;
  csamt?: number;
}
/** A credit or debit note (Table 9B): cdnr's under its buyer's GSTIN, cdnur's with its type. */
export interface Gstr1Note {
  ntty: 'C' | 'D';
  nt_num: string;
  nt_dt: string;
  pos?: string;
  typ?: string;
  val: number;
  itms: Gstr1Item[];
}
export interface Gstr1Cdnr {
  ctin: string;
  nt: Gstr1Note[];
}
/** Table 8: nil rated, exempted and non-GST supplies by kind of supply. */
export interface Gstr1Nil {
  sply_ty: 'INTRB2B' | 'INTRAB2B' | 'INTRB2C' | 'INTRAB2C';
  nil_amt: number;
  expt_amt: number;
  ngsup_amt: number;
}
export interface Gstr1Doc {
  num: number;
  from: string;
  to: string;
  totnum: number;
  cancel: number;
  net_issue: number;
}
/** GET /gst/gstr1: the GST portal's offline-tool JSON (sections absent when empty). */
export interface Gstr1 {
  gstin: string;
  fp: string;
  b2b?: Gstr1B2b[];
  b2cl?: Gstr1B2cl[];
  b2cs?: Gstr1B2cs[];
  cdnr?: Gstr1Cdnr[];
  cdnur?: Gstr1Note[];
  nil?: { inv: Gstr1Nil[] };
  /** Table 12 split by buyer since the May 2025 period. */
  hsn?: { hsn_b2b?: Gstr1Hsn[]; hsn_b2c?: Gstr1Hsn[] };
  doc_issue?: { doc_det: { doc_num: number; doc_typ?: string; docs: Gstr1Doc[] }[] };
}

/** The sections the page shows, in the order of the return, each with the CSV the server writes for it. */
export const CSV_SECTIONS = ['b2b', 'b2cl', 'b2cs', 'cdnr', 'cdnur', 'exemp', 'hsn_b2b', 'hsn_b2c', 'docs'] as const;
export type CsvSection = (typeof CSV_SECTIONS)[number];

/** One row per note: its items' rates added up, under its buyer's GSTIN for cdnr. */
export function noteRows(groups: Gstr1Cdnr[] | undefined, unregistered: Gstr1Note[] | undefined): (Gstr1Note & { ctin: string; txval: number; tax: number })[] {
  const row = (ctin: string, n: Gstr1Note) => ({ ...n, ctin, txval: sum(n.itms.map((i) => i.itm_det.txval)), tax: sum(n.itms.map((i) => taxOf(i.itm_det))) });
  return [...(groups ?? []).flatMap((g) => g.nt.map((n) => row(g.ctin, n))), ...(unregistered ?? []).map((n) => row('', n))];
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const IST_OFFSET_MS = 330 * 60_000;

/** The month before `now`'s month on the Indian calendar, as 'YYYY-MM': what is filed next. */
export function defaultPeriod(now: Date = new Date()): string {
  const ist = new Date(now.getTime() + IST_OFFSET_MS);
  let y = ist.getUTCFullYear();
  let m = ist.getUTCMonth(); // 0-based: the previous month, 1-based
  if (m === 0) {
    y -= 1;
    m = 12;
  }
  return `${y}-${String(m).padStart(2, '0')}`;
}

export function isPeriod(p: string): boolean {
  const m = /^(\d{4})-(\d{2})$/.exec(p);
  return !!m && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

/** '2026-10' -> 'October 2026' (Hindi: 'अक्टूबर 2026', the month named by the browser's hi-IN data, the year in Latin digits). */
export function monthLabel(period: string, lng: 'en' | 'hi' = 'en'): string {
  if (!isPeriod(period)) return period;
  const [y, m] = period.split('-');
  if (lng === 'hi') {
    const month = new Intl.DateTimeFormat('hi-IN', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(Number(y), Number(m) - 1, 1)));
    return `${month} ${y}`;
  }
  return `${MONTHS[Number(m) - 1]} ${y}`;
}

/** '24' -> 'Gujarat (24)'; an unknown code stays as it is. */
export function posLabel(code: string | undefined): string {
  if (!code) return '';
  const s = stateByCode(code);
  return s ? `${s.name} (${s.code})` : code;
}

/** Sums amounts to the paisa (each figure is already two decimals; floats would drift). */
export function sum(values: (number | undefined)[]): number {
  let paise = 0;
  for (const v of values) paise += Math.round((v ?? 0) * 100);
  return paise / 100;
}

export const taxOf = (d: { iamt?: number; camt?: number; samt?: number; csamt?: number }) =>
  sum([d.iamt, d.camt, d.samt, d.csamt]);

export interface InvoiceRow {
  ctin: string;
  inum: string;
  idt: string;
  val: number;
  pos: string;
  txval: number;
  iamt: number;
  camt: number;
  samt: number;
  tax: number;
}

/** One row per invoice: its items' rates added up. */
export function invoiceRows(groups: { ctin?: string; pos?: string; inv: Gstr1Invoice[] }[] | undefined): InvoiceRow[] {
  const rows: InvoiceRow[] = [];
  for (const g of groups ?? []) {
    for (const inv of g.inv) {
      const det = inv.itms.map((i) => i.itm_det);
      const iamt = sum(det.map((d) => d.iamt));
      const camt = sum(det.map((d) => d.camt));
      const samt = sum(det.map((d) => d.samt));
      rows.push({
        ctin: g.ctin ?? '',
        inum: inv.inum,
        idt: inv.idt,
        val: inv.val,
        pos: inv.pos ?? g.pos ?? '',
        txval: sum(det.map((d) => d.txval)),
        iamt,
        camt,
        samt,
        tax: sum(det.map(taxOf)),
      });
    }
  }
  return rows;
}

/** Column totals of rows of figures. */
export function totals<R>(rows: R[], keys: (keyof R)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k as string] = sum(rows.map((r) => r[k] as unknown as number));
  return out;
}

/** True when the return holds no outward supply at all. */
export function isEmptyReturn(r: Gstr1): boolean {
  return !r.b2b?.length && !r.b2cl?.length && !r.b2cs?.length && !r.cdnr?.length && !r.cdnur?.length && !r.nil?.inv.length && !r.hsn?.hsn_b2b?.length && !r.hsn?.hsn_b2c?.length && !r.doc_issue?.doc_det.length;
}

/** Names used when the server gives none (its Content-Disposition wins). */
export function fallbackFileName(period: string, section: CsvSection | 'json'): string {
  const [y, m] = period.split('-');
  return section === 'json' ? `GSTR1_${m}${y}.json` : `GSTR1_${m}${y}_${section}.csv`;
}

/** The query of a GSTR-1 download: JSON, or one section's CSV. */
export function gstr1Query(period: string, section?: CsvSection): Record<string, string> {
  return section ? { period, format: 'csv', section } : { period };
}

/** Quantities as the HSN summary states them (up to three decimals, no trailing zeros). */
export function formatQty(q: number): string {
  return q.toLocaleString('en-IN', { maximumFractionDigits: 3 });
}

/** Rates as percent ('18 %', '0.25 %'). */
export function formatRate(rt: number | undefined): string {
  return rt === undefined ? '' : `${rt} %`;
}
