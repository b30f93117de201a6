import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A company's Tally ledger names (issue 31): only the ones it changed; the rest are the defaults. */
@Schema({ collection: 'accountant_ledgers', timestamps: { createdAt: false, updatedAt: true } })
export class AccountantLedgers {
  @Prop({ required: true, unique: true }) companyId!: number;
  @Prop({ type: Object, default: {} }) names!: Record<string, string>;
}

export const AccountantLedgersSchema = SchemaFactory.createForClass(AccountantLedgers);
