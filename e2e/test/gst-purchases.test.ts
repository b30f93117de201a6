// GST mode, purchases: a Maharashtra company in GST mode buys from a Gujarat distributor with a
// GSTIN through the cart's purchase panel; the purchase page shows the distributor's GSTIN and
// state, per line HSN, GST %, taxable value and IGST, and the totals with the round off.
import type { GetPurchaseDetailsReply } from '@bahi/contracts';
import type { Page } from 'playwright-core';
import { ACCOUNTS, login, startE2E, type E2E, managerWithCatalogue } from '../src/harness';

// GSTINs with correct check characters (packages/gst/README.md works them out).
const MH_GSTIN = '27AAPFU0939F1ZV';
const GJ_GSTIN = '24AAGCS5678K1ZT';
// Demo catalogue (services/inventory seed): cp 2380.00, 18 %, HSN 4412.
const P1 = { id: 1, barcode: '89012100001', name: 'Greenply Club 18mm MR Plywood' };

let e2e: E2E;
let page: Page;
let manager: string;
let distributor: number;

async function ok<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await e2e.api<T>(method, path, { token: manager, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales'] });
  manager = await managerWithCatalogue(e2e);
  // Setting's GST section and the distributor form have their own e2e tests (gst-company, gst-parties).
  const company = await ok<Record<string, string>>('GET', '/getCompanyDetails');
  await ok('POST', '/setCompanyDetails', { id: company.id, name: company.name, add1: company.add1 || 'Mumbai', mob1: company.mob1 || '9876543210', email: company.email || 'demo@demo.local', tax_mode: 'gst', gstin: MH_GSTIN, invoice_prefix: 'GT' });
  distributor = (
    await ok<{ id: number }>('POST', '/addDistributor', {
      name: 'Surat Plywood House', address_line_1: '9 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: GJ_GSTIN, officers: [],
    })
  ).id;
  page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
}, 180_000);

afterAll(() => e2e?.stop());

test('a GST-mode company buys from an out-of-state distributor through the screens; the purchase page shows the IGST', async () => {
  // Cart: 2 sheets less 10.00 each: taxable (2380.00 - 10.00) x 2 = 4740.00; IGST 18 % = 853.20;
  // 4740.00 + 853.20 = 5593.20 -> 5593.00 (round off -0.20): what the distributor is owed.
  await page.goto('/');
  const entry = page.getByTestId('product-entry');
  await entry.waitFor();
  await entry.fill(P1.barcode);
  await entry.press('Enter');
  const q = page.getByLabel(`Quantity of ${P1.name}`, { exact: true });
  await q.waitFor();
  await q.fill('2');
  await Promise.all([page.waitForResponse((r) => r.url().includes('/api/upQuan')), q.press('Tab')]);
  const d = page.getByLabel(`Discount on ${P1.name}`, { exact: true });
  await d.fill('10');
  await Promise.all([page.waitForResponse((r) => r.url().includes('/api/upDisc')), d.press('Tab')]);

  await page.getByRole('button', { name: 'Proceed to purchase' }).click();
  const panel = page.getByTestId('purchase-panel');
  await panel.waitFor();
  await panel.getByLabel('Bill number').fill('SPH/26-27/0042');
  await panel.getByLabel('Distributor').selectOption(String(distributor));
  await panel.getByLabel('Paid').fill('0');
  await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
  await page.getByTestId('alert').filter({ hasText: 'Purchase Success...' }).first().waitFor();
  await page.waitForURL(/\/purchase\/\d+$/);
  const id = Number(page.url().split('/').pop());
  await page.getByTestId('purchase-title').filter({ hasText: `Purchase #${id}` }).waitFor();

  expect((await page.getByTestId('purchase-gstin').textContent())?.trim()).toBe(GJ_GSTIN);
  expect((await page.getByTestId('purchase-state').textContent())?.trim()).toBe('Gujarat (24)');
  const lines = page.getByTestId('purchase-lines');
  expect(await lines.locator('thead th').allTextContents()).toEqual(['#', 'Product', 'Qty', 'Rate (cost)', 'Disc', 'Units in', 'Amount', 'HSN', 'GST %', 'Taxable', 'IGST']);
  expect((await lines.locator('tbody tr').first().locator('td').allTextContents()).slice(6)).toEqual(['₹4,740.00', '4412', '18%', '₹4,740.00', '₹853.20']);
  expect(await page.getByTestId('purchase-taxable').textContent()).toBe('₹4,740.00');
  expect(await page.getByTestId('purchase-igst').textContent()).toBe('₹853.20');
  expect(await page.getByTestId('purchase-cgst').count()).toBe(0);
  expect(await page.getByTestId('purchase-round-off').textContent()).toBe('-₹0.20');
  expect(await page.getByTestId('purchase-total').textContent()).toBe('₹5,593.00');
  expect(await page.getByTestId('purchase-totals').textContent()).not.toContain('18%)');
  await e2e.shot(page, 'gst-purchase-detail');

  const details = await ok<GetPurchaseDetailsReply>('GET', `/getPurchaseDetails?purchaseId=${id}`);
  expect(details).toMatchObject({ total: 5593, taxAmount: 853.2, subTotal: 4740, tax: 0 });
  expect(details.gst).toMatchObject({ distributor_gstin: GJ_GSTIN, distributor_state_code: '24', company_state_code: '27', inter_state: true, taxable_total: '4740.00', igst_total: '853.20', tax_total: '853.20' });
  // The distributor is owed their invoice's value.
  expect((await ok<{ data: { due: number } }>('GET', `/getDistributorsDetails?id=${distributor}`)).data.due).toBe(5593);
});
