/**
 * The books' opening balances and expenses (issue 29), owned by ledger. Money is exact decimal
 * strings in and out (the browser shows them, never adds them).
 */
import type { PaymentLine } from './ledger';

/** PUT /books/opening (managers) and the GET reply (`set: false` and zeros before any). */
export interface OpeningBalances {
  date: string;
  cash: string;
  bank: string;
}
export interface OpeningBalancesReply extends OpeningBalances {
  set: boolean;
  /** Who set them last and when (ISO), null before any. */
  by: { id: number; name: string } | null;
  at: string | null;
}

/** The categories a company starts with (GET /expenses/categories before any edit). */
export const DEFAULT_EXPENSE_CATEGORIES = ['rent', 'salary', 'electricity', 'transport', 'tea', 'other'] as const;

/** POST /expenses and PUT /expenses/{id} (which also needs `reason`). */
export interface ExpenseRequest {
  date: string;
  category: string;
  amount: string | number;
  /** Left out: all cash. */
  payments?: { mode: string; amount: string | number; ref?: string }[];
  note?: string;
}

export interface Expense {
  id: number;
  date: string;
  category: string;
  amount: string;
  payments: PaymentLine[];
  note: string;
  by: { id: number; name: string };
  /** 1 when added, +1 per edit or delete. */
  version: number;
  deleted: boolean;
  created_at: string;
  updated_at: string;
}

/** GET /expenses?from&to&pageNo: the range's live expenses, newest date first, and their total. */
export interface ExpenseListReply {
  list: Expense[];
  noOfPages: number;
  total: string;
}

/** GET /expenses/{id}/history: every write, oldest first. */
export interface ExpenseHistoryRow {
  version: number;
  action: 'added' | 'edited' | 'deleted';
  at: string;
  by: { id: number; name: string };
  /** Why (required for edits and deletes); '' when added. */
  reason: string;
  /** The expense as this write left it. */
  expense: Pick<Expense, 'date' | 'category' | 'amount' | 'payments' | 'note'>;
}
export interface ExpenseHistoryReply {
  id: number;
  list: ExpenseHistoryRow[];
}

/** GET/PUT /expenses/categories. */
export interface ExpenseCategoriesReply {
  categories: string[];
  /** Categories that live expenses use (they cannot be removed until those are moved or deleted). */
  in_use: string[];
}
