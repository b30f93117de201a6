import { Controller, Get, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Positions, Tenant } from '@bahi/service-kit';
import { TallyExport, tallyRange } from './tally.export';

/** GET /export/tally?from&to (managers): the TallyPrime import file of the range. */
@Controller()
export class TallyController {
  constructor(private readonly tally: TallyExport) {}

  @Get('export/tally')
  @Positions('manager')
  async export(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const { from, to } = tallyRange(q);
    const { xml, vouchers } = await this.tally.build(companyId, from, to);
    res.setHeader('Content-Type', 'application/xml; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="tally-${from}-to-${to}.xml"`);
    res.setHeader('X-Tally-Vouchers', String(vouchers));
    res.send(xml);
  }
}
