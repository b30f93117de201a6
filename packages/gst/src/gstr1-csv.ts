import { GstError } from './errors';
import { stateByCode } from './states';

/**
 * The GSTR-1 offline tool's CSV import (one file per section): its column headers, as in the
 * tool's templates (b2b, b2cl, b2cs, hsn, docs, cdnr, cdnur).
 */
export const GSTR1_CSV_HEADERS = {
  b2b: ['GSTIN/UIN of Recipient', 'Receiver Name', 'Invoice Number', 'Invoice date', 'Invoice Value', 'Place Of Supply', 'Reverse Charge', 'Applicable % of Tax Rate', 'Invoice Type', 'E-Commerce GSTIN', 'Rate', 'Taxable Value', 'Cess Amount'],
  b2cl: ['Invoice Number', 'Invoice date', 'Invoice Value', 'Place Of Supply', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount', 'E-Commerce GSTIN'],
  b2cs: ['Type', 'Place Of Supply', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount', 'E-Commerce GSTIN'],
  hsn: ['HSN', 'Description', 'UQC', 'Total Quantity', 'Total Value', 'Rate', 'Taxable Value', 'Integrated Tax Amount', 'Central Tax Amount', 'State/UT Tax Amount', 'Cess Amount'],
  docs: ['Nature of Document', 'Sr. No. From', 'Sr. No. To', 'Total Number', 'Cancelled'],
  // Credit and debit notes, registered (Table 9B) and unregistered (large inter-state B2C invoices' notes).
  cdnr: ['GSTIN/UIN of Recipient', 'Receiver Name', 'Note Number', 'Note Date', 'Note Type', 'Place Of Supply', 'Reverse Charge', 'Note Supply Type', 'Note Value', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount'],
  cdnur: ['UR Type', 'Note Number', 'Note Date', 'Note Type', 'Place Of Supply', 'Note Value', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount'],
} as const;

export type Gstr1CsvSection = keyof typeof GSTR1_CSV_HEADERS;
export const GSTR1_CSV_SECTIONS = Object.keys(GSTR1_CSV_HEADERS) as Gstr1CsvSection[];

/** The offline tool's name for doc_issue's document nature 1. */
export const DOC_NATURE_INVOICES = 'Invoices for outward supply';
/** The offline tool's name for doc_issue's document nature 5. */
export const DOC_NATURE_CREDIT_NOTES = 'Credit Note';

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
const UQC_LABEL: Record<string, string> = {
  BAG: 'BAG-BAGS', BOX: 'BOX-BOX', BTL: 'BTL-BOTTLES', DOZ: 'DOZ-DOZENS', GMS: 'GMS-GRAMMES', KGS: 'KGS-KILOGRAMS',
  LTR: 'LTR-LITRES', MLT: 'MLT-MILILITRE', MTR: 'MTR-METERS', NOS: 'NOS-NUMBERS', OTH: 'OTH-OTHERS', PAC: 'PAC-PACKS',
  PCS: 'PCS-PIECES', PRS: 'PRS-PAIRS', SET: 'SET-SETS',
};
export function gstr1CsvUqc(uqc: string): string {
  return UQC_LABEL[String(uqc ?? '').toUpperCase()] ?? 'OTH-OTHERS';
}

/** The templates' columns that hold numbers (amounts, rates, counts); every other column is text. */
const NUMERIC_COLUMNS: ReadonlySet<string> = new Set([
  'Invoice Value', 'Note Value', 'Applicable % of Tax Rate', 'Rate', 'Taxable Value', 'Cess Amount', 'Total Quantity', 'Total Value',
  'Integrated Tax Amount', 'Central Tax Amount', 'State/UT Tax Amount', 'Total Number', 'Cancelled',
]);

/**
 * Each column's type in a section's CSV, for @bahi/tabular's `csvLine`: numbers stay numbers
 * (a credit note's -150.00 too) and text is guarded against formulas.
 */
export function gstr1CsvTypes(section: Gstr1CsvSection): ('text' | 'number')[] {
  return GSTR1_CSV_HEADERS[section].map((h: string) => (NUMERIC_COLUMNS.has(h) ? 'number' : 'text'));
}
