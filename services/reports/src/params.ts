import { BadRequestException } from '@nestjs/common';
import { isRealDate, Limits, today } from '@bahi/service-kit';
import { fromPaise } from '@bahi/service-kit';

/** Paise as a rupee decimal string with two places ("1234.50"): exact, like every Bahi amount on the wire. */
export const rs = (paise: number): string => fromPaise(paise).toFixed(2);

/** The longest range a report takes (a financial year and a bit). */
export const MAX_RANGE_DAYS = 400;

export function dateParam(v: unknown, name: string, fallback: string): string {
  if (v === undefined || v === '') return fallback;
  if (!isRealDate(typeof v === 'string' ? v.trim() : v)) throw new BadRequestException(`${name} must be a date written YYYY-MM-DD.`);
  return (v as string).trim();
}

export const dayMs = 86_400_000;
export const addDays = (d: string, n: number): string => new Date(Date.parse(`${d}T00:00:00Z`) + n * dayMs).toISOString().slice(0, 10);
export const daysBetween = (a: string, b: string): number => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / dayMs);

/** from/to (IST dates, inclusive): this month so far by default; from after to, or too long a range, is a 400. */
export function rangeParams(q: Record<string, unknown>): { from: string; to: string } {
  const now = today();
  const to = dateParam(q.to, 'to', now);
  const from = dateParam(q.from, 'from', `${to.slice(0, 7)}-01`);
  if (from > to) throw new BadRequestException('from must be on or before to.');
  if (daysBetween(from, to) >= MAX_RANGE_DAYS) throw new BadRequestException(`from and to must be at most ${MAX_RANGE_DAYS} days apart.`);
  return { from, to };
}

export function optionalId(v: unknown, name: string): number | null {
  if (v === undefined || v === '') return null;
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > Limits.maxId) throw new BadRequestException(`${name} must be a positive whole number up to ${Limits.maxId}.`);
  return n;
}

export function optionalText(v: unknown, name: string): string | null {
  if (v === undefined || v === '') return null;
  if (typeof v !== 'string' || v.length > 100) throw new BadRequestException(`${name} must be text of at most 100 characters.`);
  return v.trim() || null;
}

export function oneOf<T extends string>(v: unknown, name: string, allowed: readonly T[], fallback?: T): T {
  if ((v === undefined || v === '') && fallback !== undefined) return fallback;
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v.trim())) return v.trim() as T;
  throw new BadRequestException(`${name} must be one of ${allowed.join(', ')}.`);
}

/** Zero-based page of a paged report (100 rows a page). */
export const PAGE_SIZE = 100;
export function pageParam(v: unknown, name = 'page'): number {
  if (v === undefined || v === '') return 0;
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n > Limits.maxPageNo) throw new BadRequestException(`${name} must be a whole number from 0 to ${Limits.maxPageNo}.`);
  return n;
}
