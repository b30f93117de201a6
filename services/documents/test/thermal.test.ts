import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { SaleDocument } from '@bahi/contracts';
import { BrowserPool } from '../src/render/browser-pool';
import { CompanyHeaders } from '../src/documents/company';
import { DOCUMENT_KINDS, type DocumentSources } from '../src/documents/kinds';
import { renderPdf } from '../src/documents/renderer';
import { COMPOSITION_LINE } from '../src/templates/tax-invoice';
import * as F from './fixtures';
import * as G from './gst-fixtures';
import { binary, startDocuments, tokenFor, type DocStack } from './helpers';
import { decodeQr, pdfFonts, pdfText, rasterPage } from './pdf';

// Bills on 80 and 58 mm thermal rolls through the real Chromium, read back with poppler
// (pdfinfo: page size and count; pdftotext: every figure; pdftoppm + jsQR: the UPI QR).

/** 40 lines of 2 bags x 625.00 = 1,250.00: subtotal 40 x 1250 = 50,000.00. */
const forty: SaleDocument = { ...F.longSale(40), subtotal: '50000', tax: '0', shipping: '0', summery_discount: '0', previousDue: '500.25', paid: '0' };
const SALES: Record<number, SaleDocument> = { 7: F.sale, 8: F.walkInSale, 9: forty, 10: F.packSale, ...G.GST_SALES };
const sources = (billFormat?: 'a5' | 'thermal-80' | 'thermal-58'): DocumentSources => ({
  async ask(_subject, payload) {
    return (SALES[(payload as { saleId: number }).saleId] ?? null) as never;
  },
  company: async () => ({ ...F.company, ...(billFormat ? { billFormat } : {}) }),
  today: () => '2026-05-31',
});

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 2, queueLimit: 10, renderTimeoutMs: 30_000, restartAfter: 1000 });
});
afterAll(() => pool.close());

const PT_PER_MM = 72 / 25.4;
const squash = (s: string) => s.replace(/\s+/g, ' ');

