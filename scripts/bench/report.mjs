// Writes docs/benchmarks.md from the figures under test-results/bench/ (argv[2]) and the
// baseline measured before the fixes (scripts/bench/baseline.json).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const DIR = process.argv[2] ?? path.join(ROOT, 'test-results', 'bench');
const read = (f) => (fs.existsSync(path.join(DIR, f)) ? fs.readFileSync(path.join(DIR, f), 'utf8') : null);
const json = (f) => (read(f) ? JSON.parse(read(f)) : null);
const steps = json('steps.json') ?? {};
const suite = json('suite.json');
const first = json('first-load.json');
const baseline = JSON.parse(fs.readFileSync(path.join(HERE, 'baseline.json'), 'utf8'));

const ms = (v) => (v === undefined || v === null ? '—' : v < 10 ? `${v.toFixed(2)} ms` : `${v.toFixed(0)} ms`);
const x = (v) => `${v.toFixed(2)}x`;
const verdict = (ok) => (ok === null ? '—' : ok ? 'pass' : '**FAIL**');
const loadOf = (step) => (steps[step] ? `${steps[step].loadStart}→${steps[step].loadEnd}` : '—');
/** When the steps ran: one run, or the latest of each step when \`--only\` reran some. */
function span() {
  const utc = (t) => new Date(t).toISOString().slice(0, 16).replace('T', ' ');
  // The report's own step is this one (its entry is the previous report's).
  const measured = Object.entries(steps).filter(([name]) => name !== 'report.log').map(([, st]) => st);
  const ends = measured.map((st) => ({ end: Date.parse(st.date), start: Date.parse(st.date) - st.seconds * 1000 }));
  if (!ends.length) return `written ${utc(Date.now())} UTC`;
  const start = Math.min(...ends.map((e) => e.start));
  const end = Math.max(...ends.map((e) => e.end));
  const total = ends.reduce((a, e) => a + (e.end - e.start), 0);
  const minutes = `${Math.round(total / 60_000)} minutes of steps`;
  // Steps of one run follow each other; a gap means some were rerun later with --only.
  return end - start <= total + 5 * 60_000
    ? `one run, ${utc(start)} to ${utc(end)} UTC (${minutes})`
    : `the latest run of each step, between ${utc(start)} and ${utc(end)} UTC (${minutes}; \`--only\` reran some)`;
}
const rows = [];
/** The step whose rows are being written (rows of a step with no figures this time are kept from the page, below). */
let step = null;
const row = (area, figure, value, budget = '—', ok = null, load = '—') => rows.push({ step, area, line: `| ${area} | ${figure} | ${value} | ${budget} | ${verdict(ok)} | ${load} |` });
const n0 = (v) => v.toLocaleString('en-US');

