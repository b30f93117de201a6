/** One entry of the public API: a spec call path and the service that answers it. */
export interface RouteDef {
  method: string;
  path: string;
  service: string;
  public?: boolean;
}

/** A whole subtree owned by one service (e.g. `/pdf/` for documents), any method. */
export interface PrefixDef {
  prefix: string;
  service: string;
  public?: boolean;
}

export interface CompiledRoute extends RouteDef {
  regex: RegExp;
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

export class RouteTable {
  private readonly routes: CompiledRoute[];

  constructor(
    defs: readonly RouteDef[],
    private readonly prefixes: readonly PrefixDef[] = [],
  ) {
    this.routes = defs.map((d) => ({ ...d, method: d.method.toUpperCase(), regex: compilePath(d.path) }));
  }

  /** `pathname` is the path below /api, without the query string. */
  match(method: string, pathname: string): RouteMatch {
    const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const byPath = this.routes.filter((r) => r.regex.test(pathname));
    if (byPath.length === 0) {
      const p = this.prefixes.find((x) => pathname.toLowerCase().startsWith(x.prefix.toLowerCase()));
      if (!p) return { kind: 'none' };
      const route = { method: m, path: pathname, service: p.service, public: p.public, regex: /^/ };
      return { kind: 'route', route };
    }
    // A literal path beats a parameterised one (`/admin/user/unlock` vs `/admin/user/:id`).
    const exact = byPath.filter((r) => r.method === m).sort((a, b) => paramCount(a.path) - paramCount(b.path));
    if (exact.length > 0) return { kind: 'route', route: exact[0] };
    return { kind: 'method-not-allowed', allowed: [...new Set(byPath.map((r) => r.method))] };
  }

  get size(): number {
    return this.routes.length;
  }
}

function paramCount(path: string): number {
  return path.split('/').filter((s) => s.startsWith(':') || s.startsWith('{')).length;
}
