import { Controller } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { IsEmail, IsOptional } from 'class-validator';
import { Subjects, type CompanyDetails, type RevocationsReply, type UserLookupReply } from '@bahi/contracts';
import { CompanyMsg, EmptyMsg, RpcId, RpcText } from '@bahi/service-kit';
import { companyDetails, CompaniesService } from '../companies/companies.service';
import { storedPublicUrl } from '../settings/public-address.controller';
import { isLocked, UsersService } from '../users/users.service';
import { SessionsService } from './sessions.service';

// Payloads are validated like HTTP bodies (service-kit rpc.ts): no string ids, no objects for scalars.
class CompanyDetailsMsg extends CompanyMsg {}
class UserLookupMsg extends CompanyMsg {
  @RpcId({ optional: true }) userId?: number;
  @RpcText(254, { optional: true }) @IsOptional() @IsEmail({}, { message: 'email must be an e-mail address' }) email?: string;
}

/** What other services ask identity over NATS. */
@Controller()
export class IdentityHandlers {
  constructor(
    private readonly sessions: SessionsService,
    private readonly companies: CompaniesService,
    private readonly users: UsersService,
    @InjectConnection() private readonly conn: Connection,
  ) {}

  @MessagePattern(Subjects.identity.sessionRevocations)
  async revocations(@Payload() _msg: EmptyMsg): Promise<RevocationsReply> {
    return { revocations: await this.sessions.live() };
  }

  @MessagePattern(Subjects.identity.companyDetails)
  async company(@Payload() msg: CompanyDetailsMsg): Promise<CompanyDetails> {
    const c = await this.companies.model.findOne({ id: msg.companyId }).lean();
    if (!c) throw new RpcException({ status: 404, message: `Company ${msg.companyId} not found.` });
    // The platform's public address rides along: documents builds share links on it.
    return { ...companyDetails(c), public_url: await storedPublicUrl(this.conn) };
  }

  @MessagePattern(Subjects.identity.userLookup)
  async user(@Payload() msg: UserLookupMsg): Promise<UserLookupReply> {
    if (msg.userId === undefined && !msg.email) throw new RpcException({ status: 400, message: 'userId or email is required.' });
    const q = { companyId: msg.companyId, ...(msg.userId !== undefined ? { id: msg.userId } : { email: msg.email!.toLowerCase() }) };
    const u = await this.users.model.findOne(q).lean();
    if (!u) return { user: null };
    const c = await this.companies.model.findOne({ id: msg.companyId }).lean();
    return { user: { id: u.id, name: u.name, email: u.email, position: u.position, companyId: u.companyId, companyName: c?.name ?? null, is_locked: isLocked(u) } };
  }
}
