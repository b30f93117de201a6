import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument } from 'mongoose';
import { Positions, type Language, type Position } from '@bahi/contracts';

/** A person who logs in. Platform admins have companyId null. */
@Schema({ collection: 'users', timestamps: { createdAt: true, updatedAt: true } })
export class User {
  @Prop({ required: true, unique: true }) id!: number;
  @Prop({ required: true, trim: true }) name!: string;
  @Prop({ required: true, unique: true, lowercase: true, trim: true }) email!: string;
  @Prop({ required: true }) passwordHash!: string;
  @Prop({ required: true, enum: Positions, type: String }) position!: Position;
  @Prop({ type: Number, default: null, index: true }) companyId!: number | null;
  /**
   * Login attempts counted since the last success, each before its password is checked, so
   * parallel guesses cannot pass the limit; the one that reaches the limit sets lockedUntil.
   */
  @Prop({ default: 0 }) failedLogins!: number;
  /** Locked (no password is checked) until then; a success, an admin unlock or a reset clears it. */
  @Prop({ type: Date, default: null }) lockedUntil!: Date | null;
  @Prop({ default: false }) forceChange!: boolean;
  @Prop({ type: Date, default: null }) passwordChangedAt!: Date | null;
  /** Screen language the user chose in the profile menu; users written before it read as 'en'. */
  @Prop({ type: String, default: 'en' }) language!: Language;
  /** A manager's discount-approval PIN (argon2, like the password); null until set. */
  @Prop({ type: String, default: null }) pinHash!: string | null;
  /** Wrong PINs counted like failedLogins; the one reaching the limit sets pinLockedUntil. */
  @Prop({ default: 0 }) pinFailures!: number;
  @Prop({ type: Date, default: null }) pinLockedUntil!: Date | null;
}

export type UserDocument = HydratedDocument<User>;
export const UserSchema = SchemaFactory.createForClass(User);
