import { type ArgumentsHost, BadRequestException, Body, Catch, Controller, type ExceptionFilter, Get, HttpCode, Post, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import type { GetUserDataReply, LoginCheckReply, LoginReply, LogoutReply, TokenClaims } from '@bahi/contracts';
import { AllowedBeforePasswordChange, CurrentUser, Public } from '@bahi/service-kit';
import { LoginDto } from './auth.dto';
import { AccountLockedException, AuthService } from './auth.service';
import { SessionsService } from './sessions.service';

/** Bad login input still answers in the login shape, so the screen can show `msg`. */
@Catch(BadRequestException)
class LoginBadRequestFilter implements ExceptionFilter {
  catch(err: BadRequestException, host: ArgumentsHost) {
    const r = err.getResponse() as { message?: string | string[] };
    const msg = Array.isArray(r.message) ? r.message.join('; ') : (r.message ?? 'Login failed');
    host.switchToHttp().getResponse<Response>().status(400).json({ statusCode: 400, success: false, msg, message: msg });
  }
}

@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
  ) {}

  @Post('loginReact')
  @Public()
  @HttpCode(200)
  @UseFilters(LoginBadRequestFilter)
  async login(@Body() dto: LoginDto, @Res({ passthrough: true }) res: Response): Promise<LoginReply> {
    try {
      return await this.auth.login(dto.email, dto.password);
    } catch (err) {
      if (err instanceof AccountLockedException) res.setHeader('Retry-After', String(err.retryAfter));
      throw err;
    }
  }

  /** Whether the sent token (if any) is valid and not revoked. */
  @Get('loginReact')
  @Public()
  check(@CurrentUser() user?: TokenClaims): LoginCheckReply {
    return { authenticated: !!user };
  }

  @Get('getUserData')
  async userData(@CurrentUser() user: TokenClaims): Promise<GetUserDataReply> {
    return { user: await this.auth.current(user.uid) };
  }

  @Post('logout')
  @HttpCode(200)
  @AllowedBeforePasswordChange()
  async logout(@CurrentUser() user: TokenClaims): Promise<LogoutReply> {
    await this.sessions.revokeSession(user.sid);
    return { success: true, msg: 'Logged out.' };
  }
}
