import {
  EventSubjects,
  PAY_MODES,
  type ExpenseChangedEvent,
  type OpeningSetEvent,
  type LedgerEntryEvent,
  type PartyChangedEvent,
  type PaymentEvent,
  type ProductChangedEvent,
  type PurchaseCompletedEvent,
  type PurchaseReturnedEvent,
  type SaleCancelledEvent,
  type SaleCompletedEvent,
  type SaleReturnedEvent,
  type StockMovedEvent,
} from '@bahi/contracts';
import { isRealDate, money, mul, toPaise } from '@bahi/service-kit';
import type { Fact, FactLine } from './facts';

/** An event that cannot be projected (malformed): logged and acknowledged, never retried forever. */
export class BadEvent extends Error {}

const paise = (v: unknown, what: string): number => {
  if (typeof v !== 'string' && typeof v !== 'number') throw new BadEvent(`${what} is not an amount`);
  try {
    return toPaise(v);
  } catch {
    throw new BadEvent(`${what} is not an amount`);
  }
};
const num = (v: unknown, what: string): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new BadEvent(`${what} is not a number`);
  return n;
};
const id = (v: unknown, what: string): number => {
  if (!Number.isSafeInteger(v) || (v as number) < 0) throw new BadEvent(`${what} is not an id`);
  return v as number;
};
/** Cost of `units` at a per-unit cp, to the paisa; null when the line has no frozen cost. */
const costOf = (cp: string | null | undefined, units: string): number | null => (cp === null || cp === undefined ? null : toPaise(mul(money(cp), money(units))));

function base(e: { eventId?: unknown; companyId?: unknown; date?: unknown; occurredAt?: unknown }) {
  if (typeof e.eventId !== 'string' || !e.eventId) throw new BadEvent('eventId is missing');
  const companyId = id(e.companyId, 'companyId');
  if (!isRealDate(e.date)) throw new BadEvent('date is not YYYY-MM-DD');
  return { eventId: e.eventId, companyId, date: e.date, at: typeof e.occurredAt === 'string' ? e.occurredAt : '' };
}

const saleLines = (lines: SaleCompletedEvent['lines']): FactLine[] =>
  (Array.isArray(lines) ? lines : []).map((l) => ({
    productId: id(l.product_id, 'product_id'),
    name: String(l.product_name ?? ''),
    qty: num(l.units, 'units'),
    // Before tax and shipping, net of the summary discount's share; events before it: the line amount.
    value: paise(l.net_value ?? l.amount, 'line value'),
    cost: costOf(l.cp, l.units),
  }));

/** Payment lines of an event, in paise (events before modes carry none: `fallback` is cash). */
function paymentsOf(raw: unknown, fallback: number): { mode: string; amount: number }[] {
  if (!Array.isArray(raw)) return fallback ? [{ mode: 'cash', amount: fallback }] : [];
  return raw.map((p: { mode?: unknown; amount?: unknown }, i) => {
    if (typeof p?.mode !== 'string' || !PAY_MODES.includes(p.mode as never)) {
      const what = `payments[${i}].mode`;
      throw new BadEvent(`${what} is not a payment mode`);
    }
    return { mode: p.mode, amount: paise(p.amount, `payments[${i}].amount`) };
  });
}

/** Money's direction per ledger entry kind (into the shop +1); a reversal undoes its source's entry. */
const ENTRY_DIR: Record<string, 1 | -1 | 0> = { sale: 1, purchase: -1, payment_received: 1, payment_given: -1, credit_note: -1, debit_note: 1, cancellation: -1, opening: 0 };
const SOURCE_DIR: Record<string, 1 | -1> = { sale: 1, purchase: -1, 'credit-note': -1, 'debit-note': 1, 'sale-cancel': -1 };
const MOVE_KIND: Record<string, string> = { sale: 'sale', purchase: 'purchase', payment_received: 'payment-received', payment_given: 'payment-given', credit_note: 'sale-return', debit_note: 'purchase-return', cancellation: 'sale-cancel', opening: 'opening', reversal: 'reversal' };

