import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload, RpcException, Transport } from '@nestjs/microservices';
import request from 'supertest';
import { DocumentSubjects, type ReportRowsReply, type ReportRowsRequest } from '@bahi/contracts';
import { BrowserPool } from '../src/render/browser-pool';
import { DOCUMENT_KINDS, type DocumentSources } from '../src/documents/kinds';
import { renderPdf } from '../src/documents/renderer';
import * as F from './fixtures';
import { binary, startDocuments, tokenFor, type DocStack } from './helpers';
import { pageSizesMm, pdfText } from './pdf';

// A report's PDF through the real Chromium; the reports service's answer is a fixture shaped as its JSON.
const D = (i: number) => `2026-04-${String(1 + (i % 28)).padStart(2, '0')}`;
const salesRows = Array.from({ length: 120 }, (_, k) => {
  const i = k + 1;
  const returned = i % 10 === 0 ? '100.00' : '0.00';
  return {
    saleId: i, date: D(i), invoice_no: `INV-${i}`, clientId: 3, customer: 'Asha Verma', amount: '1234.50', returned,
    cancelled: false, net: i % 10 === 0 ? '1134.50' : '1234.50', paid: '1000.00',
  };
});
// 120 bills x 1234.50 = 1,48,140.00; 12 returns x 100.00 = 1,200.00; net 1,48,140.00 - 1,200.00 = 1,46,940.00;
// paid 120 x 1000.00 = 1,20,000.00.
const SALES = {
  from: '2026-04-01', to: '2026-04-30', clientId: null, page: 0, pageSize: 121, rows: salesRows,
  totals: { count: 120, amount: '148140.00', returned: '1200.00', cancelled: '0.00', net: '146940.00', paid: '120000.00' },
};
// Two categories: 2 x 450.25 = 900.50 value; cost 600.00; profit 900.50 - 600.00 = 300.50.
const PROFIT = {
  from: '2026-04-01', to: '2026-04-30', by: 'category',
  rows: [
    { category: 'Grocery', qty: 10, value: '450.25', cost: '300.00', valueWithoutCost: '0.00', profit: '150.25', marginPct: 33.37 },
    { category: 'Personal', qty: 4, value: '450.25', cost: '300.00', valueWithoutCost: '0.00', profit: '150.25', marginPct: 33.37 },
  ],
  totals: { value: '900.50', cost: '600.00', valueWithoutCost: '0.00', profit: '300.50' },
};

const asked: ReportRowsRequest[] = [];
const sources: DocumentSources = {
  async ask(subject, payload) {
    if (subject !== 'reports.report.rows') throw new Error(`unexpected ${subject}`);
    const p = payload as ReportRowsRequest;
    asked.push(p);
    const report = p.name === 'profit' ? PROFIT : SALES;
    const reply: ReportRowsReply = report.rows.length > p.maxRows ? { name: p.name, report: { ...report, rows: [] }, more: true } : { name: p.name, report, more: false };
    return reply as never;
  },
  company: async () => F.company,
  today: () => '2026-04-30',
};

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 1, queueLimit: 10, renderTimeoutMs: 60_000, restartAfter: 1000 });
});
afterAll(() => pool.close());

