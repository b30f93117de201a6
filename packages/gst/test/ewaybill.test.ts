import { ewbDate, isEwbNo, isIndia, isPincode, partyPincodeError, isTransporterId, isVehicleNo, normaliseBillNo, normaliseVehicleNo } from '../src';

describe('e-way bill formats', () => {
  it('accepts the portal vehicle number formats and refuses others', () => {
    for (const v of ['MH12AB1234', 'mh 12 ab 1234', 'DL1C1234', 'KA011234', 'TMAB1234', '22BH1234AB', 'DF12345'])
      expect([v, isVehicleNo(v)]).toEqual([v, true]);
    for (const v of ['', 'MH12AB123', '12MH1234', 'MH12ABCD1234', 'TRUCK', 'MH-12-AB-12345'])
      expect([v, isVehicleNo(v)]).toEqual([v, false]);
    expect(normaliseVehicleNo('mh-12 ab 1234')).toBe('MH12AB1234');
  });

  it('checks transporter ids, e-way bill numbers, PINs and dates', () => {
    expect(isTransporterId('27AAPFU0939F1ZV')).toBe(true);
    expect(isTransporterId('27AAPFU0939F1Z')).toBe(false);
    expect(isEwbNo('123456789012')).toBe(true);
    expect(isEwbNo('12345678901')).toBe(false);
    expect(isPincode('411001')).toBe(true);
    expect(isPincode('011001')).toBe(false);
    expect(isPincode('41100')).toBe(false);
    expect(ewbDate('2026-11-05')).toBe('05/11/2026');
  });

  it('a party in India needs a PIN in GST and composition mode, not in simple mode nor abroad', () => {
    for (const c of ['India', ' india ', 'IN', 'Bharat', 'भारत', '']) expect([c, isIndia(c)]).toEqual([c, true]);
    for (const c of ['UAE', 'Nepal', 'Indonesia']) expect([c, isIndia(c)]).toEqual([c, false]);
    expect(partyPincodeError('customer', 'gst', { country: 'India', postal_code: '411001' })).toBeNull();
    expect(partyPincodeError('customer', 'gst', { country: 'India', postal_code: '41100' })).toBe(
      "postal_code must be a 6-digit PIN code not starting with 0 (e.g. 411001): a customer in India needs one in GST mode, for e-way bills; '41100' is not one.",
    );
    expect(partyPincodeError('distributor', 'composition', { country: 'IN', postal_code: '011001' })).toMatch(/: a distributor in India needs one in GST mode/);
    expect(partyPincodeError('customer', 'simple', { country: 'India', postal_code: '1' })).toBeNull();
    expect(partyPincodeError('customer', undefined, { country: 'India', postal_code: '1' })).toBeNull();
    expect(partyPincodeError('distributor', 'gst', { country: 'UAE', postal_code: '12345' })).toBeNull();
  });

  it('normalises supplier bill numbers: case, spaces, leading zeros, / and -', () => {
    expect(normaliseBillNo('inv/007')).toBe('INV7');
    expect(normaliseBillNo('INV-7')).toBe('INV7');
    expect(normaliseBillNo(' Inv 0007 ')).toBe('INV7');
    expect(normaliseBillNo('GST/26-27/0042')).toBe('GST262742');
    expect(normaliseBillNo('0')).toBe('0');
    expect(normaliseBillNo('A10')).not.toBe(normaliseBillNo('A1'));
  });
});
