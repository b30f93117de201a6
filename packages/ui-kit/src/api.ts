import { translateServerMessage } from '@bahi/i18n';
import { clearSession, getToken } from './session';

export const DEFAULT_ERROR = 'Unable to process the request please contact support.';
export const API_BASE = '/api';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  /** Query parameters; undefined and null values are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
  /** false for calls where 401/403 is an answer, not a dead session (login, password check). */
  authRedirect?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type AuthFailureHandler = (status: number) => void;

// The shell replaces this with a router navigation; the default is a full page load.
let onAuthFailure: AuthFailureHandler = () => {
  if (typeof window !== 'undefined' && window.location.pathname !== '/loginApp') window.location.assign('/loginApp');
};

/** Called after a 401/403 cleared the session (spec 000 §4: 403 logs out; 401 leads to login). */
export function setAuthFailureHandler(handler: AuthFailureHandler): void {
  onAuthFailure = handler;
}

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  let url = `${API_BASE}${path.startsWith('/') ? '' : '/'}${path}`;
  if (query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) qs.set(k, String(v));
    const s = qs.toString();
    if (s) url += (url.includes('?') ? '&' : '?') + s;
  }
  return url;
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const key of ['message', 'msg', 'err', 'error']) {
      const v = b[key];
      if (typeof v === 'string' && v) return v;
      if (Array.isArray(v) && v.length && typeof v[0] === 'string') return v.join(', ');
    }
  }
  return typeof body === 'string' && body ? body : undefined;
}

export async function request<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.query), { method, headers, body: payload, signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, DEFAULT_ERROR);
  }
  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    if ((res.status === 401 || res.status === 403) && opts.authRedirect !== false) {
      clearSession();
      onAuthFailure(res.status);
    }
    throw new ApiError(res.status, messageOf(data) || res.statusText || DEFAULT_ERROR, data);
  }
  return data as T;
}

/** A binary reply (a PDF) with the same bearer token and 401/403 handling as `request`. */
export async function requestBlob(path: string, opts: RequestOptions = {}): Promise<{ blob: Blob; contentDisposition: string | null }> {
  const headers: Record<string, string> = { ...opts.headers };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.query), { method: 'GET', headers, signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, DEFAULT_ERROR);
  }
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    let data: unknown = text || undefined;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      // plain text error
    }
    if ((res.status === 401 || res.status === 403) && opts.authRedirect !== false) {
      clearSession();
      onAuthFailure(res.status);
    }
    throw new ApiError(res.status, messageOf(data) || res.statusText || DEFAULT_ERROR, data);
  }
  return { blob: await res.blob(), contentDisposition: res.headers.get('content-disposition') };
}

/** The API client every frontend uses: `/api` + path, bearer token, JSON in and out. */
export const api = {
  get: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
  post: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, body ?? {}, opts),
  put: <T = unknown>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, body ?? {}, opts),
  delete: <T = unknown>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, undefined, opts),
  /** multipart/form-data upload; the browser sets the boundary. */
  upload: <T = unknown>(path: string, form: FormData, opts?: RequestOptions) => request<T>('POST', path, form, opts),
};

/** A person-readable message for any thrown value, in Hindi when Hindi is on (the server catalogue). */
export function errorMessage(err: unknown, fallback = DEFAULT_ERROR): string {
  if (err instanceof ApiError) return translateServerMessage(err.message || fallback);
  return translateServerMessage(fallback);
}
