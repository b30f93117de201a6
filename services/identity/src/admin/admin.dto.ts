import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Limits } from '@bahi/service-kit';
import { IsMobile, LowerTrim, NormalizeMobile, Trim } from '../common';

const REQUIRED = { message: 'Please fill all required fields.' };

export class CreateCompanyDto {
  @Trim() @IsString(REQUIRED) @IsNotEmpty(REQUIRED) @MaxLength(120) cName!: string;
  @Trim() @IsString(REQUIRED) @IsNotEmpty(REQUIRED) @MaxLength(200) cAdd!: string;
  @NormalizeMobile() @IsString(REQUIRED) @IsNotEmpty(REQUIRED) @IsMobile('cMob') cMob!: string;
  @Trim() @IsString(REQUIRED) @IsNotEmpty(REQUIRED) @MaxLength(120) mName!: string;
  /** The manager logs in with this address. */
  @LowerTrim() @IsString(REQUIRED) @IsNotEmpty(REQUIRED) @IsEmail({}, { message: 'mEmail must be a valid e-mail address.' }) mEmail!: string;
}

export class CompanyListQuery {
  @IsOptional() @Type(() => Number) @IsInt({ message: 'pageNo must be a whole number.' }) @Min(0, { message: 'pageNo must be 0 or more.' }) @Max(Limits.maxPageNo, { message: `pageNo must be at most ${Limits.maxPageNo}.` }) pageNo?: number;
  @IsOptional() @Trim() @IsString() @MaxLength(100) text?: string;
}

const NEED_BOTH = { message: 'E-mail and new password are required.' };
export class AdminUpdatePasswordDto {
  @IsString(NEED_BOTH) @IsNotEmpty(NEED_BOTH) @MaxLength(200) newPassword!: string;
  @LowerTrim() @IsString(NEED_BOTH) @IsNotEmpty(NEED_BOTH) @IsEmail({}, { message: 'email must be a valid e-mail address.' }) email!: string;
}

const NEED_EMAIL = { message: 'E-mail is required.' };
export class UnlockQuery {
  @LowerTrim() @IsString(NEED_EMAIL) @IsNotEmpty(NEED_EMAIL) @IsEmail({}, { message: 'email must be a valid e-mail address.' }) email!: string;
}
