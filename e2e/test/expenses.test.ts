import type { Page } from 'playwright-core';
import { ACCOUNTS, login, sidebarEntries, startE2E, type E2E } from '../src/harness';
import { layoutProblems } from '../src/layout';

// Issue 29, as a manager and then a staff member would: opening balances, expenses added with
// their tenders, a refused amount, an edit and a delete with their reasons, the history, a used
// category that cannot be removed, and staff allowed by Setting. Totals are the server's; by hand:
// rent 15,000.00 + tea 120.50 + electricity 2,340.75 = 17,461.25; tea edited to 135.50 -> 17,476.25;
// electricity deleted -> 15,135.50; staff's tea 40.00 -> 15,175.50.
let e2e: E2E;
let page: Page;

/** Today in India (the browser keeps India's clock; the default date of the forms). */
const todayIST = () => new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);
const byId = (id: string) => page.getByTestId(id);

async function look(name: string) {
  await page.waitForTimeout(150);
  await e2e.shot(page, name);
  // The expenses' tables fit beside the sidebar at 1366 px: their wrappers do not scroll sideways.
  const boxes = '.bk-card, [role=dialog], .pm-expenses .bk-table-wrap, .bk-table-wrap.pm-expenses';
  expect(await layoutProblems(page, { boxes, texts: 'button, label, legend, th', oneLine: '.pm-row-actions button' })).toEqual([]);
}
async function seeAlert(text: string) {
  await page.getByTestId('alert').filter({ hasText: text }).first().waitFor();
}
const total = async () => ((await byId('expense-total').textContent()) ?? '').trim();
async function totalIs(amount: string) {
  await byId('expense-total').filter({ hasText: amount }).waitFor();
}
const row = (text: string) => byId('expense-table').locator('tbody tr', { hasText: text });

beforeAll(async () => {
  e2e = await startE2E({ services: ['ledger'] });
  page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
});

it('a manager sets the opening balances from the sidebar', async () => {
  expect(await sidebarEntries(page)).toEqual(expect.arrayContaining(['Expenses', 'Opening Balances']));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Opening Balances' }).click();
  const form = byId('opening-form');
  await form.waitFor();
  await form.getByLabel('Opening date').fill(`${todayIST().slice(0, 8)}01`);
  await form.getByLabel('Cash in hand (₹)').focus();
  await page.keyboard.type('12500');
  await page.keyboard.press('Tab');
  await page.keyboard.type('40250.75');
  await page.keyboard.press('Enter');
  await seeAlert('Opening balances saved.');
  await byId('opening-current').filter({ hasText: `Saved: ₹12,500.00 cash and ₹40,250.75 in the bank on ${todayIST().slice(0, 8)}01` }).waitFor();
  await look('expenses-1-opening');
});

it('adds rent by bank transfer, tea in cash and electricity split cash + UPI; the total is the server\'s 17,461.25', async () => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Expenses', exact: true }).click();
  const form = byId('expense-form');
  await form.waitFor();
  await totalIs('₹0.00');

  await form.getByLabel('Category').selectOption('rent');
  await form.getByLabel('Amount (₹)').focus();
  await page.keyboard.type('15000');
  await form.getByLabel('Mode', { exact: true }).selectOption('bank');
  await form.getByLabel('Reference (UPI ref, cheque no.)').fill('NEFT 88123');
  await form.getByLabel('Note').focus();
  await page.keyboard.type('November rent');
  await page.keyboard.press('Enter');
  await seeAlert('Expense 1 added.');
  await totalIs('₹15,000.00');

  await form.getByLabel('Category').selectOption('tea');
  await form.getByLabel('Amount (₹)').focus();
  await page.keyboard.type('120.50');
  await page.keyboard.press('Enter');
  await totalIs('₹15,120.50');

  await form.getByLabel('Category').selectOption('electricity');
  await form.getByLabel('Amount (₹)').focus();
  await page.keyboard.type('2340.75');
  await form.getByTestId('tender-split').click();
  // The split's second tender is UPI with the focus in its mode; the amounts are typed per tender.
  expect(await form.getByLabel('Mode 2', { exact: true }).inputValue()).toBe('upi');
  await form.getByLabel('Amount', { exact: true }).nth(0).fill('340.75');
  await form.getByLabel('Amount', { exact: true }).nth(1).fill('2000');
  await form.getByLabel('Reference (UPI ref, cheque no.)').fill('UPI 4021');
  await look('expenses-2-split');
  await form.getByRole('button', { name: 'Add expense' }).click();
  await totalIs('₹17,461.25');
  expect(await row('electricity').textContent()).toContain('Cash ₹340.75 + UPI ₹2,000.00 (UPI 4021)');
  expect(await row('rent').textContent()).toContain('Bank transfer ₹15,000.00 (NEFT 88123)');
  await look('expenses-3-list');
});

it('a negative amount is refused with the server\'s sentence and nothing is added', async () => {
  const form = byId('expense-form');
  await form.getByLabel('Category').selectOption('tea');
  await form.getByLabel('Amount (₹)').focus();
  await page.keyboard.type('-5');
  await page.keyboard.press('Enter');
  // The earlier "Expense 3 added." may still show: wait for the refusal's own banner.
  await seeAlert('The amount must be more than 0.');
  expect(await total()).toContain('₹17,461.25');
  expect(await byId('expense-table').locator('tbody tr').count()).toBe(3);
  await form.getByLabel('Amount (₹)').fill('');
});

