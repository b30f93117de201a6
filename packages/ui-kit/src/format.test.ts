import { formatINR, todayISO } from './format';

describe('formatINR', () => {
  it.each([
    [123456, '₹1,23,456.00'],
    ['123456', '₹1,23,456.00'],
    [0, '₹0.00'],
    [999, '₹999.00'],
    [1000, '₹1,000.00'],
    [100000, '₹1,00,000.00'],
    [12345678.9, '₹1,23,45,678.90'],
    ['1.005', '₹1.01'],
    [1.005, '₹1.01'],
    ['999.995', '₹1,000.00'],
    ['-1234.565', '-₹1,234.57'],
    ['-0.001', '₹0.00'],
    ['12,345.5', '₹12,345.50'],
    [null, '₹0.00'],
  ])('%p -> %p', (input, expected) => {
    expect(formatINR(input as number | string | null)).toBe(expected);
  });

  it('leaves text that is not a number as it is', () => {
    expect(formatINR('abc')).toBe('abc');
  });
});

describe('todayISO', () => {
  it("is the browser's calendar day, not the UTC one", () => {
    expect(todayISO(new Date(2030, 0, 5))).toBe('2030-01-05');
    // 00:30 local on 1 April (IST: 19:00 UTC on 31 March): the new financial year's first day.
    expect(todayISO(new Date(2031, 3, 1, 0, 30))).toBe('2031-04-01');
  });
});
