import { HttpException, HttpStatus, Injectable, UnauthorizedException } from '@nestjs/common';
import type { LoginReply, UserData } from '@bahi/contracts';
import { CompaniesService } from '../companies/companies.service';
import { lockoutSeconds, MAX_LOGIN_FAILURES } from '../common';
import type { User } from '../users/user.schema';
import { UsersService } from '../users/users.service';
import { PasswordsService } from './passwords.service';
import { SessionsService } from './sessions.service';

export const LOGIN_MESSAGES = {
  invalid: 'Invalid email or password.',
  ok: 'Login successful.',
};

/** The sentence of a temporary lock, with the time left. */
export function lockedMessage(retryAfterSeconds: number): string {
  const wait = retryAfterSeconds < 120 ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}` : `${Math.ceil(retryAfterSeconds / 60)} minutes`;
  return `This account is locked after too many failed logins. Please try again in ${wait}, or ask the administrator to unlock it.`;
}

/** A login failure: the spec's body {success:false, msg} with status 401. */
export function loginFailure(msg: string, status = HttpStatus.UNAUTHORIZED): HttpException {
  return new HttpException({ statusCode: status, success: false, msg, message: msg }, status);
}

/** 429 with Retry-After (the filter in auth.controller sets the header from `retryAfter`). */
export class AccountLockedException extends HttpException {
  constructor(readonly retryAfter: number) {
    const msg = lockedMessage(retryAfter);
    super({ statusCode: HttpStatus.TOO_MANY_REQUESTS, success: false, msg, message: msg }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly companies: CompaniesService,
    private readonly sessions: SessionsService,
    private readonly passwords: PasswordsService,
  ) {}

  async userData(u: User): Promise<UserData> {
    const company = u.companyId !== null ? await this.companies.model.findOne({ id: u.companyId }).lean() : null;
    return { id: u.id, name: u.name, position: u.position, companyId: u.companyId, companyName: company?.name ?? null, language: u.language === 'hi' ? 'hi' : 'en' };
  }

  /**
   * Takes one of the user's MAX_LOGIN_FAILURES attempts before the password is checked, each step
   * one atomic update, so any number of parallel guesses get at most that many checks. The
   * attempt that takes the last one also sets the lock; a lock that ran out starts a new count.
   * Returns the user as updated, or the seconds left of the lock.
   */
  private async takeAttempt(id: number): Promise<{ user: User } | { retryAfter: number }> {
    const m = this.users.model;
    const after = { returnDocument: 'after' as const };
    const now = new Date();
    let user = await m.findOneAndUpdate({ id, failedLogins: { $lt: MAX_LOGIN_FAILURES - 1 } }, { $inc: { failedLogins: 1 } }, after).lean();
    user ??= await m
      .findOneAndUpdate(
        { id, failedLogins: MAX_LOGIN_FAILURES - 1 },
        { $inc: { failedLogins: 1 }, $set: { lockedUntil: new Date(now.getTime() + lockoutSeconds() * 1000) } },
        after,
      )
      .lean();
    // At the limit and the lock is over (or was never set by older data): a new count, this attempt first.
    user ??= await m
      .findOneAndUpdate(
        { id, failedLogins: { $gte: MAX_LOGIN_FAILURES }, $or: [{ lockedUntil: null }, { lockedUntil: { $lte: now } }] },
        { $set: { failedLogins: 1, lockedUntil: null } },
        after,
      )
      .lean();
    if (user) return { user };
    const locked = await m.findOne({ id }, { lockedUntil: 1 }).lean();
    const left = locked?.lockedUntil ? new Date(locked.lockedUntil).getTime() - Date.now() : lockoutSeconds() * 1000;
    return { retryAfter: Math.max(1, Math.ceil(left / 1000)) };
  }

  async login(email: string, password: string): Promise<LoginReply> {
    const found = await this.users.findByEmail(email);
    // Unknown address: the same argon2 work and the same words as a wrong password.
    if (!found) throw loginFailure(await this.passwords.verifyNone(password).then(() => LOGIN_MESSAGES.invalid));
    const attempt = await this.takeAttempt(found.id);
    if ('retryAfter' in attempt) throw new AccountLockedException(attempt.retryAfter);
    const user = attempt.user;
    if (!(await this.passwords.verify(user.passwordHash, password))) {
      if (user.failedLogins >= MAX_LOGIN_FAILURES && user.lockedUntil) {
        throw new AccountLockedException(Math.max(1, Math.ceil((new Date(user.lockedUntil).getTime() - Date.now()) / 1000)));
      }
      throw loginFailure(LOGIN_MESSAGES.invalid);
    }
    await this.users.model.updateOne({ id: user.id }, { $set: { failedLogins: 0, lockedUntil: null } });
    const data = await this.userData(user);
    if (user.companyId !== null && data.companyName === null) throw loginFailure(LOGIN_MESSAGES.invalid);
    const token = await this.sessions.issue({
      sub: String(user.id),
      uid: user.id,
      name: user.name,
      email: user.email,
      position: user.position,
      companyId: user.companyId,
      companyName: data.companyName,
      // A temporary password's token opens only the password change and logout.
      ...(user.forceChange ? { fc: true as const } : {}),
    });
    return { success: true, token, forceChange: user.forceChange, user: data, msg: LOGIN_MESSAGES.ok };
  }

  async current(uid: number): Promise<UserData> {
    const user = await this.users.model.findOne({ id: uid }).lean();
    if (!user) throw new UnauthorizedException('Your account no longer exists.');
    return this.userData(user);
  }
}
