import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';
import { pendingEvent } from '@bahi/service-kit';

/** A customer of a company (spec 000 §3). The walk-in customer has walkIn: true. */
@Schema({ collection: 'customers', timestamps: true })
export class CustomerDoc {
  @Prop({ required: true, index: true }) companyId!: number;
  @Prop({ required: true }) client_id!: number;
  @Prop({ required: true, trim: true }) name!: string;
  @Prop({ required: true }) mobile_no!: string;
  @Prop({ default: '' }) address_line_1!: string;
  @Prop({ default: '' }) address_line_2!: string;
  @Prop({ default: '' }) city_or_district!: string;
  /** The 2-digit GST state code when the state typed is a known one, else the text as typed (see gst-party.ts). */
  @Prop({ default: '' }) state!: string;
  /** Uppercase, validated; null when the customer has none (then not B2B). */
  @Prop({ type: String, default: null }) gstin!: string | null;
  @Prop({ default: '' }) country!: string;
  @Prop({ default: '' }) postal_code!: string;
  @Prop({ default: false }) walkIn!: boolean;
  /** When a due reminder was last sent (the customer list's Remind), or null. */
  @Prop({ type: Date, default: null }) lastRemindedAt!: Date | null;
  /** Its party.changed event is not yet published (service-kit EventRelay): a default on insert, set again by every edit. */
  @Prop({ type: String, default: () => pendingEvent() }) evt?: string;
}

export type CustomerDocument = HydratedDocument<CustomerDoc>;
export const CustomerSchema = SchemaFactory.createForClass(CustomerDoc);
CustomerSchema.index({ companyId: 1, client_id: 1 }, { unique: true });
// The customer list counts { companyId, walkIn: false } on every page: counted from this index.
CustomerSchema.index({ companyId: 1, walkIn: 1 });
// One customer per mobile number within a company (the walk-in holds the reserved number).
CustomerSchema.index({ companyId: 1, mobile_no: 1 }, { unique: true });
