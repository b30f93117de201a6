import { Type } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsInt, IsNotEmpty, IsNumber, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { BillFormats, GstFilings, Languages, WalkinCredits } from '@bahi/contracts';
import { Limits } from '@bahi/service-kit';
import { IsMobile, LowerTrim, NormalizeMobile, Trim } from '../common';

export class SetCompanyDetailsDto {
  @Type(() => Number) @IsInt({ message: 'id must be a company id.' }) @Min(1, { message: 'id must be a company id.' }) @Max(Limits.maxId, { message: 'id must be a company id.' }) id!: number;
  @Trim() @IsString() @IsNotEmpty({ message: 'name is required.' }) @MaxLength(120) name!: string;
  @Trim() @IsString() @IsNotEmpty({ message: 'add1 (address line 1) is required.' }) @MaxLength(200) add1!: string;
  @IsOptional() @Trim() @IsString() @MaxLength(200) add2?: string;
  @NormalizeMobile() @IsString() @IsMobile('mob1') mob1!: string;
  @IsOptional() @NormalizeMobile() @ValidateIf((o: SetCompanyDetailsDto) => o.mob2 !== '') @IsMobile('mob2') mob2?: string;
  @IsOptional() @LowerTrim() @ValidateIf((o: SetCompanyDetailsDto) => o.email !== '') @IsEmail({}, { message: 'email must be a valid e-mail address.' }) email?: string;
  /** UPI id for payment QR codes, e.g. shop@okbank. */
  @IsOptional() @Trim() @ValidateIf((o: SetCompanyDetailsDto) => o.upiId !== '' && o.upiId !== null)
  @Matches(/^[\w.-]{2,256}@[a-zA-Z]{2,64}$/, { message: 'upiId must look like name@bank.' })
  upiId?: string | null;
  /** GST settings: checked together in the controller (@bahi/gst validateCompanyGst), which says which part is wrong. */
  @IsOptional() @IsString({ message: 'tax_mode must be one of simple, gst, composition.' }) @MaxLength(40, { message: 'tax_mode must be one of simple, gst, composition.' }) tax_mode?: string;
  @IsOptional() @IsString({ message: 'gstin must be text: 15 letters and digits.' }) @MaxLength(40, { message: 'A GSTIN has 15 characters.' }) gstin?: string | null;
  @IsOptional() @IsString({ message: 'invoice_prefix must be 1 to 6 letters or digits.' }) @MaxLength(40, { message: 'invoice_prefix must be 1 to 6 letters or digits.' }) invoice_prefix?: string | null;
  @IsOptional() @IsIn(GstFilings, { message: `gst_filing must be monthly or quarterly (QRMP).` }) gst_filing?: string;
  @IsOptional() @IsBoolean({ message: 'aato_above_5cr must be true or false: whether last year\'s aggregate turnover was above Rs 5 crore.' }) aato_above_5cr?: boolean;
  /** E-way bills (issue 31); each left out is kept, '' clears. */
  @IsOptional() @Trim() @ValidateIf((o: SetCompanyDetailsDto) => o.pincode !== '') @Matches(/^[1-9]\d{5}$/, { message: 'pincode must be the 6-digit PIN code of the shop (it cannot start with 0).' }) pincode?: string;
  @IsOptional() @Trim() @IsString({ message: 'place must be the town or city goods leave from.' }) @MaxLength(50, { message: 'place may have at most 50 characters.' }) place?: string;
  @IsOptional()
  @IsInt({ message: 'ewaybill_threshold must be a whole number of rupees from 0 to 10,00,000.' })
  @Min(0, { message: 'ewaybill_threshold must be a whole number of rupees from 0 to 10,00,000.' })
  @Max(1000000, { message: 'ewaybill_threshold must be a whole number of rupees from 0 to 10,00,000.' })
  ewaybill_threshold?: number;
  @IsOptional() @IsBoolean({ message: 'itc_from_matched_only must be true or false: whether GSTR-3B takes input tax credit only from bills matched with GSTR-2B.' }) itc_from_matched_only?: boolean;
  /** Bills and sharing: each left out is kept; the templates are checked in CompaniesService.shareTemplates. */
  @IsOptional() @IsIn(BillFormats, { message: `bill_format must be one of ${BillFormats.join(', ')}.` }) bill_format?: string;
  @IsOptional() @IsIn(Languages, { message: `doc_language must be one of ${Languages.join(', ')}.` }) doc_language?: string;
  @IsOptional()
  @IsInt({ message: 'share_expiry_days must be a whole number of days from 1 to 365.' })
  @Min(1, { message: 'share_expiry_days must be a whole number of days from 1 to 365.' })
  @Max(365, { message: 'share_expiry_days must be a whole number of days from 1 to 365.' })
  share_expiry_days?: number;
  @IsOptional() @IsObject({ message: 'share_templates must be an object: {document: {en, hi}, reminder: {en, hi}, gstr2b_missing: {en, hi}}.' }) share_templates?: Record<string, unknown>;
  /** Counter guards (issue 28); each left out is kept. */
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false }, { message: 'staff_max_discount_percent must be a percent from 0 to 100.' })
  @Min(0, { message: 'staff_max_discount_percent must be a percent from 0 to 100.' })
  @Max(100, { message: 'staff_max_discount_percent must be a percent from 0 to 100.' })
  staff_max_discount_percent?: number;
  @IsOptional() @IsIn(WalkinCredits, { message: `walkin_credit must be one of ${WalkinCredits.join(', ')}.` }) walkin_credit?: string;
  @IsOptional() @IsBoolean({ message: 'staff_expenses must be true or false.' }) staff_expenses?: boolean;
  @IsOptional() @IsBoolean({ message: 'require_register must be true or false: whether a cash sale needs the cashier\'s open register.' }) require_register?: boolean;
}

/** PUT /profile/pin (managers). */
export class SetPinDto {
  @IsString({ message: 'current_password is required.' }) @IsNotEmpty({ message: 'current_password is required.' }) @MaxLength(200) current_password!: string;
  @IsString({ message: 'The PIN must be 4 to 6 digits.' }) @Matches(/^\d{4,6}$/, { message: 'The PIN must be 4 to 6 digits.' }) pin!: string;
}

/** PUT /profile/language */
export class SetLanguageDto {
  @IsIn(Languages, { message: `language must be one of ${Languages.join(', ')}.` }) language!: string;
}

export class UpdatePasswordDto {
  @IsString({ message: 'current_password is required.' }) @IsNotEmpty({ message: 'current_password is required.' }) @MaxLength(200) current_password!: string;
  @IsString({ message: 'new_password is required.' }) @IsNotEmpty({ message: 'new_password is required.' }) @MaxLength(200) new_password!: string;
  @IsString({ message: 're_type_new_password is required.' }) @IsNotEmpty({ message: 're_type_new_password is required.' }) @MaxLength(200) re_type_new_password!: string;
}
