import { GstError } from './errors';
import { FinancialYear } from './financial-year';

/**
 * Invoice numbers PREFIX/YY-YY/NNNN. CGST Rule 46(b): a consecutive serial number of at most
 * 16 characters (letters, digits, '-' and '/'), unique for a financial year. The year in the
 * number makes each year's series restart at 1 without colliding with last year's.
 */
export const INVOICE_NO_MAX = 16;
const PAD = 4;
// '/' + 'YY-YY' + '/'
const FIXED = 7;

/** A company's invoice prefix: 1-6 letters or digits, stored in capitals (one series per spelling). */
export function parseInvoicePrefix(input: string): string {
  const p = String(input ?? '').trim().toUpperCase();
  if (!/^[A-Z0-9]{1,6}$/.test(p)) throw new GstError(`Invoice prefix '${String(input)}' must be 1 to 6 letters or digits.`);
  return p;
}

const labelOf = (fy: FinancialYear | string): string => {
  const label = typeof fy === 'string' ? fy : fy.label;
  const m = /^(\d{2})-(\d{2})$/.exec(label);
  if (!m || (Number(m[1]) + 1) % 100 !== Number(m[2])) throw new GstError(`'${label}' is not a financial year label such as 26-27.`);
  return label;
};

/**
 * The serial is padded to 4 digits so numbers sort; a 6-character prefix leaves room for
 * only 3 (6 + 7 + 3 = 16), so there it is padded to 3. More digits are used when needed.
 */
const padWidth = (prefix: string): number => Math.min(PAD, INVOICE_NO_MAX - FIXED - prefix.length);

/** The largest serial that still fits in 16 characters with this prefix. */
export const maxInvoiceSerial = (prefix: string): number => 10 ** (INVOICE_NO_MAX - FIXED - parseInvoicePrefix(prefix).length) - 1;

export function formatInvoiceNo(prefix: string, fy: FinancialYear | string, n: number): string {
  const p = parseInvoicePrefix(prefix);
  const label = labelOf(fy);
  if (!Number.isSafeInteger(n) || n < 1) throw new GstError(`Invoice serial must be a whole number from 1; got ${n}.`);
  const no = `${p}/${label}/${String(n).padStart(padWidth(p), '0')}`;
  if (no.length > INVOICE_NO_MAX) {
    throw new GstError(`Invoice number ${no} has ${no.length} characters; GST allows at most ${INVOICE_NO_MAX} (CGST Rule 46(b)). The series with prefix ${p} ends at ${maxInvoiceSerial(p)}; use a shorter prefix.`);
  }
  return no;
}

export type ParsedInvoiceNo = { ok: true; prefix: string; fy: string; n: number } | { ok: false; message: string };

/** Reads an invoice number back; case and surrounding spaces are tolerated. */
export function parseInvoiceNo(input: string): ParsedInvoiceNo {
  const s = String(input ?? '').trim().toUpperCase();
  const m = /^([A-Z0-9]{1,6})\/(\d{2})-(\d{2})\/(\d+)$/.exec(s);
  if (!m) return { ok: false, message: `'${s}' is not an invoice number like GT/26-27/0001.` };
  if (s.length > INVOICE_NO_MAX) return { ok: false, message: `'${s}' is longer than ${INVOICE_NO_MAX} characters.` };
  if ((Number(m[2]) + 1) % 100 !== Number(m[3])) return { ok: false, message: `'${m[2]}-${m[3]}' is not a financial year.` };
  const n = Number(m[4]);
  if (n < 1) return { ok: false, message: `Invoice serial in '${s}' must be 1 or more.` };
  return { ok: true, prefix: m[1], fy: `${m[2]}-${m[3]}`, n };
}
