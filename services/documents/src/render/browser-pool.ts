import puppeteer, { type Browser, type HTTPRequest, type Page } from 'puppeteer-core';

export interface BrowserPoolOptions {
  /** Chromium binary (CHROME_PATH). */
  executablePath: string;
  /** Renders running at once (pages open at once). */
  concurrency: number;
  /** Renders allowed to wait for a free slot; beyond it render() throws PoolBusyError. */
  queueLimit: number;
  /** Deadline of one render, from when it gets a slot. */
  renderTimeoutMs: number;
  /** Relaunch the browser after this many renders (Chromium's memory creeps otherwise). */
  restartAfter: number;
  /** Logs restarts and crashes. */
  log?: (msg: string) => void;
}

/** Every slot is taken and the queue is full: the caller answers 503 with Retry-After. */
export class PoolBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The document printer is busy, please try again shortly.');
  }
}

/** A render did not finish within its deadline. */
export class RenderTimeoutError extends Error {
  constructor(ms: number) {
    super(`The document took longer than ${ms} ms to render.`);
  }
}

export interface PdfOptions {
  /** Printed page size, e.g. '210mm 148mm'; the template's @page rule repeats it. */
  width: string;
  height: string;
  /**
   * Thermal rolls: `width` in mm is the page width and the height is measured from the laid-out
   * content (one page, no blank tail); `height` is then ignored.
   */
  fitHeight?: boolean;
  /** A PNG of the whole page `dots` pixels wide instead of a PDF (a thermal printer's raster; `width` in mm). */
  png?: { dots: number };
}

const PX_PER_MM = 96 / 25.4;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--disable-default-apps',
  '--no-first-run',
  '--mute-audio',
  '--font-render-hinting=none',
  '--dns-prefetch-disable',
  // A proxy that never resolves (.invalid), loopback included: even what no CSP or interception
  // governs (<link rel=preconnect> opens a bare TCP connection) has nowhere to go.
  '--proxy-server=http://no-network.invalid:1',
  '--proxy-bypass-list=<-loopback>',
];

/**
 * Put into every document: whatever markup a template ends up holding, the page may use inline
 * styles and data: images and fonts only (no script, no request, no WebSocket, no prefetch).
 */
export const DOCUMENT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline' data:; font-src data:";
const CSP_META = `<meta http-equiv="Content-Security-Policy" content="${DOCUMENT_CSP}">`;

/** The CSP meta first in the document (after a doctype, so standards mode is kept). */
export function withCsp(html: string): string {
  const doctype = /^\s*<!DOCTYPE[^>]*>/i.exec(html);
  return doctype ? doctype[0] + CSP_META + html.slice(doctype[0].length) : CSP_META + html;
}

/** Every scheme a page could reach the network with; data: stays allowed. */
const BLOCKED_URLS = ['http://*', 'https://*', 'ws://*', 'wss://*', 'ftp://*', 'file://*', 'blob:*', 'filesystem:*'];

/**
 * One long-lived Chromium, a fresh page per document (closed before answering), at most
 * `concurrency` pages at once and `queueLimit` waiters; a deadline on every render; the browser
 * is relaunched after `restartAfter` renders or when it dies. Pages run no script and may load
 * data: URIs only (CSP, request interception and the network layer's block list).
 */
export class BrowserPool {
  private browser: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  private rendersOnBrowser = 0;
  private retiring: Browser[] = [];
  /** Blank pages opened ahead of need (each is still used for one document only). */
  private spares: { browser: Browser; page: Promise<Page> }[] = [];
  private closed = false;
  /** Renders done since start (for health and the bench). */
  rendersTotal = 0;
  restarts = 0;

  constructor(private readonly opts: BrowserPoolOptions) {}

  get stats() {
    return { active: this.active, queued: this.waiters.length, renders: this.rendersTotal, restarts: this.restarts, connected: !!this.browser?.connected };
  }

  /** Launches the browser now (otherwise the first render does). */
  async start(): Promise<void> {
    await this.getBrowser();
  }

  async render(html: string, pdf: PdfOptions): Promise<Buffer> {
    if (this.closed) throw new Error('The browser pool is closed.');
    await this.acquire();
    try {
      const browser = await this.getBrowser();
      this.rendersOnBrowser++;
      return await this.withDeadline(browser, html, pdf);
    } finally {
      this.rendersTotal++;
      this.release();
      this.maybeRestart();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.retiring, ...(this.browser ? [this.browser] : [])];
    if (this.launching) all.push(await this.launching.catch(() => null as never));
    this.browser = null;
    this.retiring = [];
    this.spares = [];
    await Promise.all(all.filter(Boolean).map((b) => b.close().catch(() => b.process()?.kill('SIGKILL'))));
  }

  private acquire(): Promise<void> {
    if (this.active < this.opts.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiters.length >= this.opts.queueLimit) {
      // A rough wait: the queue ahead drained at about one render per slot per second.
      throw new PoolBusyError(Math.max(1, Math.ceil(this.waiters.length / this.opts.concurrency)));
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next) next(); // the slot passes straight to the next waiter
    else this.active--;
  }

