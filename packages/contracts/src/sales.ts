// Carts, estimates, sales (bills) and deliveries (sales service). Reply shapes the spec leaves
// "not shown" are designed here and documented in services/sales/README.md. HTTP replies carry
// amounts as numbers (exact decimals converted once, at the edge); totals rounded as spec 000 §9 says.

import type { Customer, PaymentLine } from './ledger';
import type { CompanyDetails } from './identity';
import type { ProductSuggestion } from './inventory';
import type { CompanyTaxMode } from './identity';
import type { CounterGstSummary, GstParty } from './gst';
import type { ReturnableLine, SaleReturnStatus } from './returns';

/** Spec 000 §3 Cart line (also an estimate line). `amount` = (mrp - discount) x quantity x per_peice_quantity. */
export interface CartLine {
  sl_no: number;
  product_id: number;
  product_name: string;
  mrp: number;
  unit: string;
  stock: number;
  quantity: number;
  per_peice_quantity: number;
  discount: number;
  hsn_code: string;
  amount: number;
}

/** Spec 000 §3 Cart summary, plus the server-computed totals the screen shows. */
export interface CartSummery {
  cart_no: number;
  /** 1 = 18% tax applied. */
  tax: 0 | 1;
  shipping: number;
  discount: number;
  subtotal: number;
  /** 18% of the subtotal when tax is 1, to 2 decimals. */
  taxAmount: number;
  /** subtotal + tax + shipping - discount, to 2 decimals; in GST mode the invoice value (gst.invoice_value). */
  total: number;
  /** GST mode: the tax invoice's figures (the Tax flag does not apply); null or absent in simple mode. */
  gst?: CounterGstSummary | null;
}

/** GET /getProducts?cart_no */
export interface GetProductsReply {
  cart: CartLine[];
  cart_no: number;
  summery: CartSummery;
  product_list: ProductSuggestion[];
}

/** Extra facts the counter should show (e.g. stock going below zero). */
export interface SaleWarnings {
  warnings: string[];
  summery?: CartSummery;
}

/**
 * GET /addProductIntoCart/{code}: `[[line], {warnings, summery}]`; `[]` when no active product
 * has that id or barcode. The same product again adds to its line's quantity.
 */
export type AddProductReply = [] | [[CartLine], SaleWarnings];

/** POST /upQuan/, /upDisc/, /upTax/, /upShip/, /upSummeryDisc/ and their estimate twins. */
export interface CartUpdateReply {
  success: true;
  /** The changed line; null when a quantity of 0 removed it or the change was to the summary. */
  line: CartLine | null;
  summery: CartSummery;
  warnings: string[];
}

/** POST /MAKE_SALE and POST /makeSaleFromEstimate */
export interface MakeSaleReply {
  success: true;
  saleId: number;
  /** e.g. stock of a product went below zero. */
  warnings: string[];
  /** GST mode: PREFIX/YY-YY/NNNN; null in simple mode. */
  invoice_no?: string | null;
}

export interface SalesListRow {
  id: number;
  Date: string;
  'Clients Name': string;
  'Total Amount': number;
  Paid: number;
  /** GST mode: the sale's invoice number (PREFIX/YY-YY/NNNN); null in simple mode. */
  invoice_no?: string | null;
  /** '' | 'Partly returned' | 'Returned' | 'Cancelled' */
  status?: SaleReturnStatus;
  /** Managers who approved a discount on this sale (names, comma-separated); absent when none. */
  approved_by?: string;
}
/** GET /getSaleList?pageNo */
export interface SaleListReply {
  salesList: SalesListRow[];
  noOfPages: number;
}

/** Spec 001 §3 Sold product line. */
export interface SoldProduct {
  sl_no: number;
  product_id: number;
  product_name: string;
  hsn_code: string;
  unit: string;
  quantity: number;
  per_peice_quantity: number;
  /** mrp at the time of sale. */
  rate: number;
  disc: number;
  /** rate - disc */
  price: number;
  amount: number;
  /** GST mode (null in simple mode): the line's taxable value (with its share of shipping less discount), rate in percent and tax. */
  taxable_value?: number | null;
  gst_rate?: number | null;
  cgst?: number | null;
  sgst?: number | null;
  igst?: number | null;
  /** GST mode: a nil-rated, exempt or non-GST line says so (GSTR-1 Table 8); absent on a taxable line. */
  supply_type?: 'nil' | 'exempt' | 'non_gst';
}

