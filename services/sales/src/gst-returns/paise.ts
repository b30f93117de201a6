import { Decimal } from '@bahi/gst';

const TWO_DECIMALS = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/;

/**
 * A stored amount ('1500.00', SaleGst's two-decimal strings) as integer paise, exactly. A month's
 * sums stay integers far below 2^53 paise, so adding them as numbers is exact and much cheaper
 * than a Decimal per addition over 100,000 invoices. Anything else goes through Decimal, half-up.
 */
export function paiseOf(s: string): number {
  const m = TWO_DECIMALS.exec(s);
  if (!m) return Number(new Decimal(s).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0));
  const v = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] && v ? -v : v;
}

/** Paise as a two-decimal string, from the integer (no binary fraction on the way). */
export function paiseText(p: number): string {
  const abs = Math.abs(p);
  return `${p < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Paise as the JSON number the returns carry (the closest double to the two-decimal value). */
export const paiseNumber = (p: number): number => Number(paiseText(p));
