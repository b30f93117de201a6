// Issue 31 as the accountant uses it: Setting's dispatch PIN, a bill above Rs 50,000 marked
// "E-way bill needed", the delivery form's e-way bill fields, the portal JSON downloaded from the
// delivery page and the number saved back; then Purchases > GSTR-2B with a hand-made 2B file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ACCOUNTS, login, managerWithCatalogue, startE2E, type E2E } from '../src/harness';

const MH_GSTIN = '27AAPFU0939F1ZV';
const GJ_GSTIN = '24AAGCS5678K1ZT';
// Demo catalogue (services/inventory seed): cp 2380.00, 18 %, HSN 4412.
const P1 = 1;

let e2e: E2E;
let page: Page;
let manager: string;
let distributor: number;
let saleId: number;

async function ok<T = unknown>(method: string, p: string, body?: unknown): Promise<T> {
  const r = await e2e.api<T>(method, p, { token: manager, body });
  if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
const today = () => new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales'] });
  manager = await managerWithCatalogue(e2e);
  const company = await ok<Record<string, string>>('GET', '/getCompanyDetails');
  await ok('POST', '/setCompanyDetails', { id: company.id, name: company.name, add1: company.add1 || 'Mumbai', mob1: company.mob1 || '9876543210', email: company.email || 'demo@demo.local', tax_mode: 'gst', gstin: MH_GSTIN, invoice_prefix: 'GT' });
  distributor = (
    await ok<{ id: number }>('POST', '/addDistributor', {
      name: 'Surat Plywood House', address_line_1: '9 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: GJ_GSTIN, officers: [{ name: 'Ramesh', mobile: '9825012345' }],
    })
  ).id;
  // 30 sheets to an unregistered customer in Mumbai: well above Rs 50,000.
  const client = await ok<{ id: number }>('POST', '/clients/addClient', { mobile_no: '9876500077', name: 'Mumbai Interiors', address_line_1: '5 Linking Road', address_line_2: '', city_or_district: 'Mumbai', state: 'MH', country: 'India', postal_code: '400050' });
  await ok('GET', `/addProductIntoCart/${encodeURIComponent(`30*${P1}`)}?cart_no=1`);
  saleId = (await ok<{ saleId: number }>('POST', '/MAKE_SALE', { clientId: client.id, paid: '0' })).saleId;
  page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
}, 180_000);

afterAll(() => e2e?.stop());

test('Setting keeps the dispatch PIN and town; the bill needs an e-way bill until its number is saved from the delivery page', async () => {
  await page.goto('/setting');
  const section = page.getByTestId('dispatch-settings');
  await section.waitFor();
  await section.getByLabel('PIN code goods leave from').fill('400001');
  await section.getByLabel('Town or city').fill('Mumbai');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await page.getByTestId('alert').first().waitFor();
  expect(await ok<Record<string, unknown>>('GET', '/getCompanyDetails')).toMatchObject({ pincode: '400001', place: 'Mumbai', ewaybill_threshold: 50000 });

  const bill = await ok<{ saleDetails: { invoice_value: number; invoice_no: string }; ewaybill: { needed: boolean } }>('GET', `/getBillDetails?id=${saleId}`);
  expect(bill.ewaybill.needed).toBe(true);
  await page.goto(`/salesList/bill/show/${saleId}`);
  await page.getByTestId('ewaybill-needed').filter({ hasText: 'E-way bill needed' }).waitFor();
  await e2e.shot(page, 'ewaybill-needed-bill');

  await page.goto(`/salesList/bill/show/${saleId}/delivery`);
  const form = page.getByTestId('delivery-form');
  await form.waitFor();
  await form.getByLabel('Transporter name').fill('Shree Logistics');
  await form.getByLabel('Transporter mobile').fill('9820011223');
  await form.getByRole('textbox', { name: /^Mode of transport/ }).fill('Truck');
  await form.getByLabel('Vehicle number').fill('mh01ab1234');
  await form.getByLabel('Transport mode (portal)').selectOption('road');
  await form.getByLabel('Distance (km)').fill('12');
  await form.getByLabel('Ship-to PIN code').fill('400002');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('alert').filter({ hasText: 'Delivery details saved.' }).first().waitFor();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('ewaybill-json').click()]);
  const file = path.join(os.tmpdir(), `ewb-${saleId}.json`);
  await download.saveAs(file);
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(json.version).toBe('1.0.0621');
  expect(json.billLists[0]).toMatchObject({ docNo: bill.saleDetails.invoice_no, fromPincode: 400001, fromPlace: 'Mumbai', toGstin: 'URP', toPincode: 400002, transDistance: '12', vehicleNo: 'MH01AB1234', transMode: '1', totInvValue: bill.saleDetails.invoice_value });

  const rec = page.getByTestId('ewaybill-record');
  await rec.getByLabel('E-way bill no.').fill('331000123456');
  await rec.getByLabel('Valid until').fill('2030-01-03T23:59');
  await rec.getByTestId('ewaybill-save').click();
  await page.getByTestId('ewaybill-recorded').filter({ hasText: '331000123456' }).waitFor();
  await e2e.shot(page, 'ewaybill-delivery');
  expect((await ok<{ ewaybill: unknown }>('GET', `/getBillDetails?id=${saleId}`)).ewaybill).toEqual({ needed: false, ewb_no: '331000123456', valid_until: '2030-01-03T18:29:00.000Z' });
  await page.goto(`/salesList/bill/show/${saleId}`);
  await page.getByTestId('ewaybill-no').filter({ hasText: '331000123456' }).waitFor();
  expect(await page.getByTestId('ewaybill-needed').count()).toBe(0);
});

