import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** Every token identity signs is a session, so it can be revoked exactly (by sid). */
@Schema({ collection: 'sessions' })
export class Session {
  @Prop({ required: true, unique: true }) sid!: string;
  @Prop({ required: true, index: true }) userId!: number;
  @Prop({ type: Number, default: null, index: true }) companyId!: number | null;
  @Prop({ required: true }) exp!: Date;
  @Prop({ default: false }) revoked!: boolean;
}
export const SessionSchema = SchemaFactory.createForClass(Session);

/** A revocation still in force; the source of identity.session.revocations. */
@Schema({ collection: 'revocations' })
export class RevocationEntry {
  @Prop({ required: true, enum: ['session', 'user', 'company'], type: String }) kind!: 'session' | 'user' | 'company';
  @Prop({ type: String }) sid?: string;
  @Prop({ type: Number }) userId?: number;
  @Prop({ type: Number }) issuedBefore?: number;
  @Prop({ type: Number }) companyId?: number;
  /** Epoch ms after which no matching token can still be valid. */
  @Prop({ required: true, index: true }) until!: number;
}
export const RevocationEntrySchema = SchemaFactory.createForClass(RevocationEntry);
