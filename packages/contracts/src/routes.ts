import type { ServiceName } from './services';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One public call under /api. `path` is written exactly as the spec writes it (trailing
 * slashes and misspellings included), with `:name` for path parameters.
 */
export interface RouteDef {
  method: HttpMethod;
  path: string;
  service: ServiceName;
  /** Served without a token (the gateway lets it through unauthenticated). */
  public?: boolean;
  /** Where it comes from: a spec (000/001, section 7) or a Bahi addition. */
  source: '000' | '001' | 'bahi';
  /** A larger upload limit (bytes) than the gateway's default for multipart bodies. */
  maxUpload?: number;
}

const r = (
  method: HttpMethod,
  path: string,
  service: ServiceName,
  source: RouteDef['source'],
  extra: { public?: boolean; maxUpload?: number } = {},
): RouteDef => ({ method, path, service, source, ...extra });

/** Every call of both specs plus Bahi's additions, with the service that answers it. */
export const Routes: readonly RouteDef[] = [
  // --- identity: login and session (000)
  r('POST', '/loginReact', 'identity', '000', { public: true }),
  // Public: answers {authenticated} by inspecting the token when one is sent.
  r('GET', '/loginReact', 'identity', '000', { public: true }),
  r('POST', '/logout', 'identity', '000'),
  r('GET', '/getUserData', 'identity', '000'),
  // --- identity: company profile and password (001)
  r('GET', '/getCompanyDetails', 'identity', '001'),
  r('POST', '/setCompanyDetails', 'identity', '001'),
  r('POST', '/manage/profile/edit/:id/uploadProfileImage', 'identity', '001'),
  r('POST', '/manage/profile/edit/updatePassword', 'identity', '001'),
  // --- identity: platform administration (001)
  r('GET', '/admin/companyList', 'identity', '001'),
  r('GET', '/admin/company/details/:id', 'identity', '001'),
  r('POST', '/admin/createCompany', 'identity', '001'),
  r('DELETE', '/admin/company/delete/:id', 'identity', '001'),
  r('POST', '/admin/user/update-password', 'identity', '001'),
  r('POST', '/admin/user/unlock', 'identity', '001'),
  // --- identity: Bahi additions (manager's user management, logo download)
  r('GET', '/users', 'identity', 'bahi'),
  r('POST', '/users', 'identity', 'bahi'),
  r('DELETE', '/users/:id', 'identity', 'bahi'),
  // The company's network thermal printers (issue 28): any position reads, managers set.
  r('GET', '/printers', 'identity', 'bahi'),
  r('PUT', '/printers', 'identity', 'bahi'),
  // The shop's public address share links use (issue 30): any position reads, the platform admin sets.
  r('GET', '/settings/public-address', 'identity', 'bahi'),
  r('PUT', '/settings/public-address', 'identity', 'bahi'),
  r('GET', '/companyLogo/:companyId', 'identity', 'bahi', { public: true }),
  // The caller's own screen language (any position).
  r('PUT', '/profile/language', 'identity', 'bahi'),
  r('PUT', '/profile/pin', 'identity', 'bahi'),

  // --- sales: cart (000)
  r('GET', '/getProducts', 'sales', '000'),
  r('GET', '/addProductIntoCart/:code', 'sales', '000'),
  r('GET', '/removeProductFromCart/:sl_no', 'sales', '000'),
  r('POST', '/upQuan/', 'sales', '000'),
  r('POST', '/upDisc/', 'sales', '000'),
  r('POST', '/upTax/', 'sales', '000'),
  r('POST', '/upShip/', 'sales', '000'),
  r('POST', '/upSummeryDisc/', 'sales', '000'),
  r('DELETE', '/clearCart/:cart_no', 'sales', '000'),
  // --- sales: checkout, sales list, bills (000)
  r('POST', '/MAKE_SALE', 'sales', '000'),
  r('POST', '/makeSaleFromEstimate', 'sales', '000'),
  r('GET', '/getSaleList', 'sales', '000'),
  r('GET', '/getBillDetails', 'sales', '000'),
  r('GET', '/fillCartFromBill', 'sales', '000'),
  // --- sales: GST mode (bahi)
  r('GET', '/previewSale', 'sales', 'bahi'),
  // The managers who may approve a discount at the counter (issue 28).
  r('GET', '/approvers', 'sales', 'bahi'),
  r('GET', '/gst/gstr1', 'sales', 'bahi'),
  r('GET', '/gst/gstr3b', 'sales', 'bahi'),
  r('GET', '/gst/latest-period', 'sales', 'bahi'),
  // QRMP and filed periods (services/sales/src/gst-filing).
  r('GET', '/gst/iff', 'sales', 'bahi'),
  r('GET', '/gst/periods', 'sales', 'bahi'),
  r('POST', '/gst/periods/:period/filed', 'sales', 'bahi'),
  r('GET', '/gst/amendments', 'sales', 'bahi'),
  r('POST', '/gst/amendments', 'sales', 'bahi'),
  // --- sales: returns, credit notes, cancelled bills (bahi; returns.ts)
  r('POST', '/salesReturn', 'sales', 'bahi'),
  r('GET', '/previewReturn', 'sales', 'bahi'),
  r('GET', '/getCreditNoteList', 'sales', 'bahi'),
  r('GET', '/getCreditNoteDetails', 'sales', 'bahi'),
  r('POST', '/cancelSale', 'sales', 'bahi'),
  // --- sales: estimates (000)
  r('GET', '/createEstimate', 'sales', '000'),
  r('GET', '/getEstimateList', 'sales', '000'),
  r('GET', '/getEstimateProductListSummery', 'sales', '000'),
  r('POST', '/updateEstimateCustomer/', 'sales', '000'),
  r('GET', '/addProductIntoEstimate/:productId/:estimateId', 'sales', '000'),
  r('GET', '/removeProductFromEstimate/:serial/:estimateId', 'sales', '000'),
  r('POST', '/updateQuanInEstimate/', 'sales', '000'),
  r('POST', '/updateDiscInEstimate/', 'sales', '000'),
  r('POST', '/updateEstimateTax/', 'sales', '000'),
  r('POST', '/updateEstimateShip/', 'sales', '000'),
  r('POST', '/updateEstimateSummeryDisc/', 'sales', '000'),
  r('GET', '/getEstimateDetails', 'sales', '000'),
  r('GET', '/duplicateEstimate', 'sales', '000'),
  r('DELETE', '/deleteEstimate/:id', 'sales', '000'),
  // --- sales: delivery (001)
  r('GET', '/addDelivery/:saleId', 'sales', '001'),
  r('POST', '/delivery', 'sales', '001'),
  r('PUT', '/delivery', 'sales', '001'),
  // --- sales: e-way bills (bahi; issue 31)
  r('GET', '/ewaybill/json', 'sales', 'bahi'),
  r('PUT', '/ewaybill/:saleId', 'sales', 'bahi'),

  // --- ledger: customers (000)
  r('GET', '/getCustomerList/', 'ledger', '000'),
  r('GET', '/getClientDue', 'ledger', '000'),
  r('POST', '/clients/addClient', 'ledger', '000'),
  r('PUT', '/clients/addClient', 'ledger', '000'),
  r('POST', '/clientList/add-client', 'ledger', '000'),
  r('GET', '/getAllClientsList', 'ledger', '000'),
  r('GET', '/getClientsList', 'ledger', '000'),
  r('GET', '/getClientsDetails', 'ledger', '000'),
  r('GET', '/getAllClientsHistory', 'ledger', '000'),
  // --- ledger: distributors (001)
  r('GET', '/getAllDistributorsList', 'ledger', '001'),
  r('GET', '/getDistributorsList', 'ledger', '001'),
  r('GET', '/getDistributorsDetails', 'ledger', '001'),
  r('GET', '/distributorsHistory', 'ledger', '001'),
  r('POST', '/addDistributor', 'ledger', '001'),
  r('PUT', '/addDistributor', 'ledger', '001'),
  // --- ledger: payments (001)
  r('GET', '/getDueAndDueDate', 'ledger', '001'),
  r('GET', '/getClientDueAndDueDate', 'ledger', '001'),
  r('POST', '/purchaseDuePaymentReact', 'ledger', '001'),
  r('POST', '/salesDuePayment', 'ledger', '001'),
  r('GET', '/getSalesPaymentDetails', 'ledger', '001'),
  // --- ledger: due reminders (bahi; share.ts) - the Overdue filter is GET /getClientsList?overdue=1
  r('POST', '/customers/reminded', 'ledger', 'bahi'),
  // --- ledger: the cash register, one session per cashier (bahi, issue 29; ledger.ts RegisterSession)
  r('POST', '/register/open', 'ledger', 'bahi'),
  r('GET', '/register/current', 'ledger', 'bahi'),
  r('POST', '/register/close', 'ledger', 'bahi'),
  r('GET', '/register/sessions', 'ledger', 'bahi'),
  // --- ledger: the books' opening balances and expenses (bahi, issue 29; books.ts). Categories before :id (first match wins).
  r('GET', '/books/opening', 'ledger', 'bahi'),
  r('PUT', '/books/opening', 'ledger', 'bahi'),
  r('GET', '/expenses/categories', 'ledger', 'bahi'),
  r('PUT', '/expenses/categories', 'ledger', 'bahi'),
  r('GET', '/expenses', 'ledger', 'bahi'),
  r('POST', '/expenses', 'ledger', 'bahi'),
  r('PUT', '/expenses/:id', 'ledger', 'bahi'),
  r('DELETE', '/expenses/:id', 'ledger', 'bahi'),
  r('GET', '/expenses/:id/history', 'ledger', 'bahi'),
  // --- documents: share links (bahi; share.ts); the public page /s/<token> is served by the gateway outside /api
  r('POST', '/share', 'documents', 'bahi'),
  r('GET', '/share', 'documents', 'bahi'),
  r('POST', '/share/revoke', 'documents', 'bahi'),
  // ESC/POS to a network thermal printer, no dialog (issue 28).
  r('POST', '/print/bill/:saleId', 'documents', 'bahi'),

  // --- inventory: purchases from the cart or an estimate (000)
  r('GET', '/checkOutPurchase', 'inventory', '000'),
  r('POST', '/checkOutPurchase', 'inventory', '000'),
  r('POST', '/checkOutPurchaseFromEstimate', 'inventory', '000'),
  r('GET', '/previewPurchase', 'inventory', 'bahi'),
  // --- inventory: GSTR-2B matching of purchases (bahi; issue 31)
  r('POST', '/gst/gstr2b', 'inventory', 'bahi'),
  r('GET', '/gst/gstr2b', 'inventory', 'bahi'),
  // --- inventory: products (001)
  r('GET', '/getCategoryBrand', 'inventory', '001'),
  r('GET', '/getProductList', 'inventory', '001'),
  r('POST', '/createNewProduct', 'inventory', '001'),
  r('GET', '/getProductListForStockBook', 'inventory', '001'),
  r('GET', '/addProductPageDetails', 'inventory', '001'),
  r('GET', '/getProductDetails', 'inventory', '001'),
  r('GET', '/getProductHistory', 'inventory', '001'),
  r('POST', '/duplicateProduct', 'inventory', '001'),
  r('DELETE', '/product/:id', 'inventory', '001'),
  r('POST', '/updateProductImage/:id', 'inventory', '001'),
  r('POST', '/editProduct', 'inventory', '001'),
  r('GET', '/getLabelDetails/:id', 'inventory', '001'),
  r('GET', '/productPage/:cat', 'inventory', '001'),
  // --- inventory: categories (001)
  r('GET', '/getCategoryList', 'inventory', '001'),
  r('POST', '/catagory/add', 'inventory', '001'),
  r('GET', '/editCatagory/:id', 'inventory', '001'),
  r('DELETE', '/deleteCatagory/:id', 'inventory', '001'),
  r('PUT', '/editCatagory/:id/editLabel', 'inventory', '001'),
  // --- inventory: purchases (001)
  r('GET', '/getPurchaseList', 'inventory', '001'),
  r('GET', '/getPurchaseDetails', 'inventory', '001'),
  r('GET', '/getPurchaseLabelDetails', 'inventory', '001'),
  // --- inventory: purchase returns, debit notes (bahi; returns.ts)
  r('POST', '/purchaseReturn', 'inventory', 'bahi'),
  r('GET', '/previewPurchaseReturn', 'inventory', 'bahi'),
  r('GET', '/getDebitNoteList', 'inventory', 'bahi'),
  r('GET', '/getDebitNoteDetails', 'inventory', 'bahi'),
  // --- inventory: the reorder list (bahi; reorder.ts); sales fills the cart from it (it owns carts)
  r('GET', '/reorderList', 'inventory', 'bahi'),
  r('POST', '/reorderList/fillCart', 'sales', 'bahi'),
  // --- imports from CSV/XLSX and list exports (bahi; imports.ts): products in inventory, customers and distributors in ledger
  ...(['products', 'customers', 'distributors'] as const).flatMap((kind) => {
    const svc: ServiceName = kind === 'products' ? 'inventory' : 'ledger';
    return [
      r('POST', `/imports/${kind}`, svc, 'bahi', { maxUpload: 20 * 1024 * 1024 }),
      r('GET', `/imports/${kind}/:id`, svc, 'bahi'),
      r('POST', `/imports/${kind}/:id/validate`, svc, 'bahi'),
      r('POST', `/imports/${kind}/:id/run`, svc, 'bahi'),
    ];
  }),
  r('GET', '/export/products', 'inventory', 'bahi'),
  r('GET', '/export/stockBook', 'inventory', 'bahi'),
  r('GET', '/export/customers', 'ledger', 'bahi'),
  r('GET', '/export/distributors', 'ledger', 'bahi'),
  r('GET', '/export/customerHistory', 'ledger', 'bahi'),
  r('GET', '/export/distributorHistory', 'ledger', 'bahi'),
  r('GET', '/export/ledgers', 'ledger', 'bahi'),
  r('GET', '/export/purchases', 'inventory', 'bahi'),
  r('GET', '/export/sales', 'sales', 'bahi'),
  r('GET', '/export/creditNotes', 'sales', 'bahi'),
  r('GET', '/export/estimates', 'sales', 'bahi'),
  r('GET', '/export/debitNotes', 'inventory', 'bahi'),
  // The all-data zip's sheets (gateway export-all.ts); managers only but the bills' lines (as the sales list)
  r('GET', '/export/stockMovements', 'inventory', 'bahi'),
  r('GET', '/export/saleLines', 'sales', 'bahi'),
  r('GET', '/export/purchaseLines', 'inventory', 'bahi'),
  r('GET', '/export/payments', 'ledger', 'bahi'),
  // The accountant's Tally file (issue 31; reports assembles it, tally.ts) and its ledger names (identity).
  r('GET', '/export/tally', 'reports', 'bahi'),
  r('GET', '/accountant/ledgers', 'identity', 'bahi'),
  r('PUT', '/accountant/ledgers', 'identity', 'bahi'),
  // --- reports: the read model fed by the domain events (bahi; managers only; `?format=csv|xlsx` exports)
  ...(['daybook', 'sales-register', 'purchase-register', 'stock-summary', 'profit', 'ageing', 'dashboard', 'dead-letters', 'cashbook', 'pnl'] as const).map((name) =>
    r('GET', `/reports/${name}`, 'reports', 'bahi'),
  ),
  // --- inventory: Bahi addition (product image download, like a storage host by stored name)
  r('GET', '/productImage/:fileName', 'inventory', 'bahi', { public: true }),
];

