import { GstError } from './errors';
import { HSN_HEADINGS_BY_CHAPTER } from './hsn-headings';

const HEADINGS = new Set(Object.entries(HSN_HEADINGS_BY_CHAPTER).flatMap(([ch, hs]) => hs.split(' ').map((h) => `${ch}${h}`)));

/** The 2-digit HSN chapters (HS 2022 01-97 without the reserved 77, and 99 for services). */
export const HSN_CHAPTERS: readonly string[] = Object.keys(HSN_HEADINGS_BY_CHAPTER).sort();
export const isHsnChapter = (code: string): boolean => Object.prototype.hasOwnProperty.call(HSN_HEADINGS_BY_CHAPTER, code);
export const isHsnHeading = (code: string): boolean => HEADINGS.has(code);

export interface HsnRuleOptions {
  /** The company's aggregate turnover in the preceding year was above Rs 5 crore (identity's `aato_above_5cr`). */
  aatoAbove5cr?: boolean;
}

/**
 * An HSN code as a GST-registered company must give it: 4, 6 or 8 digits, at least 4 up to
 * Rs 5 crore of aggregate turnover and at least 6 above (Notification 78/2020-Central Tax), of a
 * chapter and 4-digit heading that exist. Returns the trimmed code; throws GstError with a sentence.
 */
export function checkHsn(input: string | number, opts: HsnRuleOptions = {}): string {
  const hsn = String(input ?? '').trim();
  if (!/^(\d{4}|\d{6}|\d{8})$/.test(hsn)) throw new GstError(`HSN code '${hsn}' must be 4, 6 or 8 digits.`);
  if (opts.aatoAbove5cr && hsn.length < 6) {
    throw new GstError(`HSN code '${hsn}' needs at least 6 digits: the company's turnover is above Rs 5 crore (Notification 78/2020-Central Tax).`);
  }
  if (!isHsnChapter(hsn.slice(0, 2))) throw new GstError(`HSN code '${hsn}' is not in the HSN list: there is no chapter ${hsn.slice(0, 2)}.`);
  if (!isHsnHeading(hsn.slice(0, 4))) throw new GstError(`HSN code '${hsn}' is not in the HSN list: chapter ${hsn.slice(0, 2)} has no heading ${hsn.slice(0, 4)}.`);
  return hsn;
}
