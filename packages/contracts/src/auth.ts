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
}

/** Claims identity supplies when signing; iat/exp are added by the signer. */
export type TokenSubject = Omit<TokenClaims, 'iat' | 'exp'>;

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
