import { BadRequestException } from '@nestjs/common';
import { GstError, isGstRate, isHsn, parseHsn, parseRate } from '@bahi/gst';

/** identity.company.details' tax_mode; a reply without one (before GST mode) is simple mode. */
export type TaxMode = 'simple' | 'gst' | 'composition';

export interface GstFields {
  /** The rate in percent ("18"). */
  taxPercent: string;
  /** Only when it is being set; undefined leaves a stored one unchecked. */
  hsn?: string;
}

/** True when no mode would refuse these fields, so the company's mode need not be asked. */
export const fineInEveryMode = (f: GstFields): boolean => isGstRate(f.taxPercent) && (!f.hsn || isHsn(f.hsn));

/**
 * The product rules of GST mode: in `gst` the rate is a GST rate; in `gst` and
 * `composition` a given HSN is 4, 6 or 8 digits (Rule 46(g); Rule 49 asks it on a bill of supply
 * too). A composition dealer collects no tax, so its rates stay free. Simple mode: today's rules.
 */
export function checkGstFields(mode: TaxMode, f: GstFields): void {
  try {
    if (mode === 'gst') parseRate(f.taxPercent);
    if (mode !== 'simple' && f.hsn) parseHsn(f.hsn);
  } catch (err) {
    if (err instanceof GstError) throw new BadRequestException(err.message);
    throw err;
  }
}
