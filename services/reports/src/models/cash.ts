import type { EntryPart, Fact } from '../facts';
import type { Fold } from '../fold';
import { C } from '../store';
import { daily, type ReadModel } from './model';

/** Paise of `payments` that are cash, and the rest (upi, card, cheque, bank: the bank balance). */
export function split(payments: { mode: string; amount: number }[]): { cash: number; bank: number } {
  let cash = 0;
  let bank = 0;
  for (const p of payments) {
    if (p.mode === 'cash') cash += p.amount;
    else bank += p.amount;
  }
  return { cash, bank };
}

/** A day's cash and bank in and out on its day row (`cIn`, `cOut`, `bIn`, `bOut`), from a signed movement. */
export function moveTotals(f: Pick<Fact, 'companyId' | 'date'>, cash: number, bank: number, w: Fold, sign: 1 | -1 = 1): void {
  const inc: Record<string, number> = {};
  if (cash) inc[cash > 0 ? 'cIn' : 'cOut'] = sign * Math.abs(cash);
  if (bank) inc[bank > 0 ? 'bIn' : 'bOut'] = sign * Math.abs(bank);
  if (Object.keys(inc).length) daily(f, inc, w);
}

/**
 * Money in and out. `collections` / `paidOut` on the day row are every mode together (the
 * dashboard's collections card): paid at the counter, payments received, debit-note refunds in;
 * paid on purchases, payments given, credit-note refunds out. Cash in hand and the bank balance
 * come from the ledger's entries, which carry each payment's mode: one `cash_moves` row per entry
 * that moved money (sale paid, purchase paid, payments, note refunds, a cancellation's counter
 * payment given back, a reversal undoing any of these in the modes it was taken) and the day's
 * `cIn`/`cOut` (cash) and `bIn`/`bOut` (every other mode). Expenses: `books.ts`.
 */
export const cash: ReadModel = {
  name: 'cash',
  kinds: ['sale', 'sale-return', 'purchase', 'purchase-return', 'payment-received', 'payment-given', 'ledger-entry'],
  collections: [C.daily, C.cashMoves, C.srcMoney],
  async fold(f: Fact, w: Fold) {
    switch (f.kind) {
      case 'sale':
        return daily(f, { collections: f.paid }, w);
      case 'sale-return':
        return daily(f, { paidOut: f.refund }, w);
      case 'purchase':
        return daily(f, { paidOut: f.paid }, w);
      case 'purchase-return':
        return daily(f, { collections: f.refund }, w);
      case 'payment-received':
        daily(f, { collections: f.amount }, w);
        return move(f, f.entry, w);
      case 'payment-given':
        daily(f, { paidOut: f.amount }, w);
        return move(f, f.entry, w);
      case 'ledger-entry':
        return move(f, f.entry, w);
      default:
        return;
    }
  },
};

/** One ledger entry's money: its `cash_moves` row and the day's in/out by mode. */
function move(f: Fact, e: EntryPart, w: Fold): void {
  if (!e.dir || !e.payments.length) return;
  const m = split(e.payments);
  const cashPaise = e.dir * m.cash;
  const bankPaise = e.dir * m.bank;
  if (!cashPaise && !bankPaise) return;
  w.write(C.cashMoves, f.eventId, {
    set: {
      companyId: f.companyId,
      date: f.date,
      at: f.at,
      kind: e.moveKind,
      src: e.src,
      docNo: e.docNo,
      side: e.side,
      partyId: e.partyId,
      payments: e.payments,
      cash: cashPaise,
      bank: bankPaise,
      by: e.by,
    },
  });
  moveTotals(f, cashPaise, bankPaise, w);
  srcMoney(f.companyId, e.src, e.payments, e.dir, w);
}

/** Adds a movement to its document's money by mode (`src_money`, summed: order does not matter). */
export function srcMoney(companyId: number, src: string, payments: { mode: string; amount: number }[], sign: number, w: Fold): void {
  const inc: Record<string, number> = {};
  for (const p of payments) {
    inc[`m_${p.mode}`] = (inc[`m_${p.mode}`] ?? 0) + sign * p.amount;
    inc[p.mode === 'cash' ? 'cash' : 'bank'] = (inc[p.mode === 'cash' ? 'cash' : 'bank'] ?? 0) + sign * p.amount;
  }
  if (Object.keys(inc).length) w.write(C.srcMoney, `${companyId}:${src}`, { inc, onInsert: { companyId, src } });
}