/** pdfinfo's page count and page size in points. */
function pdfInfo(pdf: Buffer): { pages: number; w: number; h: number } {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-thermal-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    const out = execFileSync('pdfinfo', [join(dir, 'a.pdf')], { encoding: 'utf8' });
    const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(out)!;
    return { pages: Number(/Pages:\s+(\d+)/.exec(out)![1]), w: Number(size[1]), h: Number(size[2]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Blank millimetres below the last printed pixel row (the tail a fitted page must not have). */
function blankTailMm(pdf: Buffer, dpi = 150): { tailMm: number; heightMm: number } {
  const png = rasterPage(pdf, 1, dpi);
  let last = -1;
  for (let y = png.height - 1; y >= 0 && last < 0; y--) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      if (png.data[i]! + png.data[i + 1]! + png.data[i + 2]! < 600) {
        last = y;
        break;
      }
    }
  }
  return { tailMm: ((png.height - 1 - last) / dpi) * 25.4, heightMm: (png.height / dpi) * 25.4 };
}

async function bill(saleId: number, format?: string, src = sources()) {
  const doc = await DOCUMENT_KINDS.bill.prepare({ companyId: F.COMPANY_ID, id: String(saleId), query: format ? { format } : {} }, src);
  const pdf = await renderPdf(pool, doc);
  if (process.env.DOCS_DUMP) {
    writeFileSync(join(process.env.DOCS_DUMP, doc.fileName), pdf);
    execFileSync('pdftoppm', ['-r', '200', '-png', '-singlefile', join(process.env.DOCS_DUMP, doc.fileName), join(process.env.DOCS_DUMP, doc.fileName.replace('.pdf', ''))]);
  }
  return { doc, pdf, info: pdfInfo(pdf), text: squash(pdfText(pdf)) };
}

/** Rows in this order (each whole) in the text. */
function inOrder(text: string, rows: string[]) {
  let from = 0;
  for (const r of rows) {
    const at = text.indexOf(r, from);
    expect({ row: r, found: at >= 0 }).toEqual({ row: r, found: true });
    from = at + r.length;
  }
}

describe('thermal bills (format=thermal-80 / thermal-58)', () => {
  it('80 mm: one page 226.77 pt wide, fitted to the content, every figure of the bill and a UPI QR that decodes', async () => {
    const { pdf, info, text, doc } = await bill(7, 'thermal-80');
    expect(doc.fileName).toBe('bill-7-80mm.pdf');
    expect(info.pages).toBe(1);
    expect(info.w).toBeCloseTo(226.77, 1); // 80 mm x 72 / 25.4
    const fit = blankTailMm(pdf);
    // Below the last ink: the 3 mm bottom padding, the 0.5 mm allowance and a rounding, never a blank tail.
    expect(fit.tailMm).toBeGreaterThan(1);
    expect(fit.tailMm).toBeLessThan(6);
    expect(info.h / PT_PER_MM).toBeLessThan(200);
    inOrder(text, [
      'Sharma Kirana Stores',
      '12 MG Road, Indiranagar, Bengaluru',
      'Mob: 9876543210',
      'TAX INVOICE',
      'Bill No: 7',
      'Date: 14-03-2025',
      'Bill to: Ramesh Gupta रमेश',
      'Mob: 9123456780',
      // 2 bags at 650 less 25 = 625 each: 2 x 625 = 1,250.00
      '1. Basmati Rice 5kg',
      'MRP 650.00 less 25.00',
      '2.0 bag × 625.00 1,250.00',
      // 3 kg x 160.50 = 481.50
      '2. Toor Dal 1kg',
      '3.0 kg × 160.50 481.50',
      'Subtotal ₹1,731.50',
      'Tax ₹311.67',
      'Shipping ₹40.00',
      'Discount - ₹21.50',
      'Previous due ₹500.25',
      // 1731.50 + 500.25 + 40 + 311.67 - 21.50 = 2561.92
      'Total ₹2,561.92',
      'Paid ₹1,000.00',
      // 2561.92 - 1000 = 1561.92 -> ₹1,562
      'Due ₹1,562',
      'Due date: 14-04-2025',
      'Scan to pay by UPI',
      'sharmakirana@upi',
      'Thank you!',
    ]);
    const qr = decodeQr(rasterPage(pdf, 1, 200));
    expect(qr).toBe('upi://pay?pa=sharmakirana%40upi&pn=Sharma%20Kirana%20Stores&am=1562.00&cu=INR&tn=Bill%207');
    // Noto Sans carries the rupee sign and Devanagari (the customer's name): embedded, no fallback box.
    expect(pdfFonts(pdf)).toMatch(/NotoSans/);
  });

  it('58 mm: one page 164.41 pt wide with the same figures, readable at that width, QR decodes', async () => {
    const { pdf, info, text } = await bill(7, 'thermal-58');
    expect(info.pages).toBe(1);
    expect(info.w).toBeCloseTo(164.41, 1); // 58 mm x 72 / 25.4
    const fit = blankTailMm(pdf);
    expect(fit.tailMm).toBeGreaterThan(1);
    expect(fit.tailMm).toBeLessThan(6);
    for (const s of ['Bill No: 7', '1,250.00', '481.50', 'Total ₹2,561.92', 'Due ₹1,562', 'Previous due ₹500.25']) expect(text).toContain(s);
    expect(decodeQr(rasterPage(pdf, 1, 200))).toContain('am=1562.00');
  });

  it('the walk-in bill leaves out the customer and the previous due; nothing due, no QR', async () => {
    const { pdf, text } = await bill(8, 'thermal-58');
    expect(text).not.toContain('Bill to');
    expect(text).not.toContain('Previous due');
    // 1731.50 + 40 + 311.67 - 21.50 = 2061.67, all paid
    for (const s of ['Total ₹2,061.67', 'Paid ₹2,061.67', 'Due ₹0']) expect(text).toContain(s);
    expect(text).not.toContain('Scan to pay');
    expect(decodeQr(rasterPage(pdf, 1, 200))).toBeNull();
  });

  it('prints the quantity the amount was computed from: 2 boxes of 6 at 9.00 = 12.0 pcs x 9.00 = 108.00', async () => {
    const { text } = await bill(10, 'thermal-80');
    expect(text).toContain('1. Parle-G Biscuit Box 2 × 6 pcs · MRP 10.00 less 1.00 12.0 pcs × 9.00 108.00');
  });

  it('a 40-line bill is still one page, longer by its lines, with its total', async () => {
    const short = await bill(7, 'thermal-58');
    const { pdf, info, text } = await bill(9, 'thermal-58');
    expect(info.pages).toBe(1);
    expect(info.w).toBeCloseTo(164.41, 1);
    // 38 more lines of at least 2 printed rows each
    expect(info.h - short.info.h).toBeGreaterThan(38 * 2 * 8);
    const fit = blankTailMm(pdf, 100);
    expect(fit.tailMm).toBeLessThan(6);
    expect(text).toContain('40. Basmati Rice 5kg');
    // 50,000.00 + 500.25 previous due = 50,500.25; nothing paid: due ₹50,500
    expect(text).toContain('Subtotal ₹50,000.00');
    expect(text).toContain('Total ₹50,500.25');
    expect(text).toContain('Due ₹50,500');
  });

  it('300 lines, the most a receipt takes, are still one page on 58 mm', async () => {
    const most: SaleDocument = { ...F.longSale(300), sale_id: 12 };
    const src: DocumentSources = { ...sources(), ask: async () => most as never };
    const { info, text } = await bill(12, 'thermal-58', src);
    expect(info.pages).toBe(1);
    expect(text).toContain('300. Basmati Rice 5kg');
    expect(text).toContain('Thank you!');
  });

  it('wraps a long product name inside the 48 mm printable width', async () => {
    const name = 'Fortune Sunlite Refined Sunflower Oil Pouch 1 Litre Family Pack With Extra Vitamins';
    const long: SaleDocument = { ...F.walkInSale, sale_id: 11, soldProducts: [{ ...F.sale.soldProducts[0]!, product_name: name }] };
    const src: DocumentSources = { ...sources(), ask: async () => long as never };
    const { pdf, info } = await bill(11, 'thermal-58', src);
    expect(info.pages).toBe(1);
    // pdftotext -raw keeps each printed row: the name spans rows, every word printed
    const raw = execFileSync('pdftotext', ['-raw', '-', '-'], { input: pdf, encoding: 'utf8' });
    for (const w of name.split(' ')) expect(raw).toContain(w);
    expect(raw).not.toContain(name);
  });

  it('GST mode on 80 mm: the tax invoice fields (GSTINs, invoice number, place of supply, tax per rate, HSN summary, round off, value)', async () => {
    const { pdf, info, text } = await bill(20, 'thermal-80');
    expect(info.pages).toBe(1);
    expect(info.w).toBeCloseTo(226.77, 1);
    inOrder(text, [
      'Sharma Kirana Stores',
      '12 MG Road, Andheri East, Mumbai 400069',
      'GSTIN: 27AAPFU0939F1ZV',
      'State: Maharashtra (27)',
      'TAX INVOICE',
      'Invoice No: GT/26-27/0001',
      'Date: 14-05-2026',
      'Place of supply: Gujarat (24)',
      'Bill to (registered): Patel Electricals',
      'GSTIN: 24AAGCS5678K1ZT',
      '1. Steam Iron 1200W',
      'HSN 8516 · IGST 18%',
      // 3 x 590.00 incl. GST = 1,770.00
      '3.0 pcs × 590.00* 1,770.00',
      '2. Plastic Storage Box',
      'HSN 3924 · IGST 12% · MRP 100.00 less 5.00',
      // 2 x (100 - 5) = 190.00
      '2.0 pcs × 95.00 190.00',
      '* Rate includes GST.',
      // 1770 / 1.18 = 1500.00 + 190 = 1690.00 taxable; IGST 270.00 + 22.80 = 292.80
      'Taxable value ₹1,690.00',
      'IGST ₹292.80',
      // 1982.80 -> 1983
      'Round off +0.20',
      'Invoice value ₹1,983.00',
      'GST% Taxable IGST',
      '18% 1,500.00 270.00',
      '12% 190.00 22.80',
      'HSN Taxable Tax',
      '8516 1,500.00 270.00',
      '3924 190.00 22.80',
      'Total 1,690.00 292.80',
      'Tax payable on reverse charge: No',
      'This invoice ₹1,983.00',
      'Previous due ₹500.50',
      'Paid ₹1,000.00',
      // 1983 + 500.50 - 1000 = 1483.50 -> ₹1,484
      'Balance due ₹1,484',
    ]);
    expect(text).not.toMatch(/CGST|SGST/);
    expect(decodeQr(rasterPage(pdf, 1, 200))).toBe('upi://pay?pa=sharmakirana%40upi&pn=Sharma%20Kirana%20Stores&am=1484.00&cu=INR&tn=Invoice%20GT%2F26-27%2F0001');
  });

  it('GST mode on 58 mm to the walk-in: CGST and SGST halves, no recipient GSTIN, no previous due', async () => {
    const { info, text } = await bill(21, 'thermal-58');
    expect(info.pages).toBe(1);
    expect(info.w).toBeCloseTo(164.41, 1);
    for (const s of ['Invoice No: GT/26-27/0002', 'Place of supply: Maharashtra (27)', 'CGST ₹146.40', 'SGST ₹146.40', 'Invoice value ₹1,983.00', 'GST% Taxable CGST SGST', '18% 1,500.00 135.00 135.00', '12% 190.00 11.40 11.40']) {
      expect(text).toContain(s);
    }
    expect(text).not.toContain('IGST');
    expect(text).not.toContain('Previous due');
    expect(text).not.toContain('registered');
  });

  it('composition mode: "Bill of Supply" with the composition line and no tax columns', async () => {
    const { text } = await bill(24, 'thermal-58');
    expect(text).toContain('BILL OF SUPPLY');
    expect(text).toContain(COMPOSITION_LINE);
    expect(text).toContain('Total value');
    expect(text).not.toMatch(/CGST|SGST|IGST|GST%/);
  });

  it('nil-rated, exempt and non-GST lines print their type instead of heads; a bill of only such lines is a Bill of Supply in the same series', async () => {
    const mixed = await bill(27, 'thermal-80');
    expect(mixed.text).toContain('TAX INVOICE');
    expect(mixed.text).toContain('Invoice No: GT/26-27/0005');
    expect(mixed.text).toContain('HSN 8516 · CGST 9% + SGST 9%');
    for (const s of ['HSN 0401 · Exempt', 'HSN 2501 · Nil rated', 'HSN 2710 · Non-GST']) expect(mixed.text).toContain(s);
    // 500.00 + 120.00 + 50.00 + 100.00 taxable; CGST = SGST = 45.00; 860.00
    inOrder(mixed.text, ['Taxable value ₹770.00', 'CGST ₹45.00', 'SGST ₹45.00', 'Invoice value ₹860.00']);
    const only = await bill(28, 'thermal-58');
    expect(only.text).toContain('BILL OF SUPPLY');
    expect(only.text).not.toContain('TAX INVOICE');
    expect(only.text).toContain('Invoice No: GT/26-27/0006');
    expect(only.text).not.toContain(COMPOSITION_LINE);
    expect(only.text).toContain('(CGST Rule 49)');
    expect(only.text).toContain('HSN 0401 · Exempt');
    expect(only.text).not.toMatch(/CGST \d|SGST|IGST|GST%/);
    inOrder(only.text, ['Total value ₹170.00', 'Invoice value ₹170.00']);
  });

  it('a 60-line GST bill is one page on 58 mm', async () => {
    const { info, text } = await bill(26, 'thermal-58');
    expect(info.pages).toBe(1);
    expect(text).toContain('60. Item 60 of a long invoice');
  });

  it("without format= the bill follows the company's bill_format; format=a5 keeps the A5 bill and the A4 tax invoice", async () => {
    const byDefault = await bill(7, undefined, sources('thermal-58'));
    expect(byDefault.doc.fileName).toBe('bill-7-58mm.pdf');
    expect(byDefault.info.w).toBeCloseTo(164.41, 1);
    const a5 = await bill(7, 'a5', sources('thermal-58'));
    expect(a5.doc.fileName).toBe('bill-7.pdf');
    // 210 x 148 mm = 595.28 x 419.53 pt, which Chromium writes in whole points
    expect(Math.abs(a5.info.w - 595.28)).toBeLessThan(0.5);
    expect(Math.abs(a5.info.h - 419.53)).toBeLessThan(0.5);
    const gstA5 = await bill(20, undefined, sources('a5'));
    expect(Math.abs(gstA5.info.h - 841.89)).toBeLessThan(0.5); // A4 297 mm
    // identity's bill_format reaches the company view documents prints with
    const headers = new CompanyHeaders(async () => ({ ...F.companyDetails, bill_format: 'thermal-80' }), 'http://127.0.0.1:9');
    expect((await headers.get(F.COMPANY_ID)).billFormat).toBe('thermal-80');
    const old = new CompanyHeaders(async () => F.companyDetails, 'http://127.0.0.1:9');
    expect((await old.get(F.COMPANY_ID)).billFormat).toBe('a5');
  });

  it('refuses an unknown format and a bill too long for one roll page with 400 before rendering', async () => {
    await expect(DOCUMENT_KINDS.bill.prepare({ companyId: F.COMPANY_ID, id: '7', query: { format: 'thermal-76' } }, sources())).rejects.toThrow('format must be one of a5, thermal-80, thermal-58.');
    const huge: DocumentSources = { ...sources(), ask: async () => F.longSale(301) as never };
    await expect(DOCUMENT_KINDS.bill.prepare({ companyId: F.COMPANY_ID, id: '9', query: { format: 'thermal-80' } }, huge)).rejects.toThrow(
      'Bill 9 has 301 lines; at most 300 fit one thermal receipt. Print it with format=a5.',
    );
  });

  it('warm render time of an 80 mm bill beside the A5 bill of the same sale (p50 of 50 each, in turns, logged)', async () => {
    const thermal = await DOCUMENT_KINDS.bill.prepare({ companyId: F.COMPANY_ID, id: '7', query: { format: 'thermal-80' } }, sources());
    const a5 = await DOCUMENT_KINDS.bill.prepare({ companyId: F.COMPANY_ID, id: '7', query: { format: 'a5' } }, sources());
    await renderPdf(pool, thermal);
    await renderPdf(pool, a5);
    const times = { thermal: [] as number[], a5: [] as number[] };
    for (let i = 0; i < 100; i++) {
      const which = i % 2 ? 'a5' : 'thermal';
      const t = performance.now();
      const pdf = await renderPdf(pool, which === 'a5' ? a5 : thermal);
      times[which].push(performance.now() - t);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    }
    const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * xs.length)]!;
    console.log(
      `warm bill, 50 each in turns: thermal 80 mm p50 ${p(times.thermal, 0.5).toFixed(0)} ms, p95 ${p(times.thermal, 0.95).toFixed(0)} ms; ` +
        `A5 p50 ${p(times.a5, 0.5).toFixed(0)} ms, p95 ${p(times.a5, 0.95).toFixed(0)} ms; load ${loadavg()[0]!.toFixed(1)}`,
    );
    expect(times.thermal).toHaveLength(50);
  });
});

