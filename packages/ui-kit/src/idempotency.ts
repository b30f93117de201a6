/**
 * A key the server uses to recognise a retried or double-submitted checkout or payment
 * (`Idempotency-Key` header): the same key always gets the first attempt's answer.
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return c.randomUUID();
  return `k${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}
