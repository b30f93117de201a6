import { BadRequestException } from '@nestjs/common';
import { apportion, completingAmount, returnedPart } from '@bahi/gst';
import { add, Decimal, div, money, mul, round2, sub } from '@bahi/service-kit';
import type { GstLine } from '@bahi/contracts';
import { lineAmount } from '../common/totals';
import type { CreditLine, ReturnableSale, ReturnedLine, StoredNoteGst } from './schema';

export interface ReturnLine {
  sl_no: number;
  quantity: Decimal;
}

export interface NoteValue {
  lines: CreditLine[];
  subtotal: string;
  discount: string;
  tax: string;
  shipping: string;
  amount: string;
  completesBill: boolean;
  gst: StoredNoteGst | null;
}

const ZERO = new Decimal(0);
const s2 = (d: Decimal) => d.toFixed(2);
const d = (x: unknown) => money(String(x ?? '0'));
const paisa = (x: Decimal) => round2(x);

/** Quantities returned so far per line and what complete notes credited. */
function earlier(sale: ReturnableSale): Map<number, ReturnedLine> {
  return new Map((sale.returned ?? []).map((r) => [r.sl_no, r]));
}

/** Tax of a taxable value at the line's rate and heads, per head to the paisa (as the invoice did). */
function taxOf(taxable: Decimal, rate: string, interState: boolean) {
  if (interState) return { cgst: ZERO, sgst: ZERO, igst: paisa(div(mul(taxable, rate), 100)) };
  const half = paisa(div(mul(taxable, rate), 200));
  return { cgst: half, sgst: half, igst: ZERO };
}

/** Checks a return's lines against the bill: 400 naming the line, nothing changed. */
export function checkLines(sale: ReturnableSale, lines: ReturnLine[]): void {
  if (!lines.length) throw new BadRequestException('Choose at least one line to return.');
  const seen = new Set<number>();
  const before = earlier(sale);
  for (const l of lines) {
    if (seen.has(l.sl_no)) throw new BadRequestException(`Line ${l.sl_no} is listed twice; give each line once.`);
    seen.add(l.sl_no);
    const line = sale.lines.find((x) => x.sl_no === l.sl_no);
    if (!line) throw new BadRequestException(`Line ${l.sl_no} is not on bill ${sale.saleId}.`);
    if (!l.quantity.isFinite() || l.quantity.lte(0)) throw new BadRequestException(`Line ${l.sl_no} (${line.product_name}): the quantity to return must be more than 0.`);
    const returned = d(before.get(l.sl_no)?.quantity);
    const left = sub(line.quantity, returned);
    if (l.quantity.gt(left)) {
      throw new BadRequestException(
        `Line ${l.sl_no} (${line.product_name}): only ${left.toFixed()} of ${d(line.quantity).toFixed()} can be returned (${returned.toFixed()} already returned); asked for ${l.quantity.toFixed()}.`,
      );
    }
  }
}

/**
 * The credit of returning `lines` of the bill (see the README's value rule). Each returned
 * quantity credits its line's share of the bill x returned / sold, to the paisa; the return that
 * completes a line credits what the earlier ones left of it, and the one that completes the bill
 * also the shipping and whatever is left of the bill's amount, so a bill's credits sum to it.
 */