// 1. the counter, issue 33's figures side by side in one run (services/sales/bench/counter-matrix.bench.mjs)
step = 'counter';
const counter = json('counter.json');
if (counter?.phases?.length) {
  const cload = (p) => (Array.isArray(p.load) ? `${p.load[0]}→${p.load[1]}` : String(p.load));
  const list = (o, unit = '', digits = null) => Object.entries(o).map(([k, v]) => `${k} ${digits === null ? v : v.toFixed(digits)}${unit}`).join(', ');
  // The two scopes: the counter (reports stopped; its seven processes) and the whole npm start stack (reports running).
  for (const [key, label, cpuBudget, cmdBudget] of [
    ['counter', 'counter (sales, inventory, ledger, identity, gateway, MongoDB, NATS; reports stopped)', 15, 18],
    ['stack', 'whole `npm start` stack (every service, reports consuming, documents idle, the launcher)', 20, 24],
  ]) {
    const sc = counter.scopes?.[key];
    if (!sc) {
      row('counter', `${label}: CPU and MongoDB commands per sale`, 'no figure (see test-results/bench/counter.log)', `≤ ${cpuBudget} ms, ≤ ${cmdBudget}`, false);
      continue;
    }
    const at = `${sc.cashiers} cashiers, ${n0(sc.products)} products, n=${sc.sales}`;
    row('counter', `CPU per sale (3 scans + MAKE_SALE), ${label}, ${at}`, `**${sc.cpuPerSale} ms**: ${list(sc.cpu, ' ms', 1)}`, `≤ ${cpuBudget} ms`, sc.cpuPerSale <= cpuBudget, cload(sc));
    row('counter', `MongoDB commands per sale, ${label}, ${at}`, `**${sc.commandsPerSale}**: ${list(sc.commands)}`, `≤ ${cmdBudget}`, sc.commandsPerSale <= cmdBudget, cload(sc));
  }
  if (counter.scopes?.counter) row('counter', 'the bench client\'s own CPU per sale (apart from both scopes)', `${counter.scopes.counter.benchCpuPerSale} ms`, '—', null, cload(counter.scopes.counter));
  // Latencies at each size and number of cashiers, the counter alone (reports stopped).
  const budgets = { addProductIntoCart: { 10: 20 }, MAKE_SALE: { 10: 80, 50: 250 } };
  for (const p of counter.phases.filter((ph) => ph.reports === 'stopped').sort((a, b) => a.products - b.products || a.cashiers - b.cashiers)) {
    const at = `${p.cashiers} cashier${p.cashiers > 1 ? 's' : ''}, ${n0(p.products)} products`;
    for (const name of ['addProductIntoCart', 'MAKE_SALE']) {
      const l = p[name];
      const b = budgets[name][p.cashiers];
      row('counter', `${name} via gateway, ${at} (n=${l.n})`, `p50 ${l.p50} / p95 ${l.p95} / p99 ${l.p99} ms`, b ? `p95 ≤ ${b} ms` : '—', b ? l.p95 <= b : null, cload(p));
    }
    const f = counter.floor?.[p.cashiers];
    if (p.floorRatio !== null && f) row('counter', `MAKE_SALE p50 / bare Node HTTP round trip p50, ${at} (floor ${f.p50.toFixed(3)} ms at ${p.cashiers} client${p.cashiers > 1 ? 's' : ''}, same run)`, `${p.floorRatio}x`, '—', null, cload(p));
    row('counter', `throughput; CPU and commands per sale (counter scope), ${at}`, `${p.salesPerSecond} sales/s; ${p.cpuPerSale} ms (${list(p.cpu, '', 1)}); ${p.commandsPerSale} commands (${list(p.commands)})`, '—', null, cload(p));
  }
  // Reports beside the counter (alternating slices of one run) and the projection lag while selling.
  const r = counter.reports;
  if (r) {
    row('counter', `MAKE_SALE p95 with reports running / stopped (${r.pairs * 2} alternating slices of ${r.sliceSales} sales, ${r.cashiers} cashiers, ${n0(r.products)} products)`, `**${r.ratio}x**: p95 ${r.running.p95} ms (n=${r.running.n}) / ${r.stopped.p95} ms (n=${r.stopped.n})`, '≤ 1.2x', r.ratio <= 1.2, String(r.load));
    row('counter', `projection lag while selling, MAKE_SALE answered → seen in the sales register (polled every 100 ms; n=${r.lagMs.n}, ${r.lagMs.missing} never seen)`, `p50 ${ms(r.lagMs.p50)} / p95 ${ms(r.lagMs.p95)} / max ${ms(r.lagMs.max)}`, 'p95 < 1000 ms', r.lagMs.missing === 0 && r.lagMs.p95 !== null && r.lagMs.p95 < 1000, String(r.load));
    row('counter', `projection lag, the service's own (event occurredAt → projected) over the running slices (n=${r.serviceLagMs.n})`, `p50 ${ms(r.serviceLagMs.p50)} / p95 ${ms(r.serviceLagMs.p95)} / max ${ms(r.serviceLagMs.max)}`, '—', null, String(r.load));
  } else row('counter', 'MAKE_SALE p95 with reports running / stopped; projection lag', 'no figure (see test-results/bench/counter.log)', '≤ 1.2x; p95 < 1000 ms', false);
} else row('counter', 'services/sales/bench/counter-matrix.bench.mjs', 'not run');

// 1b. GST mode beside simple mode (services/sales/bench/gst-counter.bench.mjs)
step = 'gst';
const gstLog = read('gst-counter.log');
if (gstLog) {
  for (const m of gstLog.matchAll(/\| (simple|gst) \| (\w+) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|/g)) {
    row('gst', `${m[2]}, ${m[1]} mode, 10 cashiers each (n=${m[3]})`, `p50 ${m[4]} / p95 ${m[5]} / p99 ${m[6]} ms`, '—', null, loadOf('gst-counter.log'));
  }
  const cpu = gstLog.match(/CPU per sale of the stack: (.*)/);
  if (cpu) row('gst', 'CPU per sale of the stack', cpu[1], '—', null, loadOf('gst-counter.log'));
  const r = gstLog.match(/GST\/simple MAKE_SALE p95: ([\d.]+)/);
  row('gst', 'MAKE_SALE p95, GST mode / simple mode (alternating slices of one run)', r ? `${r[1]}x` : 'no figure (see test-results/bench/gst-counter.log)', '≤ 1.10x', r ? Number(r[1]) <= 1.1 : false, loadOf('gst-counter.log'));
} else row('gst', 'services/sales/bench/gst-counter.bench.mjs', 'not run');

step = 'gstr1';
// 1c. GSTR-1 of a month of 100,000 invoices through the gateway (services/sales/bench/gstr1.bench.mjs)
const gstr1 = json('gstr1.json');
if (gstr1) {
  for (const r of gstr1.rows) row('gstr1', `GET /gst/gstr1, ${r.label}`, `${r.seconds} s, ${r.mib} MiB; sales RSS ${r.rss_before_mib} → peak ${r.rss_peak_mib} MiB (+${r.rss_growth_mib})`, '—', null, loadOf('gstr1.log'));
  row('gstr1', `GSTR-1 of ${gstr1.invoices} invoices, slowest call`, `${gstr1.worst_s} s`, `< ${gstr1.budget_s} s`, gstr1.pass, loadOf('gstr1.log'));
} else row('gstr1', 'services/sales/bench/gstr1.bench.mjs', 'not run');

