// Customers, dues and payments in the browser: the ledger service behind the gateway, the sales
// remote's customer screens and the payments remote, with the demo data the ledger seeds.
import fs from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '@bahi/devstack';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ACCOUNTS, launchChromium, login, recordPrints, SCREENSHOTS } from '../src/harness';

const ROOT = path.resolve(__dirname, '..', '..');

let stack: Stack;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function api<T = any>(method: string, apiPath: string, opts: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${stack.gatewayUrl}/api${apiPath}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function apiLogin(who: { email: string; password: string }): Promise<string> {
  const res = await api<{ token: string }>('POST', '/loginReact', { body: who });
  expect(res.status).toBe(200);
  return res.body.token;
}

async function newPage(): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: stack.gatewayUrl, viewport: { width: 1366, height: 800 } });
  await recordPrints(ctx);
  contexts.push(ctx);
  const page = await ctx.newPage();
  page.on('pageerror', (err) => console.error(`[browser] ${err.message}`));
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
const seeAlert = (page: Page, text: string) => page.getByTestId('alert').filter({ hasText: text }).waitFor();

/** Waits until the ledger has seeded the demo company (it waits for identity in the background). */
async function demoCustomer(token: string, text: string): Promise<{ client_id: number; name: string }> {
  for (let i = 0; i < 240; i++) {
    const res = await api<{ client_id: number; name: string }[]>('GET', `/getCustomerList/?text=${encodeURIComponent(text)}`, { token });
    if (res.status === 200 && res.body.length) return res.body[0]!;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The demo customer '${text}' never appeared: the ledger did not seed Demo Traders.`);
}

beforeAll(async () => {
  for (const f of ['shell/dist/index.html', 'frontends/sales/dist/mf-manifest.json', 'frontends/payments/dist/mf-manifest.json', 'services/ledger/dist/main.js']) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first.`);
  }
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // documents renders the statement and receipt PDFs when it is built.
  const services: ('identity' | 'ledger' | 'documents')[] = ['identity', 'ledger'];
  if (fs.existsSync(path.join(ROOT, 'services/documents/dist/main.js'))) services.push('documents');
  // The admin's password is given, as in production, so its first login is not a forced change.
  stack = await startStack({ rootDir: ROOT, services, env: { BAHI_ADMIN_PASSWORD: ACCOUNTS.admin.password }, logs: 'files' });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await stack?.stop();
});

test('a staff member adds a customer, finds them by 3 typed characters and edits their details', async () => {
  const page = await newPage();
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await page.goto('/clientList');
  await page.getByRole('heading', { name: 'Customer Details' }).waitFor();
  await page.getByRole('button', { name: 'Add Client' }).click();
  await page.waitForURL('**/clientList/add-client');

  const form = page.getByTestId('add-client-form');
  // New-customer defaults (spec 000 customer form).
  expect(await form.getByLabel('City').inputValue()).toBe('Mumbai');
  expect(await form.getByLabel('Zip').inputValue()).toBe('1000001');
  expect(await form.getByLabel('State').inputValue()).toBe('MH');
  expect(await form.getByLabel('Country').inputValue()).toBe('India');
  expect(await form.getByLabel('Address line 1').inputValue()).toBe('Address');
  await form.getByText('91', { exact: true }).waitFor();

  // Required and numeric checks before anything is sent.
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await seeAlert(page, 'Mobile is required.');
  await form.getByLabel('Mobile').fill('98200');
  await form.getByLabel('Name').fill('Zoravar Singh');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await seeAlert(page, 'Mobile must be a 10-digit number.');
  await form.getByLabel('Mobile').fill('9820077001');
  await form.getByLabel('Address line 2').fill('Near Clock Tower');
  await shot(page, 'ledger-add-client');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/clientList\/transaction\/\d+$/);
  await page.getByTestId('ledger-name').filter({ hasText: 'Zoravar Singh' }).waitFor();
  const id = Number(page.url().split('/').pop());

  // Search from 3 characters, suggestions 'id : name mobile'.
  await page.goto('/clientList');
  await page.getByTestId('clients-table').getByRole('cell', { name: 'Zoravar Singh' }).waitFor();
  const search = page.getByLabel('Search customer');
  await search.fill('Zo');
  await search.press('Enter');
  await seeAlert(page, 'Select a valid Customer from the list');
  await search.fill('Zor');
  const suggestion = page.getByTestId('customer-suggestions').getByText(`${id} : Zoravar Singh 9820077001`);
  await suggestion.waitFor();
  await shot(page, 'ledger-client-search');
  await suggestion.click();
  await page.waitForURL(`**/clientList/transaction/${id}`);

  // Show Details: read mode, Edit, Cancel restores, Save updates; the mobile stays locked.
  await page.getByRole('button', { name: 'Show Details' }).click();
  const details = page.getByTestId('client-details-form');
  await details.waitFor();
  expect(await details.getAttribute('data-mode')).toBe('read');
  expect(await details.getByLabel('Name').isDisabled()).toBe(true);
  await details.getByRole('button', { name: 'Edit' }).click();
  expect(await details.getByLabel('Mobile').isDisabled()).toBe(true);
  await details.getByLabel('Name').fill('Somebody Else');
  await details.getByRole('button', { name: 'Cancel' }).click();
  expect(await details.getByLabel('Name').inputValue()).toBe('Zoravar Singh');
  expect(await details.getAttribute('data-mode')).toBe('read');
  await details.getByRole('button', { name: 'Edit' }).click();
  await details.getByLabel('City').fill('Thane');
  await shot(page, 'ledger-client-details-edit');
  await details.getByRole('button', { name: 'Save', exact: true }).click();
  await seeAlert(page, 'Client Details Has been updated');
  expect(await details.getAttribute('data-mode')).toBe('read');
  const token = await apiLogin(ACCOUNTS.staff);
  const stored = await api('GET', `/getClientsDetails?id=${id}`, { token });
  expect(stored.body.data).toEqual(expect.objectContaining({ city_or_district: 'Thane', mobile_no: '9820077001', address_line_2: 'Near Clock Tower' }));
});

