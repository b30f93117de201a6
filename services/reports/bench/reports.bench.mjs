// The reports benchmark (`npm run bench -- --only=reports`, or `node services/reports/bench/reports.bench.mjs [out.json]`
// after building @bahi/reports, the services and the gateway). Three parts (BENCH_PARTS=scale,lag,paint):
//  scale: one company with 100,000 sales (300,000 lines) over the last 30 days and 20,000 products,
//    every report through the gateway with the demo manager's token. The read model is seeded from
//    events: the owners' event payloads turned into facts by the service's own `toFact`, folded in
//    memory by the service's own projection (src/fold.ts without a database: every document in
//    memory, written in large inserts, the running totals made by `runningTotalsFromDays`). Before
//    seeding, a sample of the same events is applied by the service's Projector one by one to one
//    database, in batches of 256 to another and by the memory fold to a third, and every document
//    must be equal, or the bench stops.
//  lag: 10 cashiers sell through the gateway (the counter bench's load); a separate client polls the
//    sales register every 100 ms; a sale's lag is from its MAKE_SALE answer to the first poll that shows
//    it (the sales register's last pages), cross-checked with the service's own record (event occurredAt -> recent_events.at). The
//    MAKE_SALE p95 is compared in alternating slices with the reports service running and stopped.
//  paint: the dashboard (/reports) in headless Chromium, a fresh context each run (cold cache):
//    first paint, first contentful paint and the four cards showing figures.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processSwitch, registerWatcher, serviceLag, todayIST } from './lag.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..', '..');
const require = createRequire(import.meta.url);
const { startStack } = require('@bahi/devstack');
const { MongoClient } = require('mongodb');
const mongoose = require('mongoose');
const { toFact } = require(path.join(HERE, '..', 'dist', 'events.js'));
const { Projector, writeFolded } = require(path.join(HERE, '..', 'dist', 'projector.js'));
const { Fold } = require(path.join(HERE, '..', 'dist', 'fold.js'));
const { C, ensureIndexes } = require(path.join(HERE, '..', 'dist', 'store.js'));
const { EventSubjects: E } = require('@bahi/contracts');

const OUT = process.argv[2] ?? path.join(ROOT, 'test-results', 'bench', 'reports.json');
const PARTS = (process.env.BENCH_PARTS ?? 'scale,lag,paint').split(',');
const SALES = Number(process.env.BENCH_SALES ?? 100_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const CUSTOMERS = 2_000;
const N = Number(process.env.BENCH_N ?? 20);
const CASHIERS = Number(process.env.BENCH_CASHIERS ?? 10);
const SLICE_S = Number(process.env.BENCH_SLICE_S ?? 10);
const PAINT_RUNS = Number(process.env.BENCH_PAINT_RUNS ?? 5);
const COMPANY = 1; // the demo company, whose manager signs in
const load = () => Number(os.loadavg()[0].toFixed(2));
const pct = (xs, p) => (xs.length ? xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] : null);
const r1 = (v) => (v === null ? null : Math.round(v * 10) / 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const addDays = (d, n) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const rupees = (p) => `${Math.trunc(p / 100)}.${String(Math.abs(p) % 100).padStart(2, '0')}`;

// ---------------------------------------------------------------------------------------------
// Events as the owners publish them (the shapes of @bahi/contracts events.ts).

let seed = 7;
const rnd = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor((seed / 2147483648) * n));

