// Sharing on WhatsApp and due reminders in the browser: a bill shared from the bill view, its
// public page opened on a phone with JavaScript off, and the customer list's Overdue filter with Remind.
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ACCOUNTS, login, startE2E, type E2E } from '../src/harness';
import { addDays, todayIST } from '../src/dates';

const ROOT = path.resolve(__dirname, '..', '..');
let e2e: E2E;
let manager: string;

const daysAgo = (n: number) => addDays(todayIST(), -n);
const api = <T = any>(method: string, p: string, body?: unknown, token = manager) => e2e.api<T>(method, p, { token, body });
const shot = (page: Page, name: string) => e2e.shot(page, `share-${name}`);
// Demo catalogue: product 10 is Commercial Plywood 4mm at MRP 520; barcode 89012 + (100000 + id).
const PLY4 = { code: `89012${100000 + 10}`, mrp: 520 };

async function customer(name: string, mobile: string): Promise<number> {
  const added = await api('POST', '/clients/addClient', { mobile_no: mobile, name, address_line_1: '4 Station Road', address_line_2: '', city_or_district: 'Nashik', state: 'MH', country: 'India', postal_code: '422001' });
  expect(added.status).toBeLessThan(300);
  return added.body.id;
}

/** Sells `qty` of product 10 to a customer with `paid` paid now and the given due date. */
async function sale(clientId: number, qty: number, paid: string, dueDate: string): Promise<number> {
  expect((await api('DELETE', '/clearCart/1')).status).toBe(200);
  expect((await api('GET', `/addProductIntoCart/${encodeURIComponent(`${qty}*${PLY4.code}`)}`)).status).toBe(200);
  const r = await api('POST', '/MAKE_SALE', { clientId, cart_no: 1, paid, dueDate, date: todayIST() });
  expect(r.status).toBe(200);
  return r.body.saleId;
}

/** Waits until the locator's text (trimmed) satisfies `ok`; returns it. */
async function textUntil(loc: Locator, ok: (t: string) => boolean, what: string): Promise<string> {
  let t = '';
  for (let i = 0; i < 150; i++) {
    t = ((await loc.first().textContent({ timeout: 10_000 }).catch(() => '')) ?? '').trim();
    if (ok(t)) return t;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: the text stayed '${t}'`);
}

/** wa.me is not reachable from the test machine: the context answers it, so the opened tab keeps its URL. */
async function stubWhatsApp(ctx: BrowserContext): Promise<void> {
  await ctx.route('https://wa.me/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>WhatsApp</p>' }));
}

/** The WhatsApp tab a click opens, and the message it carries. */
async function whatsappOpenedBy(page: Page, click: () => Promise<unknown>): Promise<{ url: URL; text: string }> {
  const [tab] = await Promise.all([page.context().waitForEvent('page'), click()]);
  await tab.waitForURL(/^https:\/\/wa\.me\//, { timeout: 30_000 });
  const url = new URL(tab.url());
  await tab.close();
  return { url, text: url.searchParams.get('text') ?? '' };
}

beforeAll(async () => {
  for (const f of ['frontends/sales/dist/mf-manifest.json', 'frontends/payments/dist/mf-manifest.json', ...['inventory', 'ledger', 'sales', 'documents'].map((s) => `services/${s}/dist/main.js`)]) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first.`);
  }
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents'] });
  manager = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.manager })).body.token;
  for (let i = 0; i < 100; i++) {
    if ((await api('GET', '/getProductList')).body?.count >= 50) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  // The company's UPI id: the public page shows a QR and a Pay button.
  const company = (await api('GET', '/getCompanyDetails')).body;
  const set = await api('POST', '/setCompanyDetails', { id: company.id, name: company.name, add1: company.add1, add2: company.add2, mob1: company.mob1, mob2: company.mob2, email: company.email, upiId: 'demotraders@upi' });
  expect(set.status).toBeLessThan(300);
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
});

