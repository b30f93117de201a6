// Reports at scale: one company with 100,000 bills (300,000 lines) in a month and 20,000 products,
// read through the reports service's HTTP API (the gateway adds one hop). The read model is
// written directly in the shape the projections keep (their throughput is not what this measures:
// the query side and its indexes are), then every report for the month is asked BENCH_N times.
//   node services/reports/bench/reports.bench.mjs      (after building @bahi/reports and @bahi/devstack)
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { startMongo, startNats, freePort } = require('@bahi/devstack');
const { signToken } = require('@bahi/auth');
const { MongoClient } = require('mongodb');
const { connect, JSONCodec } = require('nats');

const SALES = Number(process.env.BENCH_SALES ?? 100_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const CUSTOMERS = 2_000;
const N = Number(process.env.BENCH_N ?? 30);
const MONTH = '2026-10';
const DAYS = 31;
const C = 1;
const SECRET = 'reports-bench-secret-0123456789abcdef';

const day = (i) => `${MONTH}-${String(i + 1).padStart(2, '0')}`;
let seed = 7;
const rnd = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor((seed / 2147483648) * n));

async function fill(db) {
  const t0 = Date.now();
  const batch = async (name, docs) => {
    for (let i = 0; i < docs.length; i += 5000) await db.collection(name).insertMany(docs.slice(i, i + 5000), { ordered: false });
  };
  const products = [];
  for (let p = 1; p <= PRODUCTS; p++) {
    const cp = 1000 + rnd(50000);
    const stock = rnd(200);
    const minStock = rnd(20);
    const mrp = Math.round(cp * 1.3);
    products.push({ _id: `${C}:${p}`, companyId: C, productId: p, name: `Product ${p}`, category: `Category ${p % 40}`, brand: `Brand ${p % 100}`, cp, mrp, minStock, stock, active: true, low: stock <= minStock, v: 1, costValue: stock * cp, mrpValue: stock * mrp, counted: stock });
  }
  await batch('products', products);
  const st = { _id: String(C), companyId: C, products: PRODUCTS, stock: 0, costValue: 0, mrpValue: 0 };
  for (const p of products) {
    st.stock += p.stock;
    st.costValue += p.costValue;
    st.mrpValue += p.mrpValue;
  }
  await db.collection('stock_totals').insertOne(st);
  const cat = new Map();
  const catMonth = new Map();
  const invoices = [];
  const txns = [];
  const open = new Map();
  const daily = new Map();
  const pday = new Map();
  const pmonth = new Map();
  const balances = new Map();
  for (let s = 1; s <= SALES; s++) {
    const d = Math.floor(((s - 1) * DAYS) / SALES);
    const date = day(d);
    let amount = 0;
    for (let l = 0; l < 3; l++) {
      const p = 1 + rnd(PRODUCTS);
      const qty = 1 + rnd(5);
      const value = qty * (2000 + rnd(60000));
      const cost = Math.round(value * 0.8);
      amount += value;
      for (const [map, key, extra] of [[pday, `${C}:${date}:${p}`, { date }], [pmonth, `${C}:${MONTH}:${p}`, { month: MONTH, profit: 0 }], [cat, `${C}:${date}:Category ${p % 40}`, { date, category: `Category ${p % 40}` }], [catMonth, `${C}:${MONTH}:Category ${p % 40}`, { month: MONTH, category: `Category ${p % 40}` }]]) {
        const r = map.get(key) ?? { _id: key, companyId: C, productId: p, name: `Product ${p}`, qty: 0, value: 0, cost: 0, costless: 0, ...extra };
        r.qty += qty;
        r.value += value;
        r.cost += cost;
        if ('profit' in r) r.profit += value - cost;
        map.set(key, r);
      }
      const dr0 = daily.get(date) ?? { _id: `${C}:${date}`, companyId: C, date, sales: 0, salesCount: 0, collections: 0, newDues: 0, regCount: 0, regAmount: 0, regReturned: 0, regCancelled: 0, regNet: 0, regPaid: 0, pValue: 0, pCost: 0, pCostless: 0 };
      dr0.pValue += value;
      dr0.pCost += cost;
      daily.set(date, dr0);
    }
    const paid = rnd(2) ? amount : 0;
    const customerId = 1 + rnd(CUSTOMERS);
    invoices.push({ _id: `${C}:${s}`, companyId: C, saleId: s, date, docNo: null, customerId, customerName: `Customer ${customerId}`, amount, paid, dueDate: date, sold: true });
    txns.push({ _id: `sale:${C}:${s}:completed`, companyId: C, date, at: `${date}T10:00:00.000Z`, kind: 'sale', ref: s, docNo: null, party: `Customer ${customerId}`, partyId: customerId, amount, paid });
    if (amount > paid) {
      open.set(customerId, [...(open.get(customerId) ?? []), { date, dueDate: date, docNo: null, amount: amount - paid }]);
      balances.set(customerId, (balances.get(customerId) ?? 0) + amount - paid);
    }
    const dr = daily.get(date);
    dr.sales += amount;
    dr.salesCount++;
    dr.collections += paid;
    dr.newDues += amount - paid;
    dr.regCount++;
    dr.regAmount += amount;
    dr.regNet += amount;
    dr.regPaid += paid;
    daily.set(date, dr);
  }
  await batch('invoices', invoices);
  await batch('txns', txns);
  await batch('daily', [...daily.values()]);
  await batch('profit_day', [...pday.values()]);
  await batch('profit_month', [...pmonth.values()]);
  await batch('profit_cat', [...cat.values()]);
  await batch('profit_cat_month', [...catMonth.values()]);
  const openDues = new Map();
  for (const list of open.values()) for (const d of list) openDues.set(d.date, (openDues.get(d.date) ?? 0) + d.amount);
  await batch('open_dues', [...openDues].map(([date, amount]) => ({ _id: `${C}:r:${date}`, companyId: C, side: 'r', date, amount })));
  await batch('parties', [...balances].map(([id, balance]) => ({ _id: `${C}:r:${id}`, companyId: C, side: 'r', partyId: id, name: `Customer ${id}`, balance, open: open.get(id), advance: 0, oldestDue: open.get(id)[0].date })));
  await db.collection('meta').insertOne({ _id: 'built', at: new Date() });
  return { ms: Date.now() - t0, profitDayRows: pday.size, profitMonthRows: pmonth.size };
}

