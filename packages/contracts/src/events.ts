/**
 * Domain events: the owners (sales, inventory, ledger) publish a fact to JetStream after their
 * own commit, through service-kit's EventRelay (at least once). Consumers (reports) read them with
 * durable consumers and count each `eventId` once: a republished event has the same id (it is
 * made from the fact, not from the publish), and JetStream also drops a repeat `Nats-Msg-Id`
 * within the stream's duplicate window.
 *
 * Every payload: `eventId`, `companyId`, `occurredAt` (ISO instant of the fact), `date` (its
 * business date, YYYY-MM-DD IST) and the figures as exact decimal strings (never numbers).
 *
 * Rebuild: a stream keeps `maxAgeDays` of events (and at most `maxBytes`; the oldest go first).
 * A consumer that needs older facts (a new or wiped read model) asks the owner for its history
 * page by page (`<domain>.history.page`), which answers the same payloads from the owner's own
 * records, oldest first; then it reads the stream from its first message. Projections must be
 * idempotent by eventId, so the overlap of the two counts once.
 */
import type { PartyKind, PaymentLine } from './ledger';
import type { StockSourceKind } from './inventory';

/** One stream per owning domain. Retention: limits (age and size), discard old; file storage. */
export interface EventStreamDef {
  name: string;
  /** The subjects it captures (`events.<domain>.>`). */
  subjects: string[];
  owner: 'sales' | 'inventory' | 'ledger';
  /** Messages older than this are removed; the owner's history answers for them. */
  maxAgeDays: number;
  /** Hard cap on the stream's size: beyond it the oldest messages are dropped (discard old). */
  maxBytes: number;
  /** JetStream's de-duplication window for `Nats-Msg-Id` (a relay republishes within seconds). */
  duplicateWindowMs: number;
}

const GiB = 1024 ** 3;
export const EventStreams = {
  sales: { name: 'BAHI_SALES', subjects: ['events.sales.>'], owner: 'sales', maxAgeDays: 400, maxBytes: 20 * GiB, duplicateWindowMs: 10 * 60_000 },
  inventory: { name: 'BAHI_INVENTORY', subjects: ['events.inventory.>'], owner: 'inventory', maxAgeDays: 400, maxBytes: 20 * GiB, duplicateWindowMs: 10 * 60_000 },
  ledger: { name: 'BAHI_LEDGER', subjects: ['events.ledger.>'], owner: 'ledger', maxAgeDays: 400, maxBytes: 10 * GiB, duplicateWindowMs: 10 * 60_000 },
} as const satisfies Record<string, EventStreamDef>;
export type EventDomain = keyof typeof EventStreams;

/** Every event subject (`events.<domain>.<entity>.<fact>`). Published only through JetStream. */
export const EventSubjects = {
  sales: {
    /** A sale (bill) completed: lines with frozen cost, amount, paid, customer, GST. */
    saleCompleted: 'events.sales.sale.completed',
    /** A credit note (sales return) completed. */
    saleReturned: 'events.sales.sale.returned',
    /** A bill was cancelled: its sale no longer counts. */
    saleCancelled: 'events.sales.sale.cancelled',
  },
  inventory: {
    purchaseCompleted: 'events.inventory.purchase.completed',
    /** A debit note (purchase return) completed. */
    purchaseReturned: 'events.inventory.purchase.returned',
    /** One applied (or reversed) stock source with its movements. */
    stockMoved: 'events.inventory.stock.moved',
    /** A product's reportable fields after a write (latest wins). */
    productChanged: 'events.inventory.product.changed',
  },
  ledger: {
    paymentReceived: 'events.ledger.payment.received',
    paymentGiven: 'events.ledger.payment.given',
    /** Every other ledger entry (sale, purchase, opening, notes, cancellation, reversal): with payments, the whole of each party's due. */
    entryPosted: 'events.ledger.entry.posted',
    /** A customer or distributor as it is after a write (created, edited, imported): latest wins. */
    partyChanged: 'events.ledger.party.changed',
    /** The company's opening cash and bank balances (latest wins; `date` = the opening date). */
    openingSet: 'events.ledger.books.opening',
    /** An expense as it is after a write (added, edited, deleted): latest `version` wins; `date` = the expense date. */
    expenseChanged: 'events.ledger.expense.changed',
  },
} as const;

