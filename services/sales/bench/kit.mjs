// What the counter benches share: the seeded catalogue, the cashiers, a 3-scan sale, and the two
// costs of a sale (each process's CPU time from /proc, MongoDB's metrics.commands).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { MongoClient } = require('mongodb');

export const FIRST_ID = 1001; // above the demo catalogue's ids
export const LINES_PER_SALE = 3;

/**
 * Products `from`..`to - 1` (ids counted from FIRST_ID) written straight into inventory's database,
 * the way inventory's own benchmark does: creating them one by one through the API takes minutes
 * and measures nothing about the counter.
 */
export async function seedProducts(mongoUri, companyId, from, to) {
  const client = await MongoClient.connect(mongoUri);
  try {
    const products = client.db('bahi_inventory').collection('products');
    for (let start = FIRST_ID + from; start < FIRST_ID + to; start += 1000) {
      const docs = [];
      for (let i = start; i < Math.min(start + 1000, FIRST_ID + to); i++) {
        docs.push({
          companyId, product_id: i, product_name: `Bench Product ${i}`, words: ['bench', 'product', String(i)], brand_name: `Brand ${i % 20}`, category: 1,
          mrp_p: 10000 + (i % 5000), cp_p: 8000, unit: 'pcs', ppq_m: 1000, stock_m: 1_000_000_000, min_m: 10_000, def_m: 400_000, level: 2, tax: '1.18',
          active: 1, image: null, specs: {}, barcode: `BN${i}`, hsn_code: '4412',
        });
      }
      await products.insertMany(docs, { ordered: false });
    }
  } finally {
    await client.close();
  }
}

/** Waits for the demo company's catalogue (created in the background at first start); the manager's token. */
export async function demoManager({ call, login }) {
  const manager = await login('manager@demo.local', 'manager12345');
  for (let i = 0; i < 200 && (await call('GET', '/getProductList', manager)).count < 50; i++) await new Promise((r) => setTimeout(r, 300));
  return manager;
}

/**
 * `count` staff users created by the manager through identity's API, each signed in with their own
 * password; four at a time (each costs four password hashes in identity).
 */
export async function makeCashiers({ call, login }, manager, count, tag = randomUUID().slice(0, 8)) {
  const one = async (c) => {
    const email = `cashier${c}-${tag}@demo.local`;
    await call('POST', '/users', manager, { name: `Cashier ${c}`, email, password: 'cashier12345', position: 'staff' });
    // A password a manager sets is temporary: the cashier chooses their own first, as the shell makes them do.
    const first = await login(email, 'cashier12345');
    await call('POST', '/manage/profile/edit/updatePassword', first, { current_password: 'cashier12345', new_password: 'cashier-own-1', re_type_new_password: 'cashier-own-1' });
    return login(email, 'cashier-own-1');
  };
  const tokens = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(4, count) }, async () => {
    while (next < count) {
      const c = next++;
      tokens[c] = await one(c);
    }
  }));
  return tokens;
}

/**
 * One sale at the counter: 3 scans (a barcode, then typed ids) of products among the first
 * `products` seeded, then MAKE_SALE to the walk-in. `times`, when given, collects each call's
 * latency ({ addProductIntoCart: [], MAKE_SALE: [] }). Returns { saleId, answeredAt }.
 */
export async function counterSale(call, token, n, products, times) {
  for (let l = 0; l < LINES_PER_SALE; l++) {
    const id = FIRST_ID + ((n * 7919 + l * 104729) % products);
    const code = l === 0 ? `BN${id}` : String(id);
    const s = performance.now();
    const r = await call('GET', `/addProductIntoCart/${code}`, token);
    times?.addProductIntoCart.push(performance.now() - s);
    if (!r.length) throw new Error(`product ${code} not found`);
  }
  const s = performance.now();
  const r = await call('POST', '/MAKE_SALE', token, { clientId: 0, cart_no: 1, paid: '0', dueDate: '2030-01-01', date: new Date().toISOString().slice(0, 10) }, { 'Idempotency-Key': randomUUID() });
  times?.MAKE_SALE.push(performance.now() - s);
  if (!r.saleId) throw new Error('no saleId');
  return { saleId: r.saleId, answeredAt: Date.now() };
}

/**
 * CPU time in ms (10 ms ticks) of each named process (name -> pid) with the processes it started
 * that are not named themselves (a service's Chromium, say; a launcher does not take its
 * services). A process gone is left out.
 */
export function cpuMs(pids) {
  const stat = (pid) => {
    try {
      const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = text.slice(text.lastIndexOf(') ') + 2).split(' ');
      // utime + stime, and cutime + cstime: children it has waited for
      return { ppid: Number(f[1]), ms: ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / 100 };
    } catch {
      return null; // not Linux, or the process is gone
    }
  };
  const named = new Set(Object.values(pids));
  const children = new Map();
  for (const entry of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
    if (!/^\d+$/.test(entry) || named.has(Number(entry))) continue;
    const s = stat(entry);
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), { pid: Number(entry), ms: s.ms }]);
  }
  const tree = (pid) => (children.get(pid) ?? []).reduce((a, c) => a + c.ms + tree(c.pid), 0);
  const out = {};
  for (const [name, pid] of Object.entries(pids)) {
    const s = stat(pid);
    if (s) out[name] = s.ms + tree(pid);
  }
  return out;
}

/** This process's own CPU time in ms (the bench client, kept apart from the stack). */
export const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** MongoDB's metrics.commands totals (serverStatus), read through one client kept open. */
export async function commandCounter(mongoUri) {
  const client = await MongoClient.connect(mongoUri);
  return {
    async read() {
      const status = await client.db('admin').command({ serverStatus: 1 });
      return Object.fromEntries(Object.entries(status.metrics?.commands ?? {}).map(([k, v]) => [k, v.total]));
    },
    close: () => client.close(),
  };
}

/** The `p`th percentile of `xs` (nearest rank). */
export const pct = (xs, p) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] : null);
