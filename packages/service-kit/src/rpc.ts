/**
 * Payload DTOs of NATS handlers. `@Payload() msg: SomeMsg` with a class built from these is
 * validated by the global ValidationPipe (microservices inherit it: configureApp's
 * inheritAppConfig), exactly like an HTTP body: unknown fields, wrong types and objects where a
 * scalar belongs (`{ $gt: 0 }`) answer an RpcException body `{ status: 400, message }`.
 * Nothing converts types here: a string id is refused, not parsed.
 */
import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

const MAX_ID = Number.MAX_SAFE_INTEGER;

/** A whole number id of `min` (1) or more. */
export const RpcId = (opts: { min?: number; optional?: boolean; nullable?: boolean } = {}) => {
  const min = opts.min ?? 1;
  const message = `$property must be a whole number of ${min} or more`;
  return applyDecorators(
    ...(opts.optional ? [IsOptional()] : opts.nullable ? [ValidateIf((_o, v) => v !== null)] : []),
    IsInt({ message }),
    Min(min, { message }),
    Max(MAX_ID, { message }),
  );
};

/** A list of at most `max` ids, each a whole number of 1 or more. */
export const RpcIdList = (max: number, opts: { optional?: boolean } = {}) =>
  applyDecorators(
    ...(opts.optional ? [IsOptional()] : []),
    IsArray({ message: '$property must be a list of ids' }),
    ArrayMaxSize(max, { message: `$property may hold at most ${max} ids` }),
    IsInt({ each: true, message: '$property must hold whole numbers of 1 or more' }),
    Min(1, { each: true, message: '$property must hold whole numbers of 1 or more' }),
    Max(MAX_ID, { each: true, message: '$property must hold whole numbers of 1 or more' }),
  );

/** A string of at most `max` characters. */
export const RpcText = (max: number, opts: { optional?: boolean; nullable?: boolean } = {}) =>
  applyDecorators(
    ...(opts.optional ? [IsOptional()] : opts.nullable ? [ValidateIf((_o, v) => v !== null)] : []),
    IsString({ message: '$property must be text' }),
    MaxLength(max, { message: `$property must be at most ${max} characters` }),
  );

/**
 * A decimal amount as a string ("12", "99.50", "-3"). Its value (a number at all, sign, scale)
 * is the service's rule and message, as for the same field over HTTP.
 */
export const RpcDecimal = (opts: { optional?: boolean } = {}) =>
  applyDecorators(
    ...(opts.optional ? [IsOptional()] : []),
    IsString({ message: '$property must be a decimal number written as text' }),
    MaxLength(32, { message: '$property must be at most 32 characters' }),
  );

/** One of the given values. */
export const RpcOneOf = (values: readonly (string | number)[], opts: { optional?: boolean } = {}) =>
  applyDecorators(
    ...(opts.optional ? [IsOptional()] : []),
    IsIn(values as unknown[], { message: `$property must be one of ${values.join(', ')}` }),
  );

/** A nested object (or a list of at most `max` of them, `each`) of a DTO class. */
export const RpcNested = (cls: () => new () => object, opts: { each?: number; optional?: boolean } = {}) =>
  applyDecorators(
    ...(opts.optional ? [IsOptional()] : []),
    ...(opts.each !== undefined
      ? [IsArray({ message: '$property must be a list' }), ArrayMaxSize(opts.each, { message: `$property may hold at most ${opts.each} items` })]
      : []),
    ValidateNested({ each: opts.each !== undefined }),
    Type(cls),
  );

/** Every request of one company: `companyId` (from the caller's verified token on its side). */
export class CompanyMsg {
  @RpcId() companyId!: number;
}

/** A request without a payload (`{}`): any field is refused. */
export class EmptyMsg {
  // One declared (absent) field: class-validator refuses a class with no rules at all as "unknown".
  @IsOptional() @IsIn([], { message: '$property is not a field of this request' }) readonly none?: never;
}
