import { parsePayments, paymentsLabel, PaymentsError } from '../src';

describe('parsePayments (the one reading of a money call\'s payments)', () => {
  it('no payments: the whole amount is cash; 0 is no tender at all', () => {
    expect(parsePayments(undefined, '1650.00', 'paid')).toEqual([{ mode: 'cash', amount: '1650' }]);
    expect(parsePayments(null, '0', 'paid')).toEqual([]);
  });

  it('split tender 500 cash + 1,150 UPI on 1,650.00', () => {
    const out = parsePayments([{ mode: 'cash', amount: 500 }, { mode: 'upi', amount: '1150.00', ref: ' 412345678901 ' }], '1650.00', 'paid');
    expect(out).toEqual([{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1150', ref: '412345678901' }]);
    expect(paymentsLabel(out)).toBe('Cash + UPI');
    expect(paymentsLabel([])).toBe('Cash');
  });

  it('refuses a sum that differs, a bad mode, a long ref, a 0 or 3-decimal amount, with a sentence', () => {
    const refuse = (raw: unknown, total = '1650', field = 'paid') => {
      try {
        parsePayments(raw, total, field);
      } catch (err) {
        expect(err).toBeInstanceOf(PaymentsError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refuse([{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1000' }])).toBe('The payments add up to Rs 1500.00 but paid is Rs 1650.00; they must be equal.');
    expect(refuse([{ mode: 'cash', amount: '1' }], '2', 'refund')).toBe('The payments add up to Rs 1.00 but refund is Rs 2.00; they must be equal.');
    expect(refuse([{ mode: 'paytm', amount: '1650' }])).toBe('Payment 1: the mode must be one of Cash, UPI, Card, Cheque, Bank transfer (cash, upi, card, cheque, bank).');
    expect(refuse([{ mode: 'upi', amount: '1650', ref: 'x'.repeat(41) }])).toBe('Payment 1: the reference (UPI reference, cheque number) can be at most 40 characters.');
    expect(parsePayments([{ mode: 'upi', amount: '1650', ref: 'x'.repeat(40) }], '1650', 'paid')[0]!.ref).toHaveLength(40);
    expect(refuse([{ mode: 'cash', amount: '0' }, { mode: 'upi', amount: '1650' }])).toBe('Payment 1: the amount must be more than 0.');
    expect(refuse([{ mode: 'cash', amount: '1649.995' }, { mode: 'upi', amount: '0.005' }])).toBe('Payment 1: the amount can have at most 2 decimals (paise).');
    expect(refuse({ mode: 'cash' })).toBe('payments must be a list of tenders, each with mode, amount and ref.');
    expect(refuse([], '1650')).toBe('The payments add up to Rs 0.00 but paid is Rs 1650.00; they must be equal.');
  });
});
