// Importing 20,000 products from one CSV through the gateway, as the import screen does: upload,
// validate, run (valid rows), poll until done; then the same file again (every row an update by
// barcode). Times each step and samples the inventory process's resident memory every 50 ms: the
// rows are read and written in batches, so memory should not follow the file's size.
// Run after `npm run build`: node services/inventory/bench/import.bench.mjs [out.json]
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { startStack } = require('@bahi/devstack');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const ROWS = Number(process.env.BENCH_IMPORT_ROWS || 20_000);
const BUDGET_S = 30;
const out = process.argv[2];

function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
function cpuS(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

/** A shop's sheet: 12 categories (half of them new), 60 brands, unique barcodes, opening stock on most rows. */
function sheet(n) {
  const lines = ['Item Name,Brand,Category,MRP,Purchase Price,Unit,Barcode,HSN,GST %,Opening Stock,Min Stock,Max Stock'];
  for (let i = 1; i <= n; i++) {
    const mrp = (50 + (i % 950) + (i % 4) * 0.25).toFixed(2);
    const cp = (Number(mrp) * 0.8).toFixed(2);
    lines.push(`Item ${i} ${['500g', '1kg', '5kg', '1L'][i % 4]},Brand ${i % 60},Category ${i % 12},${mrp},${cp},${['pcs', 'kg', 'bag', 'litre'][i % 4]},89${String(10_000_000_000 + i)},${['1006', '0713', '3401', '2106'][i % 4]},${[0, 5, 12, 18][i % 4]},${i % 7 ? (i % 90) + 1 : ''},5,100`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

const stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory'], env: { LOG_LEVEL: 'warn' }, logs: 'files' });
const result = { rows: ROWS, budget_s: BUDGET_S, runs: [] };
try {
  const api = `${stack.gatewayUrl}/api`;
  const json = async (method, p, token, body) => {
    const res = await fetch(`${api}${p}`, { method, headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const data = await res.json();
    if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(data)}`);
    return data;
  };
  const token = (await json('POST', '/loginReact', undefined, { email: 'manager@demo.local', password: 'manager12345' })).token;
  const file = sheet(ROWS);
  const pid = stack.pids().inventory;
  // The demo catalogue (50 products) is seeded in the background: wait until it is all there.
  let before0 = -1;
  for (let i = 0; i < 200; i++) {
    const n = (await json('GET', '/getProductList', token)).count;
    if (n >= 50 && n === before0) break;
    before0 = n;
    await new Promise((r) => setTimeout(r, 500));
  }

  for (const label of ['new products', 'the same file again (updates)']) {
    const pids = stack.pids();
    const cpu0 = { inventory: cpuS(pids.inventory), mongo: cpuS(pids.mongo), gateway: cpuS(pids.gateway) };
    const rssBefore = rssMiB(pid);
    let peak = rssBefore;
    const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid) || 0)), 50);
    const t0 = performance.now();
    const form = new FormData();
    form.append('file', new Blob([file], { type: 'text/csv' }), 'products.csv');
    const upRes = await fetch(`${api}/imports/products`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    const up = await upRes.json();
    if (upRes.status !== 200) throw new Error(`upload: ${upRes.status} ${JSON.stringify(up)}`);
    const t1 = performance.now();
    const report = await json('POST', `/imports/products/${up.id}/validate`, token, { mapping: up.mapping });
    const t2 = performance.now();
    await json('POST', `/imports/products/${up.id}/run`, token, { mapping: up.mapping, mode: 'valid' });
    let st;
    for (;;) {
      st = await json('GET', `/imports/products/${up.id}`, token);
      if (st.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const t3 = performance.now();
    clearInterval(timer);
    const rssAfter = rssMiB(pid);
    if (st.state !== 'done') throw new Error(`import ended ${st.state}: ${st.message}`);
    const run = {
      label,
      bytes: file.length,
      upload_s: +((t1 - t0) / 1000).toFixed(2),
      validate_s: +((t2 - t1) / 1000).toFixed(2),
      run_s: +((t3 - t2) / 1000).toFixed(2),
      total_s: +((t3 - t0) / 1000).toFixed(2),
      valid: report.valid,
      invalid: report.invalid,
      created: st.created,
      updated: st.updated,
      rss_before_mib: Math.round(rssBefore),
      rss_peak_mib: Math.round(peak),
      rss_after_mib: Math.round(rssAfter),
      cpu_s: Object.fromEntries(Object.entries(cpu0).map(([k, v]) => [k, +(cpuS(pids[k]) - v).toFixed(1)])),
    };
    result.runs.push(run);
    console.log(`import of ${ROWS} products, ${label}: upload ${run.upload_s} s, validate ${run.validate_s} s, run ${run.run_s} s, total ${run.total_s} s; created ${run.created}, updated ${run.updated}; inventory RSS ${run.rss_before_mib} -> peak ${run.rss_peak_mib} -> ${run.rss_after_mib} MiB; CPU s ${JSON.stringify(run.cpu_s)}`);
  }
  const after = (await json('GET', '/getProductList', token)).count;
  result.added = after - before0;
  if (result.added !== ROWS) throw new Error(`expected ${ROWS} new products, the list grew by ${result.added}`);
  result.worst_s = Math.max(...result.runs.map((r) => r.total_s));
  result.pass = result.worst_s < BUDGET_S;
  console.log(`slowest import ${result.worst_s} s (budget ${BUDGET_S} s): ${result.pass ? 'pass' : 'FAIL'}`);
} finally {
  if (out) fs.writeFileSync(out, JSON.stringify(result, null, 2));
  await stack.stop();
}
