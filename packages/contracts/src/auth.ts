/** Position of a user: platform admin, company manager or counter staff. */
export const Positions = ['admin', 'manager', 'staff'] as const;
export type Position = (typeof Positions)[number];

/** What identity signs into every JWT (docs/design.md). `companyId` is null for a platform admin. */
export interface TokenClaims {
  sub: string;
  uid: number;
  name: string;
  email: string;
  position: Position;
  companyId: number | null;
  companyName: string | null;
  /** Session id; logout revokes exactly this session. */
  sid: string;
  /** Issued at, epoch seconds. */
  iat: number;
  /** Expires at, epoch seconds (iat + 24 h). */
  exp: number;
  /**
   * Present (true) while the user must change a temporary password: the token then opens only
   * FORCE_CHANGE_CALLS (the password change and logout); everything else answers 403.
   */
  fc?: true;
}

/** Claims identity supplies when signing; iat/exp are added by the signer. */
export type TokenSubject = Omit<TokenClaims, 'iat' | 'exp'>;

/** The only calls a token carrying `fc` may make (as the gateway routes them, below /api). */
export const FORCE_CHANGE_CALLS: readonly string[] = ['POST /manage/profile/edit/updatePassword', 'POST /logout'];

/** The 403 sentence for any other call of such a token (gateway and every service). */
export const FORCE_CHANGE_MESSAGE = 'You must change your temporary password before doing anything else: open Update Password, or log out.';

/** The 503 sentence while a gateway or service has not yet loaded the revoked sessions from identity. */
export const REVOCATIONS_LOADING_MESSAGE = 'This part of Bahi is still starting (loading ended sessions from identity). Please try again in a few seconds.';

/** Token lifetime: the spec's 24-hour session. */
export const TOKEN_TTL_SECONDS = 24 * 60 * 60;

/**
 * One revoked set of tokens. `until` (epoch ms) is when no token it matches can still be
 * valid, so holders may forget the entry after it.
 */
export type Revocation =
  /** Logout: exactly one session. */
  | { kind: 'session'; sid: string; until: number }
  /** Password change, lock, admin reset: every token of the user issued before `issuedBefore` (epoch seconds, compared with iat). */
  | { kind: 'user'; userId: number; issuedBefore: number; until: number }
  /** Company deleted: every token of its users. */
  | { kind: 'company'; companyId: number; until: number };

/** Payload of the identity.session.revoked event. */
export interface SessionRevokedEvent {
  revocations: Revocation[];
}

/** Reply of identity.session.revocations: every entry still live. */
export interface RevocationsReply {
  revocations: Revocation[];
}
