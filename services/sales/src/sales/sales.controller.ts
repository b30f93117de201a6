import { Body, Controller, Get, Headers, HttpCode, Post, Query } from '@nestjs/common';
import type { BillDetailsReply, MakeSaleReply, PreviewSaleReply, SaleListReply } from '@bahi/contracts';
import { CurrentWho, type Who } from '../common/who';
import { CheckoutService } from './checkout.service';
import { BillQuery, FillCartQuery, MakeSaleDto, PreviewSaleQuery, SaleFromEstimateDto, SaleListQuery } from './sales.dto';
import { SalesService } from './sales.service';

@Controller()
export class SalesController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly sales: SalesService,
  ) {}

  /** The Idempotency-Key header (or body field) makes a retried or double-clicked sale sell once. */
  @Post('MAKE_SALE')
  @HttpCode(200)
  makeSale(@CurrentWho() who: Who, @Body() dto: MakeSaleDto, @Headers('idempotency-key') key?: string): Promise<MakeSaleReply> {
    return this.checkout.checkout(who, { ...dto, idempotencyKey: cleanKey(key) ?? dto.idempotencyKey, source: { kind: 'cart', cart_no: dto.cart_no ?? 1 } });
  }

  @Post('makeSaleFromEstimate')
  @HttpCode(200)
  fromEstimate(@CurrentWho() who: Who, @Body() dto: SaleFromEstimateDto, @Headers('idempotency-key') key?: string): Promise<MakeSaleReply> {
    return this.checkout.checkout(who, { ...dto, idempotencyKey: cleanKey(key) ?? dto.idempotencyKey, source: { kind: 'estimate', estimateId: dto.estimateId } });
  }

  /** The invoice a sale to that customer would make (GST mode), or the spec's total; no side effects. */
  @Get('previewSale')
  preview(@CurrentWho() who: Who, @Query() q: PreviewSaleQuery): Promise<PreviewSaleReply> {
    return this.checkout.preview(who, q);
  }

  @Get('getSaleList')
  list(@CurrentWho() who: Who, @Query() q: SaleListQuery): Promise<SaleListReply> {
    return this.sales.list(who.companyId, q.pageNo ?? 0);
  }

  @Get('getBillDetails')
  bill(@CurrentWho() who: Who, @Query() q: BillQuery): Promise<BillDetailsReply> {
    return this.sales.bill(who.companyId, q.id);
  }

  @Get('fillCartFromBill')
  fill(@CurrentWho() who: Who, @Query() q: FillCartQuery) {
    return this.sales.fillCart(who, q.cartNo ?? 1, q.saleId);
  }
}

function cleanKey(key: string | undefined): string | undefined {
  const k = key?.trim();
  return k ? k.slice(0, 100) : undefined;
}
