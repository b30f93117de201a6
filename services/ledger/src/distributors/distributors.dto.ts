import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { BoundedArray, Limits } from '@bahi/service-kit';
import { DigitsString, MaxId, MOBILE, StateText, Trim } from '../common';

export class OfficerDto {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @MaxId('id') id?: number;
  @Trim() @IsString({ message: 'name is required.' }) @IsNotEmpty({ message: 'name is required.' }) @MaxLength(120) name!: string;
  @IsOptional() @DigitsString() @ValidateIf((o: OfficerDto) => o.mobile !== '') @IsString() @Matches(MOBILE, { message: 'mobile must be a 10-digit mobile number.' })
  mobile?: string;
}

/** The distributor form (spec 001 §5): everything but address line 2 required; zip numeric. */
export class DistributorFields {
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
  /** The people purchases are booked with; on PUT the list replaces the stored one when sent. */
  @IsOptional() @BoundedArray('officers', Limits.maxOfficers) @ValidateNested({ each: true }) @Type(() => OfficerDto) officers?: OfficerDto[];
}

export class DistributorDto extends DistributorFields {
  @IsOptional() @Type(() => Number) @IsInt({ message: 'id must be a whole number.' }) @Min(0) @MaxId('id') id?: number;
}

export class UpdateDistributorDto extends DistributorFields {
  @Type(() => Number) @IsInt({ message: 'id is required to update a distributor.' }) @Min(1, { message: 'id is required to update a distributor.' }) @MaxId('id')
  declare id: number;
}
