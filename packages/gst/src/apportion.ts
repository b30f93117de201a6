import { amount, AmountInput, Decimal, toPaisa } from './amount';

/**
 * Splits `total` (rounded to the paisa first) over `weights` in proportion, each share half-up to the
 * paisa; the paise the rounding leaves over (+ or -) go to the largest weight, the first of
 * equal largest ones. A negative total (a discount) gives negative shares. When every weight
 * is zero there is no proportion: the whole total goes to the first line by the same rule.
 */
export function apportion(totalInput: AmountInput, weightInputs: AmountInput[]): Decimal[] {
  if (weightInputs.length === 0) return [];
  const total = toPaisa(amount(totalInput, 'amount to spread'));
  const weights = weightInputs.map((w) => amount(w, 'weight'));
  const sum = weights.reduce((s, w) => s.plus(w), new Decimal(0));
  const shares = weights.map((w) => (sum.isZero() ? new Decimal(0) : toPaisa(total.times(w).dividedBy(sum))));
  let largest = 0;
  weights.forEach((w, i) => {
    if (w.greaterThan(weights[largest])) largest = i;
  });
  const left = total.minus(shares.reduce((s, x) => s.plus(x), new Decimal(0)));
  shares[largest] = shares[largest].plus(left);
  return shares;
}

/**
 * Each line's value less its share of the bill's summary discount, apportioned by the values as
 * the invoice apportions it (CGST s.15(3)(a): a discount shown on the invoice reduces the sale):
 * what the line sold for before tax and shipping, the value its profit is measured on.
 */
export function netOfDiscount(valueInputs: AmountInput[], discountInput: AmountInput): Decimal[] {
  const values = valueInputs.map((v) => toPaisa(amount(v, 'line value')));
  const shares = apportion(amount(discountInput, 'summary discount').negated(), values);
  return values.map((v, i) => v.plus(shares[i]!));
}
