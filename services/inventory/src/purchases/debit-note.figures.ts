import { BadRequestException } from '@nestjs/common';
import { add, Decimal, isMoney, money, mul, round2, sub } from '@bahi/service-kit';
import { completingAmount, returnedPart } from '@bahi/gst';
import type { PurchaseDoc, PurchaseLineDoc } from './purchase.schema';

/** One returned line's figures, exact decimal strings to the paisa (quantity: packs). */
export interface NoteLineFigures {
  sl_no: number;
  quantity: string;
  units: string;
  /** (rate - disc) x units returned, before the summary discount share and tax. */
  subtotal: string;
  discount: string;
  /** Simple mode: the 18 % tax share; 0 in GST mode. */
  tax: string;
  /** GST mode: taxable value and input tax reversed (0 in simple mode). */
  taxable: string;
  cgst: string;
  sgst: string;
  igst: string;
  /** What this line debits: after its share of the summary discount, with its tax. */
  value: string;
}

/** A return's claim on its purchase (kept on the purchase while the note is pending or complete). */
export interface ReturnHold {
  debitNoteId: number;
  lines: NoteLineFigures[];
  shipping: string;
  amount: string;
}

export interface NoteFigures {
  lines: NoteLineFigures[];
  subtotal: string;
  discount: string;
  tax: string;
  shipping: string;
  taxable: string;
  cgst: string;
  sgst: string;
  igst: string;
  /** amount - (taxable + tax) in GST mode, on the return that completes the purchase; else 0. */
  roundOff: string;
  amount: string;
  /** This return brings the whole purchase back. */
  completes: boolean;
}

const FIELDS = ['subtotal', 'discount', 'tax', 'taxable', 'cgst', 'sgst', 'igst', 'value'] as const;
type Field = (typeof FIELDS)[number];
const s2 = (d: Decimal) => round2(d).toFixed(2);

/** Packs of each line taken by the holds. */
export function returnedPacks(holds: ReturnHold[]): Map<number, Decimal> {
  const out = new Map<number, Decimal>();
  for (const h of holds) for (const l of h.lines) out.set(l.sl_no, (out.get(l.sl_no) ?? new Decimal(0)).plus(l.quantity));
  return out;
}

/** A request's lines checked against the purchase: known sl_no, once each, 0 < packs <= bought - returned, at most 3 decimals of the unit. */
export function parseReturnLines(p: PurchaseDoc, raw: unknown, holds: ReturnHold[]): { line: PurchaseLineDoc; quantity: Decimal }[] {
  if (!Array.isArray(raw) || !raw.length) throw new BadRequestException('lines must list at least one line of the purchase to return.');
  if (raw.length > p.lines.length) throw new BadRequestException('lines names more lines than the purchase has.');
  const taken = returnedPacks(holds);
  const seen = new Set<number>();
  return raw.map((r: unknown, i) => {
    const o = (r && typeof r === 'object' ? r : {}) as { sl_no?: unknown; quantity?: unknown };
    const line = p.lines.find((l) => l.sl_no === o.sl_no);
    if (!line) throw new BadRequestException(`lines[${i}]: purchase ${p.purchaseId} has no line ${JSON.stringify(o.sl_no ?? null)}.`);
    const name = `Line ${line.sl_no} (${line.product_name})`;
    if (seen.has(line.sl_no)) throw new BadRequestException(`${name} is named twice.`);
    seen.add(line.sl_no);
    if ((typeof o.quantity !== 'number' && typeof o.quantity !== 'string') || !isMoney(o.quantity)) throw new BadRequestException(`${name}: quantity must be a number.`);
    const q = money(o.quantity);
    if (!q.greaterThan(0)) throw new BadRequestException(`${name}: quantity must be more than 0.`);
    if (mul(q, line.per_peice_quantity).decimalPlaces() > 3) throw new BadRequestException(`${name}: quantity can have at most 3 decimals of its unit.`);
    const left = sub(line.quantity, taken.get(line.sl_no) ?? 0);
    if (q.greaterThan(left)) {
      throw new BadRequestException(`${name}: ${q.toFixed()} is more than can be returned (bought ${new Decimal(line.quantity).toFixed()}, returned ${sub(line.quantity, left).toFixed()}, so at most ${left.toFixed()}).`);
    }
    return { line, quantity: q };
  });
}

