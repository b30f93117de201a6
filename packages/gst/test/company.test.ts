import { GstError, TAX_MODES, validateCompanyGst } from '../src';

describe('validateCompanyGst', () => {
  it('gst mode: the state is the GSTIN\'s first two digits, the prefix in capitals', () => {
    expect(validateCompanyGst({ tax_mode: 'gst', gstin: ' 27aaacb1234c1zf ', invoice_prefix: 'gt' })).toEqual({
      tax_mode: 'gst',
      gstin: '27AAACB1234C1ZF',
      invoice_prefix: 'GT',
      state_code: '27',
    });
  });

  it('a state given alongside must agree with the GSTIN', () => {
    expect(validateCompanyGst({ tax_mode: 'composition', gstin: '27AAACB1234C1ZF', invoice_prefix: 'B1', state_code: 'Maharashtra' }).state_code).toBe('27');
    expect(() => validateCompanyGst({ tax_mode: 'gst', gstin: '27AAACB1234C1ZF', invoice_prefix: 'GT', state_code: 'GJ' })).toThrow("The state (24) must be the GSTIN's state code (27).");
  });

  it('simple mode needs nothing', () => {
    expect(validateCompanyGst({ tax_mode: 'simple' })).toEqual({ tax_mode: 'simple', gstin: null, invoice_prefix: null, state_code: null });
    expect(validateCompanyGst({ tax_mode: 'simple', state_code: 'MH' }).state_code).toBe('27');
  });

  it.each<[object, RegExp]>([
    [{ tax_mode: 'GST' }, /tax_mode must be one of simple, gst, composition; got 'GST'/],
    [{ tax_mode: 'gst', invoice_prefix: 'GT' }, /tax_mode gst needs the company's GSTIN/],
    [{ tax_mode: 'composition', gstin: '27AAACB1234C1ZF' }, /tax_mode composition needs an invoice prefix/],
    [{ tax_mode: 'gst', gstin: '27AAACB1234C1ZG', invoice_prefix: 'GT' }, /^GSTIN: The check character .* should be 'F'/],
    [{ tax_mode: 'gst', gstin: '27AAACB1234C1ZF', invoice_prefix: 'TOOLONG' }, /1 to 6 letters or digits/],
    [{ tax_mode: 'simple', gstin: 'nonsense' }, /^GSTIN: A GSTIN has 15 characters/],
  ])('refuses %p', (input, message) => {
    expect(() => validateCompanyGst(input as never)).toThrow(GstError);
    expect(() => validateCompanyGst(input as never)).toThrow(message);
  });

  it('lists the three modes', () => {
    expect(TAX_MODES).toEqual(['simple', 'gst', 'composition']);
  });
});
