import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { AdminUserRow, Position } from '@bahi/contracts';
import { SequenceService } from '@bahi/service-kit';
import { SessionsService } from '../auth/sessions.service';
import { PasswordsService } from '../auth/passwords.service';
import { MIN_PASSWORD } from '../common';
import { User, type UserDocument } from './user.schema';

/** Platform-wide sequences live under companyId 0. */
export const PLATFORM = 0;

/** Locked now: a lock that has run out is not shown (the next login clears it). */
export function isLocked(u: Pick<User, 'lockedUntil'>, now = Date.now()): boolean {
  return !!u.lockedUntil && new Date(u.lockedUntil).getTime() > now;
}

export function userRow(u: User): AdminUserRow {
  return { id: u.id, name: u.name, email: u.email, is_locked: isLocked(u), position: u.position, forceChange: u.forceChange };
}

@Injectable()
export class UsersService {
  constructor(
    @InjectModel(User.name) readonly model: Model<User>,
    private readonly seq: SequenceService,
    private readonly sessions: SessionsService,
    private readonly passwords: PasswordsService,
  ) {}

  findByEmail(email: string): Promise<UserDocument | null> {
    return this.model.findOne({ email: email.trim().toLowerCase() });
  }

  async create(input: { name: string; email: string; password: string; position: Position; companyId: number | null; forceChange: boolean }): Promise<User> {
    if (input.password.length < MIN_PASSWORD) throw new BadRequestException(`Password must be at least ${MIN_PASSWORD} characters.`);
    const email = input.email.trim().toLowerCase();
    if (await this.model.exists({ email })) throw new ConflictException(`A user with the e-mail ${email} already exists.`);
    const passwordHash = await this.passwords.hash(input.password);
    const id = await this.seq.next(PLATFORM, 'user');
    return (await this.model.create({ ...input, email, passwordHash, id, passwordChangedAt: new Date() })).toObject();
  }

  listOfCompany(companyId: number): Promise<User[]> {
    return this.model.find({ companyId }).sort({ id: 1 }).lean();
  }

  /** Sets a password. By an admin: forced change at next login, unlocked, every token revoked. */
  async setPassword(user: UserDocument, password: string, opts: { byAdmin: boolean; keepSid?: string }): Promise<void> {
    if (password.length < MIN_PASSWORD) throw new BadRequestException(`Password must be at least ${MIN_PASSWORD} characters.`);
    const passwordHash = await this.passwords.hash(password);
    await this.model.updateOne(
      { id: user.id },
      {
        $set: {
          passwordHash,
          passwordChangedAt: new Date(),
          forceChange: opts.byAdmin,
          ...(opts.byAdmin ? { lockedUntil: null, failedLogins: 0 } : {}),
        },
      },
    );
    await this.sessions.revokeUser(user.id, opts.byAdmin ? { cutOff: true } : { exceptSid: opts.keepSid });
  }

  async unlock(email: string): Promise<void> {
    const res = await this.model.updateOne({ email: email.trim().toLowerCase() }, { $set: { lockedUntil: null, failedLogins: 0 } });
    if (!res.matchedCount) throw new NotFoundException(`No user with the e-mail ${email}.`);
  }

  async deleteOfCompany(companyId: number, id: number): Promise<void> {
    const res = await this.model.deleteOne({ companyId, id });
    if (!res.deletedCount) throw new NotFoundException(`User ${id} not found in your company.`);
    await this.sessions.revokeUser(id, { cutOff: true });
  }
}
