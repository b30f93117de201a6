/**
 * Returns and corrections: a sales return makes a credit note (sales), a purchase return a
 * debit note (inventory), and a bill can be cancelled (sales). Each crosses services as a sale
 * does (the kit's Outbox: stock, ledger entry and the note all applied or none; a retried
 * idempotency key applies once). Notes are numbered CN/YY-YY/NNNN and DN/YY-YY/NNNN per
 * company and financial year (April-March, IST), gapless: a number is taken at the point of no
 * return, as invoice numbers are. HTTP replies carry numbers (display only); NATS and stored
 * amounts are exact decimal strings.
 */
import type { Customer } from './ledger';
import type { CompanyTaxMode } from './identity';

/** One returned line of a request: the bill's (or purchase's) line and how many of its packs come back. */
export interface ReturnLineInput {
  sl_no: number;
  /** Packs (the bill's quantity unit), > 0, at most sold minus earlier returns of that line. */
  quantity: number | string;
}

/** POST /salesReturn (managers). `refund` 0 .. the note's value, paid out in cash to the customer. */
export interface SalesReturnRequest {
  saleId: number;
  lines: ReturnLineInput[];
  refund: number | string;
  idempotencyKey: string;
  /** Printed on the note ("Damaged", "Wrong size"); optional. */
  reason?: string;
}
export interface SalesReturnReply {
  success: true;
  creditNoteId: number;
  credit_note_no: string;
  /** The note's value (what the customer's due went down by, before the refund). */
  amount: number;
  refund: number;
  warnings: string[];
}

/** POST /purchaseReturn (managers). `refund`: money the distributor pays back now. */
export interface PurchaseReturnRequest {
  purchaseId: number;
  lines: ReturnLineInput[];
  refund: number | string;
  idempotencyKey: string;
  reason?: string;
}
export interface PurchaseReturnReply {
  success: true;
  debitNoteId: number;
  debit_note_no: string;
  amount: number;
  refund: number;
  /** e.g. stock of a product went below zero. */
  warnings: string[];
}

/** POST /cancelSale (managers). */
export interface CancelSaleRequest {
  saleId: number;
  reason: string;
}
export interface CancelSaleReply {
  success: true;
  saleId: number;
  /** The invoice number the sale keeps (GST mode), else null. */
  invoice_no: string | null;
}

/** A bill's return and cancellation state, on the sales list rows and the bill details. */
export type SaleReturnStatus = '' | 'Partly returned' | 'Returned' | 'Cancelled';

/** A credited or debited line: the value is the line's share of the bill x returned / sold, to the paisa. */
export interface NoteLine {
  sl_no: number;
  product_id: number;
  product_name: string;
  hsn_code: string;
  unit: string;
  /** Packs returned and pieces per pack (units = quantity x per_peice_quantity). */
  quantity: number;
  per_peice_quantity: number;
  /** Rate and discount per unit as on the bill. */
  rate: number;
  disc: number;
  /** (rate - disc) x units: before the summary discount share and tax. */
  amount: number;
  /** What this line credits (or debits): after its share of the summary discount, with its tax. */
  value: number;
  /** GST mode (null otherwise): reversed at the bill's rate and heads. */
  taxable_value?: number | null;
  gst_rate?: number | null;
  cgst?: number | null;
  sgst?: number | null;
  igst?: number | null;
}

/** GST part of a note (null in simple mode): the original invoice and the reversed tax. */
export interface NoteGst {
  tax_mode: Exclude<CompanyTaxMode, 'simple'>;
  /** The original invoice's (or the distributor's bill) number and date. */
  invoice_no: string;
  invoice_date: string;
  /** The other party's GSTIN (null: unregistered) and place of supply. */
  gstin: string | null;
  place_of_supply: string;
  place_of_supply_name: string;
  inter_state: boolean;
  state_tax_name: 'SGST' | 'UTGST';
  taxable_total: number;
  cgst_total: number;
  sgst_total: number;
  igst_total: number;
  tax_total: number;
  /** The note's value - (taxable + tax): the invoice's round off, on the return that completes the bill. */
  round_off: number;
}

/** GET /getCreditNoteDetails?id */
export interface CreditNoteDetails {
  creditNoteId: number;
  credit_note_no: string;
  /** YYYY-MM-DD (IST) */
  date: string;
  saleId: number;
  /** The sale's date. */
  sale_date: string;
  customer: Customer | null;
  walkIn: boolean;
  reason: string;
  lines: NoteLine[];
  /** Sum of the lines' amount. */
  subtotal: number;
  /** The lines' share of the bill's summary discount. */
  discount: number;
  /** Simple mode: the 18 % tax the lines carried (0 when the bill had none). */
  tax: number;
  /** The bill's shipping: refunded only with the return that brings the whole bill back, else 0. */
  shipping: number;
  /** The note's value: what the customer's due went down by. */
  amount: number;
  /** Paid back in cash. */
  refund: number;
  gst: NoteGst | null;
}
export interface CreditNoteListRow {
  id: number;
  credit_note_no: string;
  Date: string;
  saleId: number;
  /** The bill's invoice number (GST mode), else null. */
  invoice_no: string | null;
  'Clients Name': string;
  Amount: number;
  Refund: number;
}
/** GET /getCreditNoteList?pageNo */
export interface CreditNoteListReply {
  list: CreditNoteListRow[];
  noOfPages: number;
}

/** GET /getDebitNoteDetails?id */
export interface DebitNoteDetails {
  debitNoteId: number;
  debit_note_no: string;
  date: string;
  purchaseId: number;
  purchase_date: string;
  /** The distributor's bill number recorded on the purchase. */
  bill_no: string;
  distributor_id: number;
  name: string;
  reason: string;
  lines: NoteLine[];
  subtotal: number;
  discount: number;
  tax: number;
  shipping: number;
  amount: number;
  refund: number;
  gst: NoteGst | null;
}
export interface DebitNoteListRow {
  id: number;
  debit_note_no: string;
  Date: string;
  purchaseId: number;
  Distributors: string;
  Amount: number;
  Refund: number;
}
/** GET /getDebitNoteList?pageNo */
export interface DebitNoteListReply {
  list: DebitNoteListRow[];
  noOfPages: number;
}

/** Per bill line: packs sold, already returned and still returnable (bill details, purchase details). */
export interface ReturnableLine {
  sl_no: number;
  sold: number;
  returned: number;
  returnable: number;
}

// ---- documents (NATS): the data of the credit-note and debit-note PDFs ----

export interface CreditNoteDocumentRequest {
  companyId: number;
  creditNoteId: number;
}
export interface DebitNoteDocumentRequest {
  companyId: number;
  debitNoteId: number;
}

declare module './subjects' {
  interface SubjectPayloads {
    'sales.creditnote.document': CreditNoteDocumentRequest;
    'inventory.debitnote.document': DebitNoteDocumentRequest;
  }
  interface SubjectReplies {
    'sales.creditnote.document': CreditNoteDetails | null;
    'inventory.debitnote.document': DebitNoteDetails | null;
  }
}
