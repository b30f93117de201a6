import { money } from '../money';

/** The business date (YYYY-MM-DD, IST) of an instant. */
export function istDate(at: Date): string {
  return new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

/** An exact decimal string of a stored amount (string or number); '0' when absent. */
export function dec(v: unknown): string {
  if (v === null || v === undefined || v === '') return '0';
  return money(v as string).toFixed();
}

/** As dec, but null stays null (a field the record may not have). */
export function decOrNull(v: unknown): string | null {
  return v === null || v === undefined || v === '' ? null : dec(v);
}
