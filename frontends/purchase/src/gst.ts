import type { GetPurchaseDetailsReply, PurchaseGst, PurchaseGstLine } from '@bahi/contracts';
import { i18n } from '@bahi/i18n';

/** Whole paise of a two-decimal string or a number (display amounts; exact for what the service sends). */
const paise = (v: string | number): number => {
  const [int, frac = ''] = String(v).replace(/^[+-]/, '').split('.');
  const abs = Number(int || '0') * 100 + Number((frac + '00').slice(0, 2));
  return String(v).startsWith('-') ? -abs : abs;
};
const rupees = (p: number): string => `${p < 0 ? '-' : ''}${Math.floor(Math.abs(p) / 100)}.${String(Math.abs(p) % 100).padStart(2, '0')}`;

export interface PurchaseGstView {
  gst: PurchaseGst;
  /** Tax heads the way the purchase was taxed: IGST, or CGST and SGST/UTGST. */
  heads: { label: string; key: 'igst' | 'cgst' | 'sgst'; total: string }[];
  /** The distributor's invoice is rounded to the rupee: total - (taxable + tax), e.g. '0.46'. */
  roundOff: string;
  line(sl_no: number): PurchaseGstLine | undefined;
  /** "Gujarat (24)", or "Same as the company's (27)" when the distributor has no state recorded. */
  distributorState: string;
}

/** What the purchase detail shows of a GST-mode purchase; null in simple mode. */
export function purchaseGstView(p: Pick<GetPurchaseDetailsReply, 'gst' | 'total'>): PurchaseGstView | null {
  const gst = p.gst;
  if (!gst) return null;
  const heads: PurchaseGstView['heads'] = gst.inter_state
    ? [{ label: 'IGST', key: 'igst', total: gst.igst_total }]
    : [
        { label: 'CGST', key: 'cgst', total: gst.cgst_total },
        { label: gst.state_tax_name ?? 'SGST', key: 'sgst', total: gst.sgst_total },
      ];
  const byLine = new Map(gst.lines.map((l) => [l.sl_no, l]));
  return {
    gst,
    heads,
    roundOff: rupees(paise(p.total) - paise(gst.taxable_total) - paise(gst.tax_total)),
    line: (sl) => byLine.get(sl),
    distributorState: gst.distributor_state_code
      ? `${gst.distributor_state_name ?? ''} (${gst.distributor_state_code})`.trim()
      : i18n.t('purchase:detail.notRecorded', { code: gst.company_state_code }),
  };
}
