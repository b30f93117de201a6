import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseFilters } from '@nestjs/common';
import { Discounts, PinLockedFilter } from '../common/discounts';
import type { AddProductReply, ApproversReply, CartUpdateReply, GetProductsReply } from '@bahi/contracts';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { Limits } from '@bahi/service-kit';
import { CartNoField, intParam } from '../common/dto';
import { CurrentWho, type Who } from '../common/who';
import { AddProductQuery, UpDiscDto, UpQuanDto, UpShipDto, UpSummeryDiscDto, UpTaxDto } from './carts.dto';
import { CartsService } from './carts.service';

class GetProductsQuery {
  @IsOptional() @CartNoField() cart_no?: number;
  /** Filters product_list (the entry box's suggestions). */
  @IsOptional() @IsString() @MaxLength(100) text?: string;
}


@Controller()
@UseFilters(PinLockedFilter)
export class CartsController {
  constructor(
    private readonly carts: CartsService,
    private readonly discounts: Discounts,
  ) {}

  /** The managers who may approve a staff member's discount (issue 28). */
  @Get('approvers')
  approvers(@CurrentWho() who: Who): Promise<ApproversReply> {
    return this.discounts.approvers(who.companyId);
  }

  @Get('getProducts')
  get(@CurrentWho() who: Who, @Query() q: GetProductsQuery): Promise<GetProductsReply> {
    return this.carts.view(who, q.cart_no ?? 1, q.text);
  }

  @Get('addProductIntoCart/:code')
  add(@CurrentWho() who: Who, @Param('code') code: string, @Query() q: AddProductQuery): Promise<AddProductReply> {
    return this.carts.addProduct(who, q.cart_no ?? 1, code, q.quantity);
  }

  @Get('removeProductFromCart/:sl_no')
  remove(@CurrentWho() who: Who, @Param('sl_no', intParam('sl_no')) sl_no: number) {
    return this.carts.remove(who, sl_no);
  }

  @Post('upQuan')
  @HttpCode(200)
  upQuan(@CurrentWho() who: Who, @Body() dto: UpQuanDto): Promise<CartUpdateReply> {
    return this.carts.setQuantity(who, dto.sl_no, dto.quantity, dto.cart_no);
  }

  @Post('upDisc')
  @HttpCode(200)
  upDisc(@CurrentWho() who: Who, @Body() dto: UpDiscDto): Promise<CartUpdateReply> {
    return this.carts.setDiscount(who, dto.sl_no, dto.discount, dto.cart_no, dto);
  }

  @Post('upTax')
  @HttpCode(200)
  upTax(@CurrentWho() who: Who, @Body() dto: UpTaxDto): Promise<CartUpdateReply> {
    return this.carts.change(who, { cart_no: dto.cart_no ?? 1 }, (doc) => ((doc.tax = dto.tax), null));
  }

  @Post('upShip')
  @HttpCode(200)
  upShip(@CurrentWho() who: Who, @Body() dto: UpShipDto): Promise<CartUpdateReply> {
    return this.carts.change(who, { cart_no: dto.cart_no ?? 1 }, (doc) => ((doc.shipping = dto.shipping), null));
  }

  @Post('upSummeryDisc')
  @HttpCode(200)
  upSummeryDisc(@CurrentWho() who: Who, @Body() dto: UpSummeryDiscDto): Promise<CartUpdateReply> {
    return this.carts.setSummaryDiscount(who, dto.cart_no ?? 1, dto.discount, dto);
  }

  @Delete('clearCart/:cart_no')
  clear(@CurrentWho() who: Who, @Param('cart_no', intParam('cart_no', Limits.maxCartNo)) cart_no: number) {
    return this.carts.clear(who, cart_no);
  }
}
