import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { newSessionId, RevocationList, Revoke, signToken } from '@bahi/auth';
import { Subjects, TOKEN_TTL_SECONDS, type Revocation, type TokenSubject } from '@bahi/contracts';
import { NatsClient, SERVICE_CONFIG, type ServiceConfig } from '@bahi/service-kit';
import { RevocationEntry, Session } from './session.schema';

/** Signs tokens, records sessions, and revokes them everywhere (here at once, elsewhere by event). */
@Injectable()
export class SessionsService implements OnApplicationBootstrap {
  private readonly log = new Logger(SessionsService.name);

  constructor(
    @InjectModel(Session.name) private readonly sessions: Model<Session>,
    @InjectModel(RevocationEntry.name) private readonly entries: Model<RevocationEntry>,
    @Inject(SERVICE_CONFIG) private readonly cfg: ServiceConfig,
    private readonly revocations: RevocationList,
    private readonly nats: NatsClient,
  ) {}

  /** identity's own guard knows every stored revocation from the first request on (and is ready then). */
  async onApplicationBootstrap() {
    this.revocations.applyAll(await this.live());
  }

  async issue(subject: Omit<TokenSubject, 'sid'>): Promise<string> {
    const sid = newSessionId();
    await this.sessions.create({
      sid,
      userId: subject.uid,
      companyId: subject.companyId,
      exp: new Date(Date.now() + TOKEN_TTL_SECONDS * 1000),
    });
    return signToken({ ...subject, sid }, this.cfg.jwtSecret);
  }

  /** Logout: exactly this session. */
  async revokeSession(sid: string): Promise<void> {
    const s = await this.sessions.findOneAndUpdate({ sid }, { $set: { revoked: true } }).lean();
    await this.publish([Revoke.session(sid, s ? Math.floor(s.exp.getTime() / 1000) : undefined)]);
  }

  /**
   * Every live session of the user (optionally but one), and with `cutOff` every token issued
   * before now even if its session record is missing.
   */
  async revokeUser(userId: number, opts: { exceptSid?: string; cutOff?: boolean } = {}): Promise<void> {
    const live = await this.sessions
      .find({ userId, revoked: false, exp: { $gt: new Date() }, ...(opts.exceptSid ? { sid: { $ne: opts.exceptSid } } : {}) })
      .lean();
    const revs: Revocation[] = live.map((s) => Revoke.session(s.sid, Math.floor(s.exp.getTime() / 1000)));
    if (opts.cutOff) revs.push(Revoke.userBefore(userId));
    if (live.length) await this.sessions.updateMany({ sid: { $in: live.map((s) => s.sid) } }, { $set: { revoked: true } });
    await this.publish(revs);
  }

  async revokeCompany(companyId: number): Promise<void> {
    await this.sessions.updateMany({ companyId }, { $set: { revoked: true } });
    await this.publish([Revoke.company(companyId)]);
  }

  /** The live list, for identity.session.revocations. */
  async live(): Promise<Revocation[]> {
    const now = Date.now();
    await this.entries.deleteMany({ until: { $lte: now } });
    const rows = await this.entries.find({ until: { $gt: now } }).lean();
    return rows.map((r): Revocation => {
      if (r.kind === 'session') return { kind: 'session', sid: r.sid!, until: r.until };
      if (r.kind === 'user') return { kind: 'user', userId: r.userId!, issuedBefore: r.issuedBefore!, until: r.until };
      return { kind: 'company', companyId: r.companyId!, until: r.until };
    });
  }

  private async publish(revs: Revocation[]): Promise<void> {
    if (!revs.length) return;
    await this.entries.insertMany(revs.map((r) => ({ ...r })));
    // Applied here first so this service rejects the token on the very next request.
    this.revocations.revokeLocally(...revs);
    // Stored above: a service that misses the event (NATS down) reloads the list when it reconnects,
    // so a NATS outage must not turn a done logout into an error.
    await this.nats.emit(Subjects.identity.sessionRevoked, { revocations: revs }).catch((err: Error) => {
      this.log.warn(`revocation event not sent (${err.message}); services reload the list on reconnect`);
    });
  }
}
