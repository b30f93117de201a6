import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';
import type { PaymentLine } from '@bahi/contracts';
import { pendingEvent } from '@bahi/service-kit';

export const EntryKinds = ['opening', 'sale', 'purchase', 'payment_received', 'payment_given', 'reversal', 'credit_note', 'debit_note', 'cancellation'] as const;
export type EntryKind = (typeof EntryKinds)[number];
export type EntrySourceKind = 'sale' | 'purchase' | 'payment' | 'opening' | 'credit-note' | 'debit-note' | 'sale-cancel';

/**
 * One line of a party's account. `delta` is the signed change of what the party owes
 * (customer: sale +, payment received -, credit note and cancellation -(amount - paid);
 * distributor: purchase +, payment given -, debit note -(amount - paid)), an exact decimal
 * string. The due is the sum of deltas.
 */
@Schema({ collection: 'entries', timestamps: { createdAt: true, updatedAt: false } })
export class EntryDoc {
  @Prop({ required: true }) companyId!: number;
  /** Per-company order of entries (the latest one sets the due date). */
  @Prop({ required: true }) seq!: number;
  @Prop({ required: true, enum: ['customer', 'distributor'], type: String }) partyKind!: 'customer' | 'distributor';
  @Prop({ required: true }) partyId!: number;
  @Prop({ required: true, enum: EntryKinds, type: String }) entryKind!: EntryKind;
  @Prop({ required: true, type: String }) sourceKind!: EntrySourceKind;
  @Prop({ required: true }) sourceId!: number;
  /** Document total or payment amount, positive decimal string. */
  @Prop({ required: true }) amount!: string;
  /** Paid with the document at the counter (sales and purchases), decimal string. */
  @Prop({ default: '0' }) paid!: string;
  @Prop({ required: true }) delta!: string;
  /** Business date YYYY-MM-DD. */
  @Prop({ required: true }) date!: string;
  /** Next due date YYYY-MM-DD set by this entry, or null. */
  @Prop({ type: String, default: null }) dueDate!: string | null;
  /** Payments: how it was paid and a reference. */
  @Prop({ default: '' }) payType!: string;
  @Prop({ default: '' }) transactionId!: string;
  /**
   * How the money of this entry changed hands: `paid` of a sale, purchase or note (its refund),
   * `amount` of a payment; [{ mode, amount, ref? }] adding up to it (decimal strings). Entries
   * written before modes existed have none: read them with `entryPayments` (all cash).
   */
  @Prop({ type: [{ _id: false, mode: String, amount: String, ref: String }], default: undefined }) payments?: PaymentLine[];
  /** The user id (identity's uid) who took or gave the money; null when not known (older entries, demo data). */
  @Prop({ type: Number, default: null }) by?: number | null;
  /** The document the row leads to when it is not the source: a cancellation's sale (the guard's). */
  @Prop({ type: Number }) refId?: number;
  /** Payments: the client's Idempotency-Key, so a retried payment is recorded once. */
  @Prop({ type: String }) idempotencyKey?: string;
  /** Notes and GST invoices: the printed number (CN/26-27/0001), shown on the account. */
  @Prop({ type: String }) docNo?: string;
  /** Payments and guarded posts: the party account's version they wrote (their commit order per party). */
  @Prop({ type: Number }) partyVersion?: number;
  /** Its domain event is not yet published (service-kit EventRelay): a default, so every insert path marks it. */
  @Prop({ type: String, default: () => pendingEvent() }) evt?: string;
}

export type EntryDocument = HydratedDocument<EntryDoc>;
export const EntrySchema = SchemaFactory.createForClass(EntryDoc);
// Posting is idempotent per source document: a second post of the same source is a duplicate key.
EntrySchema.index({ companyId: 1, sourceKind: 1, sourceId: 1, entryKind: 1 }, { unique: true });
EntrySchema.index({ companyId: 1, partyKind: 1, partyId: 1, seq: 1 });
// A cashier's register session reads what they took and gave since it opened.
EntrySchema.index({ companyId: 1, by: 1, createdAt: 1 });
EntrySchema.index({ companyId: 1, idempotencyKey: 1 }, { unique: true, partialFilterExpression: { idempotencyKey: { $type: 'string' } } });
