import { financialYear, formatInvoiceNo, GstError, maxInvoiceSerial, parseInvoiceNo, parseInvoicePrefix } from '../src';

describe('formatInvoiceNo (CGST Rule 46(b): at most 16 characters, letters, digits, - and /)', () => {
  it('PREFIX/YY-YY/NNNN, padded to 4 digits', () => {
    expect(formatInvoiceNo('GT', '26-27', 1)).toBe('GT/26-27/0001');
    expect(formatInvoiceNo('gt', financialYear('2026-11-24T05:00:00Z'), 42)).toBe('GT/26-27/0042');
    expect(formatInvoiceNo('A1', '99-00', 9999)).toBe('A1/99-00/9999');
  });

  it('uses more digits when needed, up to 16 characters', () => {
    // 'GT' + '/26-27/' = 9 characters, 7 left for the serial
    expect(formatInvoiceNo('GT', '26-27', 12345)).toBe('GT/26-27/12345');
    expect(formatInvoiceNo('GT', '26-27', 9_999_999)).toBe('GT/26-27/9999999');
    expect(formatInvoiceNo('GT', '26-27', 9_999_999)).toHaveLength(16);
    expect(() => formatInvoiceNo('GT', '26-27', 10_000_000)).toThrow(/GT\/26-27\/10000000 has 17 characters; GST allows at most 16 .* ends at 9999999/);
  });

  it('a 5-character prefix fits 4 digits; a 6-character one only 3 (6 + 7 + 3 = 16)', () => {
    expect(formatInvoiceNo('ABCDE', '26-27', 9999)).toBe('ABCDE/26-27/9999');
    expect(() => formatInvoiceNo('ABCDE', '26-27', 10_000)).toThrow(/ends at 9999; use a shorter prefix/);
    expect(formatInvoiceNo('ABCDEF', '26-27', 1)).toBe('ABCDEF/26-27/001');
    expect(formatInvoiceNo('ABCDEF', '26-27', 999)).toBe('ABCDEF/26-27/999');
    expect(() => formatInvoiceNo('ABCDEF', '26-27', 1000)).toThrow(GstError);
  });

  it('maxInvoiceSerial = 10^(16 - 7 - prefix length) - 1', () => {
    expect(maxInvoiceSerial('A')).toBe(99_999_999);
    expect(maxInvoiceSerial('GT')).toBe(9_999_999);
    expect(maxInvoiceSerial('ABCDE')).toBe(9999);
    expect(maxInvoiceSerial('ABCDEF')).toBe(999);
  });

  it.each<[string, string, number, RegExp]>([
    ['', '26-27', 1, /prefix '' must be 1 to 6 letters or digits/],
    ['ABCDEFG', '26-27', 1, /1 to 6 letters or digits/],
    ['GT-1', '26-27', 1, /1 to 6 letters or digits/],
    ['G T', '26-27', 1, /1 to 6 letters or digits/],
    ['GT', '26-28', 1, /'26-28' is not a financial year label/],
    ['GT', '2026-27', 1, /not a financial year label/],
    ['GT', '26-27', 0, /from 1; got 0/],
    ['GT', '26-27', -1, /from 1/],
    ['GT', '26-27', 1.5, /whole number/],
    ['GT', '26-27', NaN, /whole number/],
  ])('refuses prefix %p, year %p, serial %p', (prefix, fy, n, message) => {
    expect(() => formatInvoiceNo(prefix, fy, n)).toThrow(message);
  });

  it('parseInvoicePrefix stores capitals', () => {
    expect(parseInvoicePrefix(' gt2 ')).toBe('GT2');
  });
});

describe('parseInvoiceNo', () => {
  it('reads back what formatInvoiceNo writes', () => {
    for (const [p, fy, n] of [['GT', '26-27', 1], ['ABCDEF', '99-00', 999], ['A', '30-31', 12_345_678]] as const) {
      expect(parseInvoiceNo(formatInvoiceNo(p, fy, n))).toEqual({ ok: true, prefix: p, fy, n });
    }
  });

  it('tolerates case and spaces', () => {
    expect(parseInvoiceNo(' gt/26-27/0042 ')).toEqual({ ok: true, prefix: 'GT', fy: '26-27', n: 42 });
  });

  it.each<[string, RegExp]>([
    ['GT-26-27-0001', /not an invoice number like GT\/26-27\/0001/],
    ['GT/2026-27/0001', /not an invoice number/],
    ['ABCDEFG/26-27/1', /not an invoice number/],
    ['GT/26-27/', /not an invoice number/],
    ['GT/26-28/0001', /'26-28' is not a financial year/],
    ['GT/26-27/0000', /must be 1 or more/],
    ['GT/26-27/12345678', /longer than 16 characters/],
  ])('refuses %p', (s, message) => {
    const r = parseInvoiceNo(s);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toMatch(message);
  });
});
