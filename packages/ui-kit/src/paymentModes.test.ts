import { CASH_ONLY, paymentsBody } from './paymentModes';

describe('paymentsBody (the payments a money call sends)', () => {
  it('plain cash sends none: the spec body is unchanged', () => {
    expect(paymentsBody(CASH_ONLY, '1650')).toBeUndefined();
  });
  it('one other mode takes the whole typed amount, as typed (the server checks it)', () => {
    expect(paymentsBody([{ mode: 'upi', amount: '', ref: ' UTR1 ' }], '1650.00')).toEqual([{ mode: 'upi', amount: '1650.00', ref: 'UTR1' }]);
    expect(paymentsBody([{ mode: 'upi', amount: '', ref: '' }], '0')).toBeUndefined();
  });
  it('a split sends each typed line: 500 cash + 1,150 UPI', () => {
    expect(
      paymentsBody(
        [
          { mode: 'cash', amount: '500', ref: '' },
          { mode: 'upi', amount: '1150', ref: '4123' },
        ],
        '1650',
      ),
    ).toEqual([{ mode: 'cash', amount: '500' }, { mode: 'upi', amount: '1150', ref: '4123' }]);
  });
});
