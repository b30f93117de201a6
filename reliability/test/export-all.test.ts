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

/** The first sheet's rows as header -> value (numbers as numbers, dates as YYYY-MM-DD). */
async function recordsOf(data: Buffer): Promise<Record<string, string | number | null>[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(data as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const out: Record<string, string | number | null>[] = [];
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    const rec: Record<string, string | number | null> = {};
    headers.forEach((h, i) => {
      const v = row.getCell(i + 1).value;
      rec[h] = v instanceof Date ? v.toISOString().slice(0, 10) : v === undefined || v === '' ? null : (v as string | number | null);
    });
    out.push(rec);
  });
  return out;
}

let staffUid = 0;
let managerUid = 0;

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
  // Bill 2: two of product 2 (2150.00 each, no tax flag) = 4300.00, paid 1000.00 cash + 3300.00 UPI.
  expect((await staffA.get('/addProductIntoCart/2?quantity=2')).status).toBe(200);
  const split = await staffA.post('/MAKE_SALE', { clientId: clients[0].id, cart_no: 1, paid: '4300', payments: [{ mode: 'cash', amount: '1000' }, { mode: 'upi', amount: '3300', ref: 'UPI 9001' }] });
  expect(split.status).toBe(200);
  expect(split.body.saleId).toBe(2);
  expect((await staffA.post('/salesDuePayment', { client_id: clients[0].id, amount: '250', nextDD: todayIST(), payments: [{ mode: 'cheque', amount: '250', ref: 'CHQ 12' }] })).status).toBe(200);
  expect((await mgrA.post('/purchaseDuePaymentReact', { distributorId: dists[0].id, amount: '100', nextDD: todayIST(), payments: [{ mode: 'bank', amount: '100', ref: 'NEFT 5' }] })).status).toBe(200);
  staffUid = (await staffA.get('/getUserData')).body.user.id;
  managerUid = (await mgrA.get('/getUserData')).body.user.id;

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
    expect(names).toEqual([
      'credit-notes.xlsx', 'customers.xlsx', 'debit-notes.xlsx', 'distributors.xlsx', 'estimates.xlsx', 'ledgers.xlsx', 'payments.xlsx',
      'products.xlsx', 'purchase-lines.xlsx', 'purchases.xlsx', 'sale-lines.xlsx', 'sales.xlsx', 'stock-movements.xlsx',
    ]);
    const rows: Record<string, string[][]> = {};
    for (const n of names) rows[n] = await rowsOf(await zip.file(n)!.async('nodebuffer'));

    // Counted against what company A has, read through the ordinary list calls.
    const productCount = (await mgrA.get('/getProductList?pageNo=0')).body.count as number;
    expect(rows['products.xlsx']).toHaveLength(productCount);
    const customers = (await mgrA.get('/getClientsList?pageNo=0')).body;
    expect(rows['customers.xlsx']!.length).toBe(customers.count ?? customers.clientsList.length);
    expect(rows['distributors.xlsx']).toHaveLength((await mgrA.get('/getAllDistributorsList')).body.allDistributorsList.length);
    // What the test made: two bills, one estimate, one purchase, one credit note, one debit note.
    expect(rows['sales.xlsx']).toHaveLength(2);
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

  it('holds the lines of every bill and purchase, the stock movements and the payments with their modes, hand-computed', async () => {
    const res = await download(mgrA);
    expect(res.status).toBe(200);
    const zip = await JSZip.loadAsync(Buffer.from(await res.arrayBuffer()));
    const sheet = async (n: string) => recordsOf(await zip.file(n)!.async('nodebuffer'));
    const today = todayIST();
    const pick = (recs: Record<string, unknown>[], keys: string[]) => recs.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])));

    // Bill 1: one Greenply Club 18mm at 2850.00; bill 2: two Greenply Club 12mm at 2150.00 = 4300.00. Simple mode: no tax per line.
    const saleLines = await sheet('sale-lines.xlsx');
    expect(pick(saleLines, ['Bill no', 'Date', 'Product ID', 'Product', 'Quantity', 'Unit', 'Rate', 'Discount', 'Price', 'Amount', 'Taxable value', 'CGST'])).toEqual([
      { 'Bill no': 1, Date: today, 'Product ID': 1, Product: 'Greenply Club 18mm MR Plywood', Quantity: 1, Unit: 'sheet', Rate: 2850, Discount: 0, Price: 2850, Amount: 2850, 'Taxable value': null, CGST: null },
      { 'Bill no': 2, Date: today, 'Product ID': 2, Product: 'Greenply Club 12mm MR Plywood', Quantity: 2, Unit: 'sheet', Rate: 2150, Discount: 0, Price: 2150, Amount: 4300, 'Taxable value': null, CGST: null },
    ]);

    // Purchase 1: one Greenply Ecotec 6mm at its cost price 810.00.
    const purchaseLines = await sheet('purchase-lines.xlsx');
    expect(pick(purchaseLines, ['Purchase ID', 'Date', "Distributor's bill no", 'Product ID', 'Product', 'Quantity', 'Rate', 'Discount', 'Amount'])).toEqual([
      { 'Purchase ID': 1, Date: today, "Distributor's bill no": 'A-1', 'Product ID': 3, Product: 'Greenply Ecotec 6mm Plywood', Quantity: 1, Rate: 810, Discount: 0, Amount: 810 },
    ]);

    // Stock book of products 1-3 (demo openings 42, 35, 8): sold 1 and returned 1; sold 2; bought 1 and returned 1.
    const moves = await sheet('stock-movements.xlsx');
    const of = (id: number) => pick(moves.filter((m) => m['Product ID'] === id), ['Type', 'Document ID', 'Quantity', 'Stock after']);
    expect(of(1)).toEqual([
      { Type: 'Adjustment', 'Document ID': expect.any(Number), Quantity: 42, 'Stock after': 42 },
      { Type: 'Sell', 'Document ID': 1, Quantity: -1, 'Stock after': 41 },
      { Type: 'Sale return', 'Document ID': 1, Quantity: 1, 'Stock after': 42 },
    ]);
    expect(of(2)).toEqual([
      { Type: 'Adjustment', 'Document ID': expect.any(Number), Quantity: 35, 'Stock after': 35 },
      { Type: 'Sell', 'Document ID': 2, Quantity: -2, 'Stock after': 33 },
    ]);
    expect(of(3)).toEqual([
      { Type: 'Adjustment', 'Document ID': expect.any(Number), Quantity: 8, 'Stock after': 8 },
      { Type: 'Buy', 'Document ID': 1, Quantity: 1, 'Stock after': 9 },
      { Type: 'Purchase return', 'Document ID': 1, Quantity: -1, 'Stock after': 8 },
    ]);
    expect(moves.every((m) => m.Product !== B_PRODUCT)).toBe(true);

    // Payments: bill 1 and both notes moved no money; bill 2's two tenders, the cheque received, the bank transfer given.
    const payments = await sheet('payments.xlsx');
    const ofParty = (party: string, id: number) => pick(payments.filter((p) => p.Party === party && p['Party ID'] === id), ['Date', 'Type', 'Ref', 'Mode', 'Amount', 'Reference', 'By (user ID)']);
    expect(ofParty('Customer', clientA)).toEqual([
      { Date: today, Type: 'Sale', Ref: 2, Mode: 'Cash', Amount: 1000, Reference: null, 'By (user ID)': staffUid },
      { Date: today, Type: 'Sale', Ref: 2, Mode: 'UPI', Amount: 3300, Reference: 'UPI 9001', 'By (user ID)': staffUid },
      { Date: today, Type: 'Payment Received', Ref: expect.any(Number), Mode: 'Cheque', Amount: 250, Reference: 'CHQ 12', 'By (user ID)': staffUid },
    ]);
    expect(ofParty('Distributor', distA)).toEqual([
      // The demo seed's payment to its first distributor, 8 days back: 5000.00 + 0 x 1500.00, cash (no mode recorded), by no one known.
      { Date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), Type: 'Payment Given', Ref: expect.any(Number), Mode: 'Cash', Amount: 5000, Reference: null, 'By (user ID)': null },
      { Date: today, Type: 'Payment Given', Ref: expect.any(Number), Mode: 'Bank transfer', Amount: 100, Reference: 'NEFT 5', 'By (user ID)': managerUid },
    ]);
    expect(JSON.stringify(payments)).not.toContain(B_CUSTOMER);
  }, 120_000);

  it('staff are refused with a sentence, and no token is a 401', async () => {
    const res = await download(staffA);
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe('Only a manager can download all of the company’s data.');
    const anon = await fetch(`${rig.gatewayUrl}/api/export/all`);
    expect(anon.status).toBe(401);
  });
});
