import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseFilters } from '@nestjs/common';
import { PinLockedFilter } from '../common/discounts';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { AddProductReply, CartUpdateReply, EstimateDetailsReply, EstimateListReply, EstimateSummeryReply } from '@bahi/contracts';
import { IntField, intParam } from '../common/dto';
import { CurrentWho, type Who } from '../common/who';
import {
  CreateEstimateQuery,
  DuplicateQuery,
  EstimateCustomerDto,
  EstimateDiscDto,
  EstimateQuanDto,
  EstimateShipDto,
  EstimateSummeryDiscDto,
  EstimateTaxDto,
  IdQuery,
  PageQuery,
} from './estimates.dto';
import { ESTIMATE_CART_NO, EstimatesService } from './estimates.service';

class SummeryQuery {
  @IntField('estimateId', 1) estimateId!: number;
  @IsOptional() @IsString() @MaxLength(100) text?: string;
}

@Controller()
@UseFilters(PinLockedFilter)
export class EstimatesController {
  constructor(private readonly estimates: EstimatesService) {}

  /** Always from cart 1, whatever cart_no says (spec 000 §7). */
  @Get('createEstimate')
  create(@CurrentWho() who: Who, @Query() q: CreateEstimateQuery) {
    void ESTIMATE_CART_NO;
    return this.estimates.create(who, q.clientId ?? 0);
  }

  @Get('getEstimateList')
  list(@CurrentWho() who: Who, @Query() q: PageQuery): Promise<EstimateListReply> {
    return this.estimates.list(who.companyId, q.pageNo ?? 0);
  }

  @Get('getEstimateProductListSummery')
  summery(@CurrentWho() who: Who, @Query() q: SummeryQuery): Promise<EstimateSummeryReply> {
    return this.estimates.summery(who.companyId, q.estimateId, q.text);
  }

  @Post('updateEstimateCustomer')
  @HttpCode(200)
  customer(@CurrentWho() who: Who, @Body() dto: EstimateCustomerDto) {
    return this.estimates.setCustomer(who.companyId, dto.id, dto.client_id);
  }

  @Get('addProductIntoEstimate/:productId/:estimateId')
  add(@CurrentWho() who: Who, @Param('productId') code: string, @Param('estimateId', intParam('estimateId')) estimateId: number): Promise<AddProductReply> {
    return this.estimates.addProduct(who.companyId, estimateId, code);
  }

  @Get('removeProductFromEstimate/:serial/:estimateId')
  remove(@CurrentWho() who: Who, @Param('serial', intParam('serial')) serial: number, @Param('estimateId', intParam('estimateId')) estimateId: number) {
    return this.estimates.remove(who.companyId, estimateId, serial);
  }

  @Post('updateQuanInEstimate')
  @HttpCode(200)
  quan(@CurrentWho() who: Who, @Body() dto: EstimateQuanDto): Promise<CartUpdateReply> {
    return this.estimates.setQuantity(who.companyId, dto.estimateId, dto.sl_no, dto.quantity);
  }

  @Post('updateDiscInEstimate')
  @HttpCode(200)
  disc(@CurrentWho() who: Who, @Body() dto: EstimateDiscDto): Promise<CartUpdateReply> {
    return this.estimates.setDiscount(who, dto.estimateId, dto.sl_no, dto.discount, dto);
  }

  @Post('updateEstimateTax')
  @HttpCode(200)
  tax(@CurrentWho() who: Who, @Body() dto: EstimateTaxDto): Promise<CartUpdateReply> {
    return this.estimates.change(who.companyId, dto.id, (doc) => ((doc.tax = dto.tax), null));
  }

  @Post('updateEstimateShip')
  @HttpCode(200)
  ship(@CurrentWho() who: Who, @Body() dto: EstimateShipDto): Promise<CartUpdateReply> {
    return this.estimates.change(who.companyId, dto.id, (doc) => ((doc.shipping = dto.shipping), null));
  }

  @Post('updateEstimateSummeryDisc')
  @HttpCode(200)
  summeryDisc(@CurrentWho() who: Who, @Body() dto: EstimateSummeryDiscDto): Promise<CartUpdateReply> {
    return this.estimates.setSummaryDiscount(who, dto.id, dto.discount, dto);
  }

  @Get('getEstimateDetails')
  details(@CurrentWho() who: Who, @Query() q: IdQuery): Promise<EstimateDetailsReply> {
    return this.estimates.details(who.companyId, q.id);
  }

  @Get('duplicateEstimate')
  duplicate(@CurrentWho() who: Who, @Query() q: DuplicateQuery) {
    return this.estimates.duplicate(who, q.estimate_id);
  }

  @Delete('deleteEstimate/:id')
  delete(@CurrentWho() who: Who, @Param('id', intParam('id')) id: number) {
    return this.estimates.delete(who.companyId, id);
  }
}
