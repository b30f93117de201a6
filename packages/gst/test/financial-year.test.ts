import { financialYear, GstError, istParts } from '../src';

const DAY = 24 * 60 * 60 * 1000;

describe('financialYear (1 April to 31 March, on the IST calendar)', () => {
  it('31 March 23:59:59 IST (18:29:59Z) is still the old year; midnight IST (18:30:00Z) starts the new one', () => {
    const last = financialYear('2027-03-31T18:29:59Z');
    expect(last.label).toBe('26-27');
    expect(last.startYear).toBe(2026);
    // 1 April 2026 00:00 IST = 31 March 2026 18:30 UTC
    expect(last.start.toISOString()).toBe('2026-03-31T18:30:00.000Z');
    expect(last.end.toISOString()).toBe('2027-03-31T18:30:00.000Z');

    const first = financialYear('2027-03-31T18:30:00Z');
    expect(first.label).toBe('27-28');
    expect(first.start.toISOString()).toBe('2027-03-31T18:30:00.000Z');
    // exactly the previous year's (exclusive) end
    expect(first.start.getTime()).toBe(last.end.getTime());
  });

  it('a UTC date of 1 April can still be 1 April in India and so the new year; 31 March 20:00Z is 1 April 01:30 IST', () => {
    expect(financialYear('2026-04-01T00:00:00Z').label).toBe('26-27');
    expect(financialYear('2026-03-31T20:00:00Z').label).toBe('26-27');
    expect(financialYear('2026-03-31T12:00:00Z').label).toBe('25-26');
  });

  it('January to March belong to the year that began the April before', () => {
    expect(financialYear('2027-01-15T06:00:00Z').label).toBe('26-27');
    expect(financialYear('2026-12-31T18:29:59Z').label).toBe('26-27');
  });

  it('a year holding 29 February has 366 days, others 365', () => {
    // FY 27-28 runs to 31 March 2028 and so holds 29 February 2028
    const leap = financialYear('2028-02-29T12:00:00Z');
    expect(leap.label).toBe('27-28');
    expect((leap.end.getTime() - leap.start.getTime()) / DAY).toBe(366);
    const plain = financialYear('2026-06-01T00:00:00Z');
    expect((plain.end.getTime() - plain.start.getTime()) / DAY).toBe(365);
    // 2024 (FY 23-24) likewise
    expect((financialYear('2024-02-29T00:00:00Z').end.getTime() - financialYear('2024-02-29T00:00:00Z').start.getTime()) / DAY).toBe(366);
  });

  it('29 February 18:30Z is already 1 March in India', () => {
    expect(istParts('2028-02-29T18:29:59Z')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(istParts('2028-02-29T18:30:00Z')).toEqual({ year: 2028, month: 3, day: 1 });
  });

  it('labels across a century: 2099-2100 is 99-00', () => {
    expect(financialYear('2099-06-01T00:00:00Z').label).toBe('99-00');
    expect(financialYear('2100-01-15T00:00:00Z').label).toBe('99-00');
    expect(financialYear('2100-04-01T00:00:00Z').label).toBe('00-01');
  });

  it('takes a Date, an ISO string or epoch milliseconds; refuses a non-date', () => {
    const t = Date.parse('2026-11-24T05:00:00Z');
    expect(financialYear(new Date(t)).label).toBe('26-27');
    expect(financialYear(t).label).toBe('26-27');
    expect(() => financialYear('not a date')).toThrow(GstError);
    expect(() => financialYear('not a date')).toThrow("'not a date' is not a valid date.");
  });
});
