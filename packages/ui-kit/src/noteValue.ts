// What a return is worth, for the return dialog's live figure. The server computes the note in
// exact decimals and books it; this follows its rule in whole paise so the figure shown is the
// one booked: a line's share of the bill (after its discount, its share of the summary
// discount and its tax) x returned / sold, to the paisa; the return completing a line takes the
// line's remainder, and the return that brings the whole bill back takes what the earlier notes
// left of the bill's value (shipping included).

export interface NoteValueLine {
  sl_no: number;
  /**
   * Simple mode: the whole line's value without shipping (amount - its discount share + its tax).
   * GST mode: the line's taxable value without its shipping share (tax is added at `ratePercent`).
   */
  share: number;
  /** GST mode: the line's rate; the tax of each head is rounded to the paisa as on the invoice. */
  ratePercent?: number;
  interState?: boolean;
  sold: number;
  returned: number;
  returnable: number;
}

export interface NoteValueBill {
  lines: NoteValueLine[];
  /** The bill's value (with shipping): the sale's amount, a GST invoice's value, the purchase total. */
  total: number;
  /** The values of the bill's earlier notes. */
  credited: number;
}

/** Rupees to whole paise, half away from zero (as the server's decimals round). */
const cents = (n: number) => Math.sign(n) * Math.round(Math.abs(n * 100));

/** GST of a taxable value in paise: per head to the paisa (CGST + SGST halves, or IGST). */
function taxPaise(taxable: number, rate: number, interState: boolean): number {
  return interState ? Math.round((taxable * rate) / 100) : 2 * Math.round((taxable * rate) / 200);
}

/** A line's value in paise for `q` packs. */
function lineValue(l: NoteValueLine, q: number): number {
  const taxable = (packs: number) => cents((l.share * packs) / l.sold);
  const value = (t: number) => (l.ratePercent === undefined ? t : t + taxPaise(t, l.ratePercent, !!l.interState));
  // The return completing the line takes what the earlier ones left of it.
  if (q === l.returnable) return value(cents(l.share)) - value(taxable(l.returned));
  return value(taxable(q));
}

/** The note's value in rupees for `picked` (sl_no -> packs). */
export function noteValue(bill: NoteValueBill, picked: Map<number, number>): number {
  const open = bill.lines.filter((l) => l.returnable > 0);
  const whole = open.length > 0 && open.every((l) => picked.get(l.sl_no) === l.returnable);
  if (whole) return (cents(bill.total) - cents(bill.credited)) / 100;
  let sum = 0;
  for (const l of bill.lines) {
    const q = picked.get(l.sl_no);
    if (q && l.sold > 0) sum += lineValue(l, q);
  }
  return sum / 100;
}

/** Spreads `total` over `weights` to the paisa; the largest weight takes what rounding left (as the server does). */
export function apportionPaise(total: number, weights: number[]): number[] {
  const t = cents(total);
  const sum = weights.reduce((s, w) => s + w, 0);
  const shares = weights.map((w) => (sum === 0 ? 0 : Math.sign(t) * Math.round(Math.abs((t * w) / sum))));
  let largest = 0;
  weights.forEach((w, i) => {
    if (w > weights[largest]!) largest = i;
  });
  if (shares.length) shares[largest] = shares[largest]! + t - shares.reduce((s, x) => s + x, 0);
  return shares.map((p) => p / 100);
}

/** Simple mode: each line's amount less its share of the summary discount plus its share of the 18 % tax. */
export function simpleShares(amounts: number[], discount: number, taxAmount: number): number[] {
  const D = apportionPaise(discount, amounts);
  const T = apportionPaise(taxAmount, amounts);
  return amounts.map((a, i) => (cents(a) - cents(D[i]!) + cents(T[i]!)) / 100);
}

/**
 * GST mode: each line's taxable value without its shipping share, from the invoice's taxable
 * values (which carry a share of shipping less the summary discount, spread by the lines' own
 * taxable values): the line's own value less its share of the summary discount.
 */
export function gstTaxables(taxables: number[], shipping: number, discount: number): number[] {
  const extra = cents(shipping) - cents(discount);
  const total = taxables.reduce((s, t) => s + cents(t), 0);
  const own = total - extra;
  // The lines' own values, then their exact shares of shipping less discount spread by them.
  const guess = taxables.map((t) => (total === 0 ? 0 : Math.round((cents(t) * own) / total)));
  const spread = apportionPaise(extra / 100, guess);
  const lineTaxable = taxables.map((t, i) => cents(t) - cents(spread[i]!));
  const D = apportionPaise(discount, lineTaxable);
  return lineTaxable.map((lt, i) => (lt - cents(D[i]!)) / 100);
}
