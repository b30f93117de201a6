import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { GetReorderListReply } from '@bahi/contracts';
import { ACCOUNTS, alertText, login, managerWithCatalogue, SCREENSHOTS, startE2E, type E2E } from '../src/harness';
import { todayIST } from '../src/dates';

// The reorder list in Chromium through the gateway: products at or below their minimum, grouped
// by the distributor last bought from; Create purchase fills the counter cart and opens Proceed to
// purchase; the distributor's PDF read back; and the pager's go-to rule on both kinds of list.
let e2e: E2E;
let manager: string;
let staff: string;
let page: Page;
let dist: number;
let soap: number;
let oil: number;
const DIST = 'Kapoor Distributors';

const ok = async <T = unknown>(method: string, p: string, body?: unknown, token = manager): Promise<T> => {
  const r = await e2e.api<T>(method, p, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

/** The PDF of GET /api/documents/..., read back with pdftotext. */
async function pdfText(p: string, token = manager, picture?: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${e2e.baseUrl}/api${p}`, { headers: { Authorization: `Bearer ${token}` } });
  if (res.status !== 200) return { status: res.status, text: await res.text() };
  expect(res.headers.get('content-type')).toContain('application/pdf');
  const file = path.join(os.tmpdir(), `reorder-${process.pid}-${Date.now()}.pdf`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  try {
    // The first page as a picture beside the screenshots, to look at.
    if (picture) execFileSync('pdftoppm', ['-png', '-r', '70', '-singlefile', file, path.join(SCREENSHOTS, picture)]);
    return { status: 200, text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }) };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function edit(id: number, cat: number, name: string, f: { ppq: string; stock: string; min: string; def: string }) {
  await ok('POST', '/editProduct', {
    product_id: id, catagory: cat, active: 1, quantity_per_peice: f.ppq, brand_name: 'Reorder Co', name, mrp: '120', cp: '90',
    stock: f.stock, min_stock: f.min, default_stock: f.def, tax: '0', unit: f.ppq === '1' ? 'pcs' : 'ltr',
  });
}

/** Waits until the pager shows `label` as the current page (the list reloads after the URL changes). */
async function current(pager: ReturnType<Page['locator']>, label: string) {
  await pager.locator('[aria-current="page"]').filter({ hasText: new RegExp(`^${label}$`) }).waitFor();
}

/** Types a page in the go-to box of the pager under `scope` and presses Go. */
async function goToPage(scope: ReturnType<Page['locator']>, n: string) {
  await scope.getByLabel('Page Number').fill(n);
  await scope.getByRole('button', { name: 'Go' }).click();
}

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents'] });
  manager = await managerWithCatalogue(e2e);
  staff = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.staff })).body.token;
  const cat = (await ok<{ id: number }>('POST', '/catagory/add', { name: 'Reorder Test', belongs_to: null })).id;
  soap = (await ok<{ id: number }>('POST', '/createNewProduct', { catagory: cat, brand_name: 'Reorder Co', name: 'Neem Soap 100g', mrp: '40', cp: '30', unit: 'pcs', per_peice_quantity: 1 })).id;
  oil = (await ok<{ id: number }>('POST', '/createNewProduct', { catagory: cat, brand_name: 'Reorder Co', name: 'Mustard Oil', mrp: '180', cp: '150', unit: 'ltr', per_peice_quantity: 6 })).id;
  dist = (
    await ok<{ id: number }>('POST', '/addDistributor', {
      name: DIST, address_line_1: '12 Chandni Chowk', address_line_2: '', city_or_district: 'Delhi', state: 'DL', country: 'India', postal_code: '110006', officers: [],
    })
  ).id;
  // Bought once from Kapoor (cart 2, so the counter's cart 1 stays empty), then stock set low.
  await ok('POST', '/reorderList/fillCart', { cart_no: 2, lines: [{ product_id: soap, quantity: '1' }, { product_id: oil, quantity: '1' }] });
  await ok('POST', '/checkOutPurchase', { bill_no: 'KD-1', distributor: dist, officer: '', paid: '0', due_date: todayIST(), cart_no: 2 });
  await edit(soap, cat, 'Neem Soap 100g', { ppq: '1', stock: '3', min: '5', def: '12' });
  await edit(oil, cat, 'Mustard Oil', { ppq: '6', stock: '3', min: '5', def: '12' });
  page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
});

test('staff cannot read the reorder list or its PDF', async () => {
  expect((await e2e.api('GET', '/reorderList', { token: staff })).status).toBe(403);
  expect((await pdfText(`/documents/reorder/${dist}`, staff)).status).toBe(403);
});

test("the distributor's PDF lists what to send: company, distributor, order quantities, units and a count", async () => {
  const { status, text } = await pdfText(`/documents/reorder/${dist}`, manager, 'reorder-pdf');
  expect(status).toBe(200);
  expect(text).toContain('PURCHASE ORDER');
  expect(text).toContain('Demo Traders');
  expect(text).toContain(DIST);
  // Soap: 12 - 3 = 9 pieces; oil in 6 ltr packs: 9 ltr short -> 2 packs = 12 ltr.
  expect(text).toMatch(/Neem Soap 100g\s+Reorder Co\s+1 pcs\s+9\s+9 pcs/);
  expect(text).toMatch(/Mustard Oil\s+Reorder Co\s+6 ltr\s+2\s+12 ltr/);
  expect(text).toMatch(/Total: 2 products\s+11/);
  // The selection only.
  const one = await pdfText(`/documents/reorder/${dist}?products=${oil}`);
  expect(one.text).toContain('Mustard Oil');
  expect(one.text).not.toContain('Neem Soap');
  expect(one.text).toMatch(/Total: 1 product\b/);
});

test('the reorder page groups by distributor; Create purchase fills the cart and opens Proceed to purchase with the distributor chosen', async () => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reorder List' }).click();
  const group = page.getByTestId(`reorder-group-${dist}`);
  await group.waitFor();
  expect(await group.locator('h2').innerText()).toContain(DIST);
  expect(await group.getByLabel('Order quantity of Neem Soap 100g').inputValue()).toBe('9');
  expect(await group.getByLabel('Order quantity of Mustard Oil').inputValue()).toBe('2');
  expect(await page.getByTestId(`reorder-line-${oil}`).innerText()).toMatch(/12\s+ltr/);
  await e2e.shot(page, 'reorder-list');

  // Both lines of the group; soap raised to 10 by hand.
  await group.getByLabel(`Select all of ${DIST}`).check();
  await group.getByLabel('Order quantity of Neem Soap 100g').fill('10');
  await e2e.shot(page, 'reorder-selected');
  await page.getByTestId('reorder-create-purchase').click();
  const panel = page.getByTestId('purchase-panel');
  await panel.waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
  await panel.getByLabel('Distributor').locator(`option[value="${dist}"]`).waitFor({ state: 'attached' });
  expect(await panel.getByLabel('Distributor').inputValue()).toBe(String(dist));
  const cart = await ok<{ cart: { product_id: number; quantity: string | number }[] }>('GET', '/getProducts?cart_no=1');
  expect(cart.cart.map((l) => [l.product_id, String(l.quantity)])).toEqual([[oil, '2'], [soap, '10']]);
  await e2e.shot(page, 'reorder-proceed-to-purchase');

  // Confirm the purchase: the products come in and leave the list (soap 3 + 10 = 13, oil 3 + 2 x 6 = 15, both above min 5).
  await panel.getByLabel('Bill number').fill('KD-2');
  await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
  await page.waitForURL(/\/purchase\/\d+$/);
  const list = await ok<GetReorderListReply>('GET', '/reorderList');
  expect(list.groups.flatMap((g) => g.lines.map((l) => l.product_id))).not.toContain(soap);
  expect(list.groups.find((g) => g.distributorId === dist)).toBeUndefined();
});

test('a back-office list takes pages 0 to pages - 1 in the go-to box', async () => {
  const { noOfPages } = await ok<{ noOfPages: number }>('GET', '/getProductList?pageNo=0');
  expect(noOfPages).toBeGreaterThan(2);
  await page.goto('/productItem');
  const table = page.getByTestId('product-list');
  await table.locator('tbody tr').first().waitFor();
  const pager = table.locator('.bk-pager');
  await current(pager, '0');
  await goToPage(pager, String(noOfPages));
  expect(await alertText(page)).toBe('Page Number Not Valid');
  await current(pager, '0');
  await goToPage(pager, String(noOfPages - 1));
  await page.waitForURL((u) => u.searchParams.get('pageNo') === String(noOfPages - 1));
  await current(pager, String(noOfPages - 1));
  await e2e.shot(page, 'reorder-backoffice-pager');
  await goToPage(pager, '0');
  await page.waitForURL((u) => u.searchParams.get('pageNo') === '0');
  await current(pager, '0');
});

test('the product grid has the full pager, numbered from 0', async () => {
  await page.goto('/product/null');
  await page.getByTestId('product-grid').waitFor();
  const pager = page.locator('.ct-grid-pager');
  await current(pager, '0');
  await pager.getByRole('button', { name: '1', exact: true }).waitFor();
  await goToPage(pager, '1');
  await page.waitForURL((u) => u.searchParams.get('pageNumber') === '1');
  await current(pager, '1');
  await e2e.shot(page, 'reorder-product-grid-pager');
});

test('product history has the full pager, numbered from 0', async () => {
  const cat = (await ok<{ id: number }>('POST', '/catagory/add', { name: 'History Pager', belongs_to: null })).id;
  const id = (await ok<{ id: number }>('POST', '/createNewProduct', { catagory: cat, brand_name: 'Reorder Co', name: 'History Item', mrp: '10', cp: '8', unit: 'pcs', per_peice_quantity: 1 })).id;
  // Eleven typed stocks: eleven adjustments, two pages of ten.
  for (let n = 1; n <= 11; n++) await edit(id, cat, 'History Item', { ppq: '1', stock: String(n), min: '0', def: '0' });
  await page.goto(`/productItem/${id}`);
  await page.getByTestId('history').locator('tbody tr').first().waitFor();
  const pager = page.locator('.bk-card', { has: page.getByTestId('history') }).locator('.bk-pager');
  await current(pager, '0');
  await goToPage(pager, '2');
  expect(await alertText(page)).toBe('Page Number Not Valid');
  await current(pager, '0');
  await goToPage(pager, '1');
  await current(pager, '1');
  expect(await page.getByTestId('history').locator('tbody tr').count()).toBe(1);
  await e2e.shot(page, 'reorder-product-history-pager');
});

test("the sales side's table takes pages 1 to pages", async () => {
  // Eleven customers: at least two pages of ten.
  for (let i = 0; i < 11; i++) {
    await ok('POST', '/clients/addClient', {
      mobile_no: `98100${String(10000 + i)}`, name: `Pager Customer ${i}`, address_line_1: '1 MG Road', address_line_2: '', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411001',
    });
  }
  const { noOfPages } = await ok<{ noOfPages: number }>('GET', '/getClientsList?pageNo=0');
  expect(noOfPages).toBeGreaterThanOrEqual(2);
  await page.goto('/clientList');
  const table = page.getByTestId('clients-table');
  await table.locator('tbody tr').first().waitFor();
  const pager = table.locator('.bk-pager');
  await current(pager, '1');
  await goToPage(pager, '0');
  expect(await alertText(page)).toBe('Page Number Not Valid');
  await page.getByTestId('alert').getByRole('button').first().click();
  await page.getByTestId('alert').waitFor({ state: 'detached' });
  await goToPage(pager, String(noOfPages + 1));
  expect(await alertText(page)).toBe('Page Number Not Valid');
  await current(pager, '1');
  await goToPage(pager, String(noOfPages));
  await page.waitForURL((u) => u.searchParams.get('pageNo') === String(noOfPages - 1));
  await current(pager, String(noOfPages));
  await e2e.shot(page, 'reorder-sales-pager');
});
