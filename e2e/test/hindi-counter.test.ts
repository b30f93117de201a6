import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ACCOUNTS, login, managerWithCatalogue, recordPrints, startE2E, type E2E } from '../src/harness';
import { layoutProblems } from '../src/layout';
import { todayIST } from '../src/dates';

// The counter in Hindi: a cashier whose language is Hindi sells with the keyboard only, prints
// the bill, and every sales area (cart, checkout, bill, estimates, customers, sells account)
// reads in Hindi with amounts and dates still en-IN. Each screen is photographed and checked for
// clipped text and overflow (Devanagari is wider and taller than Latin text).
let e2e: E2E;
let page: Page;
let manager: string;
let staff: string;
let customerId: number;
let estimateId: number;

// Demo catalogue (services/inventory seed).
const P2 = { id: 2, barcode: '89012100002', name: 'Greenply Club 12mm MR Plywood', mrp: 2150 };
const P10 = { id: 10, barcode: '89012100010', name: 'Commercial Plywood 4mm', mrp: 520 };
const P25 = { id: 25, barcode: '89012100025', name: 'Godrej Ultra Mortise Lock', mrp: 1890 };
const CUSTOMER = { name: 'Sunita Verma', mobile: '9822001144' };

const byId = (id: string) => page.getByTestId(id);
const text = async (id: string) => ((await byId(id).textContent()) ?? '').trim();
const seeText = (id: string, t: string) => byId(id).filter({ hasText: t }).first().waitFor();

/** The cashier's language on the server, once it is `want` (the switch saves it after the screen turns), or after 5 s. */
async function serverLanguage(want: string): Promise<string | undefined> {
  let language: string | undefined;
  for (let i = 0; i < 50 && language !== want; i++) {
    if (i) await new Promise((r) => setTimeout(r, 100));
    language = (await e2e.api<{ user: { language?: string } }>('GET', '/getUserData', { token: staff })).body.user.language;
  }
  return language;
}

/** Cards and dialogs wider than they are, or counter texts cut off by their box. */
const clipped = () =>
  layoutProblems(page, {
    boxes: '.sl-card, .sl-bill, .bk-card, [role=dialog]',
    texts: 'button, th, dt, label, h1, h2, a, .sl-badge, .bk-btn, .bk-field label, .sl-keys li, .sl-customer__row span',
  });

/** A screenshot to look at, at the usual counter width and at a small laptop's, each checked for clipping. */
async function look(name: string) {
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    await page.waitForTimeout(150);
    await e2e.shot(page, width === 1366 ? name : `${name}-${width}`);
    expect(await clipped()).toEqual([]);
  }
  await page.setViewportSize({ width: 1366, height: 800 });
}

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents'] });
  manager = await managerWithCatalogue(e2e);
  staff = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.staff })).body.token;
  const added = await e2e.api<{ id: number }>('POST', '/clients/addClient', {
    token: manager,
    body: {
      mobile_no: CUSTOMER.mobile,
      name: CUSTOMER.name,
      address_line_1: '12 Station Road',
      address_line_2: '',
      city_or_district: 'Indore',
      state: 'MP',
      country: 'India',
      postal_code: '452001',
    },
  });
  customerId = added.body.id;
  // An estimate to find in the list: 2 locks for the customer, made at the manager's counter.
  const scanned = await e2e.api<unknown[]>('GET', `/addProductIntoCart/2*${P25.barcode}?cart_no=1`, { token: manager });
  expect(scanned.body).toHaveLength(2);
  const made = await e2e.api<{ error?: string }>('GET', `/createEstimate?cart_no=1&clientId=${customerId}`, { token: manager });
  expect(made.body?.error).toBeUndefined();
  const list = await e2e.api<{ estimateList: { id: number }[] }>('GET', '/getEstimateList?pageNo=0', { token: manager });
  expect(list.body.estimateList).toHaveLength(1);
  estimateId = list.body.estimateList[0]!.id;

  page = await e2e.newPage();
  await recordPrints(page.context());
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
});

