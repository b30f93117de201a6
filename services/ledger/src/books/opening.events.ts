import { EventSubjects, type HistoryEvent } from '@bahi/contracts';
import type { OpeningDoc } from './opening.schema';

/** The opening balances' event (latest version wins; `date` = the opening date). */
export function openingEvent(o: OpeningDoc): HistoryEvent<'events.ledger.books.opening'> {
  return {
    subject: EventSubjects.ledger.openingSet,
    event: { eventId: `opening:${o.companyId}:${o.version}`, companyId: o.companyId, occurredAt: new Date(o.version).toISOString(), date: o.date, cash: o.cash, bank: o.bank, version: o.version },
  };
}
