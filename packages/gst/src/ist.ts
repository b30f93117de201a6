import { GstError } from './errors';

/** India Standard Time is UTC+05:30 all year (no daylight saving). */
export const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

export type DateInput = Date | string | number;

export function toDate(input: DateInput): Date {
  const d = input instanceof Date ? new Date(input.getTime()) : new Date(input);
  if (Number.isNaN(d.getTime())) throw new GstError(`'${String(input)}' is not a valid date.`);
  return d;
}

/** The calendar date and time as a clock in India shows it. */
export function istParts(input: DateInput): { year: number; month: number; day: number } {
  const shifted = new Date(toDate(input).getTime() + IST_OFFSET_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** The instant of midnight IST starting the given calendar day. */
export const istMidnight = (year: number, month: number, day: number): Date => new Date(Date.UTC(year, month - 1, day) - IST_OFFSET_MS);
