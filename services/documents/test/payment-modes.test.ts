import type { PaymentLine, SaleDocument } from '@bahi/contracts';
import { BrowserPool } from '../src/render/browser-pool';
import { DOCUMENT_KINDS, type DocumentSources } from '../src/documents/kinds';
import { renderPdf } from '../src/documents/renderer';
import type { DocumentKind } from '@bahi/contracts';
import * as F from './fixtures';
import * as G from './gst-fixtures';
import { pdfText } from './pdf';

// Issue 28: the bill (A5), the tax invoice (A4), the thermal receipt and the money receipt print
// each tender of the payment, read back with pdftotext. Both sales paid 1,000.00 = 400 cash + 600 UPI.
const split: PaymentLine[] = [{ mode: 'cash', amount: '400' }, { mode: 'upi', amount: '600', ref: 'UTR4471' }];
const SALES: Record<number, SaleDocument> = { 7: { ...F.sale, payments: split }, 20: { ...G.interB2b, payments: split }, 8: F.walkInSale };
const sources = (billFormat?: 'a5' | 'thermal-80', lang?: 'hi'): DocumentSources => ({
  async ask(subject, payload) {
    if (subject === 'ledger.receipt.document') return { ...F.receipt, type: 'Cash + Card', transaction_id: 'AUTH42', payments: [{ mode: 'cash', amount: '500' }, { mode: 'card', amount: '250', ref: 'AUTH42' }] } as never;
    return (SALES[(payload as { saleId: number }).saleId] ?? null) as never;
  },
  company: async () => ({ ...F.company, ...(billFormat ? { billFormat } : {}), ...(lang ? { language: lang } : {}) }),
  today: () => '2026-05-31',
});

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 2, queueLimit: 10, renderTimeoutMs: 30_000, restartAfter: 1000 });
});
afterAll(() => pool.close());

const squash = (s: string) => s.replace(/\s+/g, ' ');
async function text(kind: DocumentKind, id: string, src: DocumentSources) {
  const doc = await DOCUMENT_KINDS[kind].prepare({ companyId: F.COMPANY_ID, id, query: {} }, src);
  return squash(pdfText(await renderPdf(pool, doc)));
}

describe('payment modes on printed documents', () => {
  it('the A5 bill prints Paid ₹1,000.00 and under it Cash ₹400.00 and UPI · UTR4471 ₹600.00', async () => {
    const t = await text('bill', '7', sources('a5'));
    expect(t).toContain('Paid ₹1,000.00 Cash ₹400.00 UPI · UTR4471 ₹600.00');
    // The due is unchanged by the split: 2,561.92 - 1,000 = 1,561.92 -> ₹1,562.
    expect(t).toContain('₹1,562');
  });

  it('a bill sent without modes prints its paid amount as one cash row', async () => {
    // Walk-in sale 8 paid 2,061.67, sent without payments (a sale before issue 28).
    expect(await text('bill', '8', sources('a5'))).toContain('Paid (Cash) ₹2,061.67');
  });

  it('the A4 tax invoice prints the tenders under Paid', async () => {
    // The UPI block sits beside the account, so the text comes out interleaved: each part on its own.
    const t = await text('bill', '20', sources());
    for (const part of ['Paid ₹1,000.00', 'Cash ₹400.00', 'UPI · UTR4471 ₹600.00']) expect(t).toContain(part);
    // 1,983.00 + 500.50 previously due - 1,000.00 paid = 1,483.50 -> ₹1,484.
    expect(t).toContain('Balance due ₹1,484');
  });

  it('the thermal receipt prints the tenders', async () => {
    const t = await text('bill', '7', sources('thermal-80'));
    expect(t).toMatch(/Paid ₹1,000\.00 Cash ₹400\.00 UPI · UTR4471 ₹600\.00/);
  });

  it('the money receipt names each tender with its amount and reference', async () => {
    expect(await text('receipt', '41', sources())).toContain('Cash ₹500.00 + Card · AUTH42 ₹250.00');
  });
});
