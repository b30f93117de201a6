// The dashboard's arithmetic on the API's decimal strings: exact in paise, never through floats.
import type { BucketKey, CardKey } from './types';

export const CARD_KEYS: CardKey[] = ['sales', 'collections', 'newDues', 'cashInHand', 'bankBalance'];
export const BUCKET_KEYS: BucketKey[] = ['b0_30', 'b31_60', 'b61_90', 'b90'];

/** "1234.5" / "-0.75" / 12 -> paise as a bigint; anything unreadable counts as 0. */
export function toPaise(v: string | number | null | undefined): bigint {
  const s = typeof v === 'number' ? v.toFixed(2) : String(v ?? '').trim();
  const m = /^([+-])?(\d+)(?:\.(\d{0,2})\d*)?$/.exec(s);
  if (!m) return 0n;
  const paise = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] === '-' ? -paise : paise;
}

export function fromPaise(p: bigint): string {
  const neg = p < 0n;
  const a = neg ? -p : p;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

export type Trend = 'up' | 'down' | 'same';

/** Today against yesterday: the difference (today - yesterday) as a decimal string, and its sign. */
export function compare(today: string, yesterday: string): { diff: string; trend: Trend } {
  const d = toPaise(today) - toPaise(yesterday);
  return { diff: fromPaise(d < 0n ? -d : d), trend: d > 0n ? 'up' : d < 0n ? 'down' : 'same' };
}

/** Whether a rise is good news: more sales, collections and cash are; more new dues are not. */
export const riseIsGood = (key: CardKey): boolean => key !== 'newDues';

/** 2026-11-24 -> 24-11-2026 (dates stay dd-mm-yyyy in both languages). */
export function formatDate(iso: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso ?? '');
  return m ? `${m[3]}-${m[2]}-${m[1]}` : '';
}

/** 2026-11-24 -> 24-11: the 30-day chart's axis. */
export function shortDate(iso: string): string {
  return formatDate(iso).slice(0, 5);
}

/** A bar's length in percent of the longest figure (0 for none or negative). */
export function barWidth(v: string, values: string[]): number {
  const max = values.reduce((m, x) => (toPaise(x) > m ? toPaise(x) : m), 0n);
  const p = toPaise(v);
  if (max <= 0n || p <= 0n) return 0;
  return Number((p * 10000n) / max) / 100;
}

/** How often an open dashboard asks again; paused while the tab is hidden. */
export const REFRESH_MS = 30_000;
