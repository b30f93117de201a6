import { BadRequestException, Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { LOGGER, Positions } from '@bahi/service-kit';
import { CurrentWho, type Who } from '../common/who';
import { Sink } from '../gst-returns/sink';
import { FilingService } from './filing.service';

/** QRMP's IFF, filed periods and amendments (managers only; the company from the token). */
@Controller('gst')
@Positions('manager')
export class FilingController {
  constructor(
    private readonly filing: FilingService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** GET /gst/iff?period=YYYY-MM: the IFF JSON of one of the first two months of a quarter (b2b and cdnr). */
  @Get('iff')
  async iff(@CurrentWho() who: Who, @Query('period') period: unknown, @Res() res: Response): Promise<void> {
    const { gstin, p } = await this.filing.iffPeriod(who.companyId, period);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="IFF_${gstin}_${p.fp}.json"`);
    res.setHeader('Cache-Control', 'no-store');
    res.status(200);
    const sink = new Sink(res);
    try {
      await this.filing.writeIff(who.companyId, period, sink);
      await sink.end();
    } catch (err) {
      this.log.error({ err, companyId: who.companyId, period: p.period }, 'IFF export failed part-way; the download is cut');
      res.destroy(err as Error);
    }
  }

  @Get('periods')
  periods(@CurrentWho() who: Who) {
    return this.filing.list(who.companyId);
  }

  @Post('periods/:period/filed')
  @HttpCode(200)
  markFiled(@CurrentWho() who: Who, @Param('period') period: string, @Body() body: unknown) {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestException('Send {"arn": "..."}: the ARN the portal gave for the filed return.');
    return this.filing.markFiled(who, period, (body as { arn?: unknown }).arn);
  }

  @Post('amendments')
  @HttpCode(200)
  amend(@CurrentWho() who: Who, @Body() body: unknown) {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestException('Send {kind, original_no, changes}.');
    return this.filing.amend(who, body as { kind?: unknown; original_no?: unknown; changes?: unknown });
  }

  @Get('amendments')
  amendments(@CurrentWho() who: Who) {
    return this.filing.listAmendments(who.companyId);
  }
}
