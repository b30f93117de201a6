import type { Page } from 'playwright-core';
import { ACCOUNTS, alertText, login, managerWithCatalogue, startE2E, type E2E } from '../src/harness';
import { layoutProblems } from '../src/layout';
import { todayIST } from '../src/dates';

// The back office in Hindi: a manager switches from the profile menu and walks products,
// categories, purchases (cart, list, detail, distributors, reorder, debit notes) and both payment
// screens; the platform admin walks the companies. Each screen is photographed and checked for
// text that is cut off or pushes the page sideways; a product is added and edited and a payment
// received in Hindi, and their results read back from the services.

let e2e: E2E;
let manager: string;
let page: Page;
let purchaseId: number;
let distributorId: number;
let debitNoteNo: string;

const ok = async <T = unknown>(method: string, p: string, body?: unknown, token = manager): Promise<T> => {
  const r = await e2e.api<T>(method, p, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

async function chooseLanguage(p: Page, lng: 'en' | 'hi') {
  await p.locator('.sh-profile__button').click();
  await p.getByTestId(`language-${lng}`).click();
  await p.waitForFunction((l) => document.documentElement.lang === l, lng);
}

/** Back-office texts cut off, a button or menu link wrapping onto a second line; wide tables may scroll in their wrapper. */
const backOfficeProblems = (p: Page) =>
  layoutProblems(p, {
    within: 'main',
    texts: 'h1, h2, h3, label, button, th, dt, dd, a, span, p, legend, strong',
    scrolling: '.bk-table-wrap, .pu-table-wrap',
    oneLine: 'button, .bk-btn, nav a',
  });

/** A form field by its label's start (a required field's label ends in " *"). */
const field = (label: string, p: Page = page) => p.getByLabel(new RegExp(`^${label.replace(/[()]/g, '\\$&')}( \\*)?$`));

/** Waits for the heading, photographs the screen as hindi-<name>.png and checks its layout. */
async function screen(p: Page, url: string, heading: string, name: string) {
  if (url) await p.goto(url);
  await p.getByRole('heading', { name: heading, exact: true }).first().waitFor();
  // The page's English must be gone (a remote that did not switch would still show it).
  expect(await p.evaluate(() => document.documentElement.lang)).toBe('hi');
  await p.waitForLoadState('networkidle');
  // From the top: a full-page shot of a scrolled page draws the sticky top bar mid-page.
  await p.evaluate(() => window.scrollTo(0, 0));
  await e2e.shot(p, `hindi-${name}`);
  expect({ name, problems: await backOfficeProblems(p) }).toEqual({ name, problems: [] });
}

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents'] });
  manager = await managerWithCatalogue(e2e);
  // A purchase of two demo products from a distributor of our own (cart 2, so the counter's cart
  // stays empty), and one pack of it sent back: a debit note.
  distributorId = (
    await ok<{ id: number }>('POST', '/addDistributor', {
      name: 'शर्मा ट्रेडर्स', address_line_1: '12 Chandni Chowk', address_line_2: '', city_or_district: 'Delhi', state: 'DL', country: 'India', postal_code: '110006', officers: [],
    })
  ).id;
  await ok('POST', '/reorderList/fillCart', { cart_no: 2, lines: [{ product_id: 1, quantity: '2' }, { product_id: 2, quantity: '3' }] });
  await ok('POST', '/checkOutPurchase', { bill_no: 'ST-101', distributor: distributorId, officer: '', paid: '0', due_date: todayIST(), cart_no: 2 });
  purchaseId = (await ok<{ purchaseList: { id: number }[] }>('GET', '/getPurchaseList?pageNo=0')).purchaseList[0]!.id;
  const detail = await ok<{ lines: { sl_no: number }[] }>('GET', `/getPurchaseDetails?purchaseId=${purchaseId}`);
  debitNoteNo = (
    await ok<{ debit_note_no: string }>('POST', '/purchaseReturn', { purchaseId, lines: [{ sl_no: detail.lines[0]!.sl_no, quantity: 1 }], refund: 0, idempotencyKey: 'hindi-backoffice-1', reason: 'Damaged' })
  ).debit_note_no;
  page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await page.goto('/productItem');
  await page.getByRole('heading', { name: 'Product Details' }).waitFor();
  await chooseLanguage(page, 'hi');
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
});

