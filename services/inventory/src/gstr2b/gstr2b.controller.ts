import { BadRequestException, Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Subjects, type CompanyDetails, type Gstr2bReply, type TokenClaims } from '@bahi/contracts';
import { CurrentUser, NatsClient, Positions, Tenant } from '@bahi/service-kit';
import { parseGstr2b } from './gstr2b';
import { GSTR2B_MODEL, type Gstr2bDoc } from './gstr2b.schema';
import { Gstr2bService } from './gstr2b.service';

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

function period(v: unknown): string {
  const p = typeof v === 'string' ? v.trim() : '';
  if (!PERIOD.test(p)) throw new BadRequestException('period must be a month written YYYY-MM, e.g. 2026-10.');
  return p;
}

/** GSTR-2B matching of purchases (issue 31). Managers only, as every purchase call. */
@Controller()
@Positions('manager')
export class Gstr2bController {
  constructor(
    @InjectModel(GSTR2B_MODEL) private readonly model: Model<Gstr2bDoc>,
    private readonly service: Gstr2bService,
    private readonly nats: NatsClient,
  ) {}

  /** The portal's GSTR-2B JSON as the body; it replaces the month's earlier upload. */
  @Post('gst/gstr2b')
  @HttpCode(200)
  async upload(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Query('period') raw: unknown, @Body() body: unknown): Promise<Gstr2bReply> {
    const p = period(raw);
    const company: CompanyDetails = await this.nats.send(Subjects.identity.companyDetails, { companyId });
    if ((company.tax_mode ?? 'simple') === 'simple' || !company.gstin) throw new BadRequestException('GSTR-2B matching needs the company in GST mode with its GSTIN (Setting).');
    const { invoices, notes } = parseGstr2b(body, p, company.gstin);
    await this.model.updateOne({ companyId, period: p }, { $set: { invoices, notes, uploadedBy: user.uid } }, { upsert: true });
    return this.service.result(companyId, p, invoices, notes);
  }

  @Get('gst/gstr2b')
  async get(@Tenant() companyId: number, @Query('period') raw: unknown): Promise<Gstr2bReply> {
    const p = period(raw);
    const doc = await this.model.findOne({ companyId, period: p }).lean();
    return this.service.result(companyId, p, doc?.invoices ?? null, doc?.notes ?? []);
  }
}
