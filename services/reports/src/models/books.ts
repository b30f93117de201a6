import type { ExpenseFact, Fact, OpeningFact } from '../facts';
import type { Fold } from '../fold';
import { C } from '../store';
import { split, srcMoney } from './cash';
import { daily, type ReadModel } from './model';

/**
 * The books (ledger's opening balances and expenses). The opening's latest version is kept per
 * company: cash in hand and the bank balance run from its date. An expense counts once, as its
 * latest version: a newer version takes the one before it off its own date (day row, cash book
 * and day book rows) and adds itself; a deleted one adds nothing; an older version arriving late
 * changes nothing.
 */
export const books: ReadModel = {
  name: 'books',
  kinds: ['opening-set', 'expense'],
  collections: [C.books, C.expenses, C.cashMoves, C.srcMoney, C.txns, C.daily],
  prefetch(f, want) {
    if (f.kind === 'opening-set') want(C.books, String(f.companyId));
    else if (f.kind === 'expense') want(C.expenses, `${f.companyId}:${f.expenseId}`);
  },
  async fold(f: Fact, w: Fold) {
    if (f.kind === 'opening-set') return opening(f, w);
    if (f.kind === 'expense') return expense(f, w);
  },
};

async function opening(f: OpeningFact, w: Fold) {
  const cur = await w.get(C.books, String(f.companyId));
  if (cur && Number(cur.version) >= f.version) return;
  await w.update(C.books, String(f.companyId), { set: { companyId: f.companyId, date: f.date, cash: f.cash, bank: f.bank, version: f.version } });
}

/** What one version of an expense adds to its date's day row (sign -1 takes it off). */
function dayPart(x: { date: string; amount: number; cash: number; bank: number }, sign: 1 | -1) {
  const inc: Record<string, number> = { expenses: sign * x.amount, dbN_expense: sign, dbA_expense: sign * x.amount };
  if (x.cash) inc.cOut = sign * x.cash;
  if (x.bank) inc.bOut = sign * x.bank;
  return inc;
}

async function expense(f: ExpenseFact, w: Fold) {
  const c = f.companyId;
  const id = `${c}:${f.expenseId}`;
  const cur = await w.get(C.expenses, id);
  if (cur && Number(cur.version) >= f.version) return;
  if (cur && !cur.deleted) {
    daily({ companyId: c, date: String(cur.date) }, dayPart(cur as never, -1), w);
    srcMoney(c, `expense:${f.expenseId}`, (cur.payments as { mode: string; amount: number }[]) ?? [], 1, w);
  }
  const { cash, bank } = split(f.payments);
  await w.update(C.expenses, id, {
    set: { companyId: c, expenseId: f.expenseId, version: f.version, date: f.date, at: f.at, category: f.category, amount: f.amount, cash, bank, payments: f.payments, note: f.note, by: f.by, deleted: f.deleted },
  });
  const rowId = `expense:${id}`;
  if (f.deleted) {
    await w.remove(C.cashMoves, rowId);
    await w.remove(C.txns, rowId);
    return;
  }
  daily(f, dayPart({ date: f.date, amount: f.amount, cash, bank }, 1), w);
  srcMoney(c, `expense:${f.expenseId}`, f.payments, -1, w);
  w.write(C.cashMoves, rowId, {
    set: { companyId: c, date: f.date, at: f.at, kind: 'expense', src: `expense:${f.expenseId}`, docNo: null, side: null, partyId: null, party: f.category, note: f.note, payments: f.payments, cash: -cash, bank: -bank, by: null },
  });
  w.write(C.txns, rowId, {
    set: { companyId: c, date: f.date, at: f.at, kind: 'expense', ref: f.expenseId, docNo: null, party: f.category, partyId: null, amount: f.amount, paid: f.amount, note: f.note, src: `expense:${f.expenseId}` },
  });
}
