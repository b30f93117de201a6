import { findPrefixRoute, findRoute, Routes, ServiceNames, Subjects, DefaultPorts } from '../src';

describe('route table', () => {
  it('has no duplicate method + path', () => {
    const keys = Routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names only known services', () => {
    for (const r of Routes) expect(ServiceNames).toContain(r.service);
  });

  it('keeps the spec spelling of paths', () => {
    const paths = Routes.map((r) => `${r.method} ${r.path}`);
    for (const p of [
      'GET /getProducts',
      'GET /addProductIntoCart/:code',
      'POST /upQuan/',
      'POST /clients/addClient',
      'PUT /clients/addClient',
      'GET /admin/company/details/:id',
      'POST /manage/profile/edit/:id/uploadProfileImage',
      'PUT /editCatagory/:id/editLabel',
      'GET /getEstimateProductListSummery',
      'POST /MAKE_SALE',
      'GET /getCustomerList/',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('marks only login and public images as public', () => {
    const pub = Routes.filter((r) => r.public).map((r) => `${r.method} ${r.path}`).sort();
    expect(pub).toEqual(['GET /companyLogo/:companyId', 'GET /loginReact', 'GET /productImage/:fileName', 'POST /loginReact']);
  });

  it('finds routes with params and with or without the trailing slash', () => {
    expect(findRoute('get', '/addProductIntoCart/12')).toMatchObject({ route: { service: 'sales' }, params: { code: '12' } });
    expect(findRoute('POST', '/upQuan')?.route.path).toBe('/upQuan/');
    expect(findRoute('GET', '/getCustomerList')?.route.service).toBe('ledger');
    expect(findRoute('GET', '/removeProductFromEstimate/3/9')?.params).toEqual({ serial: '3', estimateId: '9' });
    expect(findRoute('DELETE', '/admin/company/delete/4')?.route.service).toBe('identity');
    expect(findRoute('GET', '/nothing')).toBeNull();
    expect(findRoute('DELETE', '/getProducts')).toBeNull();
    expect(findRoute('GET', '/addProductIntoCart/')).toBeNull();
  });

  it('routes PDFs by prefix to documents', () => {
    expect(findPrefixRoute('/documents/bill/3')?.service).toBe('documents');
    expect(findPrefixRoute('/getProducts')).toBeNull();
  });
});

describe('subjects and ports', () => {
  it('declares identity subjects', () => {
    expect(Subjects.identity.sessionRevoked).toBe('identity.session.revoked');
    expect(Subjects.identity.sessionRevocations).toBe('identity.session.revocations');
    expect(Subjects.identity.companyDetails).toBe('identity.company.details');
    expect(Subjects.identity.userLookup).toBe('identity.user.lookup');
  });
  it('uses the design ports', () => {
    expect(DefaultPorts).toMatchObject({ gateway: 8080, identity: 3001, documents: 3005 });
  });
});
