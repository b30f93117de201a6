// The scan alone (issue 33): N cashiers each scan products into their cart through the gateway
// (addProductIntoCart, a barcode then typed ids), emptying the cart every 3 scans as a sale would
// (clearCart, counted as a request). Prints addProductIntoCart p50/p95, CPU per request of every
// process and MongoDB commands per scan, to measure each request's fixed cost without the sale.
//   BENCH_PRODUCTS=2000 BENCH_CASHIERS=10 BENCH_SCANS=90 node services/sales/bench/scan.bench.mjs
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchClient } from './client.mjs';
import { commandCounter, cpuMs, demoManager, FIRST_ID, makeCashiers, pct, seedProducts } from './kit.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require('@bahi/devstack');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PRODUCTS = Number(process.env.BENCH_PRODUCTS || 2000);
const CASHIERS = Number(process.env.BENCH_CASHIERS || 10);
const SCANS_EACH = Number(process.env.BENCH_SCANS || 90);
const WARMUP_SCANS = Number(process.env.BENCH_WARMUP_SCANS || 60);
const PER_CART = 3;
const COMPANY = 1;

const stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'ledger', 'sales'], env: { LOG_LEVEL: 'warn' }, logs: 'files' });
try {
  const client = benchClient(stack.gatewayUrl, { maxSockets: CASHIERS + 2, gzip: true });
  const { agent, call } = client;
  const manager = await demoManager(client);
  await seedProducts(stack.mongoUri, COMPANY, 0, PRODUCTS);
  const cashiers = await makeCashiers(client, manager, CASHIERS);

  const times = [];
  let requests = 0;
  async function scans(token, c, count, measure) {
    for (let n = 0; n < count; n++) {
      const id = FIRST_ID + ((c * 7919 + n * 104729) % PRODUCTS);
      const code = n % PER_CART === 0 ? `BN${id}` : String(id);
      const s = performance.now();
      const r = await call('GET', `/addProductIntoCart/${code}`, token);
      if (measure) times.push(performance.now() - s);
      if (!r.length) throw new Error(`product ${code} not found`);
      if (n % PER_CART === PER_CART - 1) await call('DELETE', '/clearCart/1', token);
      if (measure) requests += n % PER_CART === PER_CART - 1 ? 2 : 1;
    }
  }
  await Promise.all(cashiers.map((t, c) => scans(t, c + 100, WARMUP_SCANS, false)));

  const counter = await commandCounter(stack.mongoUri);
  // BENCH_PROFILE_FILE=<path>: created here, for a --require'd profiler that starts when it appears.
  if (process.env.BENCH_PROFILE_FILE) {
    fs.writeFileSync(process.env.BENCH_PROFILE_FILE, '');
    await new Promise((r) => setTimeout(r, 300));
  }
  const commandsBefore = await counter.read();
  const cpuBefore = cpuMs(stack.pids());
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const start = performance.now();
  await Promise.all(cashiers.map((t, c) => scans(t, c, SCANS_EACH, true)));
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = cpuMs(stack.pids());
  const commandsAfter = await counter.read();
  await counter.close();

  const xs = times.sort((a, b) => a - b);
  console.log(`\n${CASHIERS} cashiers, ${PRODUCTS} products, ${SCANS_EACH} scans each (clearCart every ${PER_CART}); load before ${load}`);
  console.log(`addProductIntoCart: ${xs.length} scans, p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms`);
  const cpu = Object.keys(cpuAfter).map((k) => [k, (cpuAfter[k] - (cpuBefore[k] ?? 0)) / requests]).sort((a, b) => b[1] - a[1]);
  console.log(`CPU per request (${requests} requests): ${cpu.map(([k, v]) => `${k} ${v.toFixed(2)} ms`).join(', ')}; total ${cpu.reduce((a, [, v]) => a + v, 0).toFixed(2)} ms`);
  const perScan = Object.keys(commandsAfter).map((k) => [k, (commandsAfter[k] - (commandsBefore[k] ?? 0)) / xs.length]).filter(([, v]) => v >= 0.01).sort((a, b) => b[1] - a[1]);
  console.log(`MongoDB commands per scan (clearCart included): ${perScan.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
  console.log(`throughput: ${(requests / seconds).toFixed(1)} requests/s over ${seconds.toFixed(1)} s`);
  agent.destroy();
} finally {
  await stack.stop();
}
