import request from 'supertest';
import { DOCUMENTS_CONFIG, loadDocumentsConfig } from '../src/config';
import { Printer } from '../src/core.module';
import * as F from './fixtures';
import { pageSizesMm, pdfText } from './pdf';
import { binary, pdfImageCount, startDocuments, tokenFor, type DocStack } from './helpers';
import { state } from './responders';

// End to end over HTTP: real nats-server, fixture responders on a real NATS transport, real Chromium.
let stack: DocStack;
const staff = `Bearer ${tokenFor(F.COMPANY_ID)}`;
const manager = `Bearer ${tokenFor(F.COMPANY_ID, 'manager')}`;
/** Purchase labels and the stock book are the manager's (limits.test.ts checks staff get 403). */
const authFor = (path: string) => (/stockbook|purchase-labels|debit-note/.test(path) ? manager : staff);
const other = `Bearer ${tokenFor(F.OTHER_COMPANY_ID)}`;

beforeAll(async () => {
  stack = await startDocuments();
});
afterAll(() => stack?.stop());

const get = (path: string, auth = staff) => request(stack.url).get(path).set('Authorization', auth).buffer(true).parse(binary);
const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('GET /documents/{kind}/{id}', () => {
  it('needs a token', async () => {
    const res = await request(stack.url).get('/documents/bill/7');
    expect(res.status).toBe(401);
  });

  it('serves the bill as an inline PDF of 210 x 148 mm with the company logo', async () => {
    const res = await get('/documents/bill/7');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('inline; filename="bill-7.pdf"');
    expect(await pageSizesMm(res.body)).toEqual([{ w: 210, h: 148 }]);
    const text = squash(pdfText(res.body));
    expect(text).toContain('Sharma Kirana Stores');
    expect(text).toContain('Total ₹2,561.92');
    expect(text).toContain('Due ₹1,562');
    expect(pdfImageCount(res.body)).toBeGreaterThanOrEqual(1);
  });

  it('serves a GST-mode sale (SaleGst over NATS) as the A4 tax invoice', async () => {
    const res = await get('/documents/bill/20');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('inline; filename="bill-20.pdf"');
    expect(await pageSizesMm(res.body)).toEqual([{ w: 210, h: 297 }]);
    const text = squash(pdfText(res.body));
    for (const s of ['Tax Invoice', 'Invoice No: GT/26-27/0001', 'GSTIN: 24AAGCS5678K1ZT', 'Place of supply: Gujarat (24)', 'Invoice value ₹1,983.00']) expect(text).toContain(s);
  });

  it('offers the bill as a download for the Save button', async () => {
    const res = await get('/documents/bill/7?download=1');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="bill-7.pdf"');
  });

  it("answers 404 for another company's bill and for an unknown one", async () => {
    for (const [path, auth] of [
      ['/documents/bill/7', other],
      ['/documents/bill/70', staff],
    ] as const) {
      const res = await request(stack.url).get(path).set('Authorization', auth);
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/^Bill 70? was not found\.$/);
    }
  });

  it('answers 400 with a clear message for bad input', async () => {
    const cases: [string, RegExp][] = [
      ['/documents/bill/x1', /bill number must be a positive whole number/],
      ['/documents/stockbook', /^Please Select A Category\.$/],
      ['/documents/labels/12?mode=roll', /mode must be/],
      ['/documents/labels/12?count=5000', /count must be a whole number from 1 to 1200/],
      ['/documents/labels/12?count=1&count=2', /count must be given once/],
      ['/documents/purchase-labels/9?packets=abc', /packets must look like/],
      ['/documents/statement', /needs an id/],
    ];
    for (const [path, msg] of cases) {
      const res = await request(stack.url).get(path).set('Authorization', authFor(path));
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.message).toMatch(msg);
    }
    const unknown = await request(stack.url).get('/documents/invoice/7').set('Authorization', staff);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/no document kind 'invoice'/);
  });

  it('serves every kind', async () => {
    const expected: [string, string, number, { w: number; h: number }][] = [
      ['/documents/estimate/3', 'estimate-3.pdf', 1, { w: 210, h: 148 }],
      ['/documents/challan/7', 'challan-7.pdf', 1, { w: 210, h: 148 }],
      ['/documents/receipt/41', 'receipt-41.pdf', 1, { w: 210, h: 148 }],
      ['/documents/statement/5', 'statement-5.pdf', 2, { w: 210, h: 297 }],
      ['/documents/stockbook?category=4&order=13,12&cost=1', 'stockbook-4.pdf', 1, { w: 210, h: 297 }],
      ['/documents/labels/12?mode=stockbook&count=24&qty=2', 'labels-12.pdf', 2, { w: 210, h: 297 }],
      ['/documents/labels/12?mode=packet&count=30', 'labels-12.pdf', 1, { w: 210, h: 297 }],
      ['/documents/purchase-labels/9?packets=12:41', 'purchase-labels-9.pdf', 2, { w: 210, h: 297 }],
      ['/documents/credit-note/31', 'credit-note-31.pdf', 1, { w: 210, h: 148 }],
      ['/documents/credit-note/32', 'credit-note-32.pdf', 1, { w: 210, h: 297 }],
      ['/documents/debit-note/51', 'debit-note-51.pdf', 1, { w: 210, h: 297 }],
    ];
    for (const [path, file, pages, size] of expected) {
      const res = await get(path, authFor(path));
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers['content-disposition']).toBe(`inline; filename="${file}"`);
      const sizes = await pageSizesMm(res.body);
      expect([path, sizes.length]).toEqual([path, pages]);
      expect(sizes.every((s) => s.w === size.w && s.h === size.h)).toBe(true);
    }
  });

  it('prints statement pages for the number of rows the ledger sends', async () => {
    state.statementRows = 60;
    try {
      const res = await get('/documents/statement/5');
      expect(await pageSizesMm(res.body)).toHaveLength(3);
      expect(squash(pdfText(res.body))).toContain('Page 3 of 3');
    } finally {
      state.statementRows = 40;
    }
  });

  it('reports the browser pool in /health', async () => {
    const res = await request(stack.url).get('/health');
    expect(res.status).toBe(200);
    expect(res.body.info.nats.status).toBe('up');
    expect(res.body.info.browser.renders).toBeGreaterThan(0);
  });
});

describe('a busy printer', () => {
  let busy: DocStack;
  beforeAll(async () => {
    busy = await startDocuments((b) => b.overrideProvider(DOCUMENTS_CONFIG).useValue({ ...loadDocumentsConfig(), concurrency: 1, queueLimit: 1 }));
  });
  afterAll(() => busy?.stop());

  it('answers 503 with Retry-After when every slot and the queue are taken', async () => {
    const pool = busy.svc.app.get(Printer).pool;
    const size = { width: '210mm', height: '148mm' };
    // One render holds the slot and one waits: the queue of 1 is full.
    const held = [pool.render('<p>one</p>', size), pool.render('<p>two</p>', size)];
    const res = await request(busy.url).get('/documents/bill/7').set('Authorization', staff);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.message).toBe('The document printer is busy, please try again shortly.');
    await Promise.all(held);
    const after = await request(busy.url).get('/documents/bill/7').set('Authorization', staff);
    expect(after.status).toBe(200);
  });
});
