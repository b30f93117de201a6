import type { Page } from 'playwright-core';
import { ACCOUNTS, login, startE2E, type E2E } from '../src/harness';

// Issue 32: a new company's first day, as its manager, in English and in Hindi. The dashboard's
// Getting started list, Add Product with barcode and opening stock, a purchase from the cart whose
// panel shows the purchase's own figures (a cost edited) and the first sale; the list ticks itself.

let e2e: E2E;
let admin: string;

const ok = async <T = any>(method: string, p: string, token: string, body?: unknown): Promise<T> => {
  const r = await e2e.api<T>(method, p, { token, body });
  if (r.status < 200 || r.status > 299) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
const loginApi = async (email: string, password: string) => (await ok<{ token: string }>('POST', '/loginReact', '', { email, password })).token;

/** A new company and its manager, whose temporary password is changed as the shell makes them do. */
async function newCompany(name: string, email: string): Promise<{ token: string; password: string }> {
  const created = await ok<{ success: boolean; managerPassword: string }>('POST', '/admin/createCompany', admin, { cName: name, cAdd: '4 Station Road, Pune', cMob: '9822001122', mName: 'Naya Manager', mEmail: email });
  const first = await loginApi(email, created.managerPassword);
  const password = 'first-day-123';
  await ok('POST', '/manage/profile/edit/updatePassword', first, { current_password: created.managerPassword, new_password: password, re_type_new_password: password });
  return { token: await loginApi(email, password), password };
}

const L = {
  en: { proceedSell: 'Proceed to Sell', proceedPurchase: 'Proceed to purchase', billNo: 'Bill number', distributor: 'Distributor', confirmPurchase: 'Confirm Purchase', start: 'Getting started', search: 'Search customer', addCustomer: 'Add Customer', cancel: 'Cancel' },
  hi: { proceedSell: 'बिक्री करें', proceedPurchase: 'खरीद करें', billNo: 'बिल नंबर', distributor: 'डिस्ट्रीब्यूटर', confirmPurchase: 'खरीद पक्की करें', start: 'शुरुआत करें', search: 'ग्राहक खोजें', addCustomer: 'ग्राहक जोड़ें', cancel: 'रद्द करें' },
};

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents', 'reports'] });
  admin = await loginApi(ACCOUNTS.admin.email, ACCOUNTS.admin.password);
}, 180_000);
afterAll(() => e2e?.stop());

async function chooseLanguage(p: Page, lng: 'en' | 'hi') {
  await p.locator('.sh-profile__button').click();
  await p.getByTestId(`language-${lng}`).click();
  await p.waitForFunction((l) => document.documentElement.lang === l, lng);
}

const stepsDone = async (p: Page) =>
  p.locator('[data-testid^="start-"]').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-testid')!.slice(6), e.getAttribute('data-done') === '1'])));

