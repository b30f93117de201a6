// The server's own cost of the counter's updates (in-process, no driver, no socket), on documents
// and indexes shaped like the services' (inventory's products, sales' carts and sales):
//   findAndModify $inc of a product's stock, a cart line $push guarded by $ne, a sale's status
//   $set and outbox mark $unset, and an update that changes nothing.
// Used by bench.mjs; alone: node bench/sale-updates.mjs [path/to/dist] (compares two builds).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

/** Serial commands per second of `op(n)` for SECONDS after a short warm-up. */
async function serial(op) {
  const warm = performance.now() + 500;
  let n = 0;
  while (performance.now() < warm) await op(n++);
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  let count = 0;
  while (performance.now() < deadline) {
    await op(n++);
    count++;
  }
  return count / ((performance.now() - start) / 1000);
}

const PRODUCTS = 2000;
const product = (i) => ({
  _id: `p${i}`,
  companyId: 1,
  product_id: i,
  name: `Basmati Rice ${i} kg`,
  words: ['basmati', 'rice', String(i)],
  barcode: `890${String(i).padStart(10, '0')}`,
  category: `cat${i % 40}`,
  brand_name: `brand${i % 60}`,
  unit: 'kg',
  hsn: '1006',
  gst_rate: 5,
  mrp: '120.00',
  sale_price: '110.00',
  purchase_price: '95.00',
  stock: 1_000_000,
  reorder_level: 10,
  active: true,
  created_at: new Date('2024-04-01T00:00:00Z'),
  updated_at: new Date('2024-04-01T00:00:00Z'),
});
const line = (i) => ({ product_id: i, name: `Basmati Rice ${i} kg`, qty: 1, rate: '110.00', gst_rate: 5, hsn: '1006', discount: '0', amount: '110.00' });
const sale = (i) => ({
  _id: `s${i}`,
  companyId: 1,
  saleId: i,
  idempotencyKey: `key-${i}`,
  status: 'PENDING',
  owner: 'sales-1',
  lockedUntil: new Date('2024-04-01T00:05:00Z'),
  customer: { id: 0, name: 'Walk-in', state: 'MH' },
  lines: [line(1), line(2), line(3)],
  totals: { taxable: '314.29', cgst: '7.86', sgst: '7.86', igst: '0', total: '330.00' },
  payments: [{ mode: 'cash', amount: '330.00' }],
  gst: { fy: '2024-25', invoice_date: '2024-04-01', b2b: false, serial: i, recipient: { gstin: '' } },
  evt: `sale.made.${i}`,
  created_at: new Date('2024-04-01T00:00:00Z'),
});

