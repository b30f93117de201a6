// The report pages' pure rules: IST dates, quick ranges, the URL query of a report and its paging.

/** The reports the pages show, in menu order (the service's route names). */
export const REPORT_NAMES = ['daybook', 'cashbook', 'sales-register', 'purchase-register', 'stock-summary', 'profit', 'pnl', 'ageing'] as const;
/** The reports documents prints as a PDF (its ReportNames); the cash book and P&L export as CSV/XLSX. */
export const PDF_REPORTS: readonly ReportName[] = ['daybook', 'sales-register', 'purchase-register', 'stock-summary', 'profit', 'ageing'];
export type ReportName = (typeof REPORT_NAMES)[number];

/** Rows per page of a paged report (the service's page size). */
export const PAGE_SIZE = 100;

const IST_OFFSET_MS = 5.5 * 3_600_000;

/** Today in India (the service dates every record in IST), YYYY-MM-DD. */
export function istToday(now: Date = new Date()): string {
  return new Date(now.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

export function addDays(d: string, n: number): string {
  return new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export const isDate = (v: string | null | undefined): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));

export type QuickRange = 'today' | 'thisMonth' | 'lastMonth' | 'thisYear';
export const QUICK_RANGES: QuickRange[] = ['today', 'thisMonth', 'lastMonth', 'thisYear'];

/** A quick range as from/to: today; this month so far; the whole last month; this financial year (April to March) so far. */
export function quickRange(r: QuickRange, today: string): { from: string; to: string } {
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  switch (r) {
    case 'today':
      return { from: today, to: today };
    case 'thisMonth':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case 'lastMonth': {
      const first = `${today.slice(0, 7)}-01`;
      const to = addDays(first, -1);
      return { from: `${to.slice(0, 7)}-01`, to };
    }
    case 'thisYear':
      return { from: `${m >= 4 ? y : y - 1}-04-01`, to: today };
  }
}

/** The quick range a from/to is, if any (its button shows pressed). */
export function activeRange(from: string, to: string, today: string): QuickRange | null {
  return QUICK_RANGES.find((r) => {
    const q = quickRange(r, today);
    return q.from === from && q.to === to;
  }) ?? null;
}

/** A report's query from the URL: only non-empty values (the service fills the defaults). */
export function queryOf(params: URLSearchParams, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = params.get(k);
    if (v !== null && v !== '') out[k] = v;
  }
  return out;
}

/**
 * A URL query after a filter changed: empty values are dropped, and any filter change but the
 * page itself goes back to the first page.
 */
export function nextParams(current: URLSearchParams, patch: Record<string, string | null | undefined>): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || v === undefined || v === '') next.delete(k);
    else next.set(k, v);
  }
  if (!('page' in patch)) next.delete('page');
  return next;
}

/** Pages of a report: from its count when the totals carry one, else one more while pages come full. */
export function pageCount(count: number | null, page: number, rowsOnPage: number): number {
  if (count !== null) return Math.max(1, Math.ceil(count / PAGE_SIZE));
  return page + (rowsOnPage >= PAGE_SIZE ? 2 : 1);
}

/** `?a=1&b=2` of a query (document and export links), without the page. */
export function queryString(q: Record<string, string>): string {
  const s = new URLSearchParams(Object.entries(q).filter(([k, v]) => k !== 'page' && v !== '')).toString();
  return s ? `?${s}` : '';
}

/** Sums rows' decimal-string figures by a key (chart series of a page's rows), in paise to stay exact. */
export function sumBy<R>(rows: R[], key: (r: R) => string, value: (r: R) => string | number): { keys: string[]; sums: number[] } {
  const m = new Map<string, number>();
  for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0) + Math.round(Number(value(r)) * 100));
  const keys = [...m.keys()];
  return { keys, sums: keys.map((k) => m.get(k)! / 100) };
}

/** dd-mm-yyyy, as every Bahi screen shows a date. */
export function dmy(d: string | null | undefined): string {
  if (!d) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(d);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : d;
}
