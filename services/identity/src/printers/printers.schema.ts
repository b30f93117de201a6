import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';
import type { NetworkPrinter } from '@bahi/contracts';

/** A company's network thermal printers (one document per company; issue 28). */
@Schema({ collection: 'printers', timestamps: { createdAt: false, updatedAt: true } })
export class CompanyPrinters {
  @Prop({ required: true, unique: true }) companyId!: number;
  @Prop({ type: [Object], default: [] }) printers!: NetworkPrinter[];
}

export type CompanyPrintersDocument = HydratedDocument<CompanyPrinters>;
export const CompanyPrintersSchema = SchemaFactory.createForClass(CompanyPrinters);
