import { DateInput, istMidnight, istParts } from './ist';

export interface FinancialYear {
  /** 1 April 00:00 IST, inclusive. */
  start: Date;
  /** The next 1 April 00:00 IST, exclusive: query with start <= t < end. */
  end: Date;
  /** First calendar year: 2026 for 2026-27. */
  startYear: number;
  /** 'YY-YY', as in invoice numbers: '26-27'. */
  label: string;
}

const yy = (year: number): string => String(year % 100).padStart(2, '0');

/** India's financial year (1 April to 31 March) holding `date`, reckoned on the IST calendar. */
export function financialYear(date: DateInput): FinancialYear {
  const { year, month } = istParts(date);
  const startYear = month >= 4 ? year : year - 1;
  return {
    start: istMidnight(startYear, 4, 1),
    end: istMidnight(startYear + 1, 4, 1),
    startYear,
    label: `${yy(startYear)}-${yy(startYear + 1)}`,
  };
}
