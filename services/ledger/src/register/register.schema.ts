import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';

/**
 * One cashier's register session (issue 29): opened with the cash in the drawer, closed with the
 * cash counted. The figures are frozen at the close (decimal strings); while open they are
 * computed from the entries this user took or gave since `openedAt`.
 */
@Schema({ collection: 'register_sessions' })
export class RegisterSessionDoc {
  @Prop({ required: true }) companyId!: number;
  /** Per-company sequence (the Z report's number). */
  @Prop({ required: true }) sessionId!: number;
  /** identity's uid of the cashier, and the name printed on the Z report. */
  @Prop({ required: true }) userId!: number;
  @Prop({ required: true }) userName!: string;
  /** The India date it was opened (GET /register/sessions?date). */
  @Prop({ required: true }) date!: string;
  @Prop({ required: true }) openedAt!: Date;
  @Prop({ required: true }) openingCash!: string;
  @Prop({ required: true, default: true }) open!: boolean;
  @Prop({ type: Date, default: null }) closedAt!: Date | null;
  @Prop({ type: String, default: null }) countedCash!: string | null;
  @Prop({ type: String, default: null }) expectedCash!: string | null;
  @Prop({ type: String, default: null }) cashIn!: string | null;
  @Prop({ type: String, default: null }) cashOut!: string | null;
  @Prop({ type: Object, default: null }) totals!: Record<string, string> | null;
  @Prop({ type: Number, default: null }) salesCount!: number | null;
  @Prop({ default: '' }) note!: string;
}

export type RegisterSessionDocument = HydratedDocument<RegisterSessionDoc>;
export const RegisterSessionSchema = SchemaFactory.createForClass(RegisterSessionDoc);
RegisterSessionSchema.index({ companyId: 1, sessionId: 1 }, { unique: true });
// One open session per cashier: two opens at once meet here and the second is a 409.
RegisterSessionSchema.index({ companyId: 1, userId: 1 }, { unique: true, partialFilterExpression: { open: true } });
RegisterSessionSchema.index({ companyId: 1, date: 1 });
