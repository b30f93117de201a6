import { IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { LowerTrim } from '../common';

export class LoginDto {
  @LowerTrim()
  @IsEmail({}, { message: 'email must be a valid e-mail address.' })
  email!: string;

  @IsString({ message: 'password is required.' })
  @IsNotEmpty({ message: 'password is required.' })
  @MaxLength(200)
  password!: string;
}
