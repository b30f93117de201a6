// Customers, distributors, their accounts and payments (ledger service).
// HTTP reply shapes the specs leave "not shown" are designed here and documented in
// services/ledger/README.md. Money crosses NATS as decimal strings; HTTP replies give numbers
// rounded to 2 decimals.

/** The reserved walk-in customer's mobile number (the cart's 'Unknown'); its due never reaches a bill. */
export const WALK_IN_MOBILE = '0000000000';

/**
 * GST fields of a customer or distributor, in every ledger reply (HTTP and NATS); optional here
 * only so snapshots made before GST mode still type-check. `state` (spec field) is the state's
 * name when it is an Indian state, else the text as typed; `state_code` its 2-digit GST code or
 * null; `gstin` uppercase or null. A customer with a GSTIN is B2B (`b2b`). Place of supply is not
 * here: it needs the company's state, so sales computes it with @bahi/gst `placeOfSupply`
 * ({ customerGstin: gstin, customerState: state_code, companyState }).
 */
export interface PartyGst {
  state_code?: string | null;
  gstin?: string | null;
  b2b?: boolean;
}

/** Spec 000 §3 Customer. `id` repeats `client_id`. */
export interface Customer extends PartyGst {
  id: number;
  client_id: number;
  name: string;
  mobile_no: string;
  address_line_1: string;
  address_line_2: string;
  city_or_district: string;
  state: string;
  country: string;
  postal_code: string;
  /** True only for the reserved walk-in customer. */
  walkIn?: boolean;
}

export interface Officer {
  id: number;
  distributor_id: number;
  name: string;
  mobile: string;
}

/** Spec 001 §3 Distributor, with its officers. `id` repeats `distributor_id`. GST fields as for a customer (frozen on a purchase). */
export interface Distributor extends PartyGst {
  id: number;
  distributor_id: number;
  name: string;
  address_line_1: string;
  address_line_2: string;
  city_or_district: string;
  state: string;
  country: string;
  postal_code: string;
  officers: Officer[];
}

export type PartyKind = 'customer' | 'distributor';
export interface PartyRef {
  kind: PartyKind;
  id: number;
}
/**
 * The document an entry is posted for; each is posted at most once and reversed at most once.
 * sale, purchase: amount raises the party's due, paid lowers it (paid at the counter).
 * credit-note (customer), debit-note (distributor): amount lowers the due (goods came back),
 * paid raises it again (the refund: cash given to the customer / received from the distributor).
 * sale-cancel (customer, id = the cancellation attempt's own id: a reversed source stays reversed,
 * so each attempt is a new one): undoes the sale's entry (amount and paid are the sale's); with
 * `guard.noPaymentAfter` (the sale) it is refused (409) when a payment from the customer was
 * recorded after that sale's entry, and its account row leads to that sale.
 */
export type SourceKind = 'sale' | 'purchase' | 'credit-note' | 'debit-note' | 'sale-cancel';
export interface SourceRef {
  kind: SourceKind;
  id: number;
}

// ---- NATS payloads and replies ----

export interface CustomerLookupRequest {
  companyId: number;
  /** 0 or null -> the walk-in customer. */
  clientId: number | null;
}
export interface WalkInRequest {
  companyId: number;
}
export interface PartyDueRequest {
  companyId: number;
  party: PartyRef;
}
/** `due` is a decimal string (exact); dueDate YYYY-MM-DD or null when the party has no entries. */
export interface PartyDueReply {
  due: string;
  dueDate: string | null;
}
export interface EntryPostRequest {
  companyId: number;
  party: PartyRef;
  source: SourceRef;
  /** The document's total, decimal string. */
  amount: string;
  /** Paid at the counter, decimal string. */
  paid: string;
  /** Next due date YYYY-MM-DD (default: date). */
  dueDate?: string | null;
  /** Business date YYYY-MM-DD (default: today). */
  date?: string | null;
  /** The note's or invoice's printed number (CN/26-27/0001), shown on the party's account. */
  docNo?: string | null;
  /** sale-cancel: refuse (409, nothing posted) when the party paid after this source was posted. */
  guard?: { noPaymentAfter: SourceRef } | null;
  /** How `paid` changed hands (they add up to it); absent: all cash. */
  payments?: PaymentLine[] | null;
  /** The user id who took (or gave) the money; null when unknown. */
  by?: number | null;
}
export interface EntryPostReply {
  /** false when this source was already posted (idempotent), or was reversed before it was posted (a late post of an undone sale posts nothing). */
  posted: boolean;
}
export interface EntryReverseRequest {
  companyId: number;
  source: SourceRef;
}
export interface EntryReverseReply {
  /** false when there was nothing to reverse or it was already reversed. */
  reversed: boolean;
}
export interface DistributorCheckoutRequest {
  companyId: number;
}
export interface DistributorCheckoutReply {
  distributors: { distributor_id: number; name: string }[];
  officers: Officer[];
}
export interface DistributorLookupRequest {
  companyId: number;
  distributorId: number;
}

// ---- HTTP replies ----

