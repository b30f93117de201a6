import { HttpException, HttpStatus, Injectable, UnauthorizedException } from '@nestjs/common';
import type { LoginReply, UserData } from '@bahi/contracts';
import { CompaniesService } from '../companies/companies.service';
import { checkPassword, MAX_LOGIN_FAILURES } from '../common';
import type { User } from '../users/user.schema';
import { UsersService } from '../users/users.service';
import { SessionsService } from './sessions.service';

export const LOGIN_MESSAGES = {
  invalid: 'Invalid email or password.',
  locked: 'Your account is locked after too many failed logins. Please contact the administrator.',
  ok: 'Login successful.',
};

/** A login failure: the spec's body {success:false, msg} with status 401. */
export function loginFailure(msg: string, status = HttpStatus.UNAUTHORIZED): HttpException {
  return new HttpException({ statusCode: status, success: false, msg, message: msg }, status);
}

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly companies: CompaniesService,
    private readonly sessions: SessionsService,
  ) {}

  async userData(u: User): Promise<UserData> {
    const company = u.companyId !== null ? await this.companies.model.findOne({ id: u.companyId }).lean() : null;
    return { id: u.id, name: u.name, position: u.position, companyId: u.companyId, companyName: company?.name ?? null };
  }

  async login(email: string, password: string): Promise<LoginReply> {
    const user = await this.users.findByEmail(email);
    if (!user) throw loginFailure(LOGIN_MESSAGES.invalid);
    if (user.is_locked) throw loginFailure(LOGIN_MESSAGES.locked);
    if (!(await checkPassword(user.passwordHash, password))) {
      // Atomic count so parallel attempts cannot slip past the limit.
      const after = await this.users.model.findOneAndUpdate({ id: user.id }, { $inc: { failedLogins: 1 } }, { returnDocument: 'after' }).lean();
      if (after && after.failedLogins >= MAX_LOGIN_FAILURES) {
        await this.users.model.updateOne({ id: user.id }, { $set: { is_locked: true } });
        await this.sessions.revokeUser(user.id, { cutOff: true });
        throw loginFailure(LOGIN_MESSAGES.locked);
      }
      throw loginFailure(LOGIN_MESSAGES.invalid);
    }
    const data = await this.userData(user);
    if (user.companyId !== null && data.companyName === null) throw loginFailure(LOGIN_MESSAGES.invalid);
    if (user.failedLogins) await this.users.model.updateOne({ id: user.id }, { $set: { failedLogins: 0 } });
    const token = await this.sessions.issue({
      sub: String(user.id),
      uid: user.id,
      name: user.name,
      email: user.email,
      position: user.position,
      companyId: user.companyId,
      companyName: data.companyName,
    });
    return { success: true, token, forceChange: user.forceChange, user: data, msg: LOGIN_MESSAGES.ok };
  }

  async current(uid: number): Promise<UserData> {
    const user = await this.users.model.findOne({ id: uid }).lean();
    if (!user) throw new UnauthorizedException('Your account no longer exists.');
    return this.userData(user);
  }
}
