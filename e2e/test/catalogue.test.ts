import fs from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '@bahi/devstack';
import { type Browser, type Page } from 'playwright-core';
import { ACCOUNTS, launchChromium, login, SCREENSHOTS } from '../src/harness';

// The shared harness starts identity only; the catalogue needs inventory as well.
const ROOT = path.resolve(__dirname, '..', '..');
let stack: Stack;
let browser: Browser;
let page: Page;

async function api<T = any>(method: string, p: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${stack.gatewayUrl}/api${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
async function token(who: { email: string; password: string }) {
  const r = await api<{ token: string }>('POST', '/loginReact', undefined, who);
  return r.body.token;
}
const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
const seeAlert = (text: string) => page.getByTestId('alert').filter({ hasText: text }).waitFor();

beforeAll(async () => {
  for (const f of ['shell/dist/index.html', 'frontends/catalogue/dist/mf-manifest.json', 'services/inventory/dist/main.js']) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first.`);
  }
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory'], logs: 'files' });
  browser = await launchChromium();
  const ctx = await browser.newContext({ baseURL: stack.gatewayUrl, viewport: { width: 1366, height: 800 } });
  page = await ctx.newPage();
  page.on('pageerror', (err) => console.error(`[browser] ${err.message}`));
}, 180_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await stack?.stop();
});

describe('catalogue', () => {
  it('a manager adds a category with specs, adds and edits a product, uploads an image, filters, duplicates and deletes', async () => {
    await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);

    // The demo catalogue is seeded in the background once identity answers.
    const manager = await token(ACCOUNTS.manager);
    for (let i = 0; i < 100; i++) {
      if ((await api('GET', '/getProductList', manager)).body.count >= 50) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    await page.goto('/product/null');
    await page.getByTestId('product-grid').waitFor();
    await shot('catalogue-grid');

    // Category with specs
    await page.goto('/productsCatagory/add');
    await page.getByLabel('Name').fill('Tiles');
    await page.getByRole('button', { name: 'Add Spec' }).click();
    await page.getByLabel('Spec 1 name').fill('Size');
    await page.getByLabel('Default').fill('2x2 ft');
    await page.getByRole('button', { name: 'Save Category' }).click();
    await seeAlert('Category Tiles created.');
    await page.getByRole('heading', { name: 'Tiles' }).waitFor();
    await page.getByTestId('category-specs').getByText('2x2 ft').waitFor();
    await shot('catalogue-category-view');

    // Add product
    await page.goto('/productItem/addProducts');
    await page.getByLabel('Category').selectOption({ label: 'Tiles' });
    await page.getByLabel('Brand').fill('Kajaria');
    await page.getByLabel('Name').fill('Kajaria Floor Tile Beige');
    await page.getByLabel('MRP').fill('55');
    await page.getByLabel('Cost Price').fill('42.5');
    await page.getByLabel('Unit').fill('sqft');
    await shot('catalogue-add-product');
    await page.getByRole('button', { name: 'Add Product' }).click();
    await page.waitForURL(/\/productItem\/\d+$/);
    const id = Number(page.url().split('/').pop());
    await page.getByRole('heading', { name: `${id} : Kajaria Floor Tile Beige` }).waitFor();

    // Edit: stock becomes an adjustment movement in the transactions table
    await page.getByRole('button', { name: 'Edit Details' }).click();
    await page.getByLabel('Stock', { exact: true }).fill('120');
    await page.getByLabel('Minimum stock').fill('20');
    await page.getByLabel('Default stock').fill('300');
    await page.getByLabel('Size').fill('2x4 ft');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await seeAlert('Product saved.');
    await page.getByTestId('history').getByText('Adjustment').waitFor();
    expect(await page.getByTestId('history').locator('tbody tr').first().locator('td').allTextContents()).toEqual(['Adjustment', '120', expect.stringContaining('42.50'), '120', expect.any(String)]);

    // Image upload
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000100000001008020000009091683600000017494441547801636cf8cf4003309a0a8ca9c0000039f31f01d9b2a7d30000000049454e44ae426082',
      'hex',
    );
    await page.getByLabel('Upload image').setInputFiles({ name: 'tile.png', mimeType: 'image/png', buffer: png });
    await seeAlert('Image was uploaded successfully.');
    await page.waitForFunction(() => (document.querySelector('[data-testid=product-image]') as HTMLImageElement | null)?.src.includes('/api/productImage/p'));
    await shot('catalogue-product-edit');

    // List, filter, totals
    await page.goto('/productItem');
    await page.getByTestId('product-list').locator('tbody tr').first().waitFor();
    await page.getByTestId('total-stock').filter({ hasNotText: '…' }).waitFor();
    const allStock = await page.getByTestId('total-stock').textContent();
    await page.getByLabel('Category').selectOption({ label: 'Tiles' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByTestId('total-stock').filter({ hasText: /^120$/ }).waitFor();
    expect(allStock).not.toBe('120');
    expect(await page.getByTestId('total-amount').textContent()).toContain('5,100.00');
    await shot('catalogue-product-list-filtered');
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByTestId('total-stock').filter({ hasText: allStock! }).waitFor();

    // Stock book needs a category
    await page.getByRole('button', { name: 'Print Stock Book' }).click();
    await seeAlert('Please Select A Category.');

    // Duplicate, then delete the copy (it has no history)
    await page.goto(`/productItem/${id}`);
    await page.getByRole('button', { name: /Menu/ }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Duplicate' }).click();
    await page.waitForURL((u) => /\/productItem\/\d+$/.test(u.pathname) && u.pathname !== `/productItem/${id}`);
    const copy = Number(page.url().split('/').pop());
    await page.getByRole('heading', { name: `${copy} : Kajaria Floor Tile Beige` }).waitFor();
    await page.getByRole('button', { name: /Menu/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await seeAlert(`Product ${copy} deleted.`);
    await page.waitForURL((u) => u.pathname === '/productItem');
    expect((await api('GET', `/getProductDetails?id=${copy}`, manager)).status).toBe(404);

    // Label page
    await page.goto(`/productItem/${id}/label`);
    await page.getByTestId('label-preview').getByText('Size: 2x4 ft').first().waitFor();
    await shot('catalogue-label');
  });

  it('staff get 403 on catalogue writes through the gateway', async () => {
    const staff = await token(ACCOUNTS.staff);
    expect((await api('POST', '/createNewProduct', staff, { catagory: 1, brand_name: 'X', name: 'N', mrp: 1, cp: 1, unit: 'pcs' })).status).toBe(403);
    expect((await api('POST', '/catagory/add', staff, { name: 'Nope' })).status).toBe(403);
    expect((await api('DELETE', '/product/1', staff)).status).toBe(403);
    expect((await api('GET', '/getProductList', staff)).status).toBe(200);
  });
});
