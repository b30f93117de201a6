import { ConflictException, ForbiddenException, Inject, Injectable, NotFoundException, BadRequestException } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import {
  DEFAULT_EXPENSE_CATEGORIES,
  Subjects,
  type Expense,
  type ExpenseCategoriesReply,
  type ExpenseHistoryReply,
  type ExpenseListReply,
  type PaymentLine,
  type TokenClaims,
} from '@bahi/contracts';
import { inTransaction, Money, NatsClient, parsePayments, PaymentsError, pendingEventFields, SequenceService } from '@bahi/service-kit';
import { PAGE_SIZE } from '../common';
import { LedgerEvents } from '../events/ledger-events';
import { body, pastDate, rupees, text } from '../books/money-input';
import { ExpenseCategoriesDoc, ExpenseChangeDoc, ExpenseDoc } from './expense.schema';

export const EXPENSE_MSG = {
  staffOff: 'Only a manager can do this; a manager can let staff record expenses in Setting.',
  reason: 'Give the reason for this change (it is kept in the expense history).',
};
const MAX_CATEGORIES = 50;

type Who = { id: number; name: string };
type Fields = { date: string; category: string; amount: string; payments: PaymentLine[]; note: string };

const two = (s: string) => Money.money(s).toFixed(2);

function toExpense(e: ExpenseDoc): Expense {
  return {
    id: e.expenseId,
    date: e.date,
    category: e.category,
    amount: two(e.amount),
    payments: e.payments.map((p) => ({ mode: p.mode, amount: two(p.amount), ...(p.ref ? { ref: p.ref } : {}) })),
    note: e.note,
    by: { id: e.by.id, name: e.by.name },
    version: e.version,
    deleted: e.deleted,
    created_at: (e.createdAt ?? new Date(0)).toISOString(),
    updated_at: (e.updatedAt ?? new Date(0)).toISOString(),
  };
}

/** Expenses (issue 29): every write kept with who, when and why; deletes are marks. */
@Injectable()
export class ExpensesService {
  constructor(
    @InjectModel(ExpenseDoc.name) readonly model: Model<ExpenseDoc>,
    @InjectModel(ExpenseChangeDoc.name) private readonly changes: Model<ExpenseChangeDoc>,
    @InjectModel(ExpenseCategoriesDoc.name) private readonly cats: Model<ExpenseCategoriesDoc>,
    @InjectConnection() private readonly conn: Connection,
    private readonly seq: SequenceService,
    @Inject(NatsClient) private readonly nats: NatsClient,
    @Inject(LedgerEvents) private readonly events: LedgerEvents,
  ) {}

  /** Managers always; staff only while the company's staff_expenses is on (identity's setting). */
  async mayRecord(companyId: number, user: TokenClaims): Promise<void> {
    if (user.position === 'manager') return;
    const co = await this.nats.send(Subjects.identity.companyDetails, { companyId });
    if (user.position !== 'staff' || co?.staff_expenses !== true) throw new ForbiddenException(EXPENSE_MSG.staffOff);
  }

  async categories(companyId: number, session?: ClientSession): Promise<string[]> {
    const doc = await this.cats.findOne({ companyId }).session(session ?? null).lean();
    return doc?.categories?.length ? doc.categories : [...DEFAULT_EXPENSE_CATEGORIES];
  }

  /**
   * Inside an expense write's transaction: the category must still be in the list, and the write
   * touches the list's document, so it conflicts with a concurrent PUT /expenses/categories (one
   * of the two retries and sees the other): a used category is never removed under a new expense.
   */
  private async holdCategory(companyId: number, category: string, session: ClientSession): Promise<void> {
    const cats = await this.categories(companyId, session);
    if (!cats.includes(category)) throw new BadRequestException(`"${category}" is not an expense category; choose one of ${cats.join(', ')} (a manager can add categories).`);
    await this.cats.updateOne({ companyId }, { $inc: { writes: 1 } }, { session, upsert: true });
  }

  async categoriesReply(companyId: number): Promise<ExpenseCategoriesReply> {
    const [categories, used] = await Promise.all([this.categories(companyId), this.model.distinct('category', { companyId, deleted: false })]);
    return { categories, in_use: categories.filter((c) => used.includes(c)) };
  }

  /**
   * Replaces the list. A category that live expenses use cannot be removed (nor renamed, which is
   * a removal): 409 naming it and how many use it, nothing changed. Deleted expenses keep the old
   * name as text and do not block.
   */
  async setCategories(companyId: number, raw: unknown): Promise<ExpenseCategoriesReply> {
    const list = body(raw).categories;
    if (!Array.isArray(list) || list.length < 1) throw new BadRequestException('categories must be a list of at least one category name.');
    if (list.length > MAX_CATEGORIES) throw new BadRequestException(`A company can have at most ${MAX_CATEGORIES} expense categories.`);
    const names = list.map((c, i) => text(c, `category ${i + 1}`, 40, true));
    const seen = new Set<string>();
    for (const n of names) {
      if (seen.has(n.toLowerCase())) throw new BadRequestException(`The category "${n}" is written twice.`);
      seen.add(n.toLowerCase());
    }
    // One transaction with the counts: an expense written meanwhile conflicts (holdCategory) and retries.
    await inTransaction(this.conn, async (session) => {
      const current = await this.categories(companyId, session);
      for (const old of current.filter((c) => !names.includes(c))) {
        const n = await this.model.countDocuments({ companyId, deleted: false, category: old }).session(session);
        if (n > 0) throw new ConflictException(`The category "${old}" is used by ${n} expense(s); move them to another category or delete them before removing it.`);
      }
      await this.cats.updateOne({ companyId }, { $set: { categories: names }, $inc: { writes: 1 } }, { session, upsert: true });
    });
    return this.categoriesReply(companyId);
  }

