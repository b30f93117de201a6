// Session values live in localStorage (spec 000 §3/§4): token and an ISO expiration 24 h after login.
export const SESSION_MS = 24 * 60 * 60 * 1000;

function store(): Storage | undefined {
  return typeof localStorage === 'undefined' ? undefined : localStorage;
}

export function getToken(): string | null {
  return store()?.getItem('token') ?? null;
}

export function getExpiration(): string | null {
  return store()?.getItem('expiration') ?? null;
}

export function setSession(token: string, now: number = Date.now()): void {
  store()?.setItem('token', token);
  store()?.setItem('expiration', new Date(now + SESSION_MS).toISOString());
}

export function clearSession(): void {
  store()?.removeItem('token');
  store()?.removeItem('expiration');
}

/** Milliseconds left in the session; 0 when there is no token or it has expired. */
export function msUntilExpiry(now: number = Date.now()): number {
  const token = getToken();
  const exp = Date.parse(getExpiration() ?? '');
  if (!token || Number.isNaN(exp)) return 0;
  return Math.max(0, exp - now);
}

export function isExpired(now: number = Date.now()): boolean {
  return msUntilExpiry(now) <= 0;
}
