// A small HTTP client for the gateway, as a browser or a script would call it.
export interface Reply<T = any> {
  status: number;
  body: T;
}

export class Api {
  constructor(
    readonly base: string,
    public token = '',
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const h: Record<string, string> = { Accept: 'application/json', ...headers };
    if (this.token) h.Authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      h['Content-Type'] = 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    try {
      const res = await fetch(`${this.base}/api${path}`, { method, headers: h, body: payload, signal: AbortSignal.timeout(90_000) });
      const text = await res.text();
      let parsed: any = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed as T };
    } catch (err) {
      // The connection itself failed (a process was killed under it): report it as status 0.
      return { status: 0, body: { message: (err as Error).message } as T };
    }
  }
  get<T = any>(p: string, headers?: Record<string, string>) {
    return this.call<T>('GET', p, undefined, headers);
  }
  post<T = any>(p: string, b?: unknown, headers?: Record<string, string>) {
    return this.call<T>('POST', p, b ?? {}, headers);
  }

  static async login(base: string, email: string, password: string): Promise<Api> {
    const a = new Api(base);
    const r = await a.post('/loginReact', { email, password });
    if (r.status !== 200 || !r.body?.token) throw new Error(`login ${email}: ${r.status} ${JSON.stringify(r.body)}`);
    a.token = r.body.token;
    return a;
  }
}

export const ACCOUNTS = {
  admin: { email: 'admin@bahi.local', password: 'admin12345' },
  manager: { email: 'manager@demo.local', password: 'manager12345' },
  staff: { email: 'staff@demo.local', password: 'staff12345' },
};

/** Today in India, as the services count days. */
export function todayIST(): string {
  return new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
}
