// The upgrade snapshot (issue 30): a small data folder made by a release, kept in the repository,
// that the next releases must start on (reliability/test/upgrade-snapshot.test.ts). This file
// makes its business through the gateway, as the shop would; snapshot-make.ts packs it.
import path from 'node:path';
import { ACCOUNTS, Api, todayIST, type Reply } from './api';
import { until } from './rig';

export const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
/** A `.bahi` backup (devstack's format), unencrypted. */
export const SNAPSHOT_FILE = path.join(FIXTURES, 'upgrade-snapshot.bahi');
/** What the snapshot holds, for the test: logins, bills, data versions. Names only the shop's test data. */
export const SNAPSHOT_FACTS = path.join(FIXTURES, 'upgrade-snapshot.json');

export interface SnapshotCompany {
  name: string;
  tax_mode: 'simple' | 'gst';
  manager: { email: string; password: string };
  staff?: { email: string; password: string };
  /** Every bill: its id, the number it prints (the invoice number in GST mode) and, when cancelled, the reason printed on it. */
  bills: { saleId: number; number: string; cancelReason: string | null }[];
  purchases: number[];
  creditNotes: number;
  debitNotes: number;
  estimates: number;
  paymentsReceived: number;
  paymentsGiven: number;
}

export interface SnapshotFacts {
  /** The product version that made it (gateway/package.json) and when. */
  version: string;
  madeAt: string;
  admin: { email: string; password: string };
  companies: SnapshotCompany[];
  /** Each service's recorded data version at the time (the `migrations` collection). */
  dataVersions: Record<string, number>;
}

const GST_COMPANY = {
  name: 'Snapshot GST Traders',
  email: 'gst.manager@snapshot.in',
  password: 'snapshot-gst-123',
  gstin: '27AAPFU0939F1ZV',
};

