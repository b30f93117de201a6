import { GstError, gstinCheckChar, validateGstin } from '../src';

/*
 * GSTN check character, Luhn mod 36. Values: '0'-'9' = 0-9, 'A' = 10 ... 'Z' = 35. Factors 1, 2, 1, 2 ...
 * from the left; each product p adds floor(p/36) + p mod 36; check = (36 - sum mod 36) mod 36.
 *
 * Worked computation 1: 27AAPFU0939F1Z? (the GST portal's documentation example, 27AAPFU0939F1ZV)
 *   chars    2  7  A  A  P  F  U  0  9  3  9  F  1  Z
 *   values   2  7 10 10 25 15 30  0  9  3  9 15  1 35
 *   x factor 2 14 10 20 25 30 30  0  9  6  9 30  1 70
 *   digits   2 14 10 20 25 30 30  0  9  6  9 30  1 35   (70 = 1x36 + 34 -> 1 + 34 = 35)
 *   sum = 221; 221 mod 36 = 5; 36 - 5 = 31 = 'V'.
 *
 * Worked computation 2: 24AAGCS5678K1Z? (a Gujarat buyer used in the invoice tests)
 *   chars    2  4  A  A  G  C  S  5  6  7  8  K  1  Z
 *   values   2  4 10 10 16 12 28  5  6  7  8 20  1 35
 *   x factor 2  8 10 20 16 24 28 10  6 14  8 40  1 70
 *   digits   2  8 10 20 16 24 28 10  6 14  8  5  1 35   (40 -> 1 + 4 = 5; 70 -> 1 + 34 = 35)
 *   sum = 187; 187 mod 36 = 7; 36 - 7 = 29 = 'T'.
 *
 * Worked computation 3 (the Maharashtra seller): 27AAACB1234C1Z?
 *   values 2 7 10 10 10 12 11 1 2 3 4 12 1 35 -> digits 2 14 10 20 10 24 11 2 2 6 4 24 1 35
 *   sum = 165; 165 mod 36 = 21; 36 - 21 = 15 = 'F'.
 */
describe('gstinCheckChar', () => {
  it.each([
    ['27AAPFU0939F1Z', 'V'],
    ['24AAGCS5678K1Z', 'T'],
    ['27AAACB1234C1Z', 'F'],
  ])('%s -> %s (worked above)', (first14, check) => {
    expect(gstinCheckChar(first14)).toBe(check);
  });

  it('gives 0 when the sum is already a multiple of 36 (the final "mod 36")', () => {
    // 00000000000000: every value 0, sum 0, (36 - 0) mod 36 = 0.
    expect(gstinCheckChar('00000000000000')).toBe('0');
    // 10000000000000: '1' x 1 = 1 -> sum 1 -> 35 = 'Z'.
    expect(gstinCheckChar('10000000000000')).toBe('Z');
    // 01000000000000: '1' x 2 = 2 -> sum 2 -> 34 = 'Y'.
    expect(gstinCheckChar('01000000000000')).toBe('Y');
    // Z at an even (x2) position: 35 x 2 = 70 -> 1 + 34 = 35 -> 36 - 35 = 1.
    expect(gstinCheckChar('0Z000000000000')).toBe('1');
  });

  it('accepts lower case and refuses anything but 14 letters/digits', () => {
    expect(gstinCheckChar('27aapfu0939f1z')).toBe('V');
    expect(() => gstinCheckChar('27AAPFU0939F1')).toThrow(GstError);
    expect(() => gstinCheckChar('27AAPFU0939F1-')).toThrow(/14 letters or digits/);
  });
});

describe('validateGstin', () => {
  it.each([
    ['27AAPFU0939F1ZV', '27', 'AAPFU0939F'],
    ['24AAGCS5678K1ZT', '24', 'AAGCS5678K'],
    ['27AAACB1234C1ZF', '27', 'AAACB1234C'],
    ['29AAGCB7383J1Z4', '29', 'AAGCB7383J'],
  ])('accepts %s (state %s, PAN %s)', (gstin, stateCode, pan) => {
    expect(validateGstin(gstin)).toEqual({ ok: true, gstin, stateCode, pan });
  });

  it('tolerates spaces around and lower case, returning the canonical form', () => {
    expect(validateGstin('  27aapfu0939f1zv ')).toEqual({ ok: true, gstin: '27AAPFU0939F1ZV', stateCode: '27', pan: 'AAPFU0939F' });
  });

  it('accepts an entity letter (the 10th+ registration of a PAN in a state)', () => {
    // 27AAPFU0939FAZ?: as worked computation 1 but position 13 is 'A' (10) instead of '1' (1), factor 1:
    // sum 221 - 1 + 10 = 230; 230 mod 36 = 14; 36 - 14 = 22 = 'M'.
    expect(gstinCheckChar('27AAPFU0939FAZ')).toBe('M');
    expect(validateGstin('27AAPFU0939FAZM')).toMatchObject({ ok: true, stateCode: '27' });
  });

  it.each<[string, string, RegExp]>([
    ['27AAPFU0939F1Z', 'length', /15 characters.*has 14/],
    ['27AAPFU0939F1ZVX', 'length', /has 16/],
    ['', 'length', /has 0/],
    ['2XAAPFU0939F1ZV', 'state', /two-digit state code/],
    ['40AAPFU0939F1ZV', 'state', /40 is not a GST state code/],
    ['00AAPFU0939F1ZV', 'state', /00 is not a GST state code/],
    ['25AAPFU0939F1ZV', 'state', /25 merged into 26/],
    ['28AAPFU0939F1ZV', 'state', /28 was Andhra Pradesh before the 2014 division/],
    ['27AAPF10939F1ZV', 'pan', /PAN \(5 letters, 4 digits, 1 letter\); 'AAPF10939F'/],
    ['27AAPFU093AF1ZV', 'pan', /PAN/],
    ['27AAPFU093991ZV', 'pan', /PAN/],
    ['27AAPFU0939F0ZV', 'entity', /13th character .* it is '0'/],
    ['27AAPFU0939F-ZV', 'entity', /13th/],
    ['27AAPFU0939F1YV', 'z', /14th character must be Z; it is 'Y'/],
    ['27AAPFU0939F1ZW', 'check', /should be 'V', not 'W'/],
    // One mistyped PAN digit (0939 -> 0930): the check no longer matches.
    ['27AAPFU0930F1ZV', 'check', /for 27AAPFU0930F1Z it should be/],
  ])('%s is wrong in part %s', (gstin, part, message) => {
    const r = validateGstin(gstin);
    expect(r).toMatchObject({ ok: false, part });
    expect(r.ok ? '' : r.message).toMatch(message);
  });

  it('names the right check character for a mistyped one', () => {
    // 27AAPFU0930F1Z: as computation 1 with the 11th character 9 -> 0 (factor 1): sum 221 - 9 = 212;
    // 212 mod 36 = 32; 36 - 32 = 4 -> '4'.
    const r = validateGstin('27AAPFU0930F1ZV');
    expect(r.ok ? '' : r.message).toMatch(/should be '4', not 'V'/);
    expect(validateGstin('27AAPFU0930F1Z4').ok).toBe(true);
  });

  it('accepts the special codes 97 (Other Territory) and 99 (Centre Jurisdiction) and 26 (merged DNH and DD)', () => {
    for (const code of ['97', '99', '26', '38', '01']) {
      const first14 = `${code}AAPFU0939F1Z`;
      expect(validateGstin(first14 + gstinCheckChar(first14))).toMatchObject({ ok: true, stateCode: code });
    }
  });
});
