/**
 * Documents: every printable PDF (services/documents). documents stores no document (only share links); it asks the
 * owning services for a document's data with the requests below and renders it. Money travels
 * as decimal strings; documents computes the printed totals exactly from them.
 */
import type { Customer, HistoryRow, PaymentLine, PayMode, Receipt } from './ledger';
import type { LabelDetailsReply } from './inventory';
import type { SaleGst } from './gst';
import type { Language } from './identity';

/** The kinds under GET /api/documents/{kind}/... */
export const DocumentKinds = ['bill', 'estimate', 'challan', 'receipt', 'statement', 'stockbook', 'labels', 'purchase-labels', 'credit-note', 'debit-note', 'reorder', 'report', 'register'] as const;
export type DocumentKind = (typeof DocumentKinds)[number];

/**
 * Options every GET /documents/{kind}/... takes besides its kind's own: `lang` prints it in English
 * or Hindi (absent: the company's doc_language; anything else is a 400), `download=1` serves it as
 * an attachment.
 */
export interface DocumentOptions {
  lang?: Language;
  download?: '1';
}

/** Requests documents makes; each is answered by the service named in the subject. */
export const DocumentSubjects = {
  /** sales: a sale with its lines, figures, customer and delivery, for the bill and the challan; null when unknown. */
  saleDocument: 'sales.sale.document',
  /** sales: an estimate with its lines and figures; null when unknown. */
  estimateDocument: 'sales.estimate.document',
  /** ledger: a received payment (money receipt); null when unknown. */
  receiptDocument: 'ledger.receipt.document',
  /** ledger: a customer's whole account, oldest entry first; null when unknown. */
  customerStatement: 'ledger.customer.statement',
  /** inventory: the stock book rows of a category (same filters as /getProductListForStockBook). */
  stockBook: 'inventory.stockbook.rows',
  /** inventory: one product's label data (same shape as GET /getLabelDetails/{id}); null when unknown. */
  labelDetails: 'inventory.label.details',
  /** inventory: a purchase's lines with their label data; null when unknown. */
  purchaseLabels: 'inventory.purchase.labels',
  /** sales: a credit note (returns.ts CreditNoteDetails); null when unknown. */
  creditNoteDocument: 'sales.creditnote.document',
  /** inventory: a debit note (returns.ts DebitNoteDetails); null when unknown. */
  debitNoteDocument: 'inventory.debitnote.document',
  /** inventory: one distributor's group of the reorder list (reorder.ts); null when it has no products. */
  reorderDocument: 'inventory.reorder.document',
  /** reports: one report's rows and totals with the same filters as GET /reports/{name} (ReportRowsRequest; every row, no paging). */
  reportRows: 'reports.report.rows',
  /** ledger: a cashier's register session for its Z report (RegisterDocument); null when unknown or not the caller's to see. */
  registerDocument: 'ledger.register.document',
} as const;

/** The reports a report document prints (GET /documents/report/{name}). */
export const ReportNames = ['daybook', 'sales-register', 'purchase-register', 'stock-summary', 'profit', 'ageing'] as const;
export type ReportName = (typeof ReportNames)[number];

/** documents -> reports: a report as its JSON route answers it, with the same query strings (`from`, `to`, `clientId`, ...). */
export interface ReportRowsRequest {
  companyId: number;
  name: ReportName;
  query: Record<string, string>;
  /** The most rows the document prints: past it the reply carries no rows and `more: true`. */
  maxRows: number;
}
/** The report's JSON (rows from the first, totals over all of them, the filters it applied). */
export interface ReportRowsReply {
  name: ReportName;
  report: Record<string, unknown> & { rows: Record<string, unknown>[]; totals: Record<string, unknown> };
  /** True when the report has more than maxRows rows (none are sent then). */
  more: boolean;
}

/** Spec 001 §3 sold product line, amounts as decimal strings. */
export interface SoldLine {
  /** The line's number in the sale (GstLine.sl_no refers to it); optional for estimates printed before it existed. */
  sl_no?: number;
  product_id: number;
  product_name: string;
  /** Quantity in the line's packs (the counter's quantity). */
  quantity: string;
  /** Pieces per pack: the printed quantity is quantity x per_peice_quantity, what the amount was computed from. */
  per_peice_quantity?: string;
  /** The unit price (MRP) before the line discount. */
  rate: string;
  /** Discount per unit. */
  disc: string;
  /** rate - disc. */
  price: string;
  /** Line amount = price * quantity * per_peice_quantity, as stored by sales. */
  amount: string;
  hsn_code: string;
  unit: string;
}

/** Spec 001 §3 Delivery. */
export interface DeliveryDetails {
  id: number;
  transporter_name: string;
  transporter_mobile: string;
  address: string;
  mode_of_transport: string;
  vehicle_number: string;
  dispatched_date: string;
  sale_id: number;
}

export interface SaleDocumentRequest {
  companyId: number;
  saleId: number;
}
/**
 * A sale as printed. `customer` is null or has `walkIn: true` for the walk-in customer (block
 * hidden, previous due excluded). `tax` is the tax amount (18 % of subtotal when applied, else "0").
 */