/** The fact of an event of `subject` (null: a subject the reports do not use). */
export function toFact(subject: string, raw: unknown): Fact | null {
  if (!raw || typeof raw !== 'object') throw new BadEvent('payload is not an object');
  const S = EventSubjects;
  switch (subject) {
    case S.sales.saleCompleted: {
      const e = raw as SaleCompletedEvent;
      const customerId = e.walkIn || !e.clientId ? null : id(e.clientId, 'clientId');
      return {
        ...base(e),
        kind: 'sale',
        saleId: id(e.saleId, 'saleId'),
        docNo: e.gst?.invoice_no ?? null,
        customerId,
        customerName: String(e.customerName ?? ''),
        amount: paise(e.amount, 'amount'),
        paid: paise(e.paid, 'paid'),
        dueDate: isRealDate(e.dueDate) ? e.dueDate : null,
        lines: saleLines(e.lines),
      };
    }
    case S.sales.saleReturned: {
      const e = raw as SaleReturnedEvent;
      return {
        ...base(e),
        kind: 'sale-return',
        noteId: id(e.creditNoteId, 'creditNoteId'),
        docNo: e.credit_note_no ?? null,
        saleId: id(e.saleId, 'saleId'),
        customerId: e.clientId ? id(e.clientId, 'clientId') : null,
        customerName: String(e.customerName ?? ''),
        amount: paise(e.amount, 'amount'),
        refund: paise(e.refund ?? '0', 'refund'),
        lines: (Array.isArray(e.lines) ? e.lines : []).map((l) => ({
          productId: id(l.product_id, 'product_id'),
          name: String(l.product_name ?? ''),
          qty: num(l.units, 'units'),
          value: paise(l.amount, 'line amount'),
          cost: costOf(l.cp, l.units),
        })),
      };
    }
    case S.sales.saleCancelled: {
      const e = raw as SaleCancelledEvent;
      const amount = paise(e.amount, 'amount');
      return {
        ...base(e),
        kind: 'sale-cancel',
        saleId: id(e.saleId, 'saleId'),
        docNo: null,
        customerId: e.clientId ? id(e.clientId, 'clientId') : null,
        customerName: '',
        amount,
        due: amount - paise(e.paid, 'paid'),
        cancelId: Number.isSafeInteger(e.cancelId) ? e.cancelId! : null,
      };
    }
    case S.inventory.purchaseCompleted: {
      const e = raw as PurchaseCompletedEvent;
      return {
        ...base(e),
        kind: 'purchase',
        purchaseId: id(e.purchaseId, 'purchaseId'),
        docNo: (typeof e.bill_no === 'string' && e.bill_no) || e.gst?.invoice_no || null,
        distributorId: e.distributorId ? id(e.distributorId, 'distributorId') : null,
        distributorName: String(e.distributorName ?? ''),
        amount: paise(e.amount, 'amount'),
        paid: paise(e.paid, 'paid'),
        dueDate: isRealDate(e.dueDate) ? e.dueDate : null,
      };
    }
    case S.inventory.purchaseReturned: {
      const e = raw as PurchaseReturnedEvent;
      return {
        ...base(e),
        kind: 'purchase-return',
        noteId: id(e.debitNoteId, 'debitNoteId'),
        docNo: e.debit_note_no ?? null,
        purchaseId: id(e.purchaseId, 'purchaseId'),
        distributorId: e.distributorId ? id(e.distributorId, 'distributorId') : null,
        distributorName: String(e.distributorName ?? ''),
        amount: paise(e.amount, 'amount'),
        refund: paise(e.refund ?? '0', 'refund'),
      };
    }
    case S.inventory.stockMoved: {
      const e = raw as StockMovedEvent;
      return {
        ...base(e),
        kind: 'stock-moved',
        movements: (Array.isArray(e.movements) ? e.movements : []).map((m) => ({ productId: id(m.product_id, 'product_id'), qty: num(m.quantity, 'quantity') })),
      };
    }
    case S.inventory.productChanged: {
      const e = raw as ProductChangedEvent;
      const at = Date.parse(String(e.occurredAt));
      if (!Number.isFinite(at)) throw new BadEvent('occurredAt is not a time');
      return {
        ...base(e),
        kind: 'product-changed',
        productId: id(e.product_id, 'product_id'),
        version: at,
        name: String(e.product_name ?? ''),
        category: e.category?.name ?? '',
        brand: String(e.brand_name ?? ''),
        cp: paise(e.cp, 'cp'),
        mrp: paise(e.mrp, 'mrp'),
        minStock: num(e.min_stock, 'min_stock'),
        active: e.active !== 0,
      };
    }
    case S.ledger.paymentReceived:
    case S.ledger.paymentGiven: {
      const e = raw as PaymentEvent;
      return {
        ...base(e),
        kind: subject === S.ledger.paymentReceived ? 'payment-received' : 'payment-given',
        paymentId: id(e.paymentId, 'paymentId'),
        partyId: id(e.party?.id, 'party.id'),
        partyName: '',
        amount: paise(e.amount, 'amount'),
        entry: entryOf(e),
      };
    }
    case S.ledger.entryPosted: {
      const e = raw as LedgerEntryEvent;
      return { ...base(e), kind: 'ledger-entry', entry: entryOf(e) };
    }
    case S.ledger.partyChanged: {
      const e = raw as PartyChangedEvent;
      const side = e.party?.kind === 'customer' ? ('r' as const) : e.party?.kind === 'distributor' ? ('p' as const) : null;
      if (!side) throw new BadEvent('party.kind is not customer or distributor');
      if (!Number.isSafeInteger(e.version)) throw new BadEvent('version is not a number');
      if (typeof e.name !== 'string') throw new BadEvent('name is missing');
      return {
        ...base(e),
        kind: 'party-changed',
        side,
        partyId: id(e.party.id, 'party.id'),
        version: e.version,
        name: e.name,
        mobile: typeof e.mobile === 'string' ? e.mobile : '',
        gstin: typeof e.gstin === 'string' && e.gstin ? e.gstin : null,
      };
    }
    case S.ledger.openingSet: {
      const e = raw as OpeningSetEvent;
      if (!Number.isSafeInteger(e.version)) throw new BadEvent('version is not a number');
      return { ...base(e), kind: 'opening-set', version: e.version, cash: paise(e.cash, 'cash'), bank: paise(e.bank, 'bank') };
    }
    case S.ledger.expenseChanged: {
      const e = raw as ExpenseChangedEvent;
      if (!Number.isSafeInteger(e.version)) throw new BadEvent('version is not a number');
      const amount = paise(e.amount, 'amount');
      return {
        ...base(e),
        kind: 'expense',
        expenseId: id(e.expenseId, 'expenseId'),
        version: e.version,
        category: String(e.category ?? ''),
        amount,
        payments: paymentsOf(e.payments, amount),
        note: String(e.note ?? ''),
        by: String(e.by?.name ?? ''),
        deleted: e.deleted === true,
      };
    }
    default:
      return null;
  }
}

