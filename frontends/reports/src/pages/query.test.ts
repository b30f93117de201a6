import { activeRange, istToday, nextParams, pageCount, queryOf, queryString, quickRange, sumBy } from './query';

describe('report page rules', () => {
  it('takes today in India, not UTC: 20:00 UTC on 31 March is already 1 April in IST', () => {
    expect(istToday(new Date('2026-03-31T20:00:00Z'))).toBe('2026-04-01');
    expect(istToday(new Date('2026-03-31T18:29:00Z'))).toBe('2026-03-31');
  });

  it('makes the quick ranges: today, this month so far, the whole last month, the financial year from April', () => {
    expect(quickRange('today', '2026-11-24')).toEqual({ from: '2026-11-24', to: '2026-11-24' });
    expect(quickRange('thisMonth', '2026-11-24')).toEqual({ from: '2026-11-01', to: '2026-11-24' });
    expect(quickRange('lastMonth', '2026-03-15')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(quickRange('lastMonth', '2026-01-05')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    // January to March belong to the year that began the April before.
    expect(quickRange('thisYear', '2026-02-10')).toEqual({ from: '2025-04-01', to: '2026-02-10' });
    expect(quickRange('thisYear', '2026-04-01')).toEqual({ from: '2026-04-01', to: '2026-04-01' });
    expect(activeRange('2026-11-01', '2026-11-24', '2026-11-24')).toBe('thisMonth');
    expect(activeRange('2026-11-02', '2026-11-24', '2026-11-24')).toBeNull();
  });

  it('keeps only chosen filters in the URL, and a filter change goes back to the first page', () => {
    const p = new URLSearchParams('from=2026-11-01&to=2026-11-24&clientId=7&page=3');
    expect(queryOf(p, ['from', 'to', 'clientId', 'page'])).toEqual({ from: '2026-11-01', to: '2026-11-24', clientId: '7', page: '3' });
    expect(nextParams(p, { clientId: null }).toString()).toBe('from=2026-11-01&to=2026-11-24');
    expect(nextParams(p, { page: '4' }).toString()).toBe('from=2026-11-01&to=2026-11-24&clientId=7&page=4');
    expect(queryString({ from: '2026-11-01', page: '2', brand: 'A & B' })).toBe('?from=2026-11-01&brand=A+%26+B');
  });

  it('counts pages from the totals, or one more while pages come full', () => {
    expect(pageCount(0, 0, 0)).toBe(1);
    expect(pageCount(250, 0, 100)).toBe(3);
    expect(pageCount(null, 0, 100)).toBe(2);
    expect(pageCount(null, 2, 40)).toBe(3);
  });

  it('sums decimal strings by key in paise: 0.10 + 0.20 is 0.30, not 0.30000000000000004', () => {
    const rows = [
      { d: '2026-11-01', v: '0.10' },
      { d: '2026-11-01', v: '0.20' },
      { d: '2026-11-02', v: '1234.55' },
    ];
    expect(sumBy(rows, (r) => r.d, (r) => r.v)).toEqual({ keys: ['2026-11-01', '2026-11-02'], sums: [0.3, 1234.55] });
  });
});
