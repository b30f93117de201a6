import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { pendingEvent } from '@bahi/service-kit';

/** The company's opening cash and bank balances (one per company; a new PUT replaces them). */
@Schema({ collection: 'book_openings', timestamps: true })
export class OpeningDoc {
  @Prop({ required: true }) companyId!: number;
  /** YYYY-MM-DD: the books start here (cash in hand runs from it). */
  @Prop({ required: true }) date!: string;
  /** Exact decimal strings. */
  @Prop({ required: true }) cash!: string;
  @Prop({ required: true }) bank!: string;
  @Prop({ type: { _id: false, id: Number, name: String }, required: true }) by!: { id: number; name: string };
  /** Orders the writes (ms, strictly rising): the event's version, latest wins. */
  @Prop({ required: true }) version!: number;
  @Prop({ type: String, default: () => pendingEvent() }) evt?: string;
  updatedAt?: Date;
}

export const OpeningSchema = SchemaFactory.createForClass(OpeningDoc);
OpeningSchema.index({ companyId: 1 }, { unique: true });
