import { GstError } from './errors';
import { DOC_TYPES, type NilSupplyKind } from './gstr1';
import { stateByCode } from './states';
import { uqcLabel } from './uqc';

/**
 * The GSTR-1 offline tool's CSV import (one file per section): its column headers, as in the
 * tool's templates (b2b, b2cl, b2cs, hsn, docs, cdnr, cdnur).
 */
export const GSTR1_CSV_HEADERS = {
  b2b: ['GSTIN/UIN of Recipient', 'Receiver Name', 'Invoice Number', 'Invoice date', 'Invoice Value', 'Place Of Supply', 'Reverse Charge', 'Applicable % of Tax Rate', 'Invoice Type', 'E-Commerce GSTIN', 'Rate', 'Taxable Value', 'Cess Amount'],
  b2cl: ['Invoice Number', 'Invoice date', 'Invoice Value', 'Place Of Supply', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount', 'E-Commerce GSTIN'],
  b2cs: ['Type', 'Place Of Supply', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount', 'E-Commerce GSTIN'],
  // Table 12 in two files since the May 2025 period: supplies to registered buyers (B2B) and the rest (B2C).
  hsn_b2b: ['HSN', 'Description', 'UQC', 'Total Quantity', 'Total Value', 'Rate', 'Taxable Value', 'Integrated Tax Amount', 'Central Tax Amount', 'State/UT Tax Amount', 'Cess Amount'],
  hsn_b2c: ['HSN', 'Description', 'UQC', 'Total Quantity', 'Total Value', 'Rate', 'Taxable Value', 'Integrated Tax Amount', 'Central Tax Amount', 'State/UT Tax Amount', 'Cess Amount'],
  // Table 8: nil rated, exempted and non-GST supplies, one row per kind of supply (NIL_SUPPLY_DESCRIPTIONS).
  exemp: ['Description', 'Nil Rated Supplies', 'Exempted(other than nil rated/non GST supply)', 'Non-GST Supplies'],
  docs: ['Nature of Document', 'Sr. No. From', 'Sr. No. To', 'Total Number', 'Cancelled'],
  // Credit and debit notes, registered (Table 9B) and unregistered (large inter-state B2C invoices' notes).
  cdnr: ['GSTIN/UIN of Recipient', 'Receiver Name', 'Note Number', 'Note Date', 'Note Type', 'Place Of Supply', 'Reverse Charge', 'Note Supply Type', 'Note Value', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount'],
  cdnur: ['UR Type', 'Note Number', 'Note Date', 'Note Type', 'Place Of Supply', 'Note Value', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount'],
} as const;

export type Gstr1CsvSection = keyof typeof GSTR1_CSV_HEADERS;
export const GSTR1_CSV_SECTIONS = Object.keys(GSTR1_CSV_HEADERS) as Gstr1CsvSection[];

/** The offline tool's name for doc_issue's document nature 1. */
export const DOC_NATURE_INVOICES = DOC_TYPES[1]!;
/** The offline tool's name for doc_issue's document nature 5. */
export const DOC_NATURE_CREDIT_NOTES = DOC_TYPES[5]!;

/** Table 8's CSV rows are named by the kind of supply (JSON `sply_ty`). */
export const NIL_SUPPLY_DESCRIPTIONS: Readonly<Record<NilSupplyKind, string>> = {
  INTRB2B: 'Inter-State supplies to registered persons',
  INTRAB2B: 'Intra-State supplies to registered persons',
  INTRB2C: 'Inter-State supplies to unregistered persons',
  INTRAB2C: 'Intra-State supplies to unregistered persons',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An invoice date (YYYY-MM-DD, the IST calendar date) as the CSV templates write it: '01-Apr-2026'. */
export function gstr1CsvDate(isoDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(isoDate ?? ''));
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) throw new GstError(`'${String(isoDate)}' is not a date like 2026-04-01.`);
  return `${m[3]}-${MONTHS[Number(m[2]) - 1]}-${m[1]}`;
}

/** A place of supply as the CSV templates write it: '24-Gujarat'. */
export function gstr1CsvPos(code: string): string {
  const s = stateByCode(code);
  if (!s) throw new GstError(`'${String(code)}' is not a GST state code.`);
  return `${s.code}-${s.name}`;
}

/** The portal's UQC list as the CSV templates write units: 'PCS-PIECES'. */
export const gstr1CsvUqc = uqcLabel;

/** The templates' columns that hold numbers (amounts, rates, counts); every other column is text. */
const NUMERIC_COLUMNS: ReadonlySet<string> = new Set([
  'Invoice Value', 'Note Value', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount', 'Total Quantity', 'Total Value',
  'Integrated Tax Amount', 'Central Tax Amount', 'State/UT Tax Amount', 'Total Number', 'Cancelled',
  'Nil Rated Supplies', 'Exempted(other than nil rated/non GST supply)', 'Non-GST Supplies',
]);

/**
 * Each column's type in a section's CSV, for @bahi/tabular's `csvLine`: numbers stay numbers
 * (a credit note's -150.00 too) and text is guarded against formulas.
 */
export function gstr1CsvTypes(section: Gstr1CsvSection): ('text' | 'number')[] {
  return GSTR1_CSV_HEADERS[section].map((h: string) => (NUMERIC_COLUMNS.has(h) ? 'number' : 'text'));
}
