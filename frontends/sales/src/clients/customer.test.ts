import { applyLanguage, i18n } from '@bahi/i18n';
import '../i18n';
import { chosenClientId, customerFormError, gstModeStart, newCustomerFromSearch, NEW_CUSTOMER, stateFromGstin, suggestionText } from './customer';

describe('customer form rules', () => {
  const ok = { ...NEW_CUSTOMER, name: 'Asha', mobile_no: '9876500001' };

  // The rules speak through the sales catalogue: English unless a test switches.
  beforeAll(async () => {
    await applyLanguage('en');
    await i18n.loadNamespaces('sales');
  });

  it('carries the search text into Add Customer: 10 digits as the mobile, other text as the name (issue 32)', () => {
    expect(newCustomerFromSearch('  Asha Devi ')).toEqual({ name: 'Asha Devi' });
    expect(newCustomerFromSearch('9876500001')).toEqual({ mobile_no: '9876500001' });
    expect(newCustomerFromSearch('98765')).toEqual({ name: '98765' });
    expect(newCustomerFromSearch('12 : Asha 9876500001')).toEqual({});
    expect(newCustomerFromSearch('   ')).toEqual({});
  });

  it("a valid GSTIN gives its state code; a mistyped one gives none", () => {
    expect(stateFromGstin('27AAPFU0939F1ZV')).toBe('27');
    expect(stateFromGstin('29aapfu0939f1z')).toBeNull();
    expect(stateFromGstin('27AAPFU0939F1ZX')).toBeNull();
  });

  it('has the spec defaults for a new customer', () => {
    expect(NEW_CUSTOMER).toEqual(expect.objectContaining({ city_or_district: 'Mumbai', postal_code: '1000001', state: 'MH', country: 'India', address_line_1: 'Address' }));
    expect(customerFormError(ok)).toBeNull();
  });

  it.each(['mobile_no', 'name', 'address_line_1', 'city_or_district', 'state', 'country', 'postal_code'] as const)('requires %s', (k) => {
    expect(customerFormError({ ...ok, [k]: '  ' })).toMatch(/is required/);
  });

  it('address line 2 is optional; mobile and zip numeric', () => {
    expect(customerFormError({ ...ok, address_line_2: '' })).toBeNull();
    expect(customerFormError({ ...ok, mobile_no: '98765' })).toBe('Mobile must be a 10-digit number.');
    expect(customerFormError({ ...ok, mobile_no: '98765abcde' })).toBe('Mobile must be a 10-digit number.');
    expect(customerFormError({ ...ok, postal_code: '40A' })).toBe('Zip must be numeric.');
  });

  it('in Hindi the same rules speak Hindi, with the field named in Hindi', async () => {
    await applyLanguage('hi');
    await i18n.loadNamespaces('sales');
    try {
      expect(customerFormError({ ...ok, name: ' ' })).toBe('नाम ज़रूरी है।');
      expect(customerFormError({ ...ok, mobile_no: '98765' })).toBe('मोबाइल नंबर 10 अंकों का होना चाहिए।');
      expect(customerFormError(ok)).toBeNull();
    } finally {
      await applyLanguage('en');
    }
    expect(customerFormError({ ...ok, postal_code: '40A' })).toBe('Zip must be numeric.');
  });

  it('suggestions read id : name mobile and a choice must be a listed id', () => {
    const listed = [{ client_id: 12, name: 'Asha', mobile_no: '9876500001' }];
    expect(suggestionText(listed[0]!)).toBe('12 : Asha 9876500001');
    expect(chosenClientId('12 : Asha 9876500001', listed)).toBe(12);
    expect(chosenClientId('13 : Someone', listed)).toBeNull();
    expect(chosenClientId('Asha', listed)).toBeNull();
  });
});

describe('gstModeStart (a new customer in GST mode)', () => {
  it("starts in the company's state with an empty zip, and keeps what was already typed", () => {
    expect(gstModeStart({ ...NEW_CUSTOMER }, '24')).toEqual({ ...NEW_CUSTOMER, state: '24', postal_code: '' });
    expect(gstModeStart({ ...NEW_CUSTOMER, state: 'Goa', postal_code: '403001' }, '24')).toEqual({ ...NEW_CUSTOMER, state: 'Goa', postal_code: '403001' });
  });
});
