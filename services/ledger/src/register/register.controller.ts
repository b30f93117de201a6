import { BadRequestException, Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type RegisterCheckReply, type RegisterCloseReply, type RegisterDocument, type RegisterOpenReply, type RegisterSession, type RegisterSessionsReply, type TokenClaims } from '@bahi/contracts';
import { CompanyMsg, CurrentUser, isRealDate, Limits, Money, RpcId, Tenant, today } from '@bahi/service-kit';
import { IsBoolean } from 'class-validator';
import { RegisterService } from './register.service';

const body = (b: unknown): Record<string, unknown> => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {});

/** Rupees counted in a drawer: 0 or more, at most 2 decimals. */
function cashField(value: unknown, name: string): string {
  if (value === undefined || value === null || value === '') throw new BadRequestException(`${name} is required: the cash in the drawer, in rupees.`);
  if ((typeof value !== 'number' && typeof value !== 'string') || !Money.isMoney(value)) throw new BadRequestException(`${name} must be an amount in rupees, like 2000 or 2000.50.`);
  const d = Money.money(value);
  if (d.isNegative()) throw new BadRequestException(`${name} cannot be below 0.`);
  if (d.decimalPlaces() > 2) throw new BadRequestException(`${name} can have at most 2 decimals (paise).`);
  if (d.greaterThan(Limits.maxAmount)) throw new BadRequestException(`${name} must be at most ${Limits.maxAmount}.`);
  return Money.toMoneyString(d);
}

const NOTE_MAX = 500;

/**
 * The cash register, one session per cashier (issue 29). Every position opens and closes their
 * own; managers see every cashier's sessions of the company.
 */
@Controller('register')
export class RegisterController {
  constructor(private readonly register: RegisterService) {}

  @Post('open')
  @HttpCode(200)
  open(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Body() raw: unknown): Promise<RegisterOpenReply> {
    const b = body(raw);
    return this.register.open({ companyId, userId: user.uid, name: user.name }, cashField(b.opening_cash, 'opening_cash'));
  }

  @Get('current')
  async current(@Tenant() companyId: number, @CurrentUser() user: TokenClaims): Promise<RegisterSession | { open: false }> {
    return (await this.register.currentView(companyId, user.uid)) ?? { open: false };
  }

  @Post('close')
  @HttpCode(200)
  close(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Body() raw: unknown): Promise<RegisterCloseReply> {
    const b = body(raw);
    const counted = cashField(b.counted_cash, 'counted_cash');
    if (b.note !== undefined && b.note !== null && typeof b.note !== 'string') throw new BadRequestException('note must be text.');
    const note = typeof b.note === 'string' ? b.note.trim() : '';
    if (note.length > NOTE_MAX) throw new BadRequestException(`note can be at most ${NOTE_MAX} characters.`);
    return this.register.close({ companyId, userId: user.uid, name: user.name }, counted, note);
  }

  @Get('sessions')
  async sessions(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Query('date') date?: string): Promise<RegisterSessionsReply> {
    const day = date === undefined || date === '' ? today() : date;
    if (!isRealDate(day)) throw new BadRequestException('date must be a date (YYYY-MM-DD).');
    const sessions = await this.register.list(companyId, day, user.position === 'manager' ? null : user.uid);
    return { date: day, sessions };
  }
}

class RegisterCheckMsg extends CompanyMsg {
  @RpcId() userId!: number;
}
class RegisterDocumentMsg extends CompanyMsg {
  @RpcId() sessionId!: number;
  @RpcId() userId!: number;
  @IsBoolean() manager!: boolean;
}

/** sales asks whether a cashier's register is open; documents asks for a Z report's data. */
@Controller()
export class RegisterHandlers {
  constructor(private readonly register: RegisterService) {}

  @MessagePattern(Subjects.ledger.registerCheck)
  async check(@Payload() msg: RegisterCheckMsg): Promise<RegisterCheckReply> {
    return { open: (await this.register.current(msg.companyId, msg.userId)) !== null };
  }

  @MessagePattern(Subjects.documents.registerDocument)
  document(@Payload() msg: RegisterDocumentMsg): Promise<RegisterDocument | null> {
    return this.register.document(msg.companyId, msg.sessionId, msg.userId, msg.manager);
  }
}
