// The shared components in Hindi: a manager whose language is Hindi pages through the product
// list (a go-to page and a bad page number), imports a small CSV through the import wizard, shares
// a bill on WhatsApp (the Hindi message by default, its amount en-IN) and reads the GST returns
// page. Every screen is photographed and checked for clipped text and overflow.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { ACCOUNTS, alertText, login, managerWithCatalogue, startE2E, type E2E } from '../src/harness';
import { layoutProblems } from '../src/layout';
import { todayIST } from '../src/dates';

let e2e: E2E;
let page: Page;
let manager: string;
let company: Record<string, string>;
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-hindi-shared-'));

// GSTINs with correct check characters (packages/gst/test/gstin.test.ts works them out by hand).
const MH_GSTIN = '27AAPFU0939F1ZV';
const GJ_GSTIN = '24AAGCS5678K1ZT';
// Demo catalogue: product 1 is Greenply Club 18mm MR Plywood at MRP 2850 (42 in stock); barcode 89012 + (100000 + id).
const PLY18 = { code: '89012100001', mrp: 2850 };

const byId = (id: string) => page.getByTestId(id);

async function ok<T = any>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const r = await e2e.api<T>(method, apiPath, { token: manager, body });
  if (r.status !== 200) throw new Error(`${method} ${apiPath}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Cards, dialogs and the pager wider than they are, or shared components' texts cut off by their box. */
const clipped = () =>
  layoutProblems(page, {
    boxes: '.bk-card, .bk-modal, .bk-pager, .bk-import__steps',
    texts: 'button, th, label, h1, h2, h3, a, select, .bk-btn, .bk-stat__label, .bk-pager__info, .bk-import__steps li, .bk-alert__text',
  });

/** A screenshot to look at (e2e/test-results/screenshots/hindi-shared-<name>.png), at two widths, each checked for clipping. */
async function look(name: string) {
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    await page.waitForTimeout(150);
    await e2e.shot(page, width === 1366 ? `hindi-shared-${name}` : `hindi-shared-${name}-${width}`);
    expect(await clipped()).toEqual([]);
  }
  await page.setViewportSize({ width: 1366, height: 800 });
}

/** wa.me is not reachable from the test machine: the context answers it, so the opened tab keeps its URL. */
async function stubWhatsApp(ctx: BrowserContext): Promise<void> {
  await ctx.route('https://wa.me/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>WhatsApp</p>' }));
}

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents'] });
  manager = await managerWithCatalogue(e2e);
  company = await ok('GET', '/getCompanyDetails');
  // The manager's language is Hindi, remembered on the server: the shell applies it at sign-in.
  const set = await e2e.api('PUT', '/profile/language', { token: manager, body: { language: 'hi' } });
  expect(set.status).toBe(200);

  page = await e2e.newPage();
  await stubWhatsApp(page.context());
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await page.evaluate(() => localStorage.setItem('bahi.language', 'hi'));
  await page.reload();
  await page.waitForFunction(() => document.documentElement.lang === 'hi');
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
  fs.rmSync(TMP, { recursive: true, force: true });
});

describe('the shared components in Hindi', () => {
  it('the pager: Prev and Next in Hindi, a page reached from the go-to box, a bad page number said in Hindi', async () => {
    await page.goto('/productItem');
    const list = byId('product-list');
    await list.locator('tbody tr').first().waitFor();
    // The footer of the list, named for screen readers in Hindi.
    const pager = page.locator('footer.bk-pager[aria-label="पेज"]');
    await pager.waitFor();
    // The product list is a back-office list: pages are numbered from 0.
    expect(await pager.getAttribute('data-page-base')).toBe('0');
    await pager.getByRole('button', { name: 'अगला', exact: true }).waitFor();
    expect(await pager.getByRole('button', { name: 'पिछला', exact: true }).isDisabled()).toBe(true);
    const info = ((await pager.locator('.bk-pager__info').textContent()) ?? '').trim();
    expect(info).toMatch(/^पेज 0–\d+$/);
    const last = Number(info.split('–')[1]);
    expect(last).toBeGreaterThanOrEqual(1);

    const box = pager.getByLabel('पेज नंबर', { exact: true });
    expect(await box.getAttribute('placeholder')).toBe('पेज नंबर');
    await box.fill('1');
    await pager.getByRole('button', { name: 'जाएँ', exact: true }).click();
    await page.waitForURL(/[?&]pageNo=1\b/);
    await pager.locator('.bk-pager__current').filter({ hasText: /^1$/ }).waitFor();
    expect(await pager.getByRole('button', { name: 'पिछला', exact: true }).isDisabled()).toBe(false);
    await look('pager');

    // One past the last page: refused in Hindi, the page stays where it was.
    await box.fill(String(last + 1));
    await box.press('Enter');
    expect(await alertText(page)).toBe('पेज नंबर सही नहीं है');
    expect(new URL(page.url()).searchParams.get('pageNo')).toBe('1');
    await look('pager-bad-page');
  });

  it('the import wizard: upload a small CSV, match a column by hand, check the rows, import the valid ones', async () => {
    // "Sticker" is no name the import knows for the MRP: it is matched by hand. Row 3's cost is not a number.
    const file = path.join(TMP, 'kulfi.csv');
    fs.writeFileSync(
      file,
      [
        'Item Name,Brand,Category,Sticker,Purchase Price,Unit,Barcode,Opening Stock',
        'Kesar Kulfi,Hindi Dairy,Frozen,60,42.50,pcs,8909990000011,24',
        'Rose Kulfi,Hindi Dairy,Frozen,55,cheap,pcs,8909990000035,10',
      ].join('\n'),
    );
    await page.goto('/productItem/import');
    const wizard = byId('import-wizard');
    await wizard.waitFor();
    expect((await wizard.locator('.bk-import__steps li').allTextContents()).map((s) => s.replace(/^\d+\s*/, '').trim())).toEqual([
      'अपलोड',
      'कॉलम मिलाएँ',
      'पंक्तियाँ जाँचें',
      'इम्पोर्ट',
    ]);
    await wizard.getByRole('heading', { name: 'फ़ाइल चुनें', exact: true }).waitFor();
    expect(await byId('import-file').getAttribute('aria-label')).toBe('फ़ाइल');
    expect(((await byId('import-upload').textContent()) ?? '').trim()).toBe('अपलोड करें');
    await look('import-upload');

    await byId('import-file').setInputFiles(file);
    await byId('import-upload').click();
    await byId('import-mapping').waitFor();
    await wizard.getByRole('heading', { name: 'kulfi.csv के कॉलम मिलाएँ', exact: true }).waitFor();
    // ICU plural in Hindi: 2 पंक्तियाँ.
    await wizard.getByText('2 पंक्तियाँ', { exact: true }).waitFor();
    const mrp = page.locator('select[data-field="mrp"]');
    expect(await mrp.inputValue()).toBe('-1');
    expect(await mrp.locator('option').first().textContent()).toBe('— इम्पोर्ट नहीं —');
    await mrp.selectOption({ label: 'Sticker' });
    await wizard.getByRole('heading', { name: 'फ़ाइल की पहली पंक्तियाँ', exact: true }).waitFor();
    expect(await byId('import-preview').locator('tbody tr').count()).toBe(2);
    expect(((await byId('import-check').textContent()) ?? '').trim()).toBe('पंक्तियाँ जाँचें');
    await look('import-mapping');

    await byId('import-check').click();
    const report = byId('import-report');
    await report.waitFor();
    expect(await report.locator(':scope > div').allTextContents()).toEqual(['2 पंक्तियाँ', '1 सही', '1 में गलती']);
    expect((await byId('import-errors').locator('th').allTextContents()).map((s) => s.trim())).toEqual(['पंक्ति', 'कॉलम', 'गलती']);
    expect((await byId('import-errors').locator('tbody tr').first().locator('td').first().textContent())?.trim()).toBe('3');
    await wizard.getByText('नई श्रेणियाँ बनेंगी: Frozen।', { exact: true }).waitFor();
    await wizard.getByText('1 सही पंक्ति इम्पोर्ट करें, बाकी छोड़ दें', { exact: true }).waitFor();
    await look('import-report');

    await byId('mode-valid').check();
    await byId('import-run').click();
    await byId('import-done').waitFor({ timeout: 60_000 });
    expect((await byId('import-summary').textContent())?.replace(/\s+/g, ' ').trim()).toBe('2 में से 2 पंक्तियाँ · 1 जुड़े · 0 बदले · 1 छोड़े');
    await wizard.getByRole('heading', { name: 'इम्पोर्ट हो गया', exact: true }).waitFor();
    await look('import-done');
    // The valid row is a product now.
    const found = await ok<{ count: number; list: { product_name: string }[] }>('GET', '/getProductList?brand=Hindi%20Dairy');
    expect(found.list.map((p) => p.product_name)).toEqual(['Kesar Kulfi']);
  });

  it('the share dialog: the Hindi message by default, its amount in en-IN figures', async () => {
    const customer = await ok<{ id: number }>('POST', '/clients/addClient', {
      mobile_no: '9812377066',
      name: 'Rekha Sharma',
      address_line_1: '4 Station Road',
      address_line_2: '',
      city_or_district: 'Nashik',
      state: 'MH',
      country: 'India',
      postal_code: '422001',
    });
    // 40 x 2850 = 1,14,000.00; 4,000 paid now: 1,10,000.00 due, the amount the message names.
    await ok('DELETE', '/clearCart/1');
    await ok('GET', `/addProductIntoCart/${encodeURIComponent(`40*${PLY18.code}`)}`);
    const sale = await ok<{ saleId: number }>('POST', '/MAKE_SALE', { clientId: customer.id, cart_no: 1, paid: '4000', dueDate: '2030-12-31', date: todayIST() });

    await page.goto(`/salesList/bill/show/${sale.saleId}`);
    await byId('bill').waitFor();
    const button = byId('share-bill');
    expect(((await button.textContent()) ?? '').trim()).toBe('WhatsApp पर भेजें');
    // The screen is Hindi: so is the message, unless another language is picked.
    expect(await byId('share-lang-bill').inputValue()).toBe('hi');
    expect(await byId('share-lang-bill').getAttribute('aria-label')).toBe('संदेश की भाषा');

    const [tab] = await Promise.all([page.context().waitForEvent('page'), button.click()]);
    await tab.waitForURL(/^https:\/\/wa\.me\//, { timeout: 30_000 });
    const wa = new URL(tab.url());
    await tab.close();
    expect(wa.pathname).toBe('/919812377066');
    const text = wa.searchParams.get('text') ?? '';
    const link = /(http:\/\/[^ ]+\/s\/[A-Za-z0-9_-]{32})$/.exec(text)?.[1];
    expect(link).toBeDefined();
    // The company's Hindi template (contracts DEFAULT_SHARE_TEMPLATES.document.hi) with every placeholder filled.
    expect(text).toBe(`प्रिय Rekha Sharma, ${company.name} की ओर से आपका बिल ${sale.saleId} Rs 1,10,000.00 का है। देखें और डाउनलोड करें: ${link}`);
    expect(text).not.toMatch(/\{\w+\}/);

    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'भेजा गया लिंक', exact: true }).waitFor();
    expect(((await dialog.getByTestId('share-message').textContent()) ?? '').trim()).toBe(text);
    expect(await dialog.getByTestId('share-url').inputValue()).toBe(link);
    await dialog.getByRole('heading', { name: 'इस दस्तावेज़ के चालू लिंक', exact: true }).waitFor();
    expect((await dialog.getByTestId('share-links').locator('th').allTextContents()).map((s) => s.trim()).slice(0, 3)).toEqual(['बना', 'समाप्ति', 'देखा गया']);
    await dialog.getByRole('button', { name: 'संदेश कॉपी करें', exact: true }).waitFor();
    expect(await dialog.locator('.bk-share__meta').textContent()).toMatch(/^\d\d-\d\d-\d{4} \d\d:\d\d तक मान्य$/);
    await look('share-dialog');
    await dialog.getByRole('button', { name: 'बंद करें', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // English is still a choice: the same bill in the English template.
    await byId('share-lang-bill').selectOption('en');
    const [tab2] = await Promise.all([page.context().waitForEvent('page'), button.click()]);
    await tab2.waitForURL(/^https:\/\/wa\.me\//, { timeout: 30_000 });
    const english = new URL(tab2.url()).searchParams.get('text') ?? '';
    await tab2.close();
    expect(english).toMatch(new RegExp(`^Dear Rekha Sharma, here is your bill ${sale.saleId} from .+ for Rs 1,10,000\\.00\\. View and download: http://`));
    await page.getByRole('dialog').getByRole('button', { name: 'बंद करें', exact: true }).click();
  });

  it('the GST returns page reads in Hindi, its figures en-IN', async () => {
    // The demo company (Maharashtra) in GST mode, and the worked example: B2B to Gujarat,
    // 3 x 590 incl. 18 % and 2 x 100 excl. 12 % less 5 each -> taxable 1690, IGST 292.80, invoice 1983.
    await ok('POST', '/setCompanyDetails', {
      id: company.id,
      name: company.name,
      add1: company.add1 || 'Mumbai',
      mob1: company.mob1 || '9876543210',
      email: company.email || 'demo@demo.local',
      tax_mode: 'gst',
      gstin: MH_GSTIN,
      invoice_prefix: 'GT',
    });
    const { category } = await ok<{ category: { id: number }[] }>('GET', '/addProductPageDetails');
    const product = async (name: string, mrp: string, tax: string, hsn: string, includes: boolean) =>
      (await ok<{ id: number }>('POST', '/createNewProduct', { catagory: category[0]!.id, brand_name: 'Century', name, mrp, cp: '50', unit: 'pcs', per_peice_quantity: 1, tax, hsn_code: hsn, price_includes_tax: includes })).id;
    const ply = await product('Century Club Prime 18mm', '590', '18', '4412', true);
    const door = await product('Century Flush Door Fitting', '100', '12', '4418', false);
    const customer = await ok<{ id: number }>('POST', '/clients/addClient', {
      mobile_no: '9825011223',
      name: 'Shah Textiles',
      address_line_1: '12 Ring Road',
      address_line_2: '',
      city_or_district: 'Surat',
      state: '24',
      country: 'India',
      postal_code: '395003',
      gstin: GJ_GSTIN,
    });
    await ok('DELETE', '/clearCart/1');
    await ok('GET', `/addProductIntoCart/${encodeURIComponent(`3*${ply}`)}`);
    const [[line]] = await ok<[[{ sl_no: number }]]>('GET', `/addProductIntoCart/${encodeURIComponent(`2*${door}`)}`);
    await ok('POST', '/upDisc/', { sl_no: line.sl_no, discount: '5' });
    await ok('POST', '/MAKE_SALE', { clientId: customer.id, cart_no: 1, paid: '0', dueDate: '2030-01-31', date: todayIST() });
    const period = todayIST().slice(0, 7);
    const hindiMonth = new Intl.DateTimeFormat('hi-IN', { month: 'long', timeZone: 'UTC' }).format(new Date(`${period}-01T00:00:00Z`));

    await page.goto('/reports/gst');
    await page.getByRole('heading', { name: 'GST रिटर्न', exact: true }).waitFor();
    // The period's own label (the page's Tally card has date fields of the same style).
    expect(await page.locator('label.rp-month').filter({ has: byId('gst-period') }).locator('span').textContent()).toBe('महीना');
    await byId('gst-period').fill(period);
    const b2b = byId('gst-b2b');
    await b2b.waitFor();
    expect((await byId('gst-fp').textContent())?.trim()).toBe(`${hindiMonth} ${period.slice(0, 4)} (${period.slice(5, 7)}${period.slice(0, 4)})`);
    expect((await byId('gst-summary').locator('.bk-stat__label').allTextContents()).map((s) => s.trim())).toEqual(['GSTIN', 'रिटर्न अवधि', 'कर योग्य मूल्य', 'कर']);
    await page.getByRole('heading', { name: 'B2B इनवॉइस (1)', exact: true }).waitFor();
    expect((await b2b.locator('th').allTextContents()).map((s) => s.trim())).toEqual([
      'ग्राहक GSTIN',
      'इनवॉइस नं.',
      'तारीख',
      'आपूर्ति का स्थान',
      'इनवॉइस मूल्य',
      'कर योग्य मूल्य',
      'कर',
    ]);
    // The row in en-IN figures: invoice 1,983.00, taxable 1,690.00, IGST 292.80; the footer's label in Hindi.
    const row = (await b2b.locator('tbody tr').first().locator('td').allTextContents()).map((s) => s.trim());
    expect(row[0]).toBe(GJ_GSTIN);
    expect(row.slice(4)).toEqual(['₹1,983.00', '₹1,690.00', '₹292.80']);
    expect((await byId('gst-b2b-total').locator('td').first().textContent())?.trim()).toBe('कुल');
    await page.getByRole('heading', { name: 'GSTR-3B सारांश', exact: true }).waitFor();
    expect((await byId('gst-3b').locator('tbody td').first().textContent())?.trim()).toBe('3.1(a) कर योग्य बाहरी आपूर्ति');
    expect(((await byId('download-json').textContent()) ?? '').trim()).toBe('JSON डाउनलोड');
    expect(await byId('download-b2b').getAttribute('aria-label')).toBe('B2B CSV डाउनलोड');
    await look('gst-returns');
  });
});
