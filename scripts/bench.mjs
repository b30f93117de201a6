// `npm run bench`: the whole benchmark suite on this machine, one command, then docs/benchmarks.md.
//  1. every workspace's own `bench` script through turbo (embedded MongoDB, inventory, documents, ...),
//  2. the sales counter (services/sales/bench/counter-matrix.bench.mjs): issue 33's figures in one
//     run on the whole stack (the counter's and the whole stack's CPU and MongoDB commands per sale,
//     1, 10 and 50 cashiers at 2,000 and 50,000 products, reports running / stopped, projection lag,
//     the ratio to a bare HTTP round trip), then GST mode beside simple mode (gst-counter.bench.mjs),
//  3. scripts/bench/suite.mjs: HTTP floor, gateway vs direct, lists at 1,000 and 100,000 documents,
//  4. scripts/bench/first-load.mjs: the cart screen's first load in headless Chromium,
//  5. scripts/bench/report.mjs: writes docs/benchmarks.md from the figures of this run.
//  6. services/reports/bench/reports.bench.mjs: every report at 100,000 sales through the gateway,
//     projection lag while 10 cashiers sell, the dashboard's first paint.
// `npm run bench -- --only=suite,first-load` runs some steps (workspaces, counter, gst, gstr1, imports, suite, first-load, reports);
// the report always uses the latest figures of every step under test-results/bench/.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrap, ROOT, say, toolEnv } from './bootstrap.mjs';

const OUT = path.join(ROOT, 'test-results', 'bench');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const want = (step) => !only || only.includes(step);
const env = { ...process.env, ...toolEnv(), TURBO_TELEMETRY_DISABLED: '1' };

const load = () => Number(os.loadavg()[0].toFixed(2));
const stepsFile = path.join(OUT, 'steps.json');

/** Runs a command, echoing its output and keeping it in `log`; notes the load average around it. */
function run(cmd, args, log, extraEnv = {}) {
  const loadStart = load();
  const t0 = Date.now();
  return new Promise((resolve) => {
    fs.mkdirSync(OUT, { recursive: true }); // test-results/ may be cleared by other work meanwhile
    const out = fs.createWriteStream(path.join(OUT, log));
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...env, ...extraEnv } });
    for (const s of [child.stdout, child.stderr]) {
      s.on('data', (d) => {
        process.stdout.write(d);
        out.write(d);
      });
    }
    child.on('close', (code) => {
      out.end();
      if (code) say(`${log}: exited with ${code} (its figures are missing from the report)`);
      const steps = fs.existsSync(stepsFile) ? JSON.parse(fs.readFileSync(stepsFile, 'utf8')) : {};
      steps[log] = { loadStart, loadEnd: load(), seconds: Math.round((Date.now() - t0) / 1000), code, date: new Date().toISOString() };
      fs.writeFileSync(stepsFile, JSON.stringify(steps, null, 2));
      resolve(code);
    });
  });
}

bootstrap({ browser: true });
fs.mkdirSync(OUT, { recursive: true });
if (want('workspaces')) {
  say('Workspace benchmarks…');
  // The sales counter runs below with several cashier counts instead of its default.
  await run(path.join(ROOT, 'node_modules', '.bin', 'turbo'), ['run', 'bench', '--concurrency=1', '--output-logs=full', '--filter=!@bahi/sales'], 'workspaces.log');
}
const counter = path.join(ROOT, 'services', 'sales', 'bench', 'counter-matrix.bench.mjs');
if (want('counter') && fs.existsSync(counter)) {
  say('The counter: both scopes, 1/10/50 cashiers at 2,000 and 50,000 products, reports beside…');
  fs.rmSync(path.join(OUT, 'counter.json'), { force: true }); // a failed run shows as no figures, not the last run's
  await run(process.execPath, [counter, path.join(OUT, 'counter.json')], 'counter.log');
}
const gstCounter = path.join(ROOT, 'services', 'sales', 'bench', 'gst-counter.bench.mjs');
if (want('gst') && fs.existsSync(gstCounter)) {
  say('Counter in GST mode beside simple mode…');
  await run(process.execPath, [gstCounter], 'gst-counter.log');
}
const gstr1Bench = path.join(ROOT, 'services', 'sales', 'bench', 'gstr1.bench.mjs');
if (want('gstr1') && fs.existsSync(gstr1Bench)) {
  say('GSTR-1 of a month of 100,000 invoices…');
  await run(process.execPath, [gstr1Bench, path.join(OUT, 'gstr1.json')], 'gstr1.log');
}
const importBench = path.join(ROOT, 'services', 'inventory', 'bench', 'import.bench.mjs');
if (want('imports') && fs.existsSync(importBench)) {
  say('Import of 20,000 products from a CSV…');
  await run(process.execPath, [importBench, path.join(OUT, 'imports.json')], 'imports.log');
}
if (want('suite')) {
  say('Gateway, floor and lists at scale…');
  await run(process.execPath, ['scripts/bench/suite.mjs', path.join(OUT, 'suite.json')], 'suite.log');
}
const reportsBench = path.join(ROOT, 'services', 'reports', 'bench', 'reports.bench.mjs');
if (want('reports') && fs.existsSync(reportsBench)) {
  say('Reports at 100,000 sales, projection lag, dashboard first paint…');
  await run(process.execPath, ['--max-old-space-size=3072', reportsBench, path.join(OUT, 'reports.json')], 'reports.log');
}
if (want('first-load')) {
  say('First load of the cart screen…');
  await run(process.execPath, ['scripts/bench/first-load.mjs', path.join(OUT, 'first-load.json')], 'first-load.log');
}
await run(process.execPath, ['scripts/bench/report.mjs', OUT], 'report.log');
