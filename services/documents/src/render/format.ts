import { Money } from '@bahi/service-kit';

const { money, round2, Decimal } = Money;

/** Indian digit grouping (12,34,567.89) of a non-negative integer string. */
function groupIndian(int: string): string {
  if (int.length <= 3) return int;
  const last3 = int.slice(-3);
  const rest = int.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${rest},${last3}`;
}

/** ₹1,23,456.70 — exact: formats the decimal string, never a float. */
export function rupees(amount: Money.MoneyInput, places = 2): string {
  const d = money(amount).toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
  const neg = d.isNegative() && !d.isZero();
  const [int, frac] = d.abs().toFixed(places).split('.');
  return `${neg ? '-' : ''}₹${groupIndian(int!)}${frac ? `.${frac}` : ''}`;
}

/** A plain number with 2 decimals (quantities, rates in tables). */
export function fixed(amount: Money.MoneyInput, places = 2): string {
  return round2(amount).toFixed(places);
}

/** A quantity without trailing zeros (2, 1.5). */
export function qty(amount: Money.MoneyInput): string {
  return money(amount).toDecimalPlaces(3, Decimal.ROUND_HALF_UP).toFixed();
}

/** YYYY-MM-DD (or an ISO time) as DD-MM-YYYY, as Indian bills print dates. */
export function date(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : value;
}

/**
 * The quantity a line's amount was computed from: quantity x per_peice_quantity (a box of 6
 * sold twice is 12 pcs), printed to 1 decimal as the spec shows a total quantity in unit, with
 * more decimals only when the quantity has them (0.25 kg), so Qty x Rate always gives the amount.
 */
export function unitQty(quantity: Money.MoneyInput, perPiece: Money.MoneyInput | undefined): string {
  const total = money(quantity).times(money(perPiece ?? '1'));
  const places = Math.min(3, Math.max(1, total.toDecimalPlaces(3, Decimal.ROUND_HALF_UP).decimalPlaces()));
  return total.toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed(places);
}

/** True when a line's unit holds several pieces (its printed quantity is quantity x per_peice_quantity). */
export function isPack(perPiece: Money.MoneyInput | undefined): boolean {
  return perPiece !== undefined && !money(perPiece).equals(1);
}

/** An amount with Indian grouping and 2 decimals, no ₹ (table cells): 1,23,456.70. */
export function amount(value: Money.MoneyInput): string {
  return rupees(value).replace('₹', '');
}

/** A round off with its sign: +0.20, -0.30, 0.00. */
export function signed(value: Money.MoneyInput): string {
  const d = round2(value);
  return d.greaterThan(0) ? `+${d.toFixed(2)}` : d.toFixed(2);
}
