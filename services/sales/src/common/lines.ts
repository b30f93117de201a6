import type { CartLine, CartSummery, ProductSnapshot } from '@bahi/contracts';
import { money, round2, today } from '@bahi/service-kit';
import type { CompanyTax } from './company';
import { counterGst, type GstBuyer } from './gst';
import { lineAmount, num, totals, type StoredLine, type Summary } from './totals';

export function toCartLine(l: StoredLine): CartLine {
  return {
    sl_no: l.sl_no,
    product_id: l.product_id,
    product_name: l.product_name,
    mrp: num(l.mrp),
    unit: l.unit,
    stock: num(l.stock),
    quantity: num(l.quantity),
    per_peice_quantity: num(l.per_peice_quantity),
    discount: num(l.discount),
    hsn_code: l.hsn_code,
    amount: num(lineAmount(l)),
  };
}

/** Who a cart or estimate is priced for: the company's tax settings and the buyer (null: walk-in). */
export interface Pricing {
  co: CompanyTax;
  buyer: GstBuyer;
  /** The day whose rates apply (YYYY-MM-DD): today at the counter, the estimate's date for an estimate. */
  date?: string;
}

/**
 * The summary of a cart or an estimate. In GST mode (`pricing` of a gst/composition company) the
 * Tax flag does not apply: taxAmount is the invoice's tax, total its value, `gst` its figures.
 */
export function toSummery(cart_no: number, lines: StoredLine[], s: Summary, pricing?: Pricing): CartSummery {
  // An estimate (which has a date) is priced at its date's rates; a cart at today's.
  const gst = pricing ? counterGst(pricing.co, lines, s, pricing.buyer, pricing.date ?? (s as { date?: string }).date ?? today()) : null;
  const t = totals(lines, gst ? { ...s, tax: 0 } : s);
  const base: CartSummery = {
    cart_no,
    tax: s.tax,
    shipping: num(s.shipping),
    discount: num(s.discount),
    subtotal: num(round2(t.subtotal)),
    taxAmount: num(t.taxAmount),
    total: num(t.total),
  };
  if (!gst) return base;
  const taxAmount = gst.error ? 0 : Math.round((gst.cgst_total + gst.sgst_total + gst.igst_total) * 100) / 100;
  return { ...base, tax: 0, taxAmount, total: gst.error ? base.total : gst.invoice_value, gst };
}

export function lineFromProduct(p: ProductSnapshot, sl_no: number, quantity: string): StoredLine {
  return {
    sl_no,
    product_id: p.product_id,
    product_name: p.product_name,
    mrp: money(p.mrp).toFixed(),
    unit: p.unit,
    stock: money(p.stock).toFixed(),
    quantity,
    per_peice_quantity: money(p.per_peice_quantity || '1').toFixed(),
    discount: '0',
    hsn_code: p.hsn_code ?? '',
    // Frozen with mrp: the rate a line was priced at does not change under the cashier.
    gst_rate: p.tax_percent ?? undefined,
    ...(p.rates?.length ? { gst_rates: p.rates } : {}),
    price_includes_tax: p.price_includes_tax !== false,
    ...(p.supply_type && p.supply_type !== 'taxable' ? { supply_type: p.supply_type } : {}),
    cp: money(p.cp || '0').toFixed(),
  };
}

/** The counter's stock warning for a line whose quantity exceeds the known stock. */
export function stockWarning(l: StoredLine): string | null {
  const need = money(l.quantity).times(money(l.per_peice_quantity));
  if (need.greaterThan(money(l.stock))) {
    return `Only ${money(l.stock).toFixed()} ${l.unit} of ${l.product_name} (${l.product_id}) in stock; selling ${need.toFixed()} takes the stock below zero.`;
  }
  return null;
}

export const stockWarnings = (lines: StoredLine[]): string[] => lines.map(stockWarning).filter((w): w is string => !!w);
