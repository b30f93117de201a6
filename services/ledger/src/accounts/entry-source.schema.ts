import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { SourceKind } from '@bahi/contracts';

/**
 * One per sale, purchase, note or cancellation the ledger was asked to post or reverse. Post and reverse both write
 * it inside their transaction, so when they run at once one of them conflicts and retries after
 * the other. `reversed` without an entry means the source was undone before it was posted: a
 * late post then posts nothing. Kept apart from `entries`, so it never shows in an account.
 */
@Schema({ collection: 'entry_sources' })
export class EntrySourceDoc {
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true, enum: ['sale', 'purchase', 'credit-note', 'debit-note', 'sale-cancel'], type: String }) sourceKind!: SourceKind;
  @Prop({ required: true }) sourceId!: number;
  @Prop({ required: true, default: false }) reversed!: boolean;
  @Prop({ required: true }) at!: Date;
}

export const EntrySourceSchema = SchemaFactory.createForClass(EntrySourceDoc);
EntrySourceSchema.index({ companyId: 1, sourceKind: 1, sourceId: 1 }, { unique: true });
