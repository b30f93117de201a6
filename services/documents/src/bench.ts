/**
 * Benchmark of the rendering core (npm run bench -w @bahi/documents): cold bill render, warm
 * bill p50/p95, 10 concurrent bills, and memory over 500 renders. The data is in memory, so the
 * figures are template + Chromium only (no NATS round trips).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser } from 'puppeteer-core';
import type { SaleDocument } from '@bahi/contracts';
import { loadDocumentsConfig } from './config';
import { DOCUMENT_KINDS, type DocumentSources } from './documents/kinds';
import { renderPdf } from './documents/renderer';
import { BrowserPool } from './render/browser-pool';

const sale: SaleDocument = {
  sale_id: 7,
  date: '2025-03-14',
  due_date: '2025-04-14',
  customer: {
    id: 5, client_id: 5, name: 'Ramesh Gupta', mobile_no: '9123456780', address_line_1: '4 Park Street', address_line_2: '',
    city_or_district: 'Kolkata', state: 'WB', country: 'India', postal_code: '700016',
  },
  soldProducts: Array.from({ length: 8 }, (_, i) => ({
    product_id: 10 + i, product_name: `Item ${i + 1} रसोई`, quantity: '2', rate: '150', disc: '5', price: '145', amount: '290', hsn_code: '1006', unit: 'pcs',
  })),
  subtotal: '2320', tax: '417.60', shipping: '40', summery_discount: '20', previousDue: '500', paid: '1000', delivery: null,
};

const sources: DocumentSources = {
  ask: (async () => sale) as DocumentSources['ask'],
  company: async () => ({ id: 1, name: 'Sharma Kirana Stores', add1: '12 MG Road', add2: 'Bengaluru', mob1: '9876543210', mob2: '', email: 's@example.in', logo: null, upiId: 'sharmakirana@upi' }),
  today: () => '2025-03-31',
};

async function bill(pool: BrowserPool): Promise<Buffer> {
  const doc = await DOCUMENT_KINDS.bill.prepare({ companyId: 1, id: '7', query: {} }, sources);
  return renderPdf(pool, doc);
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** RSS in MiB of a process and all its descendants (Chromium's renderer and GPU processes). */
function treeRssMiB(root: number): number {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      /* exited meanwhile */
    }
  }
  let kb = 0;
  const walk = (pid: number) => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      kb += m ? Number(m[1]) : 0;
    } catch {
      /* exited */
    }
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(root);
  return kb / 1024;
}

async function main() {
  const cfg = loadDocumentsConfig();
  const pool = new BrowserPool({
    executablePath: cfg.chromePath,
    concurrency: cfg.concurrency,
    queueLimit: 50,
    renderTimeoutMs: cfg.renderTimeoutMs,
    restartAfter: cfg.restartAfter,
  });
  const browserPid = () => (pool as unknown as { browser: Browser | null }).browser?.process()?.pid;
  const mib = (b: number) => (b / 1024 / 1024).toFixed(0);
  try {
    let t = performance.now();
    await bill(pool);
    console.log(`cold bill (browser launch + first render): ${(performance.now() - t).toFixed(0)} ms`);

    for (let i = 0; i < 10; i++) await bill(pool); // warm-up
    const warm: number[] = [];
    for (let i = 0; i < 100; i++) {
      t = performance.now();
      await bill(pool);
      warm.push(performance.now() - t);
    }
    console.log(`warm bill, 100 sequential: p50 ${pct(warm, 50).toFixed(0)} ms, p95 ${pct(warm, 95).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms`);

    t = performance.now();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => bill(pool)));
    const failed = results.filter((r) => r.status === 'rejected').length;
    console.log(`10 concurrent bills: ${10 - failed} ok, ${failed} failed, all done in ${(performance.now() - t).toFixed(0)} ms (concurrency ${cfg.concurrency})`);

    console.log(`memory over 500 renders (browser restarted every ${cfg.restartAfter}):`);
    for (let i = 1; i <= 500; i++) {
      await bill(pool);
      if (i % 100 === 0) {
        // After a full collection (bench runs with --expose-gc): what is still held, not garbage
        // waiting for the next major GC.
        (globalThis as { gc?: () => void }).gc?.();
        const pid = browserPid();
        console.log(`  ${i}: node rss ${mib(process.memoryUsage().rss)} MiB, heap ${mib(process.memoryUsage().heapUsed)} MiB, chromium ${pid ? treeRssMiB(pid).toFixed(0) : '-'} MiB, restarts ${pool.stats.restarts}`);
      }
    }
  } finally {
    await pool.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