type Leaves<T> = T extends string ? T : { [K in keyof T]: Leaves<T[K]> }[keyof T];
export type EventSubject = Leaves<typeof EventSubjects>;

/** What every event carries. */
export interface DomainEventBase {
  /** Deterministic from the fact, e.g. `sale:7:1203:completed`: a republish is the same id. */
  eventId: string;
  companyId: number;
  /** ISO instant the fact was committed (or the record's creation when that is not kept). */
  occurredAt: string;
  /** Business date YYYY-MM-DD (IST). */
  date: string;
}

/** GST figures of a bill or note (null in simple mode); decimal strings. */
export interface EventGst {
  tax_mode: 'gst' | 'composition';
  invoice_no: string | null;
  inter_state: boolean;
  taxable_total: string;
  cgst_total: string;
  sgst_total: string;
  igst_total: string;
  round_off: string;
}

/** A sold line. Quantities: `quantity` packs x `per_peice_quantity` = `units` (the unit cp and mrp are per). */
export interface SaleEventLine {
  sl_no: number;
  product_id: number;
  product_name: string;
  unit: string;
  quantity: string;
  per_peice_quantity: string;
  units: string;
  /** mrp per unit at the sale. */
  rate: string;
  disc: string;
  /** (rate - disc) x units, before the summary discount and tax. */
  amount: string;
  /** The product's cost price per unit when the line was added to the cart or estimate (frozen); null for lines older than that. */
  cp: string | null;
  /** GST mode: the line's taxable value, rate in percent and tax heads; null otherwise. */
  taxable_value: string | null;
  gst_rate: string | null;
  cgst: string | null;
  sgst: string | null;
  igst: string | null;
  /** GST mode: the line's taxable value before its share of shipping less the summary discount (absent on events before it was carried). */
  line_taxable?: string | null;
  /** Its value before tax and shipping, net of its share of the summary discount (@bahi/gst netOfDiscount): what its profit is measured on (absent on events before it was carried). */
  net_value?: string;
}

export interface SaleCompletedEvent extends DomainEventBase {
  saleId: number;
  /** 0 for the walk-in customer. */
  clientId: number;
  customerName: string;
  walkIn: boolean;
  lines: SaleEventLine[];
  subtotal: string;
  /** 1 = the simple-mode 18 % tax applied. */
  tax: 0 | 1;
  taxAmount: string;
  shipping: string;
  discount: string;
  /** What the bill is worth: subtotal + tax + shipping - discount (the previous due is never inside). */
  amount: string;
  /** Paid at the counter. */
  paid: string;
  /** Next due date YYYY-MM-DD. */
  dueDate: string;
  gst: EventGst | null;
}

/** A credited (or debited) line: the bill's (purchase's) line and the units that came back. */
export interface NoteEventLine {
  sl_no: number;
  product_id: number;
  product_name: string;
  /** Packs returned, and the same in units. */
  quantity: string;
  units: string;
  /** (rate - disc) x units, before the summary discount share and tax. */
  amount: string;
  /** What the line credits (debits): after its discount share, with its tax. */
  value: string;
  /** Cost per unit: a sale line's frozen cp (null when the bill has none); a purchase line's rate. */
  cp: string | null;
}

export interface SaleReturnedEvent extends DomainEventBase {
  creditNoteId: number;
  credit_note_no: string;
  saleId: number;
  clientId: number;
  customerName: string;
  lines: NoteEventLine[];
  subtotal: string;
  discount: string;
  tax: string;
  shipping: string;
  /** The note's value: what the customer's due went down by. */
  amount: string;
  /** Cash paid back to the customer now. */
  refund: string;
  gst: EventGst | null;
}

export interface SaleCancelledEvent extends DomainEventBase {
  saleId: number;
  clientId: number;
  reason: string;
  /** The cancelled sale's amount and counter payment (what the cancellation takes back). */
  amount: string;
  paid: string;
  /** The ledger source of the cancellation (`sale-cancel:<cancelId>`): joins its money to the day book row. */
  cancelId?: number;
}

