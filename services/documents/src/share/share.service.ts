import { createHash, createHmac, randomBytes } from 'node:crypto';
import { HttpException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { NatsConnection, Subscription } from 'nats';
import { decodeEvent } from '@bahi/auth';
import type { Logger } from 'pino';
import QRCode from 'qrcode';
import {
  DEFAULT_SHARE_EXPIRY_DAYS,
  Subjects,
  type CompanyDetails,
  type CreateShareReply,
  type ShareKind,
  type ShareLang,
  type ShareLinkRow,
  type TokenClaims,
} from '@bahi/contracts';
import { LOGGER, Money, NATS_CONNECTION, NatsClient, SERVICE_CONFIG, today, type ServiceConfig } from '@bahi/service-kit';
import { DOCUMENTS_CONFIG, type DocumentsConfig } from '../config';
import { CompanyHeaders } from '../documents/company';
import type { DocumentSources } from '../documents/kinds';
import { upiUri } from '../render/codes';
import { shareMessage, templateOf, whatsappUrl } from './message';
import { problemPage, sharePage, type PagePay } from './page';
import { ShareLinkDoc, ShareViewDoc } from './share.schema';
import { summarize, type ShareSummary } from './summary';

const DAY_MS = 86_400_000;
/** How often the view log is pruned of views older than the retention (also once at start). */
export const VIEW_SWEEP_MS = 6 * 3600_000;
/** 24 random bytes: 192 bits, 32 base64url characters. */
const TOKEN_BYTES = 24;
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type Resolved =
  | { ok: true; link: ShareLinkDoc & { _id: unknown } }
  | { ok: false; status: 404; reason: 'unknown' }
  | { ok: false; status: 410; reason: 'expired' | 'revoked'; link: ShareLinkDoc };

/** Share links: made by the company's users, opened by anyone holding the token. */
@Injectable()
export class ShareService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly sources: DocumentSources;
  private deleted?: Subscription;
  private sweeper?: NodeJS.Timeout;

  constructor(
    @InjectModel(ShareLinkDoc.name) private readonly links: Model<ShareLinkDoc>,
    @InjectModel(ShareViewDoc.name) private readonly views: Model<ShareViewDoc>,
    private readonly nats: NatsClient,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(DOCUMENTS_CONFIG) private readonly cfg: DocumentsConfig,
    @Inject(SERVICE_CONFIG) private readonly service: ServiceConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const headers = new CompanyHeaders((companyId) => this.companyDetails(companyId), cfg.identityUrl, (m) => logger.warn(m));
    this.sources = { ask: (subject, payload) => this.nats.send(subject, payload), company: (id) => headers.get(id), today };
  }

  /**
   * identity.company.deleted revokes the company's links (one replica of the queue group does it).
   * A lost event is covered at the next view: identity no longer knows the company (companyOrGone).
   */
  onApplicationBootstrap(): void {
    this.deleted = this.nc.subscribe(Subjects.identity.companyDeleted, {
      queue: this.service.service,
      callback: (err, msg) => {
        // The subject is named once, in the subscribe call (the contract tests read each mention as a use).
        const subject = this.deleted?.getSubject();
        if (err) return this.logger.warn({ err }, `${subject} subscription error`);
        let companyId: unknown;
        try {
          companyId = decodeEvent<{ companyId?: unknown }>(msg.data)?.companyId;
        } catch {
          companyId = undefined;
        }
        if (typeof companyId !== 'number' || !Number.isSafeInteger(companyId) || companyId < 1) {
          return this.logger.warn(`bad ${subject} event ignored`);
        }
        this.revokeCompany(companyId).catch((e: unknown) => this.logger.error({ err: e, companyId }, 'revoking a deleted company\'s share links failed'));
      },
    });
    const sweep = () => void this.pruneViews().catch((err: unknown) => this.logger.warn({ err }, 'pruning old share views failed'));
    sweep();
    this.sweeper = setInterval(sweep, VIEW_SWEEP_MS);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    this.deleted?.unsubscribe();
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /** Revokes every live link of a deleted company; their pages answer 410 from now on. */
  async revokeCompany(companyId: number): Promise<number> {
    const r = await this.links.updateMany({ companyId, revokedAt: null }, { $set: { revokedAt: new Date() } });
    if (r.modifiedCount) this.logger.info({ companyId, links: r.modifiedCount }, 'share links of a deleted company revoked');
    return r.modifiedCount;
  }

  /** Deletes views older than the retention (BAHI_SHARE_VIEW_RETENTION_DAYS); how many went. */
  async pruneViews(now = Date.now()): Promise<number> {
    const r = await this.views.deleteMany({ at: { $lt: new Date(now - this.cfg.shareViewRetentionDays * DAY_MS) } });
    return r.deletedCount ?? 0;
  }

  /**
   * The link's company, or null when identity no longer has it (deleted while documents missed the
   * event): its links are revoked then. Any other failure (identity down) is thrown, never revoked.
   */
  async companyOrGone(link: Pick<ShareLinkDoc, 'companyId'>): Promise<CompanyDetails | null> {
    try {
      return await this.companyDetails(link.companyId);
    } catch (err) {
      if (!(err instanceof HttpException) || err.getStatus() !== 404) throw err;
      await this.revokeCompany(link.companyId);
      return null;
    }
  }

  companyDetails(companyId: number): Promise<CompanyDetails> {
    return this.nats.send(Subjects.identity.companyDetails, { companyId });
  }

  /**
   * The link's address: the public address the admin set in Setting (identity sends it with the
   * company), else BAHI_PUBLIC_URL, else the host the user reached the gateway by.
   */
  linkUrl(token: string, origin: string | null, setting?: string | null): string {
    const base = setting || this.cfg.publicUrl || origin || '';
    return `${base}/s/${token}`;
  }

  async create(user: TokenClaims, companyId: number, kind: ShareKind, id: number, asked: ShareLang | undefined, template: 'document' | 'reminder', origin: string | null): Promise<CreateShareReply> {
    // The document must exist and be this company's (its owner answers null otherwise: 404).
    const [doc, company] = await Promise.all([summarize(this.sources.ask, companyId, kind, id, today()), this.companyDetails(companyId)]);
    const lang = asked ?? company.doc_language ?? 'en';
    const days = Number.isInteger(company.share_expiry_days) && company.share_expiry_days! >= 1 ? Math.min(365, company.share_expiry_days!) : DEFAULT_SHARE_EXPIRY_DAYS;
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const expiresAt = new Date(Date.now() + days * DAY_MS);
    await this.links.create({ tokenHash: hashToken(token), token, companyId, kind, docId: id, createdBy: `${user.name} (${user.uid})`, expiresAt, revokedAt: null, lang });
    const url = this.linkUrl(token, origin, company.public_url);
    const message = shareMessage(templateOf(company, template, lang), doc, { company: company.name, link: url, lang });
    return { token, url, expiresAt: expiresAt.toISOString(), message, waUrl: whatsappUrl(doc.mobile, message) };
  }

  /** A document's live links (neither expired nor revoked), newest first, with their views. */
  async list(companyId: number, kind: ShareKind, id: number, origin: string | null): Promise<ShareLinkRow[]> {
    const links = await this.links.find({ companyId, kind, docId: id, revokedAt: null, expiresAt: { $gt: new Date() } }).sort({ createdAt: -1 }).limit(100).lean();
    const setting = links.length ? (await this.companyDetails(companyId)).public_url : null;
    return Promise.all(
      links.map(async (l) => {
        const linkId = String(l._id);
        const [views, last] = await Promise.all([this.views.countDocuments({ linkId }), this.views.findOne({ linkId }, { at: 1 }).sort({ at: -1 }).lean()]);
        return {
          token: l.token,
          url: this.linkUrl(l.token, origin, setting),
          createdAt: new Date(l.createdAt).toISOString(),
          expiresAt: new Date(l.expiresAt).toISOString(),
          createdBy: l.createdBy,
          views,
          lastViewedAt: last ? new Date(last.at).toISOString() : null,
        };
      }),
    );
  }

  /** Revokes one of the company's links (again is fine); another company's token is unknown. */
  async revoke(companyId: number, token: string): Promise<void> {
    const link = TOKEN_PATTERN.test(token) ? await this.links.findOne({ tokenHash: hashToken(token), companyId }, { _id: 1, revokedAt: 1 }).lean() : null;
    if (!link) throw new NotFoundException('That share link was not found.');
    if (!link.revokedAt) await this.links.updateOne({ _id: link._id }, { $set: { revokedAt: new Date() } });
  }

  async resolve(token: string, now = Date.now()): Promise<Resolved> {
    if (!TOKEN_PATTERN.test(token)) return { ok: false, status: 404, reason: 'unknown' };
    const link = await this.links.findOne({ tokenHash: hashToken(token) }).lean();
    if (!link) return { ok: false, status: 404, reason: 'unknown' };
    if (link.revokedAt) return { ok: false, status: 410, reason: 'revoked', link };
    if (new Date(link.expiresAt).getTime() <= now) return { ok: false, status: 410, reason: 'expired', link };
    return { ok: true, link: link as ShareLinkDoc & { _id: unknown } };
  }

  /** Every view is logged: when, a keyed hash of the address (never the address), the browser, page or PDF. */
  async logView(link: ShareLinkDoc & { _id: unknown }, ip: string, userAgent: string, what: 'page' | 'pdf'): Promise<void> {
    const ipHash = createHmac('sha256', this.service.jwtSecret).update(`share-view:${ip}`).digest('hex').slice(0, 32);
    await this.views.create({ linkId: String(link._id), companyId: link.companyId, at: new Date(), ipHash, userAgent: userAgent.slice(0, 300), what });
  }

  async page(link: ShareLinkDoc, pdfHref: string, company: CompanyDetails): Promise<string> {
    const kind = link.kind as ShareKind;
    const doc = await summarize(this.sources.ask, link.companyId, kind, link.docId, today());
    return sharePage({ company, doc, pdfHref, pay: await this.pay(company, doc), expiresAt: new Date(link.expiresAt), lang: link.lang ?? company.doc_language ?? 'en' });
  }

  /** The language a link's page, PDF and 410 page speak: the one it was sent in, else (older links) the company's documents'. */
  async langOf(link: Pick<ShareLinkDoc, 'lang' | 'companyId'>): Promise<ShareLang> {
    if (link.lang) return link.lang;
    // A deleted company (or identity down) still gets its friendly page, in English.
    return (await this.companyDetails(link.companyId).catch(() => null))?.doc_language ?? 'en';
  }

  /** The UPI block: the company has a UPI id and something is due. */
  private async pay(company: CompanyDetails, doc: ShareSummary): Promise<PagePay | null> {
    if (!company.upiId || doc.due === null || !Money.money(doc.due).greaterThan(0)) return null;
    const amount = Money.round2(doc.due).toFixed(2);
    const uri = upiUri({ upiId: company.upiId, payeeName: company.name, amount, note: `${doc.title} ${doc.number}` });
    // 4 px a module (the page scales it up sharply): a small PNG is quick to make.
    const qrDataUrl = await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, scale: 4 });
    return { uri, qrDataUrl, amount };
  }

  problem = problemPage;
}
