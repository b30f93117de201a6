import { BrowserPool } from '../src/render/browser-pool';
import { DOCUMENT_KINDS, type DocumentSources, type Query } from '../src/documents/kinds';
import { renderPdf, toHtml } from '../src/documents/renderer';
import { statementRowsPerPage } from '../src/templates/account-docs';
import type { DocumentKind } from '@bahi/contracts';
import * as F from './fixtures';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeCode128, decodeQr, pageSizesMm, pdfText, rasterPage } from './pdf';

// Templates through the real Chromium with fixture data standing in for the owning services.
const sources = (over: Partial<Record<string, unknown>> = {}): DocumentSources => ({
  async ask(subject, payload) {
    const p = payload as { saleId?: number; clientId?: number; productId?: number };
    const data: Record<string, unknown> = {
      'sales.sale.document': p.saleId === 8 ? F.walkInSale : p.saleId === 7 ? F.sale : p.saleId === 10 ? F.packSale : null,
      'sales.estimate.document': (payload as { estimateId?: number }).estimateId === 4 ? F.packEstimate : F.estimate,
      'ledger.receipt.document': F.receipt,
      'ledger.customer.statement': F.statement(40),
      'inventory.stockbook.rows': F.stockBook,
      'inventory.label.details': F.labelDetails(p.productId ?? 12),
      'inventory.purchase.labels': F.purchaseLabels,
      ...over,
    };
    return data[subject] as never;
  },
  company: async () => F.company,
  today: () => '2025-03-31',
});

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 2, queueLimit: 10, renderTimeoutMs: 30_000, restartAfter: 1000 });
});
afterAll(() => pool.close());

async function render(kind: DocumentKind, id: string | undefined, query: Query = {}, src = sources()) {
  const doc = await DOCUMENT_KINDS[kind].prepare({ companyId: F.COMPANY_ID, id, query }, src);
  const pdf = await renderPdf(pool, doc);
  // DOCS_DUMP=<dir> keeps the PDFs to look at (pdftoppm -png).
  if (process.env.DOCS_DUMP) writeFileSync(join(process.env.DOCS_DUMP, doc.fileName), pdf);
  return { doc, pdf, html: toHtml(doc) };
}

const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('bill', () => {
  it('is 210 x 148 mm with header, customer, HSN lines, every figure and the rounded due', async () => {
    const { pdf, doc } = await render('bill', '7');
    expect(doc.fileName).toBe('bill-7.pdf');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 148 }]);
    const text = squash(pdfText(pdf));
    for (const s of ['Sharma Kirana Stores', '12 MG Road', 'TAX INVOICE', 'Bill No: 7', '14-03-2025', 'Ramesh Gupta', '9123456780', 'Basmati Rice 5kg', '1006', '0713']) {
      expect(text).toContain(s);
    }
    expect(text).toContain('Subtotal ₹1,731.50');
    expect(text).toContain('Tax ₹311.67');
    expect(text).toContain('Shipping ₹40.00');
    expect(text).toContain('Discount - ₹21.50');
    expect(text).toContain('Previous due ₹500.25');
    expect(text).toContain('Total ₹2,561.92');
    expect(text).toContain('Paid (Cash) ₹1,000.00');
    expect(text).toContain('Due ₹1,562');
    expect(text).toContain('Due date: 14-04-2025');
  });

  it('carries a UPI QR of the rounded due that decodes from the printed page', async () => {
    const { pdf, html } = await render('bill', '7');
    const uri = 'upi://pay?pa=sharmakirana%40upi&pn=Sharma%20Kirana%20Stores&am=1562.00&cu=INR&tn=Bill%207';
    expect(html).toContain(`data-payload="${uri.replace(/&/g, '&amp;')}"`);
    expect(decodeQr(rasterPage(pdf, 1, 200, { x: 0, y: 60, w: 110, h: 88 }))).toBe(uri);
  });

  it('hides the customer block and the previous due for the walk-in customer', async () => {
    const { pdf, html } = await render('bill', '8');
    const text = squash(pdfText(pdf));
    expect(text).not.toContain('Bill to');
    expect(text).not.toContain('Previous due');
    expect(text).toContain('Total ₹2,061.67');
    expect(text).toContain('Due ₹0');
    expect(html).not.toContain('upi://'); // nothing due, no payment QR
  });

  it('leaves the UPI QR off when the company has no UPI id', async () => {
    const src = sources();
    src.company = async () => ({ ...F.company, upiId: null });
    const { html } = await render('bill', '7', {}, src);
    expect(html).not.toContain('upi://');
  });

  it('answers 404 for an unknown sale and 400 for a bad number', async () => {
    await expect(render('bill', '99')).rejects.toMatchObject({ status: 404, message: 'Bill 99 was not found.' });
    await expect(render('bill', 'abc')).rejects.toMatchObject({ status: 400 });
  });
});

