import { BadRequestException } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { Decimal, Limits, money } from '@bahi/service-kit';

/** Rows per page of every paged list of this service. */
export const PAGE_SIZE = 10;

export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const pages = (count: number) => Math.max(1, Math.ceil(count / PAGE_SIZE));

/** Zero-based page number from a query value; anything else is a 400. */
export function pageNo(value: unknown): number {
  if (value === undefined || value === null || value === '') return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new BadRequestException('pageNo must be a whole number, 0 or more.');
  // 1e308 is an integer to JS but a skip MongoDB refuses (500); no list has a million pages.
  if (n > Limits.maxPageNo) throw new BadRequestException(`pageNo must be at most ${Limits.maxPageNo}.`);
  return n;
}

/** Parses an amount field; at most `places` decimals; optional sign check. Throws a 400 naming the field. */
export function decimalField(field: string, value: unknown, places: number, opts: { min?: number; allowNegative?: boolean; max?: number } = {}): Decimal {
  if (typeof value === 'string' && value.length > Limits.maxNumberChars) {
    throw new BadRequestException(`${field} must be a number of at most ${Limits.maxNumberChars} characters.`);
  }
  let d: Decimal;
  try {
    if (value === null || value === undefined || value === '' || typeof value === 'boolean') throw new Error();
    d = money(value as string | number);
  } catch {
    throw new BadRequestException(`${field} must be a number.`);
  }
  if (d.decimalPlaces() > places) throw new BadRequestException(`${field} can have at most ${places} decimal places.`);
  if (!opts.allowNegative && d.isNegative()) throw new BadRequestException(`${field} cannot be negative.`);
  if (opts.min !== undefined && d.lessThan(opts.min)) throw new BadRequestException(`${field} must be more than ${opts.min}.`);
  if (opts.max !== undefined && d.abs().greaterThan(opts.max)) {
    throw new BadRequestException(`${field} must be at most ${opts.max}${opts.allowNegative ? ' either way' : ''}.`);
  }
  return d;
}

// Money is stored as integer paise and quantities as integer thousandths: exact, and the
// database can sum and compare them.
export const toPaise = (d: Decimal) => d.times(100).toNumber();
export const toMilli = (d: Decimal) => d.times(1000).toNumber();
export const paiseStr = (p: number) => new Decimal(p).dividedBy(100).toFixed(2);
export const milliStr = (m: number) => new Decimal(m).dividedBy(1000).toFixed();

export function parseMoney(field: string, value: unknown): number {
  return toPaise(decimalField(field, value, 2, { max: Limits.maxAmount }));
}
export function parseQty(field: string, value: unknown, opts: { allowNegative?: boolean; positive?: boolean } = {}): number {
  const d = decimalField(field, value, 3, { allowNegative: opts.allowNegative, max: Limits.maxQuantity });
  if (opts.positive && !d.greaterThan(0)) throw new BadRequestException(`${field} must be more than 0.`);
  return toMilli(d);
}

/** Low (0): stock <= min_stock; High (2): stock >= default_stock; On (1): in between. */
export function stockLevel(stockM: number, minM: number, defM: number): 0 | 1 | 2 {
  if (stockM <= minM) return 0;
  if (stockM >= defM) return 2;
  return 1;
}

/** Tax percent as typed (18) -> stored multiplier ("1.18"). */
export function taxMultiplier(percent: unknown): string {
  const d = decimalField('tax', percent, 2);
  if (d.greaterThan(100)) throw new BadRequestException('tax must be a percent between 0 and 100.');
  return d.dividedBy(100).plus(1).toFixed();
}
export const taxPercent = (multiplier: string) => new Decimal(multiplier).times(100).minus(100).toFixed();

export function intParam(field: string, value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > Limits.maxId) throw new BadRequestException(`${field} must be a positive whole number up to ${Limits.maxId}.`);
  return n;
}
