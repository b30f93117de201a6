import type { Page } from 'playwright-core';
import { ACCOUNTS, login, sidebarEntries, startE2E, type E2E } from '../src/harness';

const MANAGER_SIDEBAR = [
  'Cart',
  'View Products',
  'Purchase Account',
  'Distributors',
  'Give Payment',
  'Product Details',
  'Categories',
  'Estimates',
  'Sells Account',
  'Customer Details',
  'Receive Payment',
  'Register',
  'Dashboard',
  'Reports',
  'Reorder List',
  'Expenses',
  'Opening Balances',
];
const STAFF_SIDEBAR = ['Estimates', 'Sells Account', 'Customer Details', 'Receive Payment', 'Register'];

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
}, 180_000);

afterAll(async () => {
  await e2e?.stop();
});

/** Waits for the alert banner to show `text`. */
async function seeAlert(page: Page, text: string) {
  await page.getByTestId('alert').filter({ hasText: text }).waitFor();
}

async function apiLogin(email: string, password: string): Promise<string> {
  const res = await e2e.api<{ token: string }>('POST', '/loginReact', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.token;
}

async function openProfileMenu(page: Page) {
  await page.locator('.sh-profile__button').click();
  return page.getByRole('menu');
}

test('the admin logs in and sees the company list', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  await page.waitForURL('**/admin');
  const table = page.getByTestId('company-list');
  await table.getByRole('cell', { name: 'Demo Traders' }).waitFor();
  expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0); // no staff sidebar
  expect(await page.getByRole('button', { name: 'Add Company' }).count()).toBe(1);
  await e2e.shot(page, 'admin-company-list');

  // Search narrows the list; a search matching nothing says so.
  await page.getByLabel('Search companies').fill('no such company');
  await page.getByRole('button', { name: 'Search' }).click();
  await table.getByText('No companies found.').waitFor();
  await page.getByLabel('Search companies').fill('Demo');
  await page.getByRole('button', { name: 'Search' }).click();
  await table.getByRole('cell', { name: 'Demo Traders' }).waitFor();
});