test('a bill shared from the bill view opens WhatsApp with the message and the link; the link works on a phone without JavaScript', async () => {
  const clientId = await customer('Kavita Joshi', '9812377055');
  // 2 x 520 = 1,040.00; 40 paid now: 1,000.00 due.
  const saleId = await sale(clientId, 2, '40', '2030-12-31');

  const page = await e2e.newPage();
  await stubWhatsApp(page.context());
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await page.goto(`/salesList/bill/show/${saleId}`);
  await page.getByTestId('bill').waitFor();
  await shot(page, 'bill-toolbar');
  const wa = await whatsappOpenedBy(page, () => page.getByTestId('share-bill').click());
  expect(wa.url.pathname).toBe('/919812377055');
  const link = /(http:\/\/[^ ]+\/s\/[A-Za-z0-9_-]{32})$/.exec(wa.text)?.[1];
  expect(link).toBeDefined();
  expect(wa.text).toBe(`Dear Kavita Joshi, here is your bill ${saleId} from ${(await api('GET', '/getCompanyDetails')).body.name} for Rs 1,000.00. View and download: ${link}`);
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('share-url').waitFor();
  expect(await dialog.getByTestId('share-url').inputValue()).toBe(link);
  await dialog.getByTestId('share-links').locator('tbody tr').first().waitFor();
  expect(await dialog.getByTestId('share-links').locator('tbody tr').count()).toBe(1);
  await shot(page, 'bill-dialog');

  // The customer's phone: 375 x 667, JavaScript off, no login.
  const phone = await e2e.browser.newContext({ viewport: { width: 375, height: 667 }, javaScriptEnabled: false, isMobile: true });
  const view = await phone.newPage();
  const res = await view.goto(link!);
  expect(res!.status()).toBe(200);
  expect(res!.headers()['x-robots-tag']).toBe('noindex, nofollow');
  expect(res!.headers()['referrer-policy']).toBe('no-referrer');
  expect((await view.getByTestId('due').textContent())?.trim()).toBe('₹1,000.00');
  const pay = view.getByRole('link', { name: 'Pay ₹1,000.00' });
  const upi = await pay.getAttribute('href');
  expect(upi).toBe(`upi://pay?pa=demotraders%40upi&pn=${encodeURIComponent((await api('GET', '/getCompanyDetails')).body.name)}&am=1000.00&cu=INR&tn=Bill%20${saleId}`);
  expect(await view.getByRole('img', { name: /UPI QR code/ }).isVisible()).toBe(true);
  const pdfHref = await view.getByRole('link', { name: 'Download PDF' }).getAttribute('href');
  expect(pdfHref).toBe(`${new URL(link!).pathname}/pdf`);
  const pdf = await fetch(new URL(pdfHref!, link).toString());
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 4).toString('latin1')).toBe('%PDF');
  // Nothing spills sideways on a phone.
  expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await view.screenshot({ path: path.join(path.dirname(await shot(page, 'bill-dialog')), 'share-public-page-375.png'), fullPage: true });

  // Revoked from the bill view: the link answers 410 with a page saying so.
  await dialog.getByTestId('share-revoke').click();
  await dialog.getByText('None.').waitFor();
  const gone = await view.goto(link!);
  expect(gone!.status()).toBe(410);
  await view.getByText('The shop has withdrawn this link.').waitFor();
  await view.screenshot({ path: path.join(path.dirname(await shot(page, 'bill-revoked')), 'share-public-revoked-375.png'), fullPage: true });
  await phone.close();
});

test('the Overdue filter lists customers past their due date, most days first; Remind opens WhatsApp and records it', async () => {
  const asha = await customer('Asha Overdue', '9812377061');
  const bhanu = await customer('Bhanu Overdue', '9812377062');
  // Asha: 3 x 520 = 1,560.00, 60 paid: 1,500.00 due since 12 days. Bhanu: 520.00, nothing paid, due 3 days ago.
  await sale(asha, 3, '60', daysAgo(12));
  await sale(bhanu, 1, '0', daysAgo(3));

  const page = await e2e.newPage();
  await stubWhatsApp(page.context());
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await page.goto('/clientList');
  await page.getByTestId('filter-overdue').click();
  await page.waitForURL(/overdue=1/);
  const table = page.getByTestId('overdue-table');
  const rowOf = (id: number) => table.locator('tbody tr').filter({ has: page.getByTestId(`overdue-remind-${id}`) });
  await rowOf(asha).waitFor();
  const cells = async (id: number) => (await rowOf(id).locator('td').allTextContents()).map((c) => c.trim());
  // pick, id, name, mobile, due, due date, days overdue, last reminded, remind
  expect((await cells(asha)).slice(1, 8)).toEqual([String(asha), 'Asha Overdue', '9812377061', '₹1,500.00', daysAgo(12).split('-').reverse().join('-'), '12', 'Never']);
  expect((await cells(bhanu)).slice(1, 8)).toEqual([String(bhanu), 'Bhanu Overdue', '9812377062', '₹520.00', daysAgo(3).split('-').reverse().join('-'), '3', 'Never']);
  // Most days overdue first: Asha's row comes before Bhanu's.
  const order = await table.locator('tbody tr td:nth-child(2)').allTextContents();
  expect(order.indexOf(String(asha))).toBeLessThan(order.indexOf(String(bhanu)));
  await shot(page, 'overdue-list');
  // The Export follows the filter: the overdue customers only, in the list's order.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-customers').getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^overdue-customers-\d{4}-\d\d-\d\d\.csv$/);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv).toContain(`${asha},Asha Overdue,9812377061,Nashik,1500.00,`);
  expect(csv.indexOf('Asha Overdue')).toBeLessThan(csv.indexOf('Bhanu Overdue'));

  const wa = await whatsappOpenedBy(page, () => page.getByTestId(`overdue-remind-${asha}`).click());
  expect(wa.url.pathname).toBe('/919812377061');
  expect(wa.text).toMatch(new RegExp(`^Dear Asha Overdue, a payment of Rs 1,500.00 to .+ was due on ${daysAgo(12).split('-').reverse().join('-')}\\. Please pay at the earliest\\. Statement: http://[^ ]+/s/[A-Za-z0-9_-]{32}$`));
  await textUntil(page.getByTestId(`overdue-reminded-${asha}`), (t) => /^\d\d-\d\d-\d{4} \d\d:\d\d$/.test(t), 'Asha reminded');

  await page.getByTestId(`overdue-pick-${asha}`).check();
  await page.getByTestId(`overdue-pick-${bhanu}`).check();
  await page.getByTestId('overdue-remind-selected').click();
  const sent = page.getByTestId('overdue-sent');
  await sent.locator('li').nth(1).waitFor();
  expect(await sent.locator('li').count()).toBe(2);
  expect(await page.getByTestId(`overdue-wa-${bhanu}`).getAttribute('href')).toMatch(/^https:\/\/wa\.me\/919812377062\?text=Dear%20Bhanu%20Overdue%2C%20a%20payment%20of%20Rs%20520\.00/);
  await shot(page, 'overdue-remind-selected');
  await page.keyboard.press('Escape');

  const listed = (await api<{ clientsList: { id: number; last_reminded_at: string | null }[] }>('GET', '/getClientsList?overdue=1')).body.clientsList;
  for (const id of [asha, bhanu]) expect(listed.find((r) => r.id === id)?.last_reminded_at).toEqual(expect.any(String));
  await textUntil(page.getByTestId(`overdue-reminded-${bhanu}`), (t) => t !== 'Never' && t !== '', 'Bhanu reminded');
});

