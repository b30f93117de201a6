// Shapes and arithmetic the cart and the estimate editor share. The server computes every total;
// these helpers only format what it sent (spec 000 §5 display rounding).
import { formatINR } from '@bahi/ui-kit';

export interface CartLine {
  sl_no: number;
  product_id: number;
  product_name: string;
  mrp: number;
  unit: string;
  stock: number;
  quantity: number;
  per_peice_quantity: number;
  discount: number;
  amount: number;
}
export interface Summery {
  tax: 0 | 1;
  shipping: number;
  discount: number;
  subtotal: number;
  taxAmount: number;
  total: number;
}
export interface Suggestion {
  product_id: number;
  product_name: string;
  stock: string | number;
  mrp: string | number;
}
export type AddReply = [] | [[CartLine], { warnings: string[]; summery?: Summery }];
export interface UpdateReply {
  success: boolean;
  line: CartLine | null;
  summery: Summery;
  warnings: string[];
}

/** Line total shown to 1 decimal, with Indian digit grouping (1,23,456.5). */
export const fmt1 = (n: number | string) => formatINR(n, 1).replace('₹', '');
/** Tax and totals shown to 2 decimals. */
export const fmt2 = (n: number | string) => formatINR(n, 2).replace('₹', '');

/** Text typed or scanned in the product entry -> the code the server looks up ('12 : Rice' -> '12'; '5*12' stays). */
export function entryCode(text: string): string {
  return text.split(':')[0]!.trim();
}

export const EMPTY_CART = 'cart is emplty!!';
export const PRODUCT_NOT_FOUND = 'product not found';
export const GENERIC_FAILURE = 'Something went wrong, please try again later.';

export function newIdempotencyKey(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return c.randomUUID();
  return `k${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}

/** A decimal typed in a quantity or discount box: any non-negative decimal (spec 000 §5). */
export const isDecimal = (s: string) => /^(\d+(\.\d*)?|\.\d+)$/.test(s.trim());
