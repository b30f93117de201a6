import { BadRequestException, HttpException } from '@nestjs/common';
import { plainToInstance, Transform } from 'class-transformer';
import { Max, validate } from 'class-validator';
import { isRealDate, Limits, validationException } from '@bahi/service-kit';

/** Rows per page of every ledger list (the specs leave page size open). */
export const PAGE_SIZE = 10;

/** Trims strings; leaves anything else for the validators to refuse. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
/** Numbers typed into a text box arrive as numbers or strings; keep them as trimmed strings. */
export const DigitsString = () =>
  Transform(({ value }) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.replace(/[\s-]/g, '') : value));

/** A state as text, trimmed; a whole number is a GST state code (27 -> '27'). */
export const StateText = () =>
  Transform(({ value }) => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : value));

/** Indian mobile: 10 digits, optionally written with +91 / 91. */
export const MOBILE = /^(?:\+?91)?\d{10}$/;
export const tenDigits = (mobile: string): string => mobile.slice(-10);

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export { today } from '@bahi/service-kit';

/** A real calendar date as YYYY-MM-DD (accepts a full ISO timestamp and keeps its date part). */
export function isCalendarDate(value: unknown): value is string {
  return typeof value === 'string' && isRealDate(value.slice(0, 10));
}

/** A query parameter that must be a positive integer id; 400 naming it otherwise. */
export function idParam(value: unknown, name: string): number {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : typeof value === 'number' ? value : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > Limits.maxId) throw new BadRequestException(`${name} must be a positive whole number up to ${Limits.maxId}.`);
  return n;
}

/** The zero-based pageNo query parameter (missing -> 0). */
export function pageParam(value: unknown): number {
  if (value === undefined || value === '') return 0;
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new BadRequestException('pageNo must be a whole number, 0 or more.');
  if (n > Limits.maxPageNo) throw new BadRequestException(`pageNo must be at most ${Limits.maxPageNo}.`);
  return n;
}

/** Upper bound of an id field of a body (past it a 400 naming the field). */
export const MaxId = (field: string) => Max(Limits.maxId, { message: `${field} must be at most ${Limits.maxId}.` });

/**
 * Validates a body against a DTO class and answers failures in the body the spec prescribes
 * (e.g. {done:false, err}) with a 400, instead of the generic validation shape.
 */
export async function validBody<T extends object>(cls: new () => T, body: unknown, fail: (msg: string) => HttpException): Promise<T> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw fail('The request body must be a JSON object.');
  const dto = plainToInstance(cls, body);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) throw fail(String((validationException(errors).getResponse() as { message: string }).message));
  return dto;
}

/** Turns an HttpException into the spec's failure body with the same status. */
export function specFailure(status: number, body: Record<string, unknown>): HttpException {
  return new HttpException(body, status);
}
