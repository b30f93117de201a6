import { PAY_MODES, type PayMode, type RegisterMovement } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import { entryPayments } from '../accounts/accounts.service';
import type { EntryDoc } from '../accounts/entry.schema';

type Decimal = InstanceType<typeof Money.Decimal>;

/** +1: the money came into the drawer (or the bank); -1: it went out; 0: no money moved. */
const DIRECTION: Record<EntryDoc['entryKind'], 1 | -1 | 0> = {
  sale: 1,
  payment_received: 1,
  // The distributor refunds the shop.
  debit_note: 1,
  purchase: -1,
  payment_given: -1,
  // The refund given to the customer.
  credit_note: -1,
  // The bill's counter payment given back.
  cancellation: -1,
  opening: 0,
  reversal: 0,
};

/** A reversal undoes its source's entry: the opposite direction of what that source posted. */
const SOURCE_DIRECTION: Record<string, 1 | -1> = { sale: 1, purchase: -1, 'credit-note': -1, 'debit-note': 1, 'sale-cancel': -1 };

export function entryDirection(e: Pick<EntryDoc, 'entryKind' | 'sourceKind' | 'partyKind'>): 1 | -1 | 0 {
  if (e.entryKind !== 'reversal') return DIRECTION[e.entryKind];
  const undone = e.sourceKind === 'payment' ? (e.partyKind === 'customer' ? 1 : -1) : (SOURCE_DIRECTION[e.sourceKind] ?? 0);
  return (-undone || 0) as 1 | -1 | 0;
}

/** An expense paid out during the session (the ledger's expenses, when they exist). */
export interface ExpenseMovement {
  at: Date;
  expenseId: number;
  payments: { mode: PayMode; amount: string }[];
}

export interface SessionFigures {
  cashIn: Decimal;
  cashOut: Decimal;
  /** In less out by mode. */
  totals: Record<PayMode, Decimal>;
  salesCount: number;
  movements: RegisterMovement[];
}

type EntryRow = Pick<EntryDoc, 'entryKind' | 'sourceKind' | 'sourceId' | 'partyKind' | 'payments' | 'amount' | 'paid' | 'refId'> & { createdAt?: Date };

/**
 * What one cashier took and paid out: every entry they recorded (`by`) in the session's window,
 * each tender in its own mode, plus the expenses they paid. Sales count once each; a sale undone
 * by its reversal (a checkout that failed) counts none.
 */
export function sessionFigures(entries: EntryRow[], expenses: ExpenseMovement[] = []): SessionFigures {
  const totals = Object.fromEntries(PAY_MODES.map((m) => [m, Money.money(0)])) as Record<PayMode, Decimal>;
  let cashIn = Money.money(0);
  let cashOut = Money.money(0);
  let salesCount = 0;
  const movements: RegisterMovement[] = [];
  const add = (at: Date | undefined, kind: string, ref: number, mode: PayMode, signed: Decimal) => {
    if (signed.isZero()) return;
    totals[mode] = totals[mode].plus(signed);
    if (mode === 'cash') {
      if (signed.isPositive()) cashIn = cashIn.plus(signed);
      else cashOut = cashOut.minus(signed);
    }
    movements.push({ at: (at ?? new Date(0)).toISOString(), kind, ref, mode, amount: Money.toMoneyString(signed) });
  };
  for (const e of entries) {
    if (e.entryKind === 'sale') salesCount++;
    if (e.entryKind === 'reversal' && e.sourceKind === 'sale') salesCount--;
    const dir = entryDirection(e);
    if (!dir) continue;
    // A cancellation is listed by its bill's number (refId), as the account shows it.
    const ref = e.refId ?? e.sourceId;
    for (const p of entryPayments(e)) add(e.createdAt, e.entryKind, ref, p.mode, Money.money(p.amount).times(dir));
  }
  for (const x of expenses) for (const p of x.payments) add(x.at, 'expense', x.expenseId, p.mode, Money.money(p.amount).negated());
  movements.sort((a, b) => a.at.localeCompare(b.at));
  return { cashIn, cashOut, totals, salesCount: Math.max(salesCount, 0), movements };
}
