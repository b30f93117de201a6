import { BadRequestException } from '@nestjs/common';
import { checkHsn, GstError, isGstRate, isHsn, isHsnHeading, parseRate, parseSupplyType } from '@bahi/gst';

/** identity.company.details' tax_mode; a reply without one (before GST mode) is simple mode. */
export type TaxMode = 'simple' | 'gst' | 'composition';

export interface GstFields {
  /** The rate in percent ("18"). */
  taxPercent: string;
  /** Only when it is being set; undefined leaves a stored one unchecked. */
  hsn?: string;
  /** The product's supply type after the save (GSTR-1 Table 8); undefined or taxable: no rule. */
  supplyType?: string;
}

/** The company settings the rules read (identity.company.details). */
export interface CompanyGstSettings {
  tax_mode?: TaxMode;
  /** Aggregate turnover above Rs 5 crore: HSN codes of at least 6 digits. */
  aato_above_5cr?: boolean;
}

/**
 * True when no mode or turnover would refuse these fields, so the company need not be asked: a
 * GST rate, no HSN or one of 6 or 8 digits of a real heading, and a taxable supply.
 */
export const fineInEveryMode = (f: GstFields): boolean =>
  isGstRate(f.taxPercent) && (!f.hsn || (isHsn(f.hsn) && f.hsn.trim().length >= 6 && isHsnHeading(f.hsn.trim().slice(0, 4)))) && (!f.supplyType || f.supplyType === 'taxable');

/**
 * True when only the turnover could refuse these fields: a 4-digit code of a real heading with
 * a GST rate and a taxable supply. Such a save does not wait on identity being up (it never
 * asked before the turnover rule); it is checked whenever identity answers.
 */
export const onlyTurnoverInQuestion = (f: GstFields): boolean =>
  isGstRate(f.taxPercent) && !!f.hsn && /^\d{4}$/.test(f.hsn.trim()) && isHsnHeading(f.hsn.trim()) && (!f.supplyType || f.supplyType === 'taxable');

/**
 * The product rules of GST mode: in `gst` the rate is a GST rate and a nil-rated, exempt or
 * non-GST product's rate is 0; in `gst` and `composition` a given HSN is 4, 6 or 8 digits of a
 * real chapter and heading, at least 6 above Rs 5 crore of turnover (Rule 46(g), Notification
 * 78/2020-CT; Rule 49 asks it on a bill of supply too). A composition dealer collects no tax, so
 * its rates stay free. Simple mode: today's rules.
 */
export function checkGstFields(mode: TaxMode, f: GstFields, company: CompanyGstSettings = {}): void {
  try {
    if (mode === 'gst') parseRate(f.taxPercent);
    if (mode === 'gst') parseSupplyType(f.supplyType, f.taxPercent);
    if (mode !== 'simple' && f.hsn) checkHsn(f.hsn, { aatoAbove5cr: company.aato_above_5cr === true });
  } catch (err) {
    if (err instanceof GstError) throw new BadRequestException(err.message);
    throw err;
  }
}
