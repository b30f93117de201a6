import { checkHsn, GstError, HSN_CHAPTERS, isHsnChapter, isHsnHeading } from '../src';

describe('HSN chapters and headings (HS 2022 + SAC)', () => {
  it('has the 96 goods chapters (01-97 without the reserved 77) and 99 for services', () => {
    expect(HSN_CHAPTERS).toHaveLength(97);
    expect(HSN_CHAPTERS[0]).toBe('01');
    expect(isHsnChapter('77')).toBe(false);
    expect(isHsnChapter('98')).toBe(false);
    expect(isHsnChapter('99')).toBe(true);
  });
  it('knows real headings and not gaps', () => {
    for (const h of ['0101', '0401', '1006', '3506', '4820', '7323', '8302', '8414', '8549', '9954', '9983']) expect(isHsnHeading(h)).toBe(true);
    // 0107 and 4824 do not exist; 8524 is new in HS 2022 (flat panel display modules).
    expect(isHsnHeading('0107')).toBe(false);
    expect(isHsnHeading('4824')).toBe(false);
    expect(isHsnHeading('8524')).toBe(true);
  });
});

describe('checkHsn', () => {
  it('up to Rs 5 crore: 4, 6 or 8 digits of a real heading', () => {
    expect(checkHsn(' 7323 ')).toBe('7323');
    expect(checkHsn('732393')).toBe('732393');
    expect(checkHsn('73239390')).toBe('73239390');
  });
  it('above Rs 5 crore: at least 6 digits', () => {
    expect(() => checkHsn('7323', { aatoAbove5cr: true })).toThrow("HSN code '7323' needs at least 6 digits: the company's turnover is above Rs 5 crore (Notification 78/2020-Central Tax).");
    expect(checkHsn('732393', { aatoAbove5cr: true })).toBe('732393');
  });
  it('refuses a wrong length, a chapter or a heading that does not exist, with a sentence', () => {
    expect(() => checkHsn('73')).toThrow("HSN code '73' must be 4, 6 or 8 digits.");
    expect(() => checkHsn('73239')).toThrow(GstError);
    expect(() => checkHsn('7700')).toThrow("HSN code '7700' is not in the HSN list: there is no chapter 77.");
    expect(() => checkHsn('482400')).toThrow("HSN code '482400' is not in the HSN list: chapter 48 has no heading 4824.");
    expect(() => checkHsn('0000')).toThrow(/there is no chapter 00/);
  });
});