export function noteValue(sale: ReturnableSale, lines: ReturnLine[]): NoteValue {
  checkLines(sale, lines);
  const before = earlier(sale);
  const asked = new Map(lines.map((l) => [l.sl_no, l.quantity]));
  const completesBill = sale.lines.every((l) => d(before.get(l.sl_no)?.quantity).plus(asked.get(l.sl_no) ?? 0).eq(d(l.quantity)));
  const credited = (sl: number, f: keyof ReturnedLine) => d(before.get(sl)?.[f]);
  const amounts = sale.lines.map((l) => lineAmount(l));
  const weights = amounts.map((a) => a.toFixed());
  const gst = sale.gst ?? null;

  const out: CreditLine[] = [];
  if (!gst) {
    // Simple mode: each line's full part of the subtotal, summary discount and 18 % tax.
    const subtotal = add(...amounts);
    const A = apportion(subtotal.toFixed(), weights).map((x) => d(x.toFixed()));
    const D = apportion(d(sale.discount).toFixed(), weights).map((x) => d(x.toFixed()));
    const T = apportion(d(sale.taxAmount).toFixed(), weights).map((x) => d(x.toFixed()));
    sale.lines.forEach((l, i) => {
      const r = asked.get(l.sl_no);
      if (!r) return;
      const done = credited(l.sl_no, 'quantity').plus(r).eq(d(l.quantity));
      let a: Decimal, disc: Decimal, t: Decimal, value: Decimal;
      if (done) {
        a = returnedPart(A[i]!, r, l.quantity, credited(l.sl_no, 'amount'), true);
        disc = returnedPart(D[i]!, r, l.quantity, credited(l.sl_no, 'summary_discount'), true);
        t = returnedPart(T[i]!, r, l.quantity, credited(l.sl_no, 'tax'), true);
        value = a.minus(disc).plus(t);
      } else {
        value = returnedPart(A[i]!.minus(D[i]!).plus(T[i]!), r, l.quantity, 0, false);
        a = returnedPart(A[i]!, r, l.quantity, 0, false);
        // The parts are shown to the paisa and add up to the value: the tax (or, without tax, the discount) takes the rounding.
        if (!T[i]!.isZero()) {
          disc = returnedPart(D[i]!, r, l.quantity, 0, false);
          t = value.minus(a).plus(disc);
        } else {
          t = ZERO;
          disc = a.minus(value);
        }
      }
      out.push(creditLine(l, r, a, disc, t, value, null));
    });
  } else {
    // GST mode: the line's taxable value without its shipping share (line taxable less its
    // share of the summary discount), and tax on it at the line's rate and heads.
    const glines = sale.lines.map((l) => gst.lines.find((g) => g.sl_no === l.sl_no) as GstLine);
    const lt = glines.map((g) => d(g.line_taxable).toFixed());
    const DP = apportion(d(sale.discount).toFixed(), lt).map((x) => d(x.toFixed()));
    sale.lines.forEach((l, i) => {
      const g = glines[i]!;
      const r = asked.get(l.sl_no) ?? ZERO;
      if (!completesBill && r.isZero()) return;
      const done = credited(l.sl_no, 'quantity').plus(r).eq(d(l.quantity));
      const B = d(g.line_taxable).minus(DP[i]!);
      let taxable: Decimal, tx: { cgst: Decimal; sgst: Decimal; igst: Decimal }, disc: Decimal, a: Decimal;
      if (completesBill) {
        // The last return takes what is left of the invoice's line, shipping share included.
        taxable = d(g.taxable_value).minus(credited(l.sl_no, 'taxable_value'));
        tx = { cgst: d(g.cgst).minus(credited(l.sl_no, 'cgst')), sgst: d(g.sgst).minus(credited(l.sl_no, 'sgst')), igst: d(g.igst).minus(credited(l.sl_no, 'igst')) };
        disc = DP[i]!.minus(credited(l.sl_no, 'summary_discount'));
        a = paisa(amounts[i]!).minus(credited(l.sl_no, 'amount'));
      } else {
        // A part takes its share; the part completing the line what earlier notes left (tax at the line's rate on the whole).
        const full = taxOf(B, g.gst_rate, gst.inter_state);
        const part = (x: Decimal, f: keyof ReturnedLine) => returnedPart(x, r, l.quantity, credited(l.sl_no, f), done);
        taxable = part(B, 'taxable_value');
        tx = done ? { cgst: part(full.cgst, 'cgst'), sgst: part(full.sgst, 'sgst'), igst: part(full.igst, 'igst') } : taxOf(taxable, g.gst_rate, gst.inter_state);
        disc = part(DP[i]!, 'summary_discount');
        a = part(amounts[i]!, 'amount');
      }
      if (r.isZero() && taxable.isZero() && tx.cgst.isZero() && tx.igst.isZero()) return;
      const value = taxable.plus(tx.cgst).plus(tx.sgst).plus(tx.igst);
      out.push(creditLine(l, r, a, disc, ZERO, value, { gst_rate: g.gst_rate, taxable_value: s2(taxable), cgst: s2(tx.cgst), sgst: s2(tx.sgst), igst: s2(tx.igst) }));
    });
  }

  const sum = (f: (l: CreditLine) => string) => add(...out.map((l) => d(f(l))));
  const shipping = completesBill && !gst ? d(sale.shipping) : ZERO;
  let amount = sum((l) => l.value).plus(shipping);
  if (completesBill) {
    // The credits of a bill sum exactly to its amount (GST mode: the invoice value, round off included).
    amount = completingAmount(d(sale.amount), (sale.creditNotes ?? []).map((n) => d(n.amount)));
  }
  let noteGst: StoredNoteGst | null = null;
  if (gst) {
    const taxable = sum((l) => l.gst!.taxable_value);
    const cgst = sum((l) => l.gst!.cgst);
    const sgst = sum((l) => l.gst!.sgst);
    const igst = sum((l) => l.gst!.igst);
    const tax = cgst.plus(sgst).plus(igst);
    noteGst = {
      tax_mode: gst.tax_mode,
      invoice_no: gst.invoice_no,
      invoice_date: gst.invoice_date,
      gstin: gst.recipient?.gstin || null,
      recipient_name: gst.recipient?.name ?? '',
      place_of_supply: gst.place_of_supply,
      place_of_supply_name: gst.place_of_supply_name,
      inter_state: gst.inter_state,
      state_tax_name: gst.state_tax_name,
      taxable_total: s2(taxable),
      cgst_total: s2(cgst),
      sgst_total: s2(sgst),
      igst_total: s2(igst),
      tax_total: s2(tax),
      round_off: s2(amount.minus(taxable).minus(tax)),
    };
  }
  return {
    lines: out,
    subtotal: s2(sum((l) => l.amount)),
    discount: s2(sum((l) => l.summary_discount)),
    tax: s2(sum((l) => l.tax)),
    // GST mode: the shipping share is inside the lines' taxable value; shown for the reader.
    shipping: s2(completesBill ? d(sale.shipping) : ZERO),
    amount: s2(amount),
    completesBill,
    gst: noteGst,
  };
}