step = 'imports';
// 1d. Import of 20,000 products from one CSV through the gateway (services/inventory/bench/import.bench.mjs)
const imports = json('imports.json');
if (imports?.runs?.length) {
  for (const r of imports.runs) {
    row('imports', `${imports.rows} products, ${r.label}`, `upload ${r.upload_s} s + validate ${r.validate_s} s + run ${r.run_s} s = ${r.total_s} s; inventory RSS ${r.rss_before_mib} → peak ${r.rss_peak_mib} → ${r.rss_after_mib} MiB`, '—', null, loadOf('imports.log'));
  }
  row('imports', `Import of ${imports.rows} products, slowest (upload to done)`, `${imports.worst_s} s`, `< ${imports.budget_s} s`, imports.pass, loadOf('imports.log'));
} else row('imports', 'services/inventory/bench/import.bench.mjs', 'not run');

// 2. gateway, direct call and the floor; 3. lists at scale
step = 'suite';
if (suite) {
  for (const f of suite.figures) {
    if (f.section === 'floor' || (f.section === 'gateway' && f.p50 !== undefined)) {
      row(f.section, f.name, `p50 ${ms(f.p50)} / p95 ${ms(f.p95)} / p99 ${ms(f.p99)}, ${f.rps.toFixed(0)} req/s${f.errors ? `, ${f.errors} errors` : ''}`, '—', null, String(f.load));
    } else if (f.section === 'gateway') {
      row('gateway', f.name, x(f.ratio), f.budget ? `≤ ${f.budget}x` : '—', f.budget ? f.ratio <= f.budget : null, String(f.load));
    } else if (f.section === 'lists') {
      row('lists', `${f.name}: 1,000 → ${suite.big.toLocaleString('en-US')} docs`, `${ms(f.small)} → ${ms(f.big)} = ${x(f.ratio)}`, `≤ ${f.budget}x`, f.ratio <= f.budget, String(f.load));
    } else if (f.section === 'seed') {
      row('lists', f.name, `${f.seconds.toFixed(0)} s`, '—', null, String(f.load));
    }
  }
} else row('gateway/lists', 'scripts/bench/suite.mjs', 'not run');

// 4. PDFs and 6. embedded MongoDB, from the workspace benchmarks' own output
step = 'workspaces';
const ws = read('workspaces.log') ?? '';
const wsLines = (pkg) =>
  ws
    .split('\n')
    .filter((l) => l.startsWith(`${pkg}:bench: `))
    .map((l) => l.slice(pkg.length + 8));
const docs = wsLines('@bahi/documents');
const wsLoad = loadOf('workspaces.log');
const pick = (re) => docs.find((l) => re.test(l));
const cold = pick(/^cold bill/);
const warm = pick(/^warm bill/);
const conc = pick(/^10 concurrent/);
if (cold) row('pdf', 'cold bill (browser launch + first render)', cold.split(': ')[1], '—', null, wsLoad);
if (warm) {
  const p50 = Number(warm.match(/p50 (\d+) ms/)?.[1]);
  row('pdf', 'warm bill, 100 sequential', warm.split(': ')[1], 'p50 ≤ 150 ms', p50 <= 150, wsLoad);
}
if (conc) row('pdf', '10 concurrent bills', conc.split(': ')[1], '—', null, wsLoad);
const gstWarm = pick(/^warm GST tax invoice/);
if (gstWarm) row('pdf', gstWarm.split(': ')[0], gstWarm.split(': ').slice(1).join(': '), '—', null, wsLoad);
const gstRatio = pick(/^warm invoice PDF p50, GST\/simple/);
if (gstRatio) {
  const r = Number(gstRatio.match(/([\d.]+)x/)?.[1]);
  row('pdf', 'warm invoice PDF p50, GST tax invoice (A4) / simple bill (A5), alternating in one run', `${r}x`, '≤ 1.10x', r <= 1.1, wsLoad);
}
const mem = docs.filter((l) => /^\s+\d+: node rss/.test(l)).map((l) => l.trim());
if (mem.length) row('pdf', 'memory over 500 renders', mem.join('<br>'), '—', null, wsLoad);
if (!warm) row('pdf', 'bill renders', 'no figure (see test-results/bench/workspaces.log)');

// 5. first load
step = 'first-load';
if (first) {
  const kb = first.jsKB + first.cssKB;
  row('first load', `cart screen JS + CSS transferred (gzip; ${first.files.length} files: shell + sales remote + shared)`, `${kb.toFixed(0)} KB (JS ${first.jsKB.toFixed(0)}, CSS ${first.cssKB.toFixed(0)})`, '≤ 300 KB', kb <= 300, String(first.load));
  row('first load', `cart screen until the product entry accepts input (median of ${first.runs.length} cold loads)`, ms(first.readyMs), '≤ 1500 ms', first.readyMs <= 1500, first.runs.map((r) => r.load).join(', '));
} else row('first load', 'scripts/bench/first-load.mjs', 'not run');