/**
 * Whole path prefixes owned by one service, for calls the specs leave unnamed: every printable
 * PDF is served by documents under /documents/ (`GET /documents/{kind}/{id}`, see services/documents/README.md).
 */
export const RoutePrefixes: readonly { prefix: string; service: ServiceName; public?: boolean }[] = [
  { prefix: '/documents/', service: 'documents' },
];

/** Splits a concrete path against a route path; returns the params or null. */
export function matchPath(routePath: string, actual: string): Record<string, string> | null {
  const want = routePath.split('/');
  const got = actual.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (g === '') return null;
      params[w.slice(1)] = decodeURIComponent(g);
    } else if (w !== g) return null;
  }
  return params;
}

/**
 * The route answering `method path` (path without /api and without the query). A spec path
 * written with a trailing slash also matches without it, and vice versa.
 */
export function findRoute(method: string, path: string): { route: RouteDef; params: Record<string, string> } | null {
  const m = method.toUpperCase();
  const variants = path.endsWith('/') && path.length > 1 ? [path, path.slice(0, -1)] : [path, `${path}/`];
  for (const route of Routes) {
    if (route.method !== m) continue;
    for (const p of variants) {
      const params = matchPath(route.path, p);
      if (params) return { route, params };
    }
  }
  return null;
}

/** The service owning a path under a prefix route, if any. */
export function findPrefixRoute(path: string): (typeof RoutePrefixes)[number] | null {
  return RoutePrefixes.find((p) => path.startsWith(p.prefix)) ?? null;
}
