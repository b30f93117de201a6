import { BadRequestException, Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { IsString } from 'class-validator';
import type { Model } from 'mongoose';
import type { BillEwaybill, EwbBulkJson } from '@bahi/contracts';
import { EWB_JSON_VERSION, isEwbNo } from '@bahi/gst';
import { Companies } from '../common/company';
import { intParam } from '../common/dto';
import { type DeliveryDoc, Models } from '../common/schemas';
import { CurrentWho, type Who } from '../common/who';
import { SalesService } from '../sales/sales.service';
import { billEwaybill, ewbBill } from './ewaybill';

/** At most this many bills in one bulk file. */
export const EWB_MAX_IDS = 50;

class SetEwaybillDto {
  @IsString({ message: 'ewb_no must be the 12-digit e-way bill number.' }) ewb_no!: string;
  @IsString({ message: 'valid_until must be a date and time, e.g. 2026-11-30T23:59:00+05:30.' }) valid_until!: string;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** E-way bills of sales' bills (issue 31): the portal's bulk JSON, and the number the portal gave back. */
@Controller()
export class EwaybillController {
  constructor(
    @InjectModel(Models.Delivery) private readonly deliveries: Model<DeliveryDoc>,
    private readonly sales: SalesService,
    private readonly companies: Companies,
  ) {}

  @Get('ewaybill/json')
  async json(@CurrentWho() who: Who, @Query('ids') ids?: string): Promise<EwbBulkJson> {
    const list = String(ids ?? '').split(',').map((x) => x.trim()).filter(Boolean);
    if (!list.length) throw new BadRequestException('ids must list the sale ids, e.g. ids=12,15.');
    if (list.some((x) => !/^\d{1,9}$/.test(x) || Number(x) < 1)) throw new BadRequestException('ids must be sale ids (whole numbers) separated by commas.');
    const saleIds = [...new Set(list.map(Number))];
    if (saleIds.length > EWB_MAX_IDS) throw new BadRequestException(`At most ${EWB_MAX_IDS} bills go in one e-way bill file; you asked for ${saleIds.length}.`);
    const company = (await this.companies.get(who.companyId)).details;
    const billLists = [];
    for (const id of saleIds) {
      const s = await this.sales.get(who.companyId, id);
      const d = (await this.deliveries.findOne({ companyId: who.companyId, sale_id: id }).lean()) as DeliveryDoc | null;
      billLists.push(ewbBill(s, company, d));
    }
    return { version: EWB_JSON_VERSION, billLists };
  }

  /** Records the number and validity the portal gave; the tax invoice and the challan print them. */
  @Put('ewaybill/:saleId')
  async set(@CurrentWho() who: Who, @Param('saleId', intParam('saleId')) saleId: number, @Body() dto: SetEwaybillDto): Promise<{ done: true; ewaybill: BillEwaybill }> {
    const ewb_no = dto.ewb_no.replace(/\s/g, '');
    if (!isEwbNo(ewb_no)) throw new BadRequestException('ewb_no must be the 12-digit e-way bill number the portal gave.');
    const v = dto.valid_until.trim();
    if (!ISO_DATE_TIME.test(v) || Number.isNaN(Date.parse(v))) throw new BadRequestException('valid_until must be a date and time, e.g. 2026-11-30T23:59:00+05:30.');
    const valid_until = new Date(v).toISOString();
    const s = await this.sales.get(who.companyId, saleId);
    if ((s as { cancelled?: unknown }).cancelled) throw new BadRequestException(`Sale ${saleId} is cancelled; an e-way bill cannot be recorded on it.`);
    await this.sales.model.updateOne({ companyId: who.companyId, saleId }, { $set: { ewaybill: { ewb_no, valid_until } } });
    const company = await this.sales.company(who.companyId);
    return { done: true, ewaybill: billEwaybill({ ...s, ewaybill: { ewb_no, valid_until } }, company) };
  }
}
