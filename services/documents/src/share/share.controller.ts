import { BadRequestException, Body, Controller, Get, HttpCode, HttpException, Inject, Param, Post, Query, Req, Res, ServiceUnavailableException } from '@nestjs/common';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { ShareKinds, type CompanyDetails, type CreateShareReply, type ListSharesReply, type RevokeShareReply, type ShareKind, type ShareLang, type TokenClaims } from '@bahi/contracts';
import { CurrentUser, Limits, LOGGER, Public, Tenant } from '@bahi/service-kit';
import { Printer } from '../core.module';
import { DOCUMENT_KINDS, type DocumentKindDef } from '../documents/kinds';
import { renderForResponse } from '../documents/renderer';
import { browserLang } from './page';
import { ShareService, type Resolved } from './share.service';

export class CreateShareDto {
  @IsIn(ShareKinds, { message: `kind must be one of ${ShareKinds.join(', ')}.` })
  kind!: ShareKind;
  @IsInt({ message: 'id must be a whole number.' })
  @Min(1, { message: 'id must be 1 or more.' })
  @Max(Limits.maxId, { message: `id must be at most ${Limits.maxId}.` })
  id!: number;
  @IsOptional()
  @IsIn(['en', 'hi'], { message: "lang must be 'en' or 'hi'." })
  lang?: ShareLang;
  @IsOptional()
  @IsIn(['document', 'reminder'], { message: "template must be 'document' or 'reminder'." })
  template?: 'document' | 'reminder';
}

export class RevokeShareDto {
  @IsString({ message: 'token must be the link token.' })
  @MaxLength(100, { message: 'token must be the link token.' })
  token!: string;
}

/** The origin the user reached the gateway by (it forwards X-Forwarded-Proto/Host). */
function originOf(req: Request): string | null {
  const host = String(req.headers['x-forwarded-host'] ?? '').split(',')[0]!.trim();
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return null;
  const proto = String(req.headers['x-forwarded-proto'] ?? 'http').split(',')[0]!.trim() === 'https' ? 'https' : 'http';
  return `${proto}://${host}`;
}

/** The client's address: the last X-Forwarded-For hop is the one the gateway saw (earlier ones are the client's word). */
function clientIp(req: Request): string {
  const xff = String(req.headers['x-forwarded-for'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return xff[xff.length - 1] ?? req.socket.remoteAddress ?? '';
}

/** POST /share, GET /share?kind&id, POST /share/revoke: every position of the company. */
@Controller('share')
export class ShareController {
  constructor(private readonly shares: ShareService) {}

  @Post()
  @HttpCode(200)
  create(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Body() body: CreateShareDto, @Req() req: Request): Promise<CreateShareReply> {
    return this.shares.create(user, companyId, body.kind, body.id, body.lang, body.template ?? 'document', originOf(req));
  }

  @Get()
  async list(@Tenant() companyId: number, @Query('kind') kind: unknown, @Query('id') id: unknown, @Req() req: Request): Promise<ListSharesReply> {
    if (typeof kind !== 'string' || !(ShareKinds as readonly string[]).includes(kind)) throw new BadRequestException(`kind must be one of ${ShareKinds.join(', ')}.`);
    if (typeof id !== 'string' || !/^\d{1,10}$/.test(id) || Number(id) < 1 || Number(id) > Limits.maxId) throw new BadRequestException('id must be a positive whole number.');
    return { links: await this.shares.list(companyId, kind as ShareKind, Number(id), originOf(req)) };
  }

  @Post('revoke')
  @HttpCode(200)
  async revoke(@Tenant() companyId: number, @Body() body: RevokeShareDto): Promise<RevokeShareReply> {
    await this.shares.revoke(companyId, body.token);
    return { done: true };
  }
}

/**
 * The public page /s/<token> and its PDF, without login (the gateway forwards /s/ here, rate
 * limited per address). HTML answers, friendly pages for 404 and 410, no caching, no indexing.
 */
@Controller('s')
export class PublicShareController {
  constructor(
    private readonly shares: ShareService,
    private readonly printer: Printer,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  private headers(res: Response): void {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  }

  /** 404 in the browser's language (no link to ask); 410 in the language the link was sent in. */
  private async refuse(found: Exclude<Resolved, { ok: true }>, req: Request, res: Response): Promise<void> {
    const lang = found.status === 410 ? await this.shares.langOf(found.link) : browserLang(req.headers['accept-language']);
    res.status(found.status).type('html').send(this.shares.problem(found.status, found.reason, lang));
  }

  /**
   * A live link whose company still exists, or null once the friendly page is sent: a deleted
   * company's link is revoked and answers 410, never the owner's JSON naming its id.
   */
  private async live(token: string, req: Request, res: Response): Promise<{ link: Extract<Resolved, { ok: true }>['link']; company: CompanyDetails } | null> {
    const found = await this.shares.resolve(token);
    if (!found.ok) {
      await this.refuse(found, req, res);
      return null;
    }
    const company = await this.shares.companyOrGone(found.link);
    if (!company) {
      await this.refuse({ ok: false, status: 410, reason: 'revoked', link: found.link }, req, res);
      return null;
    }
    return { link: found.link, company };
  }

  /** The document itself is gone at its owner (404): the friendly 404 page, not the owner's JSON. */
  private async ownerLost(err: unknown, req: Request, res: Response): Promise<void> {
    if (!(err instanceof HttpException) || err.getStatus() !== 404 || res.headersSent) throw err;
    await this.refuse({ ok: false, status: 404, reason: 'unknown' }, req, res);
  }

  @Get(':token')
  @Public()
  async page(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.headers(res);
    const ok = await this.live(token, req, res);
    if (!ok) return;
    let html: string;
    try {
      html = await this.shares.page(ok.link, `/s/${token}/pdf`, ok.company);
    } catch (err) {
      return this.ownerLost(err, req, res);
    }
    await this.shares.logView(ok.link, clientIp(req), String(req.headers['user-agent'] ?? ''), 'page');
    res.status(200).type('html').send(html);
  }

  @Get(':token/pdf')
  @Public()
  async pdf(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.headers(res);
    const ok = await this.live(token, req, res);
    if (!ok) return;
    const { link } = ok;
    const def = (DOCUMENT_KINDS as Partial<Record<string, DocumentKindDef>>)[link.kind];
    if (!def) throw new ServiceUnavailableException(`A ${link.kind} cannot be printed yet.`);
    // The PDF speaks the link's language, as its page does.
    let doc: Awaited<ReturnType<DocumentKindDef['prepare']>>;
    try {
      doc = await def.prepare({ companyId: link.companyId, id: String(link.docId), query: { lang: link.lang ?? ok.company.doc_language ?? 'en' } }, this.shares.sources);
    } catch (err) {
      return this.ownerLost(err, req, res);
    }
    const pdf = await renderForResponse(this.printer.pool, doc, res, this.logger, `shared ${link.kind} ${link.docId}`);
    await this.shares.logView(link, clientIp(req), String(req.headers['user-agent'] ?? ''), 'pdf');
    res.status(200);
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `inline; filename="${doc.fileName}"`);
    res.setHeader('Content-Length', String(pdf.length));
    res.end(pdf);
  }
}