export interface PurchaseEventLine {
  sl_no: number;
  product_id: number;
  product_name: string;
  quantity: string;
  per_peice_quantity: string;
  units: string;
  /** Cost per unit paid. */
  rate: string;
  amount: string;
}

export interface PurchaseCompletedEvent extends DomainEventBase {
  purchaseId: number;
  /** The distributor's own bill number, as entered (any tax mode; absent in events published before it was carried). */
  bill_no?: string | null;
  distributorId: number;
  distributorName: string;
  lines: PurchaseEventLine[];
  subtotal: string;
  tax: 0 | 1;
  taxAmount: string;
  shipping: string;
  discount: string;
  amount: string;
  paid: string;
  dueDate: string;
  gst: EventGst | null;
}

export interface PurchaseReturnedEvent extends DomainEventBase {
  debitNoteId: number;
  debit_note_no: string;
  purchaseId: number;
  distributorId: number;
  distributorName: string;
  lines: NoteEventLine[];
  subtotal: string;
  discount: string;
  tax: string;
  shipping: string;
  amount: string;
  /** Money the distributor paid back now. */
  refund: string;
}

export interface StockMovedEvent extends DomainEventBase {
  /** `applied` when the source's movements were written; `reversed` when a reverse undid them (movements: the reversal's). */
  fact: 'applied' | 'reversed';
  source: { kind: StockSourceKind; id: number };
  movements: {
    product_id: number;
    line: number;
    /** Signed change in units: negative = out. */
    quantity: string;
    rate: string;
    /** Stock after the movement. */
    stock: string;
  }[];
}

export interface ProductChangedEvent extends DomainEventBase {
  product_id: number;
  product_name: string;
  category: { id: number; name: string } | null;
  brand_name: string;
  unit: string;
  cp: string;
  mrp: string;
  min_stock: string;
  default_stock: string;
  /** Stock at the write (stock.moved events carry its changes). */
  stock: string;
  hsn_code: string;
  active: 0 | 1;
}

/** Every ledger entry: `delta` is the signed change of what the party owes (the due is the sum of deltas). */
export interface LedgerEntryEvent extends DomainEventBase {
  /** The ledger's entry kind: opening, sale, purchase, payment_received, payment_given, reversal, credit_note, debit_note, cancellation. */
  entryKind: string;
  party: { kind: PartyKind; id: number };
  /** The document or payment: sale, purchase, payment, opening, credit-note, debit-note, sale-cancel. */
  source: { kind: string; id: number };
  /** Per-company order of the ledger's entries. */
  seq: number;
  amount: string;
  paid: string;
  delta: string;
  /** The next due date this entry set (null: none; reversals never set it). */
  dueDate: string | null;
  docNo: string | null;
  /** How the entry's money changed hands (a payment's amount, a document's paid or refund), by mode; a reversal carries the undone entry's. Absent on events before it was carried (then cash). */
  payments?: import('./ledger').PaymentLine[];
  /** The user who took or paid the money (null: not recorded). */
  by?: number | null;
}

/** Payments received (customer) or given (distributor): an entry with how it was paid. */
export interface PaymentEvent extends LedgerEntryEvent {
  paymentId: number;
  payType: string;
  transactionId: string;
}

/**
 * A customer or distributor after a write: what reports names it by (ledger entries carry ids only).
 * `version` orders the writes of one party (its last write, ms): an older event arriving late changes nothing.
 */
export interface PartyChangedEvent extends DomainEventBase {
  party: { kind: PartyKind; id: number };
  name: string;
  /** A customer's mobile number; '' for a distributor (its officers have theirs). */
  mobile: string;
  gstin: string | null;
  /** The company's walk-in customer. */
  walkIn: boolean;
  version: number;
}

/** Opening balances of the books (PUT /books/opening): the cash and bank the company held on `date`. */
export interface OpeningSetEvent extends DomainEventBase {
  cash: string;
  bank: string;
  /** Orders the writes (ms of the write): an older event arriving late changes nothing. */
  version: number;
}

