import { amount, AmountInput, Decimal, fixed2 } from './amount';

/** Tax per head: IGST, CGST, SGST (SGST also stands for UTGST). */
export interface TaxHeads<T = AmountInput> {
  igst: T;
  cgst: T;
  sgst: T;
}

export interface SetOffResult {
  /** Paid in cash per head. */
  payable: TaxHeads<string>;
  /** Credit left per head, carried to the next period. */
  carried: TaxHeads<string>;
  /** used[credit][liability]: how much of each credit went against which head. */
  used: { igst: TaxHeads<string>; cgst: TaxHeads<string>; sgst: TaxHeads<string> };
}

const min = (a: Decimal, b: Decimal): Decimal => (a.lessThan(b) ? a : b);
const pos = (a: Decimal): Decimal => (a.isNegative() ? new Decimal(0) : a);

/**
 * Sets input tax credit off against output tax as GSTR-3B's Table 6.1 does (CGST Act s.49(5),
 * s.49A, s.49B with CGST Rule 88A):
 * - IGST credit first against IGST, then against CGST and SGST; it must be used up before any
 *   CGST or SGST credit is used (s.49A). Rule 88A lets the taxpayer split it between CGST and
 *   SGST in any proportion: we cover what each head's own credit cannot (so no cash is paid while
 *   credit is carried), then CGST before SGST.
 * - CGST credit against CGST, then IGST; SGST credit against SGST, then IGST (s.49(5)(b), (d)).
 * - CGST credit is never set off against SGST, nor SGST credit against CGST (s.49(5)(e), (f)).
 * What is left of a liability is paid in cash; what is left of a credit is carried forward.
 * Negative inputs count as zero.
 */
export function setOffItc(liability: TaxHeads, credit: TaxHeads): SetOffResult {
  const L = { igst: pos(amount(liability.igst, 'IGST payable')), cgst: pos(amount(liability.cgst, 'CGST payable')), sgst: pos(amount(liability.sgst, 'SGST payable')) };
  const C = { igst: pos(amount(credit.igst, 'IGST credit')), cgst: pos(amount(credit.cgst, 'CGST credit')), sgst: pos(amount(credit.sgst, 'SGST credit')) };
  const zero = () => ({ igst: new Decimal(0), cgst: new Decimal(0), sgst: new Decimal(0) });
  const used = { igst: zero(), cgst: zero(), sgst: zero() };
  const take = (from: keyof TaxHeads, against: keyof TaxHeads, limit?: Decimal) => {
    let x = min(C[from], L[against]);
    if (limit) x = min(x, pos(limit));
    C[from] = C[from].minus(x);
    L[against] = L[against].minus(x);
    used[from][against] = used[from][against].plus(x);
  };

  take('igst', 'igst');
  // IGST credit left: first the part of CGST / SGST their own credit cannot cover, then the rest.
  take('igst', 'cgst', L.cgst.minus(C.cgst));
  take('igst', 'sgst', L.sgst.minus(C.sgst));
  take('igst', 'cgst');
  take('igst', 'sgst');
  take('cgst', 'cgst');
  take('sgst', 'sgst');
  take('cgst', 'igst');
  take('sgst', 'igst');

  const out = (h: TaxHeads<Decimal>): TaxHeads<string> => ({ igst: fixed2(h.igst), cgst: fixed2(h.cgst), sgst: fixed2(h.sgst) });
  return { payable: out(L), carried: out(C), used: { igst: out(used.igst), cgst: out(used.cgst), sgst: out(used.sgst) } };
}
