import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { EventStreams, EventSubjects, Subjects, type HistoryEvent, type LedgerEntryEvent, type PartyChangedEvent, type PartyKind, type PaymentEvent } from '@bahi/contracts';
import { dec, EventRelay, historyHandlers, istDate, pendingEventFields, RelayService, LOGGER, NATS_CONNECTION } from '@bahi/service-kit';
import { entryPayments } from '../accounts/entry-payments';
import { EntryDoc } from '../accounts/entry.schema';
import { CustomerDoc } from '../customers/customer.schema';
import { DistributorDoc } from '../distributors/distributor.schema';
import { openingEvent } from '../books/opening.events';
import { OpeningDoc } from '../books/opening.schema';
import { expenseEvent } from '../expenses/expense.events';
import { ExpenseDoc } from '../expenses/expense.schema';

/**
 * One ledger entry's event: payments as payment.received / payment.given (with how they were
 * paid), every other entry as entry.posted. Together they are every delta of every party's due.
 * The id is the entry's per-company sequence number, which never changes.
 */
export function entryEvent(e: EntryDoc & { createdAt?: Date }): HistoryEvent<'events.ledger.entry.posted' | 'events.ledger.payment.received' | 'events.ledger.payment.given'> {
  const base: LedgerEntryEvent = {
    eventId: `entry:${e.companyId}:${e.seq}`,
    companyId: e.companyId,
    occurredAt: (e.createdAt ?? new Date(0)).toISOString(),
    date: e.date,
    entryKind: e.entryKind,
    party: { kind: e.partyKind, id: e.partyId },
    source: { kind: e.sourceKind, id: e.sourceId },
    seq: e.seq,
    amount: dec(e.amount),
    paid: dec(e.paid),
    delta: dec(e.delta),
    dueDate: e.dueDate ?? null,
    docNo: e.docNo ?? null,
    // By mode, for the cash and bank books (entries before modes: cash, as entryPayments reads them).
    payments: entryPayments(e),
    by: e.by ?? null,
  };
  if (e.entryKind === 'payment_received' || e.entryKind === 'payment_given') {
    const event: PaymentEvent = { ...base, paymentId: e.sourceId, payType: e.payType ?? '', transactionId: e.transactionId ?? '' };
    return { subject: e.entryKind === 'payment_received' ? EventSubjects.ledger.paymentReceived : EventSubjects.ledger.paymentGiven, event };
  }
  return { subject: EventSubjects.ledger.entryPosted, event: base };
}

type Stamped = { createdAt?: Date; updatedAt?: Date; evt?: string };

/**
 * A customer or distributor as it now is. The write's own mark names the event; a party read for
 * a rebuild (no mark) is its last write. Its last write's time orders the events of one party.
 */
export function partyEvent(kind: PartyKind, p: (CustomerDoc | DistributorDoc) & Stamped): HistoryEvent<'events.ledger.party.changed'> {
  const id = kind === 'customer' ? (p as CustomerDoc).client_id : (p as DistributorDoc).distributor_id;
  const at = p.updatedAt ?? p.createdAt ?? new Date(0);
  const event: PartyChangedEvent = {
    eventId: `party:${p.companyId}:${kind}:${id}:${p.evt ?? `at-${at.getTime()}`}`,
    companyId: p.companyId,
    occurredAt: at.toISOString(),
    date: istDate(at),
    party: { kind, id },
    name: p.name,
    mobile: kind === 'customer' ? (p as CustomerDoc).mobile_no : '',
    gstin: p.gstin ?? null,
    walkIn: kind === 'customer' && (p as CustomerDoc).walkIn === true,
    version: at.getTime(),
  };
  return { subject: EventSubjects.ledger.partyChanged, event };
}

/**
 * Ledger's domain events (BAHI_LEDGER), one per entry: every entry is inserted with `evt` pending
 * (a schema default, so no insert path can forget it) and published after its commit; one per
 * customer or distributor write (created with the mark by default, edits set it again), so
 * reports names parties it knows only from an opening balance or a payment.
 */
@Injectable()
export class LedgerEvents extends RelayService {
  readonly relay: EventRelay;

  constructor(
    @InjectModel(EntryDoc.name) entries: Model<EntryDoc>,
    @InjectModel(CustomerDoc.name) private readonly customers: Model<CustomerDoc>,
    @InjectModel(DistributorDoc.name) private readonly distributors: Model<DistributorDoc>,
    @InjectModel(OpeningDoc.name) openings: Model<OpeningDoc>,
    @InjectModel(ExpenseDoc.name) expenses: Model<ExpenseDoc>,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    @Inject(LOGGER) log: Logger,
  ) {
    super();
    this.relay = new EventRelay({
      nc,
      log,
      stream: EventStreams.ledger,
      sources: [
        { name: 'entry', collection: entries.collection, complete: {}, toEvents: (e: EntryDoc) => [entryEvent(e)] },
        { name: 'customer', collection: customers.collection, complete: {}, toEvents: (c: CustomerDoc) => [partyEvent('customer', c)] },
        { name: 'distributor', collection: distributors.collection, complete: {}, toEvents: (d: DistributorDoc) => [partyEvent('distributor', d)] },
        // The books (issue 29): opening balances and every expense write (latest version wins).
        { name: 'opening', collection: openings.collection, complete: {}, toEvents: (o: OpeningDoc) => [openingEvent(o)] },
        { name: 'expense', collection: expenses.collection, complete: {}, toEvents: (e: ExpenseDoc) => [expenseEvent(e)] },
      ] as never,
    });
  }

  /**
   * Parties written before their event existed are published once per database (a read model
   * already built then names them without a rebuild). The marks leave `updatedAt` alone, so each
   * event's version is still its party's last write.
   */
  override async onApplicationBootstrap() {
    const done = this.customers.db.collection('event_backfills');
    if (!(await done.findOne({ _id: 'party.changed' as never }))) {
      await this.customers.collection.updateMany({}, { $set: pendingEventFields() });
      await this.distributors.collection.updateMany({}, { $set: pendingEventFields() });
      await done.updateOne({ _id: 'party.changed' as never }, { $set: { at: new Date() } }, { upsert: true });
    }
    await super.onApplicationBootstrap();
  }
}

/** `ledger.history.page`: the events of ledger's records, for a rebuild. */
export const LedgerHistoryHandlers = historyHandlers(Subjects.ledger.historyPage, LedgerEvents);
