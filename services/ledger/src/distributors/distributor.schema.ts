import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';
import { pendingEvent } from '@bahi/service-kit';

/** A person at a distributor with whom a purchase is booked. */
@Schema({ _id: false })
export class OfficerDoc {
  @Prop({ required: true }) id!: number;
  @Prop({ required: true, trim: true }) name!: string;
  @Prop({ default: '' }) mobile!: string;
}
export const OfficerSchema = SchemaFactory.createForClass(OfficerDoc);

/** A supplier of a company (spec 001 §3) with its officers. */
@Schema({ collection: 'distributors', timestamps: true })
export class DistributorDoc {
  @Prop({ required: true, index: true }) companyId!: number;
  @Prop({ required: true }) distributor_id!: number;
  @Prop({ required: true, trim: true }) name!: string;
  @Prop({ default: '' }) address_line_1!: string;
  @Prop({ default: '' }) address_line_2!: string;
  @Prop({ default: '' }) city_or_district!: string;
  /** The 2-digit GST state code when the state typed is a known one, else the text as typed (see gst-party.ts). */
  @Prop({ default: '' }) state!: string;
  /** Uppercase, validated; null when the distributor has none. */
  @Prop({ type: String, default: null }) gstin!: string | null;
  @Prop({ default: '' }) country!: string;
  @Prop({ default: '' }) postal_code!: string;
  @Prop({ type: [OfficerSchema], default: [] }) officers!: OfficerDoc[];
  /** Its party.changed event is not yet published (service-kit EventRelay): a default on insert, set again by every edit. */
  @Prop({ type: String, default: () => pendingEvent() }) evt?: string;
}

export type DistributorDocument = HydratedDocument<DistributorDoc>;
export const DistributorSchema = SchemaFactory.createForClass(DistributorDoc);
DistributorSchema.index({ companyId: 1, distributor_id: 1 }, { unique: true });
