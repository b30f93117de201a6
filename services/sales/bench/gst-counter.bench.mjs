// GST mode beside simple mode, in one run: two companies on one stack, the demo company in simple
// mode and a second one in GST mode, each with the same catalogue and the same number of cashiers.
// The two sell in alternating slices (never at once), so whatever else the machine does falls on
// both alike; latencies are pooled per mode. Budget: GST adds at most 10 % to MAKE_SALE p95.
// Run after `npm run build`: node services/sales/bench/gst-counter.bench.mjs (npm run bench runs it).
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchClient } from './client.mjs';
import { commandCounter, cpuMs } from './kit.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require('@bahi/devstack');
const { MongoClient } = require('mongodb');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PRODUCTS = Number(process.env.BENCH_PRODUCTS || 5_000);
const CASHIERS = Number(process.env.BENCH_CASHIERS || 10);
const SLICES = Number(process.env.BENCH_SLICES || 10);
const SALES_PER_SLICE = Number(process.env.BENCH_SALES || 5);
const WARMUP_SALES = Number(process.env.BENCH_WARMUP_SALES || Math.max(1, Math.ceil(150 / CASHIERS)));
const LINES_PER_SALE = 3;
const FIRST_ID = 1001; // above the demo catalogue's ids
const ADMIN = { email: 'admin@bahi.local', password: 'admin-bench-12345' };
// The GST portal's example GSTIN (Maharashtra, 27).
const GSTIN = '27AAPFU0939F1ZV';

