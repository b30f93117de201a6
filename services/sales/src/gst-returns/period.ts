import { BadRequestException } from '@nestjs/common';
import { financialYear, fp, GstError } from '@bahi/gst';

/** A return period (a calendar month on the IST calendar) and how sales are queried for it. */
export interface ReturnPeriod {
  /** 'YYYY-MM' as asked. */
  period: string;
  /** MMYYYY, GSTR-1's fp and GSTR-3B's ret_period. */
  fp: string;
  /** The financial year label ('26-27'), the invoice series the month belongs to. */
  fy: string;
  /** First and last invoice dates of the month, YYYY-MM-DD (sales freeze the IST date). */
  from: string;
  to: string;
  /** Every date of the month: queried with $in, an exact index lookup (a range would not narrow the index walk). */
  days: string[];
}

export function parsePeriod(raw: unknown): ReturnPeriod {
  if (typeof raw !== 'string' || !raw.trim()) throw new BadRequestException('Give the return period as period=YYYY-MM, e.g. period=2026-04.');
  let code: string;
  try {
    code = fp(raw);
  } catch (err) {
    if (err instanceof GstError) throw new BadRequestException(`${err.message} Give the return period as period=YYYY-MM.`);
    throw err;
  }
  const year = Number(code.slice(2));
  const month = Number(code.slice(0, 2));
  if (year < 2017 || (year === 2017 && month < 7)) throw new BadRequestException('GST began on 1 July 2017: give a period from 2017-07.');
  const mm = String(month).padStart(2, '0');
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return {
    period: `${year}-${mm}`,
    fp: code,
    fy: financialYear(`${year}-${mm}-15T12:00:00+05:30`).label,
    from: `${year}-${mm}-01`,
    to: `${year}-${mm}-${String(lastDay).padStart(2, '0')}`,
    days: Array.from({ length: lastDay }, (_, i) => `${year}-${mm}-${String(i + 1).padStart(2, '0')}`),
  };
}
