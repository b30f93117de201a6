import type { GstLine, SaleGst } from '@bahi/contracts';
import { isBillOfSupply as billOfSupply, lineSupplyType, type SupplyType } from '@bahi/gst';

/** A line's GSTR-1 supply type as printed: only a tax invoice marks lines (a composition bill of supply carries no tax at all). */
export const printedSupplyType = (gst: SaleGst, l: GstLine): SupplyType => (gst.document === 'tax-invoice' ? lineSupplyType(l.supply_type, l.gst_rate) : 'taxable');

/** Printed as a bill of supply (composition, or only nil/exempt/non-GST lines): @bahi/gst, CGST Act s.31(3)(c) / Rule 49. The invoice number is unchanged (same series). */
export const isBillOfSupply = (gst: SaleGst): boolean => billOfSupply(gst.document, gst.lines);

/** The bill of supply of a registered (not composition) supplier: exempt/nil/non-GST lines only. */
export const isExemptBillOfSupply = (gst: SaleGst): boolean => gst.document === 'tax-invoice' && isBillOfSupply(gst);

/** The locale key of the mark printed beside a non-taxable line; null for a taxable one. */
export const SUPPLY_MARK: Record<SupplyType, string | null> = { taxable: null, nil: 'gst.supplyNil', exempt: 'gst.supplyExempt', non_gst: 'gst.supplyNonGst' };
