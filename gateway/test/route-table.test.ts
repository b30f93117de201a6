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