const stack = await startStack({ rootDir: ROOT, services: ['identity', 'inventory', 'ledger', 'sales'], env: { LOG_LEVEL: 'warn', BAHI_ADMIN_PASSWORD: ADMIN.password }, logs: 'files' });
try {
  const { agent, call, login } = benchClient(stack.gatewayUrl, { maxSockets: 2 * CASHIERS + 2 });
  // A password someone else set is temporary: its holder chooses their own before anything else.
  async function ownPassword(email, temporary) {
    const first = await login(email, temporary);
    await call('POST', '/manage/profile/edit/updatePassword', first, { current_password: temporary, new_password: 'own-password-1', re_type_new_password: 'own-password-1' });
    return login(email, 'own-password-1');
  }

  // Simple mode: the demo company. GST mode: a company the admin creates and its manager switches.
  const simpleManager = await login('manager@demo.local', 'manager12345');
  for (let i = 0; i < 200 && (await call('GET', '/getProductList', simpleManager)).count < 50; i++) await new Promise((r) => setTimeout(r, 300));
  const admin = await login(ADMIN.email, ADMIN.password);
  const created = await call('POST', '/admin/createCompany', admin, { cName: 'GST Bench Traders', cAdd: 'Pune', cMob: '9876543210', mName: 'GST Manager', mEmail: 'gst-manager@bench.local' });
  const gstManager = await ownPassword('gst-manager@bench.local', created.managerPassword);
  const details = await call('GET', '/getCompanyDetails', gstManager);
  await call('POST', '/setCompanyDetails', gstManager, { id: details.id, name: details.name, add1: details.add1 || 'Pune', mob1: details.mob1 || '9876543210', email: details.email || 'gst@bench.local', tax_mode: 'gst', gstin: GSTIN });
  const companies = { simple: 1, gst: created.companyId };

  // The same catalogue in both: an 18 % rate, price including tax, an HSN code.
  const client = await MongoClient.connect(stack.mongoUri);
  const inv = client.db('bahi_inventory');
  await inv.collection('categories').insertOne({ companyId: companies.gst, id: 1, name: 'Plywood', belongs_to: null, specs: [] });
  for (const companyId of Object.values(companies)) {
    for (let start = FIRST_ID; start < FIRST_ID + PRODUCTS; start += 1000) {
      const docs = [];
      for (let i = start; i < Math.min(start + 1000, FIRST_ID + PRODUCTS); i++) {
        docs.push({
          companyId, product_id: i, product_name: `Bench Product ${i}`, words: ['bench', 'product', String(i)], brand_name: `Brand ${i % 20}`, category: 1,
          mrp_p: 10000 + (i % 5000), cp_p: 8000, unit: 'pcs', ppq_m: 1000, stock_m: 1_000_000_000, min_m: 10_000, def_m: 400_000, level: 2, tax: '1.18',
          price_includes_tax: true, active: 1, image: null, specs: {}, barcode: `BN${companyId}-${i}`, hsn_code: '4412',
        });
      }
      await inv.collection('products').insertMany(docs, { ordered: false });
    }
  }
  await client.close();

  const run = randomUUID().slice(0, 8);
  async function cashiersOf(manager, tag) {
    const tokens = [];
    for (let c = 0; c < CASHIERS; c++) {
      const email = `${tag}-cashier${c}-${run}@bench.local`;
      await call('POST', '/users', manager, { name: `Cashier ${c}`, email, password: 'cashier12345', position: 'staff' });
      tokens.push(await ownPassword(email, 'cashier12345'));
    }
    return tokens;
  }
  const cashiers = { simple: await cashiersOf(simpleManager, 'simple'), gst: await cashiersOf(gstManager, 'gst') };

  const times = { simple: { scan: [], sale: [] }, gst: { scan: [], sale: [] } };
  let invoiceNo = null;
  async function sale(mode, token, n, measure) {
    for (let l = 0; l < LINES_PER_SALE; l++) {
      const id = FIRST_ID + ((n * 7919 + l * 104729) % PRODUCTS);
      const t0 = performance.now();
      const r = await call('GET', `/addProductIntoCart/${id}`, token);
      if (measure) times[mode].scan.push(performance.now() - t0);
      if (!r.length) throw new Error(`product ${id} not found`);
    }
    const t0 = performance.now();
    const r = await call('POST', '/MAKE_SALE', token, { clientId: 0, cart_no: 1, paid: '0', dueDate: '2030-01-01' }, { 'Idempotency-Key': randomUUID() });
    if (measure) times[mode].sale.push(performance.now() - t0);
    if (!r.saleId) throw new Error('no saleId');
    if (mode === 'gst') {
      if (!r.invoice_no) throw new Error(`a GST sale without an invoice number: ${JSON.stringify(r)}`);
      invoiceNo = r.invoice_no;
    }
  }
  const slice = (mode, from, count, measure) =>
    Promise.all(cashiers[mode].map(async (t, c) => {
      for (let s = 0; s < count; s++) await sale(mode, t, (c + 1) * 10_000 + from + s, measure);
    }));

  for (const mode of ['simple', 'gst']) await slice(mode, 0, WARMUP_SALES, false);

  // CPU time of each process and MongoDB's commands, to see where GST mode's cost goes.
  const counter = await commandCounter(stack.mongoUri);
  const commands = () => counter.read();
  const cpu = { simple: {}, gst: {} };
  const cmds = { simple: {}, gst: {} };
  for (let s = 0; s < SLICES; s++) {
    for (const mode of s % 2 ? ['gst', 'simple'] : ['simple', 'gst']) {
      const before = cpuMs(stack.pids());
      const cmdsBefore = await commands();
      await slice(mode, 1000 + s * SALES_PER_SLICE, SALES_PER_SLICE, true);
      for (const [name, ms] of Object.entries(cpuMs(stack.pids()))) cpu[mode][name] = (cpu[mode][name] ?? 0) + ms - (before[name] ?? 0);
      for (const [name, n] of Object.entries(await commands())) cmds[mode][name] = (cmds[mode][name] ?? 0) + n - (cmdsBefore[name] ?? 0);
    }
  }
  await counter.close();

  const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
  console.log(`\n${CASHIERS} cashiers per company, ${PRODUCTS} products each, ${SLICES} alternating slices of ${SALES_PER_SLICE} sales of ${LINES_PER_SALE} lines per cashier; last GST invoice ${invoiceNo}`);
  console.log('| mode | call | count | p50 ms | p95 ms | p99 ms |');
  console.log('|---|---|---|---|---|---|');
  for (const mode of ['simple', 'gst']) {
    for (const [name, xs] of [['addProductIntoCart', times[mode].scan], ['MAKE_SALE', times[mode].sale]]) {
      console.log(`| ${mode} | ${name} | ${xs.length} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 95).toFixed(1)} | ${pct(xs, 99).toFixed(1)} |`);
    }
  }
  const ratio = pct(times.gst.sale, 95) / pct(times.simple.sale, 95);
  const perSale = (mode) => Object.entries(cpu[mode]).map(([k, v]) => [k, v / times[mode].sale.length]).sort((a, b) => b[1] - a[1]);
  const total = (mode) => perSale(mode).reduce((a, [, v]) => a + v, 0);
  const detail = (mode) => perSale(mode).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
  console.log(`\nCPU per sale of the stack: simple ${total('simple').toFixed(1)} ms, gst ${total('gst').toFixed(1)} ms (simple: ${detail('simple')}; gst: ${detail('gst')})`);
  const cmdLine = (mode) => {
    const rows = Object.entries(cmds[mode]).map(([k, v]) => [k, v / times[mode].sale.length]).filter(([, v]) => v >= 0.05).sort((a, b) => b[1] - a[1]);
    return `${rows.reduce((a, [, v]) => a + v, 0).toFixed(1)} (${rows.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')})`;
  };
  console.log(`MongoDB commands per sale: simple ${cmdLine('simple')}; gst ${cmdLine('gst')}`);
  console.log(`GST/simple MAKE_SALE p95: ${ratio.toFixed(3)} (budget <= 1.10 ${ratio <= 1.1 ? 'met' : 'MISSED'})`);
  agent.destroy();
} finally {
  await stack.stop();
}
