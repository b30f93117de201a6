// The counter as issue 33 measures it, in one run on one stack (`npm run bench -- --only=counter`,
// or `node services/sales/bench/counter-matrix.bench.mjs [out.json]` after building):
//  - the whole `npm start` stack (every built service, reports and documents too) started by a
//    launcher process of its own (launcher.mjs), so its CPU is seen apart from this client's;
//  - 2,000 products, 10 cashiers, in alternating slices with the reports service running and
//    stopped (as gst-counter.bench.mjs alternates GST and simple mode): the stopped slices give
//    the counter's scope (sales, inventory, ledger, identity, gateway, MongoDB, NATS), the
//    running ones the whole stack's (every process, the launcher included), each as CPU per sale
//    and MongoDB commands per sale, and MAKE_SALE p95 running / stopped;
//  - projection lag while selling: the services' own (event occurredAt -> projected) over the
//    running slices, and a last slice with the sales register polled every 100 ms as
//    services/reports/bench/reports.bench.mjs does (the poller is load of its own, so it is kept
//    out of the slices whose CPU is counted);
//  - then 1 and 50 cashiers with reports stopped, then the catalogue grown to 50,000 products and
//    1, 10 and 50 cashiers again;
//  - a bare Node HTTP round trip at the same concurrencies (scripts/bench/load.mjs), for the ratio
//    MAKE_SALE p50 / floor p50.
// Writes its figures as JSON (argv[2]) for scripts/bench/report.mjs; budgets are judged there.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bareFloor } from '../../../scripts/bench/load.mjs';
import { registerWatcher, serviceLag } from '../../reports/bench/lag.mjs';
import { benchClient } from './client.mjs';
import { commandCounter, counterSale, cpuMs, demoManager, makeCashiers, ownCpuMs, pct, seedProducts } from './kit.mjs';
import { launchStack } from './stack-process.mjs';

