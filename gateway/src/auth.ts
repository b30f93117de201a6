import type { NextFunction, Request, Response } from 'express';
import { FORCE_CHANGE_CALLS, FORCE_CHANGE_MESSAGE, REVOCATIONS_LOADING_MESSAGE } from '@bahi/contracts';
import { sendError } from './errors';

export type Claims = Record<string, unknown> & { sid?: string; sub?: string; exp?: number; iat?: number; fc?: boolean };

/** What the gateway needs from @bahi/auth; main.ts wires the real one. */
export interface TokenChecker {
  /** Returns the claims or throws (expired tokens throw an error whose name or message says so). */
  verify(token: string): Claims;
  isRevoked(claims: Claims): boolean;
  revokeLocally(claims: Claims): void;
  /** False until the revoked sessions were loaded from identity (absent: always ready). */
  ready?(): boolean;
}

export const MESSAGES = {
  missing: 'Authentication required: send Authorization: Bearer <token>. Please log in.',
  malformed: 'Malformed Authorization header: expected "Bearer <token>".',
  invalid: 'Invalid token. Please log in again.',
  expired: 'Your session has expired. Please log in again.',
  revoked: 'This session has been logged out. Please log in again.',
} as const;

/** Claims of a verified request, for the logout hook. */
export function claimsOf(req: Request): Claims | undefined {
  return (req as Request & { bahiClaims?: Claims }).bahiClaims;
}

function isExpiry(err: unknown): boolean {
  const e = err as { name?: string; message?: string; code?: string };
  return e?.name === 'TokenExpiredError' || e?.code === 'expired' || /expired/i.test(e?.message ?? '');
}

/** Why a token is refused: 401 (with a challenge) unless `status` says otherwise. */
type Refusal = { message: string; challenge: string; status?: number; headers?: Record<string, string> };

const FORCE_CHANGE_OK = new Set(FORCE_CHANGE_CALLS);

const BEARER = /^Bearer\s+([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*)\s*$/i;

/**
 * The claims of a good, unrevoked bearer token, or why it is refused (no side effects). `call`
 * ("POST /logout", the route as the table names it) is checked against a temporary password's
 * token (claim fc): only FORCE_CHANGE_CALLS pass.
 */
export function checkBearer(checker: TokenChecker, header: string | undefined, call?: string): { claims: Claims } | Refusal {
  if (!header) return { message: MESSAGES.missing, challenge: 'Bearer' };
  // Until the list is loaded a revoked token cannot be told from a good one.
  if (checker.ready && !checker.ready()) return { message: REVOCATIONS_LOADING_MESSAGE, challenge: '', status: 503, headers: { 'Retry-After': '5' } };
  const m = BEARER.exec(header);
  if (!m) return { message: MESSAGES.malformed, challenge: 'Bearer error="invalid_request"' };
  let claims: Claims;
  try {
    claims = checker.verify(m[1]);
  } catch (err) {
    return { message: isExpiry(err) ? MESSAGES.expired : MESSAGES.invalid, challenge: 'Bearer error="invalid_token"' };
  }
  if (checker.isRevoked(claims)) return { message: MESSAGES.revoked, challenge: 'Bearer error="invalid_token"' };
  if (claims.fc === true && !(call && FORCE_CHANGE_OK.has(call))) return { message: FORCE_CHANGE_MESSAGE, challenge: '', status: 403 };
  return { claims };
}

/**
 * Checks the bearer token; `optional` routes (public ones) still attach claims when a valid
 * token is present, but never reject.
 */
export function bearerAuth(checker: TokenChecker, req: Request, res: Response, next: NextFunction, optional: boolean, call?: string): void {
  const result = checkBearer(checker, req.headers.authorization, call);
  if ('claims' in result) {
    (req as Request & { bahiClaims?: Claims }).bahiClaims = result.claims;
    return next();
  }
  if (optional) return next();
  if (result.status) return sendError(res, result.status, result.message, result.headers);
  sendError(res, 401, result.message, { 'WWW-Authenticate': result.challenge });
}
