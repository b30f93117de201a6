import { IsOptional, IsString, Matches } from 'class-validator';
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
/** A manager's approval of a staff member's discount above the company's limit (issue 28). */
export class ApprovalFields {
  @IsOptional() @IntField('approver_id', 1) approver_id?: number;
  @IsOptional() @IsString({ message: 'approval_pin must be the manager\'s PIN: 4 to 6 digits.' }) @Matches(/^\d{4,6}$/, { message: 'approval_pin must be the manager\'s PIN: 4 to 6 digits.' }) approval_pin?: string;
}
export class UpDiscDto extends ApprovalFields {
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
export class UpSummeryDiscDto extends ApprovalFields {
  @IsOptional() @CartNoField() cart_no?: number;
  @NonNegativeDecimal('discount') discount!: string;
}