test('the admin creates a company and sets the manager password; the manager must change it and gets the manager sidebar', async () => {
  const admin = await e2e.newPage();
  await login(admin, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  await admin.getByRole('button', { name: 'Add Company' }).click();
  await admin.waitForURL('**/admin/createCompany');

  // Required fields first.
  await admin.getByRole('button', { name: 'Create Company' }).click();
  await seeAlert(admin, 'Please fill all required fields.');

  await admin.getByLabel('Company Name').fill('Sharma Kirana Stores');
  await admin.getByLabel('Address').fill('4 Station Road, Pune');
  await admin.getByLabel('Mobile').fill('9822012345');
  await admin.getByLabel('Manager Name').fill('Ravi Sharma');
  await admin.getByLabel('Manager Email').fill('ravi@sharma.local');
  await admin.getByRole('button', { name: 'Create Company' }).click();
  await seeAlert(admin, 'Company created successfully!');
  const temporary = (await admin.getByTestId('manager-password').textContent())?.trim();
  expect(temporary).toBeTruthy();
  await e2e.shot(admin, 'admin-company-created');

  await admin.getByRole('link', { name: 'Open company' }).click();
  const row = admin.locator('tr[data-email="ravi@sharma.local"]');
  await row.waitFor();
  expect(await row.textContent()).toContain('Ravi Sharma');
  await row.getByRole('button', { name: 'Update Password' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('New Password').fill('Welcome#2024');
  await dialog.getByRole('button', { name: 'Update Password' }).click();
  await seeAlert(admin, 'Password updated successfully!');
  await e2e.shot(admin, 'admin-company-detail');

  // The manager signs in with the password the admin set and is sent to change it.
  const manager = await e2e.newPage();
  await login(manager, 'ravi@sharma.local', 'Welcome#2024');
  await manager.waitForURL('**/updatePassword');
  await manager.getByLabel('Current Password').fill('Welcome#2024');
  await manager.getByLabel(/^New Password/).fill('Ravi#Own#Pass1');
  await manager.getByLabel('Re-type New Password').fill('Something else');
  await manager.getByRole('button', { name: 'Update Password' }).click();
  await seeAlert(manager, 'Password Do Not Match');
  await manager.getByLabel('Re-type New Password').fill('Ravi#Own#Pass1');
  await manager.getByRole('button', { name: 'Update Password' }).click();
  await seeAlert(manager, 'Password Updated Successfully');
  await manager.waitForURL('**/loginApp');

  await login(manager, 'ravi@sharma.local', 'Ravi#Own#Pass1');
  // Managers land on the dashboard.
  expect(new URL(manager.url()).pathname).toBe('/reports');
  expect(await sidebarEntries(manager)).toEqual(MANAGER_SIDEBAR);
  expect((await manager.getByTestId('company-name').textContent())?.trim()).toBe('Sharma Kirana Stores');
  const menu = await openProfileMenu(manager);
  expect((await menu.getByRole('menuitem').allTextContents()).map((s) => s.trim())).toEqual(['Setting', 'Update Password', 'About', 'Logout']);
  await e2e.shot(manager, 'manager-home');

  // About lists the version of every part that deploys on its own.
  await menu.getByRole('menuitem', { name: 'About' }).click();
  const about = manager.getByRole('dialog', { name: 'About Bahi' });
  for (const part of ['shell', 'admin', 'gateway', 'identity']) {
    await about.getByRole('row').filter({ hasText: new RegExp(`^\\s*${part}\\s*0\\.1\\.0\\s*$`) }).waitFor();
  }
  // The stack runs as `npm start` runs it: each supervised process, and how often it was restarted.
  for (const part of ['mongo', 'nats', 'identity', 'gateway']) {
    await about.getByRole('row').filter({ hasText: new RegExp(`^\\s*${part}\\s*running · never restarted\\s*$`) }).waitFor();
  }
  await e2e.shot(manager, 'about-box');
});

test('staff see only the staff sidebar and no Setting', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  expect(await sidebarEntries(page)).toEqual(STAFF_SIDEBAR);
  const menu = await openProfileMenu(page);
  expect((await menu.getByRole('menuitem').allTextContents()).map((s) => s.trim())).toEqual(['Update Password', 'About', 'Logout']);
  await e2e.shot(page, 'staff-home');

  // Staff on the managers' page get the error page inside the shell, not the page.
  await page.goto('/setting');
  await page.getByTestId('error-page').waitFor();
  expect(await page.getByTestId('error-page').textContent()).toContain('This page is for managers only.');
});

test('a manager edits the company profile in Setting and adds a staff member', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Setting' }).click();
  await page.waitForURL('**/setting');
  const name = page.getByLabel('Company Name');
  await name.waitFor();
  expect(await name.inputValue()).toBe('Demo Traders');
  await page.getByLabel('UPI Id').fill('demotraders@upi');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await seeAlert(page, 'Profile Updated.');

  const logo = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGNgYPj/n4GBgYGJgYGBAQAK/gH/1Ym5lQAAAABJRU5ErkJggg==',
    'base64',
  );
  await page.getByLabel('Logo image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
  await seeAlert(page, 'Image was uploaded successfully.');
  await page.getByTestId('company-logo').waitFor();

  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Counter Two');
  await dialog.getByLabel('Email').fill('counter2@demo.local');
  await dialog.getByLabel('Password').fill('counter2pass');
  await dialog.getByRole('button', { name: 'Add User' }).click();
  await page.getByTestId('company-users').getByRole('cell', { name: 'counter2@demo.local' }).waitFor();
  await e2e.shot(page, 'manager-setting');

  const stored = await e2e.api<{ upiId: string }>('GET', '/getCompanyDetails', { token: await apiLogin(ACCOUNTS.manager.email, ACCOUNTS.manager.password) });
  expect(stored.body.upiId).toBe('demotraders@upi');
});

test('five wrong passwords lock the account and the admin unlocks it', async () => {
  const managerToken = await apiLogin(ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  const created = await e2e.api('POST', '/users', {
    token: managerToken,
    body: { name: 'Lock Test', email: 'locktest@demo.local', password: 'right-pass-1', position: 'staff' },
  });
  expect(created.status).toBeLessThan(300);

  const page = await e2e.newPage();
  await page.goto('/loginApp');
  for (let i = 1; i <= 5; i++) {
    await page.getByLabel('Email').fill('locktest@demo.local');
    await page.getByLabel('Password').fill(`wrong-${i}`);
    await page.getByRole('button', { name: 'Login' }).click();
    await seeAlert(page, i < 5 ? 'Invalid email or password.' : 'locked');
    await page.getByRole('button', { name: 'Dismiss' }).click();
  }
  // Even the right password is refused now.
  await page.getByLabel('Password').fill('right-pass-1');
  await page.getByRole('button', { name: 'Login' }).click();
  await seeAlert(page, 'locked');
  await e2e.shot(page, 'login-locked');
  expect(new URL(page.url()).pathname).toBe('/loginApp');

  const admin = await e2e.newPage();
  await login(admin, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  await admin.getByTestId('company-list').getByRole('cell', { name: 'Demo Traders' }).click();
  const row = admin.locator('tr[data-email="locktest@demo.local"]');
  await row.waitFor();
  expect(await row.locator('.bk-badge').textContent()).toBe('Locked');
  await row.getByRole('button', { name: 'Unlock User' }).click();
  await seeAlert(admin, 'User unlocked successfully!');
  await row.locator('.bk-badge', { hasText: 'Active' }).waitFor();

  await login(page, 'locktest@demo.local', 'right-pass-1');
  expect(new URL(page.url()).pathname).not.toBe('/loginApp');
});

test('logout makes the token useless', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  expect((await e2e.api('GET', '/getUserData', { token: token! })).status).toBe(200);

  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL('**/loginApp');
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('expiration')])).toEqual([null, null]);
  expect((await e2e.api('GET', '/getUserData', { token: token! })).status).toBe(401);
});