/** An expense after a write; `deleted` ones are kept (and count no more). */
export interface ExpenseChangedEvent extends DomainEventBase {
  expenseId: number;
  /** 1 when added, +1 per edit or delete: the highest wins. */
  version: number;
  category: string;
  amount: string;
  payments: PaymentLine[];
  note: string;
  /** Who made this write (the token's uid and name). */
  by: { id: number; name: string };
  deleted: boolean;
}

export interface EventPayloads {
  'events.sales.sale.completed': SaleCompletedEvent;
  'events.sales.sale.returned': SaleReturnedEvent;
  'events.sales.sale.cancelled': SaleCancelledEvent;
  'events.inventory.purchase.completed': PurchaseCompletedEvent;
  'events.inventory.purchase.returned': PurchaseReturnedEvent;
  'events.inventory.stock.moved': StockMovedEvent;
  'events.inventory.product.changed': ProductChangedEvent;
  'events.ledger.payment.received': PaymentEvent;
  'events.ledger.payment.given': PaymentEvent;
  'events.ledger.entry.posted': LedgerEntryEvent;
  'events.ledger.party.changed': PartyChangedEvent;
  'events.ledger.books.opening': OpeningSetEvent;
  'events.ledger.expense.changed': ExpenseChangedEvent;
}
export type DomainEvent = EventPayloads[EventSubject];

/** One event as the history answers it: its subject and payload. */
export interface HistoryEvent<S extends EventSubject = EventSubject> {
  subject: S;
  event: EventPayloads[S];
}

/**
 * The record collections each owner pages through for its history (one cursor per source):
 * sales: sale (completed sales), credit-note, sale-cancel; inventory: purchase, debit-note,
 * stock (applied sources), product; ledger: entry (payments included), customer, distributor,
 * opening (the books' opening balances), expense.
 */
export const HistorySources = {
  sales: ['sale', 'credit-note', 'sale-cancel'],
  inventory: ['purchase', 'debit-note', 'stock', 'product'],
  ledger: ['entry', 'customer', 'distributor', 'opening', 'expense'],
} as const;
export type HistorySource<D extends EventDomain = EventDomain> = (typeof HistorySources)[D][number];

/** `<domain>.history.page`: complete records of one source, oldest first, after a cursor. */
export interface HistoryPageRequest {
  /** One company, or all companies when absent/null. */
  companyId?: number | null;
  source: string;
  /** The `next` of the previous page; null/absent: from the start. */
  after?: string | null;
  /** Records per page, 1..1000 (default 500). */
  limit?: number;
}
export interface HistoryPageReply {
  /** Events of the page's records in their order (a record may give more than one: applied then reversed, completed then cancelled). */
  events: HistoryEvent[];
  /** Cursor of the next page; null when this was the last. */
  next: string | null;
}

/** The JetStream API subjects a principal may use (granted besides its SubjectRoutes permissions). */
export function jetStreamGrants(principal: string): { publish: string[]; subscribe: string[] } {
  const publish: string[] = [];
  for (const s of Object.values(EventStreams)) {
    if (s.owner === principal) {
      publish.push(...s.subjects, `$JS.API.STREAM.CREATE.${s.name}`, `$JS.API.STREAM.UPDATE.${s.name}`, `$JS.API.STREAM.INFO.${s.name}`);
    }
    if (principal === 'reports') {
      publish.push(
        `$JS.API.STREAM.INFO.${s.name}`,
        `$JS.API.CONSUMER.*.${s.name}.>`,
        `$JS.API.CONSUMER.DURABLE.CREATE.${s.name}.>`,
        `$JS.API.CONSUMER.MSG.NEXT.${s.name}.>`,
        `$JS.ACK.${s.name}.>`,
      );
    }
  }
  if (publish.length) publish.push('$JS.API.INFO');
  return { publish, subscribe: [] };
}

declare module './subjects' {
  interface SubjectPayloads {
    'sales.history.page': HistoryPageRequest;
    'inventory.history.page': HistoryPageRequest;
    'ledger.history.page': HistoryPageRequest;
  }
  interface SubjectReplies {
    'sales.history.page': HistoryPageReply;
    'inventory.history.page': HistoryPageReply;
    'ledger.history.page': HistoryPageReply;
  }
}
