import { BadRequestException, Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { Model } from 'mongoose';
import type { Delivery, DeliveryReply } from '@bahi/contracts';
import { isRealDate, SequenceService } from '@bahi/service-kit';
import { DATE, IntField, intParam } from '../common/dto';
import { type DeliveryDoc, Models } from '../common/schemas';
import { CurrentWho, type Who } from '../common/who';
import { SalesService } from '../sales/sales.service';

/**
 * Spec 001 names the fields twice (entity: transporter_mobile, mode_of_transport, vehicle_number;
 * call: mobile, address, vehicleNumber); both spellings are accepted.
 */
class DeliveryDto {
  @IntField('sale_id', 1) sale_id!: number;
  @IsOptional() @IsString() @MaxLength(100) transporter_name?: string;
  @IsOptional() @IsString() @MaxLength(20) transporter_mobile?: string;
  @IsOptional() @IsString() @MaxLength(20) mobile?: string;
  @IsOptional() @IsString() @MaxLength(100) mode_of_transport?: string;
  @IsOptional() @IsString() @MaxLength(100) address?: string;
  @IsOptional() @IsString() @MaxLength(30) vehicle_number?: string;
  @IsOptional() @IsString() @MaxLength(30) vehicleNumber?: string;
  @IsOptional() @IsString() @Matches(/^\d{4}-\d{2}-\d{2}/, { message: 'dispatched_date must be a date (YYYY-MM-DD).' }) dispatched_date?: string;
  @IsOptional() @IntField('id', 1) id?: number;
}

function fields(dto: DeliveryDto) {
  const f = {
    transporter_name: (dto.transporter_name ?? '').trim(),
    transporter_mobile: (dto.transporter_mobile ?? dto.mobile ?? '').replace(/[\s-]/g, ''),
    // Forced to upper case (spec 001 §5).
    mode_of_transport: (dto.mode_of_transport ?? dto.address ?? '').trim().toUpperCase(),
    vehicle_number: (dto.vehicle_number ?? dto.vehicleNumber ?? '').trim().toUpperCase(),
    dispatched_date: (dto.dispatched_date ?? '').slice(0, 10),
  };
  const missing = Object.entries(f).filter(([, v]) => !v).map(([k]) => k);
  if (missing.length) throw new BadRequestException(`All delivery fields are required: ${missing.join(', ')} missing.`);
  if (!/^(?:\+?91)?\d{10}$/.test(f.transporter_mobile)) throw new BadRequestException('transporter_mobile must be a 10-digit mobile number.');
  f.transporter_mobile = f.transporter_mobile.slice(-10);
  if (!DATE.test(f.dispatched_date) || !isRealDate(f.dispatched_date)) throw new BadRequestException('dispatched_date must be a real date (YYYY-MM-DD).');
  return f;
}

const view = (d: DeliveryDoc): Delivery => ({
  id: d.id,
  sale_id: d.sale_id,
  transporter_name: d.transporter_name,
  transporter_mobile: d.transporter_mobile,
  mode_of_transport: d.mode_of_transport,
  vehicle_number: d.vehicle_number,
  dispatched_date: d.dispatched_date,
});

@Controller()
export class DeliveryController {
  constructor(
    @InjectModel(Models.Delivery) private readonly model: Model<DeliveryDoc>,
    private readonly sales: SalesService,
    private readonly seq: SequenceService,
  ) {}

  @Get('addDelivery/:saleId')
  async get(@CurrentWho() who: Who, @Param('saleId', intParam('saleId')) saleId: number): Promise<DeliveryReply> {
    await this.sales.get(who.companyId, saleId);
    const d = (await this.model.findOne({ companyId: who.companyId, sale_id: saleId }).lean()) as DeliveryDoc | null;
    return { data: d ? view(d) : null, saleId };
  }

  @Post('delivery')
  @HttpCode(200)
  async add(@CurrentWho() who: Who, @Body() dto: DeliveryDto): Promise<{ done: true; data: Delivery }> {
    const f = fields(dto);
    await this.sales.get(who.companyId, dto.sale_id);
    const id = await this.seq.next(who.companyId, 'delivery');
    try {
      await this.model.create({ companyId: who.companyId, id, sale_id: dto.sale_id, ...f });
    } catch (err) {
      if ((err as { code?: number }).code === 11000) throw new BadRequestException(`Sale ${dto.sale_id} already has delivery details; update them instead.`);
      throw err;
    }
    return { done: true, data: view({ companyId: who.companyId, id, sale_id: dto.sale_id, ...f }) };
  }

  @Put('delivery')
  async update(@CurrentWho() who: Who, @Body() dto: DeliveryDto): Promise<{ done: true; data: Delivery }> {
    const f = fields(dto);
    const d = (await this.model.findOneAndUpdate({ companyId: who.companyId, sale_id: dto.sale_id }, { $set: f }, { new: true }).lean()) as DeliveryDoc | null;
    if (!d) throw new BadRequestException(`Sale ${dto.sale_id} has no delivery details yet; add them first.`);
    return { done: true, data: view(d) };
  }
}
