import { BadRequestException } from '@nestjs/common';
import type { CounterGstSummary, GstLine, GstParty, SaleGst } from '@bahi/contracts';
import { computeInvoice, GstError, isGstRate, isHsn, missingRecipientDetails, rateOn, recipientDetailsSentence, stateName, type ComputedInvoice, type RecipientDetails } from '@bahi/gst';
import { isGstMode, supplierParty, type CompanyTax } from './company';
import type { CustomerSnap } from './schemas';
import { num, type StoredLine, type Summary } from './totals';

/** The buyer as GST sees them: GSTIN (B2B) and recorded state; null for a cart priced for the walk-in. */
export type GstBuyer = Pick<CustomerSnap, 'gstin' | 'state_code'> | null;

/** The line's rate on the invoice's date (YYYY-MM-DD): from the product's rate history when the line carries one, else the captured rate. */
export function lineRate(l: StoredLine, date: string): string | undefined {
  if (l.gst_rates?.length) return rateOn(l.gst_rates, date) ?? undefined;
  return l.gst_rate ?? undefined;
}

/** Why a line cannot go on a tax invoice dated `date` (no HSN, no rate), naming the product; null when it can. */
export function lineProblem(l: StoredLine, mode: 'gst' | 'composition', date: string): string | null {
  const who = `${l.product_name} (${l.product_id})`;
  if (!isHsn(l.hsn_code ?? '')) return `${who} has no HSN code; set it in the catalogue before selling in GST mode.`;
  if (mode === 'gst' && l.gst_rates?.length && lineRate(l, date) === undefined) {
    return `${who} has no GST rate on ${date}: its rates start on ${l.gst_rates[0]!.from}. Date the sale later or add the earlier rate to the product.`;
  }
  const rate = lineRate(l, date);
  if (mode === 'gst' && (rate === undefined || rate === null || !isGstRate(rate))) {
    return `${who} has no GST rate on this line; set the product's rate and add it again.`;
  }
  return null;
}

/**
 * Prices lines as a tax invoice (or bill of supply) with @bahi/gst: place of supply from the
 * buyer's GSTIN, else their state, else the company's (walk-in). Throws GstError with a sentence.
 */
export function invoiceOf(co: CompanyTax & { tax_mode: 'gst' | 'composition'; state_code: string }, lines: StoredLine[], s: Summary, buyer: GstBuyer, date: string): ComputedInvoice {
  for (const l of lines) {
    const problem = lineProblem(l, co.tax_mode, date);
    if (problem) throw new GstError(problem);
  }
  return computeInvoice({
    mode: co.tax_mode,
    companyState: co.state_code,
    customerGstin: buyer?.gstin || null,
    customerState: buyer?.state_code || null,
    shipping: s.shipping || '0',
    discount: s.discount || '0',
    lines: lines.map((l) => ({
      mrp: l.mrp,
      discount: l.discount || '0',
      quantity: l.quantity,
      per_peice_quantity: l.per_peice_quantity || '1',
      rate: lineRate(l, date),
      priceIncludesTax: l.price_includes_tax !== false,
      hsn: l.hsn_code,
      unit: l.unit,
    })),
  });
}

/**
 * The counter's GST summary on `date` (today at the counter, an estimate's own date); null in simple
 * mode. A reason no invoice can be made goes to `error`.
 */
export function counterGst(co: CompanyTax, lines: StoredLine[], s: Summary, buyer: GstBuyer, date: string): CounterGstSummary | null {
  if (!isGstMode(co)) return null;
  const base: CounterGstSummary = {
    tax_mode: co.tax_mode,
    place_of_supply: co.state_code,
    place_of_supply_name: stateName(co.state_code),
    inter_state: false,
    state_tax_name: 'SGST',
    taxable_total: 0,
    cgst_total: 0,
    sgst_total: 0,
    igst_total: 0,
    round_off: 0,
    invoice_value: 0,
    lines: [],
    error: null,
    needs_recipient: false,
  };
  if (!lines.length) return base;
  try {
    const inv = invoiceOf(co, lines, s, buyer, date);
    return {
      ...base,
      place_of_supply: inv.placeOfSupply,
      place_of_supply_name: stateName(inv.placeOfSupply),
      inter_state: inv.interState,
      state_tax_name: inv.stateTaxName,
      taxable_total: num(inv.taxable),
      cgst_total: num(inv.cgst),
      sgst_total: num(inv.sgst),
      igst_total: num(inv.igst),
      round_off: num(inv.roundOff),
      invoice_value: num(inv.invoiceValue),
      // Rule 46(e): the counter offers a walk-in's particulars (a named customer's come from their record).
      needs_recipient: co.tax_mode === 'gst' && !buyer && missingRecipientDetails(inv.taxable, false, {}).length > 0,
      lines: inv.lines.map((c, i) => ({ sl_no: lines[i]!.sl_no, gst_rate: num(c.rate), taxable_value: num(c.taxable), cgst: num(c.cgst), sgst: num(c.sgst), igst: num(c.igst) })),
    };
  } catch (err) {
    if (!(err instanceof GstError)) throw err;
    return { ...base, error: err.message };
  }
}

