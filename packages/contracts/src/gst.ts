/**
 * GST mode (a company's `tax_mode` `gst` or `composition`): what sales freezes into a sale, what
 * documents prints from it, the counter's GST summary, purchases' input tax and the returns.
 * The rules are computed by @bahi/gst; amounts stored and sent over NATS are two-decimal
 * strings, HTTP replies carry numbers (display only) as everywhere else.
 */
import type { CompanyTaxMode } from './identity';

/** Who supplies or receives, as printed on a tax invoice (frozen at the sale). */
export interface GstParty {
  name: string;
  /** Address lines as printed, empty lines left out. */
  address: string[];
  /** Capitals, or null (an unregistered buyer). */
  gstin: string | null;
  /** GST state code ('27') or null when unknown (a walk-in is supplied in the company's state). */
  state_code: string | null;
  /** The state's name ('Maharashtra') or null. */
  state_name: string | null;
  mobile: string;
  email: string;
}

/** One sold line's GST figures, frozen; the line itself is the sale's line with the same sl_no. */
export interface GstLine {
  sl_no: number;
  hsn_code: string;
  /** GSTR-1 unit quantity code of the product's unit ('PCS', 'KGS', 'OTH'...). */
  uqc: string;
  /** Percent, '18' ('0' on a bill of supply). */
  gst_rate: string;
  /** The product's supply type at the sale (GSTR-1 Table 8); missing on sales before it existed: @bahi/gst lineSupplyType. */
  supply_type?: 'taxable' | 'nil' | 'exempt' | 'non_gst';
  price_includes_tax: boolean;
  /** quantity x per_peice_quantity: the units the amount was computed from. */
  qty: string;
  /** The line's taxable value before its share of shipping less summary discount. */
  line_taxable: string;
  /** Its share of (shipping - summary discount), may be negative. */
  share: string;
  /** line_taxable + share: what tax is charged on. */
  taxable_value: string;
  cgst: string;
  sgst: string;
  igst: string;
}

/** The GST part of a sale in gst or composition mode, frozen at checkout; null in simple mode. */
export interface SaleGst {
  tax_mode: Exclude<CompanyTaxMode, 'simple'>;
  /** 'tax-invoice' (gst) or 'bill-of-supply' (composition). */
  document: 'tax-invoice' | 'bill-of-supply';
  /** PREFIX/YY-YY/NNNN, consecutive per company and financial year. */
  invoice_no: string;
  /** The financial year label ('26-27') and the serial within it. */
  fy: string;
  serial: number;
  /** The sale's date (YYYY-MM-DD, IST calendar): the invoice date. */
  invoice_date: string;
  supplier: GstParty;
  recipient: GstParty;
  /** The buyer has a GSTIN (GSTR-1 b2b). */
  b2b: boolean;
  /** GST state code of the place of supply. */
  place_of_supply: string;
  place_of_supply_name: string;
  inter_state: boolean;
  /** 'UTGST' in union territories without a legislature; the amount field stays sgst. */
  state_tax_name: 'SGST' | 'UTGST';
  /** Always false: Bahi's sales are never under reverse charge. */
  reverse_charge: false;
  lines: GstLine[];
  taxable_total: string;
  cgst_total: string;
  sgst_total: string;
  igst_total: string;
  tax_total: string;
  /** taxable + tax to the paisa. */
  exact_total: string;
  /** invoice_value - exact_total, within -0.49 .. +0.50. */
  round_off: string;
  /** To the rupee: what the customer owes for this invoice (the sale's amount). */
  invoice_value: string;
}

/**
 * The counter's GST summary of a cart or an estimate (HTTP, numbers), on `summery.gst`; null in
 * simple mode. A cart is priced for the walk-in (the company's state) until a customer is chosen:
 * GET /previewSale prices it for one. `error` says why no invoice can be made yet (a product
 * without an HSN code, an inter-state supply in composition mode); the sale is then refused.
 */
export interface CounterGstSummary {
  tax_mode: Exclude<CompanyTaxMode, 'simple'>;
  place_of_supply: string;
  place_of_supply_name: string;
  inter_state: boolean;
  state_tax_name: 'SGST' | 'UTGST';
  taxable_total: number;
  cgst_total: number;
  sgst_total: number;
  igst_total: number;
  round_off: number;
  invoice_value: number;
  lines: { sl_no: number; gst_rate: number; taxable_value: number; cgst: number; sgst: number; igst: number }[];
  error: string | null;
  /** Rule 46(e): a taxable value of Rs 50,000 or more to the walk-in; their name, address and state must be typed (MAKE_SALE `recipient`). */
  needs_recipient?: boolean;
}

