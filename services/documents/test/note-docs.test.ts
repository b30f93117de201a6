import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { DocumentSubjects as S } from '@bahi/contracts';
import { BrowserPool } from '../src/render/browser-pool';
import { DOCUMENT_KINDS, type DocumentSources } from '../src/documents/kinds';
import { renderPdf } from '../src/documents/renderer';
import * as F from './fixtures';
import * as N from './note-fixtures';
import { SUPPLIER_GSTIN } from './gst-fixtures';
import { pageSizesMm, pdfFonts, pdfRawText, pdfText } from './pdf';

// Credit and debit notes and the CANCELLED bill through the real Chromium, read back with pdftotext.
const gstCompany = { ...F.company, gstin: SUPPLIER_GSTIN, stateCode: '27' };
const sources: DocumentSources = {
  async ask(subject, payload) {
    const p = payload as { creditNoteId?: number; debitNoteId?: number; saleId?: number };
    if (subject === S.creditNoteDocument) return (N.CREDIT_NOTES[p.creditNoteId!] ?? null) as never;
    if (subject === S.debitNoteDocument) return (N.DEBIT_NOTES[p.debitNoteId!] ?? null) as never;
    if (subject === S.saleDocument) return ({ 17: N.cancelledSale, 27: N.cancelledInvoice, 7: F.sale } as Record<number, unknown>)[p.saleId!] as never;
    return null as never;
  },
  company: async () => gstCompany,
  today: () => '2026-05-31',
};

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 2, queueLimit: 10, renderTimeoutMs: 30_000, restartAfter: 1000 });
});
afterAll(() => pool.close());

const SHOTS = join(__dirname, '..', '..', '..', 'e2e', 'test-results', 'screenshots');
const squash = (s: string) => s.replace(/\s+/g, ' ');

async function render(kind: 'credit-note' | 'debit-note' | 'bill', id: number, name: string) {
  const doc = await DOCUMENT_KINDS[kind].prepare({ companyId: F.COMPANY_ID, id: String(id), query: {} }, sources);
  const pdf = await renderPdf(pool, doc);
  // The page as a PNG, to look at (pdftoppm), beside the e2e screenshots.
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(join(SHOTS, `${name}.pdf`), pdf);
  execFileSync('pdftoppm', ['-r', '70', '-f', '1', '-l', '1', '-singlefile', '-png', join(SHOTS, `${name}.pdf`), join(SHOTS, name)]);
  return { doc, pdf, text: squash(pdfText(pdf)) };
}

/** Rows printed beside other blocks: each whole, in this order (pdftotext interleaves columns). */
function inOrder(text: string, rows: string[]) {
  let from = 0;
  for (const r of rows) {
    const at = text.indexOf(r, from);
    expect({ row: r, found: at >= 0 }).toEqual({ row: r, found: true });
    from = at + r.length;
  }
}

