/**
 * Which backups to keep: among good (verified) backups, the newest of each of the last 7 days,
 * of each of the last 4 ISO weeks and of each of the last 12 months, on India's calendar. A
 * backup that failed its verification never counts; it is dropped once older than 7 days.
 */
import { IST_OFFSET_MS, istParts } from '@bahi/gst';

export interface RetentionItem {
  name: string;
  at: Date | string;
  good: boolean;
}

const DAY_MS = 86_400_000;

const dayKey = (t: number) => {
  const p = istParts(t);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
};
const monthKey = (t: number) => dayKey(t).slice(0, 7);

/** ISO 8601 week of the IST calendar day holding `t`, as `YYYY-Www` (the week's Thursday decides the year). */
export function isoWeekKey(t: number): string {
  const d = new Date(t + IST_OFFSET_MS);
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const weekday = (day.getUTCDay() + 6) % 7; // Monday 0 .. Sunday 6
  const thursday = new Date(day.getTime() + (3 - weekday) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

export function retention(items: readonly RetentionItem[], now: Date): { keep: string[]; drop: string[] } {
  const n = now.getTime();
  const days = new Set(Array.from({ length: 7 }, (_, i) => dayKey(n - i * DAY_MS)));
  const weeks = new Set(Array.from({ length: 4 }, (_, i) => isoWeekKey(n - i * 7 * DAY_MS)));
  const months = new Set<string>();
  const p = istParts(n);
  for (let i = 0; i < 12; i++) {
    const total = p.year * 12 + p.month - 1 - i;
    months.add(`${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`);
  }
  const sorted = [...items]
    .map((x) => ({ ...x, t: new Date(x.at).getTime() }))
    .sort((a, b) => b.t - a.t || b.name.localeCompare(a.name));
  const keep = new Set<string>();
  const taken = new Set<string>();
  const claim = (bucket: string, key: string, set: Set<string>, name: string) => {
    if (!set.has(key) || taken.has(`${bucket}:${key}`)) return;
    taken.add(`${bucket}:${key}`);
    keep.add(name);
  };
  for (const x of sorted) {
    if (!x.good) {
      if (n - x.t < 7 * DAY_MS) keep.add(x.name);
      continue;
    }
    claim('d', dayKey(x.t), days, x.name);
    claim('w', isoWeekKey(x.t), weeks, x.name);
    claim('m', monthKey(x.t), months, x.name);
  }
  return {
    keep: sorted.filter((x) => keep.has(x.name)).map((x) => x.name),
    drop: sorted.filter((x) => !keep.has(x.name)).map((x) => x.name),
  };
}