function entryOf(e: LedgerEntryEvent) {
  const side = e.party?.kind === 'customer' ? ('r' as const) : e.party?.kind === 'distributor' ? ('p' as const) : null;
  if (!side) throw new BadEvent('party.kind is not customer or distributor');
  return {
    side,
    partyId: id(e.party.id, 'party.id'),
    delta: paise(e.delta, 'delta'),
    dueDate: isRealDate(e.dueDate) ? e.dueDate : null,
    docNo: e.docNo ?? null,
    key: `${e.source?.kind ?? e.entryKind}:${e.source?.id ?? e.seq}:${e.entryKind}`,
    src: `${e.source?.kind ?? ''}:${e.source?.id ?? ''}`,
    reversal: e.entryKind === 'reversal',
    dir: e.entryKind === 'reversal' ? ((-(SOURCE_DIR[e.source?.kind ?? ''] ?? 0)) as 1 | -1 | 0) : (ENTRY_DIR[e.entryKind] ?? 0),
    // A payment's money is its amount, a document's its paid (or refund).
    payments: paymentsOf(e.payments, paise(e.entryKind === 'payment_received' || e.entryKind === 'payment_given' ? e.amount : e.entryKind === 'opening' ? '0' : e.paid ?? '0', 'paid')),
    by: Number.isSafeInteger(e.by) ? e.by! : null,
    moveKind: MOVE_KIND[e.entryKind] ?? e.entryKind,
  };
}