test('the statement, a money receipt and a credit note are shared from their own screens', async () => {
  const company = (await api('GET', '/getCompanyDetails')).body.name as string;
  const farhan = await customer('Farhan Share', '9812377071');
  // 2 x 520 = 1,040.00, nothing paid.
  const saleId = await sale(farhan, 2, '0', '2030-12-31');
  // 40 received: 1,000.00 still due.
  const paid = await api('POST', '/salesDuePayment', { client_id: farhan, amount: '40', nextDD: '2030-12-31' });
  expect(paid.status).toBe(200);
  const paymentId = paid.body.paymentId as number;

  const page = await e2e.newPage();
  await stubWhatsApp(page.context());
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);

  await page.goto(`/clientList/transaction/${farhan}`);
  await page.getByTestId('ledger-name').waitFor();
  const statement = await whatsappOpenedBy(page, () => page.getByTestId('share-statement').click());
  expect(statement.url.pathname).toBe('/919812377071');
  expect(statement.text).toMatch(new RegExp(`^Dear Farhan Share, here is your statement from ${company} for Rs 1,000\\.00\\. View and download: http://[^ ]+/s/[A-Za-z0-9_-]{32}$`));
  await page.getByTestId('share-made').waitFor();
  await shot(page, 'statement-dialog');
  await page.keyboard.press('Escape');

  // An estimate of 3 x 520 = 1,560.00 for Farhan.
  expect((await api('DELETE', '/clearCart/1')).status).toBe(200);
  expect((await api('GET', `/addProductIntoCart/${encodeURIComponent(`3*${PLY4.code}`)}`)).status).toBe(200);
  const est = (await api('GET', `/createEstimate?cart_no=1&clientId=${farhan}`)).body.estimateId as number;
  await page.goto(`/estimateList/edit/${est}`);
  await page.getByTestId('estimate-total').waitFor();
  const estimate = await whatsappOpenedBy(page, () => page.getByTestId('share-estimate').click());
  expect(estimate.text).toMatch(new RegExp(`^Dear Farhan Share, here is your estimate ${est} from ${company} for Rs 1,560\\.00\\. View and download: `));
  await shot(page, 'estimate-dialog');
  await page.keyboard.press('Escape');

  await page.goto(`/payments/receivePayment/${paymentId}`);
  await page.getByTestId('print-receipt').waitFor();
  const receipt = await whatsappOpenedBy(page, () => page.getByTestId('share-receipt').click());
  expect(receipt.text).toMatch(new RegExp(`^Dear Farhan Share, here is your receipt ${paymentId} from ${company} for Rs 40\\.00\\. View and download: `));
  await page.keyboard.press('Escape');

  // One sheet back, nothing refunded: credit note of 520.00.
  const bill = (await api('GET', `/getBillDetails?id=${saleId}`)).body;
  const returned = await api('POST', '/salesReturn', { saleId, lines: [{ sl_no: bill.soldProducts[0].sl_no, quantity: 1 }], refund: 0, idempotencyKey: `share-return-${saleId}`, reason: 'Damaged' });
  expect(returned.status).toBeLessThan(300);
  await page.goto('/salesList/creditNotes');
  const row = page.getByTestId('credit-note-list').locator('tbody tr').filter({ hasText: returned.body.credit_note_no });
  await row.waitFor();
  const note = await whatsappOpenedBy(page, () => row.getByTestId('share-credit-note').click());
  expect(note.text).toMatch(new RegExp(`^Dear Farhan Share, here is your credit note ${returned.body.credit_note_no.replace(/\//g, '\\/')} from ${company} for Rs 520\\.00\\. View and download: `));
  // The row's click opens its bill; sharing stays on the list.
  expect(new URL(page.url()).pathname).toBe('/salesList/creditNotes');
  await shot(page, 'credit-note-dialog');
  await page.keyboard.press('Escape');

  // The company's own Hindi template and a 7-day expiry are what the next link uses.
  const c = (await api('GET', '/getCompanyDetails')).body;
  const set = await api('POST', '/setCompanyDetails', {
    id: c.id, name: c.name, add1: c.add1, add2: c.add2, mob1: c.mob1, mob2: c.mob2, email: c.email, upiId: c.upiId,
    share_expiry_days: 7, share_templates: { document: { hi: '{name} जी, {document}: {amount}। {link}' } },
  });
  expect(set.status).toBeLessThan(300);
  for (let i = 0; i < 50 && (await api('GET', `/getClientDue?custId=${farhan}`)).body.due !== 480; i++) await new Promise((r) => setTimeout(r, 200));
  await page.goto(`/clientList/transaction/${farhan}`);
  await page.getByTestId('ledger-name').waitFor();
  await page.getByTestId('share-lang-statement').selectOption('hi');
  const before = Date.now();
  const hindi = await whatsappOpenedBy(page, () => page.getByTestId('share-statement').click());
  // 1,040.00 - 40 paid - 520 credited = 480.00 due.
  expect(hindi.text).toMatch(/^Farhan Share जी, खाता विवरण: Rs 480\.00। http:\/\/[^ ]+\/s\/[A-Za-z0-9_-]{32}$/);
  const live = (await api('GET', `/share?kind=statement&id=${farhan}`)).body.links as { expiresAt: string }[];
  const days = (Date.parse(live[0]!.expiresAt) - before) / 86_400_000;
  expect(days).toBeGreaterThan(6.99);
  expect(days).toBeLessThan(7.01);

  // The Hindi message's link opens a Hindi page on the customer's phone (JavaScript off).
  const hindiLink = /(http:\/\/[^ ]+\/s\/[A-Za-z0-9_-]{32})$/.exec(hindi.text)![1]!;
  const phone = await e2e.browser.newContext({ viewport: { width: 375, height: 667 }, javaScriptEnabled: false, isMobile: true });
  const view = await phone.newPage();
  expect((await view.goto(hindiLink))!.status()).toBe(200);
  expect(await view.locator('html').getAttribute('lang')).toBe('hi');
  await view.getByRole('heading', { name: 'खाता विवरण' }).waitFor();
  expect((await view.getByTestId('due').textContent())?.trim()).toBe('₹480.00');
  await view.getByText('बकाया राशि', { exact: true }).waitFor();
  await view.getByText('कुल बकाया', { exact: true }).waitFor();
  await view.getByRole('link', { name: '₹480.00 भुगतान करें' }).waitFor();
  const hindiPdf = await view.getByRole('link', { name: 'PDF डाउनलोड करें' }).getAttribute('href');
  const statementPdf = await fetch(new URL(hindiPdf!, hindiLink).toString());
  expect(statementPdf.status).toBe(200);
  expect(await view.getByText('Download PDF').count()).toBe(0);
  expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await view.screenshot({ path: path.join(path.dirname(await shot(page, 'statement-hindi')), 'share-public-page-hindi-375.png'), fullPage: true });
  // Withdrawn, it says so in Hindi.
  expect((await api('POST', '/share/revoke', { token: new URL(hindiLink).pathname.slice(3) })).status).toBe(200);
  expect((await view.goto(hindiLink))!.status()).toBe(410);
  await view.getByText('दुकान ने यह लिंक वापस ले लिया है।', { exact: false }).waitFor();
  await view.screenshot({ path: path.join(path.dirname(await shot(page, 'statement-hindi')), 'share-public-revoked-hindi-375.png'), fullPage: true });
  await phone.close();
});
