import fs from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { DOMParser } from '@xmldom/xmldom';
import { startStack, type Stack } from '@bahi/devstack';
import { today } from '@bahi/service-kit';

/**
 * GET /api/export/tally through the real owners (devstack: every service its own NATS user with
 * the permissions the contracts generate, JetStream on): a GST company's day of bills, a return,
 * a cancel, a purchase with its debit note and a payment, made through the gateway; the file is
 * valid against tally.xsd, uses the names set in Setting > Accountant, every voucher balances,
 * and the figures are the ones worked out by hand below.
 */
const XSD = fs.readFileSync(path.join(__dirname, '..', 'src', 'tally', 'tally.xsd'), 'utf8');
const GSTIN_MH = '27AAPFU0939F1ZV';
const GSTIN_GJ = '24AAGCS5678K1ZT';
const SHARMA = 'शर्मा & Sons <Retail> "Best"';

let stack: Stack;
let token = '';

async function call(method: string, p: string, body?: unknown, as = token) {
  const res = await fetch(`${stack.gatewayUrl}/api${p}`, {
    method,
    headers: { Accept: 'application/json', ...(as ? { Authorization: `Bearer ${as}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* XML */
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}
const ok = async (method: string, p: string, body?: unknown) => {
  const r = await call(method, p, body);
  if (r.status !== 200 && r.status !== 201) throw new Error(`${method} ${p}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.body;
};
async function until<T>(what: string, fn: () => Promise<T | null>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
const fill = async (items: [number, number][]) => {
  await ok('DELETE', '/clearCart/1');
  for (const [id, qty] of items) await ok('GET', `/addProductIntoCart/${encodeURIComponent(`${qty}*${id}`)}?cart_no=1`);
};

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'inventory', 'sales', 'ledger', 'reports'], env: { BAHI_DEMO: '1', BAHI_ADMIN_PASSWORD: 'admin12345', LOG_LEVEL: 'info' }, logs: 'files' });
  const login = await call('POST', '/loginReact', { email: 'manager@demo.local', password: 'manager12345' });
  expect(login.status).toBe(200);
  token = login.body.token;
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

it('a GST day exported for Tally: mapped names, Devanagari and & escaped, hand-computed vouchers, each balanced; staff 403, bad dates 400', async () => {
  const D = today();
  const login = await call('POST', '/loginReact', { email: 'manager@demo.local', password: 'manager12345' });
  const companyId = login.body.user.companyId as number;
  await ok('POST', '/setCompanyDetails', { id: companyId, name: 'Demo Traders', add1: '4 Station Road', add2: 'Pune', mob1: '9822001122', mob2: '', email: 'shop@demo.in', tax_mode: 'gst', gstin: GSTIN_MH, invoice_prefix: 'DT' });
  await ok('PUT', '/accountant/ledgers', { ledgers: { cash: 'Galla Cash', upi: 'PhonePe A/c', output_igst: 'IGST Payable' } });
  const cat = (await ok('POST', '/catagory/add', { name: 'Tally Goods', belongs_to: null })).id as number;
  const product = async (name: string, tax: string, hsn: string) => {
    const body = { catagory: cat, brand_name: 'Acme', name, mrp: '100', cp: '80', unit: 'pcs', per_peice_quantity: 1, tax, price_includes_tax: false, hsn_code: hsn };
    const id = (await ok('POST', '/createNewProduct', body)).id as number;
    await ok('POST', '/editProduct', { ...body, stock: '500', product_id: id });
    return id;
  };
  const r5 = await product('Rice Five', '5', '1006');
  const r18 = await product('Bottle Eighteen', '18', '7323');
  const sharma = (await ok('POST', '/clients/addClient', { mobile_no: '9876500031', name: SHARMA, address_line_1: '12 M.G. Road', address_line_2: '', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411001' })).id as number;
  const surat = (await ok('POST', '/clients/addClient', { mobile_no: '9876500032', name: 'Surat Traders', address_line_1: '9 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: GSTIN_GJ })).id as number;

  // Bill 1 (intra-state): 2 x 100 at 5 % = 200 + CGST 5 + SGST 5; 1 x 100 at 18 % = 100 + 9 + 9: 328.00, paid 200 cash + 128 UPI.
  await fill([[r5, 2], [r18, 1]]);
  const b1 = await ok('POST', '/MAKE_SALE', { clientId: sharma, cart_no: 1, paid: '328', payments: [{ mode: 'cash', amount: '200' }, { mode: 'upi', amount: '128', ref: 'UPI-991' }] });
  // Bill 2 (inter-state, cancelled): 1 x 100 at 18 % = 100 + IGST 18.
  await fill([[r18, 1]]);
  const b2 = await ok('POST', '/MAKE_SALE', { clientId: surat, cart_no: 1, paid: '0' });
  await ok('POST', '/cancelSale', { saleId: b2.saleId, reason: 'Wrong customer' });
  // Bill 3 (inter-state): 2 x 100 at 18 % = 200 + IGST 36 = 236, unpaid; then 100 received by cheque.
  await fill([[r18, 2]]);
  const b3 = await ok('POST', '/MAKE_SALE', { clientId: surat, cart_no: 1, paid: '0' });
  await ok('POST', '/salesDuePayment', { client_id: surat, amount: '100', payments: [{ mode: 'cheque', amount: '100', ref: 'CHQ 000777' }] });
  // Bill 1's 18 % line comes back: 100 + 9 + 9 = 118.00, nothing refunded.
  const bill1 = await ok('GET', `/getBillDetails?id=${b1.saleId}`);
  const line18 = (bill1.soldProducts as { sl_no: number; product_id: number }[]).find((l) => l.product_id === r18)!;
  await ok('POST', '/salesReturn', { saleId: b1.saleId, lines: [{ sl_no: line18.sl_no, quantity: 1 }], refund: 0, idempotencyKey: `tally-return-${Date.now()}` });
  // A purchase from a distributor: 10 x 80 at 18 % = 800 + CGST 72 + SGST 72 = 944, 500 paid by bank transfer;
  // then 2 back: 160 + 14.40 + 14.40 = 188.80, refunded in cash.
  const dist = (await ok('POST', '/addDistributor', { name: 'Gupta & Sons', address_line_1: '7 Market Yard', address_line_2: '', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411037', officers: [] })).id as number;
  await fill([[r18, 10]]);
  const bought = await ok('POST', '/checkOutPurchase', { bill_no: 'GS/1001', distributor: dist, officer: '', paid: '500', payments: [{ mode: 'bank', amount: '500' }], due_date: D, cart_no: 1 });
  const purchaseId = bought[0].purchaseId as number;
  const pd = await ok('GET', `/getPurchaseDetails?purchaseId=${purchaseId}`);
  const pl = (pd.purchasedProducts ?? pd.soldProducts ?? pd.lines) as { sl_no: number }[];
  await ok('POST', '/purchaseReturn', { purchaseId, lines: [{ sl_no: pl[0]!.sl_no, quantity: 2 }], refund: '188.80', idempotencyKey: `tally-pr-${Date.now()}` });

  // Tea for the shop, 90.00 from the drawer.
  await ok('POST', '/expenses', { date: D, category: 'tea', amount: '90', payments: [{ mode: 'cash', amount: '90' }], note: 'Tea & snacks' });

  // The read model lists the day's documents: 3 bills, 1 cancel, 1 credit note, 1 purchase, 1 debit note, 1 payment.
  await until('the day book to hold the day', async () => {
    const r = await call('GET', `/reports/daybook?date=${D}`);
    const kinds = (r.body?.rows ?? []).map((x: { kind: string }) => x.kind) as string[];
    const need = ['sale', 'sale', 'sale', 'sale-cancel', 'sale-return', 'purchase', 'purchase-return', 'payment-received', 'expense'];
    return need.every((k) => kinds.filter((x) => x === k).length >= need.filter((y) => y === k).length) ? true : null;
  });

  const res = await call('GET', `/export/tally?from=${D}&to=${D}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/xml/);
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="tally-${D}-to-${D}.xml"`);
  const xml = res.text;
  const valid = await validateXML({ xml: [{ fileName: 'tally.xml', contents: xml }], schema: [{ fileName: 'tally.xsd', contents: XSD }] });
  expect(valid.errors).toEqual([]);
  expect(xml).toContain('शर्मा &amp; Sons &lt;Retail&gt;');

  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const text = (el: any, tag: string) => el.getElementsByTagName(tag)[0]?.textContent ?? '';
  const vouchers = Array.from(doc.getElementsByTagName('VOUCHER')).map((v: any) => ({
    type: text(v, 'VOUCHERTYPENAME'),
    number: text(v, 'VOUCHERNUMBER'),
    party: text(v, 'PARTYLEDGERNAME'),
    cancelled: text(v, 'ISCANCELLED') === 'Yes',
    entries: Object.fromEntries(Array.from(v.getElementsByTagName('ALLLEDGERENTRIES.LIST')).map((e: any) => [text(e, 'LEDGERNAME'), text(e, 'AMOUNT')])) as Record<string, string>,
  }));
  for (const v of vouchers) expect(Object.values(v.entries).reduce((s, a) => s + Math.round(Number(a) * 100), 0)).toBe(0);
  const inv1 = bill1.saleDetails.invoice_no as string;
  const find = (type: string, number: string) => vouchers.find((v) => v.type === type && v.number === number);
  // Tally: a debit is a negative AMOUNT.
  expect(find('Sales', inv1)).toEqual({ type: 'Sales', number: inv1, party: SHARMA, cancelled: false, entries: { [SHARMA]: '-328.00', 'Sales GST 5%': '200.00', 'Sales GST 18%': '100.00', 'Output CGST': '14.00', 'Output SGST': '14.00' } });
  expect(find('Receipt', `${inv1}-R/1`)!.entries).toEqual({ 'Galla Cash': '-200.00', [SHARMA]: '200.00' });
  expect(find('Receipt', `${inv1}-R/2`)!.entries).toEqual({ 'PhonePe A/c': '-128.00', [SHARMA]: '128.00' });
  const bill2 = await ok('GET', `/getBillDetails?id=${b2.saleId}`);
  expect(find('Sales', bill2.saleDetails.invoice_no)).toMatchObject({ cancelled: true, entries: {} });
  const bill3 = await ok('GET', `/getBillDetails?id=${b3.saleId}`);
  expect(find('Sales', bill3.saleDetails.invoice_no)!.entries).toEqual({ 'Surat Traders': '-236.00', 'Sales GST 18%': '200.00', 'IGST Payable': '36.00' });
  const cn = vouchers.find((v) => v.type === 'Credit Note')!;
  expect(cn.entries).toEqual({ [SHARMA]: '118.00', 'Sales GST 18%': '-100.00', 'Output CGST': '-9.00', 'Output SGST': '-9.00' });
  expect(find('Purchase', 'GS/1001')).toMatchObject({ party: 'Gupta & Sons', entries: { 'Gupta & Sons': '944.00', 'Purchase GST 18%': '-800.00', 'Input CGST': '-72.00', 'Input SGST': '-72.00' } });
  expect(vouchers.find((v) => v.type === 'Payment' && v.party === 'Gupta & Sons')!.entries).toEqual({ 'Gupta & Sons': '-500.00', 'Bank Account': '500.00' });
  expect(vouchers.find((v) => v.type === 'Debit Note')!.entries).toEqual({ 'Gupta & Sons': '-188.80', 'Purchase GST 18%': '160.00', 'Input CGST': '14.40', 'Input SGST': '14.40' });
  expect(vouchers.find((v) => v.type === 'Receipt' && v.party === 'Gupta & Sons')!.entries).toEqual({ 'Galla Cash': '-188.80', 'Gupta & Sons': '188.80' });
  expect(vouchers.find((v) => v.type === 'Receipt' && v.party === 'Surat Traders')!.entries).toEqual({ Cheques: '-100.00', 'Surat Traders': '100.00' });
  expect(find('Payment', 'EXP-1')).toEqual({ type: 'Payment', number: 'EXP-1', party: 'Tea and Refreshments', cancelled: false, entries: { 'Tea and Refreshments': '-90.00', 'Galla Cash': '90.00' } });
  expect(vouchers.map((v) => v.type).sort()).toEqual(['Credit Note', 'Debit Note', 'Payment', 'Payment', 'Purchase', 'Receipt', 'Receipt', 'Receipt', 'Receipt', 'Sales', 'Sales', 'Sales'].sort());

  // Voucher totals per type equal the registers of the range (cancelled bills count nothing).
  const total = (type: string) => vouchers.filter((v) => v.type === type && !v.cancelled).reduce((sum, v) => sum + Math.abs(Math.round(Number(v.entries[v.party]) * 100)), 0);
  const paise = (x: string | number) => Math.round(Number(x) * 100);
  const sreg = (await ok('GET', `/reports/sales-register?from=${D}&to=${D}`)).rows as { amount: string; returned: string; cancelled: boolean }[];
  const preg = (await ok('GET', `/reports/purchase-register?from=${D}&to=${D}`)).rows as { amount: string; returned: string }[];
  expect(total('Sales')).toBe(sreg.filter((r) => !r.cancelled).reduce((sum, r) => sum + paise(r.amount), 0));
  expect(total('Credit Note')).toBe(sreg.reduce((sum, r) => sum + paise(r.returned), 0));
  expect(total('Purchase')).toBe(preg.reduce((sum, r) => sum + paise(r.amount), 0));
  expect(total('Debit Note')).toBe(preg.reduce((sum, r) => sum + paise(r.returned), 0));
  expect([total('Sales'), total('Credit Note'), total('Purchase'), total('Debit Note')]).toEqual([56400, 11800, 94400, 18880]);

  // The masters: each party once with its GSTIN and state; the mapped ledgers under their groups.
  const ledgers = new Map(Array.from(doc.getElementsByTagName('LEDGER')).map((l: any) => [l.getAttribute('NAME'), l]));
  expect(text(ledgers.get('Surat Traders'), 'PARTYGSTIN')).toBe(GSTIN_GJ);
  expect(text(ledgers.get('Surat Traders'), 'PARENT')).toBe('Sundry Debtors');
  expect(text(ledgers.get('Gupta & Sons'), 'PARENT')).toBe('Sundry Creditors');
  expect(text(ledgers.get('Galla Cash'), 'PARENT')).toBe('Cash-in-Hand');
  expect(text(ledgers.get('IGST Payable'), 'GSTDUTYHEAD')).toBe('Integrated Tax');
  expect(ledgers.has('Cash')).toBe(false);
  expect(text(ledgers.get('Tea and Refreshments'), 'PARENT')).toBe('Indirect Expenses');

  // Refusals: staff, bad or reversed dates, a year.
  const staff = (await call('POST', '/loginReact', { email: 'staff@demo.local', password: 'staff12345' })).body.token as string;
  const denied = await call('GET', `/export/tally?from=${D}&to=${D}`, undefined, staff);
  expect([denied.status, denied.body.message]).toEqual([403, expect.any(String)]);
  expect((await call('GET', '/export/tally?from=2026-13-01&to=2026-12-31')).body.message).toBe('Choose the dates to export: from and to, written YYYY-MM-DD (for example 2026-04-01).');
  expect((await call('GET', '/export/tally?from=2026-05-02&to=2026-05-01')).status).toBe(400);
  const year = await call('GET', '/export/tally?from=2026-01-01&to=2026-12-31');
  expect([year.status, year.body.message]).toEqual([400, 'One Tally file covers at most 31 days (a month); you chose 365. Download a month at a time.']);
}, 180_000);
