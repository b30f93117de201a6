import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import { freePort } from '@bahi/devstack';
import { Printer } from '../src/core.module';
import * as F from './fixtures';
import { pageSizesMm, pdfText } from './pdf';
import { binary, SECRET, startDocuments, tokenFor, type DocStack } from './helpers';
import { asked, state } from './responders';

// Every count that sizes a render is bounded before anything is allocated; positions and
// tenancy are those of the data's owner. Real nats-server, fixture responders, real Chromium.
let stack: DocStack;
const staff = `Bearer ${tokenFor(F.COMPANY_ID, 'staff')}`;
const manager = `Bearer ${tokenFor(F.COMPANY_ID, 'manager')}`;
const otherManager = `Bearer ${tokenFor(F.OTHER_COMPANY_ID, 'manager')}`;
const otherStaff = `Bearer ${tokenFor(F.OTHER_COMPANY_ID, 'staff')}`;

beforeAll(async () => {
  stack = await startDocuments();
});
afterAll(() => stack?.stop());

const get = (url: string, p: string, auth = manager) => request(url).get(p).set('Authorization', auth).buffer(true).parse(binary);
const json = (res: { body: Buffer }) => JSON.parse(res.body.toString('utf8'));

/** documents as its own process (dist/main.js) with a small heap, on the test's NATS and responders. */
async function spawnDocuments(heapMb: number): Promise<{ url: string; child: ChildProcess; exited: Promise<number | null>; output: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, 'dist/main.js'], {
    cwd: path.resolve(__dirname, '..'),
    env: { ...process.env, DOCUMENTS_PORT: String(port), NATS_URL: stack.nats.url, MONGODB_URI: stack.mongo.uri, BAHI_JWT_SECRET: SECRET, IDENTITY_URL: stack.logo.url, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((r) => child.once('exit', (code, signal) => r(code ?? (signal ? -1 : null))));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`documents exited: ${out}`);
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) return { url, child, exited, output: () => out };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`documents did not start: ${out}`);
}

