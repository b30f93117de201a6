import { IsOptional } from 'class-validator';
import { IntField, NonNegativeDecimal, TaxFlag } from '../common/dto';

export class CartNoQuery {
  @IsOptional() @IntField('cart_no', 1) cart_no?: number;
}
export class AddProductQuery {
  @IsOptional() @IntField('cart_no', 1) cart_no?: number;
  @IsOptional() @NonNegativeDecimal('quantity') quantity?: string;
}
export class UpQuanDto {
  @IntField('sl_no', 1) sl_no!: number;
  @NonNegativeDecimal('quantity') quantity!: string;
  @IsOptional() @IntField('cart_no', 1) cart_no?: number;
}
export class UpDiscDto {
  @IntField('sl_no', 1) sl_no!: number;
  @NonNegativeDecimal('discount') discount!: string;
  @IsOptional() @IntField('cart_no', 1) cart_no?: number;
}
export class UpTaxDto {
  @IsOptional() @IntField('cart_no', 1) cart_no?: number;
  @TaxFlag() tax!: 0 | 1;
}
export class UpShipDto {
  @IsOptional() @IntField('cart_no', 1) cart_no?: number;
  @NonNegativeDecimal('shipping') shipping!: string;
}
export class UpSummeryDiscDto {
  @IsOptional() @IntField('cart_no', 1) cart_no?: number;
  @NonNegativeDecimal('discount') discount!: string;
}