test('Purchases > GSTR-2B: a 2B file matches a bill written differently with tax 0.80 off and lists the rest', async () => {
  // 1 sheet from Gujarat: taxable 2380.00, IGST 18 % = 428.40.
  await ok('GET', `/addProductIntoCart/${encodeURIComponent(`1*${P1}`)}?cart_no=1`);
  await ok('POST', '/checkOutPurchase', { bill_no: 'SPH/0042', bill_date: today(), distributor, officer: '', paid: '0', due_date: today(), cart_no: 1 });
  await ok('GET', `/addProductIntoCart/${encodeURIComponent(`1*${P1}`)}?cart_no=1`);
  await ok('POST', '/checkOutPurchase', { bill_no: 'SPH/0050', bill_date: today(), distributor, officer: '', paid: '0', due_date: today(), cart_no: 1 });
  const [y, m, d] = today().split('-');
  const twoB = {
    data: {
      gstin: MH_GSTIN, rtnprd: `${m}${y}`, docdata: {
        b2b: [{ ctin: GJ_GSTIN, trdnm: 'SURAT PLYWOOD HOUSE', inv: [
          { inum: 'sph-42', dt: `${d}-${m}-${y}`, val: 2809.2, itcavl: 'Y', items: [{ num: 1, rt: 18, txval: 2380, igst: 429.2, cgst: 0, sgst: 0, cess: 0 }] },
          { inum: 'SPH-99', dt: `${d}-${m}-${y}`, val: 1180, itcavl: 'Y', items: [{ num: 1, rt: 18, txval: 1000, igst: 180, cgst: 0, sgst: 0, cess: 0 }] },
        ] }],
      },
    },
  };
  const file = path.join(os.tmpdir(), `gstr2b-${m}${y}.json`);
  fs.writeFileSync(file, JSON.stringify(twoB));

  await page.goto('/purchaseList');
  await page.getByTestId('open-gstr2b').click();
  await page.getByTestId('gstr2b-period').fill(`${y}-${m}`);
  await page.getByTestId('gstr2b-file').setInputFiles(file);
  await page.getByTestId('alert').filter({ hasText: 'GSTR-2B read and matched.' }).first().waitFor();
  const matched = page.getByTestId('gstr2b-matched');
  expect(await matched.locator('tbody tr').count()).toBe(1);
  expect(await matched.locator('tbody tr td').allTextContents()).toEqual(['Surat Plywood House', GJ_GSTIN, 'SPH/0042', today(), '₹2,380.00', '₹428.40']);
  expect(await page.getByTestId('gstr2b-missing-books').locator('tbody tr td').nth(2).textContent()).toBe('SPH-99');
  const missing = page.getByTestId('gstr2b-missing-2b');
  expect(await missing.locator('tbody tr td').nth(2).textContent()).toBe('SPH/0050');
  await e2e.shot(page, 'gstr2b-page');
  // No network here: WhatsApp's page is answered locally, the address is what counts.
  await page.context().route('https://wa.me/**', (r) => r.fulfill({ status: 200, contentType: 'text/plain', body: 'WhatsApp' }));
  const [popup] = await Promise.all([page.waitForEvent('popup'), missing.getByRole('button', { name: 'Ask on WhatsApp' }).click()]);
  const url = decodeURIComponent(popup.url());
  expect(url).toContain('https://wa.me/919825012345');
  expect(url).toContain('SPH/0050');
  expect(url).toContain('Dear Surat Plywood House, your bill SPH/0050');
  expect(url).toContain('(GST ₹428.40)');
  await popup.close();
});
