/** One entry of the public API: a spec call path and the service that answers it. */
export interface RouteDef {
  method: string;
  path: string;
  service: string;
  public?: boolean;
  /** This route's own multipart limit (bytes), above the gateway's default. */
  maxUpload?: number;
}

/** A whole subtree owned by one service (e.g. `/pdf/` for documents), any method. */
export interface PrefixDef {
  prefix: string;
  service: string;
  public?: boolean;
}

export interface CompiledRoute extends RouteDef {
  regex: RegExp;
  params: number;
  /** Position in the table (the order 405's Allow lists methods in). */
  order: number;
}

export type RouteMatch =
  | { kind: 'route'; route: CompiledRoute }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'none' };

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Spec paths are written with a trailing slash sometimes (`/upQuan/`) and with either
 * `:param` or `{param}` placeholders; a request matches with or without the trailing slash.
 */
export function compilePath(path: string): RegExp {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const body = trimmed
    .split('/')
    .map((seg) => (/^(:\w+|\{\w+\})$/.test(seg) ? '[^/]+' : escape(seg)))
    .join('/');
  return new RegExp(`^${body}/?$`, 'i');
}

/** A request path's lookup key: lower case, one trailing slash dropped (what compilePath's regex allows). */
function keyOf(pathname: string): string {
  const p = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return p.toLowerCase();
}

function segments(pathname: string): number {
  let n = 0;
  for (let i = 0; i < pathname.length; i++) if (pathname.charCodeAt(i) === 47) n++;
  return n;
}

export class RouteTable {
  private readonly routes: CompiledRoute[];
  // Candidates per request come from an index (literal paths by key, parameterised ones by
  // segment count) instead of testing every route's regex; the regex still has the last word.
  private readonly literal = new Map<string, CompiledRoute[]>();
  private readonly bySegments = new Map<number, CompiledRoute[]>();

  constructor(
    defs: readonly RouteDef[],
    private readonly prefixes: readonly PrefixDef[] = [],
  ) {
    this.routes = defs.map((d, i) => ({ ...d, method: d.method.toUpperCase(), regex: compilePath(d.path), params: paramCount(d.path), order: i }));
    for (const r of this.routes) {
      const trimmed = r.path.length > 1 ? r.path.replace(/\/+$/, '') : r.path;
      if (r.params === 0) push(this.literal, trimmed.toLowerCase(), r);
      else push(this.bySegments, segments(trimmed), r);
    }
  }

  /** `pathname` is the path below /api, without the query string. */
  match(method: string, pathname: string): RouteMatch {
    const upper = method.toUpperCase();
    const m = upper === 'HEAD' ? 'GET' : upper;
    const key = keyOf(pathname);
    const candidates = [...(this.literal.get(key) ?? []), ...(this.bySegments.get(segments(key)) ?? [])];
    const byPath = candidates.filter((r) => r.regex.test(pathname));
    if (byPath.length === 0) {
      const lower = pathname.toLowerCase();
      const p = this.prefixes.find((x) => lower.startsWith(x.prefix.toLowerCase()));
      if (!p) return { kind: 'none' };
      const route = { method: m, path: pathname, service: p.service, public: p.public, regex: /^/, params: 0, order: -1 };
      return { kind: 'route', route };
    }
    // A literal path beats a parameterised one (`/admin/user/unlock` vs `/admin/user/:id`).
    let best: CompiledRoute | undefined;
    for (const r of byPath) if (r.method === m && (!best || r.params < best.params)) best = r;
    if (best) return { kind: 'route', route: best };
    byPath.sort((a, b) => a.order - b.order);
    return { kind: 'method-not-allowed', allowed: [...new Set(byPath.map((r) => r.method))] };
  }

  get size(): number {
    return this.routes.length;
  }
}

function push<K>(map: Map<K, CompiledRoute[]>, key: K, r: CompiledRoute): void {
  const list = map.get(key);
  if (list) list.push(r);
  else map.set(key, [r]);
}

function paramCount(path: string): number {
  return path.split('/').filter((s) => s.startsWith(':') || s.startsWith('{')).length;
}
