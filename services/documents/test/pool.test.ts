import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { BrowserPool, PoolBusyError, RenderTimeoutError, type BrowserPoolOptions } from '../src/render/browser-pool';
import { pageSizesMm, pdfFonts, pdfText } from './pdf';

const SIZE = { width: '210mm', height: '148mm' };
const make = (o: Partial<BrowserPoolOptions> = {}) =>
  new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 2, queueLimit: 4, renderTimeoutMs: 30_000, restartAfter: 100, ...o });
const browserOf = (pool: BrowserPool) => (pool as unknown as { browser: Browser | null }).browser;

describe('BrowserPool', () => {
  it('renders a page with the page size asked for, ₹ and Devanagari text', async () => {
    const pool = make();
    try {
      const pdf = await pool.render('<html><body><p>कुल ₹1,250.00</p></body></html>', SIZE);
      expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 148 }]);
      // pdftotext splits shaped Devanagari clusters with spaces; the glyphs are all there.
      expect(pdfText(pdf).replace(/\s/g, '')).toContain('कुल₹1,250.00');
      expect(pdfFonts(pdf)).toMatch(/NotoSansDevanagari/);
    } finally {
      await pool.close();
    }
  });

  it('loads nothing but data: URIs inside the page', async () => {
    const pool = make();
    let hits = 0;
    const server = require('node:http').createServer((_: unknown, res: { end: (s: string) => void }) => {
      hits++;
      res.end('x');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = server.address().port;
      const pdf = await pool.render(`<img src="http://127.0.0.1:${port}/x.png"><link rel="stylesheet" href="http://127.0.0.1:${port}/a.css"><p>ok</p>`, SIZE);
      expect(pdfText(pdf)).toContain('ok');
      expect(hits).toBe(0);
    } finally {
      server.close();
      await pool.close();
    }
  });

  it('runs no script and opens no connection: scripts, WebSockets, prefetch, preconnect, images, CSS and frames', async () => {
    const pool = make();
    const connections: string[] = [];
    const server = createServer((req, res) => res.end('x'));
    server.on('connection', () => connections.push('http'));
    server.on('request', (req) => connections.push(`http ${req.url}`));
    const ws = createServer();
    ws.on('connection', () => connections.push('ws'));
    await Promise.all([new Promise<void>((r) => server.listen(0, '127.0.0.1', r)), new Promise<void>((r) => ws.listen(0, '127.0.0.1', r))]);
    try {
      const port = (server.address() as AddressInfo).port;
      const wsPort = (ws.address() as AddressInfo).port;
      const origin = `http://127.0.0.1:${port}`;
      const html = `<!DOCTYPE html><html><head>
<link rel="prefetch" href="${origin}/prefetch"><link rel="preconnect" href="${origin}"><link rel="dns-prefetch" href="${origin}">
<link rel="preload" as="image" href="${origin}/preload.png"><link rel="stylesheet" href="${origin}/a.css">
<style>@import url("${origin}/import.css"); body { background: url("${origin}/bg.png"); } @font-face { font-family: X; src: url("${origin}/x.woff"); } p { font-family: X; }</style>
</head><body>
<p id="t">static</p>
<script>document.getElementById('t').textContent = 'SCRIPT RAN'; new WebSocket('ws://127.0.0.1:${wsPort}/'); fetch('${origin}/fetch');</script>
<script src="${origin}/s.js"></script>
<img src="${origin}/x.png"><iframe src="${origin}/frame"></iframe><object data="${origin}/o"></object>
<svg><image href="${origin}/svg.png" width="10" height="10"/></svg>
</body></html>`;
      const pdf = await pool.render(html, SIZE);
      const text = pdfText(pdf);
      // Give any late speculative connection (prefetch, preconnect) time to arrive.
      await new Promise((r) => setTimeout(r, 500));
      expect({ scriptRan: text.includes('SCRIPT RAN'), staticText: text.includes('static'), connections }).toEqual({ scriptRan: false, staticText: true, connections: [] });
    } finally {
      server.close();
      ws.close();
      await pool.close();
    }
  });

  it('refuses work beyond the slots and the queue limit', async () => {
    const pool = make({ concurrency: 1, queueLimit: 1 });
    try {
      const a = pool.render('<p>a</p>', SIZE);
      const b = pool.render('<p>b</p>', SIZE);
      await expect(pool.render('<p>c</p>', SIZE)).rejects.toBeInstanceOf(PoolBusyError);
      await Promise.all([a, b]);
      expect(pool.stats).toMatchObject({ active: 0, queued: 0, renders: 2 });
    } finally {
      await pool.close();
    }
  });

  it('gives up on a render past its deadline and keeps working', async () => {
    const pool = make({ renderTimeoutMs: 1 });
    try {
      await expect(pool.render('<p>slow</p>', SIZE)).rejects.toBeInstanceOf(RenderTimeoutError);
      expect(pool.stats.active).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('restarts the browser after N renders', async () => {
    const pool = make({ restartAfter: 2 });
    try {
      await pool.render('<p>1</p>', SIZE);
      const first = browserOf(pool);
      await pool.render('<p>2</p>', SIZE);
      await pool.render('<p>3</p>', SIZE);
      expect(pool.stats.restarts).toBe(1);
      expect(browserOf(pool)).not.toBe(first);
      expect(pdfText(await pool.render('<p>4</p>', SIZE))).toContain('4');
    } finally {
      await pool.close();
    }
  });

  it('relaunches a browser that died', async () => {
    const pool = make();
    try {
      await pool.render('<p>before</p>', SIZE);
      const b = browserOf(pool)!;
      const gone = new Promise((r) => b.once('disconnected', r));
      b.process()!.kill('SIGKILL');
      await gone;
      expect(pdfText(await pool.render('<p>after</p>', SIZE))).toContain('after');
    } finally {
      await pool.close();
    }
  });
});
