import type { ReorderDocument, ReorderDocumentRequest } from '@bahi/contracts';
import { BrowserPool } from '../src/render/browser-pool';
import { DOCUMENT_KINDS, type DocumentSources } from '../src/documents/kinds';
import { renderPdf } from '../src/documents/renderer';
import * as F from './fixtures';
import { pageSizesMm, pdfText } from './pdf';

// The reorder list's PDF through the real Chromium, with a fixture group standing in for inventory.
const line = (product_id: number, product_name: string, per: string, unit: string, pieces: string, units: string) => ({
  product_id, product_name, brand_name: 'Acme', unit, per_peice_quantity: per, stock: '3', min_stock: '5', default_stock: '12', cp: '80.00',
  last_cp: '78.50', last_purchase_date: '2025-03-01', last_purchase_id: 4, suggested_quantity: pieces, suggested_units: units,
});
const GROUP: ReorderDocument = {
  distributorId: 5,
  distributorName: 'Gupta Wholesale',
  date: '2025-03-31',
  lines: [line(12, 'Basmati Rice 5kg', '1', 'bag', '9', '9'), line(13, 'Mustard Oil', '6', 'ltr', '2', '12')],
};

const asked: ReorderDocumentRequest[] = [];
const sources: DocumentSources = {
  async ask(subject, payload) {
    if (subject !== 'inventory.reorder.document') throw new Error(`unexpected ${subject}`);
    const p = payload as ReorderDocumentRequest;
    asked.push(p);
    if (p.distributorId !== GROUP.distributorId) return null as never;
    const lines = p.productIds ? GROUP.lines.filter((l) => p.productIds!.includes(l.product_id)) : GROUP.lines;
    return (lines.length ? { ...GROUP, lines } : null) as never;
  },
  company: async () => F.company,
  today: () => '2025-03-31',
};

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 1, queueLimit: 10, renderTimeoutMs: 30_000, restartAfter: 1000 });
});
afterAll(() => pool.close());

const prepare = (id: string | undefined, query: Record<string, string> = {}) => DOCUMENT_KINDS.reorder.prepare({ companyId: F.COMPANY_ID, id, query }, sources);
const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('reorder list PDF', () => {
  it("prints one distributor's order on A4: company, distributor, pieces and units per line, the count and total pieces", async () => {
    const doc = await prepare('5');
    expect(doc.fileName).toBe('reorder-5.pdf');
    const pdf = await renderPdf(pool, doc);
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 297 }]);
    const text = squash(pdfText(pdf));
    for (const s of ['Sharma Kirana Stores', 'PURCHASE ORDER', '31-03-2025', 'To: Gupta Wholesale', '2 products']) expect(text).toContain(s);
    expect(text).toContain('Basmati Rice 5kg Acme 1 bag 9 9 bag');
    expect(text).toContain('Mustard Oil Acme 6 ltr 2 12 ltr');
    // 9 + 2 = 11 pieces.
    expect(text).toContain('Total: 2 products 11');
    // What the shop paid is its own business: no cost on the distributor's copy.
    expect(text).not.toContain('78.50');
  });

  it('asks inventory for the selection only, and 0 names the never-bought group', async () => {
    asked.length = 0;
    const pdf = await renderPdf(pool, await prepare('5', { products: '13' }));
    expect(asked).toEqual([{ companyId: F.COMPANY_ID, distributorId: 5, productIds: [13] }]);
    const text = squash(pdfText(pdf));
    expect(text).toContain('Mustard Oil');
    expect(text).not.toContain('Basmati');
    await expect(prepare('0')).rejects.toThrow('Nothing to reorder among products never bought.');
  });

  it('answers bad input with a sentence before asking, and an empty group with 404', async () => {
    asked.length = 0;
    await expect(prepare('x')).rejects.toThrow('The distributor id must be a whole number (0 for products never bought).');
    await expect(prepare('-1')).rejects.toThrow('The distributor id must be a whole number');
    await expect(prepare('5', { products: '12,abc' })).rejects.toThrow('products must be product ids separated by commas, like 12,13.');
    await expect(prepare('5', { products: Array.from({ length: 501 }, (_, i) => i + 1).join(',') })).rejects.toThrow('products can list at most 500 products.');
    expect(asked).toEqual([]);
    await expect(prepare('9')).rejects.toThrow('Nothing to reorder from distributor 9.');
    await expect(prepare('5', { products: '99' })).rejects.toThrow('Nothing to reorder from distributor 5.');
  });

  it('is the manager\'s, like the list', () => {
    expect(DOCUMENT_KINDS.reorder.positions).toEqual(['manager']);
  });
});
