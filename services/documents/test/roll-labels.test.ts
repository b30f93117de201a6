import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import * as F from './fixtures';
import { decodeCode128, pdfText, rasterPage } from './pdf';
import { binary, startDocuments, tokenFor, type DocStack } from './helpers';

// Labels on thermal rolls (issue 32): one label a page, the page the label's size; real Chromium,
// measured with poppler's pdfinfo and the barcodes read back from a pdftoppm render.
let stack: DocStack;
const staff = `Bearer ${tokenFor(F.COMPANY_ID)}`;
const manager = `Bearer ${tokenFor(F.COMPANY_ID, 'manager')}`;

beforeAll(async () => {
  stack = await startDocuments();
});
afterAll(() => stack?.stop());

const get = (path: string, auth = staff) => request(stack.url).get(path).set('Authorization', auth).buffer(true).parse(binary);

/** pdfinfo's page count and every page's size in points. */
function pdfinfo(pdf: Buffer): { pages: number; sizes: [number, number][] } {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-roll-'));
  try {
    const file = join(dir, 'l.pdf');
    writeFileSync(file, pdf);
    const out = execFileSync('pdfinfo', ['-f', '1', '-l', '999', file], { encoding: 'utf8' });
    const pages = Number(/^Pages:\s+(\d+)/m.exec(out)![1]);
    const sizes = [...out.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m) => [Number(m[1]), Number(m[2])] as [number, number]);
    return { pages, sizes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mmToPt = (mm: number) => (mm * 72) / 25.4;

describe('roll labels: size=50x25 and 38x25', () => {
  it.each([
    ['50x25', 50, 25],
    ['38x25', 38, 25],
  ])('product labels on a %s roll: one label a page of that size, its barcode decodes to the product code', async (size, w, h) => {
    const res = await get(`/documents/labels/12?size=${size}&count=3&qty=2`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`inline; filename="labels-12-${size}.pdf"`);
    const info = pdfinfo(res.body);
    expect(info.pages).toBe(3);
    expect(info.sizes).toHaveLength(3);
    // 50 mm = 141.73 pt, 38 mm = 107.72 pt, 25 mm = 70.87 pt; Chromium writes whole-ish points (within 0.5 pt).
    for (const [pw, ph] of info.sizes) {
      expect(Math.abs(pw - mmToPt(w))).toBeLessThan(0.5);
      expect(Math.abs(ph - mmToPt(h))).toBeLessThan(0.5);
    }
    for (const page of [1, 3]) expect(decodeCode128(rasterPage(res.body, page, 300))).toBe('12');
    const text = pdfText(res.body).replace(/\s+/g, ' ');
    expect(text).toContain('Basmati Rice 5kg');
    expect(text).toContain('MRP ₹650');
    expect(text).toContain('Qty 2 bag');
  });

  it('without count a roll prints one label; without size the A4 sheet is unchanged', async () => {
    expect(pdfinfo((await get('/documents/labels/12?size=50x25')).body).pages).toBe(1);
    const a4 = pdfinfo((await get('/documents/labels/12')).body);
    expect(a4.pages).toBe(1);
    expect(Math.abs(a4.sizes[0]![0] - mmToPt(210))).toBeLessThan(0.5);
  });

  it('purchase labels on a roll: one page per packet, each with its product barcode (a roll has no room for the QR)', async () => {
    const res = await get('/documents/purchase-labels/9?size=38x25&packets=12:2,13:1', manager);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('inline; filename="purchase-labels-9-38x25.pdf"');
    const info = pdfinfo(res.body);
    expect(info.pages).toBe(3);
    for (const [pw, ph] of info.sizes) {
      expect(Math.abs(pw - mmToPt(38))).toBeLessThan(0.5);
      expect(Math.abs(ph - mmToPt(25))).toBeLessThan(0.5);
    }
    expect([1, 2, 3].map((p) => decodeCode128(rasterPage(res.body, p, 300)))).toEqual(['12', '12', '13']);
    // Purchase labels stay the manager's.
    expect((await get('/documents/purchase-labels/9?size=38x25', staff)).status).toBe(403);
  });

  it('a size that is not a roll is refused with the sentence', async () => {
    const res = await request(stack.url).get('/documents/labels/12?size=100x50').set('Authorization', staff);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('size must be 50x25 or 38x25 (the label\'s width x height in mm), or left out for A4 sheets.');
    const p = await request(stack.url).get('/documents/purchase-labels/9?size=A4').set('Authorization', manager);
    expect(p.status).toBe(400);
  });
});
