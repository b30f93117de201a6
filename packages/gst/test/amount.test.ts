import { amount, Decimal, fixed2, GstError, IST_OFFSET_MS, stateByCode, toPaisa } from '../src';

describe('amount / toPaisa / fixed2 (the conventions of service-kit money.ts)', () => {
  it('reads numbers and decimal strings exactly', () => {
    expect(amount(0.1).plus(amount('0.2')).toFixed()).toBe('0.3');
    expect(amount(' 590.00 ').toFixed()).toBe('590');
    expect(amount(new Decimal('1.5')).toFixed()).toBe('1.5');
  });

  it.each<[unknown]>([[''], ['1e5'], ['12abc'], [NaN], [Infinity], [null]])('refuses %p, naming the field', (x) => {
    expect(() => amount(x as string, 'mrp of line 1')).toThrow(GstError);
    expect(() => amount(x as string, 'mrp of line 1')).toThrow(/^The mrp of line 1 is not a valid number/);
  });

  it('rounds half away from zero to the paisa', () => {
    expect(toPaisa(amount('2.345')).toFixed(2)).toBe('2.35');
    expect(toPaisa(amount('2.355')).toFixed(2)).toBe('2.36');
    expect(toPaisa(amount('-2.345')).toFixed(2)).toBe('-2.35');
    expect(toPaisa(amount('2.3449')).toFixed(2)).toBe('2.34');
  });

  it('prints two decimals and never -0.00', () => {
    expect(fixed2(amount(5))).toBe('5.00');
    expect(fixed2(amount('-0'))).toBe('0.00');
    expect(fixed2(amount('-0.00'))).toBe('0.00');
    expect(fixed2(amount('-1.5'))).toBe('-1.50');
  });
});

describe('stateByCode / IST_OFFSET_MS', () => {
  it('finds current and retired codes, nothing else', () => {
    expect(stateByCode('27')?.name).toBe('Maharashtra');
    expect(stateByCode('25')?.retired?.current).toBe('26');
    expect(stateByCode('7')).toBeUndefined();
    expect(stateByCode('40')).toBeUndefined();
  });

  it('IST is UTC + 5 h 30 min', () => {
    expect(IST_OFFSET_MS).toBe(19_800_000);
  });
});
