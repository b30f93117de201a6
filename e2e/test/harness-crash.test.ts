// The harness against a renderer crash ("Page crashed"): pages are crashed on purpose with
// chrome://crash, which kills the tab's renderer process the way an out-of-memory kill does.
// A crash must not take later tests down, must be named in the failing test's message, and
// may cost a test one more run only when the crash is what failed it.
import type { Page } from 'playwright-core';
import { ACCOUNTS, login, PagePerTest, RendererCrashed, sidebarEntries, startE2E, type E2E } from '../src/harness';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
}, 180_000);
afterAll(async () => {
  await e2e?.stop();
});

/** Crashes the page's renderer and waits until the harness has seen it. */
async function crash(page: Page) {
  await page.goto('chrome://crash').catch(() => undefined);
  for (let i = 0; i < 50 && !e2e.crashed(page); i++) await new Promise((r) => setTimeout(r, 100));
  expect(e2e.crashed(page)).toBe(true);
}
const signIn = (page: Page) => login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
/** The page works: the shell's sidebar is there for the signed-in manager. */
async function works(page: Page) {
  await page.goto('/salesList');
  expect(await sidebarEntries(page)).toContain('Sells Account');
}

describe('a renderer crash', () => {
  it('is seen by the harness, and the next page from it works', async () => {
    const before = e2e.crashCount;
    const page = await e2e.newPage();
    await signIn(page);
    await crash(page);
    expect(e2e.crashCount).toBe(before + 1);
    await expect(page.evaluate(() => 1)).rejects.toThrow(/Target crashed/);

    const next = await e2e.newPage();
    await signIn(next);
    await works(next);
    expect(e2e.crashed(next)).toBe(false);
    expect(e2e.browser.isConnected()).toBe(true);
    await page.context().close();
    await next.context().close();
  });

  it('fails a test body once, which then runs again on a fresh signed-in page and passes', async () => {
    const pages = new PagePerTest(() => e2e, signIn);
    const seen: Page[] = [];
    await pages.run(async (page) => {
      seen.push(page);
      if (seen.length === 1) await crash(page);
      await works(page); // on the crashed page: "Target crashed"
    });
    expect(pages.attempts).toBe(2);
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
    expect(e2e.crashed(seen[1])).toBe(false);
    await pages.close();
  });

  it('twice in the same test fails it with a message that says the renderer crashed', async () => {
    const pages = new PagePerTest(() => e2e, signIn);
    const failure = pages.run(async (page) => {
      await crash(page);
      await works(page);
    });
    await expect(failure).rejects.toThrow(RendererCrashed);
    await expect(failure).rejects.toThrow(
      /The Chromium renderer crashed during this test \(attempt 2\).*(Target|Page) crashed/s,
    );
    expect(pages.attempts).toBe(2);
    await pages.close();
  });
});

describe('a failure that is not a crash', () => {
  it('is thrown as it is and the test body is not run again', async () => {
    const pages = new PagePerTest(() => e2e, signIn);
    let runs = 0;
    const failure = pages.run(async (page) => {
      runs++;
      await works(page);
      expect(await page.title()).toBe('a title this page does not have');
    });
    await expect(failure).rejects.toThrow(/a title this page does not have/);
    await expect(failure).rejects.not.toThrow(RendererCrashed);
    expect(runs).toBe(1);
    expect(pages.attempts).toBe(1);
    await pages.close();
  });
});

describe('one page per test', () => {
  const pages = PagePerTest.eachTest(() => e2e, signIn);
  let crashed: Page | undefined;

  it('a test whose renderer crashes outside run() (its page is left dead)', async () => {
    crashed = pages.page;
    await crash(pages.page);
  });

  it('the next test still gets a working, signed-in page', async () => {
    expect(crashed).toBeDefined();
    expect(pages.page).not.toBe(crashed);
    expect(e2e.crashed(pages.page)).toBe(false);
    await works(pages.page);
  });
});

describe('the test browser', () => {
  it("keeps India's clock, as a shop's browser does, whatever the machine's zone", async () => {
    const page = await e2e.newPage();
    try {
      await page.goto('/');
      // IST is UTC+5:30 all year: getTimezoneOffset is minutes *behind* UTC.
      expect(await page.evaluate(() => new Date().getTimezoneOffset())).toBe(-330);
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toMatch(/^Asia\/(Kolkata|Calcutta)$/); // ICU's canonical id is the old name
    } finally {
      await page.close();
    }
  });
});