// 7. reports (services/reports/bench/reports.bench.mjs)
step = 'reports';
const reports = json('reports.json');
if (reports?.scale) {
  const sc = reports.scale;
  for (const r of sc.rows) row('reports', `${r.label} via gateway, ${sc.sales.toLocaleString('en-US')} sales (n=${r.n})`, `p50 ${ms(r.p50)} / p95 ${ms(r.p95)}`, 'p95 < 200 ms', r.p95 < 200, String(r.load));
  row('reports', `seeded from ${sc.seeded.events.toLocaleString('en-US')} events (fold checked against the projector on ${sc.check.documents} documents)`, `${sc.seeded.documents.toLocaleString('en-US')} documents, fold ${sc.seeded.foldS} s + writes ${sc.seeded.writeS} s`, '—', null, loadOf('reports.log'));
} else row('reports', 'services/reports/bench/reports.bench.mjs (scale)', 'not run');
if (reports?.lag) {
  const l = reports.lag;
  row('reports', `projection lag, MAKE_SALE answered → seen in the sales register (polled every 100 ms), ${l.cashiers} cashiers (n=${l.sales}, ${l.missing} never seen)`, `p50 ${ms(l.lagMs.p50)} / p95 ${ms(l.lagMs.p95)} / max ${ms(l.lagMs.max)}`, 'p95 < 1000 ms', l.pass, String(l.load));
  row('reports', 'projection lag, the service\'s own (event occurredAt → projected)', `p50 ${ms(l.serviceLagMs.p50)} / p95 ${ms(l.serviceLagMs.p95)} / max ${ms(l.serviceLagMs.max)}`, '—', null, String(l.load));
  row('reports', `MAKE_SALE with reports running / stopped (alternating slices, ${l.cashiers} cashiers)`, `p95 ${ms(l.saleRunning.p95)} (n=${l.saleRunning.n}) / ${ms(l.saleStopped.p95)} (n=${l.saleStopped.n})`, '—', null, String(l.load));
} else row('reports', 'services/reports/bench/reports.bench.mjs (lag)', 'not run');
if (reports?.paint) {
  const p = reports.paint;
  row('reports', `dashboard cold: first contentful paint (median of ${p.runs}; worst ${ms(p.fcpWorst)})`, `first paint ${ms(p.firstPaint)}, FCP ${ms(p.fcp)}, cards with figures ${ms(p.cards)}`, 'FCP < 1500 ms', p.pass, String(p.load));
} else row('reports', 'services/reports/bench/reports.bench.mjs (paint)', 'not run');

step = 'workspaces-mongo';
if (!ws) row('embedded MongoDB', 'turbo run bench (embedded MongoDB, inventory)', 'not run');
const mongo = wsLines('@bahi/embedded-mongo').filter((l) => /^\s{2}\S/.test(l));
for (const l of mongo) {
  const m = l.trim().match(/^(.*?)\s{2,}(\S+)$/);
  if (m) row('embedded MongoDB', m[1], m[2], '—', null, loadOf('workspaces.log'));
}
const inv = wsLines('@bahi/inventory').filter((l) => l.startsWith('| ') && !l.startsWith('| call'));
for (const l of inv) {
  const c = l.split('|').map((s) => s.trim());
  row('inventory', `${c[1]} (200 → 20,000 products, median)`, `${c[2]} → ${c[3]} ms = ${c[4]}`, '≤ 2x', Number(c[4].replace('x', '')) <= 2, loadOf('workspaces.log'));
}

const before = baseline.figures
  .map((b) => {
    const now = suite?.figures.find((f) => f.section === b.section && f.name === b.name);
    const show = (f) => (f.ratio !== undefined && f.small !== undefined ? `${ms(f.small)} → ${ms(f.big)} = ${x(f.ratio)}` : f.ratio !== undefined ? x(f.ratio) : `p50 ${ms(f.p50)}`);
    return `| ${b.name} | ${show(b)} (load ${b.load}) | ${now ? `${show(now)} (load ${now.load})` : '—'} |`;
  })
  .join('\n');

