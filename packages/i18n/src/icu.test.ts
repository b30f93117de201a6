import { IntlMessageFormat } from 'intl-messageformat';
import { formatIcu } from './icu';

// The runtime's ICU formatter against intl-messageformat (the reference) on the syntax it covers.
const cases: [string, Record<string, unknown>][] = [
  ['Hello {name}', { name: 'Asha' }],
  ['{count, plural, one {# item} other {# items}}', { count: 1 }],
  ['{count, plural, one {# item} other {# items}}', { count: 123456 }],
  ['{count, plural, =0 {no bills} one {one bill} other {# bills}}', { count: 0 }],
  ['{count, plural, one {# वस्तु} other {# वस्तुएँ}}', { count: 0 }],
  ['{count, plural, offset:1 =0 {nobody} one {{name} alone} other {{name} and # more}}', { count: 3, name: 'Ravi' }],
  ['{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}', { n: 22 }],
  ['{kind, select, sale {Bill} other {Note}} no. {no}', { kind: 'sale', no: 'DT/26-27/0001' }],
  ["The shop''s bill: '{'not an argument'}' and it's fine", {}],
  ["{count, plural, other {'#' is # here}}", { count: 4 }],
  ['<email>{email}</email> gets <b>{n, number}</b>', { email: 'a@b.in', n: 1234567.5 }],
  ['Rs {amount}', { amount: 10000000 }],
];

describe('ICU formatter', () => {
  it.each(cases)('%s', (msg, values) => {
    for (const locale of ['en-IN', 'hi-IN']) {
      expect(formatIcu(msg, values, locale)).toBe(String(new IntlMessageFormat(msg, locale, undefined, { ignoreTag: true }).format(values)));
    }
  });

  it('Indian grouping and Hindi plural rules', () => {
    expect(formatIcu('{count, plural, one {# item} other {# items}}', { count: 1234567 }, 'en-IN')).toBe('12,34,567 items');
    // Hindi: 0 and 1 are both "one".
    expect(formatIcu('{count, plural, one {# वस्तु} other {# वस्तुएँ}}', { count: 0 }, 'hi-IN')).toBe('0 वस्तु');
    expect(formatIcu('{count, plural, one {# वस्तु} other {# वस्तुएँ}}', { count: 2 }, 'hi-IN')).toBe('2 वस्तुएँ');
  });

  it.each(['{count, plural, one {# item}}', 'a {b', 'a } b', '{x, frobnicate}'])('refuses %s', (msg) => {
    expect(() => formatIcu(msg, { count: 1 }, 'en-IN')).toThrow();
  });
});
