import { applyLanguage, i18n } from '@bahi/i18n';
import { describeGstin, describeState, STATE_CHOICES } from './gstFields';

describe('GST form helpers', () => {
  // The hints are the ui catalogue's (English here, as a fresh browser starts).
  beforeAll(async () => {
    await applyLanguage('en');
    await i18n.loadNamespaces('ui');
  });

  it('reads a state typed as code, name or short form', () => {
    expect(describeState('27')).toBe('Maharashtra (27)');
    expect(describeState('mh')).toBe('Maharashtra (27)');
    expect(describeState('West Bengal')).toBe('West Bengal (19)');
    expect(describeState('Dubai')).toBeNull();
    expect(describeState('  ')).toBeNull();
  });

  it('lists current states only, by name', () => {
    const codes = STATE_CHOICES.map((s) => s.code);
    expect(codes).toContain('27');
    expect(codes).not.toContain('25');
    expect(codes).not.toContain('28');
    expect(codes).not.toContain('99');
    expect(STATE_CHOICES.find((s) => s.code === '24')).toEqual({ code: '24', name: 'Gujarat', short: 'GJ' });
  });

  it('hints at a GSTIN as typed: counts, then its state or what is wrong', () => {
    expect(describeGstin('')).toBeNull();
    expect(describeGstin('27AAPFU')).toEqual({ ok: false, text: '7 of 15 characters' });
    expect(describeGstin('27AAPFU0939F1ZV')).toEqual({ ok: true, text: 'Registered in Maharashtra (27)' });
    expect(describeGstin('27AAPFU0939F1ZW')).toEqual({ ok: false, text: expect.stringMatching(/should be 'V'/) });
  });

  it('words the hints in Hindi when the screen is Hindi (digits stay Latin)', async () => {
    await applyLanguage('hi');
    try {
      await i18n.loadNamespaces('ui');
      expect(describeGstin('27AAPFU')).toEqual({ ok: false, text: '15 में से 7 अक्षर' });
      expect(describeGstin('27AAPFU0939F1ZV')).toEqual({ ok: true, text: 'Maharashtra (27) में पंजीकृत' });
    } finally {
      await applyLanguage('en');
    }
  });
});
