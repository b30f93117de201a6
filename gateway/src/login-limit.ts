/**
 * Failed logins per client address in a sliding window. Per-account lockout (identity) stops
 * guessing one password; this stops one address from trying many accounts. Each login takes a
 * slot before it is forwarded (reserve), given back when it did not fail (release), so parallel
 * guesses from one address can never exceed the limit.
 */
export interface LoginLimitOptions {
  maxFailures: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMIT: LoginLimitOptions = { maxFailures: 20, windowMs: 15 * 60_000 };

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly opts: LoginLimitOptions = DEFAULT_LOGIN_LIMIT) {}

  private recent(address: string, now: number): number[] {
    const list = (this.failures.get(address) ?? []).filter((t) => now - t < this.opts.windowMs);
    if (list.length) this.failures.set(address, list);
    else this.failures.delete(address);
    return list;
  }

  /** Milliseconds until this address may try again, or 0 when it may now. */
  blockedFor(address: string, now = Date.now()): number {
    const list = this.recent(address, now);
    if (list.length < this.opts.maxFailures) return 0;
    return Math.max(1, list[list.length - this.opts.maxFailures]! + this.opts.windowMs - now);
  }

  /** Takes a slot for one login attempt: 0 when taken, else milliseconds until one frees. */
  reserve(address: string, now = Date.now()): number {
    const wait = this.blockedFor(address, now);
    if (wait > 0) return wait;
    this.fail(address, now);
    return 0;
  }

  /** Gives back the slot `reserve` took at `at`: the attempt did not fail (a success, or no answer). */
  release(address: string, at: number): void {
    const list = this.failures.get(address);
    if (!list) return;
    const i = list.lastIndexOf(at);
    if (i >= 0) list.splice(i, 1);
    if (!list.length) this.failures.delete(address);
  }

  fail(address: string, now = Date.now()): void {
    const list = this.recent(address, now);
    list.push(now);
    this.failures.set(address, list);
    // Bounded memory under a spray of addresses: forget the oldest.
    if (this.failures.size > 100_000) this.failures.delete(this.failures.keys().next().value!);
  }
}

/** BAHI_LOGIN_MAX_FAILURES_PER_ADDRESS and BAHI_LOGIN_WINDOW_MIN, else the defaults. */
export function loginLimitFromEnv(env: NodeJS.ProcessEnv): LoginLimitOptions {
  const max = Number(env.BAHI_LOGIN_MAX_FAILURES_PER_ADDRESS);
  const min = Number(env.BAHI_LOGIN_WINDOW_MIN);
  return {
    maxFailures: Number.isInteger(max) && max > 0 ? max : DEFAULT_LOGIN_LIMIT.maxFailures,
    windowMs: Number.isFinite(min) && min > 0 ? min * 60_000 : DEFAULT_LOGIN_LIMIT.windowMs,
  };
}
