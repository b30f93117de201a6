import { applyLanguage, i18n } from '@bahi/i18n';
import './i18n';
import { distributorFormError, labelPages, NEW_DISTRIBUTOR, packetsQuery } from './distributor';

beforeAll(async () => {
  await applyLanguage('en');
  await i18n.loadNamespaces('purchase');
});

describe('distributor form rules', () => {
  it('defaults to Kolkata, 700001, WB, India', () => {
    expect(NEW_DISTRIBUTOR).toMatchObject({ city_or_district: 'Kolkata', postal_code: '700001', state: 'WB', country: 'India' });
  });
  it('requires every field but address line 2, and a numeric zip', () => {
    const ok = { ...NEW_DISTRIBUTOR, name: 'Gupta Wholesale', address_line_1: '7 Burrabazar' };
    expect(distributorFormError(ok)).toBeNull();
    expect(distributorFormError({ ...ok, name: ' ' })).toBe('Name is required.');
    expect(distributorFormError({ ...ok, address_line_1: '' })).toBe('Address line 1 is required.');
    expect(distributorFormError({ ...ok, city_or_district: '' })).toBe('City is required.');
    expect(distributorFormError({ ...ok, state: '' })).toBe('State is required.');
    expect(distributorFormError({ ...ok, country: '' })).toBe('Country is required.');
    expect(distributorFormError({ ...ok, postal_code: '' })).toBe('Zip is required.');
    expect(distributorFormError({ ...ok, postal_code: '70000A' })).toBe('Zip must be numeric.');
    expect(distributorFormError({ ...ok, address_line_2: '' })).toBeNull();
  });
  it('names the missing field in Hindi once Hindi is chosen', async () => {
    const ok = { ...NEW_DISTRIBUTOR, name: 'Gupta Wholesale', address_line_1: '7 Burrabazar' };
    await applyLanguage('hi');
    await i18n.loadNamespaces('purchase');
    expect(distributorFormError({ ...ok, city_or_district: '' })).toBe('शहर ज़रूरी है।');
    expect(distributorFormError({ ...ok, postal_code: '70000A' })).toBe('पिन कोड में सिर्फ़ अंक हों।');
    await applyLanguage('en');
    expect(distributorFormError({ ...ok, city_or_district: '' })).toBe('City is required.');
  });
});

describe('purchase labels', () => {
  it('writes packets per product and counts pages of 40', () => {
    expect(packetsQuery({ 12: '5', 13: '0', 14: '2.7' })).toBe('12:5,13:0,14:2');
    expect(labelPages({ 12: '40', 13: '1' })).toEqual({ labels: 41, pages: 2 });
    expect(labelPages({ 12: '-3' })).toEqual({ labels: 0, pages: 0 });
  });
});
