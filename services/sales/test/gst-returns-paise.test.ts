// The returns sum amounts as integer paise: exact, and written back without binary fractions.
import { paiseNumber, paiseOf, paiseText } from '../src/gst-returns/paise';

describe('paise', () => {
  it('reads two-decimal strings exactly', () => {
    expect(paiseOf('1500.00')).toBe(150000);
    expect(paiseOf('22.8')).toBe(2280);
    expect(paiseOf('0.05')).toBe(5);
    expect(paiseOf('7')).toBe(700);
    expect(paiseOf('-0.49')).toBe(-49);
    expect(paiseOf('-0.00')).toBe(0);
    // More decimals than paise: half-up, as the rest of Bahi rounds.
    expect(paiseOf('1.005')).toBe(101);
  });
  it('sums that would drift in binary stay exact (0.10 x 3 = 0.30; 100,000 x 1982.80)', () => {
    expect(paiseText(paiseOf('0.10') + paiseOf('0.10') + paiseOf('0.10'))).toBe('0.30');
    let p = 0;
    for (let i = 0; i < 100_000; i++) p += paiseOf('1982.80');
    expect(paiseText(p)).toBe('198280000.00');
    expect(paiseNumber(p)).toBe(198280000);
  });
  it('writes paise back as text and JSON numbers', () => {
    expect(paiseText(198280)).toBe('1982.80');
    expect(paiseText(-49)).toBe('-0.49');
    expect(paiseText(5)).toBe('0.05');
    expect(paiseNumber(198280)).toBe(1982.8);
    expect(paiseNumber(2280)).toBe(22.8);
  });
});
