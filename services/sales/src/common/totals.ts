import { add, Decimal, money, mul, round2, sub, type MoneyInput } from '@bahi/service-kit';

/** Spec 000 §9: 18 percent of the subtotal when the tax flag is 1. */
export const TAX_RATE = '0.18';

/** A stored line: every amount a decimal string, never a float. */
export interface StoredLine {
  sl_no: number;
  product_id: number;
  product_name: string;
  mrp: string;
  unit: string;
  stock: string;
  quantity: string;
  per_peice_quantity: string;
  discount: string;
  hsn_code: string;
  /** GST rate in percent, captured from the product when the line was added (like mrp); absent on lines older than GST mode. */
  gst_rate?: string;
  /** The product's rate history when it has one (inventory's snapshot): a sale takes the rate in force on its date. */
  gst_rates?: { rate: string; from: string }[];
  /** Whether mrp includes that rate, captured with it. */
  price_includes_tax?: boolean;
  /** The product's GSTR-1 Table 8 supply type when not taxable (nil, exempt, non_gst), captured with the rate. */
  supply_type?: 'taxable' | 'nil' | 'exempt' | 'non_gst';
  /** The product's cost price per unit when the line was added (like mrp), frozen so a sale's profit never moves; absent on older lines. */
  cp?: string;
  /** The manager's approval of a staff member's discount on this line (issue 28), for the discount it was given for. */
  approval?: DiscountApproval;
}

/** Who approved a discount above the staff limit, for which discount, when. */
export interface DiscountApproval {
  approver_id: number;
  approver_name: string;
  discount: string;
  at: string;
}

export interface Summary {
  tax: 0 | 1;
  shipping: string;
  discount: string;
}

/** (mrp - discount) x quantity x per_peice_quantity, exact. */
export function lineAmount(l: Pick<StoredLine, 'mrp' | 'discount' | 'quantity' | 'per_peice_quantity'>): Decimal {
  return mul(sub(l.mrp, l.discount), l.quantity, l.per_peice_quantity);
}

/** Quantity in the product's unit (what leaves the stock). */
export const unitQuantity = (l: Pick<StoredLine, 'quantity' | 'per_peice_quantity'>): Decimal => mul(l.quantity, l.per_peice_quantity);

export interface Totals {
  subtotal: Decimal;
  /** 18% of the subtotal, to 2 decimals (0 without the flag). */
  taxAmount: Decimal;
  /** subtotal + tax + shipping - discount, to 2 decimals. */
  total: Decimal;
}

export function totals(lines: StoredLine[], s: Summary): Totals {
  const subtotal = add(...lines.map(lineAmount));
  const taxAmount = s.tax === 1 ? round2(mul(subtotal, TAX_RATE)) : new Decimal(0);
  const total = round2(sub(add(subtotal, taxAmount, s.shipping), s.discount));
  return { subtotal, taxAmount, total };
}

/** Invoice total: sale total + previous due (0 for the walk-in customer). */
export const invoiceTotal = (saleTotal: MoneyInput, previousDue: MoneyInput, walkIn: boolean): Decimal =>
  round2(add(saleTotal, walkIn ? 0 : previousDue));

/** Decimal string -> JSON number for an HTTP reply (display only; computing stays on strings). */
export const num = (x: MoneyInput): number => money(x).toNumber();