/** GET /previewSale?cart_no&clientId[&estimateId]: the invoice a sale to that customer would make (no side effects). */
export interface PreviewSaleReply {
  tax_mode: CompanyTaxMode;
  /** The sale's amount: the invoice value in GST mode, the spec's total in simple mode. */
  amount: number;
  previousDue: number;
  gst: CounterGstSummary | null;
  /** Only when `paid` was asked about (issue 28): the due this sale would leave on the walk-in customer ("1650.00"), null when none; and the company's walkin_credit. */
  walkin_due?: string | null;
  walkin_credit?: 'confirm' | 'refuse' | 'allow';
}

// ---- Purchases in GST mode (inventory) ----

/** Input tax of one purchase line: cp is before tax; rate is the product's GST rate. */
export interface PurchaseGstLine {
  sl_no: number;
  hsn_code: string;
  gst_rate: string;
  taxable_value: string;
  cgst: string;
  sgst: string;
  igst: string;
}
/** Frozen on a purchase made in GST mode (null otherwise): the distributor's GSTIN and state at that moment. */
export interface PurchaseGst {
  distributor_gstin: string | null;
  distributor_state_code: string | null;
  distributor_state_name: string | null;
  company_state_code: string;
  inter_state: boolean;
  /** The heading of the state half of intra-state tax ('UTGST' in union territories without a legislature); absent on older purchases: SGST. */
  state_tax_name?: 'SGST' | 'UTGST';
  lines: PurchaseGstLine[];
  taxable_total: string;
  cgst_total: string;
  sgst_total: string;
  igst_total: string;
  tax_total: string;
}

/** inventory.gst.inward: input tax of a company's completed purchases dated in [from, to] (YYYY-MM-DD), less that of its debit notes (purchase returns) dated in the range. */
export interface GstInwardRequest {
  companyId: number;
  from: string;
  to: string;
}
export interface GstInwardReply {
  purchases: number;
  taxable: string;
  igst: string;
  cgst: string;
  sgst: string;
  /** Purchases from registered distributors only (a GSTIN frozen on the purchase): eligible ITC. */
  itc: { igst: string; cgst: string; sgst: string };
}

// ---- GST returns (sales; HTTP) ----

/** GET /gst/gstr3b?period=YYYY-MM */
export interface Gstr3bReply {
  gstin: string;
  /** MMYYYY */
  ret_period: string;
  /** 3.1(a) outward taxable supplies (other than zero, nil rated and exempted). */
  outward: { txval: number; iamt: number; camt: number; samt: number; csamt: number };
  /** 3.1(c) nil rated and exempted (GSTR-1 Table 8's nil and exempt amounts). */
  nil_exempt: { txval: number };
  /** 3.1(e) non-GST outward supplies (Table 8's non-GST amount). */
  non_gst: { txval: number };
  /**
   * What the period's credit notes exceed its supplies by, per head (0 when they do not): 3.1
   * shows 0 there, and this is the excess to adjust against the next periods' liability.
   */
  excess: { txval: number; iamt: number; camt: number; samt: number };
  /** 3.2 inter-state supplies to unregistered persons, by place of supply. */
  inter_state_unreg: { pos: string; txval: number; iamt: number }[];
  /** 4(A)(5) all other ITC: input tax from purchases from registered distributors. */
  itc: { iamt: number; camt: number; samt: number; csamt: number };
  /** Tax payable in cash per head after ITC (never below zero; ITC left over is carried). */
  net_payable: { iamt: number; camt: number; samt: number; csamt: number };
  itc_carried: { iamt: number; camt: number; samt: number };
}

/** Amounts per head in the portal's GSTR-3B JSON. */
export interface Gstr3bHeads {
  txval?: number;
  iamt: number;
  camt: number;
  samt: number;
  csamt: number;
}

