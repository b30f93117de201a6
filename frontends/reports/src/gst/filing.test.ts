import { quarterMonths, quarterOf, recentQuarters, returnQuery } from './filing';

describe('QRMP quarters on the GST page', () => {
  it('names the financial-year quarter of a month and its months', () => {
    expect(['2026-04', '2026-06', '2026-07', '2026-10', '2026-12', '2027-01', '2027-03'].map(quarterOf)).toEqual([
      '2026-27-Q1', '2026-27-Q1', '2026-27-Q2', '2026-27-Q3', '2026-27-Q3', '2026-27-Q4', '2026-27-Q4',
    ]);
    expect(quarterMonths('2026-27-Q4')).toEqual(['2027-01', '2027-02', '2027-03']);
    expect(quarterMonths('2026-27-Q1')).toEqual(['2026-04', '2026-05', '2026-06']);
  });

  it('lists recent quarters newest first, across a year end', () => {
    expect(recentQuarters('2027-02', 3)).toEqual([
      { label: '2026-27-Q4', last: '2027-03' },
      { label: '2026-27-Q3', last: '2026-12' },
      { label: '2026-27-Q2', last: '2026-09' },
    ]);
  });

  it("asks a quarterly filer's returns by quarter and a monthly filer's by month", () => {
    expect(returnQuery({ period: '2026-11', format: 'csv', section: 'b2b' }, 'quarterly')).toEqual({ quarter: '2026-27-Q3', format: 'csv', section: 'b2b' });
    expect(returnQuery({ period: '2026-11' }, 'monthly')).toEqual({ period: '2026-11' });
    expect(returnQuery({ period: '2026-11' }, null)).toEqual({ period: '2026-11' });
  });
});