/** The owners' events of a company: products, their opening stock, sales (and their stock and dues), payments. */
function* events({ products, sales, customers, days, payments }) {
  const first = addDays(todayIST(), -(days - 1));
  const at = (date, s = 0) => `${date}T04:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000Z`;
  const cp = (p) => 1000 + ((p * 7919) % 50000); // paise
  const base = (eventId, date, s) => ({ eventId, companyId: COMPANY, occurredAt: at(date, s), date });
  for (let p = 1; p <= products; p++) {
    yield [E.inventory.productChanged, {
      ...base(`product:${COMPANY}:${p}:1`, first, 0), product_id: p, product_name: `Product ${p}`, category: { id: p % 40, name: `Category ${p % 40}` }, brand_name: `Brand ${p % 100}`,
      unit: 'pcs', cp: rupees(cp(p)), mrp: rupees(Math.round(cp(p) * 1.3)), min_stock: String(p % 20), default_stock: '0', stock: '0', hsn_code: '', active: 1,
    }];
  }
  for (let p = 1; p <= products; p += 100) {
    const moves = [];
    for (let q = p; q < Math.min(p + 100, products + 1); q++) moves.push({ product_id: q, line: q - p + 1, quantity: String(200 + (q % 50)), rate: '0', stock: '0' });
    yield [E.inventory.stockMoved, { ...base(`stock:${COMPANY}:purchase:${p}:applied`, first, 1), fact: 'applied', source: { kind: 'purchase', id: p }, movements: moves }];
  }
  let seq = 0;
  let paymentId = 0;
  for (let s = 1; s <= sales; s++) {
    const date = addDays(first, Math.floor(((s - 1) * days) / sales));
    const lines = [];
    let amount = 0;
    for (let l = 0; l < 3; l++) {
      const p = 1 + rnd(products);
      const units = 1 + rnd(5);
      const rate = Math.round(cp(p) * 1.2);
      amount += units * rate;
      lines.push({ sl_no: l + 1, product_id: p, product_name: `Product ${p}`, unit: 'pcs', quantity: String(units), per_peice_quantity: '1', units: String(units), rate: rupees(rate), disc: '0', amount: rupees(units * rate), cp: rupees(cp(p)), taxable_value: null, gst_rate: null, cgst: null, sgst: null, igst: null });
    }
    const walkIn = rnd(3) === 0;
    const clientId = walkIn ? 0 : 1 + rnd(customers);
    const paid = walkIn || rnd(2) ? amount : rnd(amount);
    yield [E.sales.saleCompleted, {
      ...base(`sale:${COMPANY}:${s}:completed`, date, s), saleId: s, clientId, customerName: walkIn ? 'Walk-in' : `Customer ${clientId}`, walkIn, lines,
      subtotal: rupees(amount), tax: 0, taxAmount: '0', shipping: '0', discount: '0', amount: rupees(amount), paid: rupees(paid), dueDate: addDays(date, 15), gst: null,
    }];
    yield [E.inventory.stockMoved, { ...base(`stock:${COMPANY}:sale:${s}:applied`, date, s), fact: 'applied', source: { kind: 'sale', id: s }, movements: lines.map((l, i) => ({ product_id: l.product_id, line: i + 1, quantity: `-${l.units}`, rate: '0', stock: '0' })) }];
    // Every sale's ledger entry, with the tender (two in three cash, the rest UPI) as the ledger sends it (issue 29's cash and bank books).
    const payments = paid > 0 ? [{ mode: rnd(3) ? 'cash' : 'upi', amount: rupees(paid) }] : [];
    yield [E.ledger.entryPosted, { ...base(`entry:${COMPANY}:sale:${s}`, date, s), entryKind: 'sale', party: { kind: 'customer', id: clientId }, source: { kind: 'sale', id: s }, seq: ++seq, amount: rupees(amount), paid: rupees(paid), delta: rupees(amount - paid), dueDate: amount > paid ? addDays(date, 15) : null, docNo: null, payments }];
    if (payments && s % Math.max(1, Math.floor(sales / payments)) === 0) {
      const party = 1 + rnd(customers);
      const amt = rupees(5000 + rnd(200000));
      yield [E.ledger.paymentReceived, { ...base(`entry:${COMPANY}:payment:${++paymentId}`, date, s), entryKind: 'payment_received', party: { kind: 'customer', id: party }, source: { kind: 'payment', id: paymentId }, seq: ++seq, amount: amt, paid: '0', delta: `-${amt}`, dueDate: null, docNo: null, paymentId, payType: 'cash', transactionId: '' }];
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The fold: the service's own (src/fold.ts, src/projector.ts) without a database, every document in
// memory, then written in large inserts and the running totals made from the day rows.

function makeFold() {
  const fold = new Fold(null);
  const projector = new Projector(null);
  const pending = [];
  return {
    apply: (f) => pending.push(f),
    fold: () => projector.foldInMemory(fold, pending.splice(0)),
    write: async (db) => {
      const docs = await writeFolded(db, fold);
      await db.collection('meta').insertMany([{ _id: 'built', at: new Date() }, { _id: 'profit_cum', at: new Date() }, { _id: 'daybook_totals', at: new Date() }]);
      return docs;
    },
  };
}

/** A document as compared: keys sorted; what differs by nature left out (when, write counters). */
function canon(name, d) {
  const x = { ...d };
  if (name === C.recent) for (const k of ['at', 'stream', 'seq']) delete x[k];
  if (name === C.profitCum) {
    delete x.copies;
    delete x.stamp;
    const p = {};
    for (const [pid, e] of Object.entries(x.p ?? {})) {
      const n = { q: e.q ?? 0, v: e.v ?? 0, c: e.c ?? 0, l: e.l ?? 0 };
      if (n.q || n.v || n.c || n.l) p[pid] = n;
    }
    x.p = p;
  }
  const sort = (v) => (Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' && !(v instanceof Date) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])])) : v);
  return JSON.stringify(sort(x));
}

/** The sample: the Projector (one transaction per event, as the consumers run it) against the fold. */
async function checkFold(mongoUri) {
  const opts = { products: 60, sales: 150, customers: 12, days: 3, payments: 20 };
  const facts = [];
  seed = 11;
  for (const [subject, event] of events(opts)) facts.push(toFact(subject, JSON.parse(JSON.stringify(event))));
  const conn = await mongoose.createConnection(mongoUri, { dbName: 'bench_projector' }).asPromise();
  await ensureIndexes(conn);
  const projector = new Projector(conn);
  const t0 = Date.now();
  for (const f of facts) await projector.apply(f);
  const perEvent = (Date.now() - t0) / facts.length;
  // The same events as the consumers apply a backlog: batches of 256, one transaction each.
  const bconn = await mongoose.createConnection(mongoUri, { dbName: 'bench_batches' }).asPromise();
  await ensureIndexes(bconn);
  const batcher = new Projector(bconn);
  const t1 = Date.now();
  for (let i = 0; i < facts.length; i += 256) await batcher.applyBatch(facts.slice(i, i + 256));
  const perEventBatched = (Date.now() - t1) / facts.length;
  const client = await MongoClient.connect(mongoUri);
  const folded = client.db('bench_fold');
  const fold = makeFold();
  for (const f of facts) fold.apply(f);
  await fold.fold();
  await fold.write(folded);
  const live = client.db('bench_projector');
  const batched = client.db('bench_batches');
  let compared = 0;
  const diffs = [];
  for (const [other, label] of [[folded, 'fold'], [batched, 'batches']]) {
    for (const name of Object.values(C).filter((n) => n !== C.checkpoints && n !== C.dead)) {
      const a = new Map((await live.collection(name).find({}).toArray()).map((d) => [d._id, canon(name, d)]));
      const b = new Map((await other.collection(name).find({}).toArray()).map((d) => [d._id, canon(name, d)]));
      for (const id of new Set([...a.keys(), ...b.keys()])) {
        compared++;
        if (a.get(id) !== b.get(id)) diffs.push(`${name} ${id}: one by one ${a.get(id) ?? 'none'} / ${label} ${b.get(id) ?? 'none'}`);
      }
    }
  }
  await live.dropDatabase();
  await batched.dropDatabase();
  await bconn.close();
  await folded.dropDatabase();
  await client.close();
  await conn.close();
  if (diffs.length) throw new Error(`the fold differs from the projector in ${diffs.length} documents:\n${diffs.slice(0, 10).join('\n')}`);
  return { events: facts.length, documents: compared, projectorMsPerEvent: Math.round(perEvent * 10) / 10, batchedMsPerEvent: Math.round(perEventBatched * 100) / 100 };
}

// ---------------------------------------------------------------------------------------------

async function login(base, email, password) {
  const res = await fetch(`${base}/api/loginReact`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const body = await res.json();
  if (!body.token) throw new Error(`login ${email}: ${res.status}`);
  return body.token;
}
async function get(base, p, token) {
  const res = await fetch(`${base}/api${p}`, { headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'gzip' } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${text.slice(0, 200)}`);
  return text;
}

async function scale(out) {
  const t0 = Date.now();
  const check = await checkFoldOn();
  console.log(`fold and batches checked against one-by-one: ${check.events} events, ${check.documents} documents equal (${check.projectorMsPerEvent} ms an event one by one, ${check.batchedMsPerEvent} ms in batches of 256)`);
  const stack = await startStack({ rootDir: ROOT, services: ['identity', 'reports'], env: { LOG_LEVEL: 'warn' }, logs: 'files' });
  try {
    const client = await MongoClient.connect(stack.mongoUri);
    const db = client.db('bahi_reports');
    // A new read model rebuilds itself at start: seed once that is done.
    for (let i = 0; !(await db.collection('meta').findOne({ _id: 'built' })); i++) {
      if (i > 600) throw new Error('reports did not finish its first build');
      await sleep(200);
    }
    await db.dropDatabase();
    const t1 = Date.now();
    seed = 7;
    const fold = makeFold();
    let n = 0;
    for (const [subject, event] of events({ products: PRODUCTS, sales: SALES, customers: CUSTOMERS, days: 30, payments: 5000 })) {
      fold.apply(toFact(subject, event));
      n++;
    }
    await fold.fold();
    const foldMs = Date.now() - t1;
    const docs = await fold.write(db);
    await ensureIndexes({ db });
    const seeded = { events: n, documents: docs, foldS: Math.round(foldMs / 100) / 10, writeS: Math.round((Date.now() - t1 - foldMs) / 100) / 10 };
    console.log(`seeded ${SALES} sales (${SALES * 3} lines), ${PRODUCTS} products from ${n} events: ${docs} documents (fold ${seeded.foldS} s, writes ${seeded.writeS} s)`);
    await client.close();
    const token = await login(stack.gatewayUrl, 'manager@demo.local', 'manager12345');
    const today = todayIST();
    const from = addDays(today, -29);
    const month = `${today.slice(0, 7)}-01`;
    const mid = [addDays(today, -20), addDays(today, -10)];
    const paths = [
      [`/reports/sales-register?from=${from}&to=${today}`, 'sales-register, 30 days (one page + totals)'],
      [`/reports/sales-register?from=${from}&to=${today}&clientId=17`, 'sales-register, one customer'],
      [`/reports/purchase-register?from=${from}&to=${today}`, 'purchase-register, 30 days'],
      [`/reports/daybook?date=${addDays(today, -15)}`, `daybook, one day (${Math.round(SALES / 30)} sales), page 0 + the day's totals`],
      [`/reports/daybook?date=${addDays(today, -15)}&page=20`, `daybook, one day, page 20`],
      [`/reports/daybook?date=${addDays(today, -15)}&format=csv`, `daybook, one day, CSV of every row`],
      [`/reports/profit?from=${from}&to=${today}&by=product`, 'profit by product, 30 days across two months'],
      [`/reports/profit?from=${month}&to=${today}&by=product`, 'profit by product, this month (month rows)'],
      [`/reports/profit?from=${mid[0]}&to=${mid[1]}&by=product`, 'profit by product, 11 days inside the range'],
      [`/reports/profit?from=${from}&to=${today}&by=category`, 'profit by category, 30 days'],
      [`/reports/profit?from=${mid[0]}&to=${mid[1]}&by=category`, 'profit by category, 11 days'],
      [`/reports/profit?from=${from}&to=${today}&by=month`, 'profit by month'],
      ['/reports/stock-summary', 'stock-summary (one page + totals)'],
      ['/reports/stock-summary?category=Category%207', 'stock-summary, one category'],
      ['/reports/ageing?side=receivable', 'ageing, receivable'],
      ['/reports/dashboard', 'dashboard'],
      [`/reports/cashbook?from=${addDays(today, -15)}&to=${addDays(today, -15)}&mode=cash`, 'cash book, one day: page 0 + running balance'],
      [`/reports/cashbook?from=${from}&to=${today}&mode=cash&page=20`, 'cash book, 30 days: page 20'],
      [`/reports/pnl?from=${from}&to=${today}`, 'profit and loss, 30 days by month'],
    ];
    const rows = [];
    for (const [p, label] of paths) {
      const times = [];
      let bytes = 0;
      let first = null;
      for (let i = 0; i < N + 3; i++) {
        const t = performance.now();
        const body = await get(stack.gatewayUrl, p, token);
        if (i === 0) first = performance.now() - t;
        if (i >= 3) times.push(performance.now() - t);
        bytes = body.length;
      }
      // `first`: the first ask of the path (nothing of it read before: no decoded copies kept yet).
      rows.push({ label, path: p, n: N, first: r1(first), p50: r1(pct(times, 50)), p95: r1(pct(times, 95)), kb: Math.round(bytes / 1024), load: load() });
    }
    console.table(rows.map(({ path: _p, ...r }) => r));
    out.scale = { sales: SALES, lines: SALES * 3, products: PRODUCTS, customers: CUSTOMERS, check, seeded, rows, budgetMs: 200, pass: rows.every((r) => r.p95 < 200), seconds: Math.round((Date.now() - t0) / 1000) };
  } finally {
    await stack.stop();
  }
}

/** The fold check on its own small embedded MongoDB (the scale stack starts after). */
async function checkFoldOn() {
  const { startMongo } = require('@bahi/devstack');
  const mongo = await startMongo();
  try {
    return await checkFold(mongo.uri);
  } finally {
    await mongo.stop();
  }
}

// ---------------------------------------------------------------------------------------------

async function lag(out) {
  const { benchClient } = await import(path.join(ROOT, 'services', 'sales', 'bench', 'client.mjs'));
  // restart: false: the bench stops and starts reports itself between slices (the supervisor would start it again first).
  const stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'ledger', 'sales', 'reports'], env: { LOG_LEVEL: 'warn' }, logs: 'files', restart: false });
  let reports = null;
  try {
    const { agent, call, login: signIn } = benchClient(stack.gatewayUrl, { maxSockets: CASHIERS + 4, gzip: true });
    const manager = await signIn('manager@demo.local', 'manager12345');
    for (let i = 0; i < 200 && (await call('GET', '/getProductList', manager)).count < 10; i++) await sleep(300);
    const run = randomUUID().slice(0, 8);
    const cashiers = [];
    for (let c = 0; c < CASHIERS; c++) {
      const email = `rcashier${c}-${run}@demo.local`;
      await call('POST', '/users', manager, { name: `Cashier ${c}`, email, password: 'cashier12345', position: 'staff' });
      const first = await signIn(email, 'cashier12345');
      await call('POST', '/manage/profile/edit/updatePassword', first, { current_password: 'cashier12345', new_password: 'cashier-own-1', re_type_new_password: 'cashier-own-1' });
      cashiers.push(await signIn(email, 'cashier-own-1'));
    }
    reports = processSwitch({ pid: stack.pids().reports, url: stack.services.reports, logFile: path.join(stack.logDir, 'reports-bench.log') });
    let k = 0;
    const sale = async (token, measured) => {
      for (let l = 0; l < 3; l++) await call('GET', `/addProductIntoCart/${1 + ((k * 7 + l * 3) % 10)}`, token);
      const t = performance.now();
      const r = await call('POST', '/MAKE_SALE', token, { clientId: 0, cart_no: 1, paid: '0', dueDate: '2030-01-01' }, { 'Idempotency-Key': randomUUID() });
      k++;
      measured?.push({ ms: performance.now() - t, saleId: r.saleId, answeredAt: Date.now() });
    };
    const slice = async (seconds, measured) => {
      const end = Date.now() + seconds * 1000;
      await Promise.all(cashiers.map(async (t) => {
        while (Date.now() < end) await sale(t, measured);
      }));
    };
    const register = registerWatcher(call, manager);
    // Warm-up: every process compiles its hot paths; not measured.
    await Promise.all(cashiers.map(async (t) => {
      for (let i = 0; i < 3; i++) await sale(t, null);
    }));
    const running = [];
    const stopped = [];
    for (let round = 0; round < 2; round++) {
      // Reports running: a separate client polls the sales register at a steady 100 ms.
      const stopWatch = register.watch();
      const before = running.length;
      await slice(SLICE_S, running);
      // Until every sale of the slice is seen (or 30 s), so the lag of the last ones counts too.
      await register.waitSeen(running.slice(before).map((s) => s.saleId));
      await stopWatch();
      await reports.stop();
      await slice(SLICE_S, stopped);
      await reports.start();
      // Caught up with what was sold while it was down before the next slice is measured.
      await register.waitAll([...running, ...stopped].map((s) => s.saleId));
    }
    const { firstSeen, polls } = register;
    const lags = running.map((s) => (firstSeen.has(s.saleId) ? firstSeen.get(s.saleId) - s.answeredAt : null));
    const missing = lags.filter((x) => x === null).length;
    const seenLags = lags.filter((x) => x !== null);
    const client = await MongoClient.connect(stack.mongoUri);
    const own = await serviceLag(client, COMPANY, running.map((s) => s.saleId));
    await client.close();
    const saleMs = (xs) => ({ n: xs.length, p50: r1(pct(xs.map((s) => s.ms), 50)), p95: r1(pct(xs.map((s) => s.ms), 95)) });
    out.lag = {
      cashiers: CASHIERS,
      sliceSeconds: SLICE_S,
      sales: running.length,
      missing,
      lagMs: { p50: pct(seenLags, 50), p95: pct(seenLags, 95), max: pct(seenLags, 100) },
      pollMs: { n: polls.length, p50: r1(pct(polls, 50)), p95: r1(pct(polls, 95)) },
      serviceLagMs: { n: own.length, p50: pct(own, 50), p95: pct(own, 95), max: pct(own, 100) },
      saleRunning: saleMs(running),
      saleStopped: saleMs(stopped),
      budgetMs: 1000,
      pass: missing === 0 && pct(seenLags, 95) < 1000,
      load: load(),
    };
    console.log(JSON.stringify(out.lag, null, 2));
    agent.destroy();
  } finally {
    reports?.kill();
    await stack.stop();
  }
}

// ---------------------------------------------------------------------------------------------

async function paint(out) {
  const puppeteer = require(require.resolve('puppeteer-core', { paths: [path.join(ROOT, 'e2e')] }));
  const stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'ledger', 'sales', 'reports'], env: { LOG_LEVEL: 'warn' }, logs: 'files' });
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const runs = [];
  try {
    const token = await login(stack.gatewayUrl, 'manager@demo.local', 'manager12345');
    for (let i = 0; i < PAINT_RUNS + 1; i++) {
      const ctx = await browser.createBrowserContext();
      const page = await ctx.newPage();
      await page.setViewport({ width: 1366, height: 800 });
      await page.setCacheEnabled(false);
      await page.evaluateOnNewDocument((t) => {
        if (!localStorage.getItem('token')) {
          localStorage.setItem('token', t);
          localStorage.setItem('expiration', new Date(Date.now() + 86_400_000).toISOString());
        }
      }, token);
      const t0 = performance.now();
      await page.goto(`${stack.gatewayUrl}/reports`);
      await page.waitForFunction(() => ['sales', 'collections', 'newDues', 'cashInHand'].every((c) => /\d/.test(document.querySelector(`[data-testid="card-${c}-today"]`)?.textContent ?? '')), { timeout: 60_000 });
      const cardsMs = performance.now() - t0;
      const paints = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime])));
      const nav = await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.responseStart ?? 0);
      if (i === 0) await page.screenshot({ path: path.join(ROOT, 'test-results', 'bench', 'dashboard-paint.png') }).catch(() => undefined);
      // The first run warms the servers' file caches; not counted.
      if (i > 0) runs.push({ firstPaint: paints['first-paint'] ?? null, fcp: paints['first-contentful-paint'] ?? null, cards: cardsMs, navResponse: nav, load: load() });
      await ctx.close();
    }
  } finally {
    await browser.close().catch(() => undefined);
    await stack.stop();
  }
  const med = (k) => r1(pct(runs.map((r) => r[k]).filter((v) => v !== null), 50));
  const worst = (k) => r1(pct(runs.map((r) => r[k]).filter((v) => v !== null), 100));
  out.paint = { runs: runs.length, firstPaint: med('firstPaint'), fcp: med('fcp'), cards: med('cards'), fcpWorst: worst('fcp'), cardsWorst: worst('cards'), budgetMs: 1500, pass: worst('fcp') < 1500, load: load(), all: runs };
  console.log(JSON.stringify(out.paint, null, 2));
}

const out = { date: new Date().toISOString() };
fs.mkdirSync(path.dirname(OUT), { recursive: true });
const prev = fs.existsSync(OUT) ? JSON.parse(fs.readFileSync(OUT, 'utf8')) : {};
try {
  for (const [name, fn] of [['scale', scale], ['lag', lag], ['paint', paint]]) {
    if (!PARTS.includes(name)) continue;
    console.log(`reports bench: ${name}…`);
    await fn(out);
    // Written after each part: a later part failing keeps the figures of the earlier ones.
    fs.writeFileSync(OUT, JSON.stringify({ ...prev, ...out }, null, 2));
  }
} catch (err) {
  console.error(err);
  process.exitCode = 1;
}
