import { IsOptional } from 'class-validator';
import { CartNoField, IntField, NonNegativeDecimal, QuantityField, TaxFlag } from '../common/dto';

export class CartNoQuery {
  @IsOptional() @CartNoField() cart_no?: number;
}
export class AddProductQuery {
  @IsOptional() @CartNoField() cart_no?: number;
  @IsOptional() @QuantityField('quantity') quantity?: string;
}
export class UpQuanDto {
  @IntField('sl_no', 1) sl_no!: number;
  @QuantityField('quantity') quantity!: string;
  @IsOptional() @CartNoField() cart_no?: number;
}
export class UpDiscDto {
  @IntField('sl_no', 1) sl_no!: number;
  @NonNegativeDecimal('discount') discount!: string;
  @IsOptional() @CartNoField() cart_no?: number;
}
export class UpTaxDto {
  @IsOptional() @CartNoField() cart_no?: number;
  @TaxFlag() tax!: 0 | 1;
}
export class UpShipDto {
  @IsOptional() @CartNoField() cart_no?: number;
  @NonNegativeDecimal('shipping') shipping!: string;
}
export class UpSummeryDiscDto {
  @IsOptional() @CartNoField() cart_no?: number;
  @NonNegativeDecimal('discount') discount!: string;
}
