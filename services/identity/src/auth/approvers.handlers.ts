import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Matches } from 'class-validator';
import { Subjects, type ApproverListReply, type ApproverVerifyReply } from '@bahi/contracts';
import { CompanyMsg, RpcId, RpcText } from '@bahi/service-kit';
import { lockoutSeconds, MAX_LOGIN_FAILURES } from '../common';
import type { User } from '../users/user.schema';
import { UsersService } from '../users/users.service';
import { PasswordsService } from './passwords.service';

class ApproverListMsg extends CompanyMsg {}
class ApproverVerifyMsg extends CompanyMsg {
  @RpcId() approverId!: number;
  @RpcText(6) @Matches(/^\d{4,6}$/, { message: 'pin must be 4 to 6 digits' }) pin!: string;
}

const wait = (s: number) => (s < 120 ? `${s} second${s === 1 ? '' : 's'}` : `${Math.ceil(s / 60)} minutes`);
export const pinLockedMessage = (name: string, s: number) => `${name}'s PIN is locked after too many wrong tries. Try again in ${wait(s)}, or ask another manager.`;

/**
 * The counter's discount approval (issue 28), asked by sales: the managers to offer, and a
 * manager's PIN checked with the same lockout as login (MAX_LOGIN_FAILURES wrong PINs lock that
 * manager's PIN for BAHI_LOCKOUT_SECONDS). Each attempt is taken before the PIN is checked, one
 * atomic update each, so parallel guesses get no more than the limit.
 */
@Controller()
export class ApproverHandlers {
  constructor(
    private readonly users: UsersService,
    private readonly passwords: PasswordsService,
  ) {}

  @MessagePattern(Subjects.identity.approverList)
  async list(@Payload() msg: ApproverListMsg): Promise<ApproverListReply> {
    const rows = await this.users.model.find({ companyId: msg.companyId, position: 'manager' }, { id: 1, name: 1, pinHash: 1 }).sort({ name: 1 }).lean();
    return { approvers: rows.map((u) => ({ id: u.id, name: u.name, has_pin: !!u.pinHash })) };
  }

  @MessagePattern(Subjects.identity.approverVerify)
  async verify(@Payload() msg: ApproverVerifyMsg): Promise<ApproverVerifyReply> {
    const m = this.users.model;
    const who = { id: msg.approverId, companyId: msg.companyId, position: 'manager' as const };
    const found = await m.findOne(who, { name: 1, pinHash: 1 }).lean();
    if (!found) return { ok: false, status: 403, message: 'Only a manager of this company can approve; choose a name from the list.' };
    if (!found.pinHash) return { ok: false, status: 403, message: `${found.name} has not set an approval PIN yet (Profile, Approval PIN).` };
    const after = { returnDocument: 'after' as const };
    const now = new Date();
    let u: User | null = await m.findOneAndUpdate({ ...who, pinFailures: { $lt: MAX_LOGIN_FAILURES - 1 } }, { $inc: { pinFailures: 1 } }, after).lean();
    u ??= await m.findOneAndUpdate({ ...who, pinFailures: MAX_LOGIN_FAILURES - 1 }, { $inc: { pinFailures: 1 }, $set: { pinLockedUntil: new Date(now.getTime() + lockoutSeconds() * 1000) } }, after).lean();
    u ??= await m
      .findOneAndUpdate({ ...who, pinFailures: { $gte: MAX_LOGIN_FAILURES }, $or: [{ pinLockedUntil: null }, { pinLockedUntil: { $lte: now } }] }, { $set: { pinFailures: 1, pinLockedUntil: null } }, after)
      .lean();
    if (!u) return this.locked(found.name, await m.findOne(who, { pinLockedUntil: 1 }).lean());
    if (await this.passwords.verify(u.pinHash ?? '', msg.pin)) {
      await m.updateOne(who, { $set: { pinFailures: 0, pinLockedUntil: null } });
      return { ok: true, id: u.id, name: u.name };
    }
    if (u.pinFailures >= MAX_LOGIN_FAILURES && u.pinLockedUntil) return this.locked(u.name, u);
    return { ok: false, status: 403, message: `Wrong PIN for ${u.name}; nothing was changed.` };
  }

  private locked(name: string, u: Pick<User, 'pinLockedUntil'> | null): ApproverVerifyReply {
    const left = u?.pinLockedUntil ? new Date(u.pinLockedUntil).getTime() - Date.now() : lockoutSeconds() * 1000;
    const retryAfter = Math.max(1, Math.ceil(left / 1000));
    return { ok: false, status: 429, message: pinLockedMessage(name, retryAfter), retryAfter };
  }
}
