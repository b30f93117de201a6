import { LoginLimiter, loginLimitFromEnv } from '../src/login-limit';

describe('failed logins per address', () => {
  it('blocks an address after the limit, for the rest of the window, and no other address', () => {
    const l = new LoginLimiter({ maxFailures: 3, windowMs: 60_000 });
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(l.blockedFor('10.0.0.1', t0 + i)).toBe(0);
      l.fail('10.0.0.1', t0 + i);
    }
    expect(l.blockedFor('10.0.0.1', t0 + 10)).toBe(60_000 - 10);
    expect(l.blockedFor('10.0.0.2', t0 + 10)).toBe(0);
    // The oldest failure leaves the window: one more try.
    expect(l.blockedFor('10.0.0.1', t0 + 60_000)).toBe(0);
  });

  it('reads its limits from the environment, ignoring nonsense', () => {
    expect(loginLimitFromEnv({ BAHI_LOGIN_MAX_FAILURES_PER_ADDRESS: '5', BAHI_LOGIN_WINDOW_MIN: '2' })).toEqual({ maxFailures: 5, windowMs: 120_000 });
    expect(loginLimitFromEnv({ BAHI_LOGIN_MAX_FAILURES_PER_ADDRESS: 'x', BAHI_LOGIN_WINDOW_MIN: '-1' })).toEqual({ maxFailures: 20, windowMs: 900_000 });
  });
});
