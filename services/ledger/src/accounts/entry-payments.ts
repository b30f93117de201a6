import type { PaymentLine } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import type { EntryDoc } from './entry.schema';

/**
 * The tenders of an entry. Entries written before modes existed (and demo data) hold none: their
 * money (a document's paid, a payment's amount) was cash, the only kind the spec knew.
 */
export function entryPayments(e: Pick<EntryDoc, 'payments' | 'entryKind' | 'amount' | 'paid'>): PaymentLine[] {
  if (e.payments) return e.payments.map((p) => ({ mode: p.mode, amount: p.amount, ...(p.ref ? { ref: p.ref } : {}) }));
  const money = e.entryKind === 'payment_received' || e.entryKind === 'payment_given' ? e.amount : e.entryKind === 'opening' ? '0' : e.paid;
  return Money.money(money || '0').isZero() ? [] : [{ mode: 'cash', amount: Money.toMoneyString(money) }];
}
