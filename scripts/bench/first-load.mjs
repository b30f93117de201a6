// First load of the cart screen in headless Chromium: JavaScript and CSS transferred (gzip, as
// the gateway serves them) and the time until the product entry accepts input (taken in the page;
// `detectedMs`: when a Playwright wait here saw it, the figure this bench gave before). Each run is a
// fresh browser context (empty cache) with a signed-in manager. Writes JSON to argv[2].
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(path.join(ROOT, 'e2e', 'package.json'));
const { startStack } = require('@bahi/devstack');
const { chromium } = require('playwright-core');

const OUT = process.argv[2] ?? path.join(ROOT, 'test-results', 'bench-first-load.json');
const RUNS = Number(process.env.BENCH_PAGE_RUNS || 5);
// BENCH_LANGUAGE=hi: the manager's screen language is Hindi (only that language's catalogues load).
const LANGUAGE = process.env.BENCH_LANGUAGE || 'en';
const load = () => Number(os.loadavg()[0].toFixed(2));

const stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'sales', 'ledger'], env: { LOG_LEVEL: 'warn' }, logs: 'files' });
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const runs = [];
try {
  const res = await fetch(stack.gatewayUrl + '/api/loginReact', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'manager@demo.local', password: 'manager12345' }),
  });
  const { token } = await res.json();
  if (!token) throw new Error(`login failed: ${res.status}`);
  const set = await fetch(stack.gatewayUrl + '/api/profile/language', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ language: LANGUAGE }),
  });
  if (!set.ok) throw new Error(`setting the language failed: ${set.status}`);
  for (let i = 0; i < RUNS + 1; i++) {
    const ctx = await browser.newContext({ baseURL: stack.gatewayUrl, viewport: { width: 1366, height: 800 } });
    // A counter's own browser: signed in, and it remembers the language last used on it.
    await ctx.addInitScript(([t, lng]) => {
      if (!localStorage.getItem('token')) {
        localStorage.setItem('token', t);
        localStorage.setItem('expiration', new Date(Date.now() + 86_400_000).toISOString());
        localStorage.setItem('bahi.language', lng);
      }
    }, [token, LANGUAGE]);
    // The moment the product entry accepts input, taken in the page (ms since navigation start):
    // waiting for it from here polls at growing intervals (up to 500 ms apart) and overshoots.
    await ctx.addInitScript(() => {
      const ready = () => {
        const el = document.querySelector('[data-testid="product-entry"]');
        if (!el || el.disabled || el.readOnly || !el.getClientRects().length) return false;
        window.__entryReadyAt = performance.now();
        return true;
      };
      const watch = new MutationObserver(() => ready() && watch.disconnect());
      watch.observe(document, { childList: true, subtree: true, attributes: true });
    });
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    const kinds = new Map();
    const bytes = { Script: 0, Stylesheet: 0 };
    const files = [];
    // The waterfall (every request's start and end, ms from the first) goes into the JSON too.
    const sent = new Map();
    const waterfall = [];
    cdp.on('Network.requestWillBeSent', (e) => sent.set(e.requestId, { url: new URL(e.request.url).pathname, start: e.timestamp }));
    cdp.on('Network.loadingFinished', (e) => {
      const r = sent.get(e.requestId);
      if (r) waterfall.push({ ...r, end: e.timestamp });
    });
    cdp.on('Network.responseReceived', (e) => kinds.set(e.requestId, { type: e.type, url: e.response.url }));
    cdp.on('Network.loadingFinished', (e) => {
      const k = kinds.get(e.requestId);
      if (k && k.type in bytes) {
        bytes[k.type] += e.encodedDataLength;
        files.push({ url: new URL(k.url).pathname, bytes: e.encodedDataLength });
      }
    });
    const t0 = performance.now();
    await page.goto('/');
    const entry = page.getByTestId('product-entry');
    await entry.waitFor({ state: 'visible' });
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="product-entry"]');
      return !!el && !el.disabled && !el.readOnly;
    });
    const detected = performance.now() - t0;
    const ready = (await page.evaluate(() => window.__entryReadyAt)) ?? detected;
    await page.waitForLoadState('networkidle');
    // The first run only warms the servers (their file caches); it is not counted.
    const first = Math.min(...waterfall.map((r) => r.start));
    const requests = waterfall
      .sort((a, b) => a.start - b.start)
      .map((r) => ({ url: r.url, startMs: Math.round((r.start - first) * 1000), endMs: Math.round((r.end - first) * 1000) }));
    if (i > 0) runs.push({ readyMs: ready, detectedMs: detected, requests, jsKB: bytes.Script / 1024, cssKB: bytes.Stylesheet / 1024, files, load: load() });
    await ctx.close();
  }
} finally {
  await browser.close().catch(() => undefined);
  await stack.stop();
}
const med = (k) => [...runs].sort((a, b) => a[k] - b[k])[Math.floor(runs.length / 2)][k];
const summary = { language: LANGUAGE, readyMs: med('readyMs'), detectedMs: med('detectedMs'), jsKB: med('jsKB'), cssKB: med('cssKB'), load: load(), files: runs[runs.length - 1].files };
console.log('[bench]', JSON.stringify({ ...summary, files: summary.files.length }));
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, JSON.stringify({ date: new Date().toISOString(), runs: runs.map(({ files, requests, ...r }) => r), waterfall: runs[runs.length - 1].requests, ...summary }, null, 2));