const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

async function main() {
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const nc = await connect({ servers: nats.url });
  nc.subscribe('identity.session.revocations', { callback: (_e, m) => m.respond(JSONCodec().encode({ id: JSONCodec().decode(m.data).id, response: { revocations: [] }, isDisposed: true })) });
  const client = await MongoClient.connect(mongo.uri);
  const db = client.db('bahi_reports');
  const seeded = await fill(db);
  const port = await freePort();
  // The service makes its indexes at start; REPORTS_CONSUME=0: nothing else writes during the run.
  const child = spawn(process.execPath, [path.join(HERE, '..', 'dist', 'main.js')], {
    env: { ...process.env, MONGODB_URI: mongo.uri, NATS_URL: nats.url, BAHI_JWT_SECRET: SECRET, REPORTS_PORT: String(port), REPORTS_CONSUME: '0', LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/health`).then((r) => r.ok, () => false))) break;
    if (i > 300) throw new Error('reports did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  // Indexes as the service makes them (it does so in the background with its consumers; here by hand).
  const { ensureIndexes } = require(path.join(HERE, '..', 'dist', 'store.js'));
  await ensureIndexes({ db });
  const token = signToken({ sub: 'm', uid: 11, name: 'm', email: 'm@b.local', position: 'manager', companyId: C, companyName: 'Bench', sid: 's' }, SECRET);
  const paths = [
    `/reports/sales-register?from=${MONTH}-01&to=${MONTH}-31`,
    `/reports/sales-register?from=${MONTH}-01&to=${MONTH}-31&clientId=17`,
    `/reports/daybook?date=${MONTH}-15`,
    `/reports/profit?from=${MONTH}-01&to=${MONTH}-31&by=product`,
    `/reports/profit?from=${MONTH}-01&to=${MONTH}-31&by=category`,
    `/reports/profit?from=${MONTH}-01&to=${MONTH}-31&by=month`,
    `/reports/profit?from=${MONTH}-10&to=${MONTH}-20&by=product`,
    `/reports/stock-summary`,
    `/reports/stock-summary?category=Category%207`,
    `/reports/purchase-register?from=${MONTH}-01&to=${MONTH}-31`,
    `/reports/ageing?side=receivable`,
    `/reports/dashboard`,
  ];
  const out = [];
  for (const p of paths) {
    const times = [];
    let bytes = 0;
    for (let i = 0; i < N + 3; i++) {
      const t = performance.now();
      const res = await fetch(base + p, { headers: { Authorization: `Bearer ${token}` } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${p}: ${res.status} ${body.slice(0, 200)}`);
      if (i >= 3) times.push(performance.now() - t);
      bytes = body.length;
    }
    out.push({ path: p, p50: pct(times, 50).toFixed(1), p95: pct(times, 95).toFixed(1), kb: (bytes / 1024).toFixed(0) });
  }
  console.log(`seeded ${SALES} bills (${SALES * 3} lines), ${PRODUCTS} products, ${seeded.profitDayRows} profit day rows, ${seeded.profitMonthRows} month rows in ${(seeded.ms / 1000).toFixed(1)} s`);
  console.table(out);
  child.kill('SIGTERM');
  await client.close();
  await nc.close();
  await nats.stop();
  await mongo.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
