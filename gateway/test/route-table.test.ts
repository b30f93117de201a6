import { Routes } from '@bahi/contracts';
import { RouteTable, compilePath } from '../src/route-table';

describe('RouteTable', () => {
  const table = new RouteTable(
    [
      { method: 'GET', path: '/getProducts', service: 'sales' },
      { method: 'POST', path: '/upQuan/', service: 'sales' },
      { method: 'POST', path: '/admin/user/:id', service: 'identity' },
      { method: 'POST', path: '/admin/user/unlock', service: 'identity' },
      { method: 'GET', path: '/addProductIntoEstimate/{productId}/{estimateId}', service: 'sales' },
    ],
    [{ prefix: '/documents/', service: 'documents' }],
  );

  it('matches with or without a trailing slash', () => {
    expect(table.match('POST', '/upQuan')).toMatchObject({ kind: 'route', route: { service: 'sales' } });
    expect(table.match('POST', '/upQuan/')).toMatchObject({ kind: 'route' });
    expect(table.match('GET', '/getProducts/')).toMatchObject({ kind: 'route' });
  });

  it('fills :param and {param} segments, one segment each', () => {
    expect(table.match('GET', '/addProductIntoEstimate/12/3')).toMatchObject({ kind: 'route' });
    expect(table.match('GET', '/addProductIntoEstimate/12')).toEqual({ kind: 'none' });
    expect(compilePath('/product/:id').test('/product/12/extra')).toBe(false);
  });

  it('prefers a literal path over a parameterised one', () => {
    const m = table.match('POST', '/admin/user/unlock');
    expect(m.kind === 'route' && m.route.path).toBe('/admin/user/unlock');
  });

  it('answers HEAD with the GET route and names the allowed methods otherwise', () => {
    expect(table.match('HEAD', '/getProducts')).toMatchObject({ kind: 'route' });
    expect(table.match('DELETE', '/getProducts')).toEqual({ kind: 'method-not-allowed', allowed: ['GET'] });
  });

  it('hands a whole prefix to its service', () => {
    expect(table.match('GET', '/documents/invoice/3')).toMatchObject({ kind: 'route', route: { service: 'documents' } });
  });

  it('routes every spec call to exactly one service', () => {
    const all = new RouteTable(Routes);
    for (const r of Routes) {
      const concrete = r.path.replace(/:\w+/g, '7');
      const m = all.match(r.method, concrete);
      expect(m).toMatchObject({ kind: 'route', route: { service: r.service } });
    }
  });
});

describe('RouteTable index', () => {
  // The answer of the table before it had an index: every route's regex tried in turn.
  function scan(routes: readonly { method: string; path: string; service: string }[], method: string, pathname: string) {
    const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const byPath = routes.filter((r) => compilePath(r.path).test(pathname));
    if (byPath.length === 0) return { kind: 'none' };
    const params = (p: string) => p.split('/').filter((s) => s.startsWith(':') || s.startsWith('{')).length;
    const exact = byPath.filter((r) => r.method.toUpperCase() === m).sort((a, b) => params(a.path) - params(b.path));
    if (exact.length > 0) return { kind: 'route', path: exact[0].path };
    return { kind: 'method-not-allowed', allowed: [...new Set(byPath.map((r) => r.method.toUpperCase()))] };
  }

  it('answers exactly what trying every route would, for every spec path and its variants', () => {
    const all = new RouteTable(Routes);
    const paths = new Set<string>(['/', '//', '/nothing', '/a/b/c/d/e']);
    for (const r of Routes) {
      const concrete = r.path.replace(/:\w+|\{\w+\}/g, '7');
      const bare = concrete.replace(/\/+$/, '');
      for (const p of [concrete, bare, `${bare}/`, `${bare}//`, bare.toUpperCase(), `${bare}/extra`, bare.slice(0, -1), `${bare}x`]) paths.add(p);
    }
    let checked = 0;
    for (const p of paths) {
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH']) {
        const got = all.match(method, p);
        const want = scan(Routes, method, p);
        const simplified = got.kind === 'route' ? { kind: 'route', path: got.route.path } : got;
        expect({ method, p, ...simplified }).toEqual({ method, p, ...want });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(Routes.length * 6);
  });

  it('lists the allowed methods in table order, literal and parameterised alike', () => {
    const t = new RouteTable([
      { method: 'DELETE', path: '/thing/:id', service: 'a' },
      { method: 'GET', path: '/thing/list', service: 'a' },
    ]);
    expect(t.match('PUT', '/thing/list')).toEqual({ kind: 'method-not-allowed', allowed: ['DELETE', 'GET'] });
  });
});