// A step with no figures under test-results/bench this time (not in this `--only`) keeps its rows
// from the page as it is, so rerunning one step does not blank the others.
const STEP_AREAS = {
  counter: ['counter'], gst: ['gst'], gstr1: ['gstr1'], imports: ['imports'], suite: ['floor', 'gateway', 'lists'], workspaces: ['pdf'],
  'workspaces-mongo': ['embedded MongoDB', 'inventory'], 'first-load': ['first load'], reports: ['reports'],
};
const ran = {
  counter: Boolean(counter?.phases?.length), gst: Boolean(gstLog), gstr1: Boolean(gstr1), imports: Boolean(imports?.runs?.length), suite: Boolean(suite),
  workspaces: Boolean(ws), 'workspaces-mongo': Boolean(ws), 'first-load': Boolean(first), reports: Boolean(reports),
};
const DOC = path.join(ROOT, 'docs', 'benchmarks.md');
const page = fs.existsSync(DOC) ? fs.readFileSync(DOC, 'utf8') : null;
// The figure table's rows: from its header to the first line that is not a row.
const pageLines = (page ?? '').split('\n');
const tableStart = pageLines.findIndex((l) => l.startsWith('| area |'));
const oldRows = [];
for (let i = tableStart + 2; tableStart >= 0 && pageLines[i]?.startsWith('| '); i++) oldRows.push({ area: pageLines[i].split(' | ')[0].slice(2), line: pageLines[i] });
const kept = [];
const table = [];
for (const r of rows) {
  if (ran[r.step] !== false) table.push(r.line);
  else if (!kept.includes(r.step)) {
    const old = oldRows.filter((o) => STEP_AREAS[r.step].includes(o.area));
    kept.push(r.step);
    // A page whose table has no rows of that step (its figures live in a section of their own) gets none.
    table.push(...(page ? old.map((o) => o.line) : [r.line]));
  }
}
// When each step's rows were measured, kept on the page in a comment under the table, so rows kept
// from an earlier run still say when they were taken.
const STEP_LOGS = { counter: 'counter.log', gst: 'gst-counter.log', gstr1: 'gstr1.log', imports: 'imports.log', suite: 'suite.log', workspaces: 'workspaces.log', 'first-load': 'first-load.log', reports: 'reports.log' };
const RECORD = /<!-- bench-steps: (.*) -->/;
const oldRecord = JSON.parse(page?.match(RECORD)?.[1] ?? '{}');
// A page from before this record: its own line says when its rows were taken.
const oldLine = page?.match(/^Figures of `npm run bench` on [^:]*: (.*)$/m)?.[1]?.replace(/\.$/, '');
const when = {};
for (const [st, log] of Object.entries(STEP_LOGS)) {
  const e = steps[log];
  const utc = (t) => new Date(t).toISOString().slice(0, 16).replace('T', ' ');
  if (ran[st] && e) when[st] = `${utc(Date.parse(e.date) - e.seconds * 1000)}–${utc(e.date).slice(11)} UTC`;
  else if (!ran[st] && (oldRecord[st] || oldLine)) when[st] = oldRecord[st] ?? `as the page before said (${oldLine})`;
}
const keptSteps = kept.filter((k) => k !== 'workspaces-mongo');
const byWhen = new Map();
for (const st of keptSteps) byWhen.set(when[st] ?? 'earlier', [...(byWhen.get(when[st] ?? 'earlier') ?? []), st]);
const keptNote = keptSteps.length && page ? ` Kept from earlier runs (not rerun this time): ${[...byWhen].map(([w, sts]) => `${sts.join(', ')} ${w}`).join('; ')}.` : '';

const top = `# Benchmarks

Figures of \`npm run bench\` on ${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}: ${span()}.${keptNote}
The machine is shared with other builds and test runs: every figure carries the 1-minute load
average (\`os.loadavg()\`) when it was taken (\`a→b\`: at the start and end of that step). On 2 CPUs
a load of 10 means each process gets about a fifth of a CPU, so latencies are several times what
an idle machine gives; ratios measured side by side in one step are the steadier figures.
Budgets are checked here, never in tests.

| area | figure | value | budget | result | load |
|---|---|---|---|---|---|
${table.join('\n')}

<!-- bench-steps: ${JSON.stringify(when)} -->
`;

const commands = `\`\`\`sh
npm run bench                          # everything, then this page
npm run bench -- --only=counter        # some steps: workspaces, counter, gst, gstr1, imports, suite, reports, first-load
node scripts/bench/report.mjs          # this page again from the figures under test-results/bench/
\`\`\``;

const counterBullet = `- **Counter** (issue 33's figures side by side, one run of about 5 minutes on an idle machine):
  \`services/sales/bench/counter-matrix.bench.mjs\` starts the whole \`npm start\` stack (every built
  service, reports and documents too) in a launcher process of its own
  (\`services/sales/bench/launcher.mjs\`, devstack's \`startStack\` without restarts, so the bench can stop
  reports), seeds the demo company with 2,000 products and signs in 50 cashiers. After about 300
  sales of warm-up (not measured: V8 compiles each process's hot paths as they run), 10 cashiers
  sell in alternating slices with reports running and stopped (${counter?.reports?.pairs * 2 || 8} slices of
  ${counter?.reports?.sliceSales || 50} sales): each cashier scans 3 products (a barcode, then typed ids) and sells to the walk-in
  with no pause between calls. The stopped slices give the **counter** scope (the CPU time, from
  \`/proc\`, of sales, inventory, ledger, identity, gateway, MongoDB and NATS), the running ones the
  **whole stack** (every process, the launcher included; a process's own children too); both
  with MongoDB's \`metrics.commands\` per sale (\`serverStatus\`; the bench's own reads left out).
  A running slice's window closes once reports has projected its sales, so their projection is
  counted. The bench client's CPU is shown apart. Then a slice with the sales register polled
  every 100 ms as the reports bench does (projection lag from MAKE_SALE's answer to the register),
  and 1 and 50 cashiers with reports stopped; then the catalogue grows to 50,000 products and
  1, 10 and 50 cashiers sell again. A bare \`node:http\` server answering a constant is loaded
  from the bench at 1, 10 and 50 clients in the same run (\`scripts/bench/load.mjs\`, as the suite's
  floor) for the ratio MAKE_SALE p50 / floor p50 at the same concurrency. The machine is
  saturated from 10 cashiers on, so latency there is mostly waiting for CPU.
  \`services/sales/bench/counter.bench.mjs\` remains for one configuration at a time
  (\`BENCH_PRODUCTS\`, \`BENCH_CASHIERS\`, \`BENCH_SALES\`; the counter's four services only), e.g. with
  \`BAHI_MONGO_TRACE=<file>\` to list one sale's commands.`;

