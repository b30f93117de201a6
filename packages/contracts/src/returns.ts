/**
 * Returns and corrections: a sales return makes a credit note (sales), a purchase return a
 * debit note (inventory), and a bill can be cancelled (sales). Each crosses services as a sale
 * does (the kit's Saga: stock, ledger entry and the note all applied or none; a retried
 * idempotency key applies once). Notes are numbered CN/YY-YY/NNNN and DN/YY-YY/NNNN per
 * company and financial year (April-March, IST), gapless: a number is taken at the point of no
 * return, as invoice numbers are. HTTP replies carry numbers (display only); NATS and stored
 * amounts are exact decimal strings.
 */
import type { Customer } from './ledger';
import type { CompanyTaxMode } from './identity';
import type { SoldProduct } from './sales';

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
/**
 * GET /previewReturn?saleId=12&lines=3:1,5:2 (sl_no:packs): what that return would book, from the
 * same rule as the booking (decimal strings, 2 decimals). `refund_max` is the most the refund may be.
 */
export interface ReturnPreviewReply {
  value: string;
  refund_max: string;
  lines: { sl_no: number; quantity: string; value: string }[];
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
  /** Set when the bill's return period was already filed: the cancellation was made as this credit note, dated today. */
  creditNoteId?: number;
  credit_note_no?: string;
}

/** A bill's return and cancellation state, on the sales list rows and the bill details. */
export type SaleReturnStatus = '' | 'Partly returned' | 'Returned' | 'Cancelled';

/**
 * A credited or debited line, in the bill's (or purchase's) line terms: quantity is the packs
 * returned, amount (rate - disc) x units before the summary discount share and tax; GST figures
 * are reversed at the bill's rate and heads (null in simple mode).
 */
export interface NoteLine extends Omit<SoldProduct, 'price'> {
  /** What this line credits (or debits): after its share of the summary discount, with its tax. */
  value: number;
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

/** What every note carries: its lines and figures (HTTP numbers). */
export interface NoteFigures {
  /** YYYY-MM-DD (IST) */
  date: string;
  reason: string;
  lines: NoteLine[];
  /** Sum of the lines' amount. */
  subtotal: number;
  /** The lines' share of the bill's summary discount. */
  discount: number;
  /** Simple mode: the 18 % tax the lines carried (0 when the bill had none). */
  tax: number;
  /** The bill's shipping: credited only by the return that brings the whole bill back, else 0. */
  shipping: number;
  /** The note's value: what the party's due went down by. */
  amount: number;
  /** Money paid back now: cash to the customer (credit note), from the distributor (debit note). */
  refund: number;
  gst: NoteGst | null;
}

/** GET /getCreditNoteDetails?id */
export interface CreditNoteDetails extends NoteFigures {
  creditNoteId: number;
  credit_note_no: string;
  saleId: number;
  /** The sale's date. */
  sale_date: string;
  customer: Customer | null;
  walkIn: boolean;
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
export interface DebitNoteDetails extends NoteFigures {
  debitNoteId: number;
  debit_note_no: string;
  purchaseId: number;
  purchase_date: string;
  /** The distributor's bill number recorded on the purchase. */
  bill_no: string;
  distributor_id: number;
  name: string;
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
