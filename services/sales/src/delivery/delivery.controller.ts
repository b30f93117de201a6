import { BadRequestException, Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { Model } from 'mongoose';
import type { Delivery, DeliveryReply } from '@bahi/contracts';
import { isPincode, isTransporterId, isVehicleNo, normaliseVehicleNo, parseState, TRANSPORT_MODES, VEHICLE_TYPES } from '@bahi/gst';
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
  /** E-way bill fields (issue 31), each optional; null or '' clears one. */
  @IsOptional() @IsIn(TRANSPORT_MODES, { message: 'transport_mode must be road, rail, air or ship.' }) transport_mode?: string | null;
  @IsOptional() @IsIn(VEHICLE_TYPES, { message: 'vehicle_type must be regular or odc (over-dimensional cargo).' }) vehicle_type?: string | null;
  @IsOptional() @IntField('distance_km', 0, 4000) distance_km?: number | null;
  @IsOptional() @IsString() @MaxLength(20) transporter_id?: string | null;
  @IsOptional() @IsString() @MaxLength(15, { message: 'transporter_doc_no may have at most 15 characters.' }) transporter_doc_no?: string | null;
  @IsOptional() @IsString() transporter_doc_date?: string | null;
  @IsOptional() @IsString() @MaxLength(10) ship_to_pincode?: string | null;
  @IsOptional() @IsString() @MaxLength(40) ship_to_state?: string | null;
}

const EWB_KEYS = ['transport_mode', 'vehicle_type', 'distance_km', 'transporter_id', 'transporter_doc_no', 'transporter_doc_date', 'ship_to_pincode', 'ship_to_state'] as const;

/** The e-way bill part of a delivery: only the fields sent (a field left out is kept on update). */
function ewbFields(dto: DeliveryDto, vehicle: string): Partial<Delivery> {
  const out: Record<string, unknown> = {};
  const text = (v: string | null | undefined) => (v ?? '').trim().toUpperCase() || null;
  for (const k of EWB_KEYS) if (dto[k] !== undefined) out[k] = typeof dto[k] === 'string' ? text(dto[k] as string) : dto[k];
  if (out.transport_mode) out.transport_mode = String(out.transport_mode).toLowerCase();
  if (out.vehicle_type) out.vehicle_type = String(out.vehicle_type).toLowerCase();
  if (out.transporter_id && !isTransporterId(out.transporter_id as string)) throw new BadRequestException('transporter_id must be the transporter\'s 15-character GSTIN or TRANSIN.');
  if (out.transporter_doc_date) {
    const d = String(out.transporter_doc_date).slice(0, 10);
    if (!DATE.test(d) || !isRealDate(d)) throw new BadRequestException('transporter_doc_date must be a real date (YYYY-MM-DD).');
    out.transporter_doc_date = d;
  }
  if (out.ship_to_pincode && !isPincode(out.ship_to_pincode as string)) throw new BadRequestException('ship_to_pincode must be the 6-digit PIN code where the goods go.');
  if (out.ship_to_state) {
    try {
      out.ship_to_state = parseState(out.ship_to_state as string);
    } catch {
      throw new BadRequestException('ship_to_state must be an Indian state: its name or its 2-digit GST code.');
    }
  }
  // A road consignment on an e-way bill carries its vehicle number in the portal's format.
  const forEwb = Object.values(out).some((v) => v !== null && v !== undefined);
  if (forEwb && (out.transport_mode ?? 'road') === 'road' && !isVehicleNo(vehicle)) {
    throw new BadRequestException(`vehicle_number '${vehicle}' is not a vehicle number the e-way bill portal accepts; write it like MH12AB1234.`);
  }
  return out as Partial<Delivery>;
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
  const ewb = ewbFields(dto, f.vehicle_number);
  // On an e-way bill the number is stored as the portal writes it (no spaces).
  if (Object.keys(ewb).length && isVehicleNo(f.vehicle_number)) f.vehicle_number = normaliseVehicleNo(f.vehicle_number);
  return { ...f, ...ewb };
}

const view = (d: DeliveryDoc): Delivery => ({
  id: d.id,
  sale_id: d.sale_id,
  transporter_name: d.transporter_name,
  transporter_mobile: d.transporter_mobile,
  mode_of_transport: d.mode_of_transport,
  vehicle_number: d.vehicle_number,
  dispatched_date: d.dispatched_date,
  transport_mode: d.transport_mode ?? null,
  vehicle_type: d.vehicle_type ?? null,
  distance_km: d.distance_km ?? null,
  transporter_id: d.transporter_id ?? null,
  transporter_doc_no: d.transporter_doc_no ?? null,
  transporter_doc_date: d.transporter_doc_date ?? null,
  ship_to_pincode: d.ship_to_pincode ?? null,
  ship_to_state: d.ship_to_state ?? null,
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
