// Issue 29's figures in the browser: day one opened with 10,000.00 cash and 2,500.00 in the bank;
// at the counter 2 sheets of ply sold for cash (1,040.00), 1 for UPI (520.00), 1 paid 500.00 in cash
// and cancelled (the 500.00 goes back in cash); tea 90.00 paid from the drawer. The dashboard's cash
// and bank cards, the day book's cash and bank columns, the cash and bank books' running balances
// and the P&L show the reports service's decimal strings, hand-computed here; the cash book again
// in Hindi. Real services behind the gateway; the demo company (simple mode).
import type { Page } from 'playwright-core';
import { ACCOUNTS, login, managerWithCatalogue, startE2E, type E2E } from '../src/harness';
import { todayIST } from '../src/dates';
import { layoutProblems } from '../src/layout';

let e2e: E2E;
let manager: string;
let page: Page;
let cancelled: number;
const TODAY = todayIST();
// Demo catalogue (services/inventory seed): product 10, MRP 520.00, cost 410.00.
const PLY = 10;

const api = async <T = any>(method: string, p: string, body?: unknown): Promise<T> => {
  const r = await e2e.api<T>(method, p, { token: manager, body });
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
const byId = (id: string) => page.getByTestId(id).first();
const text = async (id: string) => ((await byId(id).textContent()) ?? '').trim();
/** A report table's totals cell of a column. */
const total = async (table: string, col: string) => ((await page.getByTestId(table).locator(`tfoot [data-col="${col}"]`).textContent()) ?? '').trim();

/** A walk-in's bill through the counter's calls: `qty` sheets of ply, paid with `payments`. */
async function sell(qty: number, paid: string, payments: { mode: string; amount: string; ref?: string }[]): Promise<number> {
  await api('DELETE', '/clearCart/1');
  await api('GET', `/addProductIntoCart/${encodeURIComponent(`${qty}*${PLY}`)}?cart_no=1`);
  return (await api<{ saleId: number }>('POST', '/MAKE_SALE', { clientId: 0, cart_no: 1, paid, payments })).saleId;
}

/** Reloads a report until its text shows `want` (the projection follows the owners' events). */
async function until(what: string, ready: () => Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await ready().catch(() => false))) {
    if (Date.now() > end) throw new Error(`${what} did not show within ${ms} ms`);
    await page.waitForTimeout(500);
    await page.reload();
  }
}

async function look(name: string) {
  await page.waitForTimeout(150);
  await e2e.shot(page, `books-${name}`);
  expect(await layoutProblems(page, { boxes: '.bk-card, .bk-stat', texts: 'th, .bk-stat__label, .rp-chip, h1', scrolling: '.bk-table-wrap, .tt-wrap, [class*=scroll]' })).toEqual([]);
}

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents', 'reports'] });
  manager = await managerWithCatalogue(e2e);
  await api('PUT', '/books/opening', { date: TODAY, cash: '10000.00', bank: '2500.00' });
  await sell(2, '1040', [{ mode: 'cash', amount: '1040' }]);
  await sell(1, '520', [{ mode: 'upi', amount: '520', ref: 'UTR4401' }]);
  cancelled = await sell(1, '500', [{ mode: 'cash', amount: '500' }]);
  await api('POST', '/cancelSale', { saleId: cancelled, reason: 'Billed twice' });
  await api('POST', '/expenses', { date: TODAY, category: 'tea', amount: '90', payments: [{ mode: 'cash', amount: '90' }], note: 'Tea for the shop' });
  page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
});

it('the dashboard shows cash in hand and the bank balance from the opening, by payment mode', async () => {
  await page.goto('/reports');
  // Cash: 10,000.00 + 1,040.00 + 500.00 - 500.00 (the cancelled bill's counter payment given back) - 90.00 = 10,950.00.
  // Bank: 2,500.00 + 520.00 UPI = 3,020.00. Yesterday is before the opening: nothing.
  await until('the cash card', async () => (await text('card-cashInHand-today')) === '₹10,950.00' && (await text('card-bankBalance-today')) === '₹3,020.00');
  expect(await text('card-cashInHand-yesterday')).toBe('Yesterday ₹0.00');
  expect(await text('card-bankBalance-yesterday')).toBe('Yesterday ₹0.00');
  // New dues: the cancelled bill's 20.00 due was undone: 0.00.
  expect(await text('card-newDues-today')).toBe('₹0.00');
  await look('dashboard');
});

it('the day book splits cash and bank, each row with its tenders; the tea is a row', async () => {
  await page.goto(`/reports/daybook?date=${TODAY}`);
  await until('the expense row', async () => (await total('daybook-table', 'cashOut')) === '₹590.00');
  // Cash in 1,040.00 + 500.00; out 500.00 + 90.00. Bank in 520.00 (UPI), nothing out.
  expect(await total('daybook-table', 'cashIn')).toBe('₹1,540.00');
  expect(await total('daybook-table', 'bankIn')).toBe('₹520.00');
  expect(await total('daybook-table', 'bankOut')).toBe('₹0.00');
  const table = page.getByTestId('daybook-table');
  expect(await table.getByText('UPI ₹520.00').count()).toBe(1);
  expect(await table.getByText('Expense').count()).toBe(1);
  expect(await table.getByText('Tea and snacks').count()).toBe(1);
  await look('daybook');
});

