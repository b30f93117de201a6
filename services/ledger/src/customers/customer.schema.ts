import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';

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
  @Prop({ default: '' }) state!: string;
  @Prop({ default: '' }) country!: string;
  @Prop({ default: '' }) postal_code!: string;
  @Prop({ default: false }) walkIn!: boolean;
}

export type CustomerDocument = HydratedDocument<CustomerDoc>;
export const CustomerSchema = SchemaFactory.createForClass(CustomerDoc);
CustomerSchema.index({ companyId: 1, client_id: 1 }, { unique: true });
// The customer list counts { companyId, walkIn: false } on every page: counted from this index.
CustomerSchema.index({ companyId: 1, walkIn: 1 });
// One customer per mobile number within a company (the walk-in holds the reserved number).
CustomerSchema.index({ companyId: 1, mobile_no: 1 }, { unique: true });
