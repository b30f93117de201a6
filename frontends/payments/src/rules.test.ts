import { applyLanguage, i18n } from '@bahi/i18n';
import './i18n';
import { chosenId, MSG, paymentError } from './rules';

beforeAll(async () => {
  await applyLanguage('en');
  await i18n.loadNamespaces('payments');
});

describe('payment rules', () => {
  it('needs a party', () => {
    expect(paymentError(null, '10', '2030-01-01', MSG.noCustomer)).toBe('Please Select A Customer !!');
    expect(paymentError(null, '10', '2030-01-01', MSG.noDistributor)).toBe('Select a valid Distributor from the list');
  });

  it('blocks amount 0 and bad amounts', () => {
    for (const a of ['0', '0.00', '', '  ']) expect(paymentError(1, a, '2030-01-01', MSG.noCustomer)).toBe('Amount cannot be 0 !!');
    for (const a of ['-5', 'abc', '1.005', '1e3']) expect(paymentError(1, a, '2030-01-01', MSG.noCustomer)).toBe(MSG.badAmount);
    expect(paymentError(1, '10.50', '2030-01-01', MSG.noCustomer)).toBeNull();
  });

  it('needs a next due date', () => {
    expect(paymentError(1, '10', '', MSG.noCustomer)).toBe(MSG.noDate);
  });

  it('matches listed ids', () => {
    expect(chosenId('3 : Bengal Agro', [{ id: 3 }])).toBe(3);
    expect(chosenId('4 : Other', [{ id: 3 }])).toBeNull();
    expect(chosenId('Bengal', [{ id: 3 }])).toBeNull();
  });

  it('speaks Hindi once Hindi is chosen, and English again after', async () => {
    await applyLanguage('hi');
    await i18n.loadNamespaces('payments');
    expect(paymentError(1, '0', '2030-01-01', MSG.noCustomer)).toBe('रकम 0 नहीं हो सकती !!');
    expect(paymentError(null, '10', '2030-01-01', MSG.noCustomer)).toBe('कृपया ग्राहक चुनें !!');
    await applyLanguage('en');
    expect(paymentError(1, '0', '2030-01-01', MSG.noCustomer)).toBe('Amount cannot be 0 !!');
  });
});