const md = `${top}
## How to reproduce

${commands}

- **Workspaces**: \`turbo run bench\` in every workspace but sales (embedded MongoDB, inventory, documents);
  their own READMEs explain each. The PDF memory figures are taken after a full garbage
  collection (\`--expose-gc\`): without it the heap read 64 -> 115 MiB over 500 renders, garbage
  waiting for the next major collection; after it, it holds flat (about 32 MiB).
${counterBullet}
- **GST mode beside simple mode**: \`services/sales/bench/gst-counter.bench.mjs\`: one stack, the demo
  company in simple mode and a second company in GST mode (a GSTIN, the same 5,000 products at
  18 % with an HSN code), 10 cashiers each selling 3-scan sales to the walk-in; the two companies
  sell in alternating slices (never at once) after a warm-up, and latencies, CPU per process
  and MongoDB commands are pooled per mode. The ratio of the two MAKE_SALE p95s is the budget.
  The warm invoice PDF is compared the same way in documents' bench (150 renders of each,
  alternating).
- **GSTR-1**: \`services/sales/bench/gstr1.bench.mjs\`: 100,000 tax invoices of one month (and
  10,000 of another) written into sales' database as checkout freezes them, then
  \`GET /gst/gstr1\` through the gateway, timed to the last byte, while the sales process's
  resident memory is sampled (streamed: it should not follow the month's size).
- **Imports**: \`services/inventory/bench/import.bench.mjs\`: one CSV of 20,000 products (12
  categories, half new; unique barcodes; opening stock on 6 rows in 7) through the gateway as the
  import screen sends it: upload, validate, run (valid rows), polling the status until done; then
  the same file again, every row an update by barcode. Inventory's resident memory is sampled
  every 50 ms; the rows are stored and written 1,000 a transaction, so it should not follow the
  file's size.
- **Gateway, floor, lists**: \`scripts/bench/suite.mjs\`. The floor is a bare \`node:http\` server
  answering a constant; gateway and direct figures call \`getProductDetails\` (an indexed read in
  inventory) through the gateway and straight at inventory's port with the same token. The load
  is a closed loop written in the suite (N clients, each sending its next request when the last
  answered, keep-alive, ${suite?.seconds ?? 4} s per figure), not autocannon. A gateway figure and
  its direct figure are taken side by side: four alternating slices of each, pooled, so whatever
  else the machine does in that step falls on both.
- **Lists**: two companies, one with 1,000 and one with ${(suite?.big ?? 100000).toLocaleString('en-US')} products,
  customers, sales and account entries, written with the driver straight into each service's
  database in the services' own document shapes (creating 100,000 sales through MAKE_SALE would
  take hours here). Median of ${suite?.runs ?? 25} calls through the gateway. Pages measured: the first page and
  page 5 (rows 51-60); a deep page is O(skip) on any MongoDB. getAllClientsHistory reads one
  customer holding 30 entries in both companies (the other entries belong to other customers).
- **First load**: \`scripts/bench/first-load.mjs\`, a fresh Chromium context per run (empty
  cache), signed in as the demo manager, opening \`/\` (the cart screen); transfer sizes are the
  encoded (gzip) bytes of every script and stylesheet response, from the DevTools protocol.

## What was fixed

Before: ${baseline.note}

Compare the absolute 100,000-document times too: the 1,000-document side is a few milliseconds
and moves with the load, so a ratio can look worse while the large side got several times faster.

| figure | before | after (this run) |
|---|---|---|
${before}

- **embedded MongoDB, sorted pages** (\`packages/embedded-mongo\`): a find (or an aggregate's leading
  \`$match\` + \`$sort\` + \`$skip\`/\`$limit\`) whose sort keys follow the filter's equality fields in
  an index now walks that index in order and stops after skip + limit matches, instead of
  materialising every match and sorting it. Each plannable index keeps its entries in key order
  in chunks of 512, so a write moves a few hundred slots. Ties come in natural order, exactly as
  the in-memory stable sort gives them; documents holding arrays in an indexed field, open
  transactions, collations and a more selective equality index keep the old path.
  \`test/ordered.test.ts\` runs each query on an indexed and an unindexed collection through the
  driver and compares (ascending, descending, ties, type brackets, missing fields, compound
  keys, skip/limit, after updates and deletes).
- **embedded MongoDB, counts**: \`countDocuments\` (\`$match\` + \`$group {_id: 1, n: {$sum: 1}}\`) and
  \`count\` with a filter of plain equalities that an index covers exactly read the index's
  bucket size; other filters are tested on the index candidates without sorting them first.
- **embedded MongoDB, planner**: an equality on several leading fields of a compound index
  (\`{ companyId, partyKind, partyId: { $in: [...] } }\` on \`{ companyId, partyKind, partyId, seq }\`)
  now narrows through the ordered index instead of taking every document of the company from the
  first field; candidate sets are sized before one is copied (with five \`{ companyId, ... }\`
  indexes the planner used to copy the whole company five times per query). This is what
  made the customer list (dues of the 10 customers on the page) and a customer's history flat.
- **ledger**: an index \`{ companyId, walkIn }\` on customers, so the customer list's count
  (\`{ companyId, walkIn: false }\`, every page) is read from the index.
- **gateway**: the proxy to the services had no agent, so http-proxy opened and closed a TCP
  connection per call (\`Connection: close\`); it now keeps connections alive.
- **inventory, getProductList totals**: every call summed stock and value over all matching
  products. Running totals per (category, brand, level, active) bucket, kept in the same
  transaction as every stock movement and product change, answer any filter from a few records.
- **sales list and leading-field counts**: an index \`{ companyId, status, saleId }\` on sales, and
  the embedded server counts equalities on an index's leading fields with two binary searches in
  the ordered index instead of reading every match (100,000 sales: 98 ms -> 0.6 ms per count).

- **the counter, first round** (measured the same way before it: 72 ms of CPU and 46 MongoDB
  commands per sale of 3 scans, scan p95 95-108 ms and MAKE_SALE p95 390-850 ms at 10 cashiers;
  at 50 cashiers sales failed with 504s; after it: 46 ms, 30 commands, p95 72 ms and 254 ms):
  - \`@bahi/auth\` made a new key object from the JWT secret on every sign and verify: a third of
    the gateway's CPU and a tenth of each service's. The key is now made once.
  - The embedded server copied mingo's whole operator table for every update (and its garbage was
    a fifth of its CPU); plain \`$set\`/\`$unset\` updates are applied directly. An update no longer
    rewrites the index entries of fields it did not change.
  - A stock change wrote the running totals line by line, took a movement number per line and
    counted the products first: 15 commands for a 3-line sale, now 7 (products, one insert of the
    movements, one bulk write of the totals last, so they are held briefly). At most two stock
    transactions ran at once per inventory process (one now, below): fifty counters at once used
    to retry each other past the 5 s NATS deadline.
  - A scan took a cart line number from a counter (one more command); line numbers now come from
    blocks of 100. Category names and each company's walk-in customer, which never change, are
    read once per process; a sale of the walk-in reads no customer at all.
  - A sale reads its cart and customer while its key is looked up, a walk-in sale posts its ledger
    entry alongside the stock, and its progress is written once instead of twice.
- **the counter, second round** (46-51 ms of CPU per sale of 3 scans before it, 30-31 ms after;
  A/B runs of 25 sales per cashier on the same machine, minutes apart):
  - **Mongoose off the hot path.** Building and validating a mongoose document of a sale cost
    0.8 ms of CPU against 0.2 ms for the insert itself, and a mongoose update nearly twice its
    driver call. The saga records (sales and purchases), the checkout's cart read and emptying,
    inventory's product look-up and stock move, and ledger's post now use the driver's
    collection: 40 -> 31 ms per sale (sales 11.6 -> 8.5, inventory 8.4 -> 5.7, ledger 4.7 -> 3.4
    ms). Inserts still go through the schema as \`create\` would store them (\`castForInsert\`:
    defaults, cast values, a wrong type refused; about 0.07 ms), so a record's shape is the same.
  - **One NATS message per request.** Nest's ClientProxy subscribed a new reply inbox for every
    request (SUB, PUB, UNSUB, and a subscription change in nats-server); requests now go out on
    the service's connection through \`nats\`' shared reply inbox, in Nest's wire format, still
    answered by the services' @MessagePattern handlers. Without async stack traces (two Error
    objects per request). With the token memo below: 51 -> 42 ms per sale.
  - **Every service remembers verified tokens**: the memo moved from the gateway into
    \`@bahi/auth\`'s \`verifyToken\`, so each service's guard checks a token's signature once.
  - **A product new to the cart is one command**: a \`$push\` guarded by "not in the cart yet",
    answering the cart after, instead of a read and a versioned write. A product already there
    adds to its line by read-modify-write; which way to go is guessed from the cart the process
    saw last, and a wrong guess costs one command, never a wrong cart.
  - **The embedded server applies a single-value \`$push\` and a \`$ne\` of a value itself**
    (mingo built a new context, copying its operator tables, for each): the new-line push and its
    guard were the last counter commands going through it. The server's CPU per sale fell from
    7.8 to 6.9 ms; results are checked against mingo's path in the tests.
  - **The counter bench warms up with about 300 sales** (it was one per cashier) before it
    measures: V8 compiles each process's code while it runs, on threads whose CPU counts in the
    CPU per sale. With the same code, 10 cashiers measured 31-36 ms per sale after the short
    warm-up and 22-27 ms after the long one (scan p95 27-33 ms, MAKE_SALE p95 94-123 ms over
    three runs). The A/B figures above were all taken with the short warm-up, so they compare
    with each other; the table at the top is warmed up.
  - **Stock transactions one at a time per inventory process.** Two at once conflicted on the
    running totals (0.2-0.3 aborts per sale); each conflict cost a random pause plus the work
    again, which put MAKE_SALE's p95 at 2x its median. One at a time: no aborts, p95 227 -> 177
    ms in an A/B run, and 50 cashiers sell 9% more per second.
- **gateway**: a verified token is remembered (expiry and revocation still checked every call),
  the route table finds a route by an index instead of testing every pattern, and a call that
  passes every check is forwarded by http-proxy-middleware straight from the HTTP server, skipping
  Express's router (helmet's headers computed once). Its CPU per call fell to about a quarter.

## Reports

\`services/reports/bench/reports.bench.mjs\` (the \`reports\` step). Scale: one company (the demo
company, its manager's token through the gateway) with 100,000 sales (300,000 lines) over the last
30 days, 20,000 products, 2,000 customers, 5,000 payments. The read model is seeded from the
owners' event payloads turned into facts by the service's \`toFact\` and folded in memory as the
projector applies them (one transaction per event costs tens of milliseconds here: 100,000 sales
would take over an hour), the running totals made by the service's \`runningTotalsFromDays\`; the
fold is first checked against the service's Projector on a sample (every document equal, or the
bench stops). Lag: 10 cashiers sell the counter bench's way; a separate client polls the sales register
every 100 ms; a sale's lag runs from its MAKE_SALE answer to the first poll showing it (so it
includes up to one poll interval), cross-checked with the service's own record (occurredAt to
its \`recent_events\` row). MAKE_SALE is timed in alternating slices with the reports process
running and stopped. Paint: \`/reports\` in headless Chromium, a fresh context per run (cold
cache), first contentful paint and the four cards showing figures.

## What is left

- **getAllClientsHistory** reads a customer's whole account to compute running balances; fine for
  a customer's history size, O(entries of that customer) beyond that — a stored running balance
  per entry would allow paging from the index.
- **Deep pages**: skip-based paging is O(skip) on MongoDB too; keyset paging (\`product_id > last\`)
  would make page 500 cost what page 0 costs.
- **Counter at 10 cashiers**: within budget (see the table). The counter benchmark is a closed loop
  with no pause between calls, so from 10 cashiers on the two CPUs are saturated and a call's
  latency follows the CPU a sale costs across every process (now 22-27 ms for 3 scans and the
  sale once warmed up, 25 MongoDB commands). The margin is thinner than the medians suggest on a busy machine:
  the same 2 CPUs run the load generator and the MongoDB stand-in. What would cut further: a
  product cache in sales kept current by inventory's events (prices and stock change, so it needs
  a reliable event feed, not a TTL), and fewer writes per sale (pending, progress and complete
  are three; the progress write is what lets a crash be finished rather than undone).
- **Stock transactions one at a time** cap one inventory process at one stock transaction per
  round trip chain (about 8 commands): over 50 sales a second here, more with replicas. A
  purchase of hundreds of lines holds the counters' sales behind it for its duration.
- **Gateway**: every ratio is within budget once both paths are warmed and measured side by side
  (before the warm-up, the first path measured paid for compiling the service's code and the
  1-client ratio swung between 1.2x and 1.9x; before the alternating slices, the first figure of
  the step also took the embedded server's settling after the seed: 1.50x in one run, 1.25x in
  the next). upQuan is the closest, at about 1.4x: its direct call is only 1-2 ms, so the
  gateway's fixed fifth of a millisecond and its extra wake-up weigh most.
- The load tool is a closed loop in \`scripts/bench/suite.mjs\` rather than autocannon, to avoid a
  new dependency; it reports the same p50/p95/p99 and throughput.
`;
/**
 * The page's prose is the lead's: an existing page gets only what this script owns replaced, its
 * top (title, run, table), the commands of "How to reproduce" and its Counter item.
 */
