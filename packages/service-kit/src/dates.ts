/** India keeps one offset all year (no daylight saving), so the business day is UTC+05:30. */
const INDIA_OFFSET_MS = 330 * 60_000;

const DAY_MS = 86_400_000;
/** The last day worked out and the span of instants it covers (every scan asks for today). */
let known = { from: 0, to: 0, day: '' };

/** Today's date at the shop (India), YYYY-MM-DD: the default date of sales, purchases and payments. */
export function today(now: number = Date.now()): string {
  if (now >= known.from && now < known.to) return known.day;
  const from = Math.floor((now + INDIA_OFFSET_MS) / DAY_MS) * DAY_MS - INDIA_OFFSET_MS;
  known = { from, to: from + DAY_MS, day: new Date(now + INDIA_OFFSET_MS).toISOString().slice(0, 10) };
  return known.day;
}

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isRealDate(d: unknown): d is string {
  if (typeof d !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(d)) return false;
  const t = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
}