const prepare = (name: string | undefined, query: Record<string, string> = {}) => DOCUMENT_KINDS.report.prepare({ companyId: F.COMPANY_ID, id: name, query }, sources);
const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('report PDF', () => {
  it('prints a long register on A4 landscape pages: company, title, period, the header on every page, totals equal to the report\'s, page numbers', async () => {
    asked.length = 0;
    const doc = await prepare('sales-register', { from: '2026-04-01', to: '2026-04-30', download: '1', lang: 'en' });
    // The filters go to reports as given; the document's own options stay in documents.
    expect(asked).toEqual([{ companyId: F.COMPANY_ID, name: 'sales-register', query: { from: '2026-04-01', to: '2026-04-30' }, maxRows: 2000 }]);
    expect(doc.fileName).toBe('report-sales-register-2026-04-30.pdf');
    const pdf = await renderPdf(pool, doc);
    const sizes = await pageSizesMm(pdf);
    expect(sizes.length).toBeGreaterThan(2);
    for (const s of sizes) expect(s).toEqual({ w: 297, h: 210 });
    const pages = pdfText(pdf).split('\f').filter((p) => p.trim());
    expect(pages).toHaveLength(sizes.length);
    pages.forEach((p, i) => {
      // The table's header row repeats, and every page is numbered.
      expect(squash(p)).toMatch(/Date Invoice no Customer Amount Returned Cancelled Net Paid/);
      expect(squash(p)).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    const text = squash(pages.join(' '));
    for (const s of ['Sharma Kirana Stores', 'SALES REGISTER', 'Period: 01-04-2026 – 30-04-2026', 'Printed on: 30-04-2026', 'INV-1 ', 'INV-120 ']) expect(text).toContain(s);
    expect(text).toContain('10 11-04-2026 INV-10 Asha Verma 1,234.50 100.00 1,134.50 1,000.00');
    // The totals printed are the report's: 1,48,140.00 | 1,200.00 | 1,46,940.00 | 1,20,000.00 (arithmetic above).
    expect(squash(pages[pages.length - 1]!)).toContain('Total (120 rows) 1,48,140.00 1,200.00 1,46,940.00 1,20,000.00');
  }, 60_000);

  it('prints profit by category with its group, and Hindi labels when asked', async () => {
    const en = squash(pdfText(await renderPdf(pool, await prepare('profit', { by: 'category' }))));
    expect(en).toContain('By: category');
    expect(en).toContain('Grocery 10 450.25 300.00 0.00 150.25 33.37%');
    // 450.25 + 450.25 = 900.50; 300.00 + 300.00 = 600.00; 900.50 - 600.00 = 300.50.
    expect(en).toContain('Total (2 rows) 900.50 600.00 0.00 300.50');
    const hi = squash(pdfText(await renderPdf(pool, await prepare('profit', { by: 'category', lang: 'hi' }))));
    expect(hi).toContain('मुनाफ़ा');
    expect(hi).toContain('900.50');
  }, 60_000);

  it("prints the shared header and page footer in Hindi for a company whose documents are in Hindi, and in English when ?lang=en asks", async () => {
    const hindiCompany: DocumentSources = { ...sources, company: async () => ({ ...F.company, docLanguage: 'hi' }) };
    const hiDoc = await DOCUMENT_KINDS.report.prepare({ companyId: F.COMPANY_ID, id: 'profit', query: { from: '2026-04-01', to: '2026-04-30', by: 'category' } }, hindiCompany);
    const hi = squash(pdfText(await renderPdf(pool, hiDoc)));
    // The company block (its phone label), the title, the printed-on date, the period and the page footer.
    for (const s of ['Sharma Kirana Stores', 'मो.: 9876543210', 'मुनाफ़ा', 'छपाई की तारीख़: 30-04-2026', 'अवधि', '01-04-2026', 'पेज 1 में से 1']) expect(hi).toContain(s);
    for (const s of ['Mob:', 'Printed on', 'Period', 'Page 1']) expect(hi).not.toContain(s);
    // 450.25 + 450.25 = 900.50; 900.50 - 600.00 = 300.50: the figures stay en-IN in Hindi.
    expect(hi).toContain('900.50 600.00 0.00 300.50');
    const en = squash(pdfText(await renderPdf(pool, await DOCUMENT_KINDS.report.prepare({ companyId: F.COMPANY_ID, id: 'profit', query: { by: 'category', lang: 'en' } }, hindiCompany))));
    for (const s of ['Mob: 9876543210', 'Printed on: 30-04-2026', 'Page 1 of 1']) expect(en).toContain(s);
    expect(en).not.toContain('छपाई');
  }, 60_000);

  it('refuses an unknown report, a report past the printable rows and a bad lang with a sentence; managers only', async () => {
    await expect(prepare('cashflow')).rejects.toThrow("There is no report 'cashflow'. Reports: daybook, sales-register, purchase-register, stock-summary, profit, ageing.");
    await expect(prepare(undefined)).rejects.toThrow('There is no report');
    const tooMany: DocumentSources = { ...sources, ask: async () => ({ name: 'stock-summary', report: { rows: [], totals: {} }, more: true }) as never };
    await expect(DOCUMENT_KINDS.report.prepare({ companyId: 1, id: 'stock-summary', query: {} }, tooMany)).rejects.toThrow(
      'The report has more than 2000 rows; at most 2000 can be printed at once. Narrow the filters or export it as CSV.',
    );
    await expect(prepare('profit', { lang: 'fr' })).rejects.toThrow(/lang must be one of en, hi/);
    expect(DOCUMENT_KINDS.report.positions).toEqual(['manager']);
  });
});

/** Stands in for the reports service on the real NATS transport: company 1's profit, a 400 for a bad `by`, as reports answers. */
const overNats: ReportRowsRequest[] = [];
@Controller()
class ReportsResponder {
  @MessagePattern(DocumentSubjects.reportRows)
  rows(@Payload() p: ReportRowsRequest): ReportRowsReply {
    overNats.push(p);
    if (p.query.by && !['product', 'category', 'month'].includes(p.query.by)) throw new RpcException({ status: 400, message: 'by must be one of product, category, month.' });
    const report = p.companyId === F.COMPANY_ID ? PROFIT : { ...PROFIT, rows: [], totals: { value: '0.00', cost: '0.00', valueWithoutCost: '0.00', profit: '0.00' } };
    return { name: p.name, report, more: false };
  }
}
@Module({ controllers: [ReportsResponder] })
class ReportsResponderModule {}

describe('GET /documents/report/{name} over HTTP and NATS', () => {
  let stack: DocStack;
  let reports: INestMicroservice;
  beforeAll(async () => {
    stack = await startDocuments();
    reports = await NestFactory.createMicroservice(ReportsResponderModule, { transport: Transport.NATS, options: { servers: [stack.nats.url] }, logger: false });
    await reports.listen();
  }, 60_000);
  afterAll(async () => {
    await reports?.close();
    await stack?.stop();
  });
  const get = (path: string, companyId: number, position: 'manager' | 'staff') =>
    request(stack.url).get(path).set('Authorization', `Bearer ${tokenFor(companyId, position)}`).buffer(true).parse(binary);

  it("prints the token's company's report for a manager, asks reports with the filters, and refuses staff before asking", async () => {
    overNats.length = 0;
    const res = await get('/documents/report/profit?from=2026-04-01&to=2026-04-30&by=category&download=1', F.COMPANY_ID, 'manager');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="report-profit-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(overNats).toEqual([{ companyId: F.COMPANY_ID, name: 'profit', query: { from: '2026-04-01', to: '2026-04-30', by: 'category' }, maxRows: 2000 }]);
    // 450.25 + 450.25 = 900.50 value; 900.50 - 600.00 = 300.50 profit.
    expect(squash(pdfText(res.body))).toContain('Total (2 rows) 900.50 600.00 0.00 300.50');
    // Another company's manager gets that company's own (empty) report: the company is the token's.
    const other = await get('/documents/report/profit', F.OTHER_COMPANY_ID, 'manager');
    expect(other.status).toBe(200);
    expect(overNats[1]).toMatchObject({ companyId: F.OTHER_COMPANY_ID });
    expect(squash(pdfText(other.body))).not.toContain('Grocery');
    overNats.length = 0;
    const staff = await get('/documents/report/profit', F.COMPANY_ID, 'staff');
    expect(staff.status).toBe(403);
    expect(JSON.parse(staff.body.toString()).message).toBe('Only a manager can do this.');
    expect(overNats).toEqual([]);
  }, 60_000);

  it("passes reports' 400 for a bad filter on with its sentence", async () => {
    const res = await get('/documents/report/profit?by=colour', F.COMPANY_ID, 'manager');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString()).message).toBe('by must be one of product, category, month.');
    const unknown = await get('/documents/report/cashflow', F.COMPANY_ID, 'manager');
    expect(unknown.status).toBe(404);
  }, 30_000);
});