describe('the back office in Hindi', () => {
  let productId: number;

  it('products: the list and the grid switch at once, then a product is added and edited in Hindi', async () => {
    // The open list re-rendered in Hindi without a reload.
    await screen(page, '', 'प्रोडक्ट विवरण', 'products-list');
    await page.getByRole('columnheader', { name: 'लागत' }).waitFor();
    expect(await page.getByText('स्टॉक गिनती').count()).toBe(1);
    await screen(page, '/product', 'प्रोडक्ट देखें', 'products-grid');

    await screen(page, '/productItem/addProducts', 'प्रोडक्ट जोड़ें', 'product-add');
    const cats = await ok<{ cat: { id: number; name: string }[] }>('GET', '/getCategoryBrand');
    await page.getByLabel('श्रेणी', { exact: true }).selectOption(String(cats.cat[0]!.id));
    await field('ब्रांड').fill('गंगा');
    await field('नाम').fill('गंगा बासमती चावल 5kg');
    await field('MRP').fill('650');
    await field('लागत मूल्य').fill('540');
    await field('इकाई').fill('pcs');
    await page.getByLabel('टैक्स %', { exact: true }).fill('5');
    await page.getByRole('button', { name: 'प्रोडक्ट जोड़ें' }).click();
    await page.waitForURL(/\/productItem\/\d+$/);
    productId = Number(page.url().split('/').pop());
    expect(await alertText(page)).toBe(`प्रोडक्ट ${productId} बन गया।`);
    const created = (await ok<{ product: { product_name: string; brand_name: string; mrp: string; cp: string } }>('GET', `/getProductDetails?id=${productId}`)).product;
    expect(created).toMatchObject({ product_name: 'गंगा बासमती चावल 5kg', brand_name: 'गंगा' });
    expect(Number(created.mrp)).toBe(650);
    expect(Number(created.cp)).toBe(540);

    // Edit: the MRP goes from 650 to 675.
    await page.getByRole('heading', { name: `${productId} : गंगा बासमती चावल 5kg` }).waitFor();
    await page.getByRole('button', { name: 'विवरण बदलें' }).click();
    await field('MRP').fill('675');
    await screen(page, '', `${productId} : गंगा बासमती चावल 5kg`, 'product-edit');
    await page.getByRole('button', { name: 'सेव करें', exact: true }).click();
    await page.getByTestId('alert').filter({ hasText: 'प्रोडक्ट सेव हो गया।' }).first().waitFor();
    expect(Number((await ok<{ product: { mrp: string } }>('GET', `/getProductDetails?id=${productId}`)).product.mrp)).toBe(675);
    await page.getByRole('columnheader', { name: 'खरीद/बिक्री' }).waitFor();
  });

  it('categories: the list, a category and the add form', async () => {
    await screen(page, '/productsCatagory', 'श्रेणियाँ', 'categories');
    await page.getByRole('columnheader', { name: 'किसके अंदर' }).waitFor();
    const cats = await ok<{ cat: { id: number; name: string }[] }>('GET', '/getCategoryBrand');
    await screen(page, `/productsCatagory/${cats.cat[0]!.id}`, cats.cat[0]!.name, 'category');
    await page.getByRole('columnheader', { name: 'लेबल पर क्रम' }).waitFor();
    await screen(page, '/productsCatagory/add', 'श्रेणी जोड़ें', 'category-add');
    await page.getByRole('button', { name: 'स्पेक जोड़ें' }).click();
    await field('स्पेक 1 का नाम').waitFor();
    await e2e.shot(page, 'hindi-category-add-spec');
    expect(await backOfficeProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'स्पेक 1 हटाएँ' }).click();
    // Spaces pass the browser's required check; the form's own rule names the problem.
    await field('नाम').fill('  ');
    await page.getByRole('button', { name: 'श्रेणी सेव करें' }).click();
    expect(await alertText(page)).toBe('श्रेणी का नाम ज़रूरी है।');
    await e2e.shot(page, 'hindi-category-add-error');
    expect(await backOfficeProblems(page)).toEqual([]);
  });

  it('purchases: the cart, the purchase account, a purchase, its labels, debit notes and the reorder list', async () => {
    await page.goto('/');
    await page.getByTestId('product-entry').waitFor();
    // The first demo product, by its barcode.
    await page.getByTestId('product-entry').fill('89012100001');
    await Promise.all([page.waitForResponse((r) => r.url().includes('/api/addProductIntoCart')), page.getByTestId('product-entry').press('Enter')]);
    // The line must be in the cart before Proceed to purchase (an empty cart refuses it).
    await page.getByText('Greenply Club 18mm MR Plywood').first().waitFor();
    await page.getByRole('button', { name: 'खरीद करें' }).click();
    await page.getByTestId('purchase-panel').waitFor();
    await page.waitForLoadState('networkidle');
    await e2e.shot(page, 'hindi-purchase-cart');
    expect(await backOfficeProblems(page)).toEqual([]);
    await ok('DELETE', '/clearCart/1');

    await screen(page, '/purchaseList', 'खरीद खाता', 'purchase-list');
    await page.getByRole('columnheader', { name: 'कुल रकम' }).waitFor();
    await screen(page, `/purchase/${purchaseId}`, `खरीद #${purchaseId}`, 'purchase');
    expect(await page.getByTestId('purchase-debit-notes').textContent()).toContain(`डेबिट नोट ${debitNoteNo}`);
    expect(await page.getByTestId('purchase-debit-notes').textContent()).toContain('कुछ लौटाया');
    await page.getByText('पिछला बकाया').waitFor();
    await page.getByTestId('return-to-distributor').click();
    await page.getByTestId('purchase-return-dialog').waitFor();
    await e2e.shot(page, 'hindi-purchase-return');
    expect(await backOfficeProblems(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await screen(page, `/purchase/${purchaseId}/printLabel`, `खरीद #${purchaseId} के लेबल`, 'purchase-labels');
    expect(await page.getByTestId('label-count').textContent()).toMatch(/^\d+ लेबल · \d+ पेज$/);
    await screen(page, '/purchaseList/debitNotes', 'डेबिट नोट', 'debit-notes');
    await page.getByTestId('debit-note-list').getByText(debitNoteNo).waitFor();
    await screen(page, '/purchaseProducts', 'प्रोडक्ट खरीदें', 'purchase-products');

    await screen(page, '/distributor', 'डिस्ट्रीब्यूटर', 'distributors');
    await screen(page, `/distributor/transaction/${distributorId}`, 'शर्मा ट्रेडर्स', 'distributor');
    await page.getByText(`डिस्ट्रीब्यूटर #${distributorId} · Delhi, Delhi`).waitFor();
    await page.getByRole('button', { name: 'विवरण देखें' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'बदलें', exact: true }).waitFor();
    await e2e.shot(page, 'hindi-distributor-details');
    expect(await backOfficeProblems(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await screen(page, '/distributor/add', 'डिस्ट्रीब्यूटर जोड़ें', 'distributor-add');
    await field('नाम').fill('  ');
    await page.getByRole('button', { name: 'सेव करें', exact: true }).click();
    expect(await alertText(page)).toBe('नाम ज़रूरी है।');

    // The demo products sell low: the reorder list has lines, counted with an ICU plural.
    await screen(page, '/reorderList', 'रीऑर्डर सूची', 'reorder');
    expect(await page.getByTestId('reorder-count').textContent()).toMatch(/^\d+ प्रोडक्ट अपने न्यूनतम स्टॉक पर या उससे नीचे$/);
  });

  it('payments: a customer pays 200 in Hindi; the receipt and the due agree; give payment', async () => {
    const [ramesh] = await ok<{ client_id: number; name: string; mobile_no: string }[]>('GET', '/getCustomerList/?text=Ramesh');
    const before = (await ok<{ due: number }>('GET', `/getClientDueAndDueDate?custId=${ramesh!.client_id}`)).due;

    await screen(page, '/payments/receivePayment', 'भुगतान लें', 'receive-payment');
    const submit = page.getByRole('button', { name: 'भुगतान लें' });
    await submit.click();
    expect(await alertText(page)).toBe('कृपया ग्राहक चुनें !!');
    await page.getByLabel('ग्राहक', { exact: true }).fill('Ram');
    await page.getByTestId('customer-list').getByText(`${ramesh!.client_id} : ${ramesh!.name}`).click();
    await page.getByTestId('total-due').filter({ hasText: '₹' }).waitFor();
    await field('रकम (₹)').fill('200');
    await e2e.shot(page, 'hindi-receive-payment-filled');
    expect(await backOfficeProblems(page)).toEqual([]);
    await submit.click();
    await page.waitForURL(/\/payments\/receivePayment\/\d+$/);
    await screen(page, '', 'पैसे की रसीद', 'receipt');
    const receipt = page.getByTestId('receipt');
    expect(await receipt.getByTestId('receipt-amount').textContent()).toBe('₹200.00');
    expect(await receipt.getByTestId('receipt-name').textContent()).toBe(`${ramesh!.name} (ग्राहक #${ramesh!.client_id})`);
    // The due is the one before less 200, on the receipt and in the ledger.
    const after = (await ok<{ due: number }>('GET', `/getClientDueAndDueDate?custId=${ramesh!.client_id}`)).due;
    expect(after).toBe(before - 200);
    expect(await receipt.getByTestId('receipt-due').textContent()).toBe(`₹${after.toLocaleString('en-IN', { minimumFractionDigits: 2 })}`);

    await screen(page, '/payments/givePayment', 'भुगतान दें', 'give-payment');
    await page.getByLabel('डिस्ट्रीब्यूटर', { exact: true }).fill('शर्मा');
    await page.getByTestId('distributor-list').getByText(`${distributorId} : शर्मा ट्रेडर्स`).click();
    await page.getByTestId('total-due').filter({ hasText: '₹' }).waitFor();
    await e2e.shot(page, 'hindi-give-payment-filled');
    expect(await backOfficeProblems(page)).toEqual([]);
  });

  it("GST mode: the service's refusal of an HSN code shows in Hindi under the HSN field", async () => {
    // Last, so the GST columns do not change the screens above.
    const company = await ok<Record<string, unknown>>('GET', '/getCompanyDetails');
    await ok('POST', '/setCompanyDetails', { id: company.id, name: company.name, add1: company.add1, add2: company.add2, mob1: company.mob1, mob2: company.mob2, email: company.email, tax_mode: 'gst', gstin: '27AAPFU0939F1ZV', invoice_prefix: 'DM' });
    await page.goto(`/productItem/${productId}`);
    await page.getByRole('button', { name: 'विवरण बदलें' }).click();
    await field('HSN कोड').fill('44121');
    await page.getByRole('button', { name: 'सेव करें', exact: true }).click();
    const error = page.locator('.ct-field-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^HSN कोड .*44121.* 4, 6 या 8 अंकों का होना चाहिए।$/);
    expect(await field('HSN कोड').getAttribute('aria-invalid')).toBe('true');
    await screen(page, '', `${productId} : गंगा बासमती चावल 5kg`, 'product-hsn-refused');
  });

  it('admin: the platform admin sees the companies, a company and the add form in Hindi', async () => {
    const admin = await e2e.newPage();
    await login(admin, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
    await admin.goto('/admin');
    await admin.getByRole('heading', { name: 'Companies', exact: true }).waitFor();
    await chooseLanguage(admin, 'hi');
    await screen(admin, '', 'कंपनियाँ', 'admin-companies');
    await admin.getByRole('columnheader', { name: 'मैनेजर' }).waitFor();
    await admin.getByTestId('company-list').locator('tbody tr').first().click();
    await admin.getByRole('button', { name: 'कंपनी हटाएँ' }).waitFor();
    await screen(admin, '', (await admin.locator('.bk-page-title h1').textContent())!, 'admin-company');
    await admin.getByRole('button', { name: 'पासवर्ड बदलें' }).first().click();
    await admin.getByRole('dialog').getByText('का नया पासवर्ड').waitFor();
    await e2e.shot(admin, 'hindi-admin-password');
    expect(await backOfficeProblems(admin)).toEqual([]);
    await admin.keyboard.press('Escape');
    await screen(admin, '/admin/createCompany', 'कंपनी जोड़ें', 'admin-create-company');
    await admin.getByRole('button', { name: 'कंपनी बनाएँ' }).click();
    expect(await alertText(admin)).toBe('कृपया सभी ज़रूरी फ़ील्ड भरें।');
  });
});
