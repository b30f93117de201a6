import type { NatsConnection, Subscription } from 'nats';
import {
  Subjects,
  TOKEN_TTL_SECONDS,
  type Revocation,
  type RevocationsReply,
  type SessionRevokedEvent,
  type TokenClaims,
} from '@bahi/contracts';
import { decodeEvent, nestRequest } from './nest-wire';

export interface RevocationListOptions {
  /** Delay between attempts to load the list while identity is not up yet. */
  retryMs?: number;
  /** Timeout of one load request. */
  requestTimeoutMs?: number;
  /** Where problems are reported (defaults to silent). */
  log?: (msg: string) => void;
  /** Clock, epoch ms (tests). */
  now?: () => number;
}

const DAY_MS = TOKEN_TTL_SECONDS * 1000;

/**
 * The revoked tokens, kept in memory: loaded from identity at start, then kept current by the
 * identity.session.revoked events (a plain subscription, so every replica hears every event).
 * Entries are forgotten once no token they match can still be valid (at most 24 h).
 */
export class RevocationList {
  private readonly sessions = new Map<string, number>();
  private readonly users = new Map<number, { issuedBefore: number; until: number }>();
  private readonly companies = new Map<number, number>();
  private sub?: Subscription;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private loadedOnce = false;
  private readonly opts: Required<RevocationListOptions>;

  constructor(opts: RevocationListOptions = {}) {
    this.opts = {
      retryMs: opts.retryMs ?? 1000,
      requestTimeoutMs: opts.requestTimeoutMs ?? 2000,
      log: opts.log ?? (() => {}),
      now: opts.now ?? Date.now,
    };
  }

  /**
   * True once the full list was loaded from identity. Until then a revoked token cannot be told
   * from a good one, so guards answer 503 and readiness reports not ready.
   */
  get loaded(): boolean {
    return this.loadedOnce;
  }

  /** The complete list from its source (identity reads its own database): loaded from now on. */
  applyAll(revocations: Revocation[]): void {
    this.apply(revocations);
    this.loadedOnce = true;
  }

  /**
   * Subscribes to revocation events, then loads the current list. Resolves after the first
   * attempt; if identity is not answering yet it keeps retrying in the background.
   */
  async start(nc: NatsConnection): Promise<void> {
    this.stopped = false;
    this.sub = nc.subscribe(Subjects.identity.sessionRevoked, {
      callback: (err, msg) => {
        if (err) return this.opts.log(`revocation subscription error: ${err.message}`);
        try {
          const event = decodeEvent<SessionRevokedEvent>(msg.data);
          this.apply(event?.revocations ?? []);
        } catch (e) {
          this.opts.log(`bad revocation event: ${(e as Error).message}`);
        }
      },
    });
    // Events missed while disconnected: reload the whole list after a reconnect.
    void (async () => {
      for await (const s of nc.status()) {
        if (this.stopped) break;
        if (s.type === 'reconnect') void this.loadUntilDone(nc);
      }
    })().catch(() => {});
    await this.loadOnce(nc).then((ok) => {
      if (!ok) void this.loadUntilDone(nc);
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.sub?.unsubscribe();
    this.sub = undefined;
  }

  private async loadOnce(nc: NatsConnection): Promise<boolean> {
    try {
      const reply = await nestRequest<RevocationsReply>(nc, Subjects.identity.sessionRevocations, {}, this.opts.requestTimeoutMs);
      this.apply(reply?.revocations ?? []);
      this.loadedOnce = true;
      return true;
    } catch (err) {
      this.opts.log(`revocation list not loaded yet (${(err as Error).message}); retrying`);
      return false;
    }
  }

  private loadUntilDone(nc: NatsConnection): Promise<void> {
    return new Promise((resolve) => {
      const attempt = async () => {
        if (this.stopped || nc.isClosed()) return resolve();
        if (await this.loadOnce(nc)) return resolve();
        this.timer = setTimeout(attempt, this.opts.retryMs);
        this.timer.unref();
      };
      this.timer = setTimeout(attempt, this.opts.retryMs);
      this.timer.unref();
    });
  }

  /** Applies a revocation known here first (e.g. a logout the gateway just proxied). */
  revokeLocally(...revocations: Revocation[]): void {
    this.apply(revocations);
  }

  /** Adds entries (idempotent; a later user cut-off replaces an earlier one). */
  apply(revocations: Revocation[]): void {
    const now = this.opts.now();
    for (const r of revocations) {
      if (!r || typeof r !== 'object' || !(r.until > now)) continue;
      if (r.kind === 'session' && typeof r.sid === 'string') {
        this.sessions.set(r.sid, Math.max(r.until, this.sessions.get(r.sid) ?? 0));
      } else if (r.kind === 'user' && typeof r.userId === 'number') {
        const prev = this.users.get(r.userId);
        if (!prev || prev.issuedBefore < r.issuedBefore || prev.until < now) {
          this.users.set(r.userId, { issuedBefore: r.issuedBefore, until: r.until });
        }
      } else if (r.kind === 'company' && typeof r.companyId === 'number') {
        this.companies.set(r.companyId, Math.max(r.until, this.companies.get(r.companyId) ?? 0));
      }
    }
    this.prune(now);
  }

  isRevoked(claims: Pick<TokenClaims, 'sid' | 'uid' | 'companyId' | 'iat'>): boolean {
    const now = this.opts.now();
    const s = this.sessions.get(claims.sid);
    if (s !== undefined && s > now) return true;
    const u = this.users.get(claims.uid);
    if (u && u.until > now && claims.iat < u.issuedBefore) return true;
    if (claims.companyId !== null) {
      const c = this.companies.get(claims.companyId);
      if (c !== undefined && c > now) return true;
    }
    return false;
  }

  /** Every live entry (what identity answers on identity.session.revocations). */
  entries(): Revocation[] {
    const now = this.opts.now();
    this.prune(now);
    return [
      ...[...this.sessions].map(([sid, until]): Revocation => ({ kind: 'session', sid, until })),
      ...[...this.users].map(([userId, u]): Revocation => ({ kind: 'user', userId, ...u })),
      ...[...this.companies].map(([companyId, until]): Revocation => ({ kind: 'company', companyId, until })),
    ];
  }

  private prune(now: number): void {
    for (const [k, until] of this.sessions) if (until <= now) this.sessions.delete(k);
    for (const [k, u] of this.users) if (u.until <= now) this.users.delete(k);
    for (const [k, until] of this.companies) if (until <= now) this.companies.delete(k);
  }
}

/** Builders for the three kinds, with `until` set to when a matching token must have expired anyway. */
export const Revoke = {
  session(sid: string, tokenExp?: number, now = Date.now()): Revocation {
    return { kind: 'session', sid, until: tokenExp ? tokenExp * 1000 : now + DAY_MS };
  },
  userBefore(userId: number, now = Date.now()): Revocation {
    return { kind: 'user', userId, issuedBefore: Math.floor(now / 1000), until: now + DAY_MS };
  },
  company(companyId: number, now = Date.now()): Revocation {
    return { kind: 'company', companyId, until: now + DAY_MS };
  },
};
