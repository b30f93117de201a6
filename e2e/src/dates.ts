// Calendar days as the services count them: India Standard Time (UTC+5:30, no daylight saving).
// A test that takes the UTC date is a day behind between 18:30 and 24:00 UTC.
const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

/** Today in IST, YYYY-MM-DD. */
export const todayIST = (): string => new Date(Date.now() + IST_OFFSET_MS).toISOString().slice(0, 10);

/** The day `n` days after `day` (YYYY-MM-DD; n may be negative). */
export const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
