import fs from 'node:fs';
import path from 'node:path';
import type { ServiceName } from '@bahi/contracts';
import { startStack, type Stack } from '@bahi/devstack';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const SCREENSHOTS = path.join(__dirname, '..', 'test-results', 'screenshots');
const ROOT = path.resolve(__dirname, '..', '..');

export const ACCOUNTS = {
  admin: { email: 'admin@bahi.local', password: 'admin12345' },
  manager: { email: 'manager@demo.local', password: 'manager12345' },
  staff: { email: 'staff@demo.local', password: 'staff12345' },
};

export interface E2E {
  stack: Stack;
  baseUrl: string;
  /** The running Chromium; relaunched by newPage() if it died. */
  readonly browser: Browser;
  /** A fresh browser context (its own localStorage) with one page. */
  newPage(): Promise<Page>;
  /** True once the page's renderer process has crashed (Chromium's "Page crashed"). */
  crashed(page: Page): boolean;
  /** How many renderers have crashed since the start, all pages together. */
  readonly crashCount: number;
  shot(page: Page, name: string): Promise<string>;
  /** A direct API call, as another client would make it. */
  api<T = unknown>(method: string, apiPath: string, opts?: { token?: string; body?: unknown }): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

function assertBuilt() {
  for (const f of ['shell/dist/index.html', 'frontends/admin/dist/mf-manifest.json']) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first.`);
  }
}

export interface E2EOptions {
  /** Services to run behind the gateway (identity is always needed to log in). */
  services?: ServiceName[];
  /** Extra environment for the stack's processes. */
  env?: Record<string, string>;
}

/**
 * Headless Chromium for the tests. Playwright already passes --disable-dev-shm-usage (shared memory
 * in /tmp, so a small /dev/shm in a CI container can't crash renderers) and --disable-extensions;
 * they are named here too so they stay whatever launcher defaults become. The rest cut work a
 * loaded 2-CPU box does not need: GPU process rasterising, background networking and updates.
 * The browser keeps India's clock, as a shop's does: a date field's default (today) is then the
 * services' IST day, also when the machine's UTC date is still the day before (18:30-24:00 UTC).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    env: { ...process.env, TZ: 'Asia/Kolkata' },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-extensions',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--mute-audio',
    ],
  });
}

/** Starts the stack (fresh temp data dir) and Chromium. */
export async function startE2E(opts: E2EOptions = {}): Promise<E2E> {
  assertBuilt();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const services = [...new Set<ServiceName>(['identity', ...(opts.services ?? [])])];
  // The admin's password is given, so not force-changed at first login, unless a test sets it to ''.
  const stack = await startStack({ rootDir: ROOT, services, env: { BAHI_ADMIN_PASSWORD: ACCOUNTS.admin.password, ...opts.env }, logs: 'files' });
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (err) {
    await stack.stop();
    throw err;
  }
  const contexts: BrowserContext[] = [];
  const crashedPages = new WeakSet<Page>();
  let crashCount = 0;
  const baseUrl = stack.gatewayUrl;

  return {
    stack,
    baseUrl,
    get browser() {
      return browser;
    },
    get crashCount() {
      return crashCount;
    },
    crashed: (page) => crashedPages.has(page),
    async newPage() {
      // A crash of the whole browser (not only a renderer) would otherwise fail every later test.
      if (!browser.isConnected()) {
        console.error('[browser] Chromium had exited; launching it again');
        browser = await launchChromium();
      }
      const ctx = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 800 } });
      contexts.push(ctx);
      const page = await ctx.newPage();
      page.on('pageerror', (err) => console.error(`[browser] ${err.message}`));
      page.on('crash', () => {
        crashedPages.add(page);
        crashCount++;
        console.error(`[browser] the renderer crashed (Page crashed) at ${page.url()}`);
      });
      return page;
    },
    async shot(page, name) {
      const file = path.join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async api(method, apiPath, opts = {}) {
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
      if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await fetch(`${baseUrl}/api${apiPath}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as never };
    },
    async stop() {
      for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await stack.stop();
    },
  };
}

/** Signs in through the login form and waits until the app has moved away from /loginApp. */
const GSTR1_SCHEMA = path.resolve(__dirname, '..', '..', 'packages', 'gst', 'schemas', 'gstr1.schema.json');

/** Errors of a GSTR-1 JSON against packages/gst's schema (draft-07, which the installed ajv reads); [] when valid. */
export function gstr1SchemaErrors(json: unknown): unknown[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const AjvModule = require('ajv');
  const Ajv = AjvModule.default ?? AjvModule;
  const validate = new Ajv({ allErrors: true }).compile(JSON.parse(fs.readFileSync(GSTR1_SCHEMA, 'utf8')));
  return validate(json) ? [] : (validate.errors ?? ['invalid']);
}

/** The manager's API token once the demo catalogue (seeded in the background when identity answers) is there. */
export async function managerWithCatalogue(e2e: E2E): Promise<string> {
  const token = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.manager })).body.token;
  for (let i = 0; i < 100; i++) {
    if ((await e2e.api<{ count: number }>('GET', '/getProductList', { token })).body?.count >= 50) return token;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('The demo catalogue was not seeded within 30 s.');
}

