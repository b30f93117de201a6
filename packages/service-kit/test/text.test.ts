import { BIDI_CONTROL, stripBidi, stripBidiDeep } from '../src/text';

// Every bidi embedding, override and isolate: LRE RLE PDF LRO RLO, LRI RLI FSI PDI.
const CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];

describe('bidi controls in names and addresses', () => {
  it('strips each of U+202A-202E and U+2066-2069, wherever it stands', () => {
    for (const c of CONTROLS) {
      expect(stripBidi(`${c}Ramesh${c} Gupta${c}`)).toBe('Ramesh Gupta');
      expect(BIDI_CONTROL.test(c)).toBe(true);
    }
    // The attack of the issue: an override that reverses the rest of the bill line.
    expect(stripBidi('Ramesh \u202Egnp.exe\u202C Traders')).toBe('Ramesh gnp.exe Traders');
  });

  it('keeps every other character: Devanagari with its joiners, Urdu with its marks, emoji, LRM/RLM/ALM', () => {
    for (const s of ['रमेश गुप्ता', 'क्‍ष ज्ञ', 'محمد علی\u200F', '\u061C١٢٣', 'A\u200EB', 'Café Noël', '🙂 Shop', 'श्री\u200D']) {
      expect(stripBidi(s)).toBe(s);
    }
  });

  it('cleans every string of a body in place, nested objects and lists too, but never a password', () => {
    const body = {
      name: '\u202ERamesh',
      address_line_1: '12 \u2067MG\u2069 Road',
      officers: [{ name: 'A\u202Dsha', mobile_no: '9876543210' }],
      lines: ['x\u202By', 3, null, true],
      password: 'pass\u202Eword',
      new_password: 'n\u2066ew',
      nested: { deep: { deeper: 'd\u202Ceep' } },
    };
    expect(stripBidiDeep(body)).toBe(body);
    expect(body).toEqual({
      name: 'Ramesh',
      address_line_1: '12 MG Road',
      officers: [{ name: 'Asha', mobile_no: '9876543210' }],
      lines: ['xy', 3, null, true],
      password: 'pass\u202Eword',
      new_password: 'n\u2066ew',
      nested: { deep: { deeper: 'deep' } },
    });
    expect(stripBidiDeep('\u202Eabc')).toBe('abc');
    expect(stripBidiDeep(undefined)).toBeUndefined();
  });
});
