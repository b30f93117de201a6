import { Money, today } from '@bahi/service-kit';

/** One customer's account as the overdue list needs it: its entries in posting order. */
export interface AccountEntry {
  partyId: number;
  seq: number;
  delta: string;
  dueDate: string | null;
  entryKind: string;
}

export interface OverdueAccount {
  partyId: number;
  /** Exact due, decimal string. */
  due: string;
  dueDate: string;
  daysOverdue: number;
}

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to`, both YYYY-MM-DD. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * Customers whose due date has passed at the shop (India, UTC+05:30) with a due above zero, most
 * days overdue first (then the larger due). A due date of today is not overdue yet. The due date is
 * the latest one any entry set (a reversal sets none), as GET /getClientDueAndDueDate reports it.
 */
export function overdueAccounts(entries: readonly AccountEntry[], now: number = Date.now()): OverdueAccount[] {
  const day = today(now);
  const byParty = new Map<number, { due: Money.Decimal; dueDate: string | null; seq: number }>();
  for (const e of entries) {
    const a = byParty.get(e.partyId) ?? { due: Money.money(0), dueDate: null, seq: -1 };
    a.due = a.due.plus(Money.money(e.delta));
    if (e.dueDate && e.entryKind !== 'reversal' && e.seq > a.seq) {
      a.dueDate = e.dueDate;
      a.seq = e.seq;
    }
    byParty.set(e.partyId, a);
  }
  const out: OverdueAccount[] = [];
  for (const [partyId, a] of byParty) {
    if (!a.dueDate || !a.due.greaterThan(0) || a.dueDate >= day) continue;
    out.push({ partyId, due: a.due.toFixed(), dueDate: a.dueDate, daysOverdue: daysBetween(a.dueDate, day) });
  }
  return out.sort((x, y) => y.daysOverdue - x.daysOverdue || Money.money(y.due).comparedTo(Money.money(x.due)) || x.partyId - y.partyId);
}
