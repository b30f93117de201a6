import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { HydratedDocument, Types } from 'mongoose';
import type { BillFormat, CompanyTaxMode, GstFiling, Language, WalkinCredit } from '@bahi/contracts';

/** A customer company of the platform. `id` is platform-wide sequential and never reused. */
@Schema({ collection: 'companies', timestamps: { createdAt: true, updatedAt: true } })
export class Company {
  @Prop({ required: true, unique: true }) id!: number;
  @Prop({ required: true, trim: true }) name!: string;
  @Prop({ default: '' }) add1!: string;
  @Prop({ default: '' }) add2!: string;
  @Prop({ default: '' }) mob1!: string;
  @Prop({ default: '' }) mob2!: string;
  @Prop({ default: '' }) email!: string;
  /** GridFS file id of the logo. */
  @Prop({ type: Object, default: null }) logo!: Types.ObjectId | null;
  @Prop({ type: String, default: null }) upiId!: string | null;
  /** GST settings (README "GST"); documents written before them read as simple / none / the default prefix. */
  @Prop({ type: String, default: 'simple' }) tax_mode!: CompanyTaxMode;
  /** Capitals; the company's state code is its first two digits (not stored apart, so it cannot disagree). */
  @Prop({ type: String, default: null }) gstin!: string | null;
  /** null until set or until the company leaves simple mode: then the default prefix is stored so its series never moves. */
  @Prop({ type: String, default: null }) invoice_prefix!: string | null;
  /** GSTR-1 filing: monthly, or quarterly under QRMP (sales' gst-filing). */
  @Prop({ type: String, default: 'monthly' }) gst_filing!: GstFiling;
  /** Aggregate turnover above Rs 5 crore: inventory asks 6-digit HSN codes (Notification 78/2020-CT). */
  @Prop({ type: Boolean, default: false }) aato_above_5cr!: boolean;
  /** The place goods are dispatched from, for e-way bills (issue 31): 6-digit PIN and town. */
  @Prop({ type: String, default: '' }) pincode!: string;
  @Prop({ type: String, default: '' }) place!: string;
  /** Consignment value above which a bill needs an e-way bill (Rule 138: Rs 50,000; some states Rs 1,00,000 within the state). */
  @Prop({ type: Number, default: 50000 }) ewaybill_threshold!: number;
  /** GSTR-3B's ITC only from purchases matched with GSTR-2B (inventory). */
  @Prop({ type: Boolean, default: false }) itc_from_matched_only!: boolean;
  /** The bill's default print format (README "Bills and sharing"). */
  @Prop({ type: String, default: 'a5' }) bill_format!: BillFormat;
  /** The language bills and other documents print in. */
  @Prop({ type: String, default: 'en' }) doc_language!: Language;
  /** Days a share link lives. */
  @Prop({ type: Number, default: 30 }) share_expiry_days!: number;
  /** Only the templates the company edited ({document:{en}} ...); the rest read as the shipped defaults. */
  @Prop({ type: Object, default: null }) share_templates!: Partial<Record<'document' | 'reminder' | 'gstr2b_missing', Partial<Record<'en' | 'hi', string>>>> | null;
  /** A staff member's discount above this percent needs a manager's PIN (issue 28); 100 keeps the spec's counter. */
  @Prop({ type: Number, default: 100 }) staff_max_discount_percent!: number;
  /** A due left on the walk-in customer: confirm (the counter asks), refuse, or allow. */
  @Prop({ type: String, default: 'confirm' }) walkin_credit!: WalkinCredit;
  /** Staff may record expenses too (issue 29); off: managers only. */
  @Prop({ type: Boolean, default: false }) staff_expenses!: boolean;
  /** A cash sale needs the cashier's open register session (issue 29); off by default. */
  @Prop({ type: Boolean, default: false }) require_register!: boolean;
  createdAt!: Date;
}

export type CompanyDocument = HydratedDocument<Company>;
export const CompanySchema = SchemaFactory.createForClass(Company);
