import fs from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '@bahi/devstack';
import { type Browser, type Page } from 'playwright-core';
import { ACCOUNTS, launchChromium, login, recordPrints, SCREENSHOTS } from '../src/harness';

// Buying stock in, in Chromium through the gateway: the cart's purchase panel, the purchase
// remote (purchase, labels, distributors) and the documents service for the label sheet.
const ROOT = path.resolve(__dirname, '..', '..');
let stack: Stack;
let browser: Browser;
let page: Page;
let manager: string;
let staff: string;

// Demo catalogue (services/inventory seed).
const P1 = { id: 1, barcode: '89012100001', name: 'Greenply Club 18mm MR Plywood' };
let dist: { distributor_id: number; name: string };
let officer: { id: number; name: string };

async function api<T = any>(method: string, p: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${stack.gatewayUrl}/api${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const token = async (who: { email: string; password: string }) => (await api<{ token: string }>('POST', '/loginReact', undefined, who)).body.token;
const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
const seeAlert = (text: string) => page.getByTestId('alert').filter({ hasText: text }).first().waitFor();
const stockOf = async (id: number) => Number((await api('GET', `/getProductDetails?id=${id}`, manager)).body.product.stock);
const dueOf = async (id: number) => (await api('GET', `/getDistributorsDetails?id=${id}`, manager)).body.data.due as number;

async function cartWith(quantity: string, discount?: string) {
  await page.goto('/');
  await page.getByTestId('product-entry').waitFor();
  await page.getByTestId('product-entry').fill(P1.barcode);
  await page.getByTestId('product-entry').press('Enter');
  const q = page.getByLabel(`Quantity of ${P1.name}`, { exact: true });
  await q.waitFor();
  const before = await q.inputValue();
  await q.fill(quantity);
  // Edits are saved on blur, only when changed: wait for the reply, listening before the blur so a fast one is not missed.
  if (before === quantity) await q.press('Tab');
  else await Promise.all([page.waitForResponse((r) => r.url().includes('/api/upQuan')), q.press('Tab')]);
  if (discount) {
    const d = page.getByLabel(`Discount on ${P1.name}`, { exact: true });
    await d.fill(discount);
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/upDisc')), d.press('Tab')]);
  }
}

async function purchasePanel(bill: string, paid: string) {
  await page.getByRole('button', { name: 'Proceed to purchase' }).click();
  const panel = page.getByTestId('purchase-panel');
  await panel.waitFor();
  await panel.getByLabel('Bill number').fill(bill);
  await panel.getByLabel('Distributor').selectOption(String(dist.distributor_id));
  await panel.getByLabel('Officer').selectOption(String(officer.id));
  await panel.getByLabel('Paid').fill(paid);
  return panel;
}

beforeAll(async () => {
  for (const f of ['shell/dist/index.html', 'frontends/sales/dist/mf-manifest.json', 'frontends/purchase/dist/mf-manifest.json', 'services/documents/dist/main.js']) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first.`);
  }
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'ledger', 'sales', 'documents'], logs: 'files' });
  manager = await token(ACCOUNTS.manager);
  staff = await token(ACCOUNTS.staff);
  // The demo catalogue and distributors are seeded in the background once identity answers.
  for (let i = 0; i < 100; i++) {
    const products = (await api('GET', '/getProductList', manager)).body?.count ?? 0;
    const data = (await api('GET', '/checkOutPurchase', manager)).body;
    if (products >= 50 && data?.officers?.length) {
      officer = data.officers[0];
      dist = data.distributors.find((d: { distributor_id: number }) => d.distributor_id === data.officers[0].distributor_id);
      break;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  expect(dist).toBeDefined();
  browser = await launchChromium();
  const ctx = await browser.newContext({ baseURL: stack.gatewayUrl, viewport: { width: 1366, height: 800 } });
  await recordPrints(ctx);
  page = await ctx.newPage();
  page.on('pageerror', (err) => console.error(`[browser] ${err.message}`));
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
}, 180_000);

beforeEach(async () => {
  expect((await api('DELETE', '/clearCart/1', manager)).status).toBe(200);
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await stack?.stop();
});

describe('purchases', () => {
  let purchaseId: number;

  it('a manager buys the cart in: Purchase Success..., the purchase page, stock up, the distributor owes', async () => {
    const stockBefore = await stockOf(P1.id);
    const dueBefore = await dueOf(dist.distributor_id);
    const cp = Number((await api('GET', `/getProductDetails?id=${P1.id}`, manager)).body.product.cp);
    await cartWith('3');
    const panel = await purchasePanel('', '1000');
    await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
    await seeAlert('Bill number is required.');
    await panel.getByLabel('Bill number').fill('GW-7781');
    await shot('purchase-panel');
    await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
    await seeAlert('Purchase Success...');
    await page.waitForURL(/\/purchase\/\d+$/);
    purchaseId = Number(page.url().split('/').pop());
    await page.getByTestId('purchase-title').filter({ hasText: `Purchase #${purchaseId}` }).waitFor();
    const total = cp * 3;
    expect(await stockOf(P1.id)).toBe(stockBefore + 3);
    expect(await dueOf(dist.distributor_id)).toBeCloseTo(dueBefore + total - 1000, 2);
    const totals = (await page.getByTestId('purchase-totals').textContent()) ?? '';
    expect(totals).toContain(`₹${(total).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`);
    expect(await page.getByTestId('purchase-distributor').textContent()).toBe(dist.name);
    expect(await page.getByTestId('purchase-lines').locator('tbody tr').count()).toBe(1);
    await shot('purchase-detail');
    // The cart is empty again.
    expect((await api('GET', '/getProducts?cart_no=1', manager)).body.cart).toEqual([]);

    // The distributor's ledger shows the purchase and the due.
    await page.getByTestId('purchase-distributor').click();
    await page.waitForURL(`**/distributor/transaction/${dist.distributor_id}`);
    await page.getByTestId('distributor-history').getByRole('link', { name: `Purchase #${purchaseId}` }).waitFor();
    await shot('purchase-distributor-ledger');
  });

  it('lists the purchase; Configure Label edits packets and prints the QR label sheet', async () => {
    await page.goto('/purchaseList');
    const row = page.getByTestId('purchase-table').locator('tbody tr').filter({ hasText: dist.name }).first();
    await row.waitFor();
    await shot('purchase-list');
    await row.click();
    await page.waitForURL(`**/purchase/${purchaseId}`);
    await page.getByRole('button', { name: 'Configure Label' }).click();
    await page.waitForURL(`**/purchase/${purchaseId}/printLabel`);
    const packets = page.getByLabel(`Packets of ${P1.name}`);
    await packets.waitFor();
    expect(await packets.inputValue()).toBe('3');
    await packets.fill('45');
    await page.getByTestId('label-count').filter({ hasText: '45 labels · 2 pages' }).waitFor();
    await shot('purchase-labels');
    const [pdf] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/documents/purchase-labels/${purchaseId}`)),
      page.getByTestId('print-labels').click(),
    ]);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect(new URL(pdf.url()).searchParams.get('packets')).toBe(`${P1.id}:45`);
  });

  it("a purchase the server refuses shows 'Error Occured please contact admin..' and goes home; nothing changes", async () => {
    const stockBefore = await stockOf(P1.id);
    // A discount above the cost price is refused by the server (the panel cannot know).
    await cartWith('1', '2849'); // within the rate (2,850.00), so the counter takes it (issue 28)
    const panel = await purchasePanel('GW-7782', '0');
    await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
    await seeAlert('Error Occured please contact admin..');
    await page.waitForURL((u) => u.pathname === '/');
    expect(await stockOf(P1.id)).toBe(stockBefore);
    expect((await api('GET', '/getProducts?cart_no=1', manager)).body.cart).toHaveLength(1);
  });

  it('adds a distributor with the defaults, then edits it (read -> edit -> save)', async () => {
    await page.goto('/distributor');
    await page.getByTestId('distributor-table').locator('tbody tr').first().waitFor();
    await shot('distributor-list');
    await page.getByRole('button', { name: 'Add Distributor' }).click();
    await page.waitForURL('**/distributor/add');
    const form = page.getByTestId('add-distributor-form');
    expect(await form.getByLabel('City').inputValue()).toBe('Kolkata');
    expect(await form.getByLabel('Zip').inputValue()).toBe('700001');
    expect(await form.getByLabel('State').inputValue()).toBe('WB');
    expect(await form.getByLabel('Country').inputValue()).toBe('India');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await seeAlert('Name is required.');
    await form.getByLabel('Name').fill('Banerjee Timber Traders');
    await form.getByLabel('Address line 1').fill('14 Strand Road');
    await form.getByLabel('Zip').fill('7000AB');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await seeAlert('Zip must be numeric.');
    await form.getByLabel('Zip').fill('700001');
    await form.getByRole('button', { name: 'Add officer' }).click();
    await form.getByLabel('Officer 1 name').fill('Amit Roy');
    await shot('distributor-add');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await seeAlert('Distributor is created.');
    await page.waitForURL(/\/distributor\/transaction\/\d+$/);
    await page.getByTestId('distributor-name').filter({ hasText: 'Banerjee Timber Traders' }).waitFor();

    await page.getByRole('button', { name: 'Show Details' }).click();
    const details = page.getByTestId('distributor-details-form');
    await details.waitFor();
    expect(await details.getAttribute('data-mode')).toBe('read');
    expect(await details.getByLabel('City').isDisabled()).toBe(true);
    await details.getByRole('button', { name: 'Edit' }).click();
    expect(await details.getAttribute('data-mode')).toBe('edit');
    await details.getByLabel('City').fill('Howrah');
    await shot('distributor-edit');
    await details.getByRole('button', { name: 'Save', exact: true }).click();
    await seeAlert('Distributor Details Has been updated');
    expect(await details.getAttribute('data-mode')).toBe('read');
    const id = Number(page.url().split('/').pop());
    expect((await api('GET', `/getDistributorsDetails?id=${id}`, manager)).body.data).toMatchObject({ city_or_district: 'Howrah', officers: [{ name: 'Amit Roy' }] });
  });

  it('staff get 403 on every purchase call and distributor write', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/checkOutPurchase'],
      ['POST', '/checkOutPurchase', { bill_no: 'S1', distributor: dist.distributor_id, officer: '', paid: '0', due_date: '2030-01-01', cart_no: 1 }],
      ['POST', '/checkOutPurchaseFromEstimate', { bill_no: 'S1', distributor: dist.distributor_id, officer: '', paid: '0', due_date: '2030-01-01', estimateId: 1 }],
      ['GET', '/getPurchaseList?pageNo=0'],
      ['GET', `/getPurchaseDetails?purchaseId=${purchaseId}`],
      ['GET', `/getPurchaseLabelDetails?purchaseId=${purchaseId}`],
      ['POST', '/addDistributor', { name: 'X', address_line_1: 'Y', address_line_2: '', city_or_district: 'Kolkata', state: 'WB', country: 'India', postal_code: '700001' }],
      ['PUT', '/addDistributor', { id: dist.distributor_id, name: 'X', address_line_1: 'Y', address_line_2: '', city_or_district: 'Kolkata', state: 'WB', country: 'India', postal_code: '700001' }],
    ];
    for (const [method, p, body] of calls) expect([method, p, (await api(method, p, staff, body)).status]).toEqual([method, p, 403]);
  });
});
