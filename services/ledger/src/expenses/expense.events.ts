import { EventSubjects, type HistoryEvent } from '@bahi/contracts';
import type { ExpenseDoc } from './expense.schema';

/** The expense's event: as it is after this write (latest version wins; `date` = the expense date). */
export function expenseEvent(e: ExpenseDoc): HistoryEvent<'events.ledger.expense.changed'> {
  return {
    subject: EventSubjects.ledger.expenseChanged,
    event: {
      eventId: `expense:${e.companyId}:${e.expenseId}:v${e.version}`,
      companyId: e.companyId,
      occurredAt: (e.updatedAt ?? e.createdAt ?? new Date(0)).toISOString(),
      date: e.date,
      expenseId: e.expenseId,
      version: e.version,
      category: e.category,
      amount: e.amount,
      payments: e.payments.map((p) => ({ mode: p.mode, amount: p.amount, ...(p.ref ? { ref: p.ref } : {}) })),
      note: e.note,
      by: { id: e.lastBy.id, name: e.lastBy.name },
      deleted: e.deleted,
    },
  };
}