describe('counts are bounded before anything is allocated', () => {
  it('answers packets=7:99999999999 with a 400 at once, and the process (96 MB heap) keeps serving', async () => {
    const proc = await spawnDocuments(96);
    try {
      const t0 = Date.now();
      const res = await request(proc.url).get('/documents/purchase-labels/12?packets=7:99999999999').set('Authorization', manager);
      expect([res.status, res.body.message]).toEqual([400, 'Product 7 can get at most 1200 labels (packets=7:99999999999 asks for 99999999999).']);
      expect(Date.now() - t0).toBeLessThan(3000);
      const health = await request(proc.url).get('/health');
      expect(health.status).toBe(200);
      const bill = await get(proc.url, '/documents/bill/7');
      expect(bill.status).toBe(200);
      expect(proc.child.exitCode).toBeNull();
    } finally {
      proc.child.kill('SIGKILL');
      await proc.exited;
    }
  });

  it('answers 400 for a purchase whose default packets (bought quantity) exceed one PDF, before any label is made', async () => {
    const t0 = Date.now();
    const res = await request(stack.url).get('/documents/purchase-labels/13').set('Authorization', manager);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Purchase 13 would print 99999999999 labels; at most 1200 labels fit one PDF. Choose fewer with packets=<product id>:<labels>.');
    expect(Date.now() - t0).toBeLessThan(3000);
    // The same purchase prints once the packets are chosen.
    const ok = await get(stack.url, '/documents/purchase-labels/13?packets=7:3');
    expect(ok.status).toBe(200);
    expect(await pageSizesMm(ok.body)).toHaveLength(1);
  });

  it('names the limit of every count in a 400 sentence', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}:1`).join(',');
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');
    const cases: [string, string][] = [
      ['/documents/labels/12?count=1201', 'count must be a whole number from 1 to 1200.'],
      ['/documents/labels/12?count=99999999999999999999999', 'count must be a whole number from 1 to 1200.'],
      ['/documents/purchase-labels/9?packets=12:1201', 'Product 12 can get at most 1200 labels (packets=12:1201 asks for 1201).'],
      ['/documents/purchase-labels/9?packets=12:700,13:600', 'Purchase 9 would print 1300 labels; at most 1200 labels fit one PDF. Choose fewer with packets=<product id>:<labels>.'],
      [`/documents/purchase-labels/9?packets=${many(201)}`, 'packets can name at most 200 products.'],
      ['/documents/purchase-labels/9?packets=7:1', 'packets names product 7, which is not in purchase 9.'],
      ['/documents/purchase-labels/9?packets=1234567890123:1', "packets must look like '12:5,13:2' (product id : number of labels)."],
      [`/documents/stockbook?category=4&order=${ids(2001)}`, 'order can list at most 2000 products.'],
    ];
    for (const [p, msg] of cases) {
      const res = await request(stack.url).get(p).set('Authorization', manager);
      expect([p.slice(0, 80), res.status, res.body.message]).toEqual([p.slice(0, 80), 400, msg]);
    }
  });

  it('refuses a statement or a bill longer than the page limit without rendering it', async () => {
    const renders = stack.svc.app.get(Printer).pool.stats.renders;
    state.statementRows = 2701;
    state.saleLines = 1001;
    try {
      const st = await request(stack.url).get('/documents/statement/5').set('Authorization', staff);
      expect([st.status, st.body.message]).toEqual([400, 'The statement of customer 5 has 2701 entries; at most 2700 (100 pages) can be printed at once.']);
      // The ledger is told the limit, so a long account is counted there, not sent.
      expect(state.statementMaxRows).toBe(2700);
      const bill = await request(stack.url).get('/documents/bill/9').set('Authorization', staff);
      expect([bill.status, bill.body.message]).toEqual([400, 'Bill 9 has 1001 lines; at most 1000 can be printed.']);
    } finally {
      state.statementRows = 40;
      state.saleLines = 1200;
    }
    expect(stack.svc.app.get(Printer).pool.stats.renders).toBe(renders);
  });

  it('refuses bad options before asking the owner', async () => {
    const before = asked['inventory.purchase.labels'] ?? 0;
    const res = await request(stack.url).get('/documents/purchase-labels/9?packets=12:99999999999').set('Authorization', manager);
    expect(res.status).toBe(400);
    expect(asked['inventory.purchase.labels'] ?? 0).toBe(before);
  });
});

describe('positions of the data owners', () => {
  it('gives staff 403 on purchase labels and the stock book (manager-only at their owner), and the manager gets them', async () => {
    for (const p of ['/documents/purchase-labels/9', '/documents/stockbook?category=4', '/documents/stockbook?category=4&cost=1', '/documents/debit-note/51']) {
      const res = await request(stack.url).get(p).set('Authorization', staff);
      expect([p, res.status, res.body.message]).toEqual([p, 403, 'Only a manager can do this.']);
    }
    const book = await get(stack.url, '/documents/stockbook?category=4&cost=1');
    expect(book.status).toBe(200);
    expect(pdfText(book.body)).toContain('540.25');
  });

  it('refuses staff before asking the owner', async () => {
    const before = asked['inventory.stockbook.rows'] ?? 0;
    expect((await request(stack.url).get('/documents/stockbook?category=4&cost=1').set('Authorization', staff)).status).toBe(403);
    expect(asked['inventory.stockbook.rows'] ?? 0).toBe(before);
  });

  it('serves bills, estimates, challans, receipts, statements and product labels to staff', async () => {
    for (const p of ['/documents/bill/7', '/documents/estimate/3', '/documents/challan/7', '/documents/receipt/41', '/documents/statement/5', '/documents/labels/12?count=1', '/documents/credit-note/31']) {
      const res = await get(stack.url, p, staff);
      expect([p, res.status]).toEqual([p, 200]);
    }
  });
});

describe('tenancy', () => {
  it("answers 404 to company B for company A's ids on every kind, and prints none of A's data", async () => {
    const kinds = ['/documents/bill/7', '/documents/estimate/3', '/documents/challan/7', '/documents/receipt/41', '/documents/statement/5', '/documents/stockbook?category=4', '/documents/labels/12', '/documents/purchase-labels/9', '/documents/credit-note/32', '/documents/debit-note/51'];
    for (const who of [otherManager, otherStaff]) {
      for (const p of kinds) {
        const res = await get(stack.url, p, who);
        const expected = who === otherStaff && /stockbook|purchase-labels|debit-note/.test(p) ? 403 : 404;
        expect([p, res.status]).toEqual([p, expected]);
        const body = res.body.toString('utf8');
        for (const secret of [F.companyDetails.name, F.customer.name, 'Basmati', 'Grains']) expect(body).not.toContain(secret);
        expect(typeof json(res).message).toBe('string');
      }
    }
  });
});