test('receiving a payment lowers the due and shows the receipt', async () => {
  const token = await apiLogin(ACCOUNTS.staff);
  const ramesh = await demoCustomer(token, 'Ramesh');
  const before = await api<{ due: number; dueDate: string }>('GET', `/getClientDueAndDueDate?custId=${ramesh.client_id}`, { token });
  expect(before.body.due).toBe(750);

  const page = await newPage();
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await page.goto('/payments/receivePayment');
  await page.getByRole('heading', { name: 'Receive Payment' }).waitFor();
  const submit = page.getByRole('button', { name: 'Receive Payment' });
  await submit.click();
  await seeAlert(page, 'Please Select A Customer !!');

  await page.getByLabel('Customer').fill('Ram');
  const option = page.getByTestId('customer-list').getByText(`${ramesh.client_id} : Ramesh Kumar 9820012345`);
  await option.click();
  await page.getByTestId('total-due').filter({ hasText: '₹750.00' }).waitFor();
  await submit.click();
  await seeAlert(page, 'Amount cannot be 0 !!');
  await page.getByLabel('Amount (₹)').fill('0');
  await submit.click();
  await seeAlert(page, 'Amount cannot be 0 !!');
  await page.getByLabel('Amount (₹)').fill('250.50');
  await page.getByLabel('Next Due Date').fill('2031-03-15');
  await shot(page, 'ledger-receive-payment');
  // The payment carries an idempotency key, so a retry after a lost answer cannot pay twice.
  const [paid] = await Promise.all([page.waitForRequest((r) => r.url().includes('/api/salesDuePayment')), submit.click()]);
  expect(await paid.headerValue('idempotency-key')).toMatch(/^[\w-]{16,}$/);
  await seeAlert(page, 'Payment is done');
  await page.waitForURL(/\/payments\/receivePayment\/\d+$/);
  const receipt = page.getByTestId('receipt');
  await receipt.waitFor();
  expect(await receipt.getByTestId('receipt-amount').textContent()).toBe('₹250.50');
  expect(await receipt.getByTestId('receipt-due').textContent()).toBe('₹499.50');
  await receipt.getByText('Demo Traders').first().waitFor();
  const receiptNo = Number(await receipt.getByTestId('receipt-no').textContent());
  await shot(page, 'ledger-receipt');

  const after = await api('GET', `/getClientDueAndDueDate?custId=${ramesh.client_id}`, { token });
  expect(after.body).toEqual({ due: 499.5, dueDate: '2031-03-15' });

  // The ledger shows the payment and the new due.
  await page.goto(`/clientList/transaction/${ramesh.client_id}`);
  await page.getByTestId('ledger-due').filter({ hasText: '₹499.50' }).waitFor();
  await page.getByTestId('ledger-table').getByRole('cell', { name: 'Payment Received' }).first().waitFor();
  await shot(page, 'ledger-customer-ledger');

  // Print All Transactions prints the statement PDF (documents service) through a hidden frame.
  if (stack.services.documents) {
    const [statement] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/documents/statement/${ramesh.client_id}`)),
      page.getByRole('button', { name: 'Print All Transactions' }).click(),
    ]);
    expect(statement.status()).toBe(200);
    await page.locator('iframe[data-testid="print-frame"][src^="blob:"]').waitFor({ state: 'attached' });
    const pdf = await fetch(`${stack.gatewayUrl}/api/documents/statement/${ramesh.client_id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toMatch(/application\/pdf/);
    const receiptPdf = await fetch(`${stack.gatewayUrl}/api/documents/receipt/${receiptNo}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(receiptPdf.status).toBe(200);
  }
});

test('Receive Payment opened from a customer\'s ledger starts with that customer and their due', async () => {
  const token = await apiLogin(ACCOUNTS.staff);
  const ramesh = await demoCustomer(token, 'Ramesh');
  const due = await api<{ due: number }>('GET', `/getClientDueAndDueDate?custId=${ramesh.client_id}`, { token });
  const page = await newPage();
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await page.goto(`/payments/receivePayment?custId=${ramesh.client_id}`);
  await page.getByRole('heading', { name: 'Receive Payment' }).waitFor();
  await page.getByTestId('total-due').filter({ hasText: `₹${due.body.due.toFixed(2)}` }).waitFor();
  expect(await page.getByLabel('Customer').inputValue()).toBe(`${ramesh.client_id} : Ramesh Kumar 9820012345`);
});

test('a manager gives a payment to a distributor; staff may not', async () => {
  const token = await apiLogin(ACCOUNTS.manager);
  const staff = await apiLogin(ACCOUNTS.staff);
  await demoCustomer(token, 'Ramesh');
  const list = await api<{ allDistributorsList: { distributor_id: number; name: string }[] }>('GET', '/getAllDistributorsList', { token });
  const bengal = list.body.allDistributorsList.find((d) => d.name === 'Bengal Agro Suppliers')!;
  expect((await api('GET', `/getDueAndDueDate?distId=${bengal.distributor_id}`, { token })).body.due).toBe(13500);

  const page = await newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await page.goto('/payments/givePayment');
  await page.getByRole('heading', { name: 'Give Payment' }).waitFor();
  const input = page.getByLabel('Distributor');
  await input.fill('Nobody');
  await input.press('Enter');
  await seeAlert(page, 'Select a valid Distributor from the list');
  await input.fill('Bengal');
  await page.getByTestId('distributor-list').getByText(`${bengal.distributor_id} : Bengal Agro Suppliers`).click();
  await page.getByTestId('total-due').filter({ hasText: '₹13,500.00' }).waitFor();
  await page.getByLabel('Amount (₹)').fill('1000.50');
  await page.getByRole('button', { name: 'Give Payment' }).click();
  await seeAlert(page, 'Payment is done');
  await page.getByTestId('total-due').filter({ hasText: '₹12,499.50' }).waitFor();
  await shot(page, 'ledger-give-payment');

  // Positions are enforced by the service, not only hidden in the sidebar.
  expect((await api('POST', '/purchaseDuePaymentReact', { token: staff, body: { distributorId: bengal.distributor_id, amount: 5, nextDD: '2031-01-01' } })).status).toBe(403);
  expect((await api('POST', '/addDistributor', { token: staff, body: { name: 'X', address_line_1: 'a', city_or_district: 'c', state: 's', country: 'India', postal_code: '1' } })).status).toBe(403);
  expect((await api('GET', `/getDueAndDueDate?distId=${bengal.distributor_id}`, { token })).body.due).toBe(12499.5);
});

test("another company never sees Demo Traders' customers", async () => {
  const admin = await apiLogin(ACCOUNTS.admin);
  const created = await api<{ success: boolean; managerPassword?: string }>('POST', '/admin/createCompany', {
    token: admin,
    body: { cName: 'Other Stores', cAdd: '1 Park Street', cMob: '9000000001', mName: 'Other Manager', mEmail: 'other@other.local' },
  });
  expect(created.body.success).toBe(true);
  // The manager's password is temporary: changed first, as the shell makes them do.
  const first = await apiLogin({ email: 'other@other.local', password: created.body.managerPassword! });
  const changed = await api('POST', '/manage/profile/edit/updatePassword', {
    token: first,
    body: { current_password: created.body.managerPassword!, new_password: 'other-manager-1', re_type_new_password: 'other-manager-1' },
  });
  expect(changed.status).toBe(200);
  const other = await apiLogin({ email: 'other@other.local', password: 'other-manager-1' });
  const demo = await apiLogin(ACCOUNTS.manager);
  const ramesh = await demoCustomer(demo, 'Ramesh');
  expect((await api('GET', '/getCustomerList/?text=Ramesh', { token: other })).body).toEqual([]);
  expect((await api('GET', `/getClientsDetails?id=${ramesh.client_id}`, { token: other })).status).toBe(404);
  expect((await api('GET', '/getClientsList?pageNo=0', { token: other })).body).toEqual({ clientsList: [], noOfPages: 0 });
});
