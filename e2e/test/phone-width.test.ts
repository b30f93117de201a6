import type { Page } from 'playwright-core';
import { ACCOUNTS, login, managerWithCatalogue, recordPrints, startE2E, type E2E } from '../src/harness';
import { layoutProblems } from '../src/layout';

// Issue 28, phone width: the counter, its Sell panel and the bill view at 390 px in English and
// Hindi, with the Hindi tests' layout check (no clipped text, no sideways scroll); the sidebar
// starts closed below 768 px and cart lines are stacked rows.
let e2e: E2E;
let page: Page;

const P2 = { barcode: '89012100002', mrp: '2,150.00' };
const byId = (id: string) => page.getByTestId(id);

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents'] });
  await managerWithCatalogue(e2e);
  page = await e2e.newPage();
  await recordPrints(page.context());
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
});

describe('the counter at a phone\'s 390 px (issue 28)', () => {
  const problems = () =>
    layoutProblems(page, {
      boxes: '.sl-card, .sl-bill, .bk-card, [role=dialog]',
      texts: 'button, th, dt, label, h1, h2, a, .sl-badge, .bk-btn, .bk-field label, .sl-keys li',
    });

  for (const lang of ['en', 'hi'] as const) {
    it(`cart, sell panel and bill view fit without sideways scroll, the sidebar closed (${lang})`, async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/');
      await byId('product-entry').waitFor();
      if (lang === 'hi') {
        await page.locator('.sh-profile__button').click();
        await byId('language-hi').click();
        await page.waitForFunction(() => document.documentElement.lang === 'hi');
      }
      expect(await page.locator('.sh-sidebar').isVisible()).toBe(false);
      await page.keyboard.press('F2');
      await page.keyboard.type(P2.barcode);
      await page.keyboard.press('Enter');
      await byId('subtotal').filter({ hasText: `₹${P2.mrp}` }).waitFor();
      await e2e.shot(page, `phone-cart-${lang}`);
      // The cart's lines are stacked rows: no table head, each figure labelled.
      expect(await page.locator('.sl-lines thead').isVisible()).toBe(false);
      expect(await problems()).toEqual([]);
      await page.keyboard.press('F9');
      await byId('sell-panel').waitFor();
      await e2e.shot(page, `phone-sell-${lang}`);
      expect(await problems()).toEqual([]);
      await page.keyboard.type('2150');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/salesList\/bill\/print\/\d+$/);
      await byId('bill').waitFor();
      await e2e.shot(page, `phone-bill-${lang}`);
      expect(await problems()).toEqual([]);
      // The payment form (Receive Payment).
      await page.goto('/payments/receivePayment');
      await page.locator('form, .bk-card').first().waitFor();
      await page.waitForTimeout(300);
      await e2e.shot(page, `phone-receive-payment-${lang}`);
      expect(await problems()).toEqual([]);
    });
  }
});
