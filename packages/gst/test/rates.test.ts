import { GST_RATES, GstError, isGstRate, isHsn, parseHsn, parseRate } from '../src';

describe('parseRate', () => {
  it('accepts every GST rate as number or string', () => {
    expect(GST_RATES).toEqual(['0', '0.1', '0.25', '1', '1.5', '3', '5', '6', '7.5', '12', '18', '28', '40']);
    for (const r of GST_RATES) {
      expect(parseRate(r).toFixed()).toBe(r);
      expect(parseRate(Number(r)).toFixed()).toBe(r);
    }
    expect(parseRate('18.00').toFixed()).toBe('18');
    expect(parseRate(' 7.50 ').toFixed()).toBe('7.5');
  });

  it.each<[string | number]>([[2], ['14'], [-18], ['0.2'], [100], ['18%'], [''], [NaN]])('refuses %p', (r) => {
    expect(() => parseRate(r)).toThrow(GstError);
    expect(isGstRate(r)).toBe(false);
  });

  it('says which rates are allowed', () => {
    expect(() => parseRate(2)).toThrow('2 % is not a GST rate (allowed: 0, 0.1, 0.25, 1, 1.5, 3, 5, 6, 7.5, 12, 18, 28, 40).');
  });
});

describe('parseHsn', () => {
  it.each(['1006', '100630', '10063010', ' 0401 '])('accepts %p', (h) => {
    expect(parseHsn(h)).toBe(h.trim());
    expect(isHsn(h)).toBe(true);
  });

  it.each(['100', '10063', '1006301', '100630101', '10A6', '', '10 06'])('refuses %p', (h) => {
    expect(() => parseHsn(h)).toThrow(/must be 4, 6 or 8 digits/);
    expect(isHsn(h)).toBe(false);
  });

  it('a number loses leading zeros, so 0401 given as 401 is refused (store HSN as text)', () => {
    expect(() => parseHsn(401)).toThrow(GstError);
    expect(parseHsn(1006)).toBe('1006');
  });
});
