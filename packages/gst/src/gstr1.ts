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

/** Unit Quantity Codes of the GST portal's list (GSTR-1 HSN summary) for the units shops use. */
const UQC: Record<string, string[]> = {
  PCS: ['pcs', 'pc', 'piece', 'pieces'],
  KGS: ['kg', 'kgs', 'kilo', 'kilogram', 'kilograms'],
  GMS: ['g', 'gm', 'gms', 'gram', 'grams', 'gramme', 'grammes'],
  LTR: ['l', 'ltr', 'ltrs', 'litre', 'litres', 'liter', 'liters'],
  MLT: ['ml', 'mlt', 'millilitre', 'millilitres', 'milliliter', 'milliliters'],
  BOX: ['box', 'boxes'],
  DOZ: ['doz', 'dozen', 'dozens'],
  PAC: ['pac', 'pack', 'packs', 'packet', 'packets', 'pkt'],
  BAG: ['bag', 'bags'],
  BTL: ['btl', 'bottle', 'bottles'],
  MTR: ['m', 'mtr', 'meter', 'meters', 'metre', 'metres'],
  SET: ['set', 'sets'],
  PRS: ['prs', 'pair', 'pairs'],
  NOS: ['nos', 'no', 'unit', 'units', 'number', 'numbers'],
  OTH: ['oth', 'other', 'others'],
};
const UQC_BY_UNIT = new Map(Object.entries(UQC).flatMap(([code, units]) => units.map((u) => [u, code] as const)));

/** Maps a product's unit to a UQC; a unit the list does not know is OTH (others), which GSTR-1 accepts. */
export function toUqc(unit: string): string {
  return UQC_BY_UNIT.get(String(unit ?? '').toLowerCase().replace(/[\s.]/g, '')) ?? 'OTH';
}

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
