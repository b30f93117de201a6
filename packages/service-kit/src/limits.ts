import { BadRequestException, type PipeTransform } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray } from 'class-validator';

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
  /** Items of any one list in a request body (each DTO bounds its own lists further). */
  maxListItems: 1000,
  /** Officers of one distributor. */
  maxOfficers: 50,
  /** Characters of a product id or barcode typed at the counter. */
  maxCodeChars: 200,
} as const;

const CONTROL = /[\u0000-\u001f\u007f]/;

/** True when a string holds a control character (NUL, newline, ...): never part of a code or name. */
export const hasControlChar = (s: string) => CONTROL.test(s);

/**
 * A list of at most `max` items. A longer one is cut to max + 1 before validation, so
 * class-validator checks 51 nested items, not all of them, before refusing.
 */
export function BoundedArray(field: string, max: number) {
  return (target: object, key: string) => {
    Transform(({ value }) => (Array.isArray(value) && value.length > max ? value.slice(0, max + 1) : value), { toClassOnly: true })(target, key);
    IsArray({ message: `${field} must be a list.` })(target, key);
    ArrayMaxSize(max, { message: `${field} can hold at most ${max} items.` })(target, key);
  };
}

/**
 * Why a parsed body may not reach the DTOs, or null: a list longer than Limits.maxListItems
 * anywhere in it. class-transformer copies every item of every list before any check runs
 * (30,000 small objects took over half a second of the event loop).
 */
export function listProblem(body: unknown, depth = 0): string | null {
  if (!body || typeof body !== 'object' || depth > 32) return null;
  if (Array.isArray(body)) {
    if (body.length > Limits.maxListItems) return `A list in the request holds ${body.length} items; at most ${Limits.maxListItems} are accepted.`;
    for (const v of body) {
      const p = listProblem(v, depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const v of Object.values(body)) {
    const p = listProblem(v, depth + 1);
    if (p) return p;
  }
  return null;
}

/** Path parameter that must be a whole number from `min` to `max` (an id's range unless told); 400 naming it otherwise. */
export function intParam(name: string, max: number = Limits.maxId, min = 1): PipeTransform<string | number, number> {
  return {
    // The global ValidationPipe may have made it a number already (transform: true).
    transform(value: string | number) {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n)) throw new BadRequestException(`${name} must be a whole number.`);
      if (n < min) throw new BadRequestException(`${name} must be at least ${min}.`);
      if (n > max) throw new BadRequestException(`${name} must be at most ${max}.`);
      return n;
    },
  };
}