/** The printed line of a product: quantity, unit, rate, discount, price and amount as numbers. */
function printedLine(text: string, name: string) {
  const m = new RegExp(`${name}\\s+\\(\\d+\\)\\s+\\d+\\s+([\\d.]+) (\\w+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+₹([\\d,.]+)`).exec(text);
  if (!m) throw new Error(`no printed line for ${name} in:\n${text}`);
  const n = (s: string) => Number(s.replace(/,/g, ''));
  return { qty: m[1]!, unit: m[2]!, rate: n(m[3]!), disc: n(m[4]!), price: n(m[5]!), amount: n(m[6]!) };
}

describe('printed quantity (quantity x per_peice_quantity)', () => {
  it('bill and estimate: Qty x Rate - discount = Amount on a multi-piece line, quantity in unit to 1 decimal', async () => {
    for (const [kind, id] of [['bill', '10'], ['estimate', '4']] as const) {
      const text = squash(pdfText((await render(kind, id)).pdf));
      const box = printedLine(text, 'Parle-G Biscuit Box');
      // 2 boxes of 6 pcs: the amount 108.00 was computed from 12 pcs
      expect(box).toEqual({ qty: '12.0', unit: 'pcs', rate: 10, disc: 1, price: 9, amount: 108 });
      expect(Number(box.qty) * (box.rate - box.disc)).toBe(box.amount);
      expect(text).toMatch(/12\.0 pcs .* 2 ?× ?6 /); // 2 boxes x 6 pcs, under the quantity
      // a loose quantity keeps its decimals (0.25 kg x 80.00 = 20.00)
      const cashew = printedLine(text, 'Loose Cashew');
      expect(cashew).toEqual({ qty: '0.25', unit: 'kg', rate: 80, disc: 0, price: 80, amount: 20 });
      expect(Number(cashew.qty) * (cashew.rate - cashew.disc)).toBe(cashew.amount);
    }
  });

  it('challan: the quantity delivered in pieces', async () => {
    const text = squash(pdfText((await render('challan', '10')).pdf));
    expect(text).toMatch(/Parle-G Biscuit Box \(40\) 1905 12\.0 pcs/);
    expect(text).toMatch(/Loose Cashew \(41\) 0801 0\.25 kg/);
  });
});

describe('estimate, challan and receipt', () => {
  it('prints the estimate on the bill size', async () => {
    const { pdf } = await render('estimate', '3');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 148 }]);
    const text = squash(pdfText(pdf));
    expect(text).toContain('ESTIMATE');
    expect(text).toContain('Estimate No: 3');
    expect(text).toContain('Total ₹1,731.50');
  });

  it('prints the challan with the transport details and quantities, no prices', async () => {
    const { pdf } = await render('challan', '7');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 148 }]);
    const text = squash(pdfText(pdf));
    for (const s of ['DELIVERY CHALLAN', 'Speedy Logistics', 'WB02AB1234', 'ROAD', '15-03-2025', '2.0 bag', '3.0 kg']) expect(text).toContain(s);
    expect(text).not.toContain('₹1,250.00');
  });

  it('prints the recorded e-way bill on the challan (valid until in IST)', async () => {
    const ewb = { ...F.sale, ewaybill: { ewb_no: '331000123456', valid_until: '2030-01-03T18:29:00.000Z' } };
    const text = squash(pdfText((await render('challan', '7', {}, sources({ 'sales.sale.document': ewb }))).pdf));
    expect(text).toContain('E-way bill No. 331000123456, valid until 03/01/2030, 23:59');
    expect(squash(pdfText((await render('challan', '7')).pdf))).not.toContain('E-way bill');
  });

  it('prints the money receipt with amount, dues and a UPI QR of the remaining due', async () => {
    const { pdf } = await render('receipt', '41');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 148 }]);
    const text = squash(pdfText(pdf));
    for (const s of ['MONEY RECEIPT', 'Receipt No: 41', '₹750.00', 'Previous due ₹1,561.92', 'Due after payment ₹811.92', 'TXN-99', '20-04-2025']) {
      expect(text).toContain(s);
    }
    expect(decodeQr(rasterPage(pdf, 1, 200, { x: 140, y: 20, w: 70, h: 80 }))).toBe('upi://pay?pa=sharmakirana%40upi&pn=Sharma%20Kirana%20Stores&am=811.92&cu=INR&tn=Due%20of%20customer%205');
  });
});