  private async withDeadline(browser: Browser, html: string, pdf: PdfOptions): Promise<Buffer> {
    let page: Page | null = null;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderTimeoutError(this.opts.renderTimeoutMs)), this.opts.renderTimeoutMs);
    });
    const work = (async () => {
      page = await this.takePage(browser);
      return this.renderOn(page, html, pdf);
    })();
    try {
      return await Promise.race([work, deadline]);
    } catch (err) {
      // A dead browser is relaunched by the next render.
      if (!browser.connected && this.browser === browser) this.browser = null;
      throw err;
    } finally {
      clearTimeout(timer);
      work.catch(() => {}); // the loser of the race must not surface as unhandled
      const p = page as Page | null;
      if (p) await p.close().catch(() => {});
      else void work.then(() => {}, () => {}).finally(() => (page as Page | null)?.close().catch(() => {}));
    }
  }

  /** A fresh page: opening one costs more than the render itself, so spares are opened ahead. */
  private async openPage(browser: Browser): Promise<Page> {
    const page = await browser.newPage();
    // Templates are static markup (barcodes and QR codes are SVG made on the server).
    await page.setJavaScriptEnabled(false);
    // Interception does not see WebSockets: the network layer blocks them (and everything else) too.
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    await cdp.send('Network.setBlockedURLs', { urls: BLOCKED_URLS });
    await page.setRequestInterception(true);
    page.on('request', (req: HTTPRequest) => {
      if (req.isInterceptResolutionHandled()) return;
      if (req.url().startsWith('data:')) void req.continue();
      else void req.abort('blockedbyclient');
    });
    return page;
  }

  private async takePage(browser: Browser): Promise<Page> {
    let page: Page | null = null;
    const i = this.spares.findIndex((s) => s.browser === browser);
    if (i >= 0) {
      const [spare] = this.spares.splice(i, 1);
      page = await spare!.page.catch(() => null);
      if (page?.isClosed()) page = null;
    }
    page ??= await this.openPage(browser);
    this.refill(browser);
    return page;
  }

  private refill(browser: Browser): void {
    while (!this.closed && browser === this.browser && this.spares.filter((s) => s.browser === browser).length < this.opts.concurrency) {
      const page = this.openPage(browser);
      page.catch(() => {}); // a spare that fails to open is skipped when taken
      this.spares.push({ browser, page });
    }
  }

  private dropSpares(browser: Browser): Promise<unknown> {
    const mine = this.spares.filter((s) => s.browser === browser);
    this.spares = this.spares.filter((s) => s.browser !== browser);
    return Promise.all(mine.map((s) => s.page.then((p) => p.close()).catch(() => {})));
  }

  private async renderOn(page: Page, html: string, pdf: PdfOptions): Promise<Buffer> {
    await page.setContent(withCsp(html), { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    if (pdf.png) {
      // Laid out at the roll's CSS width, drawn at the printer's dot density.
      const cssWidth = Math.ceil(parseFloat(pdf.width) * PX_PER_MM);
      await page.emulateMediaType('print');
      await page.setViewport({ width: cssWidth, height: 100, deviceScaleFactor: pdf.png.dots / cssWidth });
      return Buffer.from(await page.screenshot({ type: 'png', fullPage: true, omitBackground: false }));
    }
    const height = pdf.fitHeight ? `${await this.fitHeight(page, parseFloat(pdf.width))}mm` : pdf.height;
    const out = await page.pdf({
      width: pdf.width,
      height,
      printBackground: true,
      preferCSSPageSize: true,
      margin: { top: '0', right: '0', bottom: '0', left: '0' },
    });
    return Buffer.from(out);
  }

  /**
   * Lays the page out at the roll's width with print media, measures it and sets the @page height
   * to it (rounded up to 0.1 mm plus 0.5 mm, so a rounding difference of the print layout never
   * spills a line onto a second page).
   */
  private async fitHeight(page: Page, widthMm: number): Promise<number> {
    await page.emulateMediaType('print');
    await page.setViewport({ width: Math.ceil(widthMm * PX_PER_MM), height: 100 });
    const px = await page.evaluate(() => document.documentElement.getBoundingClientRect().height);
    const mm = Math.ceil((px / PX_PER_MM + 0.5) * 10) / 10;
    await page.evaluate((css: string) => {
      const style = document.createElement('style');
      style.textContent = css;
      document.head.appendChild(style);
    }, `@page { size: ${widthMm}mm ${mm}mm; margin: 0; }`);
    return mm;
  }

  private getBrowser(): Promise<Browser> {
    if (this.browser?.connected) return Promise.resolve(this.browser);
    if (this.launching) return this.launching;
    this.launching = puppeteer
      .launch({ executablePath: this.opts.executablePath, headless: true, args: CHROMIUM_ARGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false })
      .then((b) => {
        this.browser = b;
        this.rendersOnBrowser = 0;
        b.on('disconnected', () => {
          this.spares = this.spares.filter((s) => s.browser !== b);
          if (this.browser === b) {
            this.browser = null;
            if (!this.closed) this.opts.log?.('Chromium disconnected; the next render relaunches it.');
          }
        });
        return b;
      })
      .finally(() => {
        this.launching = null;
      });
    return this.launching;
  }

  /** Swaps in a fresh browser after N renders; the old one closes once its pages are done. */
  private maybeRestart(): void {
    if (this.closed || !this.browser || this.rendersOnBrowser < this.opts.restartAfter) return;
    const old = this.browser;
    this.browser = null;
    this.restarts++;
    this.retiring.push(old);
    this.opts.log?.(`Restarting Chromium after ${this.rendersOnBrowser} renders.`);
    const closeWhenIdle = async () => {
      await this.dropSpares(old);
      // Renders already running on the old browser finish first.
      for (let i = 0; i < 600; i++) {
        const pages = await old.pages().catch(() => []);
        if (pages.length <= 1) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await old.close().catch(() => old.process()?.kill('SIGKILL'));
      this.retiring = this.retiring.filter((b) => b !== old);
    };
    void closeWhenIdle();
  }
}