/** Sets up the collections through `run` (a command runner) and measures each update. */
export async function saleUpdates(run) {
  await run({ insert: 'products', documents: Array.from({ length: PRODUCTS }, (_, i) => product(i)) });
  await run({
    createIndexes: 'products',
    indexes: [
      { key: { companyId: 1, product_id: 1 }, name: 'product', unique: true },
      { key: { companyId: 1, category: 1 }, name: 'category' },
      { key: { companyId: 1, brand_name: 1 }, name: 'brand' },
      { key: { companyId: 1, barcode: 1 }, name: 'barcode' },
      { key: { companyId: 1, words: 1 }, name: 'words' },
    ],
  });
  await run({ insert: 'carts', documents: Array.from({ length: 10 }, (_, u) => ({ _id: `c${u}`, companyId: 1, userId: u, cart_no: 1, version: 0, lines: [] })) });
  await run({ createIndexes: 'carts', indexes: [{ key: { companyId: 1, userId: 1, cart_no: 1 }, name: 'cart', unique: true }] });
  await run({ insert: 'sales', documents: Array.from({ length: 1000 }, (_, i) => sale(i)) });
  await run({
    createIndexes: 'sales',
    indexes: [
      { key: { companyId: 1, saleId: 1 }, name: 'saga', unique: true },
      { key: { companyId: 1, idempotencyKey: 1 }, name: 'idem', unique: true, partialFilterExpression: { idempotencyKey: { $type: 'string' } } },
      { key: { status: 1, lockedUntil: 1 }, name: 'lease' },
      { key: { companyId: 1, status: 1, saleId: -1 }, name: 'status' },
      { key: { companyId: 1, status: 1, 'gst.fy': 1, 'gst.invoice_date': 1 }, name: 'gst_day' },
      { key: { companyId: 1, status: 1, 'gst.fy': 1, 'gst.b2b': 1, 'gst.recipient.gstin': 1, 'gst.serial': 1 }, name: 'gst_b2b' },
      { key: { companyId: 1, 'gst.fy': 1, 'gst.serial': 1 }, name: 'gst_serial', unique: true, partialFilterExpression: { 'gst.serial': { $gt: 0 } } },
      { key: { evt: 1 }, name: 'evt_pending', partialFilterExpression: { evt: { $type: 'string' } } },
    ],
  });
  const check = (r) => {
    if (r.ok !== 1 || r.writeErrors) throw new Error(JSON.stringify(r));
    return r;
  };
  const results = {};
  results['server only: findAndModify $inc of stock (product, 5 indexes)'] = await serial((n) =>
    run({ findAndModify: 'products', query: { companyId: 1, product_id: (n * 7) % PRODUCTS }, update: { $inc: { stock: -1 }, $set: { updated_at: new Date() } }, new: true }).then(check),
  );
  results['server only: cart line $push guarded by $ne (then emptied every 3)'] = await serial((n) => {
    const userId = n % 10;
    const add = run({ findAndModify: 'carts', query: { companyId: 1, userId, cart_no: 1, 'lines.product_id': { $ne: n } }, update: { $push: { lines: line(n) }, $inc: { version: 1 } }, new: true });
    return n % 3 === 2 ? add.then(() => run({ update: 'carts', updates: [{ q: { companyId: 1, userId, cart_no: 1 }, u: { $set: { lines: [] } } }] })).then(check) : add.then(check);
  });
  results['server only: sale status $set (8 indexes, 4 on status)'] = await serial((n) =>
    run({ update: 'sales', updates: [{ q: { companyId: 1, saleId: n % 1000, owner: 'sales-1' }, u: { $set: { status: n % 2 ? 'COMMITTED' : 'PENDING', lockedUntil: new Date() } } }] }).then(check),
  );
  results['server only: sale outbox mark $unset then $set (partial index)'] = await serial((n) =>
    run({ update: 'sales', updates: [{ q: { _id: `s${n % 1000}` }, u: n % 2 ? { $unset: { evt: 1 } } : { $set: { evt: `sale.made.${n}` } } }] }).then(check),
  );
  results['server only: sale ledgerPosted $set (no indexed field)'] = await serial((n) =>
    run({ update: 'sales', updates: [{ q: { _id: `s${n % 1000}` }, u: { $set: { ledgerPosted: n } } }] }).then(check),
  );
  results['server only: update changing nothing (sale)'] = await serial((n) =>
    run({ update: 'sales', updates: [{ q: { _id: `s${n % 1000}` }, u: { $set: { companyId: 1, 'customer.name': 'Walk-in' } } }] }).then((r) => {
      if (check(r).nModified !== 0) throw new Error('a no-op was counted as a modification');
    }),
  );
  return results;
}

// Alone: an in-process durable server from the given build (default ../dist).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist'));
  const { EmbeddedMongo } = createRequire(import.meta.url)(path.join(dist, 'index.js'));
  const local = await EmbeddedMongo.start({ port: 0, dbPath: fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-bench-sale-')) });
  const conn = { id: 0, remote: 'bench', local: 'bench' };
  try {
    const results = await saleUpdates((cmd) => local.execute(conn, { ...cmd, $db: 'bench' }));
    console.log(`sale-path updates, server only (${dist}, ${SECONDS}s per figure, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
    for (const [k, v] of Object.entries(results)) console.log(`  ${k.padEnd(70)}  ${Math.round(v).toLocaleString('en-US')}/s  ${(1000 / v).toFixed(3)} ms`);
  } finally {
    await local.stop();
    fs.rmSync(local.dbPath, { recursive: true, force: true });
  }
}