/** The recipient block of a tax invoice; a walk-in's particulars typed at the counter (Rule 46(e)) when given. */
export function recipientParty(c: CustomerSnap, typed?: RecipientDetails | null): GstParty {
  if (c.walkIn && typed && (typed.name || typed.address || typed.state)) {
    return { name: typed.name || 'Unknown', address: typed.address ? [typed.address] : [], gstin: null, state_code: typed.state || null, state_name: typed.state ? stateName(typed.state) : null, mobile: '', email: '' };
  }
  const code = c.state_code || null;
  return {
    name: c.walkIn ? 'Unknown' : c.name,
    address: c.walkIn ? [] : [c.address_line_1, c.address_line_2, [c.city_or_district, c.postal_code].filter(Boolean).join(' ')].map((x) => (x ?? '').trim()).filter(Boolean),
    gstin: c.gstin || null,
    state_code: code,
    state_name: code ? stateName(code) : null,
    mobile: c.walkIn ? '' : c.mobile_no ?? '',
    email: '',
  };
}

/**
 * The GST part of a sale, frozen at checkout (numbered later, in the Saga's finish step:
 * invoice_no '' and serial 0 until then). 400 with the rule's sentence when no invoice can be made.
 */
export function saleGst(co: CompanyTax, lines: StoredLine[], s: Summary, customer: CustomerSnap, date: string, fy: string, typed?: RecipientDetails | null): { gst: SaleGst; inv: ComputedInvoice } | null {
  if (!isGstMode(co)) return null;
  let inv: ComputedInvoice;
  try {
    inv = invoiceOf(co, lines, s, customer.walkIn ? null : customer, date);
  } catch (err) {
    if (err instanceof GstError) throw new BadRequestException(err.message);
    throw err;
  }
  const recipient = recipientParty(customer, typed);
  // Rule 46(e): an unregistered buyer of Rs 50,000 or more of taxable value is named on the tax invoice.
  if (co.tax_mode === 'gst' && !inv.registeredCustomer) {
    const named = recipient.name !== 'Unknown' || !customer.walkIn ? recipient.name : '';
    const missing = missingRecipientDetails(inv.taxable, false, { name: named, address: recipient.address.join(', '), state: recipient.state_code ?? '' });
    if (missing.length) {
      const fix = customer.walkIn ? 'Type them for the buyer and sell again.' : `Add them to customer ${customer.client_id} (${customer.name}) and sell again.`;
      throw new BadRequestException(recipientDetailsSentence(inv.taxable, missing, fix));
    }
  }
  const gstLines: GstLine[] = inv.lines.map((c, i) => ({
    sl_no: lines[i]!.sl_no,
    hsn_code: c.hsn,
    uqc: c.uqc,
    gst_rate: c.rate,
    // GSTR-1 Table 8 reads it (gst-returns); a taxable line carries none, as before the field.
    ...(lines[i]!.supply_type && lines[i]!.supply_type !== 'taxable' ? { supply_type: lines[i]!.supply_type } : {}),
    price_includes_tax: lines[i]!.price_includes_tax !== false,
    qty: c.qty,
    line_taxable: c.lineTaxable,
    share: c.share,
    taxable_value: c.taxable,
    cgst: c.cgst,
    sgst: c.sgst,
    igst: c.igst,
  }));
  const gst: SaleGst = {
    tax_mode: co.tax_mode,
    document: inv.document,
    invoice_no: '',
    fy,
    serial: 0,
    invoice_date: date,
    supplier: supplierParty(co),
    recipient,
    b2b: inv.registeredCustomer,
    place_of_supply: inv.placeOfSupply,
    place_of_supply_name: stateName(inv.placeOfSupply),
    inter_state: inv.interState,
    state_tax_name: inv.stateTaxName,
    reverse_charge: false,
    lines: gstLines,
    taxable_total: inv.taxable,
    cgst_total: inv.cgst,
    sgst_total: inv.sgst,
    igst_total: inv.igst,
    tax_total: inv.tax,
    exact_total: inv.exactTotal,
    round_off: inv.roundOff,
    invoice_value: inv.invoiceValue,
  };
  return { gst, inv };
}
