import { clearSession, getToken, isExpired, msUntilExpiry, setSession, SESSION_MS } from './session';

class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string) {
    return this.m.has(k) ? this.m.get(k)! : null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

describe('session', () => {
  beforeEach(() => {
    (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
  });

  it('stores the token with an ISO expiration 24 hours ahead', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    setSession('t1', now);
    expect(getToken()).toBe('t1');
    expect(localStorage.getItem('expiration')).toBe('2025-01-02T00:00:00.000Z');
    expect(msUntilExpiry(now)).toBe(SESSION_MS);
    expect(isExpired(now + SESSION_MS - 1)).toBe(false);
    expect(isExpired(now + SESSION_MS)).toBe(true);
  });

  it('is expired without a token and after clearSession', () => {
    expect(isExpired()).toBe(true);
    setSession('t2');
    clearSession();
    expect(getToken()).toBeNull();
    expect(localStorage.getItem('expiration')).toBeNull();
    expect(isExpired()).toBe(true);
  });
});
