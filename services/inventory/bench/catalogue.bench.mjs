// Product list, product grid and product lookup by id through the gateway, with 200 and with
// 20,000 products in one company. Run after `npm run build`: npm run bench -w @bahi/inventory
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { startStack } = require('@bahi/devstack');
const { signToken } = require('@bahi/auth');
const { MongoClient } = require('mongodb');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const RUNS = Number(process.env.BENCH_RUNS || 40);

const stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory'], env: { BAHI_DEMO: '0', LOG_LEVEL: 'warn' }, logs: 'files' });
try {
  const client = await MongoClient.connect(stack.mongoUri);
  const db = client.db('bahi_inventory');
  async function fill(companyId, n) {
    await db.collection('categories').insertOne({ companyId, id: 1, name: 'Plywood', belongs_to: null, specs: [{ field_name: 'Size', default_value: '8x4', is_number: false, priority: 1, alias: 'Size' }] });
    for (let start = 1; start <= n; start += 1000) {
      const docs = [];
      for (let i = start; i < Math.min(start + 1000, n + 1); i++) {
        const stock = (i * 37) % 500;
        docs.push({
          companyId, product_id: i, product_name: `Product ${i}`, words: ['product', String(i)], brand_name: `Brand ${i % 20}`, category: 1,
          mrp_p: 10000 + i, cp_p: 8000 + i, unit: 'pcs', ppq_m: 1000, stock_m: stock * 1000, min_m: 50000, def_m: 400000,
          level: stock <= 50 ? 0 : stock >= 400 ? 2 : 1, tax: '1.18', active: 1, image: null, specs: { Size: '8x4' }, barcode: `B${i}`, hsn_code: '4412',
        });
      }
      await db.collection('products').insertMany(docs, { ordered: false });
    }
  }
  await fill(1001, 200);
  await fill(1002, 20000);
  await client.close();

  const token = (companyId) => signToken({ sub: '1', uid: 1, name: 'Bench', email: 'bench@x', position: 'manager', companyId, companyName: 'Bench', sid: `bench-${companyId}` }, stack.jwtSecret);
  async function time(url, tok) {
    const ms = [];
    for (let i = 0; i < RUNS + 5; i++) {
      const t0 = performance.now();
      const res = await fetch(stack.gatewayUrl + '/api' + url, { headers: { Authorization: `Bearer ${tok}` } });
      await res.text();
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      if (i >= 5) ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    return ms[Math.floor(ms.length / 2)];
  }
  const calls = [
    ['getProductList (page 0, no filter)', '/getProductList?pageNo=0'],
    ['getProductList (category+brand)', '/getProductList?pageNo=0&category=1&brand=Brand%203'],
    ['productPage/null (page 0)', '/productPage/null'],
    ['getProductDetails (by id)', '/getProductDetails?id=150'],
  ];
  // Shared machine: the 1-minute load average says how much of a CPU each process got.
  const load = () => os.loadavg()[0].toFixed(2);
  console.log(`load average at start: ${load()} (${os.cpus().length} CPUs)`);
  console.log(`| call | 200 products (median ms) | 20,000 products (median ms) | ratio |`);
  console.log(`|---|---|---|---|`);
  for (const [name, url] of calls) {
    const small = await time(url, token(1001));
    const big = await time(url, token(1002));
    console.log(`| ${name} | ${small.toFixed(1)} | ${big.toFixed(1)} | ${(big / small).toFixed(2)}x |`);
  }
  console.log(`load average at end: ${load()}`);
} finally {
  await stack.stop();
}
