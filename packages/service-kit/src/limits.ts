/**
 * Upper bounds of request values every service applies (README "Request limits"). Whatever
 * the spec leaves open is bounded here, so no single request can store or compute something
 * absurd: an id past what staff type, a page past any list, a rupee amount past any shop.
 */
export const Limits = {
  /** Every user-visible id (product, sale, customer, sl_no, ...): a signed 32-bit integer. */
  maxId: 2_147_483_647,
  /** The carts one user keeps at the counter (cart_no 1..maxCartNo); the shell uses 1 and 2. */
  maxCartNo: 20,
  /** Zero-based page numbers. */
  maxPageNo: 1_000_000,
  /** Rupee amounts (price, paid, discount, shipping): 10,000 crore. */
  maxAmount: 100_000_000_000,
  /** Quantities and stock counts, in the product's unit. */
  maxQuantity: 1_000_000_000,
  /** Characters of a decimal number as typed. */
  maxNumberChars: 30,
  /** Officers of one distributor. */
  maxOfficers: 50,
  /** Characters of a product id or barcode typed at the counter. */
  maxCodeChars: 200,
} as const;

const CONTROL = /[\u0000-\u001f\u007f]/;

/** True when a string holds a control character (NUL, newline, ...): never part of a code or name. */
export const hasControlChar = (s: string) => CONTROL.test(s);