/**
 * A return's figures. A line returned in part takes its share of the purchase x returned / bought,
 * each figure to the paisa. The return that brings a line's last pack back takes the line's figure
 * less what earlier returns took, so a line's notes add up to it exactly. Simple mode: the line's
 * figures are its amount, its share of the summary discount and of the 18 % tax (both in
 * proportion to the amounts). GST mode: the frozen taxable value and input tax per head (the
 * taxable value already carries its share of shipping less discount, as on the purchase).
 * Shipping (simple mode) comes back only with the return that completes the purchase, and that
 * return's amount is the purchase total less the earlier notes, so all its notes sum to the total.
 */
export function noteFigures(p: PurchaseDoc, returns: { line: PurchaseLineDoc; quantity: Decimal }[], holds: ReturnHold[]): NoteFigures {
  const gst = p.gst ?? null;
  const S = new Decimal(p.subtotal);
  const D = new Decimal(p.discount || '0');
  const T = gst ? new Decimal(0) : new Decimal(p.taxAmount || '0');
  const share = (x: Decimal, a: string) => (S.isZero() ? new Decimal(0) : x.times(a).dividedBy(S));
  const earlierOf = (sl: number, f: Field) => add(...holds.flatMap((h) => h.lines.filter((l) => l.sl_no === sl).map((l) => l[f])));
  const taken = returnedPacks(holds);

  const lines: NoteLineFigures[] = returns.map(({ line, quantity }) => {
    const g = gst?.lines.find((x) => x.sl_no === line.sl_no);
    const full: Record<Field, Decimal> = {
      subtotal: new Decimal(line.amount),
      discount: share(D, line.amount),
      tax: share(T, line.amount),
      taxable: new Decimal(g?.taxable_value ?? 0),
      cgst: new Decimal(g?.cgst ?? 0),
      sgst: new Decimal(g?.sgst ?? 0),
      igst: new Decimal(g?.igst ?? 0),
      value: new Decimal(0),
    };
    full.value = gst ? add(full.taxable, full.cgst, full.sgst, full.igst) : full.subtotal.minus(full.discount).plus(full.tax);
    const last = add(taken.get(line.sl_no) ?? 0, quantity).eq(line.quantity);
    const fig = {} as Record<Field, string>;
    for (const f of FIELDS) fig[f] = s2(returnedPart(full[f], quantity, line.quantity, earlierOf(line.sl_no, f), last));
    return { sl_no: line.sl_no, quantity: quantity.toFixed(), units: mul(quantity, line.per_peice_quantity).toFixed(), ...fig };
  });

  const after = returnedPacks([...holds, { debitNoteId: 0, lines, shipping: '0', amount: '0' }]);
  const completes = p.lines.every((l) => (after.get(l.sl_no) ?? new Decimal(0)).eq(l.quantity));
  const sum = (f: Field) => s2(add(...lines.map((l) => l[f])));
  const shipping = completes && !gst ? s2(new Decimal(p.shipping || '0')) : '0.00';
  let amount = add(sum('value'), shipping);
  let roundOff = new Decimal(0);
  if (completes) {
    const rest = completingAmount(p.total, holds.map((h) => h.amount));
    const diff = rest.minus(amount);
    if (gst) roundOff = diff;
    else if (!diff.isZero()) {
      // Paise the per-line rounding left over: on the largest line, so the lines add up to the note.
      const big = lines.reduce((a, b) => (new Decimal(b.value).greaterThan(a.value) ? b : a));
      big.value = s2(new Decimal(big.value).plus(diff));
    }
    amount = rest;
  }
  return {
    lines,
    subtotal: sum('subtotal'),
    discount: sum('discount'),
    tax: sum('tax'),
    shipping,
    taxable: sum('taxable'),
    cgst: sum('cgst'),
    sgst: sum('sgst'),
    igst: sum('igst'),
    roundOff: s2(roundOff),
    amount: s2(amount),
    completes,
  };
}