describe('credit note', () => {
  it('simple mode: A5 like the bill, the bill reference, packs x pieces, every figure, refund and reason', async () => {
    const { doc, pdf, text } = await render('credit-note', 31, 'credit-note-simple');
    expect(doc.fileName).toBe('credit-note-31.pdf');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 148 }]);
    for (const s of ['CREDIT NOTE', 'No: CN/26-27/0007', 'Date: 20-05-2026', 'Against bill No: 7', 'Bill date: 02-05-2026', 'Ramesh Gupta', 'Mob: 9123456780', 'Reason: Damaged packets', 'For Sharma Kirana Stores']) {
      expect(text).toContain(s);
    }
    // 1 bag x (650 - 25) = 625.00; 2 boxes x 6 pcs x 10.00 = 12 pcs = 120.00
    expect(text).toContain('1 Basmati Rice 5kg (12) 1006 1.0 bag 650.00 25.00 ₹625.00');
    expect(text).toMatch(/2 Biscuit Box \(40\) 1905 12\.0 pcs 10\.00 0\.00 ₹120\.00/);
    expect(text).toMatch(/2 ?× ?6/);
    // 745.00 - 10.00 + 0 + 0 = 735.00; 735.00 - 100.00 refunded = 635.00 off the due
    inOrder(text, ['Subtotal ₹745.00', 'Discount - ₹10.00', 'Tax ₹0.00', 'Shipping ₹0.00', 'Credit Note value ₹735.00', 'Refunded in cash ₹100.00', "Less the customer's due ₹635.00"]);
    expect(text).toContain('Rupees Seven Hundred Thirty Five Only');
  });

  it('GST mode: A4 with supplier and recipient GSTINs, the original invoice, IGST reversed per line, totals and words', async () => {
    const { pdf, text } = await render('credit-note', 32, 'credit-note-gst');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 297 }]);
    for (const s of [
      'Credit Note',
      'Sharma Kirana Stores',
      'GSTIN: 27AAPFU0939F1ZV',
      'State: Maharashtra (27)',
      'ISSUED TO (REGISTERED)',
      'Patel Electricals',
      'GSTIN: 24AAGCS5678K1ZT',
      'State: Gujarat (24)',
      'Credit Note No: CN/26-27/0008',
      'Date: 21-05-2026',
      'Original invoice No: GT/26-27/0001',
      'Invoice date: 14-05-2026',
      'Place of supply: Gujarat (24)',
      'Tax payable on reverse charge: No',
      'Reason: Wrong model delivered',
      'Authorised Signatory',
      'Credit Note CN/26-27/0008 · Page 1 of 1',
    ]) {
      expect(text).toContain(s);
    }
    expect(text).toMatch(/GST % IGST/);
    expect(text).not.toMatch(/CGST|SGST/);
    // 590.00 incl. 18 %: 590 / 1.18 = 500.00 taxable, IGST 90.00; 95.00 x 12 % = 11.40
    expect(text).toContain('1 Steam Iron 1200W 8516 1.0 pcs 590.00 0.00 500.00 18 90.00');
    expect(text).toContain('2 Plastic Storage Box 3924 1.0 pcs 100.00 5.00 95.00 12 11.40');
    expect(text).toContain('Total 595.00 101.40');
    // 595.00 + 101.40 = 696.40, no round off on a partial return
    inOrder(text, ['Taxable value 595.00', 'IGST 101.40', 'Round off 0.00', 'Credit Note value ₹696.40']);
    expect(text).toContain('Rupees Six Hundred Ninety Six and Forty Paise Only');
    // 696.40 - 200.00 = 496.40
    inOrder(text, ['Refunded in cash ₹200.00', "Less the customer's due ₹496.40"]);
  });

  it('answers 404 for an unknown note and 400 for a bad id', async () => {
    await expect(DOCUMENT_KINDS['credit-note'].prepare({ companyId: F.COMPANY_ID, id: '99', query: {} }, sources)).rejects.toThrow('Credit note 99 was not found.');
    await expect(DOCUMENT_KINDS['credit-note'].prepare({ companyId: F.COMPANY_ID, id: 'x', query: {} }, sources)).rejects.toThrow('The credit note id must be a positive whole number.');
  });
});

