import type { RegisterDocument, RegisterDocumentRequest } from '@bahi/contracts';
import { BrowserPool } from '../src/render/browser-pool';
import { DOCUMENT_KINDS, type DocumentSources } from '../src/documents/kinds';
import { renderPdf } from '../src/documents/renderer';
import * as F from './fixtures';
import { pageSizesMm, pdfText } from './pdf';

// The Z report through the real Chromium, with the session the ledger's register test computes by
// hand (services/ledger/test/register.test.ts): opening 2,000.00; cash +1,000 +500 +150 -120 -500
// +200 -200 = 1,030.00 (in 1,850.00, out 820.00); expected 3,030.00; counted 3,000.00: 30.00 short.
const at = (hhmm: string) => `2026-11-28T${hhmm}:00.000Z`;
const Z: RegisterDocument = {
  id: 7,
  open: false,
  user_name: 'Ravi Kumar',
  // 03:30 UTC = 09:00 in India; 12:45 UTC = 18:15.
  opened_at: at('03:30'),
  closed_at: at('12:45'),
  opening_cash: '2000',
  cash_in: '1850',
  cash_out: '820',
  expected_cash: '3030',
  counted_cash: '3000',
  difference: '-30',
  totals: { cash: '1030', upi: '180', card: '750', cheque: '250', bank: '0' },
  sales_count: 3,
  note: 'Rs 30 short, checked twice',
  movements: [
    { at: at('04:00'), kind: 'sale', ref: 901, mode: 'cash', amount: '1000' },
    { at: at('04:00'), kind: 'sale', ref: 901, mode: 'upi', amount: '180' },
    { at: at('05:00'), kind: 'sale', ref: 902, mode: 'cash', amount: '500' },
    { at: at('05:30'), kind: 'sale', ref: 903, mode: 'card', amount: '750' },
    { at: at('06:00'), kind: 'payment_received', ref: 1, mode: 'cash', amount: '150' },
    { at: at('06:00'), kind: 'payment_received', ref: 1, mode: 'cheque', amount: '250' },
    { at: at('07:00'), kind: 'credit_note', ref: 41, mode: 'cash', amount: '-120' },
    { at: at('08:00'), kind: 'cancellation', ref: 902, mode: 'cash', amount: '-500' },
    { at: at('09:00'), kind: 'sale', ref: 904, mode: 'cash', amount: '200' },
    { at: at('09:01'), kind: 'reversal', ref: 904, mode: 'cash', amount: '-200' },
  ],
};

const asked: RegisterDocumentRequest[] = [];
const sources = (docLanguage?: 'hi'): DocumentSources => ({
  async ask(subject, payload) {
    if (subject !== 'ledger.register.document') throw new Error(`unexpected ${subject}`);
    const p = payload as RegisterDocumentRequest;
    asked.push(p);
    // The ledger's rule: staff see only their own session (Ravi is user 101).
    return (p.sessionId === Z.id && (p.manager || p.userId === 101) ? Z : null) as never;
  },
  company: async () => ({ ...F.company, ...(docLanguage ? { docLanguage } : {}) }),
  today: () => '2026-11-28',
});

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 1, queueLimit: 10, renderTimeoutMs: 30_000, restartAfter: 1000 });
});
afterAll(() => pool.close());

const MANAGER = { id: 11, position: 'manager' as const };
const RAVI = { id: 101, position: 'staff' as const };
const prepare = (id: string | undefined, query: Record<string, string> = {}, user: { id: number; position: 'manager' | 'staff' } | undefined = MANAGER, lang?: 'hi') =>
  DOCUMENT_KINDS.register.prepare({ companyId: F.COMPANY_ID, id, query, user }, sources(lang));
const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('Z report', () => {
  it('A4: cashier, times in India, opening, cash in and out, expected, counted, short 30.00, takings by mode, bills sold, every movement', async () => {
    asked.length = 0;
    const doc = await prepare('7');
    expect(asked).toEqual([{ companyId: F.COMPANY_ID, sessionId: 7, userId: 11, manager: true }]);
    expect(doc.fileName).toBe('register-7.pdf');
    const pdf = await renderPdf(pool, doc);
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 297 }]);
    const text = squash(pdfText(pdf));
    for (const s of [
      'Z report',
      'Session 7',
      'Cashier: Ravi Kumar',
      'Opened: 28-11-2026 09:00',
      'Closed: 28-11-2026 18:15',
      'Opening cash ₹2,000.00',
      'Cash taken ₹1,850.00',
      'Cash paid out - ₹820.00',
      'Expected cash in the drawer ₹3,030.00',
      'Cash counted ₹3,000.00',
      'Difference Short ₹30.00',
      'Bills sold 3',
      'Cash 1,030.00',
      'UPI 180.00',
      'Card 750.00',
      'Cheque 250.00',
      'Bank transfer 0.00',
      'Note: Rs 30 short, checked twice',
      '09:30 Sale 901 Cash 1,000.00',
      '12:30 Refund (credit note) 41 Cash -120.00',
      '13:30 Bill cancelled 902 Cash -500.00',
      '14:31 Undone 904 Cash -200.00',
    ])
      expect(text).toContain(s);
  });

  it('thermal-80: the same figures on an 80 mm roll, one page', async () => {
    const doc = await prepare('7', { format: 'thermal-80' });
    expect(doc.fileName).toBe('register-7-80mm.pdf');
    const pdf = await renderPdf(pool, doc);
    const sizes = await pageSizesMm(pdf);
    expect(sizes).toHaveLength(1);
    expect(sizes[0]!.w).toBe(80);
    const text = squash(pdfText(pdf));
    for (const s of ['Z report', 'Ravi Kumar', 'Expected cash in the drawer ₹3,030.00', 'Cash counted ₹3,000.00', 'Short ₹30.00', 'Cash ₹1,030.00', 'UPI ₹180.00', 'Bills sold 3']) expect(text).toContain(s);
  });

  it('Hindi when the company prints in Hindi', async () => {
    const text = squash(pdfText(await renderPdf(pool, await prepare('7', {}, MANAGER, 'hi'))));
    for (const s of ['Z रिपोर्ट', 'शियर: Ravi Kumar' /* pdftotext splits the conjunct: कै शियर */, 'दराज़ में अपेक्षित नकद ₹3,030.00', 'गिना गया नकद ₹3,000.00', 'कम ₹30.00', 'नकद 1,030.00', 'बेचे गए बिल 3']) expect(text).toContain(s);
  });

  it("staff print their own session; another cashier's is 404; bad input is a 400 sentence before the ledger is asked", async () => {
    asked.length = 0;
    expect((await prepare('7', {}, RAVI)).fileName).toBe('register-7.pdf');
    expect(asked).toEqual([{ companyId: F.COMPANY_ID, sessionId: 7, userId: 101, manager: false }]);
    await expect(prepare('7', {}, { id: 102, position: 'staff' })).rejects.toThrow('Register session 7 was not found.');
    asked.length = 0;
    await expect(prepare('x')).rejects.toThrow('The register session number must be a positive whole number.');
    await expect(prepare('7', { format: 'thermal-58' })).rejects.toThrow('format must be a4 or thermal-80.');
    expect(asked).toEqual([]);
  });
});