  /** The body's fields checked (payments by service-kit parsePayments, adding up to the amount). */
  async fields(companyId: number, b: Record<string, unknown>): Promise<Fields> {
    const date = pastDate(b.date, 'expense date');
    const typed = text(b.category, 'category', 40, true);
    const cats = await this.categories(companyId);
    const category = cats.find((c) => c.toLowerCase() === typed.toLowerCase());
    if (!category) throw new BadRequestException(`"${typed}" is not an expense category; choose one of ${cats.join(', ')} (a manager can add categories).`);
    const amount = rupees(b.amount, 'amount', 'positive');
    let payments: PaymentLine[];
    try {
      payments = parsePayments(b.payments, amount, 'amount');
    } catch (err) {
      if (err instanceof PaymentsError) throw new BadRequestException(err.message);
      throw err;
    }
    const note = text(b.note, 'note', 200, false);
    return { date, category, amount, payments, note };
  }

  async add(companyId: number, user: TokenClaims, raw: unknown): Promise<Expense> {
    const f = await this.fields(companyId, body(raw));
    const by: Who = { id: user.uid, name: user.name };
    const expenseId = await this.seq.next(companyId, 'expense');
    const at = new Date();
    await inTransaction(this.conn, async (session) => {
      await this.holdCategory(companyId, f.category, session);
      await this.model.create([{ companyId, expenseId, ...f, by, lastBy: by, version: 1, deleted: false, ...pendingEventFields() }], { session });
      await this.changes.create([{ companyId, expenseId, version: 1, action: 'added', at, by, reason: '', expense: f }], { session });
    });
    this.events.relay.kick('expense');
    return this.get(companyId, expenseId);
  }

  async get(companyId: number, expenseId: number): Promise<Expense> {
    const e = await this.model.findOne({ companyId, expenseId }).lean();
    if (!e) throw new NotFoundException(`There is no expense ${expenseId} in this company.`);
    return toExpense(e);
  }

  /** An edit or a delete: one transaction writes the expense (version + 1) and its history row. */
  async change(companyId: number, user: TokenClaims, expenseId: number, reasonRaw: unknown, fields: Fields | null): Promise<Expense> {
    const reason = text(reasonRaw, 'reason', 200, false);
    if (!reason) throw new BadRequestException(EXPENSE_MSG.reason);
    const by: Who = { id: user.uid, name: user.name };
    await inTransaction(
      this.conn,
      async (session) => {
        const e = await this.model.findOne({ companyId, expenseId }).session(session).lean();
        if (!e) throw new NotFoundException(`There is no expense ${expenseId} in this company.`);
        if (e.deleted) throw new ConflictException(fields ? `Expense ${expenseId} was deleted; it cannot be edited.` : `Expense ${expenseId} is already deleted.`);
        if (fields) await this.holdCategory(companyId, fields.category, session);
        const version = e.version + 1;
        const now: Fields = fields ?? { date: e.date, category: e.category, amount: e.amount, payments: e.payments, note: e.note };
        const set = { ...(fields ?? {}), ...(fields ? {} : { deleted: true }), lastBy: by, version, ...pendingEventFields() };
        const r = await this.model.updateOne({ companyId, expenseId, version: e.version }, { $set: set }, { session });
        if (r.matchedCount !== 1) throw Object.assign(new Error('expense changed meanwhile'), { retry: true });
        await this.changes.create([{ companyId, expenseId, version, action: fields ? 'edited' : 'deleted', at: new Date(), by, reason, expense: now }], { session });
      },
      (err) => (err as { retry?: boolean }).retry === true || (err as { code?: number }).code === 11000,
    );
    this.events.relay.kick('expense');
    return this.get(companyId, expenseId);
  }

  async history(companyId: number, expenseId: number): Promise<ExpenseHistoryReply> {
    await this.get(companyId, expenseId);
    const rows = await this.changes.find({ companyId, expenseId }).sort({ version: 1 }).lean();
    return {
      id: expenseId,
      list: rows.map((r) => ({
        version: r.version,
        action: r.action,
        at: r.at.toISOString(),
        by: { id: r.by.id, name: r.by.name },
        reason: r.reason,
        expense: { date: r.expense.date, category: r.expense.category, amount: two(r.expense.amount), payments: r.expense.payments.map((p) => ({ mode: p.mode, amount: two(p.amount), ...(p.ref ? { ref: p.ref } : {}) })), note: r.expense.note },
      })),
    };
  }

  /** Live expenses of from..to (newest date first) and their exact total; `withDeleted` lists deleted ones too (never in the total). */
  async list(companyId: number, from: string, to: string, pageNo: number, withDeleted: boolean): Promise<ExpenseListReply> {
    const range = { companyId, date: { $gte: from, $lte: to } };
    const shown = withDeleted ? range : { ...range, deleted: false };
    const [rows, count, amounts] = await Promise.all([
      this.model.find(shown).sort({ date: -1, expenseId: -1 }).skip(pageNo * PAGE_SIZE).limit(PAGE_SIZE).lean(),
      this.model.countDocuments(shown),
      this.model.find({ ...range, deleted: false }, { amount: 1 }).lean(),
    ]);
    return { list: rows.map(toExpense), noOfPages: Math.ceil(count / PAGE_SIZE), total: Money.add(...amounts.map((a) => a.amount)).toFixed(2) };
  }
}