describe('debit note', () => {
  it('GST mode: A4, the purchase and the distributor bill, CGST and SGST, round off, money received back', async () => {
    const { doc, pdf, text } = await render('debit-note', 51, 'debit-note-gst');
    expect(doc.fileName).toBe('debit-note-51.pdf');
    expect(DOCUMENT_KINDS['debit-note'].positions).toEqual(['manager']);
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 297 }]);
    for (const s of [
      'Debit Note',
      'GSTIN: 27AAPFU0939F1ZV',
      'ISSUED TO (SUPPLIER, REGISTERED)',
      'Mehta Distributors',
      'GSTIN: 27AAACB1234C1ZF',
      'State: Maharashtra (27)',
      'Debit Note No: DN/26-27/0003',
      'Date: 22-05-2026',
      'Purchase No: 41',
      "Distributor's bill No: MD-2231",
      'Bill date: 03-05-2026',
      'Place of supply: Maharashtra (27)',
      'Reason: Expired stock',
      'Debit Note DN/26-27/0003 · Page 1 of 1',
    ]) {
      expect(text).toContain(s);
    }
    expect(text).toMatch(/GST % CGST SGST/);
    expect(text).not.toContain('IGST');
    // 10 kg x 120.30 = 1,203.00 at 5 %: 1203 x 2.5 % = 30.075 -> 30.08 each head
    expect(text).toContain('1 Toor Dal 1kg 0713 10.0 kg 120.30 0.00 1,203.00 5 30.08 30.08');
    // 4 packs x 12 pcs = 48 pcs x 25.00 = 1,200.00 at 12 %: 72.00 each head
    expect(text).toMatch(/2 Notebook A5 4820 48\.0 pcs 25\.00 0\.00 1,200\.00 12 72\.00 72\.00/);
    expect(text).toMatch(/4 ?× ?12/);
    expect(text).toContain('Total 2,403.00 102.08 102.08');
    // 2403.00 + 102.08 + 102.08 = 2607.16 -> 2607.00
    inOrder(text, ['Taxable value 2,403.00', 'CGST 102.08', 'SGST 102.08', 'Round off -0.16', 'Debit Note value ₹2,607.00']);
    expect(text).toContain('Rupees Two Thousand Six Hundred Seven Only');
    // 2607.00 - 1000.00 = 1607.00
    inOrder(text, ['Received back from the distributor ₹1,000.00', "Less the distributor's due ₹1,607.00"]);
  });

  it('simple mode: A5 with the purchase reference and no reason line when none was given', async () => {
    const { pdf, text } = await render('debit-note', 52, 'debit-note-simple');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 148 }]);
    for (const s of ['DEBIT NOTE', 'No: DN/26-27/0004', 'Date: 23-05-2026', 'Shree Krishna Traders', 'Purchase No: 42', "Distributor's bill No: SK/88", 'Bill date: 01-05-2026']) {
      expect(text).toContain(s);
    }
    expect(text).not.toContain('Reason:');
    // 5 kg x 42.00 = 210.00
    expect(text).toContain('1 Sugar (33) 1701 5.0 kg 42.00 0.00 ₹210.00');
    inOrder(text, ['Subtotal ₹210.00', 'Debit Note value ₹210.00', 'Received back from the distributor ₹0.00', "Less the distributor's due ₹210.00"]);
  });
});

describe('cancelled bill', () => {
  it('the A5 bill prints CANCELLED across the page with the date and the reason, and no new font weight', async () => {
    const { pdf, text } = await render('bill', 17, 'bill-cancelled');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 148 }]);
    // the diagonal mark comes out whole in content order
    expect(pdfRawText(pdf)).toMatch(/^CANCELLED$/m);
    expect(text).toContain('Cancelled on 20-05-2026: Customer changed the order');
    expect(text).toContain('Bill No: 17');
    // the same fonts as the bill that is not cancelled
    const plain = await renderPdf(pool, await DOCUMENT_KINDS.bill.prepare({ companyId: F.COMPANY_ID, id: '7', query: {} }, sources));
    expect(fontNames(pdf)).toEqual(fontNames(plain));
    expect(pdfRawText(plain)).not.toMatch(/CANCELLED|Cancelled on/);
  });

  it('the A4 tax invoice prints CANCELLED with the date and the reason and keeps its number', async () => {
    const { pdf, text } = await render('bill', 27, 'tax-invoice-cancelled');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 297 }]);
    expect(pdfRawText(pdf)).toMatch(/^CANCELLED$/m);
    expect(text).toContain('Cancelled on 16-05-2026: Billed to the wrong buyer');
    expect(text).toContain('Invoice No: GT/26-27/0001');
    expect(text).toContain('Invoice value ₹1,983.00');
  });
});

/** Font names without the subset tag (ABCDEF+NotoSans-Bold -> NotoSans-Bold). */
function fontNames(pdf: Buffer): string[] {
  return pdfFonts(pdf)
    .split('\n')
    .slice(2)
    .map((l) => l.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, ''))
    .filter(Boolean)
    .sort();
}
