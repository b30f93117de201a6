// Shapes and arithmetic the cart and the estimate editor share. The server computes every total;
// these helpers only format what it sent (spec 000 §5 display rounding).
import type { AddProductReply, CartLine, CartSummery, CartUpdateReply, CounterGstSummary, ProductSuggestion } from '@bahi/contracts';
import { i18n } from '@bahi/i18n';
import { formatINR } from '@bahi/ui-kit';

export type { CartLine };
/** The totals a screen keeps; the cart number is the screen's own. */
export type Summery = Omit<CartSummery, 'cart_no'>;
export type Suggestion = ProductSuggestion;
export type AddReply = AddProductReply;
export type UpdateReply = CartUpdateReply;

/** Line total shown to 1 decimal, with Indian digit grouping (1,23,456.5). */
export const fmt1 = (n: number | string) => formatINR(n, 1).replace('₹', '');
/** Tax and totals shown to 2 decimals. */
export const fmt2 = (n: number | string) => formatINR(n, 2).replace('₹', '');

/** Text typed or scanned in the product entry -> the code the server looks up ('12 : Rice' -> '12'; '5*12' stays). */
export function entryCode(text: string): string {
  return text.split(':')[0]!.trim();
}

// Functions, not constants: the text is read in the language active when it is shown.
export const EMPTY_CART = () => i18n.t('sales:cart.empty');
export const PRODUCT_NOT_FOUND = () => i18n.t('sales:cart.productNotFound');
export const GENERIC_FAILURE = () => i18n.t('sales:common.genericFailure');


/** A decimal typed in a quantity or discount box: any non-negative decimal (spec 000 §5). */
export const isDecimal = (s: string) => /^(\d+(\.\d*)?|\.\d+)$/.test(s.trim());

/** GST mode: why the sale is refused (the server's reason no invoice can be made yet), or null. */
export const gstRefusal = (gst: CounterGstSummary | null | undefined): string | null => gst?.error ?? null;
