/**
 * The facts the read model is built from: each domain event of the streams (or an owner's
 * history page) becomes one Fact. Money is integer paise here (exact, and MongoDB can $inc it);
 * the events carry decimal strings, converted once in `events.ts`.
 */
export interface FactBase {
  /** The event's id: a redelivered or replayed event has the same one and counts once. */
  eventId: string;
  companyId: number;
  /** Business date (YYYY-MM-DD, IST). */
  date: string;
  /** When the fact was committed (ISO): orders the day book the same live and rebuilt. */
  at: string;
}

export interface FactLine {
  productId: number;
  name: string;
  qty: number;
  /** What the line sold (or returned) for, paise. */
  value: number;
  /** The line's frozen cost (cost price x qty), paise; null when the sale predates frozen costs. */
  cost: number | null;
}

export interface SaleFact extends FactBase {
  kind: 'sale';
  saleId: number;
  docNo: string | null;
  customerId: number | null;
  customerName: string;
  amount: number;
  paid: number;
  dueDate: string | null;
  lines: FactLine[];
}

export interface SaleReturnFact extends FactBase {
  kind: 'sale-return';
  noteId: number;
  docNo: string | null;
  saleId: number;
  customerId: number | null;
  customerName: string;
  amount: number;
  refund: number;
  /** Lines with their cost when the event has it; otherwise taken from the sale's lines. */
  lines: FactLine[];
}

export interface SaleCancelFact extends FactBase {
  kind: 'sale-cancel';
  saleId: number;
  docNo: string | null;
  customerId: number | null;
  customerName: string;
  /** What the cancel took off the bill's value (the bill less its earlier returns). */
  amount: number;
  /** Due taken off the customer by the cancel. */
  due: number;
  /** The ledger source `sale-cancel:<cancelId>` (its money's day book join); null on older events. */
  cancelId: number | null;
}

export interface PurchaseFact extends FactBase {
  kind: 'purchase';
  purchaseId: number;
  docNo: string | null;
  distributorId: number | null;
  distributorName: string;
  amount: number;
  paid: number;
  dueDate: string | null;
}

export interface PurchaseReturnFact extends FactBase {
  kind: 'purchase-return';
  noteId: number;
  docNo: string | null;
  purchaseId: number;
  distributorId: number | null;
  distributorName: string;
  amount: number;
  refund: number;
}

/** A ledger entry: the signed change of what a customer (r) or distributor (p) owes. */
export interface EntryPart {
  side: 'r' | 'p';
  partyId: number;
  delta: number;
  dueDate: string | null;
  docNo: string | null;
  /** The entry's source and kind (logs). */
  key: string;
  /** The document it belongs to (`sale:12`): a reversal takes back that document's own due. */
  src: string;
  reversal: boolean;
  /** The money the entry moved, by mode (paise): +1 into the shop, -1 out of it, 0 none (an opening). */
  dir: 1 | -1 | 0;
  payments: { mode: string; amount: number }[];
  /** Who took or paid it (user id). */
  by: number | null;
  /** The entry's kind as the day book names it (sale, sale-return, payment-received, reversal...). */
  moveKind: string;
}

export interface PaymentFact extends FactBase {
  kind: 'payment-received' | 'payment-given';
  paymentId: number;
  partyId: number;
  partyName: string;
  amount: number;
  entry: EntryPart;
}

/** Every ledger entry other than payments (sale, purchase, opening, notes, cancellation, reversal). */
export interface LedgerEntryFact extends FactBase {
  kind: 'ledger-entry';
  entry: EntryPart;
}

export interface StockFact extends FactBase {
  kind: 'stock-moved';
  movements: { productId: number; qty: number }[];
}

export interface ProductFact extends FactBase {
  kind: 'product-changed';
  productId: number;
  /** Orders changes of one product (occurredAt, ms): an older change arriving late is ignored. */
  version: number;
  name: string;
  category: string;
  brand: string;
  /** Cost price and MRP per unit, paise. */
  cp: number;
  mrp: number;
  minStock: number;
  active: boolean;
}

/** A customer (r) or distributor (p) as the ledger now has it: the name the reports show for it. */
export interface PartyFact extends FactBase {
  kind: 'party-changed';
  side: 'r' | 'p';
  partyId: number;
  /** Orders changes of one party (its last write, ms): an older change arriving late is ignored. */
  version: number;
  name: string;
  mobile: string;
  gstin: string | null;
}

/** The books' opening balances (ledger, PUT /books/opening): the latest `version` wins. */
export interface OpeningFact extends FactBase {
  kind: 'opening-set';
  version: number;
  /** Paise. */
  cash: number;
  bank: number;
}

/** An expense after a write (ledger): the highest `version` wins; a deleted one counts no more. */
export interface ExpenseFact extends FactBase {
  kind: 'expense';
  expenseId: number;
  version: number;
  category: string;
  amount: number;
  payments: { mode: string; amount: number }[];
  note: string;
  by: string;
  deleted: boolean;
}

export type Fact = OpeningFact | ExpenseFact | SaleFact | SaleReturnFact | SaleCancelFact | PurchaseFact | PurchaseReturnFact | PaymentFact | LedgerEntryFact | StockFact | ProductFact | PartyFact;
export type FactKind = Fact['kind'];
