import { BadRequestException } from '@nestjs/common';
import type { CompanyDetails, Distributor, PurchaseGst } from '@bahi/contracts';
import { computeInvoice, GstError, parseHsn, parseRate, placeOfSupply, stateName } from '@bahi/gst';
import type { PurchaseLineDoc } from './purchase.schema';

export type PurchaseTaxMode = 'simple' | 'gst' | 'composition';

/** The company's mode for purchases: GST rules need its state (its GSTIN's first two digits). */
export function purchaseTaxMode(c: Pick<CompanyDetails, 'tax_mode' | 'state_code'>): PurchaseTaxMode {
  const mode = c.tax_mode ?? 'simple';
  return mode !== 'simple' && c.state_code ? mode : 'simple';
}

export interface PricedPurchase {
  gst: PurchaseGst;
  /** taxable + input tax, to the rupee: the distributor's tax invoice value, what we owe. */
  total: string;
  taxAmount: string;
}

const bad = (f: () => string, product: string): string => {
  try {
    return f();
  } catch (e) {
    if (e instanceof GstError) throw new BadRequestException(`${product}: ${e.message}`);
    throw e;
  }
};

/**
 * Input tax of a purchase in gst or composition mode, by @bahi/gst's computeInvoice with the
 * distributor as the other party: cp is before tax (priceIncludesTax false), so each line's
 * taxable value is its amount plus its share of (shipping - summary discount); CGST/SGST when the
 * distributor is in the company's state, IGST otherwise. A distributor with neither a GSTIN nor a
 * state is taken to be in the company's state. Always computed as the supplier's tax invoice
 * ('gst'): a composition buyer pays the same tax, it just cannot take credit for it (s.10(4)).
 */
export function pricePurchase(args: {
  companyState: string;
  distributor: Pick<Distributor, 'gstin' | 'state_code'>;
  lines: PurchaseLineDoc[];
  shipping: string;
  discount: string;
}): PricedPurchase {
  const { companyState, distributor, lines } = args;
  const gstin = distributor.gstin?.trim() ? distributor.gstin.trim().toUpperCase() : null;
  const state = distributor.state_code?.trim() ? distributor.state_code.trim() : null;
  const inputs = lines.map((l) => ({
    mrp: l.rate,
    discount: l.disc,
    quantity: l.quantity,
    per_peice_quantity: l.per_peice_quantity,
    // Named per product here: the library would say "Line 2", which the buyer cannot act on.
    rate: bad(() => parseRate(l.gst_rate ?? '').toFixed(), l.product_name),
    priceIncludesTax: false,
    hsn: bad(() => (l.hsn_code ? parseHsn(l.hsn_code) : missingHsn()), l.product_name),
    unit: l.unit,
  }));
  let inv;
  try {
    inv = computeInvoice({ mode: 'gst', companyState, customerGstin: gstin, customerState: state, lines: inputs, shipping: args.shipping, discount: args.discount });
  } catch (e) {
    if (e instanceof GstError) throw new BadRequestException(e.message);
    throw e;
  }
  const distributorState = gstin || state ? placeOfSupply({ customerGstin: gstin, customerState: state, companyState }) : null;
  return {
    gst: {
      distributor_gstin: gstin,
      distributor_state_code: distributorState,
      distributor_state_name: distributorState ? stateName(distributorState) : null,
      company_state_code: inv.companyState,
      inter_state: inv.interState,
      state_tax_name: inv.stateTaxName,
      lines: inv.lines.map((c, i) => ({
        sl_no: lines[i].sl_no,
        hsn_code: c.hsn,
        gst_rate: c.rate,
        taxable_value: c.taxable,
        cgst: c.cgst,
        sgst: c.sgst,
        igst: c.igst,
      })),
      taxable_total: inv.taxable,
      cgst_total: inv.cgst,
      sgst_total: inv.sgst,
      igst_total: inv.igst,
      tax_total: inv.tax,
    },
    total: inv.invoiceValue,
    taxAmount: inv.tax,
  };
}

function missingHsn(): never {
  throw new GstError('set its HSN code in the catalogue before buying it in GST mode (the HSN-wise input tax needs it).');
}