/** GET /gst/gstr3b?period=YYYY-MM&format=json: the GST portal's GSTR-3B JSON (offline utility / API keys), numbers to two decimals. */
export interface Gstr3bPortalJson {
  gstin: string;
  ret_period: string;
  sup_details: {
    osup_det: Required<Gstr3bHeads>;
    osup_zero: { txval: number; iamt: number; csamt: number };
    osup_nil_exmp: { txval: number };
    isup_rev: Required<Gstr3bHeads>;
    osup_nongst: { txval: number };
  };
  inter_sup: {
    unreg_details: { pos: string; txval: number; iamt: number }[];
    comp_details: { pos: string; txval: number; iamt: number }[];
    uin_details: { pos: string; txval: number; iamt: number }[];
  };
  itc_elg: {
    itc_avl: ({ ty: 'IMPG' | 'IMPS' | 'ISRC' | 'ISD' | 'OTH' } & Gstr3bHeads)[];
    itc_rev: ({ ty: 'RUL' | 'OTH' } & Gstr3bHeads)[];
    itc_net: Gstr3bHeads;
    itc_inelg: ({ ty: 'RUL' | 'OTH' } & Gstr3bHeads)[];
  };
  inward_sup: { isup_details: { ty: 'GST' | 'NONGST'; inter: number; intra: number }[] };
  intr_ltfee: { intr_details: Gstr3bHeads; ltfee_details: { camt: number; samt: number } };
}

declare module './subjects' {
  interface SubjectPayloads {
    'identity.company.changed': { companyId: number };
    'inventory.gst.inward': GstInwardRequest;
  }
  interface SubjectReplies {
    'identity.company.changed': void;
    'inventory.gst.inward': GstInwardReply;
  }
}

/**
 * GSTR-2B matching (issue 31), POST/GET /gst/gstr2b?period=YYYY-MM (managers): the month's 2B
 * (as uploaded) against the purchases from registered distributors. Amounts are decimal strings.
 */
export interface Gstr2bPortalInvoice {
  gstin: string;
  supplier: string;
  bill_no: string;
  /** YYYY-MM-DD */
  bill_date: string;
  value: string;
  taxable: string;
  tax: string;
  itc_available: boolean;
  /** An amendment (b2ba, cdnra) only: its section and the number and date first reported. */
  section?: 'b2ba' | 'cdnra';
  original_bill_no?: string;
  original_bill_date?: string;
}
/** A supplier's credit (C) or debit (D) note in the 2B (cdnr, cdnra); bill_no/bill_date are the note's. */
export interface Gstr2bPortalNote extends Gstr2bPortalInvoice {
  note_type: 'C' | 'D';
}
/** A purchase return (debit note) in the books: bill_no/bill_date are the note's number and date. */
export interface Gstr2bBookNote extends Gstr2bBookBill {
  debitNoteId: number;
  /** The bill of the purchase the goods came on. */
  purchase_bill_no: string;
}
export type Gstr2bFieldDiff = { field: 'bill_date' | 'taxable' | 'tax'; books: string; portal: string };
export interface Gstr2bBookBill {
  purchaseId: number;
  distributorId: number;
  supplier: string;
  gstin: string;
  bill_no: string;
  /** The supplier's bill date (the purchase's date when none was typed). */
  bill_date: string;
  taxable: string;
  tax: string;
}
export interface Gstr2bReply {
  period: string;
  /** false until a 2B was uploaded for the month: then every purchase of the month is missing in 2B. */
  uploaded: boolean;
  matched: { books: Gstr2bBookBill; portal: Gstr2bPortalInvoice }[];
  differences: { books: Gstr2bBookBill; portal: Gstr2bPortalInvoice; fields: { field: 'bill_date' | 'taxable' | 'tax'; books: string; portal: string }[] }[];
  missing_in_books: Gstr2bPortalInvoice[];
  missing_in_2b: Gstr2bBookBill[];
  /**
   * The suppliers' credit notes (cdnr, cdnra) matched with Bahi's purchase returns (debit notes) by
   * the same rules; a supplier's debit note (D) has no counterpart in Bahi: missing in the books.
   */
  notes: {
    matched: { books: Gstr2bBookNote; portal: Gstr2bPortalNote }[];
    differences: { books: Gstr2bBookNote; portal: Gstr2bPortalNote; fields: Gstr2bFieldDiff[] }[];
    missing_in_books: Gstr2bPortalNote[];
    missing_in_2b: Gstr2bBookNote[];
  };
}
