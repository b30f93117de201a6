// Every route of @bahi/contracts Routes, tried by the wrong company, the wrong position and with
// bad input: never another company's data, never a 5xx, never a change. Plus login limits,
// revocation, log hygiene and security headers.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DocumentKinds, Routes, type RouteDef } from '@bahi/contracts';
import JSZip from 'jszip';
import { MongoClient } from 'mongodb';
import { ACCOUNTS, Api, todayIST, type Reply } from '../src/api';
import { audit } from '../src/audit';
import { documentsPort, getDocument, startDocuments, type DocReply, type DocumentsProc } from '../src/documents';
import { Rig, until } from '../src/rig';

let rig: Rig;
let admin: Api;
let mgrA: Api;
let staffA: Api;
let mgrB: Api;
let staffB: Api;
let docs: DocumentsProc;
/** Company A's customer and money receipt, for the statement and receipt documents. */
let clientA = 0;
let paymentA = 0;
let sentinels: string[] = [];
const tried: Record<string, number> = {};
const secrets: string[] = [];

/** Logs in; a temporary password (forceChange) is first changed to `fresh`, as the UI makes the user do. */
async function loginChanging(email: string, password: string, fresh: string): Promise<Api> {
  const first = await new Api(rig.gatewayUrl).post('/loginReact', { email, password });
  if (first.status !== 200 || !first.body?.token) throw new Error(`login ${email}: ${first.status} ${JSON.stringify(first.body)}`);
  if (!first.body.forceChange) return new Api(rig.gatewayUrl, first.body.token);
  const ch = await new Api(rig.gatewayUrl, first.body.token).post('/manage/profile/edit/updatePassword', { current_password: password, new_password: fresh, re_type_new_password: fresh });
  if (ch.status >= 300) throw new Error(`password change of ${email}: ${ch.status} ${JSON.stringify(ch.body)}`);
  return Api.login(rig.gatewayUrl, email, fresh);
}

/** Calls a route with every path parameter set to `param`, the query and body given. */
function hit(api: Api, route: RouteDef, param: unknown, query: Record<string, unknown>, body: unknown): Promise<Reply> {
  const enc = (v: unknown) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));
  const p = route.path.replace(/:[A-Za-z_]+/g, () => enc(param));
  const qs = Object.entries(query)
    .map(([k, v]) => `${k}=${enc(v)}`)
    .join('&');
  const withBody = route.method === 'POST' || route.method === 'PUT';
  return api.call(route.method, `${p}${qs ? `?${qs}` : ''}`, withBody ? body : undefined);
}

/** Parameter names the calls use for ids, all pointing at company A's first records. */
const ID_NAMES = ['id', 'purchaseId', 'custId', 'distId', 'estimateId', 'estimate_id', 'saleId', 'sale_id', 'cartNo', 'cart_no', 'clientId', 'client_id', 'distributor', 'distributorId', 'productId', 'product_id', 'sl_no', 'category', 'catagory'];
const idsOf = (v: unknown) => Object.fromEntries(ID_NAMES.map((n) => [n, v]));

/** Calls that end or change the caller's own session: tried separately. */
const SELF = new Set(['POST /logout', 'POST /manage/profile/edit/updatePassword', 'POST /loginReact']);
const key = (r: RouteDef) => `${r.method} ${r.path}`;

/** Company A's data as stored (every database, every collection but sessions), for "nothing changed". */
async function snapshotA(): Promise<string> {
  const c = new MongoClient(rig.mongoUri);
  await c.connect();
  try {
    const out: string[] = [];
    for (const dbName of ['bahi_identity', 'bahi_inventory', 'bahi_ledger', 'bahi_sales']) {
      const db = c.db(dbName);
      for (const col of (await db.listCollections().toArray()).map((x) => x.name).sort()) {
        if (col === 'sessions' || col.startsWith('system.')) continue;
        const docs = await db
          .collection(col)
          .find({ $or: [{ companyId: 1 }, { id: 1, companyId: { $exists: false } }] })
          .sort({ _id: 1 })
          .toArray();
        for (const d of docs) {
          delete d.updatedAt;
          out.push(`${dbName}.${col} ${JSON.stringify(d)}`);
        }
      }
    }
    return out.join('\n');
  } finally {
    await c.close();
  }
}

function diff(a: string, b: string): string[] {
  const x = new Set(a.split('\n'));
  const y = new Set(b.split('\n'));
  return [...[...x].filter((l) => !y.has(l)).map((l) => `- ${l.slice(0, 300)}`), ...[...y].filter((l) => !x.has(l)).map((l) => `+ ${l.slice(0, 300)}`)];
}

const leak = (r: Reply) => {
  const text = JSON.stringify(r.body ?? '');
  return sentinels.find((s) => text.includes(s));
};

