import { GstError, parseRates, rateOn } from '../src';

// The 22 September 2025 changes moved many goods from 12 % to 5 %.
const SEPT = [
  { rate: '12', from: '2017-07-01' },
  { rate: '5', from: '2025-09-22' },
];

describe('rateOn', () => {
  it('takes the last step starting on or before the day', () => {
    expect(rateOn(SEPT, '2017-07-01')).toBe('12');
    expect(rateOn(SEPT, '2025-09-21')).toBe('12');
    expect(rateOn(SEPT, '2025-09-22')).toBe('5');
    expect(rateOn(SEPT, '2026-11-28')).toBe('5');
  });

  it('has no rate before the first step', () => {
    expect(rateOn(SEPT, '2017-06-30')).toBeNull();
    expect(rateOn([], '2025-01-01')).toBeNull();
  });

  it('refuses a day that is not YYYY-MM-DD', () => {
    expect(() => rateOn(SEPT, '2025-02-30')).toThrow(GstError);
    expect(() => rateOn(SEPT, '22/09/2025')).toThrow("'22/09/2025' is not a date written YYYY-MM-DD.");
  });
});

describe('parseRates', () => {
  const today = '2026-11-28';

  it('reads numbers or strings and writes rates as the rate list does', () => {
    expect(parseRates([{ rate: 12, from: '2017-07-01' }, { rate: '5.00', from: '2025-09-22' }], today)).toEqual(SEPT);
    expect(parseRates([{ rate: 18, from: '2026-11-28' }], today)).toEqual([{ rate: '18', from: '2026-11-28' }]);
  });

  it('allows a known change after today when a rate is in force today', () => {
    expect(parseRates([{ rate: 28, from: '2020-01-01' }, { rate: 40, from: '2027-04-01' }], today)).toEqual([
      { rate: '28', from: '2020-01-01' },
      { rate: '40', from: '2027-04-01' },
    ]);
  });

  it.each<[unknown, string]>([
    [undefined, 'rates must be a list of { rate, from } steps.'],
    [{ rate: 5, from: '2025-09-22' }, 'rates must be a list of { rate, from } steps.'],
    [[], 'rates needs at least one { rate, from } step.'],
    [[5], 'Rate step 1 must be { rate, from }.'],
    [[{ rate: 5, from: '2025-09-22', note: 'x' }], 'Rate step 1 has an unknown field: note.'],
    [[{ from: '2025-09-22' }], 'Rate step 1 needs a rate.'],
    [[{ rate: true, from: '2025-09-22' }], 'Rate step 1: the rate must be a number.'],
    [[{ rate: 14, from: '2025-09-22' }], 'Rate step 1: 14 % is not a GST rate (allowed: 0, 0.1, 0.25, 1, 1.5, 3, 5, 6, 7.5, 12, 18, 28, 40).'],
    [[{ rate: 5, from: '22-09-2025' }], 'Rate step 1: from must be a real date written YYYY-MM-DD.'],
    [[{ rate: 5, from: '2025-02-29' }], 'Rate step 1: from must be a real date written YYYY-MM-DD.'],
    [[{ rate: 5, from: '2017-06-30' }], 'Rate step 1: GST began on 2017-07-01; no rate can start on 2017-06-30.'],
    [[{ rate: 12, from: '2025-09-22' }, { rate: 5, from: '2025-09-22' }], 'Rate step 2 starts on 2025-09-22, not after the step before it (2025-09-22); list the steps in date order.'],
    [[{ rate: 12, from: '2025-09-22' }, { rate: 5, from: '2020-01-01' }], 'Rate step 2 starts on 2020-01-01, not after the step before it (2025-09-22); list the steps in date order.'],
    [[{ rate: 12, from: '2017-07-01' }, { rate: '12.0', from: '2025-09-22' }], 'Rate step 2 repeats the rate of the step before it (12 %); leave it out.'],
    [[{ rate: 5, from: '2026-12-01' }], 'The first rate starts on 2026-12-01, after today (2026-11-28): a product needs a rate in force today.'],
    [Array.from({ length: 25 }, (_, i) => ({ rate: i % 2 ? 5 : 12, from: `${2000 + i}-01-01` })), 'rates can hold at most 24 steps.'],
  ])('refuses %j with a sentence', (input, message) => {
    expect(() => parseRates(input, today)).toThrow(new GstError(message));
  });
});
