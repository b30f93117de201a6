/** QRMP on the GST page: the quarter holding a month, its months, and the query a return is asked with. */
export type GstFiling = 'monthly' | 'quarterly';

export interface FiledPeriod {
  period: string;
  kind: 'gstr1' | 'iff';
  from: string;
  to: string;
  fp: string;
  arn: string;
  filed_at: string;
}

export interface FilingState {
  gst_filing: GstFiling;
  periods: FiledPeriod[];
}

/** '2026-10' -> '2026-27-Q3' (Q1 April-June ... Q4 January-March). */
export function quarterOf(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  const start = m >= 4 ? y : y - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}-Q${Math.floor(((m + 8) % 12) / 3) + 1}`;
}

/** The quarter's three months, 'YYYY-MM'. */
export function quarterMonths(label: string): string[] {
  const start = Number(label.slice(0, 4));
  const q = Number(label.slice(-1));
  return [0, 1, 2].map((i) => {
    const m = 4 + (q - 1) * 3 + i;
    return `${m > 12 ? start + 1 : start}-${String(((m - 1) % 12) + 1).padStart(2, '0')}`;
  });
}

/** The last eight quarters up to the one holding `month`, newest first, each named by its last month (the page keeps a month). */
export function recentQuarters(month: string, count = 8): { label: string; last: string }[] {
  const out: { label: string; last: string }[] = [];
  let m = quarterMonths(quarterOf(month))[2]!;
  for (let i = 0; i < count; i++) {
    out.push({ label: quarterOf(m), last: m });
    const y = Number(m.slice(0, 4));
    const mo = Number(m.slice(5, 7)) - 3;
    m = mo < 1 ? `${y - 1}-${String(mo + 12).padStart(2, '0')}` : `${y}-${String(mo).padStart(2, '0')}`;
  }
  return out;
}

/** A return's query: a quarterly filer's month becomes its quarter (the server refuses a month for them). */
export function returnQuery(query: Record<string, string>, filing: GstFiling | null): Record<string, string> {
  if (filing !== 'quarterly' || !query.period) return query;
  const { period, ...rest } = query;
  return { ...rest, quarter: quarterOf(period) };
}

export const filedOf = (state: FilingState | null, period: string): FiledPeriod | undefined => state?.periods.find((p) => p.period === period);
