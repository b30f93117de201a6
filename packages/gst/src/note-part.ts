import { amount, Decimal, toPaisa, type AmountInput } from './amount';

/**
 * The value rule of a credit or debit note (CGST s.34) for one figure of one line: returning
 * `returned` of `sold` takes the figure x returned / sold, to the paisa; the return that brings
 * the line's last unit back takes what earlier notes left of it, so a line's notes add up to the
 * line exactly, whatever the rounding of the parts. Used by sales' credit notes and inventory's
 * debit notes alike.
 */
export function returnedPart(full: AmountInput, returned: AmountInput, sold: AmountInput, earlierTotal: AmountInput, completesLine: boolean): Decimal {
  const whole = amount(full, 'line figure');
  if (completesLine) return toPaisa(whole).minus(amount(earlierTotal, 'earlier notes'));
  const q = amount(sold, 'quantity sold');
  return q.isZero() ? new Decimal(0) : toPaisa(whole.times(amount(returned, 'quantity returned')).dividedBy(q));
}

/**
 * The note that completes the document takes the document's total less every earlier note, so
 * all of a document's notes sum exactly to it (round off included).
 */
export function completingAmount(total: AmountInput, earlierNotes: AmountInput[]): Decimal {
  return earlierNotes.reduce<Decimal>((left, n) => left.minus(amount(n, 'earlier note')), amount(total, 'document total'));
}
