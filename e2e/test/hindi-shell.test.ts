import type { Page } from 'playwright-core';
import { ACCOUNTS, login, startE2E, type E2E } from '../src/harness';

// The shell in Hindi: the switch in the profile menu, every open screen re-rendered at once, the
// choice remembered on the server (a fresh browser gets it at sign-in), a service's message in
// Hindi, and back to English with the spec's texts exactly as before.

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
}, 180_000);

afterAll(async () => {
  await e2e?.stop();
});

const sidebar = async (page: Page) => (await page.locator('.sh-sidebar li a').allTextContents()).map((s) => s.trim());

async function chooseLanguage(page: Page, lng: 'en' | 'hi') {
  await page.locator('.sh-profile__button').click();
  await page.getByTestId(`language-${lng}`).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, lng);
}

/** The alert banner once it shows `text` exactly (a service message turns Hindi when its catalogue is in). */
async function seeAlert(page: Page, text: string): Promise<void> {
  await page.locator('[data-testid="alert"] .bk-alert__text').filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).waitFor({ timeout: 10_000 });
}

async function serverLanguage(): Promise<string> {
  const token = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.manager })).body.token;
  return (await e2e.api<{ user: { language: string } }>('GET', '/getUserData', { token })).body.user.language;
}

/** Boxes of the sidebar, top bar and profile menu whose content is wider than they are (cut off or spilling out). */
async function clipped(page: Page, atLeast: number): Promise<string[]> {
  const { boxes, over } = await page.evaluate(() => {
    const all = Array.from(document.querySelectorAll<HTMLElement>('.sh-sidebar a, .sh-brand, .sh-topbar > *, .sh-menu > *, .sh-menu__choices, .sh-menu__choice')).filter((el) => el.clientWidth > 0);
    return { boxes: all.length, over: all.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => `${el.className}: ${el.textContent?.trim()}`) };
  });
  expect(boxes).toBeGreaterThanOrEqual(atLeast);
  return over;
}

test('a manager switches the shell to Hindi from the profile menu; it is remembered on the server; back to English', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await page.goto('/setting');
  await page.getByText('Company Profile').waitFor();
  expect(await sidebar(page)).toContain('View Products');
  expect(await serverLanguage()).toBe('en');

  // The menu offers both languages, each in its own script.
  await page.locator('.sh-profile__button').click();
  const choices = page.getByTestId('language-switch');
  expect((await choices.textContent())?.replace(/\s+/g, ' ')).toContain('English');
  expect(await page.getByTestId('language-hi').textContent()).toBe('हिन्दी');
  await e2e.shot(page, 'hindi-shell-menu-en');
  await page.locator('.sh-profile__button').click();

  // Switch: the open settings page, the sidebar and the top bar change at once, no reload.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await chooseLanguage(page, 'hi');
  await page.getByText('कंपनी प्रोफ़ाइल').waitFor();
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  const hindiNav = await sidebar(page);
  expect(hindiNav).toEqual(expect.arrayContaining(['कार्ट', 'प्रोडक्ट देखें', 'खरीद खाता', 'भुगतान दें', 'बिक्री खाता', 'ग्राहक विवरण', 'भुगतान लें']));
  expect(hindiNav).not.toContain('View Products');
  await page.getByText('बिल और शेयरिंग').waitFor();
  await page.getByLabel('दस्तावेज़ों की भाषा').waitFor();
  expect(await page.locator('.sh-footer').textContent()).toContain('सर्वाधिकार सुरक्षित');
  expect(await serverLanguage()).toBe('hi');
  // 14 sidebar entries, the brand and the top bar's parts.
  expect(await clipped(page, 18)).toEqual([]);
  await e2e.shot(page, 'hindi-shell-settings');

  // A service's message shows in Hindi: identity refuses a UPI id that is not name@bank.
  await page.locator('input[name="upiId"]').fill('not a upi id');
  await page.getByRole('button', { name: 'सेव करें', exact: true }).click();
  await seeAlert(page, 'UPI आईडी name@bank जैसी होनी चाहिए।');
  await e2e.shot(page, 'hindi-shell-service-message');

  // The profile menu and the collapsed sidebar in Hindi (from the top: a full-page shot of a scrolled page repeats the sticky bars).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('.sh-profile__button').click();
  await page.getByRole('menuitem', { name: 'पासवर्ड बदलें' }).waitFor();
  // ... and the menu's five entries with the two language choices.
  expect(await clipped(page, 25)).toEqual([]);
  await e2e.shot(page, 'hindi-shell-menu-hi');
  await page.locator('.sh-profile__button').click();
  await page.getByRole('button', { name: 'साइडबार छोटा करें' }).click();
  await page.getByRole('button', { name: 'साइडबार खोलें' }).waitFor();
  await e2e.shot(page, 'hindi-shell-collapsed');
  await page.getByRole('button', { name: 'साइडबार खोलें' }).click();

  // Reload: still Hindi.
  await page.reload();
  await page.getByText('कंपनी प्रोफ़ाइल').waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('hi');

  // A fresh browser (nothing in its storage) signs in in English and turns Hindi with the user's setting.
  const other = await e2e.newPage();
  await login(other, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await other.goto('/setting');
  await other.getByText('कंपनी प्रोफ़ाइल').waitFor();
  expect(await sidebar(other)).toContain('प्रोडक्ट देखें');
  // Signed out, the login page keeps the language last used on this browser.
  await other.goto('/logout');
  await other.waitForURL('**/loginApp');
  await other.getByRole('button', { name: 'लॉगिन' }).waitFor();
  expect(await other.getByLabel('ईमेल').count()).toBe(1);
  await e2e.shot(other, 'hindi-shell-login');

  // Back to English: the spec's texts exactly as before, and the server remembers English; what is
  // typed in the open form stays.
  await page.locator('input[name="add2"]').fill('Shop 4, Station Road');
  await chooseLanguage(page, 'en');
  await page.getByText('Company Profile').waitFor();
  expect(await page.locator('input[name="add2"]').inputValue()).toBe('Shop 4, Station Road');
  expect(await sidebar(page)).toEqual(expect.arrayContaining(['Cart', 'View Products', 'Purchase Account', 'Give Payment', 'Sells Account', 'Customer Details', 'Receive Payment']));
  await page.getByText('Bills and sharing').waitFor();
  expect(await page.locator('.sh-footer').textContent()).toContain('Bahi. All rights reserved.');
  expect(await serverLanguage()).toBe('en');
  // The same service message in English is the service's own sentence.
  await page.locator('input[name="upiId"]').fill('not a upi id');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await seeAlert(page, 'upiId must look like name@bank.');
});

test('a staff member before sign-in: a Hindi browser gets the Hindi login page', async () => {
  const ctx = await e2e.browser.newContext({ baseURL: e2e.baseUrl, locale: 'hi-IN', viewport: { width: 1366, height: 800 } });
  const page = await ctx.newPage();
  await page.goto('/loginApp');
  await page.getByRole('button', { name: 'लॉगिन' }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('hi');
  // A wrong password: identity's message in Hindi.
  await page.getByLabel('ईमेल').fill(ACCOUNTS.staff.email);
  await page.getByLabel('पासवर्ड').fill('wrong-password');
  await page.getByRole('button', { name: 'लॉगिन' }).click();
  await seeAlert(page, 'ईमेल या पासवर्ड गलत है।');
  await e2e.shot(page, 'hindi-shell-login-error');
  await ctx.close();
});