describe.each(['en', 'hi'] as const)('a new company in %s', (lng) => {
  it('from the Getting started list to the first sale', async () => {
    const email = `first-${lng}@naya.local`;
    const { token, password } = await newCompany(`Naya Kirana ${lng}`, email);
    const page = await e2e.newPage();
    await login(page, email, password);
    if (lng === 'hi') await chooseLanguage(page, 'hi');
    const t = L[lng];

    // 1. The dashboard shows the list; nothing bought or sold yet.
    await page.goto('/reports');
    const start = page.getByTestId('getting-started');
    await start.getByRole('heading', { name: t.start }).waitFor();
    expect(await stepsDone(page)).toMatchObject({ category: false, products: false, purchase: false, users: false });
    await e2e.shot(page, `first-day-${lng}-1-checklist`);

    // 2. The first category from the list's link (a product needs one), then Add Product from its link:
    // barcode, opening stock, minimum and default stock on the first form.
    await start.getByTestId('start-category').getByRole('link').click();
    await page.waitForURL('**/productsCatagory/add');
    await page.locator('form input').first().fill('Grocery');
    await page.locator('form input').first().press('Enter');
    await page.waitForURL(/\/productsCatagory\/\d+$/);
    const cat = Number(new URL(page.url()).pathname.split('/').pop());
    await page.goto('/reports');
    await start.getByTestId('start-category').and(page.locator('[data-done="1"]')).waitFor();
    await start.getByTestId('start-products').getByRole('link').first().click();
    await page.waitForURL('**/productItem/addProducts');
    const form = page.locator('form');
    await form.locator('select').first().selectOption(String(cat));
    const inputs = form.locator('input:not([type=checkbox])');
    await inputs.nth(0).fill('Tata');
    await inputs.nth(1).fill('Tata Salt 1kg');
    await inputs.nth(2).fill('28');
    await inputs.nth(3).fill('22.50');
    await inputs.nth(4).fill('pkt');
    await page.getByTestId('add-barcode').fill('8904043901015');
    await page.getByTestId('add-opening').fill('10');
    await page.getByTestId('add-min').fill('5');
    await page.getByTestId('add-default').fill('40');
    await e2e.shot(page, `first-day-${lng}-2-add-product`);
    await form.locator('button[type=submit]').click();
    await page.waitForURL(/\/productItem\/\d+$/);
    const productId = Number(new URL(page.url()).pathname.split('/').pop());
    const row = (await ok<{ list: any[] }>('GET', `/getProductList?pageNo=0&text=${productId}`, token)).list[0];
    expect(row).toMatchObject({ product_id: productId, stock: '10', min_stock: '5', default_stock: '40', stock_level: 1 });
    expect((await ok<{ result: any[] }>('GET', `/getProductHistory?id=${productId}&pageNo=0`, token)).result[0]).toMatchObject({ Qty: '10' });

    // 3. A distributor, then the opening purchase from the cart: the panel shows the purchase at cost, one cost edited.
    const dist = (await ok<{ id: number }>('POST', '/addDistributor', token, { name: 'Pune Wholesale', address_line_1: '9 Market Yard', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411037', officers: [] })).id;
    // Issue 32: 24 typed at the counter, more than the 10 in stock. The "below zero" warning speaks of
    // selling: it shows on Proceed to Sell, not while filling the cart nor for the purchase.
    await page.goto('/');
    const warnings = page.locator('.bk-alert--warning');
    await page.getByTestId('product-entry').fill(`24*${productId}`);
    await page.getByTestId('product-entry').press('Enter');
    await page.getByText('Tata Salt 1kg').first().waitFor();
    expect(await warnings.count()).toBe(0);
    await page.getByRole('button', { name: t.proceedSell, exact: true }).click();
    await page.getByTestId('sell-panel').waitFor();
    await warnings.filter({ hasText: `Tata Salt 1kg (${productId})` }).waitFor();
    await e2e.shot(page, `first-day-${lng}-3a-sell-warns`);
    await page.keyboard.press('Escape');
    await page.getByTestId('sell-panel').waitFor({ state: 'detached' });
    await warnings.locator('.bk-alert__close').first().click();
    await warnings.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: t.proceedPurchase }).click();
    const panel = page.getByTestId('purchase-panel');
    await panel.getByTestId('purchase-preview').waitFor();
    expect(await warnings.count()).toBe(0);
    // 24 x 22.50 = 540.00 at the product's cost; the bill says 21.00: 24 x 21.00 = 504.00 (simple mode, no tax).
    await expect_text(panel.getByTestId('pp-total'), '₹540.00');
    const cost = panel.locator('[data-testid^="pp-cost-"]').first();
    await cost.fill('21');
    await expect_text(panel.getByTestId('pp-total'), '₹504.00');
    await panel.getByLabel(t.billNo).fill(`PW-${lng}-1`);
    await panel.getByLabel(t.distributor).selectOption(String(dist));
    await e2e.shot(page, `first-day-${lng}-3-purchase-panel`);
    await panel.getByRole('button', { name: t.confirmPurchase }).click();
    await panel.waitFor({ state: 'detached' });
    const purchases = (await ok<{ purchaseList: { id: number }[] }>('GET', '/getPurchaseList?pageNo=0', token)).purchaseList;
    expect(purchases).toHaveLength(1);
    const bought = await ok<any>('GET', `/getPurchaseDetails?purchaseId=${purchases[0]!.id}`, token);
    expect(bought).toMatchObject({ subTotal: 504, total: 504 });
    expect(bought.lines[0]).toMatchObject({ rate: 21, quantity: 24 });

    // 4. The first sale: 2 packets to the walk-in, paid in full (2 x 28 = 56).
    await ok('GET', `/addProductIntoCart/${encodeURIComponent(`2*${productId}`)}?cart_no=1`, token);
    await page.goto('/');
    await page.getByText('Tata Salt 1kg').first().waitFor();
    // Issue 32: a mobile typed in the customer search starts Add Customer; simple mode keeps the spec's state (MH).
    await page.getByLabel(t.search, { exact: true }).pressSequentially('9822334455');
    await page.getByRole('button', { name: t.addCustomer }).click();
    const customer = page.getByTestId('customer-form');
    await page.waitForFunction(() => (document.getElementById('customer-form-mobile') as HTMLInputElement | null)?.value === '9822334455');
    expect(await customer.locator('#customer-form-name').inputValue()).toBe('');
    expect(await customer.locator('#customer-form-state').inputValue()).toBe('MH');
    await e2e.shot(page, `first-day-${lng}-3b-add-customer-from-search`);
    await customer.getByRole('button', { name: t.cancel }).click();
    await customer.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: t.proceedSell, exact: true }).click();
    await page.getByTestId('sell-panel').waitFor();
    await page.keyboard.type('56');
    await page.keyboard.press('Enter');
    await page.getByTestId('sell-panel').waitFor({ state: 'detached' });
    const stockNow = (await ok<{ list: any[] }>('GET', `/getProductList?pageNo=0&text=${productId}`, token)).list[0].stock;
    expect(stockNow).toBe('32'); // 10 opening + 24 bought - 2 sold

    // 5. The list has ticked products and the purchase.
    await page.goto('/reports');
    await page.getByTestId('getting-started').waitFor();
    expect(await stepsDone(page)).toMatchObject({ category: true, products: true, purchase: true });
    await e2e.shot(page, `first-day-${lng}-4-checklist-after`);
  }, 240_000);
});

async function expect_text(loc: ReturnType<Page['locator']>, text: string) {
  await loc.filter({ hasText: text }).waitFor({ timeout: 10_000 });
}