function splice(text) {
  const cut = text.indexOf('\n## ');
  let out = `${top}${cut < 0 ? '' : text.slice(cut)}`;
  const how = out.indexOf('## How to reproduce');
  if (how < 0) return `${out.trimEnd()}\n\n## How to reproduce\n\n${commands}\n\n${counterBullet}\n`;
  const sh = out.indexOf('```sh\n', how);
  const nextSection = out.indexOf('\n## ', how + 3);
  if (sh >= 0 && (nextSection < 0 || sh < nextSection)) out = out.slice(0, sh) + commands + out.slice(out.indexOf('```\n', sh + 6) + 3);
  const item = out.indexOf('\n- **Counter**', how);
  const end = out.indexOf('\n- **', item + 3);
  const sectionEnd = out.indexOf('\n## ', how + 3);
  if (item >= 0 && (sectionEnd < 0 || item < sectionEnd)) {
    const stop = end >= 0 && (sectionEnd < 0 || end < sectionEnd) ? end : sectionEnd >= 0 ? sectionEnd : out.length;
    out = `${out.slice(0, item + 1)}${counterBullet}${out.slice(stop)}`;
  }
  return out;
}
const target = process.env.BENCH_REPORT_OUT ?? DOC;
fs.writeFileSync(target, page ? splice(page) : md);
console.log(`${path.relative(ROOT, target)} written (${table.length} figures${kept.length ? `; kept from the page: ${kept.join(', ')}` : ''})`);