export interface SaleDetails {
  sale_id: number;
  saleId: number;
  date: string;
  due_date: string;
  paid: number;
  /** How `paid` was tendered (issue 28): [{ mode, amount, ref? }], decimal strings adding up to paid; [] when nothing was paid. */
  payments?: PaymentLine[];
  shipping: number;
  summery_discount: number;
  tax: 0 | 1;
  taxAmount: number;
  /** This sale's amount: subtotal + tax + shipping - discount. */
  amount: number;
  /** Invoice total: amount + previous due (previous due is 0 for the walk-in customer). */
  total: number;
  /** Total due after this sale, rounded to rupees. */
  due: number;
  walkIn: boolean;
  customer: Customer | null;
  name: string;
  /** The company's mode when the sale was made (frozen). GST fields below are null in simple mode. */
  tax_mode?: CompanyTaxMode;
  /** PREFIX/YY-YY/NNNN */
  invoice_no?: string | null;
  /** 'tax-invoice' or 'bill-of-supply'. */
  document?: 'tax-invoice' | 'bill-of-supply' | null;
  /** GST state code. */
  place_of_supply?: string | null;
  place_of_supply_name?: string | null;
  inter_state?: boolean | null;
  state_tax_name?: 'SGST' | 'UTGST' | null;
  taxable_total?: number | null;
  cgst_total?: number | null;
  sgst_total?: number | null;
  igst_total?: number | null;
  round_off?: number | null;
  /** What this invoice is worth (= amount in GST mode); the previous due is never inside it. */
  invoice_value?: number | null;
  /** GST mode: the recipient as frozen on the tax invoice (a walk-in's typed particulars, Rule 46(e)); null in simple mode. */
  recipient?: GstParty | null;
  /** Discounts a manager approved by PIN (issue 28); sl_no is null for the summary discount. */
  approvals?: SaleApproval[];
}

export interface SaleApproval {
  sl_no: number | null;
  kind: 'line' | 'summary';
  /** The approved discount, a decimal string (per unit for a line). */
  discount: string;
  approver_id: number;
  approver_name: string;
  /** ISO time of the approval. */
  at: string;
}

/** GET /approvers: the company's managers the counter offers for an approval. */
export interface ApproversReply {
  approvers: { id: number; name: string; has_pin: boolean }[];
}

/** 403 body when a staff member's discount is above the company's limit: repeat with approver_id and approval_pin. */
export interface NeedsApprovalBody {
  statusCode: 403;
  needsApproval: true;
  msg: string;
  message: string;
}

/** GET /getBillDetails?id */
export interface BillDetailsReply {
  saleDetails: SaleDetails;
  /** Issue 31; optional for stubs written before it. */
  ewaybill?: BillEwaybill;
  subtotal: number;
  previousDue: number;
  soldProducts: SoldProduct[];
  companyDetails: CompanyDetails | null;
  /** '' | 'Partly returned' | 'Returned' | 'Cancelled' */
  status?: SaleReturnStatus;
  /** Set when the bill was cancelled. */
  cancelled?: { date: string; reason: string } | null;
  /** Per line: sold, returned so far and still returnable (packs). */
  returns?: ReturnableLine[];
  /** The bill's credit notes, oldest first. */
  creditNotes?: { creditNoteId: number; credit_note_no: string; date: string; amount: number; refund: number }[];
  /** Whether a manager may cancel it now (no return, no later payment): the reason when not. */
  cancellable?: { ok: boolean; reason: string | null };
}

export interface EstimateListRow {
  id: number;
  Date: string;
  'Clients Name': string;
  'Total Amount': number;
}
export interface EstimateListReply {
  estimateList: EstimateListRow[];
  noOfPages: number;
}

/** GET /getEstimateProductListSummery?estimateId */
export interface EstimateSummeryReply {
  estimateId: number;
  cart: CartLine[];
  summery: CartSummery & { estimateId: number; client_id: number; date: string };
  customerDetails: Customer | null;
  previous_due: number;
  product_list: ProductSuggestion[];
}