describe('customer statement', () => {
  it('is A4 with rows per page from the 8 mm row height', async () => {
    const per = statementRowsPerPage();
    expect(per).toBe(27);
    for (const n of [0, per, per + 1, 3 * per + 2]) {
      const { pdf } = await render('statement', '5', {}, sources({ 'ledger.customer.statement': F.statement(n) }));
      const sizes = await pageSizesMm(pdf);
      expect(sizes.length).toBe(Math.max(1, Math.ceil(n / per)));
      expect(sizes.every((s) => s.w === 210 && s.h === 297)).toBe(true);
    }
  });

  it('shows a due below 3 as 0, and a real due as it is', async () => {
    let text = squash(pdfText((await render('statement', '5', {}, sources({ 'ledger.customer.statement': F.statement(3, '2.50') }))).pdf));
    expect(text).toContain('Total due: ₹0.00');
    expect(text).toContain('Ramesh Gupta');
    expect(text).toContain('Page 1 of 1');
    text = squash(pdfText((await render('statement', '5', {}, sources({ 'ledger.customer.statement': F.statement(3, '1234.5') }))).pdf));
    expect(text).toContain('Total due: ₹1,234.50');
  });
});

describe('stock book', () => {
  it('prints rows in the arranged order, cost only when asked', async () => {
    const { pdf, doc } = await render('stockbook', undefined, { category: '4', order: '14,12' });
    expect(doc.fileName).toBe('stockbook-4.pdf');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 297 }]);
    const text = pdfText(pdf);
    const at = (s: string) => text.indexOf(s);
    expect(at('Poha 1kg')).toBeGreaterThan(-1);
    expect(at('Poha 1kg')).toBeLessThan(at('Basmati Rice 5kg'));
    expect(at('Basmati Rice 5kg')).toBeLessThan(at('Sona Masoori 10kg'));
    expect(text).not.toContain('540.25');
    expect(text).toContain('Weight');
    const withCost = pdfText((await render('stockbook', undefined, { category: '4', cost: '1' })).pdf);
    expect(withCost).toContain('540.25');
    expect(withCost).toContain('Cost');
  });

  it('needs a category', async () => {
    await expect(render('stockbook', undefined, {})).rejects.toMatchObject({ status: 400, message: 'Please Select A Category.' });
  });
});

describe('labels', () => {
  it('stock book mode: 12 per page (2 x 6) with a CODE128 barcode of the product code', async () => {
    const { pdf, html } = await render('labels', '12', { count: '13', qty: '5' });
    const sizes = await pageSizesMm(pdf);
    expect(sizes).toEqual([{ w: 210, h: 297 }, { w: 210, h: 297 }]);
    expect(html.match(/class="lbl"/g)).toHaveLength(13);
    expect(html.match(/data-payload="12"/g)).toHaveLength(13);
    const text = pdfText(pdf);
    expect(text).toContain('Wt: 5kg');
    expect(text).toContain('MRP ₹650.00');
    // first label cell: 6 mm margin, 99 x ~47.5 mm
    expect(decodeCode128(rasterPage(pdf, 1, 300, { x: 6, y: 6, w: 99, h: 47 }))).toBe('12');
    // 12 labels fit one page exactly
    expect(await pageSizesMm((await render('labels', '12', {})).pdf)).toHaveLength(1);
  });

  it('encodes a product barcode when it has one', async () => {
    const src = sources({ 'inventory.label.details': F.labelDetails(12, 'RICE-5KG') });
    const { pdf } = await render('labels', '12', { count: '1' }, src);
    expect(decodeCode128(rasterPage(pdf, 1, 300, { x: 6, y: 6, w: 99, h: 47 }))).toBe('RICE-5KG');
  });

  it('packet mode: 3 per row, 10 rows', async () => {
    const { pdf, html } = await render('labels', '12', { mode: 'packet', count: '31' });
    expect(await pageSizesMm(pdf)).toHaveLength(2);
    expect(html.match(/class="lbl packet"/g)).toHaveLength(31);
    expect(await pageSizesMm((await render('labels', '12', { mode: 'packet', count: '30' })).pdf)).toHaveLength(1);
  });

  it('rejects a bad mode or count', async () => {
    await expect(render('labels', '12', { mode: 'roll' })).rejects.toMatchObject({ status: 400 });
    await expect(render('labels', '12', { count: '0' })).rejects.toMatchObject({ status: 400 });
  });

  it('purchase labels: 4 per row, 40 per page, QR of the product code, packets overridable', async () => {
    const { pdf, html } = await render('purchase-labels', '9');
    expect(html.match(/class="lbl purchase"/g)).toHaveLength(45);
    expect(await pageSizesMm(pdf)).toHaveLength(2);
    expect(decodeQr(rasterPage(pdf, 1, 300, { x: 5, y: 5, w: 50, h: 28 }))).toBe('12');
    const few = await render('purchase-labels', '9', { packets: '12:40,13:0' });
    expect(few.html.match(/class="lbl purchase"/g)).toHaveLength(40);
    expect(await pageSizesMm(few.pdf)).toHaveLength(1);
  });
});
