import Decimal from 'decimal.js';

/**
 * Exact rupee arithmetic. Amounts travel as numbers or decimal strings and are computed as
 * decimals; rounding happens only where asked (round2, round1).
 */
export type MoneyInput = Decimal | string | number;

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export class MoneyError extends Error {}

/** Parses a decimal string or finite number; throws MoneyError on anything else ('', '1e5', NaN, '12abc'). */
export function money(value: MoneyInput): Decimal {
  if (value instanceof Decimal) return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new MoneyError(`Not a valid amount: ${value}`);
    // Through the shortest string form so 0.1 stays 0.1, not its binary expansion.
    return new Decimal(String(value));
  }
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return new Decimal(value.trim());
  throw new MoneyError(`Not a valid amount: '${String(value)}'`);
}

/** True when `value` parses as an amount. */
export function isMoney(value: unknown): boolean {
  try {
    money(value as MoneyInput);
    return true;
  } catch {
    return false;
  }
}

export const add = (...xs: MoneyInput[]): Decimal => xs.reduce<Decimal>((s, x) => s.plus(money(x)), new Decimal(0));
export const sub = (a: MoneyInput, ...xs: MoneyInput[]): Decimal => xs.reduce<Decimal>((s, x) => s.minus(money(x)), money(a));
export const mul = (...xs: MoneyInput[]): Decimal => xs.reduce<Decimal>((s, x) => s.times(money(x)), new Decimal(1));
export const div = (a: MoneyInput, b: MoneyInput): Decimal => money(a).dividedBy(money(b));

/** Rounds half away from zero to 2 decimals (rupees and paise). */
export const round2 = (x: MoneyInput): Decimal => money(x).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
export const round1 = (x: MoneyInput): Decimal => money(x).toDecimalPlaces(1, Decimal.ROUND_HALF_UP);

export const toNumber = (x: MoneyInput): number => money(x).toNumber();
/** Plain decimal string, never exponent notation. */
export const toMoneyString = (x: MoneyInput): string => money(x).toFixed();
/** Integer paise, for storage as an exact integer. */
export const toPaise = (x: MoneyInput): number => money(x).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
export const fromPaise = (paise: number): Decimal => new Decimal(paise).dividedBy(100);

export { Decimal };

/** "Rs 1,23,456.70": an amount in a shopkeeper's sentence (lakh grouping, 2 decimals, exact). */
export function rsText(x: MoneyInput): string {
  const d = round2(x);
  const [int, frac] = d.abs().toFixed(2).split('.') as [string, string];
  const grouped = int.length <= 3 ? int : `${int.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',')},${int.slice(-3)}`;
  return `Rs ${d.isNegative() && !d.isZero() ? '-' : ''}${grouped}.${frac}`;
}
