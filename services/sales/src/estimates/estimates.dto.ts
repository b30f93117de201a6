import { IsOptional } from 'class-validator';
import { ApprovalFields } from '../carts/carts.dto';
import { CartNoField, IntField, NonNegativeDecimal, PageNoField, QuantityField, TaxFlag } from '../common/dto';

export class CreateEstimateQuery {
  @IsOptional() @CartNoField() cart_no?: number;
  @IsOptional() @IntField('clientId', 0) clientId?: number;
}
export class PageQuery {
  @IsOptional() @PageNoField() pageNo?: number;
}
export class EstimateIdQuery {
  @IntField('estimateId', 1) estimateId!: number;
}
export class IdQuery {
  @IntField('id', 1) id!: number;
}
export class DuplicateQuery {
  @IntField('estimate_id', 1) estimate_id!: number;
}
export class EstimateCustomerDto {
  @IntField('id', 1) id!: number;
  @IntField('client_id', 0) client_id!: number;
}
export class EstimateQuanDto {
  @IntField('sl_no', 1) sl_no!: number;
  @QuantityField('quantity') quantity!: string;
  @IntField('estimateId', 1) estimateId!: number;
}
export class EstimateDiscDto extends ApprovalFields {
  @IntField('sl_no', 1) sl_no!: number;
  @NonNegativeDecimal('discount') discount!: string;
  @IntField('estimateId', 1) estimateId!: number;
}
export class EstimateTaxDto {
  @IntField('id', 1) id!: number;
  @TaxFlag() tax!: 0 | 1;
}
export class EstimateShipDto {
  @IntField('id', 1) id!: number;
  @NonNegativeDecimal('shipping') shipping!: string;
}
export class EstimateSummeryDiscDto extends ApprovalFields {
  @IntField('id', 1) id!: number;
  @NonNegativeDecimal('discount') discount!: string;
}