export interface SaleDocument {
  sale_id: number;
  /** YYYY-MM-DD */
  date: string;
  due_date: string | null;
  customer: Customer | null;
  soldProducts: SoldLine[];
  subtotal: string;
  tax: string;
  shipping: string;
  summery_discount: string;
  /** The customer's due before this sale ("0" for the walk-in customer). */
  previousDue: string;
  paid: string;
  delivery: DeliveryDetails | null;
  /** GST mode: the frozen tax invoice (or bill of supply), printed A4; null or absent in simple mode (A5 bill). */
  gst?: SaleGst | null;
  /** A cancelled bill: printed with a CANCELLED watermark, the date and the reason; null otherwise. */
  cancelled?: { date: string; reason: string } | null;
  /** How `paid` changed hands (issue 28), when sales sends it; absent: all cash. */
  payments?: PaymentLine[] | null;
  /** The e-way bill recorded on the bill (issue 31): printed on the tax invoice and the challan. */
  ewaybill?: { ewb_no: string; valid_until: string } | null;
}

export interface EstimateDocumentRequest {
  companyId: number;
  estimateId: number;
}
export interface EstimateDocument {
  estimate_id: number;
  date: string;
  customer: Customer | null;
  lines: SoldLine[];
  subtotal: string;
  tax: string;
  shipping: string;
  summery_discount: string;
  previous_due: string;
}

export interface ReceiptDocumentRequest {
  companyId: number;
  paymentId: number;
}
/** The ledger's Receipt (GET /getSalesPaymentDetails data). */
export type ReceiptDocument = Receipt;

export interface CustomerStatementRequest {
  companyId: number;
  clientId: number;
  /** The most rows documents prints: an account with more entries comes back with no rows, only `entries`. */
  maxRows?: number;
}
export interface CustomerStatement {
  customer: Customer;
  /** Every entry of the account, oldest first (none when there are more than the request's maxRows). */
  rows: HistoryRow[];
  /** How many entries the account has. */
  entries?: number;
  /** The current due, decimal string. */
  due: string;
  dueDate: string | null;
}

export interface StockBookRequest {
  companyId: number;
  category: number;
  brand?: string | null;
  stock?: 0 | 1 | 2 | null;
  active?: 0 | 1 | null;
}
export interface StockBookRow {
  product_id: number;
  product_name: string;
  brand_name: string;
  mrp: string;
  cp: string;
  stock: string;
  unit: string;
  /** Values of the category's spec fields, in `specField` order. */
  specs: string[];
}
export interface StockBookReply {
  category: { id: number; name: string };
  /** Names of the category's spec fields (column headings). */
  specField: string[];
  list: StockBookRow[];
}

export interface LabelDetailsRequest {
  companyId: number;
  productId: number;
}

export interface PurchaseLabelsRequest {
  companyId: number;
  purchaseId: number;
}
export interface PurchaseLabelLine extends LabelDetailsReply {
  /** Packets bought (the default number of labels of this line). */
  packets: number;
}
export interface PurchaseLabels {
  purchase_id: number;
  date: string;
  distributor_name: string;
  lines: PurchaseLabelLine[];
}

/** documents -> ledger: a register session; staff may print only their own (`userId`), managers any of the company. */
export interface RegisterDocumentRequest {
  companyId: number;
  sessionId: number;
  userId: number;
  manager: boolean;
}
/** One money movement of a session, as the Z report lists it (amounts exact decimal strings, signed: + in, - out). */
export interface RegisterMovement {
  /** When the ledger recorded it (ISO). */
  at: string;
  /** sale, payment_received, payment_given, purchase, credit_note, debit_note, cancellation, reversal, expense. */
  kind: string;
  /** The bill, payment, purchase, note or expense number. */
  ref: number;
  mode: PayMode;
  amount: string;
}
/** A register session with the exact figures its Z report prints (decimal strings). */
export interface RegisterDocument {
  id: number;
  open: boolean;
  user_name: string;
  opened_at: string;
  closed_at: string | null;
  opening_cash: string;
  cash_in: string;
  cash_out: string;
  expected_cash: string;
  counted_cash: string | null;
  difference: string | null;
  totals: Record<PayMode, string>;
  sales_count: number;
  note: string;
  movements: RegisterMovement[];
}

declare module './subjects' {
  interface SubjectPayloads {
    'sales.sale.document': SaleDocumentRequest;
    'sales.estimate.document': EstimateDocumentRequest;
    'ledger.receipt.document': ReceiptDocumentRequest;
    'ledger.customer.statement': CustomerStatementRequest;
    'inventory.stockbook.rows': StockBookRequest;
    'inventory.label.details': LabelDetailsRequest;
    'inventory.purchase.labels': PurchaseLabelsRequest;
    'reports.report.rows': ReportRowsRequest;
    'ledger.register.document': RegisterDocumentRequest;
  }
  interface SubjectReplies {
    'sales.sale.document': SaleDocument | null;
    'sales.estimate.document': EstimateDocument | null;
    'ledger.receipt.document': ReceiptDocument | null;
    'ledger.customer.statement': CustomerStatement | null;
    'inventory.stockbook.rows': StockBookReply;
    'inventory.label.details': LabelDetailsReply | null;
    'inventory.purchase.labels': PurchaseLabels | null;
    'reports.report.rows': ReportRowsReply;
    'ledger.register.document': RegisterDocument | null;
  }
}
