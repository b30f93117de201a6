import { amount, AmountInput } from './amount';
import { GstError } from './errors';
import { DateInput, istParts } from './ist';

/** GSTR-1 return period `fp` (MMYYYY) for a period written 'YYYY-MM'. */
export function fp(period: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(String(period ?? '').trim());
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) throw new GstError(`'${String(period)}' is not a period like 2026-04.`);
  return `${m[2]}${m[1]}`;
}

/** Dates in the GSTR-1 JSON are dd-mm-yyyy on the Indian calendar. */
export function gstr1Date(date: DateInput): string {
  const { year, month, day } = istParts(date);
  return `${String(day).padStart(2, '0')}-${String(month).padStart(2, '0')}-${year}`;
}

export { toUqc } from './uqc';

/** GSTR-1 Table 5 (b2cl): inter-state to unregistered persons above this invoice value (Rs 1,00,000 since 1 August 2024; Rs 2,50,000 before). */
export const B2CL_THRESHOLD = 100_000;

export type Gstr1Section = 'b2b' | 'b2cl' | 'b2cs';

export interface ClassifiableInvoice {
  document?: 'tax-invoice' | 'bill-of-supply';
  registeredCustomer: boolean;
  interState: boolean;
  invoiceValue: AmountInput;
}

/** Where an invoice goes in GSTR-1: b2b to registered buyers; b2cl large inter-state to unregistered; b2cs the rest. */
export function classifyInvoice(inv: ClassifiableInvoice): Gstr1Section {
  // Composition dealers file GSTR-4 / CMP-08, not GSTR-1.
  if (inv.document === 'bill-of-supply') throw new GstError('A bill of supply (composition mode) is not reported in GSTR-1.');
  if (inv.registeredCustomer) return 'b2b';
  return inv.interState && amount(inv.invoiceValue, 'invoice value').greaterThan(B2CL_THRESHOLD) ? 'b2cl' : 'b2cs';
}

/**
 * What a product supplies (GSTR-1 Table 8, GSTR-3B 3.1(c) and (e)): `taxable` (the default),
 * `nil` (rated at 0 %), `exempt` (exempted by notification) or `non_gst` (outside GST, e.g.
 * petrol, alcohol for drinking). The last three carry no tax, so their rate must be 0.
 */
export const SUPPLY_TYPES = ['taxable', 'nil', 'exempt', 'non_gst'] as const;
export type SupplyType = (typeof SUPPLY_TYPES)[number];

/** A product's supply type, '' or missing being `taxable`; a nil/exempt/non-GST one must have rate 0. Throws GstError. */
export function parseSupplyType(input: unknown, ratePercent?: AmountInput): SupplyType {
  const t = input === undefined || input === null || input === '' ? 'taxable' : String(input).trim().toLowerCase().replace(/[\s-]/g, '_');
  if (!(SUPPLY_TYPES as readonly string[]).includes(t)) {
    throw new GstError(`supply_type must be one of taxable, nil, exempt, non_gst, not '${String(input)}'.`);
  }
  if (t !== 'taxable' && ratePercent !== undefined && !amount(ratePercent, 'GST rate').isZero()) {
    const what = t === 'nil' ? 'A nil-rated' : t === 'exempt' ? 'An exempt' : 'A non-GST';
    throw new GstError(`${what} product is sold at 0 % GST: set its rate to 0 or its supply type to taxable.`);
  }
  return t as SupplyType;
}

/**
 * The supply type a sold line is reported under: the one frozen on it, else (sales before the
 * field existed) nil for a 0 % line and taxable otherwise, since a supply taxed at 0 % is nil rated.
 */
export function lineSupplyType(frozen: string | null | undefined, ratePercent: AmountInput): SupplyType {
  // Called for every line of a month's returns: a plain test of the stored rate, no Decimal.
  const zero = typeof ratePercent === 'number' ? ratePercent === 0 : /^\s*0*(\.0*)?\s*$/.test(String(ratePercent ?? ''));
  if (frozen && frozen !== 'taxable' && (SUPPLY_TYPES as readonly string[]).includes(frozen)) return frozen as SupplyType;
  return zero ? 'nil' : 'taxable';
}

/**
 * CGST Act s.31(3)(c) / Rule 49: a composition dealer, and a registered person whose bill holds only
 * nil-rated, exempt or non-GST lines, issues a bill of supply instead of a tax invoice (in the same
 * invoice series). `document` is the one frozen on the sale ('bill-of-supply' in composition mode).
 */
export function isBillOfSupply(document: string, lines: readonly { supply_type?: string | null; gst_rate: AmountInput }[]): boolean {
  if (document === 'bill-of-supply') return true;
  return lines.length > 0 && lines.every((l) => lineSupplyType(l.supply_type, l.gst_rate) !== 'taxable');
}

/** GSTR-1 Table 8 `nil.inv[].sply_ty`: inter- or intra-state, to a registered or unregistered buyer. */
export type NilSupplyKind = 'INTRB2B' | 'INTRAB2B' | 'INTRB2C' | 'INTRAB2C';
export const nilSupplyKind = (interState: boolean, registered: boolean): NilSupplyKind =>
  `${interState ? 'INTR' : 'INTRA'}${registered ? 'B2B' : 'B2C'}` as NilSupplyKind;

/**
 * Table 13 (`doc_issue.doc_det`): the offline tool's document natures, `doc_num` with its `doc_typ`.
 * Bahi issues invoices (1) and credit notes (5).
 */
export const DOC_TYPES: Readonly<Record<number, string>> = {
  1: 'Invoices for outward supply',
  2: 'Invoices for inward supply from unregistered person',
  3: 'Revised Invoice',
  4: 'Debit Note',
  5: 'Credit Note',
  6: 'Receipt voucher',
  7: 'Payment Voucher',
  8: 'Refund voucher',
  9: 'Delivery Challan for job work',
  10: 'Delivery Challan for supply on approval',
  11: 'Delivery Challan in case of liquid gas',
  12: 'Delivery Challan in cases other than by way of supply (excluding at S no. 9 to 11)',
};

/** The offline tool's file header: `version` (the HSN-split generation; the portal does not check it) and `hash` (the literal word). Sources: README, "GSTR-1 JSON". */
export const GSTR1_VERSION = 'GST3.2.2';
export const GSTR1_HASH = 'hash';