const require = createRequire(import.meta.url);
const { MongoClient } = require('mongodb');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const OUT = process.argv[2] ?? path.join(ROOT, 'test-results', 'bench', 'counter.json');
const list = (v, d) => (v || d).split(',').map(Number);
const SIZES = list(process.env.BENCH_PRODUCTS, '2000,50000');
const CASHIERS = list(process.env.BENCH_CASHIERS, '1,10,50');
const SIDE_BY_SIDE = 10; // cashiers in the reports running / stopped slices
const PAIRS = Number(process.env.BENCH_PAIRS || 4);
const SLICE_SALES = Number(process.env.BENCH_SLICE_SALES || 5);
const SALES_EACH = { 1: 20, 10: 15, 50: 4 };
const WARMUP = Number(process.env.BENCH_WARMUP_SALES || 300);
const FLOOR_S = Number(process.env.BENCH_FLOOR_S || 2);
const COMPANY = 1;
/** The counter's processes (issue 33's first scope); the whole stack is every process the launcher started, and the launcher. */
const COUNTER = /^(sales|inventory|ledger|identity|gateway|mongo|nats)(-\d+)?$/;
const load = () => Number(os.loadavg()[0].toFixed(2));
const r1 = (v) => (v === null ? null : Math.round(v * 10) / 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();
const say = (m) => console.log(`[counter ${((Date.now() - t0) / 1000).toFixed(0)} s] ${m}`);

const stack = await launchStack({ env: { LOG_LEVEL: 'warn' }, restart: false });
const out = { date: new Date().toISOString(), cpus: os.cpus().length, loadStart: load(), processes: Object.keys(stack.pids()), phases: [] };
try {
  say(`stack up: ${Object.keys(stack.pids()).join(', ')}`);
  const client = benchClient(stack.gatewayUrl, { maxSockets: Math.max(...CASHIERS) + 4, gzip: true });
  const { agent, call } = client;
  const manager = await demoManager(client);
  await seedProducts(stack.mongoUri, COMPANY, 0, SIZES[0]);
  const cashiers = await makeCashiers(client, manager, Math.max(...CASHIERS, SIDE_BY_SIDE));
  say(`${SIZES[0]} products seeded, ${cashiers.length} cashiers signed in`);
  const commands = await commandCounter(stack.mongoUri);
  const mongo = await MongoClient.connect(stack.mongoUri);
  const txns = mongo.db('bahi_reports').collection('txns');
  let ownFinds = 0; // this bench's own finds on the read model (one command each), taken out of the command counts
  /** Until reports has projected each of these sales (its txns row), or `timeoutMs`. */
  async function projected(saleIds, timeoutMs = 120_000) {
    const ids = saleIds.map((id) => `sale:${COMPANY}:${id}:completed`);
    for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(100)) {
      ownFinds++;
      if ((await txns.find({ _id: { $in: ids } }, { projection: { _id: 1 }, batchSize: ids.length + 1 }).toArray()).length === ids.length) return true;
    }
    return false;
  }

  const floor = await bareFloor(CASHIERS, FLOOR_S);
  out.floor = Object.fromEntries(Object.entries(floor).map(([c, f]) => [c, { p50: f.p50, p95: f.p95, rps: r1(f.rps), load: load() }]));
  say(`floor p50: ${Object.entries(floor).map(([c, f]) => `${c} clients ${f.p50.toFixed(3)} ms`).join(', ')}`);

  let n = 0;
  /** `each` sales by each of `tokens` at once, among the first `products`; what was sold. */
  async function sell(tokens, each, products, times) {
    const made = [];
    await Promise.all(tokens.map(async (t) => {
      for (let i = 0; i < each; i++) made.push(await counterSale(call, t, n++, products, times));
    }));
    return made;
  }
  /** A measured window: each process's CPU, this client's, MongoDB's commands and the selling time over `fn`. */
  async function window(acc, fn) {
    const c0 = cpuMs(stack.pids());
    const b0 = ownCpuMs();
    const m0 = await commands.read();
    const f0 = ownFinds;
    const made = await fn();
    const c1 = cpuMs(stack.pids());
    const m1 = await commands.read();
    acc.bench = (acc.bench ?? 0) + ownCpuMs() - b0;
    for (const [k, v] of Object.entries(c1)) if (c0[k] !== undefined) acc.cpu[k] = (acc.cpu[k] ?? 0) + v - c0[k];
    for (const [k, v] of Object.entries(m1)) if (k !== 'serverStatus') acc.commands[k] = (acc.commands[k] ?? 0) + v - (m0[k] ?? 0);
    acc.commands.find = (acc.commands.find ?? 0) - (ownFinds - f0);
    acc.sales += made.length;
    return made;
  }
  const account = () => ({ sales: 0, seconds: 0, cpu: {}, commands: {}, times: { addProductIntoCart: [], MAKE_SALE: [] } });
  const lat = (xs) => ({ n: xs.length, p50: r1(pct(xs, 50)), p95: r1(pct(xs, 95)), p99: r1(pct(xs, 99)) });
  /** Per sale, rounded: a process's CPU ms (every one of the scope, even at 0: the launcher is counted) or a command's count (from `min`). */
  const perSale = (acc, obj, keep = () => true, min = 0) => Object.fromEntries(Object.entries(obj).filter(([k]) => keep(k)).map(([k, v]) => [k, Math.round((v / acc.sales) * 100) / 100]).filter(([, v]) => v >= min).sort((a, b) => b[1] - a[1]));
  const sum = (obj) => Math.round(Object.values(obj).reduce((a, v) => a + v, 0) * 10) / 10;
  function phase(products, cashiersN, reports, acc, loadStart) {
    const cpu = perSale(acc, acc.cpu, reports === 'stopped' ? (k) => COUNTER.test(k) : () => true);
    const cmds = perSale(acc, acc.commands, () => true, 0.01);
    const p = {
      products, cashiers: cashiersN, reports, sales: acc.sales, sellSeconds: r1(acc.seconds),
      salesPerSecond: r1(acc.sales / acc.seconds), addProductIntoCart: lat(acc.times.addProductIntoCart), MAKE_SALE: lat(acc.times.MAKE_SALE),
      floorRatio: out.floor[cashiersN] ? r1(pct(acc.times.MAKE_SALE, 50) / out.floor[cashiersN].p50) : null,
      scope: reports === 'stopped' ? 'counter' : 'stack', cpuPerSale: sum(cpu), cpu, benchCpuPerSale: r1(acc.bench / acc.sales), commandsPerSale: sum(cmds), commands: cmds,
      load: [loadStart, load()],
    };
    out.phases.push(p);
    say(`${products} products, ${cashiersN} cashiers, reports ${reports}: MAKE_SALE p50 ${p.MAKE_SALE.p50} / p95 ${p.MAKE_SALE.p95} ms, scan p95 ${p.addProductIntoCart.p95} ms; ${p.scope} CPU ${p.cpuPerSale} ms and ${p.commandsPerSale} commands per sale (${p.sales} sales)`);
    return p;
  }
  const timedSell = async (acc, tokens, each, products) => {
    const s = performance.now();
    const made = await sell(tokens, each, products, acc.times);
    acc.seconds += (performance.now() - s) / 1000;
    return made;
  };

  // 1. Reports beside the counter: alternating slices, after a warm-up with everything running
  // (V8 compiles each process's hot paths as they run; its threads' CPU would count otherwise).
  const ten = cashiers.slice(0, SIDE_BY_SIDE);
  const products = SIZES[0];
  const warm = await sell(ten, Math.ceil(WARMUP / ten.length), products);
  await projected(warm.map((s) => s.saleId)); // reports through the warm-up's sales before the first slice
  say(`warmed up (${warm.length} sales)`);
  const acc = { running: account(), stopped: account() };
  const loadSide = load();
  let reportsUp = true;
  let unprojected = []; // sold while reports was stopped
  for (let pair = 0; pair < PAIRS; pair++) {
    for (const mode of pair % 2 ? ['stopped', 'running'] : ['running', 'stopped']) {
      if (mode === 'running' && !reportsUp) {
        await stack.startService('reports');
        reportsUp = true;
        // Caught up with what was sold while it was down before the slice is measured (a moment
        // more for the other streams' events of the last sales).
        if (!(await projected(unprojected.map((s) => s.saleId)))) throw new Error('reports did not catch up within 2 minutes');
        unprojected = [];
        await sleep(1000);
      }
      if (mode === 'stopped' && reportsUp) {
        await stack.stopService('reports');
        reportsUp = false;
      }
      const sold = await window(acc[mode], async () => {
        const made = await timedSell(acc[mode], ten, SLICE_SALES, products);
        // Inside the window: reports' work for these sales counts in the whole stack's CPU; a
        // moment more for the last sales' relays, on both sides alike.
        if (mode === 'running' && !(await projected(made.map((s) => s.saleId), 30_000))) say('some sales of a running slice were not projected within 30 s');
        await sleep(250);
        return made;
      });
      if (mode === 'running') acc.running.made = [...(acc.running.made ?? []), ...sold];
      else unprojected.push(...sold);
    }
  }
  if (!reportsUp) {
    await stack.startService('reports');
    await projected(unprojected.map((s) => s.saleId));
  }
  const stopped = phase(products, SIDE_BY_SIDE, 'stopped', acc.stopped, loadSide);
  const running = phase(products, SIDE_BY_SIDE, 'running', acc.running, loadSide);

  // 2. Projection lag as a manager sees it: the sales register polled every 100 ms (not counted above).
  const register = registerWatcher(call, manager);
  await register.poll().catch(() => undefined);
  const stopWatch = register.watch();
  const lagSold = await sell(ten, SLICE_SALES * 2, products);
  await register.waitSeen(lagSold.map((s) => s.saleId));
  await stopWatch();
  const lags = lagSold.map((s) => (register.firstSeen.has(s.saleId) ? register.firstSeen.get(s.saleId) - s.answeredAt : null));
  const seen = lags.filter((x) => x !== null);
  const own = await serviceLag(mongo, COMPANY, acc.running.made.map((s) => s.saleId));
  out.reports = {
    cashiers: SIDE_BY_SIDE, products, pairs: PAIRS, sliceSales: SLICE_SALES * SIDE_BY_SIDE,
    running: running.MAKE_SALE, stopped: stopped.MAKE_SALE, ratio: Math.round((running.MAKE_SALE.p95 / stopped.MAKE_SALE.p95) * 1000) / 1000,
    lagMs: { n: lagSold.length, missing: lags.length - seen.length, p50: pct(seen, 50), p95: pct(seen, 95), max: pct(seen, 100) },
    pollMs: { n: register.polls.length, p50: r1(pct(register.polls, 50)), p95: r1(pct(register.polls, 95)) },
    serviceLagMs: { n: own.length, p50: pct(own, 50), p95: pct(own, 95), max: pct(own, 100) },
    load: load(),
  };
  say(`MAKE_SALE p95 with reports running / stopped: ${out.reports.ratio}x; register lag p95 ${out.reports.lagMs.p95} ms (${out.reports.lagMs.missing} never seen), the service's own p95 ${out.reports.serviceLagMs.p95} ms`);
  out.scopes = {
    counter: { ...pick(stopped), reports: 'stopped' },
    stack: { ...pick(running), reports: 'running' },
  };
  await stack.stopService('reports');

  // 3. The counter alone (reports stopped) at every size and number of cashiers.
  for (const [i, size] of SIZES.entries()) {
    if (i > 0) {
      const s = performance.now();
      await seedProducts(stack.mongoUri, COMPANY, SIZES[i - 1], size);
      say(`catalogue grown to ${size} products in ${((performance.now() - s) / 1000).toFixed(1)} s`);
      await sell(ten, 3, size); // the new products' first reads, not measured
    }
    for (const c of CASHIERS) {
      if (i === 0 && c === SIDE_BY_SIDE) continue; // measured above, in the stopped slices
      const a = account();
      const l = load();
      const tokens = cashiers.slice(0, c);
      await sell(tokens, 1, size); // each cashier's first sale at this size, not measured
      await window(a, () => timedSell(a, tokens, SALES_EACH[c] ?? 10, size));
      phase(size, c, 'stopped', a, l);
    }
  }
  await commands.close();
  await mongo.close();
  agent.destroy();
} finally {
  out.loadEnd = load();
  out.seconds = Math.round((Date.now() - t0) / 1000);
  await stack.stop().catch((err) => console.error(err));
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify(out, null, 2));
  say(`figures in ${path.relative(ROOT, OUT)}`);
}

/** A phase's cost figures, for the scopes. */
function pick(p) {
  return { products: p.products, cashiers: p.cashiers, sales: p.sales, cpuPerSale: p.cpuPerSale, cpu: p.cpu, commandsPerSale: p.commandsPerSale, commands: p.commands, benchCpuPerSale: p.benchCpuPerSale, load: p.load };
}