function creditLine(l: ReturnableSale['lines'][number], r: Decimal, a: Decimal, disc: Decimal, t: Decimal, value: Decimal, gst: CreditLine['gst']): CreditLine {
  return {
    sl_no: l.sl_no,
    product_id: l.product_id,
    product_name: l.product_name,
    hsn_code: l.hsn_code ?? '',
    unit: l.unit ?? '',
    mrp: l.mrp,
    discount: l.discount || '0',
    quantity: r.toFixed(),
    per_peice_quantity: l.per_peice_quantity || '1',
    amount: s2(a),
    summary_discount: s2(disc),
    tax: s2(t),
    value: s2(value),
    gst,
  };
}

/** The sale's per-line returned totals after a note. */
export function addReturned(sale: ReturnableSale, lines: CreditLine[]): ReturnedLine[] {
  const before = earlier(sale);
  const next = new Map(before);
  for (const l of lines) {
    const e = before.get(l.sl_no);
    const plus = (f: keyof ReturnedLine, x: string) => s2(d(e?.[f]).plus(d(x)));
    next.set(l.sl_no, {
      sl_no: l.sl_no,
      quantity: d(e?.quantity).plus(d(l.quantity)).toFixed(),
      amount: plus('amount', l.amount),
      summary_discount: plus('summary_discount', l.summary_discount),
      tax: plus('tax', l.tax),
      value: plus('value', l.value),
      taxable_value: plus('taxable_value', l.gst?.taxable_value ?? '0'),
      cgst: plus('cgst', l.gst?.cgst ?? '0'),
      sgst: plus('sgst', l.gst?.sgst ?? '0'),
      igst: plus('igst', l.gst?.igst ?? '0'),
    });
  }
  return [...next.values()].sort((a, b) => a.sl_no - b.sl_no);
}
