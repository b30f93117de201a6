import { createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Positions, TOKEN_TTL_SECONDS, type TokenClaims, type TokenSubject } from '@bahi/contracts';

export type AuthErrorCode = 'missing' | 'invalid' | 'expired';

const MESSAGES: Record<AuthErrorCode, string> = {
  missing: 'Authentication required: send a bearer token.',
  invalid: 'Invalid token. Please log in again.',
  expired: 'Your session has expired. Please log in again.',
};

/** Why a token was refused; always answered with 401. */
export class AuthError extends Error {
  readonly status = 401;
  constructor(
    readonly code: AuthErrorCode | 'revoked',
    message?: string,
  ) {
    super(message ?? (code === 'revoked' ? 'Your session has ended. Please log in again.' : MESSAGES[code]));
    this.name = 'AuthError';
  }
}

/** A fresh session id for a new token. */
export function newSessionId(): string {
  return randomUUID();
}

/**
 * The secret as a KeyObject, made once per secret: given a string, jsonwebtoken builds a new key
 * object on every call, which was the largest cost of the gateway and of every service's guard.
 */
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

/** Signs a 24-hour HS256 token. */
export function signToken(subject: TokenSubject, secret: string, ttlSeconds = TOKEN_TTL_SECONDS): string {
  if (!secret) throw new Error('A JWT secret is required to sign tokens.');
  return jwt.sign({ ...subject }, keyOf(secret), { algorithm: 'HS256', expiresIn: ttlSeconds });
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | string[] | undefined | null): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return m ? m[1]! : null;
}

function isClaims(p: unknown): p is TokenClaims {
  if (!p || typeof p !== 'object') return false;
  const c = p as Record<string, unknown>;
  return (
    typeof c.sub === 'string' &&
    typeof c.uid === 'number' &&
    typeof c.sid === 'string' &&
    typeof c.iat === 'number' &&
    typeof c.exp === 'number' &&
    typeof c.position === 'string' &&
    (Positions as readonly string[]).includes(c.position) &&
    (c.companyId === null || typeof c.companyId === 'number') &&
    (c.fc === undefined || c.fc === true)
  );
}

/**
 * Tokens already verified, per secret. A client sends the same token on every call and a token's
 * signature never changes, so a remembered token only has its expiry checked again: the HMAC and
 * JSON parse were the largest cost of the gateway's and every service's check of a call.
 * Bounded (the oldest is forgotten); revocation is not remembered, callers check it every call.
 */
const verified = new Map<string, Map<string, TokenClaims>>();
export const REMEMBERED_TOKENS = 10_000;

/** Verifies signature, algorithm, expiry and shape; throws AuthError otherwise. The claims are frozen (shared between calls). */
export function verifyToken(token: string | null | undefined, secret: string): TokenClaims {
  if (!token) throw new AuthError('missing');
  let seen = verified.get(secret);
  if (!seen) verified.set(secret, (seen = new Map()));
  const hit = seen.get(token);
  if (hit) {
    // jsonwebtoken's own rule: expired from the second `exp` on.
    if (Math.floor(Date.now() / 1000) >= hit.exp) {
      seen.delete(token);
      throw new AuthError('expired');
    }
    return hit;
  }
  let payload: unknown;
  try {
    payload = jwt.verify(token, keyOf(secret), { algorithms: ['HS256'] });
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError) throw new AuthError('expired');
    throw new AuthError('invalid');
  }
  if (!isClaims(payload)) throw new AuthError('invalid');
  if (seen.size >= REMEMBERED_TOKENS) seen.delete(seen.keys().next().value!);
  seen.set(token, Object.freeze(payload));
  return payload;
}