describe('the counter in Hindi', () => {
  it('switches to Hindi from the profile menu, sells with the keyboard only and prints the bill', async () => {
    await page.goto('/');
    await byId('product-entry').waitFor();
    await page.getByRole('heading', { name: 'Cart', exact: true }).waitFor();
    // The cashier's own choice: the open cart turns Hindi at once, and the server remembers it.
    await page.locator('.sh-profile__button').click();
    await byId('language-hi').click();
    await page.getByRole('heading', { name: 'कार्ट', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('hi');
    expect(await serverLanguage('hi')).toBe('hi');
    expect(await byId('product-entry').getAttribute('placeholder')).toContain('बारकोड स्कैन करें');
    // The keys stay the keys; what they do is said in Hindi.
    const keys = await text('keys');
    for (const k of ['F2', 'Enter', '5*code', 'F4', 'F9', 'Esc']) expect(keys).toContain(k);
    expect(keys).toContain('ग्राहक खोजें');
    expect(await byId('clear-cart').textContent()).toBe('कार्ट खाली करें');
    await look('hindi-cart-empty');

    await page.keyboard.press('F2');
    for (const code of [P2.barcode, `3*${P10.barcode}`]) {
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
    }
    // Amounts stay en-IN: 2150 + 3 x 520 = 3710.
    await seeText('subtotal', '₹3,710.00');
    await page.getByLabel(`${P10.name} की मात्रा`, { exact: true }).waitFor();
    await page.keyboard.press('F4');
    await page.keyboard.type(CUSTOMER.mobile.slice(0, 8));
    await byId('customer-suggestions').waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await seeText('current-customer', CUSTOMER.name);
    expect((await byId('summary').locator('dt').allTextContents()).map((s) => s.trim())).toEqual([
      'उप-योग',
      'बकाया',
      'टैक्स (18%)',
      'शिपिंग',
      'छूट',
      'कुल',
    ]);
    await look('hindi-cart');

    // F9: the sell panel, in Hindi; Paid is focused with the total, typed over.
    await page.keyboard.press('F9');
    const panel = byId('sell-panel');
    await panel.waitFor();
    await panel.getByLabel('भुगतान', { exact: true }).waitFor();
    await panel.getByLabel('बकाया तारीख', { exact: true }).waitFor();
    expect(await text('sell-confirm')).toBe('बिक्री पक्की करें (Enter)');
    await page.keyboard.type('1000');
    await look('hindi-checkout');
    await page.keyboard.press('Enter');

    // The bill opens on its print route: the bill's PDF goes to the print dialog.
    await page.waitForURL(/\/salesList\/bill\/print\/\d+$/);
    const saleId = Number(page.url().split('/').pop());
    await byId('bill').waitFor();
    await page.locator('iframe[data-testid="print-frame"][src^="blob:"]').waitFor({ state: 'attached' });
    await page.waitForFunction(() => (window as unknown as { __prints?: number }).__prints === 1);
    const pdf = await fetch(`${e2e.baseUrl}/api/documents/bill/${saleId}`, { headers: { Authorization: `Bearer ${staff}` } });
    expect(pdf.status).toBe(200);
    const file = path.join(os.tmpdir(), `hindi-counter-bill-${saleId}.pdf`);
    fs.writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    expect(fs.readFileSync(file).subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })).toContain(CUSTOMER.name);

    // The bill view in Hindi, its figures en-IN: 3710 sold, 1000 paid, 2710 due.
    await byId('bill').getByText(`बिल #${saleId}`).waitFor();
    expect(await text('bill-amount')).toBe('₹3,710.00');
    expect(await text('bill-paid')).toBe('₹1,000.00');
    expect(await text('bill-due')).toBe('₹2,710');
    const labels = (await byId('bill-totals').locator('span:not(.r)').allTextContents()).map((s) => s.trim());
    expect(labels).toEqual(['उप-योग', 'शिपिंग', 'छूट', 'राशि', 'पिछला बकाया', 'कुल', 'भुगतान', 'नकद', 'कुल बकाया']);
    expect(await text('print-bill')).toBe('प्रिंट');
    expect(await text('move-to-cart')).toBe('कार्ट में डालें');
    await look('hindi-bill');
  });

  it('estimates, customers and the sells account read in Hindi', async () => {
    // A fresh page load keeps the chosen language.
    await page.goto('/estimateList');
    const estimates = byId('estimate-list');
    await estimates.locator('tbody tr').first().waitFor();
    expect((await estimates.locator('th').allTextContents()).map((s) => s.trim())).toEqual(['आईडी', 'तारीख', 'ग्राहक का नाम', 'कुल राशि']);
    await estimates.getByText('₹3,780.00').first().waitFor(); // 2 x 1890
    await look('hindi-estimates');

    await page.goto(`/estimateList/edit/${estimateId}`);
    await byId('estimate-editor').waitFor();
    await page.getByRole('heading', { name: `एस्टिमेट #${estimateId}`, exact: true }).waitFor();
    await seeText('estimate-customer', CUSTOMER.name);
    await page.getByRole('button', { name: 'कॉपी बनाएँ', exact: true }).waitFor();
    await look('hindi-estimate-editor');

    await page.goto('/clientList');
    await page.getByRole('heading', { name: 'ग्राहक विवरण', exact: true }).waitFor();
    await byId('clients-table').getByText(CUSTOMER.name).waitFor();
    expect(await page.getByLabel('ग्राहक खोजें').first().getAttribute('placeholder')).toBe('नाम या मोबाइल से ग्राहक खोजें');
    await look('hindi-customers');

    await page.goto(`/clientList/transaction/${customerId}`);
    await byId('ledger-name').filter({ hasText: CUSTOMER.name }).waitFor();
    await page.getByText('कुल बकाया').first().waitFor();
    expect(await text('ledger-due')).toContain('₹2,710.00');
    await look('hindi-customer-ledger');

    await page.goto('/salesList');
    const sales = byId('sales-list');
    await sales.locator('tbody tr').first().getByText(CUSTOMER.name).waitFor();
    expect((await sales.locator('th').allTextContents()).map((s) => s.trim())).toEqual([
      'आईडी',
      'तारीख',
      'ग्राहक का नाम',
      'कुल राशि',
      'भुगतान',
      'स्थिति',
    ]);
    // Amounts stay en-IN.
    await sales.locator('tbody tr').first().getByText('₹3,710.00').waitFor();
    await look('hindi-sales-list');
    const saleId = ((await sales.locator('tbody tr td').first().textContent()) ?? '').trim();

    await byId('open-credit-notes').click();
    await byId('credit-note-list').getByText('अभी कोई क्रेडिट नोट नहीं').waitFor();
    await look('hindi-credit-notes');

    await page.goto(`/salesList/bill/show/${saleId}/delivery`);
    await byId('delivery-form').getByLabel('ट्रांसपोर्टर का नाम').waitFor();
    await look('hindi-delivery');

    await page.goto('/clientList?overdue=1');
    await byId('overdue-table').waitFor();
    await page.getByRole('button', { name: 'चुने हुओं को याद दिलाएँ (0)' }).waitFor();
    await look('hindi-overdue');

    await page.goto('/clientList/add-client');
    const form = byId('add-client-form');
    await form.getByLabel('पता पंक्ति 1').waitFor();
    // Saving without a name says so in Hindi.
    await form.getByLabel('मोबाइल').fill('9822001199');
    await form.getByRole('button', { name: 'सेव करें', exact: true }).click();
    await page.getByTestId('alert').filter({ hasText: 'नाम ज़रूरी है।' }).waitFor();
    await look('hindi-add-customer');
  });

  it("a manager's purchase checkout, bill cancel and return dialogs read in Hindi", async () => {
    // A bill of the manager's own to cancel or return from: one lock to the walk-in, paid in full.
    expect((await e2e.api<unknown[]>('GET', `/addProductIntoCart/${P25.barcode}?cart_no=1`, { token: manager })).body).toHaveLength(2);
    const sold = await e2e.api<{ saleId: number }>('POST', '/MAKE_SALE', {
      token: manager,
      body: { clientId: 0, cart_no: 1, paid: '1890', dueDate: '2030-01-01', date: todayIST() },
    });
    const saleId = sold.body.saleId;
    expect(saleId).toBeGreaterThan(0);
    const cashier = page;
    page = await e2e.newPage();
    try {
      await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
      await page.goto('/');
      await byId('product-entry').waitFor();
      await page.locator('.sh-profile__button').click();
      await byId('language-hi').click();
      await page.getByRole('heading', { name: 'कार्ट', exact: true }).waitFor();

      await byId('product-entry').fill(P10.barcode);
      await byId('product-entry').press('Enter');
      await byId(`line-${P10.id}`).waitFor();
      await page.getByRole('button', { name: 'खरीद करें', exact: true }).click();
      const purchase = byId('purchase-panel');
      await purchase.getByLabel('डिस्ट्रीब्यूटर').waitFor();
      await purchase.getByRole('button', { name: 'खरीद पक्की करें' }).click();
      await page.getByTestId('alert').filter({ hasText: 'बिल नंबर ज़रूरी है।' }).waitFor();
      await look('hindi-purchase-panel');
      await page.keyboard.press('Escape');
      await byId('clear-cart').click();
      await page.getByRole('dialog').getByText('क्या आप यह कार्ट खाली करना चाहते हैं?').waitFor();
      await look('hindi-clear-cart-confirm');

      await page.goto(`/salesList/bill/show/${saleId}`);
      await byId('bill').waitFor();
      await byId('cancel-bill').click();
      await page.getByRole('dialog').getByText('प्रोडक्ट स्टॉक में वापस जाएगा').waitFor();
      await page.getByRole('dialog').getByLabel('कारण').waitFor();
      await look('hindi-cancel-bill');
      await page.getByRole('button', { name: 'बिल रहने दें' }).click();
      await byId('return-items').click();
      await byId('sales-return-dialog').waitFor();
      await page.getByRole('dialog').getByText(`बिल #${saleId} के प्रोडक्ट की वापसी`).waitFor();
      await look('hindi-return-items');
    } finally {
      await page.context().close();
      page = cashier;
    }
  });

  it('in GST mode the counter, the invoice panel and the tax invoice read in Hindi', async () => {
    const company = (await e2e.api<Record<string, unknown>>('GET', '/getCompanyDetails', { token: manager })).body;
    const set = await e2e.api('POST', '/setCompanyDetails', {
      token: manager,
      body: { id: company.id, name: company.name, add1: company.add1, add2: company.add2, mob1: company.mob1, mob2: company.mob2, email: company.email, tax_mode: 'gst', gstin: '27AAPFU0939F1ZV', invoice_prefix: 'HI' },
    });
    expect(set.status).toBe(200);

    await page.goto('/');
    await byId('product-entry').waitFor();
    for (const code of [P10.barcode, P25.barcode]) {
      await byId('product-entry').fill(code);
      await byId('product-entry').press('Enter');
    }
    await byId(`line-${P25.id}`).waitFor();
    // The customer is in Madhya Pradesh, the shop in Maharashtra: an inter-state supply (IGST).
    await page.keyboard.press('F4');
    await page.keyboard.type(CUSTOMER.mobile.slice(0, 8));
    await byId('customer-suggestions').waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await seeText('current-customer', CUSTOMER.name);
    await byId('gst-igst').waitFor();
    await byId('summary').getByText('टैक्स इनवॉइस').waitFor();
    await byId('summary').getByText('कर योग्य मूल्य').waitFor();
    await look('hindi-gst-cart');

    await page.keyboard.press('F9');
    await byId('sell-invoice').waitFor();
    await byId('sell-invoice').getByText('पिछला बकाया').waitFor();
    // Figures en-IN as in English: MRPs include tax, 520 + 1890 = 2410 invoiced; 2410 + 2710 owed before = 5120.
    expect(await text('sell-invoice-value')).toBe('₹2,410.00');
    expect(await text('sell-amount-due')).toBe('₹5,120.00');
    await look('hindi-gst-checkout');
    await page.keyboard.press('Enter');

    await page.waitForURL(/\/salesList\/bill\/print\/\d+$/);
    await byId('bill-gst-lines').waitFor();
    expect(await text('bill-document')).toBe('टैक्स इनवॉइस');
    await byId('bill-place-of-supply').getByText('आपूर्ति का स्थान:').waitFor();
    expect(await text('bill-invoice-no')).toMatch(/^HI/);
    await look('hindi-gst-bill');
  });
});
