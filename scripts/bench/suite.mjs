// The cross-cutting benchmark: HTTP floor, gateway vs direct service, lists at 1,000 and
// 100,000 documents per company. Writes its figures as JSON (argv[2]) for scripts/bench.mjs.
// Runs on this machine only; every figure carries the 1-minute load average when it was taken.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bareFloor, loadTest, summary } from './load.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(path.join(ROOT, 'services', 'inventory', 'package.json'));
const { startStack } = require('@bahi/devstack');
const { signToken } = require('@bahi/auth');
const { MongoClient } = require('mongodb');

const OUT = process.argv[2] ?? path.join(ROOT, 'test-results', 'bench-suite.json');
const SECONDS = Number(process.env.BENCH_SECONDS || 4);
const RUNS = Number(process.env.BENCH_RUNS || 25);
const BIG = Number(process.env.BENCH_BIG || 100_000);
const SMALL = 1000;
const figures = [];
const load = () => Number(os.loadavg()[0].toFixed(2));
const log = (...a) => console.log('[bench]', ...a);

function record(f) {
  figures.push({ ...f, load: load() });
  log(JSON.stringify(figures[figures.length - 1]));
}

/** What is recorded of a load test: its figures, not every latency. */
const figure = ({ lat, elapsed, ...f }) => f;

/**
 * The same load on two URLs (through the gateway, straight at the service) in alternating slices,
 * pooled per URL: whatever else the machine does during the step (the embedded server settling
 * after the seed, a GC, another process) falls on both sides alike instead of on whichever ran
 * first. Before, one 1-client ratio measured 1.50x in a run and 1.25x in the next.
 */
async function sideBySide(urls, opts, slices = 4) {
  const pooled = urls.map(() => ({ lat: [], elapsed: 0, errors: 0 }));
  for (let s = 0; s < slices; s++) {
    for (const [i, url] of urls.entries()) {
      const r = await loadTest(url, { ...opts, seconds: (opts.seconds ?? SECONDS) / slices });
      pooled[i].lat.push(...r.lat);
      pooled[i].elapsed += r.elapsed;
      pooled[i].errors += r.errors;
    }
  }
  return pooled.map((p) => summary(p.lat, p.elapsed, p.errors));
}

async function median(url, headers) {
  const ms = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
    if (i >= 3) ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(ms.length / 2)];
}

// ---- 1. the floor: a bare Node HTTP server on this machine --------------------------------
const floor = await bareFloor([1, 10, 50], SECONDS);
for (const c of [1, 10, 50]) record({ section: 'floor', name: `bare Node HTTP round trip, ${c} clients`, ...figure(floor[c]) });

