import { chosenClientId, customerFormError, NEW_CUSTOMER, suggestionText } from './customer';

describe('customer form rules', () => {
  const ok = { ...NEW_CUSTOMER, name: 'Asha', mobile_no: '9876500001' };

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

  it('suggestions read id : name mobile and a choice must be a listed id', () => {
    const listed = [{ client_id: 12, name: 'Asha', mobile_no: '9876500001' }];
    expect(suggestionText(listed[0]!)).toBe('12 : Asha 9876500001');
    expect(chosenClientId('12 : Asha 9876500001', listed)).toBe(12);
    expect(chosenClientId('13 : Someone', listed)).toBeNull();
    expect(chosenClientId('Asha', listed)).toBeNull();
  });
});
