// What a return is worth, for the return dialog's live figure. The server computes the note
// (exact decimals, remainders); this follows its rule so the figure shown is the one it books:
// a line's share of the bill (after its discount, its share of the summary discount and its
// tax) x returned / sold, to the paisa; the return completing a line takes that line's
// remainder, and the return that brings the whole bill back takes what the earlier notes left
// of the bill's value (shipping included).

export interface NoteValueLine {
  sl_no: number;
  /** The whole line's value on the bill without shipping. */
  share: number;
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

const cents = (n: number) => Math.round(n * 100);

/** The note's value in rupees for `picked` (sl_no -> packs). */
export function noteValue(bill: NoteValueBill, picked: Map<number, number>): number {
  const open = bill.lines.filter((l) => l.returnable > 0);
  const whole = open.length > 0 && open.every((l) => picked.get(l.sl_no) === l.returnable);
  if (whole) return (cents(bill.total) - cents(bill.credited)) / 100;
  let sum = 0;
  for (const l of bill.lines) {
    const q = picked.get(l.sl_no);
    if (!q || l.sold <= 0) continue;
    sum +=
      q === l.returnable
        ? cents(l.share) - cents((l.share * l.returned) / l.sold)
        : cents((l.share * q) / l.sold);
  }
  return sum / 100;
}

/**
 * Each line's share of a simple-mode bill: its amount's part of the bill without shipping (the
 * 18 % tax is on the subtotal, the summary discount shared by amount).
 */
export function simpleShares<L extends { amount: number }>(lines: L[], subtotal: number, total: number, shipping: number): Map<L, number> {
  const base = total - shipping;
  return new Map(lines.map((l) => [l, subtotal > 0 ? (l.amount * base) / subtotal : 0]));
}

/** A GST line's share: its amount less its part of the summary discount, with tax at its rate. */
export function gstShare(amount: number, subtotal: number, discount: number, ratePercent: number): number {
  const disc = subtotal > 0 ? (discount * amount) / subtotal : 0;
  return (amount - disc) * (1 + ratePercent / 100);
}
