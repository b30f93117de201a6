import { GST_STATES, GstError, isInterState, parseState, placeOfSupply, stateName, stateTaxName } from '../src';

describe('GST state list', () => {
  it('has every current code 01-38 (25 and 28 retired), 97 and 99, once each', () => {
    const codes = GST_STATES.map((s) => s.code);
    const expected = [...Array.from({ length: 38 }, (_, i) => String(i + 1).padStart(2, '0')), '97', '99'];
    expect(codes).toEqual(expected);
    expect(GST_STATES.filter((s) => s.retired).map((s) => s.code)).toEqual(['25', '28']);
  });

  it('has no short form or name that points at two states', () => {
    const seen = new Map<string, string>();
    for (const s of GST_STATES) {
      for (const k of [s.name, ...s.short, ...(s.aliases ?? [])]) {
        const key = k.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]/g, '');
        expect(seen.get(key) ?? s.code).toBe(s.code);
        seen.set(key, s.code);
      }
    }
  });
});

describe('parseState', () => {
  it.each<[string | number, string]>([
    ['27', '27'],
    [27, '27'],
    ['7', '07'],
    [' 07 ', '07'],
    ['Maharashtra', '27'],
    ['  maharashtra ', '27'],
    ['MAHA RASHTRA', '27'],
    ['MH', '27'],
    ['mh', '27'],
    ['Gujarat', '24'],
    ['GJ', '24'],
    ['Jammu & Kashmir', '01'],
    ['jammu and kashmir', '01'],
    ['Ladakh', '38'],
    ['Andhra Pradesh', '37'],
    ['AP', '37'],
    ['Telangana', '36'],
    ['TS', '36'],
    ['TG', '36'],
    ['Orissa', '21'],
    ['OD', '21'],
    ['Pondicherry', '34'],
    ['Uttaranchal', '05'],
    ['Dadra & Nagar Haveli and Daman & Diu', '26'],
    ['Other Territory', '97'],
    ['99', '99'],
    // Daman and Diu (25) merged into 26 on 26 January 2020: old entries are stored as 26.
    ['25', '26'],
    ['Daman and Diu', '26'],
    ['DD', '26'],
  ])('%p -> %s', (input, code) => {
    expect(parseState(input)).toBe(code);
  });

  it.each(['', 'Bombay', 'XX', '40', '00', '100', 'Mahara'])('refuses %p with a sentence', (input) => {
    expect(() => parseState(input)).toThrow(GstError);
    expect(() => parseState(input)).toThrow(/is not an Indian state or union territory/);
  });

  it('refuses 28, which has no single successor', () => {
    expect(() => parseState('28')).toThrow(/use 37 \(Andhra Pradesh\) or 36 \(Telangana\)/);
  });
});

describe('stateName / stateTaxName', () => {
  it('shows the name for a stored code', () => {
    expect(stateName('27')).toBe('Maharashtra');
    expect(stateName('26')).toBe('Dadra and Nagar Haveli and Daman and Diu');
    expect(stateName('97')).toBe('Other Territory');
    expect(() => stateName('40')).toThrow(GstError);
  });

  it('names the state half UTGST in union territories without a legislature, SGST elsewhere', () => {
    for (const code of ['04', '26', '31', '35', '38', '97']) expect(stateTaxName(code)).toBe('UTGST');
    // Delhi, Puducherry and Jammu and Kashmir have legislatures and their own SGST Acts.
    for (const code of ['07', '34', '01', '27', '24']) expect(stateTaxName(code)).toBe('SGST');
    expect(() => stateTaxName('40')).toThrow(GstError);
  });
});

describe('placeOfSupply', () => {
  it("takes the customer's GSTIN state first, even when another state is recorded", () => {
    expect(placeOfSupply({ customerGstin: '24AAGCS5678K1ZT', customerState: 'Maharashtra', companyState: '27' })).toBe('24');
  });

  it("else the customer's recorded state, in any accepted form", () => {
    expect(placeOfSupply({ customerState: 'GJ', companyState: '27' })).toBe('24');
    expect(placeOfSupply({ customerGstin: '', customerState: 'gujarat', companyState: 'MH' })).toBe('24');
  });

  it("else the company's state (a walk-in at the counter)", () => {
    expect(placeOfSupply({ companyState: 'Maharashtra' })).toBe('27');
    expect(placeOfSupply({ customerGstin: null, customerState: null, companyState: '27' })).toBe('27');
    expect(placeOfSupply({ customerGstin: '  ', customerState: ' ', companyState: 27 })).toBe('27');
  });

  it('refuses a bad customer GSTIN instead of falling back', () => {
    expect(() => placeOfSupply({ customerGstin: '24AAGCS5678K1ZX', companyState: '27' })).toThrow(/Customer GSTIN: .*should be 'T'/);
  });

  it('isInterState compares codes after reading both', () => {
    expect(isInterState('24', 'MH')).toBe(true);
    expect(isInterState('27', 'Maharashtra')).toBe(false);
  });
});