/** GET /getEstimateDetails?id: what a printed estimate shows. */
export interface EstimateDetailsReply {
  estimateDetails: { estimateId: number; estimate_id: number; date: string; tax: 0 | 1; taxAmount: number; shipping: number; discount: number; total: number; customer: Customer | null; walkIn: boolean };
  subtotal: number;
  products: SoldProduct[];
  companyDetails: CompanyDetails | null;
}

/** Spec 001 §3 Delivery. */
export interface Delivery {
  id: number;
  sale_id: number;
  transporter_name: string;
  transporter_mobile: string;
  mode_of_transport: string;
  vehicle_number: string;
  dispatched_date: string;
  /**
   * What the e-way bill adds (issue 31), each optional: the portal's mode, vehicle type (regular or
   * over-dimensional cargo), approximate distance, the transporter's GSTIN/TRANSIN and document,
   * and the ship-to PIN and GST state code. mode_of_transport stays the free-text description.
   */
  transport_mode?: 'road' | 'rail' | 'air' | 'ship' | null;
  vehicle_type?: 'regular' | 'odc' | null;
  distance_km?: number | null;
  transporter_id?: string | null;
  transporter_doc_no?: string | null;
  transporter_doc_date?: string | null;
  ship_to_pincode?: string | null;
  ship_to_state?: string | null;
}

/**
 * A bill's e-way bill (issue 31): needed when the consignment value (taxable value + taxes) is
 * above the company's ewaybill_threshold and no number is recorded yet.
 */
export interface BillEwaybill {
  needed: boolean;
  /** The 12-digit number the portal gave, or null. */
  ewb_no: string | null;
  /** ISO date-time the e-way bill is valid until, or null. */
  valid_until: string | null;
}
/** PUT /ewaybill/{saleId}. */
export interface SetEwaybillRequest {
  ewb_no: string;
  valid_until: string;
}
/** GET /ewaybill/json?ids=1,2: the portal's bulk-upload file (version 1.0.0621). */
export interface EwbBulkJson {
  version: string;
  billLists: EwbBill[];
}
export interface EwbItem {
  itemNo: number;
  productName: string;
  productDesc: string;
  hsnCode: number;
  quantity: number;
  qtyUnit: string;
  taxableAmount: number;
  sgstRate: number;
  cgstRate: number;
  igstRate: number;
  cessRate: number;
  cessNonAdvol: number;
}
export interface EwbBill {
  userGstin: string;
  supplyType: 'O';
  /** 1 supply. */
  subSupplyType: number;
  subSupplyDesc: string;
  docType: 'INV' | 'BIL';
  docNo: string;
  /** dd/mm/yyyy */
  docDate: string;
  fromGstin: string;
  fromTrdName: string;
  fromAddr1: string;
  fromAddr2: string;
  fromPlace: string;
  fromPincode: number;
  fromStateCode: number;
  actualFromStateCode: number;
  toGstin: string;
  toTrdName: string;
  toAddr1: string;
  toAddr2: string;
  toPlace: string;
  toPincode: number;
  toStateCode: number;
  actualToStateCode: number;
  /** 1 regular (Bahi ships from its own address to the bill-to party's place). */
  transType: number;
  totalValue: number;
  cgstValue: number;
  sgstValue: number;
  igstValue: number;
  cessValue: number;
  TotNonAdvolVal: number;
  /** Round off (the invoice value less taxable value and taxes). */
  OthValue: number;
  totInvValue: number;
  /** '1' road, '2' rail, '3' air, '4' ship. */
  transMode: string;
  transDistance: string;
  transporterId: string;
  transporterName: string;
  transDocNo: string;
  transDocDate: string;
  vehicleNo: string;
  /** 'R' regular, 'O' over-dimensional cargo. */
  vehicleType: string;
  mainHsnCode: number;
  itemList: EwbItem[];
}
/** GET /addDelivery/{saleId}: data null when the sale has no delivery yet. */
export interface DeliveryReply {
  data: Delivery | null;
  saleId: number;
}
