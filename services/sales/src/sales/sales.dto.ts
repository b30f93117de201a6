import { Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { Limits } from '@bahi/service-kit';
import { CartNoField, DateField, IntField, NonNegativeDecimal, PageNoField } from '../common/dto';

class CheckoutBase {
  /** 0, null or absent: the walk-in customer. */
  @IsOptional() @Type(() => Number) @IsInt({ message: 'clientId must be a whole number.' }) @Min(0, { message: 'clientId must be a whole number.' }) @Max(Limits.maxId, { message: `clientId must be at most ${Limits.maxId}.` }) clientId?: number | null;
  @NonNegativeDecimal('paid') paid!: string;
  @DateField('dueDate') dueDate?: string;
  @DateField('date') date?: string;
  /** A walk-in buyer's { name, address, state } (Rule 46(e)); checked by @bahi/gst parseRecipient in the checkout. */
  @IsOptional() @IsObject({ message: 'recipient must be { name, address, state }.' }) recipient?: Record<string, unknown>;
  /** How `paid` is tendered: [{ mode, amount, ref? }] adding up to paid (service-kit parsePayments); absent: cash. */
  @IsOptional() @IsArray({ message: 'payments must be a list of tenders, each with mode, amount and ref.' }) payments?: unknown[];
  /** The browser's idempotency key, when not sent in the Idempotency-Key header. */
  @IsOptional() @IsString() @MaxLength(100) @Matches(/^[\w.:-]+$/, { message: 'idempotencyKey may hold letters, digits, . : _ and - only.' }) idempotencyKey?: string;
}

export class MakeSaleDto extends CheckoutBase {
  @IsOptional() @CartNoField() cart_no?: number;
}

export class SaleFromEstimateDto extends CheckoutBase {
  @IntField('estimateId', 1) estimateId!: number;
}

export class SaleListQuery {
  @IsOptional() @PageNoField() pageNo?: number;
}
export class BillQuery {
  @IntField('id', 1) id!: number;
}
export class FillCartQuery {
  @IsOptional() @CartNoField('cartNo') cartNo?: number;
  @IntField('saleId', 1) saleId!: number;
}

/** GET /previewSale: the cart (cart_no, default 1) or an estimate, priced for clientId (0: walk-in). */
export class PreviewSaleQuery {
  @IsOptional() @CartNoField() cart_no?: number;
  @IsOptional() @IntField('estimateId', 1) estimateId?: number;
  @IsOptional() @IntField('clientId', 0) clientId?: number;
  /** What the cashier typed as paid: the reply then says what would stay due on the walk-in (issue 28). */
  @IsOptional() @NonNegativeDecimal('paid') paid?: string;
}
