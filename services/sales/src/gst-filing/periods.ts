import { BadRequestException } from '@nestjs/common';
import type { GstFiling } from '@bahi/contracts';
import { parsePeriod, type ReturnPeriod } from '../gst-returns/period';

/**
 * Return periods of a filer: a month ('2026-10', a monthly filer's GSTR-1 or a quarterly filer's
 * IFF) or a financial-year quarter ('2026-27-Q3': Q1 April-June ... Q4 January-March; its `fp`
 * is its last month, as the portal's quarterly return period is written).
 */
export const QUARTER = /^(\d{4})-(\d{2})-Q([1-4])$/;

export interface FilingPeriod extends ReturnPeriod {
  /** 'gstr1' for a month or a quarter, 'iff' for the first two months of a quarterly filer's quarter. */
  kind: 'gstr1' | 'iff';
  /** '2026-10' or '2026-27-Q3'. */
  label: string;
}

/** The quarter's three months, 'YYYY-MM'. */
function quarterMonths(startYear: number, q: number): string[] {
  return [0, 1, 2].map((i) => {
    const m = 4 + (q - 1) * 3 + i; // April = 4; Q4 runs into the next calendar year
    const year = m > 12 ? startYear + 1 : startYear;
    return `${year}-${String(((m - 1) % 12) + 1).padStart(2, '0')}`;
  });
}

/** '2026-27-Q3' -> the quarter as one period over its three months' days; 400 with a sentence otherwise. */
export function parseQuarter(raw: unknown): ReturnPeriod & { months: string[] } {
  const example = 'quarter=2026-27-Q3 (Q1 April-June, Q2 July-September, Q3 October-December, Q4 January-March)';
  if (typeof raw !== 'string' || !raw.trim()) throw new BadRequestException(`Give the quarter as ${example}.`);
  const m = QUARTER.exec(raw.trim());
  if (!m) throw new BadRequestException(`'${raw.slice(0, 20)}' is not a quarter: give it as ${example}.`);
  const startYear = Number(m[1]);
  if (Number(m[2]) !== (startYear + 1) % 100) throw new BadRequestException(`'${raw.trim()}' is not a financial year: ${startYear}-${String((startYear + 1) % 100).padStart(2, '0')} follows ${startYear}.`);
  const months = quarterMonths(startYear, Number(m[3]));
  const parts = months.map((p) => parsePeriod(p));
  const last = parts[2]!;
  return {
    period: raw.trim(),
    fp: last.fp,
    fy: parts[0]!.fy,
    from: parts[0]!.from,
    to: last.to,
    days: parts.flatMap((p) => p.days),
    months,
  };
}

/** The label of the quarter holding a month ('2026-10' -> '2026-27-Q3') and the month's place in it (0, 1, 2). */
export function quarterOf(month: string): { label: string; index: number } {
  const y = Number(month.slice(0, 4));
  const mo = Number(month.slice(5, 7));
  const startYear = mo >= 4 ? y : y - 1;
  const fromApril = (mo + 12 - 4) % 12; // 0 for April
  return { label: `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}-Q${Math.floor(fromApril / 3) + 1}`, index: fromApril % 3 };
}

/** The period label a filer files a date's return under: the month, or for a quarterly filer the quarter. */
export function returnLabelOf(date: string, filing: GstFiling): string {
  return filing === 'quarterly' ? quarterOf(date.slice(0, 7)).label : date.slice(0, 7);
}

/** The next period label after one, in the filer's frequency. */
export function nextLabel(label: string): string {
  const q = QUARTER.exec(label);
  if (q) {
    const startYear = Number(q[1]);
    const n = Number(q[3]);
    return n === 4 ? `${startYear + 1}-${String((startYear + 2) % 100).padStart(2, '0')}-Q1` : `${startYear}-${q[2]}-Q${n + 1}`;
  }
  const y = Number(label.slice(0, 4));
  const mo = Number(label.slice(5, 7));
  return mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`;
}

/**
 * What `period` names for a filer, for marking it filed: a monthly filer's month is its GSTR-1;
 * a quarterly filer's quarter label its GSTR-1 and the first two months of a quarter their IFF.
 * 400 with a sentence for anything else.
 */
export function filingPeriod(raw: unknown, filing: GstFiling): FilingPeriod {
  if (typeof raw === 'string' && QUARTER.test(raw.trim())) {
    if (filing !== 'quarterly') throw new BadRequestException(`This company files GSTR-1 every month: give the month (YYYY-MM), not a quarter. A quarterly filer (QRMP) chooses it in Setting.`);
    const q = parseQuarter(raw);
    return { ...q, kind: 'gstr1', label: q.period };
  }
  if (typeof raw !== 'string' || !/^\d{4}-\d{2}$/.test(raw.trim())) {
    throw new BadRequestException(
      filing === 'quarterly'
        ? `Give the return period as a quarter (2026-27-Q3) or, for an IFF, one of the first two months of a quarter (2026-10).`
        : `Give the return period as YYYY-MM, e.g. 2026-10.`,
    );
  }
  const p = parsePeriod(raw);
  if (filing === 'quarterly') {
    assertIffMonth(p.period);
    return { ...p, kind: 'iff', label: p.period };
  }
  return { ...p, kind: 'gstr1', label: p.period };
}

/** An IFF is for the first two months of a quarter: the third month's invoices go in the quarter's GSTR-1. */
export function assertIffMonth(month: string): void {
  const { label, index } = quarterOf(month);
  if (index === 2) throw new BadRequestException(`${monthName(month)} is the last month of quarter ${label}: its invoices go in the quarter's GSTR-1 (quarter=${label}), there is no IFF for it.`);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const monthName = (month: string): string => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
/** 'October 2026' or 'quarter 2026-27-Q3'. */
export const periodName = (label: string): string => (QUARTER.test(label) ? `quarter ${label}` : monthName(label));
