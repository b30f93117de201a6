import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { api, ApiError, DEFAULT_ERROR, setAuthFailureHandler } from './api';
import { getToken, setSession } from './session';

class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

// A real HTTP server standing in for the gateway; fetch is pointed at it.
describe('api client', () => {
  let server: http.Server;
  let base: string;
  const seen: { url?: string; auth?: string; body?: string }[] = [];
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ url: req.url, auth: req.headers.authorization, body });
        const send = (status: number, data?: unknown) => {
          res.writeHead(status, { 'Content-Type': 'application/json' });
          res.end(data === undefined ? '' : JSON.stringify(data));
        };
        if (req.url?.startsWith('/api/ok')) return send(200, { done: true });
        if (req.url === '/api/bad') return send(400, { statusCode: 400, message: 'Password Do Not Match' });
        if (req.url === '/api/forbidden') return send(403, { statusCode: 403, message: 'Forbidden resource' });
        if (req.url === '/api/empty500') {
          res.writeHead(500, 'Internal Server Error');
          return res.end();
        }
        send(404, { statusCode: 404, message: 'Not found' });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    globalThis.fetch = ((input: string, init?: RequestInit) => realFetch(base + input, init)) as typeof fetch;
  });

  afterAll(async () => {
    globalThis.fetch = realFetch;
    await new Promise((r) => server.close(r));
  });

  beforeEach(() => {
    (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
    seen.length = 0;
  });

  it('sends the bearer token, JSON body and query, and returns the parsed reply', async () => {
    setSession('tok');
    await expect(api.post('/ok', { a: 1 }, { query: { pageNo: 0, text: 'x y', skip: undefined } })).resolves.toEqual({ done: true });
    expect(seen[0]).toEqual({ url: '/api/ok?pageNo=0&text=x+y', auth: 'Bearer tok', body: '{"a":1}' });
  });

  it('throws ApiError with the server message, falling back to the status text', async () => {
    await expect(api.get('/bad')).rejects.toMatchObject({ status: 400, message: 'Password Do Not Match' });
    const err = await api.get('/empty500').catch((e: ApiError) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('Internal Server Error');
  });

  it('on 403 clears the session and hands over to the auth failure handler', async () => {
    const statuses: number[] = [];
    setAuthFailureHandler((s) => statuses.push(s));
    setSession('tok');
    await expect(api.get('/forbidden')).rejects.toMatchObject({ status: 403 });
    expect(getToken()).toBeNull();
    expect(localStorage.getItem('expiration')).toBeNull();
    expect(statuses).toEqual([403]);
  });

  it('keeps the session when the caller handles 401/403 itself', async () => {
    setAuthFailureHandler(() => {
      throw new Error('must not be called');
    });
    setSession('tok');
    await expect(api.get('/forbidden', { authRedirect: false })).rejects.toMatchObject({ status: 403 });
    expect(getToken()).toBe('tok');
  });

  it('uses the default message when the server cannot be reached', async () => {
    const saved = globalThis.fetch;
    globalThis.fetch = (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch;
    try {
      await expect(api.get('/ok')).rejects.toMatchObject({ status: 0, message: DEFAULT_ERROR });
    } finally {
      globalThis.fetch = saved;
    }
  });
});