// ---- the stack ------------------------------------------------------------------------------
const stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'ledger', 'sales'], env: { BAHI_DEMO: '0', LOG_LEVEL: 'warn' }, logs: 'files' });
try {
  const client = await MongoClient.connect(stack.mongoUri);
  const companies = { small: 5001, big: 5002 };
  const token = (companyId, uid = 1) =>
    signToken({ sub: String(uid), uid, name: 'Bench', email: `bench${uid}@bench.local`, position: 'manager', companyId, companyName: 'Bench', sid: `bench-${companyId}-${uid}` }, stack.jwtSecret);
  const auth = (companyId) => ({ Authorization: `Bearer ${token(companyId)}` });

  // Seeding: bulk inserts of the services' own document shapes straight into their databases
  // (creating 100,000 sales through MAKE_SALE would take hours on this machine).
  async function bulk(coll, n, make) {
    for (let start = 1; start <= n; start += 2000) {
      const docs = [];
      for (let i = start; i < Math.min(start + 2000, n + 1); i++) docs.push(make(i));
      await coll.insertMany(docs, { ordered: false });
    }
  }
  const inv = client.db('bahi_inventory');
  const sal = client.db('bahi_sales');
  const led = client.db('bahi_ledger');
  const t0 = performance.now();
  // The companies themselves: sales asks identity for a company's tax settings (cached).
  await client.db('bahi_identity').collection('companies').insertMany(
    Object.entries(companies).map(([size, id]) => ({ id, name: `Bench ${size}`, add1: '', add2: '', mob1: '', mob2: '', email: '', logo: null, upiId: null, tax_mode: 'simple', gstin: null, invoice_prefix: null })),
  );
  for (const [size, companyId] of [[SMALL, companies.small], [BIG, companies.big]]) {
    await inv.collection('categories').insertOne({ companyId, id: 1, name: 'Plywood', belongs_to: null, specs: [] });
    await bulk(inv.collection('products'), size, (i) => {
      const stock = (i * 37) % 500;
      return {
        companyId, product_id: i, product_name: `Product ${i}`, words: ['product', String(i)], brand_name: `Brand ${i % 20}`, category: 1,
        mrp_p: 10000 + i, cp_p: 8000 + i, unit: 'pcs', ppq_m: 1000, stock_m: stock * 1000, min_m: 50000, def_m: 400000,
        level: stock <= 50 ? 0 : stock >= 400 ? 2 : 1, tax: '1.18', active: 1, image: null, specs: {}, barcode: `B${i}`, hsn_code: '4412',
      };
    });
    const customer = (i) => ({ client_id: i, name: `Customer ${i}`, mobile_no: String(9000000000 + i), address_line_1: '', address_line_2: '', city_or_district: 'Pune', state: 'MH', country: 'India', postal_code: '411001', walkIn: false });
    await bulk(led.collection('customers'), size, (i) => ({ companyId, ...customer(i), createdAt: new Date(), updatedAt: new Date() }));
    await bulk(sal.collection('sales'), size, (i) => ({
      companyId, saleId: i, status: 'complete', lockedUntil: new Date(0), source: { kind: 'cart', userId: 1, cart_no: 1, estimateId: 0, version: 0 },
      clientId: (i % size) + 1, customer: customer((i % size) + 1), date: '2026-01-01', dueDate: '2026-02-01', paid: '0', lines: [], tax: 0,
      shipping: '0', discount: '0', subtotal: '100.00', taxAmount: '0', amount: '100.00', previousDue: '0', stockApplied: true, ledgerPosted: true, warnings: [], createdBy: 1,
    }));
    // Account entries spread over the customers; customer 1 holds the same 30 in both companies.
    await bulk(led.collection('entries'), size, (i) => ({
      companyId, seq: i, partyKind: 'customer', partyId: i <= 30 ? 1 : 2 + (i % (size - 1)), entryKind: 'sale', sourceKind: 'sale', sourceId: i,
      amount: '100.00', paid: '0', delta: '100.00', date: '2026-01-01', dueDate: null, payType: '', transactionId: '', createdAt: new Date(),
    }));
  }
  record({ section: 'seed', name: `seeded ${SMALL} + ${BIG} products, customers, sales and account entries`, seconds: (performance.now() - t0) / 1000 });
  await client.close();

  // ---- 2. gateway vs the service called directly ------------------------------------------
  const probe = '/getProductDetails?id=150';
  let direct = stack.services.inventory + probe;
  if ((await fetch(direct, { headers: auth(companies.small) })).status === 404) direct = stack.services.inventory + '/api' + probe;
  // Both paths warmed first: the first calls of a path pay for compiling it (in the service as much
  // as in the gateway), and whichever path ran first would carry that cost.
  for (const url of [stack.gatewayUrl + '/api' + probe, direct]) await loadTest(url, { concurrency: 4, seconds: 2, headers: auth(companies.small) });
  for (const c of [1, 10, 50]) {
    const [gw, dr] = await sideBySide([stack.gatewayUrl + '/api' + probe, direct], { concurrency: c, headers: auth(companies.small) });
    record({ section: 'gateway', name: `getProductDetails through the gateway, ${c} clients`, ...figure(gw) });
    record({ section: 'gateway', name: `getProductDetails direct to inventory, ${c} clients`, ...figure(dr) });
    record({ section: 'gateway', name: `gateway p50 / direct p50, ${c} clients`, ratio: gw.p50 / dr.p50, budget: 1.5 });
    record({ section: 'gateway', name: `direct p50 / bare Node floor p50, ${c} clients`, ratio: dr.p50 / floor[c].p50 });
  }

  // The counter's cart calls, through the gateway and straight at sales: client i is cashier
  // 100 + i with their own cart holding product 150.
  const cashierTokens = Array.from({ length: 50 }, (_, i) => ({ Authorization: `Bearer ${token(companies.small, 100 + i)}` }));
  let salesDirect = stack.services.sales;
  if ((await fetch(salesDirect + '/getProducts?cart_no=1', { headers: cashierTokens[0] })).status === 404) salesDirect += '/api';
  const slNos = [];
  for (const h of cashierTokens) {
    const res = await fetch(stack.gatewayUrl + '/api/addProductIntoCart/150', { headers: h });
    const reply = await res.json();
    if (!res.ok || !reply[0]?.[0]?.sl_no) throw new Error(`addProductIntoCart: ${res.status} ${JSON.stringify(reply).slice(0, 200)}`);
    slNos.push(reply[0][0].sl_no);
  }
  const calls = [
    ['addProductIntoCart', '/addProductIntoCart/150', 'GET', undefined],
    ['upQuan', '/upQuan', 'POST', (i) => ({ sl_no: slNos[i], quantity: String(2 + (i % 3)), cart_no: 1 })],
  ];
  for (const [name, p, method, body] of calls) {
    for (const url of [stack.gatewayUrl + '/api' + p, salesDirect + p]) await loadTest(url, { concurrency: 4, seconds: 2, headers: (i) => cashierTokens[i], method, body });
    for (const c of [1, 10, 50]) {
      const [gw, dr] = await sideBySide([stack.gatewayUrl + '/api' + p, salesDirect + p], { concurrency: c, headers: (i) => cashierTokens[i], method, body });
      record({ section: 'gateway', name: `${name} through the gateway, ${c} clients`, ...figure(gw) });
      record({ section: 'gateway', name: `${name} direct to sales, ${c} clients`, ...figure(dr) });
      record({ section: 'gateway', name: `${name}: gateway p50 / direct p50, ${c} clients`, ratio: gw.p50 / dr.p50, budget: 1.5 });
    }
  }

  // ---- 3. lists at scale --------------------------------------------------------------------
  const lists = [
    ['getProductList, page 0', '/getProductList?pageNo=0'],
    ['getProductList, page 5', '/getProductList?pageNo=5'],
    ['productPage (grid), page 0', '/productPage/null'],
    ['getSaleList, page 0', '/getSaleList?pageNo=0'],
    ['getSaleList, page 5', '/getSaleList?pageNo=5'],
    ['getClientsList, page 0', '/getClientsList?pageNo=0'],
    ['getClientsList, page 5', '/getClientsList?pageNo=5'],
    ['getAllClientsHistory (30 entries), page 0', '/getAllClientsHistory?id=1&pageNo=0'],
  ];
  for (const [name, url] of lists) {
    const small = await median(stack.gatewayUrl + '/api' + url, auth(companies.small));
    const big = await median(stack.gatewayUrl + '/api' + url, auth(companies.big));
    record({ section: 'lists', name, small, big, ratio: big / small, budget: 2 });
  }
} finally {
  await stack.stop();
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify({ date: new Date().toISOString(), cpus: os.cpus().length, big: BIG, seconds: SECONDS, runs: RUNS, figures }, null, 2));
}
