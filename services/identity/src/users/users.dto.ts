import { IsEmail, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { LowerTrim, Trim } from '../common';

export class CreateUserDto {
  @Trim() @IsString() @IsNotEmpty({ message: 'name is required.' }) @MaxLength(120) name!: string;
  @LowerTrim() @IsEmail({}, { message: 'email must be a valid e-mail address.' }) email!: string;
  @IsString({ message: 'password is required.' }) @IsNotEmpty({ message: 'password is required.' }) @MaxLength(200) password!: string;
  @IsIn(['staff', 'manager'], { message: "position must be 'staff' or 'manager'." }) position!: 'staff' | 'manager';
}
