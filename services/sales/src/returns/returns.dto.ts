import { IsArray, IsDefined, IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { BoundedArray } from '@bahi/service-kit';
import { IntField, NonNegativeDecimal, PageNoField } from '../common/dto';

/** The lines are checked by the service, which names the line in every refusal. */
const MAX_RETURN_LINES = 200;

export class SalesReturnDto {
  @IntField('saleId', 1) saleId!: number;
  @IsDefined({ message: 'lines must be a list of {sl_no, quantity}.' }) @BoundedArray('lines', MAX_RETURN_LINES) lines!: unknown[];
  @NonNegativeDecimal('refund') refund!: string;
  /** How the refund is paid out: [{ mode, amount, ref? }] adding up to refund; absent: cash. */
  @IsOptional() @IsArray({ message: 'payments must be a list of tenders, each with mode, amount and ref.' }) payments?: unknown[];
  @IsOptional() @IsString() @MaxLength(100) @Matches(/^[\w.:-]+$/, { message: 'idempotencyKey may hold letters, digits, . : _ and - only.' }) idempotencyKey?: string;
  @IsOptional() @IsString({ message: 'reason must be text.' }) @MaxLength(200, { message: 'reason must be at most 200 characters.' }) reason?: string;
}

/** GET /previewReturn?saleId=12&lines=3:1,5:2 */
export class PreviewReturnQuery {
  @IntField('saleId', 1) saleId!: number;
  @IsString({ message: 'lines must be line:quantity pairs, as 3:1,5:2.' }) @MaxLength(4000, { message: 'lines is too long.' }) lines!: string;
}

export class CancelSaleDto {
  @IntField('saleId', 1) saleId!: number;
  @IsString({ message: 'reason is required: say why the bill is cancelled.' })
  @ValidateBy({ name: 'notBlank', validator: { validate: (v: unknown) => typeof v === 'string' && v.trim().length > 0 } }, { message: 'reason is required: say why the bill is cancelled.' })
  @MaxLength(200, { message: 'reason must be at most 200 characters.' })
  reason!: string;
}

export class CreditNoteListQuery {
  @IsOptional() @PageNoField() pageNo?: number;
}
export class CreditNoteQuery {
  @IntField('id', 1) id!: number;
}
