/**
 * Benchmark of the rendering core (npm run bench -w @bahi/documents): cold bill render, warm
 * bill p50/p95, the GST tax invoice beside the simple bill (alternating renders of one run, the
 * issue's budget: GST adds at most 10 % to the warm p50), 10 concurrent bills, and memory over
 * 500 renders. The data is in memory, so the figures are template + Chromium only (no NATS round trips).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser } from 'puppeteer-core';
import type { SaleDocument, SaleGst } from '@bahi/contracts';
import { computeInvoice, stateName } from '@bahi/gst';
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

/**
 * The same 8 lines as a GST tax invoice (Maharashtra to a Gujarat buyer with a GSTIN: IGST),
 * computed by @bahi/gst as sales freezes it: A4, HSN summary, amount in words, UPI QR.
 */
function gstSale(): SaleDocument {
  const lines = sale.soldProducts.map((l, i) => ({ mrp: l.rate, discount: l.disc, quantity: l.quantity, rate: i % 2 ? '12' : '18', priceIncludesTax: i % 2 === 0, hsn: i % 2 ? '3924' : '8516', unit: l.unit }));
  const inv = computeInvoice({ mode: 'gst', companyState: '27', customerGstin: '24AAGCS5678K1ZT', lines, shipping: sale.shipping, discount: sale.summery_discount });
  const party = (name: string, gstin: string, code: string) => ({ name, address: ['12 MG Road', 'Mumbai 400069'], gstin, state_code: code, state_name: stateName(code), mobile: '9876543210', email: '' });
  const gst: SaleGst = {
    tax_mode: 'gst', document: inv.document, invoice_no: 'GT/26-27/0007', fy: '26-27', serial: 7, invoice_date: '2026-05-14',
    supplier: party('Sharma Kirana Stores', '27AAPFU0939F1ZV', '27'), recipient: party('Patel Electricals', '24AAGCS5678K1ZT', '24'),
    b2b: true, place_of_supply: inv.placeOfSupply, place_of_supply_name: stateName(inv.placeOfSupply), inter_state: inv.interState,
    state_tax_name: inv.stateTaxName, reverse_charge: false,
    lines: inv.lines.map((l, i) => ({
      sl_no: i + 1, hsn_code: l.hsn, uqc: l.uqc, gst_rate: l.rate, price_includes_tax: lines[i]!.priceIncludesTax, qty: l.qty,
      line_taxable: l.lineTaxable, share: l.share, taxable_value: l.taxable, cgst: l.cgst, sgst: l.sgst, igst: l.igst,
    })),
    taxable_total: inv.taxable, cgst_total: inv.cgst, sgst_total: inv.sgst, igst_total: inv.igst, tax_total: inv.tax,
    exact_total: inv.exactTotal, round_off: inv.roundOff, invoice_value: inv.invoiceValue,
  };
  return { ...sale, sale_id: 8, soldProducts: sale.soldProducts.map((l, i) => ({ ...l, sl_no: i + 1, per_peice_quantity: '1' })), tax: inv.tax, gst };
}
const gst = gstSale();

const sources: DocumentSources = {
  ask: (async (_subject: string, payload: { saleId: number }) => (payload.saleId === 8 ? gst : sale)) as unknown as DocumentSources['ask'],
  company: async () => ({ id: 1, name: 'Sharma Kirana Stores', add1: '12 MG Road', add2: 'Bengaluru', mob1: '9876543210', mob2: '', email: 's@example.in', logo: null, upiId: 'sharmakirana@upi' }),
  today: () => '2025-03-31',
};

/** A bill: the simple A5 bill (sale 7) or the GST tax invoice of the same lines (sale 8). */
async function bill(pool: BrowserPool, id = '7', format?: string): Promise<Buffer> {
  const doc = await DOCUMENT_KINDS.bill.prepare({ companyId: 1, id, query: format ? { format } : {} }, sources);
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

    // GST beside simple: alternating renders, so both see the same machine load.
    for (let i = 0; i < 10; i++) await bill(pool, '8'); // warm-up
    const simple: number[] = [];
    const taxInvoice: number[] = [];
    for (let i = 0; i < 300; i++) {
      const gstTurn = i % 2 === 1;
      t = performance.now();
      await bill(pool, gstTurn ? '8' : '7');
      (gstTurn ? taxInvoice : simple).push(performance.now() - t);
    }
    const line = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(0)} ms, p95 ${pct(xs, 95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
    console.log(`warm simple bill (A5), 150 alternating: ${line(simple)}`);
    console.log(`warm GST tax invoice (A4), 150 alternating: ${line(taxInvoice)}`);
    console.log(`warm invoice PDF p50, GST/simple: ${(pct(taxInvoice, 50) / pct(simple, 50)).toFixed(2)}x (budget 1.10x)`);

    // Thermal receipts beside the A5 bill (same sale), in turns: the fitted height costs a layout and a measure.
    const formats = ['a5', 'thermal-80', 'thermal-58'] as const;
    for (const f of formats) await bill(pool, '7', f); // warm-up
    const byFormat: Record<string, number[]> = { a5: [], 'thermal-80': [], 'thermal-58': [] };
    for (let i = 0; i < 150; i++) {
      const f = formats[i % 3]!;
      t = performance.now();
      await bill(pool, '7', f);
      byFormat[f]!.push(performance.now() - t);
    }
    for (const f of formats) console.log(`warm bill ${f}, 50 in turns: ${line(byFormat[f]!)}`);

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
