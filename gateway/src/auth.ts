import type { NextFunction, Request, Response } from 'express';
import { sendError } from './errors';

export type Claims = Record<string, unknown> & { sid?: string; sub?: string; exp?: number; iat?: number };

/** What the gateway needs from @bahi/auth; main.ts wires the real one. */
export interface TokenChecker {
  /** Returns the claims or throws (expired tokens throw an error whose name or message says so). */
  verify(token: string): Claims;
  isRevoked(claims: Claims): boolean;
  revokeLocally(claims: Claims): void;
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

/**
 * Checks the bearer token; `optional` routes (public ones) still attach claims when a valid
 * token is present, but never reject.
 */
export function bearerAuth(checker: TokenChecker, req: Request, res: Response, next: NextFunction, optional: boolean): void {
  const header = req.headers.authorization;
  if (!header) {
    if (optional) return next();
    return sendError(res, 401, MESSAGES.missing, { 'WWW-Authenticate': 'Bearer' });
  }
  const m = /^Bearer\s+([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]*)\s*$/i.exec(header);
  if (!m) {
    if (optional) return next();
    return sendError(res, 401, MESSAGES.malformed, { 'WWW-Authenticate': 'Bearer error="invalid_request"' });
  }
  let claims: Claims;
  try {
    claims = checker.verify(m[1]);
  } catch (err) {
    if (optional) return next();
    const expired = isExpiry(err);
    return sendError(res, 401, expired ? MESSAGES.expired : MESSAGES.invalid, {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    });
  }
  if (checker.isRevoked(claims)) {
    if (optional) return next();
    return sendError(res, 401, MESSAGES.revoked, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  }
  (req as Request & { bahiClaims?: Claims }).bahiClaims = claims;
  next();
}
