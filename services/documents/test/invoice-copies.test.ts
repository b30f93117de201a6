import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SaleDocument } from '@bahi/contracts';
import { BrowserPool } from '../src/render/browser-pool';
import { DOCUMENT_KINDS, type DocumentSources } from '../src/documents/kinds';
import { renderPdf } from '../src/documents/renderer';
import * as F from './fixtures';
import * as G from './gst-fixtures';
import { pageSizesMm, pdfText } from './pdf';

// Rule 48 copies of the A4 tax invoice (copy=original|duplicate|triplicate, copies=all) and a
// walk-in buyer's particulars typed at the counter (Rule 46(e)), through the real Chromium, read
// back with pdftotext.

/** Bill 40: the worked example to a walk-in whose particulars were typed: Asha Rao in Madhya Pradesh (23), supplied at the counter in Maharashtra. */
const typed: SaleDocument = {
  ...G.intraWalkIn,
  sale_id: 40,
  gst: { ...G.intraWalkIn.gst!, invoice_no: 'GT/26-27/0040', recipient: { name: 'Asha Rao', address: ['7 Lake View, Bhopal 462001'], gstin: null, state_code: '23', state_name: 'Madhya Pradesh', mobile: '', email: '' } },
};
const SALES: Record<number, SaleDocument> = { ...G.GST_SALES, 7: F.sale, 40: typed };
const sources: DocumentSources = {
  async ask(_subject, payload) {
    return (SALES[(payload as { saleId: number }).saleId] ?? null) as never;
  },
  company: async () => F.company,
  today: () => '2026-05-31',
};

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 2, queueLimit: 10, renderTimeoutMs: 30_000, restartAfter: 1000 });
});
afterAll(() => pool.close());

const squash = (s: string) => s.replace(/\s+/g, ' ');
const prepare = (saleId: number, query: Record<string, string>) => DOCUMENT_KINDS.bill.prepare({ companyId: F.COMPANY_ID, id: String(saleId), query }, sources);
async function bill(saleId: number, query: Record<string, string>) {
  const doc = await prepare(saleId, query);
  const pdf = await renderPdf(pool, doc);
  if (process.env.DOCS_DUMP) writeFileSync(join(process.env.DOCS_DUMP, doc.fileName), pdf);
  return { doc, pdf, text: squash(pdfText(pdf)), pages: pdfText(pdf).split('\f').filter((p) => p.trim()).map(squash) };
}

const MARKS = ['Original for recipient', 'Duplicate for transporter', 'Triplicate for supplier'];

describe('Rule 48 copies of the tax invoice', () => {
  it.each([
    ['original', 0],
    ['duplicate', 1],
    ['triplicate', 2],
  ] as const)('copy=%s prints that marking only, on one A4 page', async (copy, i) => {
    const { doc, pdf, text } = await bill(20, { copy });
    expect(doc.fileName).toBe(`bill-20-${copy}.pdf`);
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 297 }]);
    expect(text).toContain(MARKS[i]);
    for (const other of MARKS.filter((_, j) => j !== i)) expect(text).not.toContain(other);
    expect(text).toContain('Invoice No: GT/26-27/0001');
  });

  it('copies=all prints the original, duplicate and triplicate in one PDF, a page each, each the whole invoice', async () => {
    const { doc, pdf, pages } = await bill(20, { copies: 'all' });
    expect(doc.fileName).toBe('bill-20-copies.pdf');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 297 }, { w: 210, h: 297 }, { w: 210, h: 297 }]);
    pages.forEach((page, i) => {
      expect(page).toContain(MARKS[i]);
      for (const other of MARKS.filter((_, j) => j !== i)) expect(page).not.toContain(other);
      // The same frozen invoice on each: 1,500.00 x 18 % = 270.00 and 190.00 x 12 % = 22.80 IGST, value 1,983.00.
      expect(page).toContain('1 Steam Iron 1200W 8516 3.0 pcs 590.00* 0.00 1,500.00 18 18% 270.00');
      expect(page).toContain('Invoice value ₹1,983.00');
      expect(page).toContain('Patel Electricals');
    });
  });

  it('without copy or copies the original is printed as before', async () => {
    const { doc, text } = await bill(21, {});
    expect(doc.fileName).toBe('bill-21.pdf');
    expect(text).toContain('Original for recipient');
  });

  it.each<[number, Record<string, string>, string]>([
    [20, { copy: 'quadruplicate' }, 'copy must be one of original, duplicate, triplicate.'],
    [20, { copies: '3' }, 'copies must be all (the original, duplicate and triplicate in one PDF).'],
    [20, { copy: 'original', copies: 'all' }, 'Give copy or copies=all, not both.'],
    [20, { copy: 'duplicate', format: 'thermal-80' }, 'Copies (Rule 48) are printed on the A4 tax invoice; leave format out or give format=a5.'],
    [7, { copy: 'duplicate' }, 'Bill 7 is not a GST tax invoice; copies (Rule 48) are printed for tax invoices only.'],
  ])('bill %i with %j is a 400', async (saleId, query, message) => {
    await expect(prepare(saleId, query)).rejects.toThrow(message);
  });
});

describe("a walk-in's typed particulars (Rule 46(e))", () => {
  it('the A4 tax invoice prints the name, address and state; place of supply stays the counter', async () => {
    const { text } = await bill(40, {});
    for (const s of ['Asha Rao', '7 Lake View, Bhopal 462001', 'State: Madhya Pradesh (23)', 'Place of supply: Maharashtra (27)']) expect(text).toContain(s);
    // Intra-state: CGST 9 % + SGST 9 % per line (1,500.00 -> 135.00 each).
    expect(text).toContain('1 Steam Iron 1200W 8516 3.0 pcs 590.00* 0.00 1,500.00 18 9% 135.00 9% 135.00');
  });

  it('the thermal receipt prints them too, and each line its heads: CGST 9% + SGST 9%', async () => {
    const doc = await prepare(40, { format: 'thermal-80' });
    const text = squash(pdfText(await renderPdf(pool, doc)));
    for (const s of ['Bill to: Asha Rao', '7 Lake View, Bhopal 462001', 'State: Madhya Pradesh (23)', 'HSN 8516 · CGST 9% + SGST 9%', 'HSN 3924 · CGST 6% + SGST 6%']) expect(text).toContain(s);
  });
});
