import { amount, AmountInput, Decimal, fixed2, toPaisa } from './amount';

/**
 * Invoice value to the nearest rupee with a visible "Round off" line. CGST Act s.170 rounds
 * sums payable this way: fifty paise or more goes up to the next rupee, less is dropped. So
 * x.50 goes up and the round off stays within -0.49 .. +0.50.
 */
export function roundOff(exactTotal: AmountInput): { exact: string; roundOff: string; value: string } {
  // To the paisa first, so the printed total + round off = the value exactly.
  const exact = toPaisa(amount(exactTotal, 'invoice total'));
  // Half-up on the magnitude; invoice totals are never negative here.
  const value = exact.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  return { exact: fixed2(exact), roundOff: fixed2(value.minus(exact)), value: fixed2(value) };
}
