import { completingAmount, returnedPart } from '../src';

describe('a note\'s part of a line (CGST s.34; one rule for credit and debit notes)', () => {
  it('takes the line x returned / sold to the paisa, half-up', () => {
    // 100.00 for 3 pieces, 1 returned: 33.333... -> 33.33
    expect(returnedPart('100.00', '1', '3', '0', false).toFixed(2)).toBe('33.33');
    // 2 of 3: 66.666... -> 66.67
    expect(returnedPart('100.00', '2', '3', '0', false).toFixed(2)).toBe('66.67');
    // exact half a paisa rounds away from zero: 0.375 x 1/3 = 0.125 -> 0.13 (multiplied before dividing)
    expect(returnedPart('0.375', '1', '3', '0', false).toFixed(2)).toBe('0.13');
    // negative figures (a discount share) round away from zero too
    expect(returnedPart('-10.00', '1', '3', '0', false).toFixed(2)).toBe('-3.33');
  });

  it('lets the return completing the line take what earlier notes left, so the parts add up', () => {
    const first = returnedPart('100.00', '1', '3', '0', false); // 33.33
    const second = returnedPart('100.00', '1', '3', first, false); // 33.33
    const last = returnedPart('100.00', '1', '3', first.plus(second), true); // 33.34
    expect([first, second, last].map((x) => x.toFixed(2))).toEqual(['33.33', '33.33', '33.34']);
    expect(first.plus(second).plus(last).toFixed(2)).toBe('100.00');
    // a whole line at once: the line itself, to the paisa
    expect(returnedPart('99.995', '3', '3', '0', true).toFixed(2)).toBe('100.00');
  });

  it('gives 0 for a line sold at quantity 0 and reads decimal strings in every field', () => {
    expect(returnedPart('50', '1', '0', '0', false).toFixed(2)).toBe('0.00');
    expect(() => returnedPart('fifty', '1', '2', '0', false)).toThrow(/line figure is not a valid number/);
  });

  it('makes the note completing the document take the total less every earlier note', () => {
    expect(completingAmount('1180.00', ['393.33', '393.33']).toFixed(2)).toBe('393.34');
    expect(completingAmount('500.00', []).toFixed(2)).toBe('500.00');
  });
});
