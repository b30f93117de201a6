import Decimal from 'decimal.js';
import { GstError } from './errors';

/**
 * Amounts as in service-kit's money.ts: numbers or decimal strings in, Decimal inside,
 * rounding (half away from zero, "half-up") only where a rule says.
 */
export type AmountInput = Decimal | string | number;

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Parses an amount; `what` names the field in the error ("mrp of line 2"). */
export function amount(value: AmountInput, what = 'amount'): Decimal {
  if (value instanceof Decimal) return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new GstError(`The ${what} is not a valid number: ${value}.`);
    // Through the shortest string form so 0.1 stays 0.1, not its binary expansion.
    return new Decimal(String(value));
  }
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return new Decimal(value.trim());
  throw new GstError(`The ${what} is not a valid number: '${String(value)}'.`);
}

/** Half-up to the paisa (half away from zero, as money.ts's round2). */
export const toPaisa = (x: Decimal): Decimal => x.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/** Two-decimal string for output: exact, JSON-safe, never exponent notation. */
export const fixed2 = (x: Decimal): string => (x.isZero() ? '0.00' : x.toFixed(2)); // never '-0.00'

export { Decimal };
