import { Transform } from 'class-transformer';
import { Matches } from 'class-validator';
import { randomBytes } from 'node:crypto';
import * as argon2 from 'argon2';

export const MIN_PASSWORD = 8;
export const MAX_LOGIN_FAILURES = 5;
export const DEFAULT_LOCKOUT_SECONDS = 900;

/** How long an account stays locked after MAX_LOGIN_FAILURES wrong passwords: BAHI_LOCKOUT_SECONDS, default 15 minutes. */
export function lockoutSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.BAHI_LOCKOUT_SECONDS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_LOCKOUT_SECONDS;
}

/** Trims strings; leaves anything else for the validators to refuse. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
export const LowerTrim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));

/** Indian mobile: 10 digits, optionally written with +91 / 91 and spaces or dashes; stored as the 10 digits. */
export const MOBILE = /^(?:\+?91)?\d{10}$/;
export function IsMobile(field: string) {
  return Matches(MOBILE, { message: `${field} must be a 10-digit mobile number (optionally prefixed with +91).` });
}
export const NormalizeMobile = () =>
  Transform(({ value }) => (typeof value === 'string' ? value.replace(/[\s-]/g, '') : typeof value === 'number' ? String(value) : value));
export const tenDigits = (mobile: string | undefined): string => (mobile ? mobile.slice(-10) : '');

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}
export async function checkPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** A temporary password an admin hands over; the user must change it at first login. */
export function temporaryPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