it('the cash book runs from the opening; the bank book beside it', async () => {
  await page.goto(`/reports/cashbook?from=${TODAY}&to=${TODAY}`);
  await until('the cash book', async () => (await text('cashbook-closing')) === '₹10,950.00');
  expect(await text('cashbook-opening')).toBe('₹10,000.00');
  expect(await text('cashbook-in')).toBe('₹1,540.00');
  expect(await text('cashbook-out')).toBe('₹590.00');
  // The running balance after each movement: 11,040.00, 11,540.00, 11,040.00, 10,950.00.
  const balances = (await page.getByTestId('cashbook-table').locator('tbody tr td:last-child').allTextContents()).map((s) => s.trim());
  expect(balances).toEqual(['₹11,040.00', '₹11,540.00', '₹11,040.00', '₹10,950.00']);
  // The cancellation's row names the cancelled bill.
  expect(await page.getByTestId('cashbook-table').locator('tbody tr').nth(2).locator('td, th').nth(2).textContent()).toBe(`#${cancelled}`);
  await look('cash');
  await byId('mode-bank').click();
  await page.waitForURL(/mode=bank/);
  await byId('cashbook-closing').filter({ hasText: '₹3,020.00' }).waitFor();
  expect(await text('cashbook-opening')).toBe('₹2,500.00');
  expect(await page.getByTestId('cashbook-table').getByText('UPI ₹520.00').count()).toBe(1);
  await look('bank');
});

it('profit and loss: 3 sheets sold at 520.00 bought at 410.00, less the tea', async () => {
  await page.goto(`/reports/pnl?from=${TODAY.slice(0, 8)}01&to=${TODAY}`);
  await page.getByTestId('pnl-table').waitFor();
  // Sales 3 x 520.00 = 1,560.00 (the cancelled sheet nets out), cost 3 x 410.00 = 1,230.00, gross 330.00, tea 90.00: net 240.00.
  await until('the P&L', async () => (await total('pnl-table', 'net_profit')) === '₹240.00');
  expect(await total('pnl-table', 'sales')).toBe('₹1,560.00');
  expect(await total('pnl-table', 'cost')).toBe('₹1,230.00');
  expect(await total('pnl-table', 'gross_profit')).toBe('₹330.00');
  expect(await total('pnl-table', 'expenses')).toBe('₹90.00');
  await look('pnl');
});

it('the cash book in Hindi', async () => {
  await page.locator('.sh-profile__button').click();
  await page.getByTestId('language-hi').click();
  await page.waitForFunction(() => document.documentElement.lang === 'hi');
  await page.goto(`/reports/cashbook?from=${TODAY}&to=${TODAY}`);
  await page.getByRole('heading', { name: 'कैश और बैंक बही', level: 1 }).waitFor();
  expect(await text('cashbook-closing')).toBe('₹10,950.00');
  expect(await page.getByTestId('cashbook-table').getByText('चाय-नाश्ता').count()).toBe(1);
  await look('cash-hi');
  await page.locator('.sh-profile__button').click();
  await page.getByTestId('language-en').click();
});

// The books' screens at a phone's 390 px, in English and Hindi: no sideways scroll, no label cut
// off (wide tables scroll inside their wrappers), the sidebar closed. Screenshots looked at.
describe('the books at 390 px', () => {
  const screens: [string, string, string][] = [
    ['register', '/register', 'register-page'],
    ['expenses', '/payments/expenses', 'expenses-page'],
    ['opening', '/payments/expenses/opening', 'opening-page'],
    ['cashbook', `/reports/cashbook?from=${TODAY}&to=${TODAY}`, 'cashbook-totals'],
    ['pnl', `/reports/pnl?from=${TODAY.slice(0, 8)}01&to=${TODAY}`, 'pnl-table'],
    ['accountant', '/setting', 'accountant-ledgers'],
    ['tally', '/reports/gst', 'tally-export'],
  ];
  for (const lang of ['en', 'hi'] as const) {
    it(`fit a phone (${lang})`, async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/reports');
      if (lang === 'hi') {
        await page.locator('.sh-profile__button').click();
        await page.getByTestId('language-hi').click();
        await page.waitForFunction(() => document.documentElement.lang === 'hi');
      }
      const problems: string[] = [];
      for (const [name, url, ready] of screens) {
        await page.goto(url);
        await byId(ready).waitFor();
        await byId(ready).scrollIntoViewIfNeeded();
        expect(await page.locator('.sh-sidebar').isVisible()).toBe(false);
        await page.waitForTimeout(150);
        await e2e.shot(page, `books-phone-${name}-${lang}`);
        const found = await layoutProblems(page, {
          boxes: '.bk-card, .bk-stat, [role=dialog]',
          texts: 'th, dt, label, h1, h2, button, .bk-stat__label, .rp-chip',
          scrolling: '.bk-table-wrap, .tt-wrap, [class*=scroll]',
        });
        problems.push(...found.map((p) => `${name}: ${p}`));
      }
      expect(problems).toEqual([]);
      if (lang === 'hi') {
        await page.locator('.sh-profile__button').click();
        await page.getByTestId('language-en').click();
      }
      await page.setViewportSize({ width: 1366, height: 800 });
    });
  }
});
