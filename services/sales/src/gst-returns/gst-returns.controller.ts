import { BadRequestException, Controller, Get, Inject, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { Subjects, type Gstr3bPortalJson, type Gstr3bReply } from '@bahi/contracts';
import { GSTR1_CSV_SECTIONS, type Gstr1CsvSection } from '@bahi/gst';
import { LOGGER, NatsClient, Positions } from '@bahi/service-kit';
import { CurrentWho, type Who } from '../common/who';
import { FilingService } from '../gst-filing/filing.service';
import { Gstr1Service } from './gstr1.service';
import { Gstr3bService } from './gstr3b.service';
import { Sink } from './sink';

/** GST returns for the accountant: GSTR-1 (JSON or the offline tool's CSV) and GSTR-3B. Managers only. */
@Controller('gst')
@Positions('manager')
export class GstReturnsController {
  constructor(
    private readonly gstr1: Gstr1Service,
    private readonly gstr3b: Gstr3bService,
    private readonly nats: NatsClient,
    @Inject(LOGGER) private readonly log: Logger,
    private readonly filing: FilingService,
  ) {}

  @Get('gstr1')
  async getGstr1(
    @CurrentWho() who: Who,
    @Query('period') period: unknown,
    @Query('quarter') quarter: unknown,
    @Query('format') format: unknown,
    @Query('section') section: unknown,
    @Res() res: Response,
  ): Promise<void> {
    // A month, or a quarterly filer's quarter (gst-filing: QRMP, filed periods).
    const p = await this.filing.returnPeriod(who.companyId, period, quarter, 'GSTR-1');
    const fmt = format === undefined || format === '' ? 'json' : format;
    if (fmt !== 'json' && fmt !== 'csv') throw new BadRequestException(`format must be json or csv, not '${String(format)}'.`);
    let sec: Gstr1CsvSection | null = null;
    if (fmt === 'csv') {
      if (!GSTR1_CSV_SECTIONS.includes(section as Gstr1CsvSection)) {
        throw new BadRequestException(`section must be one of ${GSTR1_CSV_SECTIONS.join(', ')} for the CSV, not '${String(section ?? '')}'.`);
      }
      sec = section as Gstr1CsvSection;
    }
    const gstin = await this.regularGstin(who.companyId, 'GSTR-1');
    // Headers go out before the first invoice is read: any failure after this point can only cut the download.
    if (sec) {
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="GSTR1_${sec}_${p.fp}.csv"`);
    } else {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="GSTR1_${gstin}_${p.fp}.json"`);
    }
    res.setHeader('Cache-Control', 'no-store');
    res.status(200);
    const sink = new Sink(res);
    try {
      if (sec) await this.gstr1.csv(who.companyId, this.filing.csvPeriod(p, sec), sec, sink);
      else await this.filing.writeGstr1(who.companyId, gstin, p, sink); // as filed, or with its amendments
      await sink.end();
    } catch (err) {
      this.log.error({ err, companyId: who.companyId, period: p.period }, 'GSTR-1 export failed part-way; the download is cut');
      res.destroy(err as Error);
    }
  }

  /** The latest month with a GST-mode invoice ('YYYY-MM'), or null: where the GST page opens. */
  @Get('latest-period')
  async latestPeriod(@CurrentWho() who: Who): Promise<{ period: string | null }> {
    return { period: await this.gstr1.latestMonth(who.companyId) };
  }

  /** The screen's summary; `format=json` the portal's GSTR-3B JSON as a download. */
  @Get('gstr3b')
  async getGstr3b(
    @CurrentWho() who: Who,
    @Query('period') period: unknown,
    @Query('quarter') quarter: unknown,
    @Query('format') format: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Gstr3bReply | Gstr3bPortalJson> {
    // A month, or a quarterly filer's quarter (gst-filing).
    const p = await this.filing.returnPeriod(who.companyId, period, quarter, 'GSTR-3B');
    if (format !== undefined && format !== '' && format !== 'json') throw new BadRequestException(`format must be json (the portal's GSTR-3B file) or left out, not '${String(format)}'.`);
    const gstin = await this.regularGstin(who.companyId, 'GSTR-3B');
    if (format !== 'json') return this.gstr3b.summary(who.companyId, gstin, p);
    const body = await this.gstr3b.portalJson(who.companyId, gstin, p);
    res.setHeader('Content-Disposition', `attachment; filename="GSTR3B_${gstin}_${p.fp}.json"`);
    res.setHeader('Cache-Control', 'no-store');
    return body;
  }

  /** Returns are filed by regular taxpayers: a company in GST mode with its GSTIN. */
  private async regularGstin(companyId: number, form: string): Promise<string> {
    const c = await this.nats.send(Subjects.identity.companyDetails, { companyId });
    const mode = c.tax_mode ?? 'simple';
    if (mode === 'composition') throw new BadRequestException(`${form} is filed by regular taxpayers; a composition taxpayer files CMP-08 and GSTR-4 instead.`);
    if (mode !== 'gst' || !c.gstin) throw new BadRequestException(`${form} is filed by regular taxpayers: switch the company to GST mode with its GSTIN in Setting first.`);
    return c.gstin;
  }
}
