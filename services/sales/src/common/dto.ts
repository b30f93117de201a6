import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { Limits } from '@bahi/service-kit';

const NON_NEGATIVE = /^(\d+(\.\d*)?|\.\d+)$/;

/** Numbers and numeric strings become a plain decimal string; anything else is left for the validator to refuse. */
export const ToDecimalString = () =>
  Transform(({ value }) => {
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string') return value.trim();
    return value;
  });

/** A decimal amount or quantity, not below 0 and not above `max` (a rupee amount unless told). */
export function NonNegativeDecimal(field: string, max: number = Limits.maxAmount) {
  return (target: object, key: string) => {
    ToDecimalString()(target, key);
    Matches(NON_NEGATIVE, { message: `${field} must be a number not below 0.` })(target, key);
    MaxLength(Limits.maxNumberChars, { message: `${field} must be a number of at most ${Limits.maxNumberChars} characters.` })(target, key);
    ValidateBy({
      name: 'decimalMax',
      validator: { validate: (v: unknown) => typeof v !== 'string' || !NON_NEGATIVE.test(v) || Number(v) <= max },
    }, { message: `${field} must be at most ${max}.` })(target, key);
  };
}

/** A quantity: a decimal not below 0 and at most Limits.maxQuantity. */
export const QuantityField = (field: string) => NonNegativeDecimal(field, Limits.maxQuantity);

/** A whole number from `min` to `max` (an id's range unless told). */
export function IntField(field: string, min = 0, max: number = Limits.maxId) {
  return (target: object, key: string) => {
    Type(() => Number)(target, key);
    IsInt({ message: `${field} must be a whole number.` })(target, key);
    Min(min, { message: `${field} must be at least ${min}.` })(target, key);
    Max(max, { message: `${field} must be at most ${max}.` })(target, key);
  };
}

/** The counter's cart number, 1..Limits.maxCartNo. */
export const CartNoField = (field = 'cart_no') => IntField(field, 1, Limits.maxCartNo);
/** A zero-based page number. */
export const PageNoField = () => IntField('pageNo', 0, Limits.maxPageNo);

/** Tax flag: 1/0, true/false, '1'/'0'. */
export const ToTaxFlag = () =>
  Transform(({ value }) => (value === true || value === 1 || value === '1' || value === 'true' ? 1 : value === false || value === 0 || value === '0' || value === 'false' ? 0 : value));
export function TaxFlag() {
  return (target: object, key: string) => {
    ToTaxFlag()(target, key);
    IsIn([0, 1], { message: 'tax must be 1 (applied) or 0.' })(target, key);
  };
}

export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export function DateField(field: string) {
  return (target: object, key: string) => {
    IsOptional()(target, key);
    Transform(({ value }) => (typeof value === 'string' ? value.trim().slice(0, 10) : value))(target, key);
    Matches(DATE, { message: `${field} must be a date (YYYY-MM-DD).` })(target, key);
  };
}


/** Path parameter that must be a whole number in range; 400 naming it otherwise. */
export { intParam } from '@bahi/service-kit';
