import type { CartLine, CartSummery, ProductSnapshot } from '@bahi/contracts';
import { money, round2 } from '@bahi/service-kit';
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

export function toSummery(cart_no: number, lines: StoredLine[], s: Summary): CartSummery {
  const t = totals(lines, s);
  return {
    cart_no,
    tax: s.tax,
    shipping: num(s.shipping),
    discount: num(s.discount),
    subtotal: num(round2(t.subtotal)),
    taxAmount: num(t.taxAmount),
    total: num(t.total),
  };
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
