import { apportion, Decimal, netOfDiscount, roundOff } from '../src';

const d = (xs: (string | number)[]): Decimal[] => xs.map((x) => new Decimal(x));
const s = (xs: Decimal[]): string[] => xs.map((x) => x.toFixed(2));

describe('apportion', () => {
  it('splits exactly when the proportions are exact', () => {
    // 10 over 1 : 4 -> 2.00 and 8.00
    expect(s(apportion(new Decimal(10), d([1, 4])))).toEqual(['2.00', '8.00']);
  });

  it('gives the leftover paisa to the largest weight', () => {
    // 1.00 over 1 : 2 -> 0.3333 -> 0.33 and 0.6666 -> 0.67; sum 1.00, nothing left
    expect(s(apportion(new Decimal(1), d([1, 2])))).toEqual(['0.33', '0.67']);
    // 1.00 over 2 : 1 : 1 -> 0.50, 0.25, 0.25
    expect(s(apportion(new Decimal(1), d([2, 1, 1])))).toEqual(['0.50', '0.25', '0.25']);
    // 0.10 over 1 : 1 : 5 : 1 -> 0.0125 -> 0.01, 0.01, 0.0625 -> 0.06, 0.01 = 0.09; 0.01 left to the 5
    expect(s(apportion(new Decimal('0.1'), d([1, 1, 5, 1])))).toEqual(['0.01', '0.01', '0.07', '0.01']);
  });

  it('on a tie for largest, the first of them gets it', () => {
    // 1.00 / 3 = 0.33 each, 0.01 left -> line 1
    expect(s(apportion(new Decimal(1), d([7, 7, 7])))).toEqual(['0.34', '0.33', '0.33']);
    // 0.01 over 1 : 3 : 3 -> 0.0014 -> 0.00, 0.0043 -> 0.00 twice; the 0.01 goes to line 2
    expect(s(apportion(new Decimal('0.01'), d([1, 3, 3])))).toEqual(['0.00', '0.01', '0.00']);
  });

  it('takes a paisa back when half-up rounding overshoots', () => {
    // 0.01 over 1 : 1 -> 0.005 -> 0.01 each = 0.02; -0.01 left -> line 1
    expect(s(apportion(new Decimal('0.01'), d([1, 1])))).toEqual(['0.00', '0.01']);
  });

  it('negative totals give negative shares, rounded half away from zero', () => {
    // -1.00 / 3 = -0.3333 -> -0.33 each, -0.01 left -> line 1
    expect(s(apportion(new Decimal(-1), d([1, 1, 1])))).toEqual(['-0.34', '-0.33', '-0.33']);
    // -0.01 over 1 : 1 -> -0.005 -> -0.01 each = -0.02; +0.01 left -> line 1
    expect(s(apportion(new Decimal('-0.01'), d([1, 1])))).toEqual(['0.00', '-0.01']);
  });

  it('all weights zero: the whole total to the first line; no lines: nothing', () => {
    expect(s(apportion(new Decimal(5), d([0, 0])))).toEqual(['5.00', '0.00']);
    expect(apportion(new Decimal(5), [])).toEqual([]);
  });

  it('always adds up to the total', () => {
    const weights = d(['1500', '190', '0.01', '333.33', '12.5']);
    for (const total of ['100', '-99.99', '0.07', '1234.56']) {
      const shares = apportion(new Decimal(total), weights);
      expect(shares.reduce((a, x) => a.plus(x), new Decimal(0)).toFixed(2)).toBe(new Decimal(total).toFixed(2));
    }
  });
});

describe('roundOff (CGST Act s.170)', () => {
  it.each<[string | number, string, string]>([
    ['1982.80', '0.20', '1983.00'],
    ['100.50', '0.50', '101.00'],
    ['100.49', '-0.49', '100.00'],
    ['100.01', '-0.01', '100.00'],
    [100, '0.00', '100.00'],
    ['0', '0.00', '0.00'],
    [0.5, '0.50', '1.00'],
    ['99999.49', '-0.49', '99999.00'],
  ])('%p -> round off %s, value %s', (exact, off, value) => {
    expect(roundOff(exact)).toMatchObject({ roundOff: off, value });
  });

  it('a total finer than paise is first rounded to the paisa, so exact + round off = value', () => {
    // 99999.495 -> 99999.50 -> 100000.00, round off +0.50 (rounding 99999.495 straight to rupees would give 99999)
    expect(roundOff('99999.495')).toEqual({ exact: '99999.50', roundOff: '0.50', value: '100000.00' });
  });
});

describe('netOfDiscount (profit value)', () => {
  it('takes the summary discount off the lines by their values', () => {
    // 2,000.00 and 1,000.00 with 300.00 off: 200.00 and 100.00 -> 1,800.00 and 900.00
    expect(s(netOfDiscount(['2000', '1000'], '300'))).toEqual(['1800.00', '900.00']);
    // 100.00 off 3 equal lines of 50.00: 33.33 each, the paisa left to line 1 -> 16.66, 16.67, 16.67
    expect(s(netOfDiscount(['50', '50', '50'], '100'))).toEqual(['16.66', '16.67', '16.67']);
  });

  it('no discount leaves the values (to the paisa)', () => {
    expect(s(netOfDiscount(['2000.004', '10'], '0'))).toEqual(['2000.00', '10.00']);
  });
});
