import { isRealDate, today } from '../src/dates';

describe('the business date', () => {
  it('is the date in India, not the machine’s or UTC’s', () => {
    // 19:00 UTC is 00:30 the next day in India.
    expect(today(Date.parse('2026-11-20T19:00:00Z'))).toBe('2026-11-21');
    expect(today(Date.parse('2026-11-20T18:29:59Z'))).toBe('2026-11-20');
    expect(today(Date.parse('2026-12-31T18:30:00Z'))).toBe('2027-01-01');
  });

  it('answers each instant\'s own day when asked in any order (the last day is remembered)', () => {
    const at = (iso: string) => today(Date.parse(iso));
    expect(at('2026-11-20T18:29:59.999Z')).toBe('2026-11-20');
    expect(at('2026-11-20T18:30:00Z')).toBe('2026-11-21');
    expect(at('2026-11-20T18:29:59.999Z')).toBe('2026-11-20');
    expect(at('2026-11-19T18:30:00Z')).toBe('2026-11-20');
    expect(at('2026-11-19T18:29:59.999Z')).toBe('2026-11-19');
    expect(at('1969-12-31T18:29:59Z')).toBe('1969-12-31');
    expect(at('1969-12-31T18:30:00Z')).toBe('1970-01-01');
    expect(today()).toBe(new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10));
  });

  it('accepts only real calendar dates written YYYY-MM-DD', () => {
    expect(isRealDate('2028-02-29')).toBe(true);
    expect(isRealDate('2026-02-29')).toBe(false);
    expect(isRealDate('2026-13-01')).toBe(false);
    expect(isRealDate('2026-1-01')).toBe(false);
    expect(isRealDate('2026-01-01T00:00:00Z')).toBe(false);
    expect(isRealDate(20260101)).toBe(false);
  });
});