function must<T = any>(r: Reply<T>, what: string): T {
  if (r.status < 200 || r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The cart's total as the counter shows it, in rupees with 2 decimals. */
async function cartTotal(api: Api, cart: number): Promise<string> {
  const total = must(await api.get(`/getProducts?cart_no=${cart}`), 'the cart').summery.total as number;
  return total.toFixed(2);
}

/**
 * One company's business: a purchase (part paid by cheque) and a purchase return; bills paid in
 * cash, split cash + UPI and on credit; a return, a cancelled bill, an estimate; a payment
 * received (UPI) and one given (bank transfer).
 */
async function business(manager: Api, staff: Api, ids: { customer: number; distributor: number; products: number[] }, tag: string, c: SnapshotCompany) {
  const [p1, p2, p3] = ids.products;
  must(await manager.get(`/addProductIntoCart/${p3}?cart_no=2&quantity=4`), 'the purchase cart');
  must(await manager.get(`/addProductIntoCart/${p1}?cart_no=2&quantity=2`), 'the purchase cart');
  const buy = must(
    await manager.post('/checkOutPurchase', { bill_no: `${tag}-P1`, distributor: ids.distributor, officer: '', paid: '500', payments: [{ mode: 'cheque', amount: '500', ref: 'CHQ 100231' }], due_date: todayIST(), cart_no: 2 }),
    'the purchase',
  );
  const purchaseId = buy[0].purchaseId as number;
  c.purchases.push(purchaseId);
  const bought = must(await manager.get(`/getPurchaseDetails?purchaseId=${purchaseId}`), 'the purchase').lines[0].sl_no;
  must(await manager.post('/purchaseReturn', { purchaseId, lines: [{ sl_no: bought, quantity: 1 }], refund: '0', idempotencyKey: `${tag}-dn` }), 'the purchase return');
  c.debitNotes++;

  const sell = async (who: Api, lines: [number, number][], pay: (total: string) => Record<string, unknown>) => {
    for (const [p, q] of lines) must(await who.get(`/addProductIntoCart/${p}?cart_no=1&quantity=${q}`), 'the cart');
    const total = await cartTotal(who, 1);
    const sale = must(await who.post('/MAKE_SALE', { clientId: ids.customer, cart_no: 1, ...pay(total) }), 'the sale');
    return sale.saleId as number;
  };
  const cash = await sell(staff, [[p1, 1], [p2, 2]], (t) => ({ paid: t }));
  const split = await sell(staff, [[p2, 1]], (t) => {
    const upi = (Number(t) - 100).toFixed(2); // a test figure, not the product's arithmetic
    return { paid: t, payments: [{ mode: 'cash', amount: '100' }, { mode: 'upi', amount: upi, ref: 'UPI 4471' }] };
  });
  const credit = await sell(manager, [[p1, 1]], () => ({ paid: '0' }));
  const cancelled = await sell(manager, [[p2, 1]], () => ({ paid: '0' }));
  const reason = 'Typed the wrong customer';
  must(await manager.post('/cancelSale', { saleId: cancelled, reason }), 'the cancellation');
  const sold = must(await manager.get(`/getBillDetails?id=${cash}`), 'the bill').soldProducts[0].sl_no;
  must(await manager.post('/salesReturn', { saleId: cash, lines: [{ sl_no: sold, quantity: 1 }], refund: '0', idempotencyKey: `${tag}-cn` }), 'the sales return');
  c.creditNotes++;
  must(await staff.get(`/addProductIntoCart/${p3}?cart_no=1`), 'the estimate cart');
  must(await staff.get(`/createEstimate?cart_no=1&clientId=${ids.customer}`), 'the estimate');
  c.estimates++;
  must(await staff.post('/salesDuePayment', { client_id: ids.customer, amount: '200', nextDD: todayIST(), payments: [{ mode: 'upi', amount: '200', ref: 'UPI 5520' }] }), 'the payment received');
  c.paymentsReceived++;
  must(await manager.post('/purchaseDuePaymentReact', { distributorId: ids.distributor, amount: '150', nextDD: todayIST(), payments: [{ mode: 'bank', amount: '150', ref: 'NEFT 88' }] }), 'the payment given');
  c.paymentsGiven++;
  for (const saleId of [cash, split, credit, cancelled]) {
    const d = must(await manager.get(`/getBillDetails?id=${saleId}`), 'the bill');
    c.bills.push({ saleId, number: d.saleDetails?.invoice_no || String(saleId), cancelReason: saleId === cancelled ? reason : null });
  }
}

/** Logs in with a temporary password and sets the user's own when asked to. */
async function ownPassword(gatewayUrl: string, email: string, temporary: string, own: string): Promise<Api> {
  const first = must(await new Api(gatewayUrl).post('/loginReact', { email, password: temporary }), `${email}'s first login`);
  if (!first.forceChange) throw new Error(`${email}: a temporary password is expected to be changed at the first login.`);
  const api = new Api(gatewayUrl, first.token);
  must(await api.post('/manage/profile/edit/updatePassword', { current_password: temporary, new_password: own, re_type_new_password: own }), `${email}'s password`);
  return Api.login(gatewayUrl, email, own);
}

/** Makes the snapshot's business on a rig started with the demo company (simple mode). */
export async function makeSnapshotBusiness(gatewayUrl: string): Promise<SnapshotCompany[]> {
  const admin = await Api.login(gatewayUrl, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  const mgrA = await Api.login(gatewayUrl, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  const staffA = await Api.login(gatewayUrl, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await until('the demo products', async () => (await mgrA.get('/getProductList?pageNo=0')).body?.count >= 10);
  const clients = await until('the demo customers', async () => {
    const r = await mgrA.get('/getClientsList?pageNo=0');
    return r.body?.clientsList?.length > 0 && r.body.clientsList;
  });
  const dists = await until('the demo distributors', async () => {
    const r = await mgrA.get('/getAllDistributorsList');
    return r.body?.allDistributorsList?.length > 0 && r.body.allDistributorsList;
  });
  const simple: SnapshotCompany = {
    name: must(await mgrA.get('/getCompanyDetails'), 'company A').name,
    tax_mode: 'simple',
    manager: ACCOUNTS.manager,
    staff: ACCOUNTS.staff,
    bills: [], purchases: [], creditNotes: 0, debitNotes: 0, estimates: 0, paymentsReceived: 0, paymentsGiven: 0,
  };
  await business(mgrA, staffA, { customer: clients[0].id, distributor: dists[0].id, products: [1, 2, 3] }, 'S', simple);

  // The GST company: created by the admin, its manager's own password, GST mode in Maharashtra.
  const made = must(await admin.post('/admin/createCompany', { cName: GST_COMPANY.name, cAdd: '4 Station Road', cMob: '9822001122', mName: 'Gita', mEmail: GST_COMPANY.email }), 'the GST company');
  const mgr = await ownPassword(gatewayUrl, GST_COMPANY.email, made.managerPassword, GST_COMPANY.password);
  must(await mgr.post('/setCompanyDetails', { id: made.companyId, name: GST_COMPANY.name, add1: '4 Station Road', add2: 'Pune', mob1: '9822001122', mob2: '', email: 'shop@snapshot.in', tax_mode: 'gst', gstin: GST_COMPANY.gstin, invoice_prefix: 'SG' }), 'GST mode');
  const cat = must(await mgr.post('/catagory/add', { name: 'Kitchen', belongs_to: null }), 'a category').id;
  const products: number[] = [];
  // 590.00 including 18 %; 236.00 including 18 %; 105.00 including 5 %.
  for (const [name, mrp, cp, tax, hsn] of [['Steel Bottle 1 L', '590', '400', '18', '7323'], ['Steel Tiffin 3 Tier', '236', '150', '18', '7323'], ['Tea Strainer', '105', '60', '5', '7323']]) {
    products.push(must(await mgr.post('/createNewProduct', { catagory: cat, brand_name: 'Acme', name, mrp, cp, unit: 'pcs', per_peice_quantity: 1, tax, hsn_code: hsn }), name).id);
  }
  const buyer = must(await mgr.post('/clients/addClient', { mobile_no: '9876512346', name: 'Surat Kitchen Mart', address_line_1: '1 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: '24AAGCS5678K1ZT' }), 'a B2B customer').id;
  const dist = must(await mgr.post('/addDistributor', { name: 'Deccan Steel Suppliers', address_line_1: '5 Market Yard', address_line_2: '', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411037', officers: [] }), 'a distributor').id;
  must(await mgr.post('/users', { name: 'Sunil', email: 'gst.staff@snapshot.in', password: 'snapshot-temp-123', position: 'staff' }), 'a staff member');
  const staff = await ownPassword(gatewayUrl, 'gst.staff@snapshot.in', 'snapshot-temp-123', 'snapshot-staff-123');
  const gst: SnapshotCompany = {
    name: GST_COMPANY.name,
    tax_mode: 'gst',
    manager: { email: GST_COMPANY.email, password: GST_COMPANY.password },
    staff: { email: 'gst.staff@snapshot.in', password: 'snapshot-staff-123' },
    bills: [], purchases: [], creditNotes: 0, debitNotes: 0, estimates: 0, paymentsReceived: 0, paymentsGiven: 0,
  };
  await business(mgr, staff, { customer: buyer, distributor: dist, products }, 'G', gst);
  return [simple, gst];
}
