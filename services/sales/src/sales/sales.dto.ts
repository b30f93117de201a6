import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';
import { DateField, IntField, NonNegativeDecimal } from '../common/dto';

class CheckoutBase {
  /** 0, null or absent: the walk-in customer. */
  @IsOptional() @Type(() => Number) @IsInt({ message: 'clientId must be a whole number.' }) @Min(0, { message: 'clientId must be a whole number.' }) clientId?: number | null;
  @NonNegativeDecimal('paid') paid!: string;
  @DateField('dueDate') dueDate?: string;
  @DateField('date') date?: string;
  /** The browser's idempotency key, when not sent in the Idempotency-Key header. */
  @IsOptional() @IsString() @MaxLength(100) @Matches(/^[\w.:-]+$/, { message: 'idempotencyKey may hold letters, digits, . : _ and - only.' }) idempotencyKey?: string;
}

export class MakeSaleDto extends CheckoutBase {
  @IsOptional() @IntField('cart_no', 1) cart_no?: number;
}

export class SaleFromEstimateDto extends CheckoutBase {
  @IntField('estimateId', 1) estimateId!: number;
}

export class SaleListQuery {
  @IsOptional() @IntField('pageNo', 0) pageNo?: number;
}
export class BillQuery {
  @IntField('id', 1) id!: number;
}
export class FillCartQuery {
  @IsOptional() @IntField('cartNo', 1) cartNo?: number;
  @IntField('saleId', 1) saleId!: number;
}