beforeAll(async () => {
  // documents (PDFs through Chromium) runs beside the rig; the gateway is told its port up front.
  const docPort = await documentsPort();
  // An admin password given explicitly is not a temporary one (identity README).
  rig = await Rig.start({ env: { BAHI_ADMIN_PASSWORD: ACCOUNTS.admin.password }, gatewayEnv: { BAHI_LOGIN_MAX_FAILURES_PER_ADDRESS: '8', DOCUMENTS_URL: `http://127.0.0.1:${docPort}` } });
  docs = await startDocuments(rig, docPort);
  admin = await Api.login(rig.gatewayUrl, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  mgrA = await Api.login(rig.gatewayUrl, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  staffA = await Api.login(rig.gatewayUrl, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  secrets.push(rig.jwtSecret, ...Object.values(ACCOUNTS).map((a) => a.password), admin.token, mgrA.token, staffA.token);
  await until('the demo products', async () => (await mgrA.get('/getProductList?pageNo=0')).body?.count >= 10);
  const clients = await until('the demo customers', async () => {
    const r = await staffA.get('/getClientsList?pageNo=0');
    return r.body?.clientsList?.length > 0 && r.body.clientsList;
  });
  const dists = await until('the demo distributors', async () => {
    const r = await mgrA.get('/getAllDistributorsList');
    return r.body?.allDistributorsList?.length > 0 && r.body.allDistributorsList;
  });
  // Company A gets one of everything, so id 1 names a real record of A everywhere.
  expect((await staffA.get('/addProductIntoCart/1')).status).toBe(200);
  expect((await staffA.post('/MAKE_SALE', { clientId: clients[0].id, cart_no: 1, paid: '0' })).status).toBe(200);
  expect((await staffA.get('/addProductIntoCart/2')).status).toBe(200);
  expect((await staffA.get(`/createEstimate?cart_no=1&clientId=${clients[0].id}`)).status).toBe(200);
  expect((await mgrA.get('/addProductIntoCart/3?cart_no=2')).status).toBe(200);
  const buy = await mgrA.post('/checkOutPurchase', { bill_no: 'A-1', distributor: dists[0].id, officer: '', paid: '0', due_date: todayIST(), cart_no: 2 });
  expect(buy.status).toBe(200);
  const paid = await staffA.post('/salesDuePayment', { client_id: clients[0].id, amount: '5', nextDD: todayIST() });
  expect(paid.status).toBe(200);
  clientA = clients[0].id;
  paymentA = paid.body.paymentId;
  // A credit note (one unit of sale 1 back) and a debit note (one unit of purchase 1 back).
  const soldLine = (await mgrA.get('/getBillDetails?id=1')).body.soldProducts[0].sl_no;
  expect((await mgrA.post('/salesReturn', { saleId: 1, lines: [{ sl_no: soldLine, quantity: 1 }], refund: '0', idempotencyKey: 'matrix-cn' })).status).toBe(200);
  const boughtLine = (await mgrA.get('/getPurchaseDetails?purchaseId=1')).body.lines[0].sl_no;
  expect((await mgrA.post('/purchaseReturn', { purchaseId: 1, lines: [{ sl_no: boughtLine, quantity: 1 }], refund: '0', idempotencyKey: 'matrix-dn' })).status).toBe(200);
  expect((await staffA.get('/addProductIntoCart/4')).status).toBe(200);
  // A's register session 1 (the Z report document).
  expect((await staffA.post('/register/open', { opening_cash: '100' })).status).toBe(200);

  const products = (await mgrA.get('/getProductList?pageNo=0')).body.list as { product_name: string }[];
  sentinels = ['Demo Traders', ACCOUNTS.manager.email, ...clients.map((c: any) => c.name), ...dists.map((d: any) => d.name), ...products.map((p) => p.product_name)];

  const made = await admin.post('/admin/createCompany', { cName: 'Isolation Works', cAdd: '1 Other Road', cMob: '9811122233', mName: 'Bina', mEmail: 'bina@isolation.in' });
  expect(made.status).toBe(201);
  mgrB = await loginChanging('bina@isolation.in', made.body.managerPassword, 'bina-own-pass-1');
  expect((await mgrB.post('/users', { name: 'Chetan', email: 'chetan@isolation.in', password: 'chetan12345', position: 'staff' })).status).toBeLessThan(300);
  staffB = await loginChanging('chetan@isolation.in', 'chetan12345', 'chetan-own-pass-1');
  secrets.push(made.body.managerPassword, 'chetan12345', 'bina-own-pass-1', 'chetan-own-pass-1', mgrB.token, staffB.token);
  // Settle: no sale or purchase in flight, invariants hold before the matrices start.
  const a = await until('a quiet stack', async () => {
    const r = await audit(rig.mongoUri);
    return r.inFlight.length === 0 && r;
  });
  expect(a.violations).toEqual([]);
}, 600_000);

afterAll(async () => {
  console.log(`Requests tried: ${JSON.stringify(tried)}`);
  await docs?.stop();
  await rig?.stop();
});

/** Every document kind (services/documents/README.md), its path for an id, and the owner's position. */
const DOCS: { kind: string; path: (id: string) => string; managerOnly: boolean; options: boolean }[] = [
  { kind: 'bill', path: (id) => `/documents/bill/${id}`, managerOnly: false, options: true },
  { kind: 'estimate', path: (id) => `/documents/estimate/${id}`, managerOnly: false, options: false },
  { kind: 'challan', path: (id) => `/documents/challan/${id}`, managerOnly: false, options: false },
  { kind: 'receipt', path: (id) => `/documents/receipt/${id}`, managerOnly: false, options: false },
  { kind: 'statement', path: (id) => `/documents/statement/${id}`, managerOnly: false, options: false },
  { kind: 'stockbook', path: (id) => `/documents/stockbook?category=${id}`, managerOnly: true, options: true },
  { kind: 'labels', path: (id) => `/documents/labels/${id}`, managerOnly: false, options: true },
  { kind: 'purchase-labels', path: (id) => `/documents/purchase-labels/${id}`, managerOnly: true, options: true },
  { kind: 'reorder', path: (id) => `/documents/reorder/${id}`, managerOnly: true, options: true },
  { kind: 'credit-note', path: (id) => `/documents/credit-note/${id}`, managerOnly: false, options: false },
  { kind: 'debit-note', path: (id) => `/documents/debit-note/${id}`, managerOnly: true, options: false },
  { kind: 'report', path: (id) => `/documents/report/${id}`, managerOnly: true, options: true },
  { kind: 'register', path: (id) => `/documents/register/${id}`, managerOnly: false, options: true },
];
/** The options documents reads (the stock book's category is in its path), every one set to the bad value at once. */
const DOC_OPTIONS = ['mode', 'count', 'qty', 'packets', 'order', 'cost', 'download', 'brand', 'stock', 'active', 'pageNo', 'id', 'products', 'format', 'date', 'from', 'to', 'clientId', 'distributorId', 'category', 'by', 'side', 'page'];
/** A's record of each kind (id 1 names A's first sale, estimate, category, product, purchase, credit and debit note; reorder 0 the demo's low products never bought; the report is this month's sales register). */
const idOfA = (kind: string) => String(kind === 'statement' ? clientA : kind === 'receipt' ? paymentA : kind === 'reorder' ? 0 : kind === 'report' ? 'sales-register' : 1);
/**
 * One of A's names (company, customers, distributors, products) in an answer or a PDF's text; a
 * label cuts a long name with an ellipsis, so a PDF is searched for each name's first 12 characters.
 */
const docLeak = (r: DocReply) => sentinels.find((s) => r.text.includes(s.slice(0, 12)) || JSON.stringify(r.body ?? '').includes(s));
const withQuery = (p: string, q: Record<string, unknown>) => {
  const enc = (v: unknown) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));
  const qs = Object.entries(q).map(([k, v]) => `${k}=${enc(v)}`).join('&');
  return qs ? `${p}${p.includes('?') ? '&' : '?'}${qs}` : p;
};

describe('tenant isolation', () => {
  it(`company B never sees or changes company A's records on any of the ${Routes.length} routes`, async () => {
    const before = await snapshotA();
    const problems: string[] = [];
    let n = 0;
    let refused = 0;
    for (const route of Routes) {
      if (SELF.has(key(route)) || route.path.startsWith('/admin/')) continue;
      for (const who of [mgrB, staffB]) {
        for (const id of [1, 2]) {
          const r = await hit(who, route, id, idsOf(id), { ...idsOf(id), pageNo: 0, quantity: '1', amount: '1', paid: '0', nextDD: todayIST() });
          n++;
          if (r.status === 403 || r.status === 404) refused++;
          if (r.status >= 500 || r.status === 0) problems.push(`${key(route)} id ${id}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          const l = leak(r);
          if (l) problems.push(`${key(route)} id ${id}: answered ${r.status} with company A's "${l}"`);
        }
      }
    }
    tried.isolation = n;
    console.log(`Isolation: ${n} requests, ${refused} answered 403/404, the rest B's own (empty) data`);
    expect(problems).toEqual([]);
    expect(diff(before, await snapshotA())).toEqual([]);
  });

  it('a foreign id answers 404 on the calls that take one', async () => {
    const foreign: [string, string][] = [
      ['GET', '/getBillDetails?id=1'],
      ['GET', '/getEstimateDetails?id=1'],
      ['GET', '/getClientsDetails?id=1'],
      ['GET', '/getProductDetails?id=1'],
      ['GET', '/getLabelDetails/1'],
      ['GET', '/editCatagory/1'],
      ['GET', '/getPurchaseDetails?purchaseId=1'],
      ['GET', '/getDistributorsDetails?id=1'],
      ['GET', '/getSalesPaymentDetails?id=1'],
      ['DELETE', '/product/1'],
      ['DELETE', '/deleteEstimate/1'],
    ];
    const wrong: string[] = [];
    for (const [m, p] of foreign) {
      const r = await mgrB.call(m, p);
      if (r.status !== 404) wrong.push(`${m} ${p}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    }
    tried.foreignIds = foreign.length;
    expect(wrong).toEqual([]);
  });
});

describe('tenant isolation of documents', () => {
  it("company A's own documents print with A's data (the ids below name real records)", async () => {
    expect(DOCS.map((d) => d.kind).sort()).toEqual([...DocumentKinds].sort());
    const wrong: string[] = [];
    for (const d of DOCS) {
      const r = await getDocument(mgrA, d.path(idOfA(d.kind)));
      if (r.status !== 200 || !r.contentType.startsWith('application/pdf')) wrong.push(`${d.kind}: ${r.status} ${r.text.slice(0, 200)}`);
      else if (!docLeak(r)) wrong.push(`${d.kind}: the PDF holds none of A's names: ${r.text.slice(0, 300)}`);
    }
    expect(wrong).toEqual([]);
  });

  it(`company B gets 403/404 for company A's ids on every document kind, and none of A's data`, async () => {
    const before = await snapshotA();
    const problems: string[] = [];
    let n = 0;
    for (const d of DOCS) {
      for (const [name, who] of [['manager B', mgrB], ['staff B', staffB]] as const) {
        for (const id of new Set(['1', '2', idOfA(d.kind)])) {
          const r = await getDocument(who, d.path(id));
          n++;
          const expected = d.managerOnly && who === staffB ? [403] : [404];
          // B's own category 1 (ids are per company) prints B's own, empty, stock book.
          if (d.kind === 'stockbook' && who === mgrB) expected.push(200);
          // A report's name is no record: B's own sales register prints B's own bills.
          if (d.kind === 'report' && who === mgrB && id === idOfA('report')) expected.push(200);
          if (!expected.includes(r.status)) problems.push(`${name} ${d.path(id)}: ${r.status} ${r.text.slice(0, 200)}`);
          const l = docLeak(r);
          if (l) problems.push(`${name} ${d.path(id)}: answered ${r.status} with company A's "${l}"`);
        }
      }
    }
    tried.documentsIsolation = n;
    expect(problems).toEqual([]);
    expect(diff(before, await snapshotA())).toEqual([]);
  });
});

/** Calls only a manager may make (each service README). */
const MANAGER_ONLY = [
  'POST /setCompanyDetails',
  // A manager's own discount-approval PIN (issue 28).
  'PUT /profile/pin',
  'POST /manage/profile/edit/:id/uploadProfileImage',
  'GET /users',
  'POST /users',
  'DELETE /users/:id',
  'GET /checkOutPurchase',
  'POST /checkOutPurchase',
  'POST /checkOutPurchaseFromEstimate',
  'POST /createNewProduct',
  'POST /duplicateProduct',
  'DELETE /product/:id',
  'POST /updateProductImage/:id',
  'POST /editProduct',
  'POST /catagory/add',
  'DELETE /deleteCatagory/:id',
  'PUT /editCatagory/:id/editLabel',
  'GET /getAllDistributorsList',
  'GET /getDistributorsList',
  'GET /getDistributorsDetails',
  'GET /distributorsHistory',
  'POST /addDistributor',
  'PUT /addDistributor',
  'GET /getDueAndDueDate',
  'POST /purchaseDuePaymentReact',
  'GET /gst/gstr1',
  'GET /gst/gstr3b',
  'GET /reorderList',
  'POST /reorderList/fillCart',
  'POST /salesReturn',
  'POST /cancelSale',
  'POST /purchaseReturn',
  'GET /getDebitNoteList',
  'GET /getDebitNoteDetails',
  ...['products', 'customers', 'distributors'].flatMap((k) => [`POST /imports/${k}`, `GET /imports/${k}/:id`, `POST /imports/${k}/:id/validate`, `POST /imports/${k}/:id/run`]),
  'GET /export/stockBook',
  'GET /export/purchases',
  'GET /export/debitNotes',
  'GET /export/distributors',
  'GET /export/distributorHistory',
  'GET /export/ledgers',
  // Issue 31: the Tally file and Setting > Accountant's ledger names.
  'GET /export/tally',
  'GET /accountant/ledgers',
  'PUT /accountant/ledgers',
  // Issue 29: opening balances and expenses; staff too only once the company's staff_expenses is on (off here).
  'GET /books/opening',
  'PUT /books/opening',
  'GET /expenses/categories',
  'PUT /expenses/categories',
  'GET /expenses',
  'POST /expenses',
  'PUT /expenses/:id',
  'DELETE /expenses/:id',
  'GET /expenses/:id/history',
  'GET /export/stockMovements',
  'GET /export/purchaseLines',
  'GET /export/payments',
];

describe('positions', () => {
  it('staff get 403 on every manager call, and nothing changes', async () => {
    for (const k of MANAGER_ONLY) expect(Routes.some((r) => key(r) === k)).toBe(true);
    const before = await snapshotA();
    const wrong: string[] = [];
    for (const route of Routes.filter((r) => MANAGER_ONLY.includes(key(r)))) {
      const r = await hit(staffA, route, 1, idsOf(1), { ...idsOf(1), name: 'Staff Try', amount: '1', nextDD: todayIST(), bill_no: 'S-1', due_date: todayIST(), paid: '0' });
      if (r.status !== 403) wrong.push(`${key(route)}: ${r.status}`);
    }
    tried.positions = MANAGER_ONLY.length;
    expect(wrong).toEqual([]);
    expect(diff(before, await snapshotA())).toEqual([]);
  });

  it('staff get 403 on the manager-only documents (purchase labels, the stock book with cost prices) before anything renders', async () => {
    const wrong: string[] = [];
    const paths = [...DOCS.filter((d) => d.managerOnly).map((d) => d.path('1')), '/documents/stockbook?category=1&cost=1', '/documents/purchase-labels/1?packets=1:1'];
    for (const p of paths) {
      const r = await getDocument(staffA, p);
      if (r.status !== 403 || r.body?.message !== 'Only a manager can do this.') wrong.push(`${p}: ${r.status} ${r.text.slice(0, 200)}`);
    }
    tried.documentsPositions = paths.length;
    expect(wrong).toEqual([]);
  });

  it('everyone but the platform admin gets 403 on /admin/*', async () => {
    const adminRoutes = Routes.filter((r) => r.path.startsWith('/admin/'));
    const wrong: string[] = [];
    let n = 0;
    for (const route of adminRoutes) {
      for (const [name, who] of [['manager A', mgrA], ['staff A', staffA], ['manager B', mgrB], ['staff B', staffB]] as const) {
        const r = await hit(who, route, 1, { email: ACCOUNTS.staff.email, pageNo: 0 }, { email: ACCOUNTS.staff.email, newPassword: 'taken-over-1', cName: 'X', cAdd: 'Y', cMob: '9999999999', mName: 'Z', mEmail: 'z@z.in' });
        n++;
        if (r.status !== 403) wrong.push(`${name} ${key(route)}: ${r.status}`);
      }
      const own = await hit(admin, route, 999_999, { pageNo: 0, email: 'nobody@nowhere.in' }, { email: 'nobody@nowhere.in', newPassword: 'whatever-123' });
      n++;
      expect(own.status).not.toBe(403);
    }
    tried.admin = n;
    expect(wrong).toEqual([]);
  });
});

const BAD: unknown[] = [
  { $gt: '' },
  { $ne: null },
  { $where: 'sleep(1000)' },
  -1,
  -0.001,
  1e308,
  -1e308,
  99999999999999999999,
  'NaN',
  'Infinity',
  '1e999',
  'abc',
  '',
  ' ',
  null,
  true,
  [],
  [1, 2],
  {},
  '9'.repeat(400),
  '<script>alert(1)</script>',
  "1'; db.dropDatabase(); '",
  '0x10',
  '1.23456789',
  '-5',
];

/** Field names the calls take, every one set to the bad value at once. */
const FIELDS = [
  ...ID_NAMES,
  'pageNo', 'text', 'quantity', 'discount', 'tax', 'shipping', 'paid', 'amount', 'nextDD', 'date', 'dueDate', 'due_date',
  'name', 'mobile_no', 'address_line_1', 'city_or_district', 'state', 'country', 'postal_code', 'mrp', 'cp', 'unit',
  'per_peice_quantity', 'brand_name', 'stock', 'min_stock', 'default_stock', 'barcode', 'hsn_code', 'belongs_to',
  'spec_1', 'default_1', 'label_feature_1', 'bill_no', 'officer', 'officers', 'email', 'password', 'position',
  'cName', 'cAdd', 'cMob', 'mName', 'mEmail', 'newPassword', 'add1', 'mob1', 'transporter_name', 'transporter_mobile',
  'mode_of_transport', 'vehicle_number', 'dispatched_date', 'specs', 'idempotencyKey', 'pageNumber', 'active', 'brand',
];
const all = (v: unknown) => Object.fromEntries(FIELDS.map((f) => [f, v]));
/** In the query, a long value goes in a few fields only: 80 of them would pass Node's 16 KB header limit (431). */
const allQuery = (v: unknown) => (JSON.stringify(v).length > 100 ? Object.fromEntries(FIELDS.slice(0, 8).map((f) => [f, v])) : all(v));

describe('bad input', () => {
  it('every route answers bad values with a 4xx and a message (or its plain answer), never a 5xx, changing nothing', async () => {
    const before = await snapshotA();
    const problems: string[] = [];
    let n = 0;
    const judge = (route: RouteDef, what: string, r: Reply) => {
      n++;
      if (r.status >= 500 || r.status === 0) problems.push(`${key(route)} ${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      else if (r.status >= 400) {
        const b = r.body ?? {};
        const msg = b.message ?? b.msg ?? b.err ?? b.error;
        if (!msg || (typeof msg !== 'string' && !Array.isArray(msg))) problems.push(`${key(route)} ${what}: ${r.status} without a message`);
      }
    };
    for (const route of Routes) {
      if (SELF.has(key(route)) && route.path !== '/loginReact') continue;
      const who = route.path.startsWith('/admin/') ? admin : mgrA;
      for (const v of BAD) {
        judge(route, `all ${JSON.stringify(v).slice(0, 30)}`, await hit(who, route, v, allQuery(v), all(v)));
        if (route.method === 'POST' || route.method === 'PUT') {
          // Ids right, every other field bad: reaches the checks behind the id lookups.
          judge(route, `fields ${JSON.stringify(v).slice(0, 30)}`, await hit(who, route, 1, idsOf(1), { ...all(v), ...idsOf(1) }));
        }
      }
      if (route.method === 'POST' || route.method === 'PUT') {
        for (const raw of ['{"broken json', '[1,2,3]', '"just a string"', 'null']) judge(route, `raw ${raw}`, await who.call(route.method, route.path.replace(/:[A-Za-z_]+/g, '1'), raw));
        judge(route, 'empty body', await who.call(route.method, route.path.replace(/:[A-Za-z_]+/g, '1'), {}));
      }
    }
    tried.badInput = n;
    console.log(`Bad input: ${n} requests over ${Routes.length} routes`);
    expect(problems).toEqual([]);
    expect(diff(before, await snapshotA())).toEqual([]);
    const a = await audit(rig.mongoUri);
    expect(a.violations).toEqual([]);
  });
});

describe('bad input to documents', () => {
  it('every document kind answers bad values and huge counts with a 4xx sentence before rendering, never a 5xx, and documents stays up', async () => {
    const before = await snapshotA();
    const problems: string[] = [];
    let n = 0;
    let rendered = 0;
    const judge = (what: string, r: DocReply) => {
      n++;
      if (r.status === 200 && r.contentType.startsWith('application/pdf')) rendered++;
      else if (r.status >= 500 || r.status === 0 || r.status < 400) problems.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
      else if (typeof r.body?.message !== 'string') problems.push(`${what}: ${r.status} without a message`);
    };
    for (const d of DOCS) {
      for (const v of BAD) {
        const options = Object.fromEntries(DOC_OPTIONS.map((o) => [o, v]));
        const enc = encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));
        judge(`${d.kind} all ${JSON.stringify(v).slice(0, 30)}`, await getDocument(mgrA, withQuery(d.path(enc), options)));
        // The id right, every option bad: reaches the checks behind the id.
        if (d.options) judge(`${d.kind} options ${JSON.stringify(v).slice(0, 30)}`, await getDocument(mgrA, withQuery(d.kind === 'stockbook' ? '/documents/stockbook?category=1' : d.path(idOfA(d.kind)), options)));
      }
    }
    const many = (k: number, f: (i: number) => string) => Array.from({ length: k }, (_, i) => f(i + 1)).join(',');
    const huge: [string, RegExp][] = [
      ['/documents/labels/1?count=99999999999', /count must be a whole number from 1 to 1200/],
      ['/documents/labels/1?count=1e999', /count must be a whole number from 1 to 1200/],
      ['/documents/purchase-labels/1?packets=1:99999999999', /at most 1200 labels/],
      ['/documents/purchase-labels/1?packets=7:99999999999', /at most 1200 labels/],
      [`/documents/purchase-labels/1?packets=${many(201, (i) => `${i}:1`)}`, /at most 200 products/],
      [`/documents/stockbook?category=1&order=${many(2001, (i) => String(i))}`, /at most 2000 products/],
      ['/documents/bill/99999999999', /positive whole number/],
      ['/documents/statement/99999999999', /positive whole number/],
      ['/documents/report/sales-register?from=2020-01-01&to=2026-01-01', /at most 400 days apart/],
    ];
    for (const [p, msg] of huge) {
      const r = await getDocument(mgrA, p);
      n++;
      if (r.status !== 400 || !msg.test(r.body?.message ?? '') || r.ms > 5000) problems.push(`${p.slice(0, 80)}: ${r.status} in ${r.ms} ms ${r.text.slice(0, 200)}`);
    }
    tried.documentsBadInput = n;
    console.log(`Bad input to documents: ${n} requests, ${rendered} rendered (bad values a kind ignores)`);
    expect(problems).toEqual([]);
    expect(docs.alive()).toBe(true);
    expect((await fetch(`${docs.url}/health`)).status).toBe(200);
    expect((await getDocument(mgrA, '/documents/bill/1')).status).toBe(200);
    expect(diff(before, await snapshotA())).toEqual([]);
  });
});

/** A multipart upload (form field "file") through the gateway, as the import pages send it. */
async function uploadFile(api: Api, kind: string, file: Buffer, name: string): Promise<Reply> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  try {
    const res = await fetch(`${rig.gatewayUrl}/api/imports/${kind}`, { method: 'POST', headers: { Authorization: `Bearer ${api.token}` }, body: form, signal: AbortSignal.timeout(120_000) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  } catch (err) {
    return { status: 0, body: { message: (err as Error).message } };
  }
}

/** An XLSX written part by part, in the order given (JSZip keeps insertion order). */
async function xlsxOf(sheetData: string, strings: string[], order?: string[], level = 6): Promise<Buffer> {
  const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
  const parts: Record<string, string> = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Customers" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><sheetData>${sheetData}</sheetData></worksheet>`,
    'xl/sharedStrings.xml': `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${NS}">${strings.map((t) => `<si><t>${t}</t></si>`).join('')}</sst>`,
  };
  const zip = new JSZip();
  for (const n of order ?? Object.keys(parts)) zip.file(n, parts[n]!, { createFolders: false });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level } });
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? 0;

describe('bad uploads', () => {
  /**
   * Company B's calls to the service reading the upload, one after another, while `during` runs:
   * their times, measured by a process of their own (this one is busy sending the upload).
   */
  async function probe<T>(service: 'ledger' | 'inventory', during: () => Promise<T>): Promise<{ result: T; ms: number[] }> {
    const url = `${rig.gatewayUrl}/api${service === 'ledger' ? '/getClientsList?pageNo=0' : '/getProductList?pageNo=0'}`;
    const script = `
      const [url, token] = process.argv.slice(1);
      const ms = [];
      let stop = false;
      process.stdin.on('data', () => { stop = true; });
      (async () => {
        process.stdout.write('ready\\n');
        while (!stop) {
          const t0 = performance.now();
          const r = await fetch(url, { headers: { Authorization: 'Bearer ' + token } });
          await r.arrayBuffer();
          ms.push(r.status === 200 ? performance.now() - t0 : -r.status);
          await new Promise((res) => setTimeout(res, 20));
        }
        process.stdout.write(JSON.stringify(ms) + '\\n');
        process.exit(0);
      })();`;
    const child = spawn(process.execPath, ['-e', script, url, staffB.token], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await until('the probe to start', async () => out.startsWith('ready'));
    let result: T;
    try {
      result = await during();
    } finally {
      child.stdin.write('stop\n');
      await new Promise((res) => child.once('exit', res));
    }
    const ms = JSON.parse(out.split('\n')[1]!) as number[];
    const failed = ms.filter((m) => m < 0);
    if (failed.length) throw new Error(`company B's calls answered ${failed.map((m) => -m).join(', ')} during an upload`);
    return { result, ms };
  }

  const head = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>';
  const attacks: { what: string; kind: string; service: 'ledger' | 'inventory'; name: string; file: () => Promise<Buffer>; message: RegExp }[] = [
    { what: 'a header, 150,000 blank lines and a row (150 KB)', kind: 'customers', service: 'ledger', name: 'c.csv', file: async () => Buffer.from(`Name,Mobile\n${'\n'.repeat(150_000)}Asha,9876500001\n`), message: /^The file has more than 1,00,000 rows \(blank lines count too\)/ },
    { what: '19 MB of blank lines', kind: 'distributors', service: 'ledger', name: 'd.csv', file: async () => Buffer.from(`Name,Mobile\n${'\n'.repeat(19 * 1024 * 1024)}`), message: /^The file has more than 1,00,000 rows/ },
    { what: 'a 12 MB cell', kind: 'customers', service: 'ledger', name: 'c.csv', file: async () => Buffer.from(`Name,Mobile\n${'x'.repeat(12 * 1024 * 1024)},9876500001\n`), message: /^Row 2 has a cell longer than 32,768 characters/ },
    { what: 'a 1.1 MB line', kind: 'products', service: 'inventory', name: 'p.csv', file: async () => Buffer.from(`Name,MRP\n${Array.from({ length: 100 }, () => 'y'.repeat(11_000)).join(',')}\n`), message: /^Row 2 is longer than 1 MB/ },
    { what: 'a header of 600,000 columns', kind: 'products', service: 'inventory', name: 'p.csv', file: async () => Buffer.from(`${'h,'.repeat(600_000)}h\n1\n`), message: /^Row 1 has more than 16,384 columns/ },
    { what: 'a zip of some 25 KB unpacking to 6 MB', kind: 'customers', service: 'ledger', name: 'c.xlsx', file: () => xlsxOf(head + `<row><c t="inlineStr"><is><t>${'a'.repeat(200)}</t></is></c></row>`.repeat(26_000), ['Name', 'Mobile'], undefined, 9), message: /^A part of this XLSX file \(xl\/worksheets\/sheet1\.xml\) expands from .* more than 100 times/ },
    { what: 'a 12 MB cell in an XLSX', kind: 'customers', service: 'ledger', name: 'c.xlsx', file: () => xlsxOf(head + `<row r="2"><c r="A2" t="inlineStr"><is><t>${randomBytes(6 * 1024 * 1024).toString('hex')}</t></is></c></row>`, ['Name', 'Mobile']), message: /^Row 2 has a cell longer than 32,768 characters/ },
    { what: 'a Latin-1 (ANSI) CSV', kind: 'customers', service: 'ledger', name: 'c.csv', file: async () => Buffer.from('Name,Mobile\nCafé Noël,9876500001\n', 'latin1'), message: /^Line 2 of the file is not UTF-8 text \("Caf\uFFFD No\uFFFDl,9876500001"\)\. Save the file as CSV UTF-8 and upload it again\.$/ },
  ];

  it('refuses every hostile upload with 400 and a sentence naming the limit, stores nothing, and keeps company B served', async () => {
    const before = await snapshotA();
    // Company B's calls on a quiet stack, for comparison.
    const quiet = await probe('ledger', () => new Promise((res) => setTimeout(res, 2000)));
    const during: number[] = [];
    const rows: string[] = [];
    const problems: string[] = [];
    for (const a of attacks) {
      const file = await a.file();
      const t0 = performance.now();
      const { result: r, ms } = await probe(a.service, () => uploadFile(mgrA, a.kind, file, a.name));
      const took = performance.now() - t0;
      during.push(...ms);
      rows.push(`${a.what} (${(file.length / 1024).toFixed(0)} KB): ${r.status} in ${took.toFixed(0)} ms; company B's ${ms.length} calls p95 ${p95(ms).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`);
      if (r.status !== 400 || !a.message.test(r.body?.message ?? '')) problems.push(`${a.what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    }
    tried.badUploads = attacks.length;
    console.log(`Bad uploads:\n${rows.join('\n')}\ncompany B's calls: quiet p95 ${p95(quiet.ms).toFixed(0)} ms (${quiet.ms.length} calls); during the uploads p95 ${p95(during).toFixed(0)} ms (${during.length} calls)`);
    expect(problems).toEqual([]);
    expect(diff(before, await snapshotA())).toEqual([]);
    // Not a speed test (the goal, 200 ms, is measured and written in docs/reliability.md): the bound
    // only catches the stall these uploads caused before (9-25 s, or every call 504), with room for a busy CI machine.
    expect(p95(during)).toBeLessThan(3000);
  });

  it('reads XLSX files in every part order and UTF-16 CSVs through the import upload', async () => {
    const strings = ['Name', 'Mobile', 'Asha Traders', 'Ravi Kumar'];
    const sheet = head + '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>9876500001</v></c></row><row r="3"><c r="A3" t="s"><v>3</v></c><c r="B3"><v>9876500002</v></c></row>';
    const CT = '[Content_Types].xml';
    const orders: [string, string[]][] = [
      ["Excel's (sheet before sharedStrings.xml)", [CT, '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml']],
      ['sharedStrings.xml first', ['xl/sharedStrings.xml', CT, '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/worksheets/sheet1.xml']],
      ['workbook.xml last', [CT, '_rels/.rels', 'xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml', 'xl/_rels/workbook.xml.rels', 'xl/workbook.xml']],
    ];
    const text = 'Name,Mobile\nAsha Traders,9876500001\nRavi Kumar,9876500002\n';
    const files: [string, Buffer, string][] = [
      ...(await Promise.all(orders.map(async ([what, order]) => [what, await xlsxOf(sheet, strings, order), 'c.xlsx'] as [string, Buffer, string]))),
      ['UTF-16 LE with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'c.csv'],
      ['UTF-16 BE with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]), 'c.csv'],
    ];
    for (const [what, file, name] of files) {
      // Company B's session: an upload stores its rows until the import is run or expires.
      const r = await uploadFile(mgrB, 'customers', file, name);
      expect({ what, status: r.status, headers: r.body?.headers, total: r.body?.total, preview: r.body?.preview }).toEqual({
        what,
        status: 200,
        headers: ['Name', 'Mobile'],
        total: 2,
        preview: [
          { row: 2, values: ['Asha Traders', '9876500001'] },
          { row: 3, values: ['Ravi Kumar', '9876500002'] },
        ],
      });
    }
  });
});

describe('login and sessions', () => {
  const from = (ip: string) => ({ 'X-Forwarded-For': ip });

  it('locks an account after 5 failed logins', async () => {
    expect((await mgrA.post('/users', { name: 'Lock Me', email: 'lockme@demo.local', password: 'right-pass-1', position: 'staff' })).status).toBeLessThan(300);
    const anon = new Api(rig.gatewayUrl);
    const replies: Reply[] = [];
    for (let i = 0; i < 5; i++) replies.push(await anon.post('/loginReact', { email: 'lockme@demo.local', password: `wrong-${i}` }, from('198.51.100.1')));
    // The fifth failure locks the account: 429 with Retry-After while the lock lasts (identity README).
    expect(replies.map((r) => r.status)).toEqual([401, 401, 401, 401, 429]);
    expect(replies[4]!.body.msg).toMatch(/locked/);
    const right = await anon.post('/loginReact', { email: 'lockme@demo.local', password: 'right-pass-1' }, from('198.51.100.2'));
    expect(right.status).toBe(429);
    expect(right.body.msg).toMatch(/locked/);
  });

  it('limits failed logins per address, whatever the accounts, and only that address', async () => {
    const anon = new Api(rig.gatewayUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await anon.post('/loginReact', { email: `nobody${i}@nowhere.in`, password: 'guess' }, from('203.0.113.7'))).status);
    expect(statuses).toEqual(Array(8).fill(401));
    const blocked = await anon.post('/loginReact', { email: ACCOUNTS.staff.email, password: ACCOUNTS.staff.password }, from('203.0.113.7'));
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/Too many failed logins from this address/);
    const other = await anon.post('/loginReact', { email: ACCOUNTS.staff.email, password: ACCOUNTS.staff.password }, from('203.0.113.8'));
    expect(other.status).toBe(200);
    secrets.push(other.body.token);
  });

  it('a token stops working after logout and after a password change', async () => {
    const t1 = await Api.login(rig.gatewayUrl, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
    expect((await t1.get('/getUserData')).status).toBe(200);
    expect((await t1.post('/logout')).status).toBe(200);
    expect((await t1.get('/getUserData')).status).toBe(401);
    // A service asked directly (not through the gateway) refuses it too, once the event arrives.
    await until('ledger to refuse the logged-out token', async () => (await fetch(`${rig.serviceUrl.ledger}/getAllClientsList`, { headers: { Authorization: `Bearer ${t1.token}` } })).status === 401);

    const a = await Api.login(rig.gatewayUrl, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
    const b = await Api.login(rig.gatewayUrl, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
    secrets.push(t1.token, a.token, b.token, 'staff-new-pass-9');
    const ch = await a.post('/manage/profile/edit/updatePassword', { current_password: ACCOUNTS.staff.password, new_password: 'staff-new-pass-9', re_type_new_password: 'staff-new-pass-9' });
    expect(ch.status).toBeLessThan(300);
    await until('the other session to end', async () => (await b.get('/getUserData')).status === 401);
    const c = await Api.login(rig.gatewayUrl, ACCOUNTS.staff.email, 'staff-new-pass-9');
    expect((await c.get('/getUserData')).status).toBe(200);
    secrets.push(c.token);
  });

  it('sends security headers and no x-powered-by', async () => {
    const res = await fetch(`${rig.gatewayUrl}/api/getUserData`, { headers: { Authorization: `Bearer ${mgrA.token}` } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('referrer-policy')).toBeTruthy();
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('no password, token or secret ever reaches a log', async () => {
    const found: string[] = [];
    for (const f of fs.readdirSync(rig.logDir)) {
      const text = fs.readFileSync(path.join(rig.logDir, f), 'utf8');
      for (const s of secrets) if (s && text.includes(s)) found.push(`${f} holds ${s.slice(0, 6)}…`);
      // A bearer token's signature part is never logged either.
      for (const s of secrets.filter((x) => x.startsWith('eyJ'))) if (text.includes(s.split('.')[2]!)) found.push(`${f} holds a token signature`);
    }
    expect(found).toEqual([]);
  });
});

// Hardening II (issue 27): bidi controls in names, live formulas in exports, a deleted company's
// share links. One company of its own (made by the admin, deleted at the end), through the gateway.
describe('names, exports and share links of a deleted company', () => {
  const RLO = '\u202E';
  const PDF = '\u202C';
  const RLI = '\u2067';
  const PDI = '\u2069';
  const BIDI = /[\u202A-\u202E\u2066-\u2069]/;
  const EVIL = '=HYPERLINK("http://ev.il","Pay")';
  let mgrC: Api;
  let companyC = 0;
  let saleC = 0;

  beforeAll(async () => {
    const made = await admin.post('/admin/createCompany', { cName: `Hardening ${RLO}serotS${PDF}`, cAdd: '1 Fort Road', cMob: '9811122299', mName: 'Deepak', mEmail: 'deepak@hardening.in' });
    expect(made.status).toBe(201);
    companyC = made.body.companyId;
    mgrC = await loginChanging('deepak@hardening.in', made.body.managerPassword, 'deepak-own-pass-1');
    secrets.push(made.body.managerPassword, 'deepak-own-pass-1', mgrC.token);
  }, 120_000);

  it('every service saves names and addresses without bidi controls, keeping Devanagari', async () => {
    const co = await mgrC.get('/getCompanyDetails');
    expect(co.body.name).toBe('Hardening serotS');
    const profile = { id: companyC, name: `${RLI}हार्डनिंग${PDI} Stores`, add1: `12 ${RLO}Fort Road${PDF}`, add2: '', mob1: '9811122299', mob2: '', email: '' };
    expect((await mgrC.post('/setCompanyDetails', profile)).status).toBe(200);
    expect((await mgrC.get('/getCompanyDetails')).body).toMatchObject({ name: 'हार्डनिंग Stores', add1: '12 Fort Road' });
    expect((await mgrC.post('/users', { name: `${RLO}Deepa${PDF} दीपा`, email: 'deepa@hardening.in', password: 'deepa-pass-123', position: 'staff' })).status).toBeLessThan(300);
    const users = JSON.stringify((await mgrC.get('/users')).body);
    expect(users).toContain('Deepa दीपा');
    const cat = await mgrC.post('/catagory/add', { name: `${RLO}Steel${PDF}`, belongs_to: null });
    expect(cat.status).toBe(200);
    const prod = await mgrC.post('/createNewProduct', { catagory: cat.body.id, brand_name: `${RLI}Milton${PDI}`, name: `Bottle ${RLO}gk1${PDF} बोतल`, mrp: '590', cp: '400', unit: 'pcs', per_peice_quantity: 1 });
    expect(prod.status).toBe(200);
    const details = (await mgrC.get(`/getProductDetails?id=${prod.body.id}`)).body;
    expect(details.product).toMatchObject({ product_name: 'Bottle gk1 बोतल', brand_name: 'Milton', category: { name: 'Steel' } });
    const cust = await mgrC.post('/clients/addClient', { mobile_no: '9876512345', name: `Ramesh ${RLO}gnp.exe${PDF} रमेश`, address_line_1: `${RLI}9 Ring Road${PDI}`, address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003' });
    expect(cust.status).toBe(200);
    expect(cust.body.customer).toMatchObject({ name: 'Ramesh gnp.exe रमेश', address_line_1: '9 Ring Road' });
    const dist = await mgrC.post('/addDistributor', { name: `${RLO}Eastern${PDF} Traders`, address_line_1: '5 Burrabazar', address_line_2: '', city_or_district: 'Kolkata', state: 'WB', country: 'India', postal_code: '700001', officers: [{ name: `Subir ${RLI}Das${PDI}`, mobile: '9830011122' }] });
    expect(dist.status).toBe(200);
    expect(dist.body.distributor.name).toBe('Eastern Traders');
    expect(dist.body.distributor.officers[0].name).toBe('Subir Das');
    const everything = JSON.stringify([users, details, cust.body, dist.body, (await mgrC.get('/getCompanyDetails')).body]);
    expect(everything).not.toMatch(BIDI);
  });

  it("no export carries a live formula: the GSTR-1 b2b CSV and the customers' list, amounts still numbers; delivery details saved clean", async () => {
    const gst = { id: companyC, name: 'हार्डनिंग Stores', add1: '12 Fort Road', add2: '', mob1: '9811122299', mob2: '', email: '', tax_mode: 'gst', gstin: '27AAPFU0939F1ZV', invoice_prefix: 'HS' };
    expect((await mgrC.post('/setCompanyDetails', gst)).status).toBe(200);
    const buyer = await mgrC.post('/clients/addClient', { mobile_no: '9876512346', name: EVIL, address_line_1: '1 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: '24AAGCS5678K1ZT' });
    expect(buyer.status).toBe(200);
    const cat = (await mgrC.post('/catagory/add', { name: 'Kitchen', belongs_to: null })).body.id;
    // 590.00 including 18 %: taxable 500.00, IGST 90.00 to Gujarat.
    const p = { catagory: cat, brand_name: 'Acme', name: '@SUM(1+1)', mrp: '590', cp: '400', unit: 'pcs', per_peice_quantity: 1, tax: '18', hsn_code: '7323' };
    const made = await mgrC.post('/createNewProduct', p);
    expect(made.status).toBe(200);
    expect((await mgrC.post('/editProduct', { ...p, product_id: made.body.id, stock: '10' })).status).toBe(200);
    expect((await mgrC.get(`/addProductIntoCart/${made.body.id}`)).status).toBe(200);
    const sale = await mgrC.post('/MAKE_SALE', { clientId: buyer.body.id, cart_no: 1, paid: '0' });
    expect(sale.status).toBe(200);
    saleC = sale.body.saleId;
    const b2b = await mgrC.get(`/gst/gstr1?period=${todayIST().slice(0, 7)}&format=csv&section=b2b`);
    expect(b2b.status).toBe(200);
    const rows = String(b2b.body).split('\r\n').filter((l) => l.includes('ev.il'));
    expect(rows).toHaveLength(1);
    // Before: 24AAGCS5678K1ZT,"=HYPERLINK(""http://ev.il"",""Pay"")",... (a live link in Excel).
    expect(rows[0]).toMatch(/^24AAGCS5678K1ZT,"'=HYPERLINK\(""http:\/\/ev\.il"",""Pay""\)",HS\/\d\d-\d\d\/\d{4},\d\d-[A-Z][a-z]{2}-\d{4},590\.00,24-Gujarat,N,,Regular B2B,,18,500\.00,$/);
    const list = await mgrC.get('/export/customers?format=csv');
    expect(list.status).toBe(200);
    expect(String(list.body)).toContain(`"'=HYPERLINK(""http://ev.il"",""Pay"")"`);
    expect(String(list.body)).not.toMatch(/(^|,)"?=HYPERLINK/m);
    const delivery = await mgrC.post('/delivery', { sale_id: saleC, transporter_name: `Shree ${RLO}scitsigoL${PDF}`, mobile: '9820011223', address: 'road', vehicleNumber: 'MH12 AB 1234', dispatched_date: todayIST() });
    expect(delivery.status).toBe(200);
    expect(delivery.body.data.transporter_name).toBe('Shree scitsigoL');
  });

  it("deleting a company revokes its share links; page and PDF answer the friendly 410 page, never JSON naming its id", async () => {
    const made = await mgrC.post('/share', { kind: 'bill', id: saleC });
    expect(made.status).toBe(200);
    const token = made.body.token as string;
    const open = (p: string) => fetch(`${rig.gatewayUrl}/s/${token}${p}`, { headers: { 'Accept-Language': 'en-IN' } });
    expect((await open('')).status).toBe(200);
    expect((await admin.call('DELETE', `/admin/company/delete/${companyC}`)).status).toBe(200);
    // The event revokes the link before anyone opens it again.
    const c = new MongoClient(rig.mongoUri);
    await c.connect();
    try {
      const link = await until('the link revoked by identity.company.deleted', async () => {
        const l = await c.db('bahi_documents').collection('share_links').findOne({ token });
        return l?.revokedAt ? l : null;
      }, 30_000);
      expect(link.companyId).toBe(companyC);
    } finally {
      await c.close();
    }
    for (const p of ['', '/pdf']) {
      const res = await open(p);
      const html = await res.text();
      expect(res.status).toBe(410);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(html).toContain('The shop has withdrawn this link.');
      expect(html).not.toContain(`Company ${companyC}`);
      expect(html).not.toMatch(/^\s*\{/);
    }
  });
});
