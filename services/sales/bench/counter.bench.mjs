// 20 cashiers at once through the gateway, 20,000 products in their company: each cashier scans
// products into their own cart (addProductIntoCart) and sells (MAKE_SALE), with the real identity,
// inventory, ledger and sales on the embedded MongoDB and nats-server.
// Run after `npm run build`: npm run bench -w @bahi/sales
//
// The 20,000 products are written straight into inventory's database (the way inventory's own
// benchmark does): creating them one by one through the API takes minutes and measures nothing
// about the counter. Everything the cashiers do goes through the gateway.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchClient } from './client.mjs';
import { commandCounter, counterSale, cpuMs, demoManager, LINES_PER_SALE, makeCashiers, ownCpuMs, seedProducts } from './kit.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require('@bahi/devstack');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PRODUCTS = Number(process.env.BENCH_PRODUCTS || 20_000);
const CASHIERS = Number(process.env.BENCH_CASHIERS || 20);
const SALES_EACH = Number(process.env.BENCH_SALES || 10);
const WARMUP_SALES = Number(process.env.BENCH_WARMUP_SALES || Math.max(1, Math.ceil(300 / CASHIERS)));
const COMPANY = 1; // Demo Traders, whose manager creates the cashiers

const stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'ledger', 'sales'], env: { LOG_LEVEL: 'warn' }, logs: 'files' });
try {
  const client = benchClient(stack.gatewayUrl, { maxSockets: CASHIERS + 2, gzip: true });
  const { agent, call } = client;
  const manager = await demoManager(client);

  const t0 = performance.now();
  await seedProducts(stack.mongoUri, COMPANY, 0, PRODUCTS);
  console.log(`seeded ${PRODUCTS} products in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const cashiers = await makeCashiers(client, manager, CASHIERS);
  const times = { addProductIntoCart: [], MAKE_SALE: [] };
  const sale = (token, n, measure) => counterSale(call, token, n, PRODUCTS, measure ? times : undefined);
  // Warm-up, not measured: the first few hundred calls of every process are compiled by V8 as they
  // run (its compiler threads' CPU counts in the CPU per sale); with one warm-up sale per cashier,
  // a 150-sale run measured 15% more CPU per sale than a 250-sale one.
  for (let w = 0; w < WARMUP_SALES; w++) await Promise.all(cashiers.map((t, c) => sale(t, c * 100 + w, false)));

  // CPU time of every process over the measured part, to see where a sale's cost goes.
  const cpuNow = () => ({ ...cpuMs(stack.pids()), bench: ownCpuMs() });
  const counter = await commandCounter(stack.mongoUri);
  const commands = () => counter.read();
  const commandsBefore = await commands();
  const cpuBefore = cpuNow();
  const start = performance.now();
  await Promise.all(cashiers.map(async (t, c) => {
    for (let s = 0; s < SALES_EACH; s++) await sale(t, (c + 1) * 1000 + s, true);
  }));
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = cpuNow();
  const commandsAfter = await commands();
  await counter.close();

  const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
  const requests = times.addProductIntoCart.length + times.MAKE_SALE.length;
  console.log(`\n${CASHIERS} cashiers, ${PRODUCTS} products, ${SALES_EACH} sales of ${LINES_PER_SALE} lines each per cashier`);
  console.log(`| call | count | p50 ms | p95 ms | p99 ms | target p95 |`);
  console.log(`|---|---|---|---|---|---|`);
  for (const [name, target] of [['addProductIntoCart', 50], ['MAKE_SALE', 200]]) {
    const xs = times[name].sort((a, b) => a - b);
    console.log(`| ${name} | ${xs.length} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 95).toFixed(1)} | ${pct(xs, 99).toFixed(1)} | < ${target} ${pct(xs, 95) < target ? 'met' : 'MISSED'} |`);
  }
  const sales = times.MAKE_SALE.length;
  const cpu = Object.keys(cpuAfter).map((k) => [k, (cpuAfter[k] - (cpuBefore[k] ?? 0)) / sales]).sort((a, b) => b[1] - a[1]);
  console.log(`\nCPU per sale (${LINES_PER_SALE} scans + MAKE_SALE): ${cpu.map(([k, v]) => `${k} ${v.toFixed(1)} ms`).join(', ')}; total ${cpu.reduce((a, [, v]) => a + v, 0).toFixed(1)} ms`);
  const perSale = Object.keys(commandsAfter).map((k) => [k, (commandsAfter[k] - (commandsBefore[k] ?? 0)) / sales]).filter(([, v]) => v >= 0.05).sort((a, b) => b[1] - a[1]);
  if (perSale.length) console.log(`MongoDB commands per sale: ${perSale.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}; total ${perSale.reduce((a, [, v]) => a + v, 0).toFixed(1)}`);
  console.log(`\nthroughput: ${(requests / seconds).toFixed(1)} requests/s, ${(times.MAKE_SALE.length / seconds).toFixed(1)} sales/s over ${seconds.toFixed(1)} s`);
  agent.destroy();
} finally {
  await stack.stop();
}
