/** Shortest BAHI_JWT_SECRET accepted: a short HMAC secret can be guessed offline from one token. */
export const MIN_JWT_SECRET_LENGTH = 32;

/**
 * The JWT secret from the environment, or an error naming the problem: missing, or shorter
 * than MIN_JWT_SECRET_LENGTH. `who` says who needs it ("every service", "the gateway").
 */
export function requireJwtSecret(value: string | undefined, who: string): string {
  const secret = value ?? '';
  if (!secret) throw new Error(`BAHI_JWT_SECRET is not set: ${who} needs the shared JWT secret.`);
  if (secret.length < MIN_JWT_SECRET_LENGTH) {
    throw new Error(
      `BAHI_JWT_SECRET is ${secret.length} characters long; use at least ${MIN_JWT_SECRET_LENGTH} random characters (e.g. openssl rand -base64 48).`,
    );
  }
  return secret;
}