export async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/loginApp');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname !== '/loginApp');
}

/** The sidebar entries as the user sees them. */
export async function sidebarEntries(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.waitFor();
  // The entries, not the brand that links home (issue 28).
  return (await nav.locator('a:not(.sh-brand)').allTextContents()).map((s) => s.trim());
}

export async function alertText(page: Page): Promise<string> {
  const alert = page.getByTestId('alert');
  await alert.waitFor();
  return (await alert.locator('.bk-alert__text').textContent())?.trim() ?? '';
}

/**
 * The OS print dialog is outside the browser's reach, and headless Chromium can crash printing a
 * PDF frame: every frame of the context counts the request in `window.top.__prints` instead.
 */
export async function recordPrints(ctx: BrowserContext): Promise<void> {
  await ctx.addInitScript(() => {
    window.print = () => {
      const top = window.top as unknown as { __prints?: number };
      top.__prints = (top.__prints ?? 0) + 1;
    };
  });
}


const CRASH_MESSAGE = /Target crashed|Page crashed/;

/** A test failed because its page's renderer crashed, not because of what it asserts. */
export class RendererCrashed extends Error {
  constructor(readonly attempts: number, override readonly cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`The Chromium renderer crashed during this test (attempt ${attempts}), so it could not finish; this is not an assertion failure. The failed step said: ${why}`);
    this.name = 'RendererCrashed';
  }
}

/**
 * One page per test instead of one page per file: a renderer crash in one test can't take the
 * tests after it down with it. `open` prepares each new page (usually signing in); `page` is
 * the current test's page.
 */
export class PagePerTest {
  private current: Page | undefined;
  /** Attempts made by the last run(): 2 when it was run again after a renderer crash. */
  attempts = 0;

  constructor(
    private readonly e2e: () => E2E,
    private readonly open: (page: Page) => Promise<void> = async () => undefined,
  ) {}

  get page(): Page {
    if (!this.current) throw new Error('No page is open: the test started before its page was prepared.');
    return this.current;
  }

  /** Closes the current page's context (if any). */
  async close(): Promise<void> {
    const page = this.current;
    this.current = undefined;
    if (page) await page.context().close().catch(() => undefined);
  }

  /** Closes the current page and opens and prepares a new one. */
  async fresh(): Promise<Page> {
    await this.close();
    this.current = await this.e2e().newPage();
    await this.open(this.current);
    return this.current;
  }

  /** Whether `err` came from the current page's renderer crashing; the crash event can trail the failed call a little. */
  private async crashCaused(err: unknown): Promise<boolean> {
    const page = this.current;
    if (!page) return false;
    if (this.e2e().crashed(page)) return true;
    if (err instanceof Error && CRASH_MESSAGE.test(err.message)) return true;
    await new Promise((r) => setTimeout(r, 500));
    return this.e2e().crashed(page);
  }

  /**
   * Runs `body` on the current page (opening one if there is none or it crashed). If it fails and the
   * page's renderer crashed, it runs once more on a fresh page; a second crash fails with
   * RendererCrashed. Any other failure, an assertion's included, is thrown as it is, never retried.
   */
  async run(body: (page: Page) => Promise<void>): Promise<void> {
    this.attempts = 0;
    for (;;) {
      this.attempts++;
      try {
        if (!this.current || this.current.isClosed() || this.e2e().crashed(this.current)) await this.fresh();
        await body(this.page);
        return;
      } catch (err) {
        if (!(await this.crashCaused(err))) {
          await this.shotOfFailure();
          if (this.attempts > 1 && err instanceof Error) err.message += '\n(This was the second run: the first one stopped when the renderer crashed.)';
          throw err;
        }
        if (this.attempts >= 2) throw new RendererCrashed(this.attempts, err);
        console.error(`[browser] the renderer crashed; running once more on a fresh page. The failed step said: ${err instanceof Error ? err.message : String(err)}`);
        await this.close();
      }
    }
  }

  /** What the page showed when its test failed, in failed-<test name>.png next to the other screenshots. */
  private async shotOfFailure(): Promise<void> {
    const page = this.current;
    if (!page || page.isClosed()) return;
    const name = (expect.getState().currentTestName ?? 'test').replace(/[^\w-]+/g, '-').slice(0, 120);
    await page.screenshot({ path: path.join(SCREENSHOTS, `failed-${name}.png`), fullPage: true }).catch(() => undefined);
  }

  /** A test body for it(): run() on this file's pages. */
  test(body: (page: Page) => Promise<void>): () => Promise<void> {
    return () => this.run(body);
  }

  /** Registers beforeEach (a fresh, prepared page, with the same one retry on a crash) and afterEach (close it). */
  static eachTest(e2e: () => E2E, open?: (page: Page) => Promise<void>): PagePerTest {
    const pages = new PagePerTest(e2e, open);
    beforeEach(async () => {
      await pages.close();
      await pages.run(async () => undefined);
    });
    afterEach(() => pages.close());
    return pages;
  }
}