describe('GET /documents/bill/{id}?format= over HTTP', () => {
  let stack: DocStack;
  const staff = `Bearer ${tokenFor(F.COMPANY_ID)}`;
  beforeAll(async () => {
    stack = await startDocuments();
  });
  afterAll(() => stack?.stop());
  const get = (path: string) => request(stack.url).get(path).set('Authorization', staff).buffer(true).parse(binary);

  it('serves the 58 mm receipt inline and as a download', async () => {
    const res = await get('/documents/bill/7?format=thermal-58');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('inline; filename="bill-7-58mm.pdf"');
    expect(pdfInfo(res.body)).toMatchObject({ pages: 1 });
    expect(pdfInfo(res.body).w).toBeCloseTo(164.41, 1);
    const dl = await get('/documents/bill/7?format=thermal-80&download=1');
    expect(dl.headers['content-disposition']).toBe('attachment; filename="bill-7-80mm.pdf"');
  });

  it('answers 400 naming format for an unknown one, and 404 for another company', async () => {
    const bad = await request(stack.url).get('/documents/bill/7?format=a4').set('Authorization', staff);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('format must be one of a5, thermal-80, thermal-58.');
    const other = await request(stack.url).get('/documents/bill/7?format=thermal-80').set('Authorization', `Bearer ${tokenFor(F.OTHER_COMPANY_ID)}`);
    expect(other.status).toBe(404);
  });
});