/** POST/PUT /clients/addClient; failures carry done:false and err with a 4xx status. */
export interface AddClientReply {
  done: boolean;
  id?: number;
  customer?: Customer;
  err?: string;
}
/** POST /clientList/add-client */
export interface AddClientFormReply {
  success: boolean;
  id?: number;
  customer?: Customer;
  err?: string;
}
export interface ClientListRow {
  id: number;
  name: string;
  mobile_no: string;
  city_or_district: string;
  due: number;
}
export interface GetClientsListReply {
  clientsList: ClientListRow[];
  noOfPages: number;
}
export interface GetAllClientsListReply {
  allClientsList: { id: number; client_id: number; name: string; mobile_no: string }[];
}
export interface GetClientsDetailsReply {
  data: Customer & { due: number; dueDate: string | null };
}
/** One row of a party's account, newest first. */
export interface HistoryRow {
  id: string;
  date: string;
  /** 'Opening Balance' | 'Sale' | 'Purchase' | 'Payment Received' | 'Payment Given' | 'Reversal' | 'Credit Note' | 'Debit Note' | 'Sale Cancelled' */
  type: string;
  /** Sale, purchase or payment number (null for an opening balance). */
  ref: number | null;
  amount: number;
  paid: number;
  /** The due after this entry. */
  balance: number;
  due_date: string | null;
  /** Where the row leads: 'bill' (sale), 'purchase', 'receipt' (payment received), 'credit-note', 'debit-note' or null. */
  hide_link: string | null;
  /** A note's printed number (CN/26-27/0001) or a GST invoice number; null when it has none. */
  doc_no?: string | null;
  /** How the row's money changed hands (`paid` of a document, `amount` of a payment); [] when none did. */
  payments?: PaymentLine[];
}
export interface HistoryReply {
  list: HistoryRow[];
  noOfPages: number;
  name: string;
}
export interface DueAndDueDateReply {
  due: number;
  dueDate: string | null;
}
export interface PaymentReply {
  done: boolean;
  paymentId?: number;
  err?: string;
}
/** Spec 001 §3 Payment or receipt, plus the balance it left. */
export interface Receipt {
  id: number;
  client_id: number;
  name: string;
  mobile_no: string;
  address: string;
  type: string;
  transaction_id: string;
  amount: number;
  date: string;
  next_due_date: string | null;
  /** Due before and after this payment. */
  previous_due: number;
  due: number;
  /** The tenders of this payment (split tender: several); `type` names their modes ("Cash + UPI"). */
  payments?: PaymentLine[];
}
export interface DistributorListRow {
  id: number;
  name: string;
  city_or_district: string;
  due: number;
}
export interface GetDistributorsListReply {
  distributorsList: DistributorListRow[];
  noOfPages: number;
}
export interface GetAllDistributorsListReply {
  allDistributorsList: { id: number; distributor_id: number; name: string }[];
}
export interface AddDistributorReply {
  done: boolean;
  id?: number;
  distributor?: Distributor;
  err?: string;
}

// ---- Payment modes (issue 28) ----

/** How money changed hands: the counter's tender kinds. */
export const PAY_MODES = ['cash', 'upi', 'card', 'cheque', 'bank'] as const;
export type PayMode = (typeof PAY_MODES)[number];
/** The longest `ref` (UPI reference, cheque number) a payment line may carry. */
export const PAY_REF_MAX = 40;
/** One tender of a money call: `amount` an exact decimal string above 0; `ref` optional. */
export interface PaymentLine {
  mode: PayMode;
  amount: string;
  ref?: string;
}
/** Printed names of the modes (receipts, bills, the `type` of a receipt). */
export const PAY_MODE_LABELS: Record<PayMode, string> = { cash: 'Cash', upi: 'UPI', card: 'Card', cheque: 'Cheque', bank: 'Bank transfer' };

// ---- The cash register (issue 29): one session per cashier ----

/** Money taken less money paid out in the session, by mode (rupees, 2 decimals). */
export type RegisterTotals = Record<PayMode, number>;

/** POST /register/open reply. */
export interface RegisterOpenReply {
  id: number;
  opened_at: string;
  opening_cash: number;
}

/**
 * A cashier's session as GET /register/current and /register/sessions answer it. While open, the
 * figures are the running ones (up to now); once closed, the ones frozen at the close.
 */
export interface RegisterSession {
  id: number;
  open: boolean;
  user_id: number;
  user_name: string;
  opened_at: string;
  closed_at: string | null;
  opening_cash: number;
  /** Cash taken (sales, receipts, refunds from distributors) and cash paid out (refunds, payments given, purchases, cancellations, expenses). */
  cash_in: number;
  cash_out: number;
  /** opening_cash + cash_in - cash_out. */
  expected_cash: number;
  counted_cash: number | null;
  /** counted_cash - expected_cash (negative: short). */
  difference: number | null;
  totals: RegisterTotals;
  sales_count: number;
  note: string;
}

/** POST /register/close reply. */
export interface RegisterCloseReply {
  id: number;
  expected_cash: number;
  counted_cash: number;
  difference: number;
  totals: RegisterTotals;
  sales_count: number;
}

/** GET /register/sessions?date: staff see their own, managers every cashier's. */
export interface RegisterSessionsReply {
  date: string;
  sessions: RegisterSession[];
}

/** sales -> ledger: does this cashier have an open register session (require_register)? */
export interface RegisterCheckRequest {
  companyId: number;
  userId: number;
}
export interface RegisterCheckReply {
  open: boolean;
}
