// Manager > Setting > "Download all data": GET /api/export/all through the gateway, the whole
// stack running. One zip of XLSX lists, the company's own rows only; staff refused.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { ACCOUNTS, Api, todayIST } from '../src/api';
import { Rig, until } from '../src/rig';

let rig: Rig;
let mgrA: Api;
let staffA: Api;
let mgrB: Api;
let clientA = 0;
let distA = 0;
const B_CUSTOMER = 'Zorawar Isolation Buyer';
const B_PRODUCT = 'Zircon Isolation Lamp';
const B_DISTRIBUTOR = 'Zenith Isolation Suppliers';

async function download(api: Api): Promise<Response> {
  return fetch(`${rig.gatewayUrl}/api/export/all`, { headers: { Authorization: `Bearer ${api.token}` } });
}

/** The data rows (below the header row) of an XLSX file's first sheet, as text. */
async function rowsOf(data: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(data as unknown as ArrayBuffer);
  const out: string[][] = [];
  book.worksheets[0]!.eachRow((row, n) => {
    if (n === 1) return;
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (c) => cells.push(c.text));
    out.push(cells);
  });
  return out;
}

beforeAll(async () => {
  rig = await Rig.start({ env: { BAHI_ADMIN_PASSWORD: ACCOUNTS.admin.password } });
  const admin = await Api.login(rig.gatewayUrl, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  mgrA = await Api.login(rig.gatewayUrl, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  staffA = await Api.login(rig.gatewayUrl, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await until('the demo products', async () => (await mgrA.get('/getProductList?pageNo=0')).body?.count >= 10);
  const clients = await until('the demo customers', async () => {
    const r = await staffA.get('/getClientsList?pageNo=0');
    return r.body?.clientsList?.length > 0 && r.body.clientsList;
  });
  const dists = await until('the demo distributors', async () => {
    const r = await mgrA.get('/getAllDistributorsList');
    return r.body?.allDistributorsList?.length > 0 && r.body.allDistributorsList;
  });
  clientA = clients[0].id;
  distA = dists[0].id;
  // Company A: a sale, an estimate, a purchase, a credit note and a debit note.
  expect((await staffA.get('/addProductIntoCart/1')).status).toBe(200);
  expect((await staffA.post('/MAKE_SALE', { clientId: clients[0].id, cart_no: 1, paid: '0' })).status).toBe(200);
  expect((await staffA.get('/addProductIntoCart/2')).status).toBe(200);
  expect((await staffA.get(`/createEstimate?cart_no=1&clientId=${clients[0].id}`)).status).toBe(200);
  expect((await mgrA.get('/addProductIntoCart/3?cart_no=2')).status).toBe(200);
  const buy = await mgrA.post('/checkOutPurchase', { bill_no: 'A-1', distributor: dists[0].id, officer: '', paid: '0', due_date: todayIST(), cart_no: 2 });
  expect(buy.status).toBe(200);
  const soldLine = (await mgrA.get('/getBillDetails?id=1')).body.soldProducts[0].sl_no;
  expect((await mgrA.post('/salesReturn', { saleId: 1, lines: [{ sl_no: soldLine, quantity: 1 }], refund: '0', idempotencyKey: 'all-cn' })).status).toBe(200);
  const boughtLine = (await mgrA.get('/getPurchaseDetails?purchaseId=1')).body.lines[0].sl_no;
  expect((await mgrA.post('/purchaseReturn', { purchaseId: 1, lines: [{ sl_no: boughtLine, quantity: 1 }], refund: '0', idempotencyKey: 'all-dn' })).status).toBe(200);

  // Company B, with names that must never appear in A's zip.
  const made = await admin.post('/admin/createCompany', { cName: 'Isolation Works', cAdd: '1 Other Road', cMob: '9811122233', mName: 'Bina', mEmail: 'bina@isolation.in' });
  expect(made.status).toBe(201);
  const first = await new Api(rig.gatewayUrl).post('/loginReact', { email: 'bina@isolation.in', password: made.body.managerPassword });
  let b = new Api(rig.gatewayUrl, first.body.token);
  if (first.body.forceChange) {
    const fresh = 'bina-own-pass-1';
    await b.post('/manage/profile/edit/updatePassword', { current_password: made.body.managerPassword, new_password: fresh, re_type_new_password: fresh });
    b = await Api.login(rig.gatewayUrl, 'bina@isolation.in', fresh);
  }
  mgrB = b;
  const cat = await mgrB.post('/catagory/add', { name: 'Lamps', belongs_to: null });
  expect(cat.status).toBe(200);
  expect((await mgrB.post('/createNewProduct', { catagory: cat.body.id, brand_name: 'Zed', name: B_PRODUCT, mrp: '100', cp: '60', unit: 'pcs', per_peice_quantity: 1 })).status).toBe(200);
  const cust = await mgrB.post('/clients/addClient', { mobile_no: '9876512399', name: B_CUSTOMER, address_line_1: '2 Lane', address_line_2: '', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411001' });
  expect(cust.status).toBe(200);
  const dist = await mgrB.post('/addDistributor', { name: B_DISTRIBUTOR, address_line_1: '5 Market', address_line_2: '', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411002', officers: [] });
  expect(dist.status).toBe(200);
}, 300_000);

afterAll(async () => {
  await rig?.stop();
});

describe('GET /api/export/all', () => {
  it("a manager gets one zip of XLSX lists holding exactly the company's rows; company B's names are absent", async () => {
    const res = await download(mgrA);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="bahi-all-data-\d{4}-\d\d-\d\d\.zip"$/);
    const zip = await JSZip.loadAsync(Buffer.from(await res.arrayBuffer()));
    const names = Object.keys(zip.files).sort();
    expect(names).toEqual(['credit-notes.xlsx', 'customers.xlsx', 'debit-notes.xlsx', 'distributors.xlsx', 'estimates.xlsx', 'ledgers.xlsx', 'products.xlsx', 'purchases.xlsx', 'sales.xlsx']);
    const rows: Record<string, string[][]> = {};
    for (const n of names) rows[n] = await rowsOf(await zip.file(n)!.async('nodebuffer'));

    // Counted against what company A has, read through the ordinary list calls.
    const productCount = (await mgrA.get('/getProductList?pageNo=0')).body.count as number;
    expect(rows['products.xlsx']).toHaveLength(productCount);
    const customers = (await mgrA.get('/getClientsList?pageNo=0')).body;
    expect(rows['customers.xlsx']!.length).toBe(customers.count ?? customers.clientsList.length);
    expect(rows['distributors.xlsx']).toHaveLength((await mgrA.get('/getAllDistributorsList')).body.allDistributorsList.length);
    // What the test made: one bill, one estimate, one purchase, one credit note, one debit note.
    expect(rows['sales.xlsx']).toHaveLength(1);
    expect(rows['estimates.xlsx']).toHaveLength(1);
    expect(rows['purchases.xlsx']).toHaveLength(1);
    expect(rows['credit-notes.xlsx']).toHaveLength(1);
    expect(rows['debit-notes.xlsx']).toHaveLength(1);

    // The ledgers sheet: each party's rows are its own account export's rows (the customer billed and the distributor bought from).
    for (const [kind, id] of [['customer', clientA], ['distributor', distA]] as const) {
      const own = await fetch(`${rig.gatewayUrl}/api/export/${kind}History?id=${id}&format=xlsx`, { headers: { Authorization: `Bearer ${mgrA.token}` } });
      expect(own.status).toBe(200);
      const ownRows = await rowsOf(Buffer.from(await own.arrayBuffer()));
      expect(ownRows.length).toBeGreaterThan(0);
      const inZip = rows['ledgers.xlsx']!.filter((r) => r[0] === (kind === 'customer' ? 'Customer' : 'Distributor') && r[1] === String(id)).map((r) => r.slice(3));
      expect(inZip).toEqual(ownRows);
    }
    const everything = JSON.stringify(rows);
    for (const name of [B_CUSTOMER, B_PRODUCT, B_DISTRIBUTOR]) expect(everything).not.toContain(name);

    // Company B's own zip has its rows and none of A's.
    const resB = await download(mgrB);
    expect(resB.status).toBe(200);
    const zipB = await JSZip.loadAsync(Buffer.from(await resB.arrayBuffer()));
    const bRows = {
      products: await rowsOf(await zipB.file('products.xlsx')!.async('nodebuffer')),
      customers: await rowsOf(await zipB.file('customers.xlsx')!.async('nodebuffer')),
      sales: await rowsOf(await zipB.file('sales.xlsx')!.async('nodebuffer')),
    };
    expect(bRows.products).toHaveLength(1);
    expect(JSON.stringify(bRows.products)).toContain(B_PRODUCT);
    expect(bRows.customers.some((r) => r.includes(B_CUSTOMER))).toBe(true);
    expect(bRows.sales).toHaveLength(0);
  }, 120_000);

  it('staff are refused with a sentence, and no token is a 401', async () => {
    const res = await download(staffA);
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe('Only a manager can download all of the company’s data.');
    const anon = await fetch(`${rig.gatewayUrl}/api/export/all`);
    expect(anon.status).toBe(401);
  });
});