test('an expired session lands on the login page', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await page.evaluate(() => localStorage.setItem('expiration', new Date(Date.now() - 60_000).toISOString()));
  await page.goto('/estimateList');
  await page.waitForURL('**/loginApp');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // While the app is open, reaching the expiration time fires the logout by itself.
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await page.evaluate(() => localStorage.setItem('expiration', new Date(Date.now() + 1000).toISOString()));
  await page.getByRole('link', { name: 'Sells Account' }).click(); // re-arms the timer with the new time
  await page.waitForURL('**/loginApp');
  expect((await e2e.api('GET', '/getUserData', { token: token! })).status).toBe(401);
  await e2e.shot(page, 'expired-session-login');
});

test('unknown routes show the error page inside the shell', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await page.goto('/no/such/page');
  const error = page.getByTestId('error-page');
  await error.waitFor();
  const text = await error.textContent();
  expect(text).toContain('Unexpected Application Error!');
  expect(text).toContain('Page Not Found!');
  expect(await error.getByRole('link', { name: 'Home' }).count()).toBe(1);
  expect(await sidebarEntries(page)).toEqual(STAFF_SIDEBAR);
  await e2e.shot(page, 'error-page');
});

test('with a remote down its area shows a fallback with Retry and the rest keeps working', async () => {
  const page = await e2e.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // The admin remote's files cannot be fetched, as when its server is down.
  await page.route('**/remotes/admin/**', (route) => route.abort('connectionrefused'));
  await login(page, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  const fallback = page.getByTestId('remote-fallback');
  await fallback.waitFor();
  expect(await fallback.getAttribute('data-remote')).toBe('admin');
  expect(await fallback.textContent()).toContain('This part of the app is not available right now');
  await e2e.shot(page, 'remote-down-admin');

  // The top bar still works, and Retry loads the remote once it is back.
  expect((await page.locator('.sh-profile__name').textContent())?.trim()).toBe('Platform Admin');
  await page.unroute('**/remotes/admin/**');
  await fallback.getByRole('button', { name: 'Retry' }).click();
  await page.getByTestId('company-list').getByRole('cell', { name: 'Demo Traders' }).waitFor();
  expect(await page.getByTestId('remote-fallback').count()).toBe(0);

  // With the sales and catalogue remotes down, their areas fall back the same way; the shell works.
  const manager = await e2e.newPage();
  await manager.route(/\/remotes\/(sales|catalogue)\//, (route) => route.abort('connectionrefused'));
  await login(manager, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  // (Managers land on the dashboard: the cart is one click away.)
  await manager.getByRole('link', { name: 'Cart' }).click();
  await manager.getByTestId('remote-fallback').waitFor();
  expect(await manager.getByTestId('remote-fallback').getAttribute('data-remote')).toBe('sales');
  await manager.getByRole('link', { name: 'Categories' }).click();
  await manager.waitForURL('**/productsCatagory');
  await manager.locator('[data-testid="remote-fallback"][data-remote="catalogue"]').waitFor();
  const menu = await openProfileMenu(manager);
  await menu.getByRole('menuitem', { name: 'Setting' }).click();
  await manager.getByLabel('Company Name').waitFor();
  await e2e.shot(manager, 'remote-down-manager-setting');
});
