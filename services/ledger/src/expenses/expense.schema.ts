import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { PaymentLine } from '@bahi/contracts';
import { pendingEvent } from '@bahi/service-kit';

type Who = { id: number; name: string };
const WHO = { _id: false, id: Number, name: String };
const PAYMENTS = [{ _id: false, mode: String, amount: String, ref: String }];

/** An expense as it now is (a delete keeps it, marked). Money as exact decimal strings. */
@Schema({ collection: 'expenses', timestamps: true })
export class ExpenseDoc {
  @Prop({ required: true }) companyId!: number;
  /** Per-company sequence (`expense`). */
  @Prop({ required: true }) expenseId!: number;
  @Prop({ required: true }) date!: string;
  @Prop({ required: true }) category!: string;
  @Prop({ required: true }) amount!: string;
  @Prop({ type: PAYMENTS, required: true }) payments!: PaymentLine[];
  @Prop({ default: '' }) note!: string;
  /** Who added it. */
  @Prop({ type: WHO, required: true }) by!: Who;
  /** Who made the last write (its event's `by`). */
  @Prop({ type: WHO, required: true }) lastBy!: Who;
  /** 1 when added, +1 per edit or delete. */
  @Prop({ required: true }) version!: number;
  @Prop({ default: false }) deleted!: boolean;
  @Prop({ type: String, default: () => pendingEvent() }) evt?: string;
  createdAt?: Date;
  updatedAt?: Date;
}
export const ExpenseSchema = SchemaFactory.createForClass(ExpenseDoc);
ExpenseSchema.index({ companyId: 1, expenseId: 1 }, { unique: true });
ExpenseSchema.index({ companyId: 1, date: -1, expenseId: -1 });

/** One write of an expense: who, when, why, and the expense as it left it. Never changed. */
@Schema({ collection: 'expense_changes', timestamps: false })
export class ExpenseChangeDoc {
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true }) expenseId!: number;
  @Prop({ required: true }) version!: number;
  @Prop({ required: true, type: String, enum: ['added', 'edited', 'deleted'] }) action!: 'added' | 'edited' | 'deleted';
  @Prop({ required: true }) at!: Date;
  @Prop({ type: WHO, required: true }) by!: Who;
  @Prop({ default: '' }) reason!: string;
  @Prop({ type: { _id: false, date: String, category: String, amount: String, payments: PAYMENTS, note: String }, required: true })
  expense!: { date: string; category: string; amount: string; payments: PaymentLine[]; note: string };
}
export const ExpenseChangeSchema = SchemaFactory.createForClass(ExpenseChangeDoc);
// Two writes of the same version cannot both land (the loser retries against the new version).
ExpenseChangeSchema.index({ companyId: 1, expenseId: 1, version: 1 }, { unique: true });

/** The company's expense categories once a manager edited them (before: the defaults). */
@Schema({ collection: 'expense_categories', timestamps: true })
export class ExpenseCategoriesDoc {
  @Prop({ required: true }) companyId!: number;
  /** Absent until a manager edits the list (the defaults then). */
  @Prop({ type: [String], default: undefined }) categories?: string[];
  /** Bumped by every expense write and list edit: two at once conflict (ExpensesService.holdCategory). */
  @Prop({ default: 0 }) writes!: number;
}
export const ExpenseCategoriesSchema = SchemaFactory.createForClass(ExpenseCategoriesDoc);
ExpenseCategoriesSchema.index({ companyId: 1 }, { unique: true });
