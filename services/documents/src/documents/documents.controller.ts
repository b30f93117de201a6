import { BadRequestException, Controller, ForbiddenException, Get, Inject, NotFoundException, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { DocumentKinds, Subjects, type DocumentKind, type TokenClaims } from '@bahi/contracts';
import { CurrentUser, LOGGER, NatsClient, Tenant, today } from '@bahi/service-kit';
import { DOCUMENTS_CONFIG, type DocumentsConfig } from '../config';
import { Printer } from '../core.module';
import { CompanyHeaders } from './company';
import { DOCUMENT_KINDS, type DocumentSources, type Query as DocQuery } from './kinds';
import { renderForResponse } from './renderer';
import { parseLang } from '../i18n';


/** Query values as single strings; a repeated parameter is a 400. */
function flatQuery(q: Record<string, unknown>): DocQuery {
  const out: DocQuery = {};
  for (const [k, v] of Object.entries(q)) {
    if (typeof v !== 'string') throw new BadRequestException(`${k} must be given once.`);
    out[k] = v;
  }
  return out;
}

/**
 * GET /documents/{kind}/{id}[?options] -> application/pdf, inline (README lists the kinds).
 * `download=1` makes it an attachment (the bill view's Save button).
 */
@Controller('documents')
export class DocumentsController {
  private readonly sources: DocumentSources;

  constructor(
    private readonly nats: NatsClient,
    private readonly printer: Printer,
    @Inject(DOCUMENTS_CONFIG) cfg: DocumentsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const headers = new CompanyHeaders((companyId) => this.nats.send(Subjects.identity.companyDetails, { companyId }), cfg.identityUrl, (m) => logger.warn(m));
    this.sources = { ask: (subject, payload) => this.nats.send(subject, payload), company: (id) => headers.get(id), today };
  }

  @Get(':kind')
  withoutId(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Param('kind') kind: string, @Query() query: Record<string, unknown>, @Res() res: Response) {
    return this.serve(companyId, user, kind, undefined, query, res);
  }

  @Get(':kind/:id')
  withId(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Param('kind') kind: string, @Param('id') id: string, @Query() query: Record<string, unknown>, @Res() res: Response) {
    return this.serve(companyId, user, kind, id, query, res);
  }

  private async serve(companyId: number, user: TokenClaims, kind: string, id: string | undefined, rawQuery: Record<string, unknown>, res: Response): Promise<void> {
    if (!(DocumentKinds as readonly string[]).includes(kind)) {
      throw new NotFoundException(`There is no document kind '${kind}'. Known kinds: ${DocumentKinds.join(', ')}.`);
    }
    const def = DOCUMENT_KINDS[kind as DocumentKind];
    // The kind is a path parameter, so the position check is here rather than in @Positions().
    if (def.positions && !def.positions.includes(user.position)) {
      throw new ForbiddenException(def.positions.length === 1 && def.positions[0] === 'manager' ? 'Only a manager can do this.' : `Your position (${user.position}) may not print this document.`);
    }
    if (def.needsId && id === undefined) throw new BadRequestException(`A ${kind} document needs an id: /documents/${kind}/{id}.`);
    if (!def.needsId && id !== undefined) throw new NotFoundException(`A ${kind} document takes no id; use /documents/${kind}?options.`);
    const query = flatQuery(rawQuery);
    // A bad lang is a 400 before any owner is asked.
    parseLang(query.lang);
    const doc = await def.prepare({ companyId, id, query, user: { id: user.uid, position: user.position } }, this.sources);
    const pdf = await renderForResponse(this.printer.pool, doc, res, this.logger, `${kind} ${id ?? ''}`);
    const disposition = query.download === '1' ? 'attachment' : 'inline';
    res.status(200);
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `${disposition}; filename="${doc.fileName}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Content-Length', String(pdf.length));
    res.end(pdf);
  }
}
