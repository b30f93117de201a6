import { ACCOUNTS, login, startE2E, type E2E } from '../src/harness';

// Setting > Public address (issue 30): the platform admin sets the address share links use; a bad
// one is refused with the server's sentence beside the field; a manager sees it read-only.
let e2e: E2E;

beforeAll(async () => {
  // A stack started on localhost, as `npm start` on a shop PC: links would reach no customer's phone.
  e2e = await startE2E({ env: { BAHI_PUBLIC_URL: 'http://localhost:8080' } });
}, 180_000);

afterAll(async () => {
  await e2e?.stop();
});

test('the admin is warned about a localhost address, a bad address is refused with its sentence, a good one is saved', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  await page.waitForURL('**/admin');
  await page.getByRole('link', { name: 'Setting' }).click();
  await page.waitForURL('**/admin/setting');
  const card = page.getByTestId('public-address');
  await card.waitFor();
  expect(await page.getByTestId('public-address-effective').innerText()).toBe('Share links use: http://localhost:8080');
  expect(await page.getByTestId('public-address-warning').innerText()).toBe(
    "Customers' phones cannot open links on this address: set the shop's public address.",
  );

  const field = card.getByLabel("Shop's public address");
  await field.fill('shop.example.in/bills');
  await page.getByTestId('public-address-save').click();
  const error = page.getByTestId('public-address-error');
  await error.waitFor();
  expect(await error.innerText()).toBe('The public address must be a full web address, like https://shop.example.in.');
  expect(await field.getAttribute('aria-invalid')).toBe('true');
  await e2e.shot(page, 'public-address-refused');
  // Refused: nothing changed (the stored address is read again).
  await page.reload();
  await card.waitFor();
  expect(await page.getByTestId('public-address-effective').innerText()).toBe('Share links use: http://localhost:8080');
  expect(await field.inputValue()).toBe('');

  await field.fill('https://Shop.Example.in/');
  await page.getByTestId('public-address-save').click();
  await page.getByText('Share links use: https://shop.example.in').waitFor();
  expect(await page.getByTestId('public-address-warning').count()).toBe(0);
  expect(await page.getByTestId('public-address-error').count()).toBe(0);
  await page.reload();
  await card.waitFor();
  expect(await field.inputValue()).toBe('https://shop.example.in');
  await e2e.shot(page, 'public-address-admin');
  // Back to the companies by the brand (this page is outside the admin remote's tabs).
  await page.getByTestId('admin-home').click();
  await page.waitForURL((u) => u.pathname === '/admin');
  await page.getByRole('link', { name: 'Setting' }).waitFor();
}, 120_000);

test("a manager sees the shop's public address read-only in Setting", async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await page.goto(`${e2e.baseUrl}/setting`);
  const card = page.getByTestId('public-address');
  await card.waitFor();
  expect(await page.getByTestId('public-address-effective').innerText()).toBe('Share links use: https://shop.example.in');
  expect(await page.getByTestId('public-address-readonly').innerText()).toBe('Only the platform administrator can change this address.');
  expect(await card.locator('input').count()).toBe(0);
  expect(await page.getByTestId('public-address-save').count()).toBe(0);
  await e2e.shot(page, 'public-address-manager');
}, 120_000);
