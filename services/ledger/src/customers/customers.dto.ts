import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';
import { DigitsString, MaxId, MOBILE, StateText, Trim } from '../common';

/** The customer form (spec 000 §5): every field but address line 2 required; mobile and zip numeric. */
export class CustomerFields {
  @DigitsString() @IsString({ message: 'mobile_no is required.' }) @Matches(MOBILE, { message: 'mobile_no must be a 10-digit mobile number.' })
  mobile_no!: string;
  @Trim() @IsString({ message: 'name is required.' }) @IsNotEmpty({ message: 'name is required.' }) @MaxLength(120) name!: string;
  @Trim() @IsString({ message: 'address_line_1 is required.' }) @IsNotEmpty({ message: 'address_line_1 is required.' }) @MaxLength(200)
  address_line_1!: string;
  @IsOptional() @Trim() @IsString() @MaxLength(200) address_line_2?: string;
  @Trim() @IsString({ message: 'city_or_district is required.' }) @IsNotEmpty({ message: 'city_or_district is required.' }) @MaxLength(100)
  city_or_district!: string;
  @StateText() @IsString({ message: 'state is required.' }) @IsNotEmpty({ message: 'state is required.' }) @MaxLength(100) state!: string;
  /** Optional; checked with the state in the service (gst-party.ts). Left out on PUT keeps the stored one, '' or null clears it. */
  @IsOptional() @Trim() @IsString({ message: 'gstin must be text.' }) @MaxLength(40, { message: 'gstin has at most 40 characters.' }) gstin?: string | null;
  @Trim() @IsString({ message: 'country is required.' }) @IsNotEmpty({ message: 'country is required.' }) @MaxLength(100) country!: string;
  @DigitsString() @IsString({ message: 'postal_code is required.' }) @Matches(/^\d{1,10}$/, { message: 'postal_code must be numeric.' })
  postal_code!: string;
}

export class CustomerDto extends CustomerFields {
  /** Sent by the form on every save; only PUT uses it. */
  @IsOptional() @Type(() => Number) @IsInt({ message: 'id must be a whole number.' }) @Min(0) @MaxId('id') id?: number;
}

/** PUT: the mobile number is locked, so it may be left out (if sent it must be unchanged). */
export class UpdateCustomerDto extends CustomerFields {
  @IsOptional() @DigitsString() @IsString() @Matches(MOBILE, { message: 'mobile_no must be a 10-digit mobile number.' })
  declare mobile_no: string;
  @Type(() => Number) @IsInt({ message: 'id is required to update a customer.' }) @Min(1, { message: 'id is required to update a customer.' }) @MaxId('id')
  declare id: number;
}
