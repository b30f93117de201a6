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
  browser: Browser;
  /** A fresh browser context (its own localStorage) with one page. */
  newPage(): Promise<Page>;
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

/** Starts the stack (fresh temp data dir) and Chromium. */
export async function startE2E(opts: E2EOptions = {}): Promise<E2E> {
  assertBuilt();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const services = [...new Set<ServiceName>(['identity', ...(opts.services ?? [])])];
  // The admin's password is given, so not force-changed at first login, unless a test sets it to ''.
  const stack = await startStack({ rootDir: ROOT, services, env: { BAHI_ADMIN_PASSWORD: ACCOUNTS.admin.password, ...opts.env }, logs: 'files' });
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  } catch (err) {
    await stack.stop();
    throw err;
  }
  const contexts: BrowserContext[] = [];
  const baseUrl = stack.gatewayUrl;

  return {
    stack,
    baseUrl,
    browser,
    async newPage() {
      const ctx = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 800 } });
      contexts.push(ctx);
      const page = await ctx.newPage();
      page.on('pageerror', (err) => console.error(`[browser] ${err.message}`));
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
      for (const c of contexts) await c.close().catch(() => undefined);
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
  return (await nav.locator('a').allTextContents()).map((s) => s.trim());
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

