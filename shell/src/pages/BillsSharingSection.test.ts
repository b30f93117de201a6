import { DEFAULT_SHARE_TEMPLATES } from '@bahi/contracts';
import { billsSharingBody, billsSharingError, billsSharingOf } from './BillsSharingSection';

describe('Setting: the WhatsApp templates the company form edits (gstr2b_missing too, issue 31)', () => {
  it('reads all six templates from getCompanyDetails and sends them back under their kinds', () => {
    const s = billsSharingOf({ share_templates: DEFAULT_SHARE_TEMPLATES });
    expect(s.templates['gstr2b_missing.en']).toBe(DEFAULT_SHARE_TEMPLATES.gstr2b_missing.en);
    expect(s.templates['gstr2b_missing.hi']).toBe(DEFAULT_SHARE_TEMPLATES.gstr2b_missing.hi);
    const body = billsSharingBody({ ...s, templates: { ...s.templates, 'gstr2b_missing.hi': '' } });
    expect(body.share_templates).toEqual({ ...DEFAULT_SHARE_TEMPLATES, gstr2b_missing: { en: DEFAULT_SHARE_TEMPLATES.gstr2b_missing.en, hi: '' } });
  });

  it('an older reply without gstr2b_missing reads as empty boxes (the shipped message)', () => {
    const s = billsSharingOf({ share_templates: { document: DEFAULT_SHARE_TEMPLATES.document, reminder: DEFAULT_SHARE_TEMPLATES.reminder } });
    expect([s.templates['gstr2b_missing.en'], s.templates['gstr2b_missing.hi']]).toEqual(['', '']);
  });

  it("puts the server's sentence under the box it names", () => {
    const msg = 'share_templates.gstr2b_missing.hi has an unknown placeholder {link}; use {name} {company} {bill_no} {bill_date} {tax} {period}.';
    expect(billsSharingError(msg)).toEqual({ 'gstr2b_missing.hi': msg });
  });
});
