import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A share link: the token names exactly one document of one company. Only the token's SHA-256
 * is stored, so a copy of the database opens no document.
 */
@Schema({ collection: 'share_links', timestamps: { createdAt: true, updatedAt: false } })
export class ShareLinkDoc {
  @Prop({ required: true }) tokenHash!: string;
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true, type: String }) kind!: string;
  @Prop({ required: true }) docId!: number;
  /** The user who made it: name (uid). */
  @Prop({ required: true }) createdBy!: string;
  @Prop({ required: true, type: Date }) expiresAt!: Date;
  @Prop({ type: Date, default: null }) revokedAt!: Date | null;
  /** The language the link was sent in: its page and PDF speak it (older links: null, the company's doc_language). */
  @Prop({ type: String, enum: ['en', 'hi', null], default: null }) lang!: 'en' | 'hi' | null;
  /** The token itself, for the company's own list of live links (GET /share). */
  @Prop({ required: true }) token!: string;
  createdAt!: Date;
}
export const ShareLinkSchema = SchemaFactory.createForClass(ShareLinkDoc);
ShareLinkSchema.index({ tokenHash: 1 }, { unique: true });
ShareLinkSchema.index({ companyId: 1, kind: 1, docId: 1 });

/** One view of a public page or its PDF. The address is kept only as a salted hash. */
@Schema({ collection: 'share_views' })
export class ShareViewDoc {
  @Prop({ required: true }) linkId!: string;
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true, type: Date }) at!: Date;
  @Prop({ required: true }) ipHash!: string;
  @Prop({ default: '' }) userAgent!: string;
  @Prop({ required: true, enum: ['page', 'pdf'], type: String }) what!: 'page' | 'pdf';
}
export const ShareViewSchema = SchemaFactory.createForClass(ShareViewDoc);
ShareViewSchema.index({ linkId: 1, at: -1 });