it('edits the tea to 135.50 only with a reason, deletes the electricity with one; the totals follow', async () => {
  await row('tea').getByRole('button', { name: 'Edit' }).click();
  const edit = byId('expense-edit-form');
  await edit.waitFor();
  await edit.getByLabel('Amount (₹)').fill('135.50');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await seeAlert('Give the reason for this change (it is kept in the expense history).');
  await edit.getByLabel('Reason').focus();
  await page.keyboard.type('Bill said 135.50');
  await look('expenses-4-edit');
  await page.keyboard.press('Enter');
  await totalIs('₹17,476.25');

  await row('electricity').getByRole('button', { name: 'Delete' }).click();
  const del = byId('expense-delete-form');
  await del.waitFor();
  // The reason field has the focus.
  await page.keyboard.type('Entered twice');
  await page.keyboard.press('Enter');
  await seeAlert('Expense 3 deleted.');
  await totalIs('₹15,135.50');
  expect(await byId('expense-table').locator('tbody tr').count()).toBe(2);
  // Shown again with deleted ones, marked, still outside the total.
  await page.getByLabel('Show deleted expenses').check();
  await row('electricity (deleted)').waitFor();
  expect(await total()).toContain('₹15,135.50');
  await page.getByLabel('Show deleted expenses').uncheck();
});

it('the tea\'s history shows who changed what, when and why', async () => {
  await row('tea').getByRole('button', { name: 'History' }).click();
  const h = byId('expense-history');
  await h.waitFor();
  const rows = (await h.locator('tbody tr').allTextContents()).map((s) => s.replace(/\s+/g, ' '));
  expect(rows).toHaveLength(2);
  expect(rows[0]).toContain('Added');
  expect(rows[0]).toContain('₹120.50');
  expect(rows[1]).toContain('Edited');
  expect(rows[1]).toContain('Bill said 135.50');
  expect(rows[1]).toContain('₹135.50');
  await look('expenses-5-history');
  await page.keyboard.press('Escape');
  await h.waitFor({ state: 'detached' });
});

it('a category in use cannot be removed: the server says how many expenses use it', async () => {
  const cats = byId('expense-categories');
  await cats.getByRole('button', { name: 'Remove tea' }).click();
  await cats.getByRole('button', { name: 'Save categories' }).click();
  await seeAlert('The category "tea" is used by 1 expense(s); move them to another category or delete them before removing it.');
  await cats.getByText('tea', { exact: true }).waitFor();
  await look('expenses-6-categories');
});

it('staff see Expenses once Setting lets them, add one, and cannot edit or delete', async () => {
  const staff = await e2e.newPage();
  await login(staff, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  expect(await sidebarEntries(staff)).not.toContain('Expenses');

  await page.goto('/setting');
  await page.getByLabel('Who records expenses').selectOption('staff');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await seeAlert('Profile Updated.');
  await staff.reload();
  const nav = staff.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Expenses' }).waitFor();
  expect(await sidebarEntries(staff)).not.toContain('Opening Balances');
  await nav.getByRole('link', { name: 'Expenses' }).click();
  const form = staff.getByTestId('expense-form');
  await form.waitFor();
  await form.getByLabel('Category').selectOption('tea');
  await form.getByLabel('Amount (₹)').focus();
  await staff.keyboard.type('40');
  await staff.keyboard.press('Enter');
  await staff.getByTestId('expense-total').filter({ hasText: '₹15,175.50' }).waitFor();
  const rows = staff.getByTestId('expense-table').locator('tbody tr');
  expect(await rows.count()).toBe(3);
  expect(await staff.getByTestId('expense-table').getByRole('button', { name: 'Edit' }).count()).toBe(0);
  expect(await staff.getByTestId('expense-table').getByRole('button', { name: 'Delete' }).count()).toBe(0);
  expect(await staff.getByTestId('expense-categories').count()).toBe(0);
  await staff.waitForTimeout(150);
  await e2e.shot(staff, 'expenses-7-staff');
});

it('in Hindi: the screen, the categories and the server\'s refusal read in Hindi and fit', async () => {
  await page.locator('.sh-profile__button').click();
  await page.getByTestId('language-hi').click();
  await page.waitForFunction(() => document.documentElement.lang === 'hi');
  try {
    await page.getByRole('navigation', { name: 'मुख्य' }).or(page.locator('.sh-sidebar')).first().getByRole('link', { name: 'ख़र्चे', exact: true }).click();
    await page.getByRole('heading', { name: 'ख़र्चे' }).waitFor();
    await byId('expense-total').filter({ hasText: 'इन तारीख़ों का कुल:' }).waitFor();
    const cats = byId('expense-categories');
    await cats.getByRole('button', { name: 'tea हटाएँ' }).click();
    await cats.getByRole('button', { name: 'श्रेणियाँ सेव करें' }).click();
    await seeAlert('श्रेणी "tea" 2 ख़र्च में लगी है; इसे हटाने से पहले उन ख़र्चों को दूसरी श्रेणी में डालें या मिटाएँ।');
    await look('expenses-8-hindi');
  } finally {
    await page.locator('.sh-profile__button').click();
    await page.getByTestId('language-en').click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
  }
});
