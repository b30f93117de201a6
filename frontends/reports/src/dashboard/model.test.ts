import { barWidth, compare, formatDate, fromPaise, riseIsGood, shortDate, toPaise } from './model';

describe('dashboard arithmetic', () => {
  test('decimal strings become paise exactly and back', () => {
    expect(toPaise('1234.5')).toBe(123450n);
    expect(toPaise('-0.75')).toBe(-75n);
    expect(toPaise('10')).toBe(1000n);
    expect(toPaise('abc')).toBe(0n);
    expect(fromPaise(-5n)).toBe('-0.05');
    expect(fromPaise(123450n)).toBe('1234.50');
  });

  test('today against yesterday: the size of the difference and its direction', () => {
    // 1050.10 - 980.25 = 69.85, up
    expect(compare('1050.10', '980.25')).toEqual({ diff: '69.85', trend: 'up' });
    // 0.10 - 0.30 = -0.20: floats would say 0.19999999999999998
    expect(compare('0.10', '0.30')).toEqual({ diff: '0.20', trend: 'down' });
    expect(compare('5.00', '5.00')).toEqual({ diff: '0.00', trend: 'same' });
    expect(riseIsGood('sales')).toBe(true);
    expect(riseIsGood('newDues')).toBe(false);
  });

  test('dates read dd-mm-yyyy; the chart axis dd-mm', () => {
    expect(formatDate('2026-11-04')).toBe('04-11-2026');
    expect(shortDate('2026-11-04')).toBe('04-11');
    expect(formatDate(null)).toBe('');
  });

  test('bars are a share of the longest figure', () => {
    expect(barWidth('50.00', ['200.00', '50.00', '0.00'])).toBe(25);
    expect(barWidth('200.00', ['200.00', '50.00'])).toBe(100);
    expect(barWidth('-3.00', ['200.00', '-3.00'])).toBe(0);
    expect(barWidth('0.00', ['0.00'])).toBe(0);
  });
});
