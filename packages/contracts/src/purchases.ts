import type { PurchaseGst } from './gst';
import type { ReturnableLine } from './returns';
// Purchases (inventory service) and the cart/estimate reads they need from sales. Reply shapes
// the spec leaves "not shown" are designed here and documented in
// services/inventory/src/purchases/README.md. HTTP replies carry numbers (display only).

/** A cart or estimate line as sales stores it: every amount a decimal string. */
export interface SourceLine {
  sl_no: number;
  product_id: number;
  product_name: string;
  mrp: string;
  unit: string;
  quantity: string;
  per_peice_quantity: string;
  discount: string;
}

/** Lines and summary of a cart or an estimate, as sales holds them now. */
export interface SourceLines {
  lines: SourceLine[];
  /** 1 = 18% tax applied. */
  tax: 0 | 1;
  shipping: string;
  discount: string;
  /** Bumped by every change: a purchase empties the cart only if it is still this version. */
  version: number;
}

// ---- NATS (sales answers) ----

export interface CartGetRequest {
  companyId: number;
  userId: number;
  cart_no: number;
}
export interface CartClearRequest extends CartGetRequest {
  /** The version the purchase was made from; a changed cart loses only these lines. */
  version: number;
  sl_nos: number[];
}
export interface CartClearReply {
  cleared: boolean;
}
export interface EstimateGetRequest {
  companyId: number;
  estimateId: number;
}

declare module './subjects' {
  interface SubjectPayloads {
    'sales.cart.get': CartGetRequest;
    'sales.cart.clear': CartClearRequest;
    'sales.estimate.get': EstimateGetRequest;
  }
  interface SubjectReplies {
    'sales.cart.get': SourceLines;
    'sales.cart.clear': CartClearReply;
    'sales.estimate.get': SourceLines | null;
  }
}

// ---- HTTP ----

/** POST /checkOutPurchase and /checkOutPurchaseFromEstimate: an array whose first row has id. */
export type CheckOutPurchaseReply = [{ id: number; purchaseId: number; warnings: string[] }];

/** GET /previewPurchase?cart_no=&distributor=&costs=sl:cp,...: the purchase panel's figures before confirming (decimal strings). */
export interface PreviewPurchaseReply {
  lines: { sl_no: number; product_id: number; product_name: string; quantity: string; units: string; cp: string; disc: string; taxable: string; tax: string }[];
  subtotal: string;
  tax: string;
  shipping: string;
  discount: string;
  total: string;
}

export interface PurchaseListRow {
  id: number;
  Date: string;
  Distributors: string;
  'Total Amount': number;
  Paid: number;
}
/** GET /getPurchaseList?pageNo */
export interface GetPurchaseListReply {
  purchaseList: PurchaseListRow[];
  noOfPages: number;
}

/** One purchased line. rate = the product's cost price at purchase time; units = quantity x per_peice_quantity. */
export interface PurchaseLine {
  sl_no: number;
  product_id: number;
  product_name: string;
  unit: string;
  quantity: number;
  per_peice_quantity: number;
  rate: number;
  disc: number;
  /** (rate - disc) x quantity x per_peice_quantity */
  amount: number;
  /** Units that came into stock. */
  units: number;
}

/** GET /getPurchaseDetails?purchaseId (spec 001 §3 Purchase, plus lines and the totals shown). */
export interface GetPurchaseDetailsReply {
  id: number;
  purchase_id: number;
  bill_no: string;
  /** The distributor's bill date when typed at the checkout (issue 32). */
  bill_date?: string;
  date: string;
  distributor_id: number;
  /** The distributor's name. */
  name: string;
  officer: { id: number; name: string } | null;
  paid: number;
  /** The distributor's due before this purchase. */
  previous_due: number;
  /** previous_due + total - paid */
  new_due: number;
  duedate: string;
  shipping: number;
  summery_discount: number;
  /** 1 when 18% tax was applied. */
  tax: 0 | 1;
  taxAmount: number;
  subTotal: number;
  /** subTotal + taxAmount + shipping - summery_discount, to 2 decimals. */
  total: number;
  lines: PurchaseLine[];
  /** GST mode: the distributor's GSTIN and state frozen at the purchase and the input tax per line (decimal strings); null otherwise. */
  gst?: PurchaseGst | null;
  /** Per line: bought, returned so far and still returnable (packs). */
  returns?: ReturnableLine[];
  /** The purchase's debit notes, oldest first. */
  debitNotes?: { debitNoteId: number; debit_note_no: string; date: string; amount: number; refund: number }[];
}

/** GET /getPurchaseLabelDetails?purchaseId: one row per product line, packets default to the pieces bought. */
export interface GetPurchaseLabelDetailsReply {
  purchase_id: number;
  date: string;
  distributor_name: string;
  labels: {
    product_id: number;
    product_name: string;
    brand_name: string;
    mrp: string;
    unit: string;
    per_peice_quantity: string;
    code: string;
    features: { field_name: string; alias: string; value: string }[];
    packets: number;
  }[];
}
