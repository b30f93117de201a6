import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * One per party that took a payment or a guarded post (a bill's cancellation). Both bump
 * `version` inside their transaction before anything else, so they conflict and one retries
 * after the other: a cancellation either sees the payment (and is refused) or commits first.
 * Without this common write, snapshot transactions would let both through (write skew).
 */
@Schema({ collection: 'party_accounts' })
export class PartyAccountDoc {
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true, enum: ['customer', 'distributor'], type: String }) partyKind!: 'customer' | 'distributor';
  @Prop({ required: true }) partyId!: number;
  @Prop({ required: true, default: 0 }) version!: number;
}

export const PartyAccountSchema = SchemaFactory.createForClass(PartyAccountDoc);
PartyAccountSchema.index({ companyId: 1, partyKind: 1, partyId: 1 }, { unique: true });
