// Throughput of the embedded server through the real driver, with the server in its own
// process (as `npm start` runs it) on a fresh data directory:
//   durable single inserts/s, finds/s by _id, finds/s by a secondary indexed field on a
//   100,000-document and a 1,000-document collection (8 concurrent clients), documents/s read
//   by an aggregation returning 2,000 projected documents a call.
// Usage: npm run bench -w @bahi/embedded-mongo   (BENCH_SECONDS=3 by default per figure)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { MongoClient } from 'mongodb';
import { saleUpdates } from './sale-updates.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CLIENTS = 8;

function startServer(dbPath) {
  const child = spawn(process.execPath, [path.join(here, '../dist/cli.js'), '--port', '0', '--dbpath', dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (mongodb:\/\/\S+)/.exec(out);
      if (m) resolve({ child, uri: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

/** Runs `op` in `workers` concurrent loops for SECONDS (after a short warm-up); returns operations per second. */
async function rate(workers, op) {
  const warmUntil = performance.now() + 500;
  await Promise.all(workers.map(async (w, k) => {
    for (let n = 1e9; performance.now() < warmUntil; n++) await op(w, k, n);
  }));
  const deadline = performance.now() + SECONDS * 1000;
  const counts = await Promise.all(
    workers.map(async (w, k) => {
      let n = 0;
      while (performance.now() < deadline) {
        await op(w, k, n);
        n++;
      }
      return n;
    }),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  return total / SECONDS;
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-bench-'));
const { child, uri } = await startServer(dir);
const clients = await Promise.all(Array.from({ length: CLIENTS }, () => MongoClient.connect(uri, { maxPoolSize: 2 })));
try {
  const db = clients[0].db('bench');
  const results = {};

  // 1. durable single inserts, one client, each acknowledged before the next
  const ins = db.collection('inserts');
  results['durable single inserts/s (1 client)'] = await rate([ins], (c, _k, n) => c.insertOne({ n, name: `item ${n}`, price: '10.50', at: new Date() }));
  const insMany = clients.map((c) => c.db('bench').collection('inserts8'));
  results[`durable single inserts/s (${CLIENTS} clients)`] = await rate(insMany, (c, k, n) => c.insertOne({ k, n, name: `item ${n}` }));

  // 2. collections of 100,000 and 1,000 documents with a secondary index on `code`
  for (const size of [100_000, 1_000]) {
    const c = db.collection(`docs${size}`);
    for (let i = 0; i < size; i += 5000) {
      await c.insertMany(Array.from({ length: Math.min(5000, size - i) }, (_, j) => ({ _id: i + j, code: `C${i + j}`, companyId: (i + j) % 50, qty: (i + j) % 97 })));
    }
    await c.createIndex({ code: 1 });
  }
  const pick = (size, k, n) => ((n * 7919 + k * 104729) % size);
  for (const size of [100_000, 1_000]) {
    const colls = clients.map((c) => c.db('bench').collection(`docs${size}`));
    results[`finds/s by _id, ${fmt(size)} docs (${CLIENTS} clients)`] = await rate(colls, async (c, k, n) => {
      const d = await c.findOne({ _id: pick(size, k, n) });
      if (!d) throw new Error('missing document');
    });
    results[`finds/s by indexed field, ${fmt(size)} docs (${CLIENTS} clients)`] = await rate(colls, async (c, k, n) => {
      const d = await c.findOne({ code: `C${pick(size, k, n)}` });
      if (!d) throw new Error('missing document');
    });
  }
  // Large results: 2,000 documents a call through an index, projected (as a monthly report reads).
  const reports = db.collection('docs100000');
  await reports.createIndex({ companyId: 1 });
  results['documents/s read by aggregate $match + $project (2,000 a call, 1 client)'] =
    2000 *
    (await rate([reports], async (c, _k, n) => {
      const docs = await c.aggregate([{ $match: { companyId: n % 50 } }, { $project: { _id: 0, code: 1, qty: 1 } }], { batchSize: 1000 }).toArray();
      if (docs.length !== 2000) throw new Error(`read ${docs.length} documents, not 2000`);
    }));
  const big = results[`finds/s by indexed field, ${fmt(100_000)} docs (${CLIENTS} clients)`];
  const small = results[`finds/s by indexed field, ${fmt(1_000)} docs (${CLIENTS} clients)`];
  results['cost ratio 100k/1k (indexed finds)'] = small / big;

  // 3. the server's own cost per command, without driver or network: commands run in-process
  const { EmbeddedMongo } = createRequire(import.meta.url)('../dist/index.js');
  const local = await EmbeddedMongo.start({ port: 0, dbPath: fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-mongo-bench-local-')) });
  const conn = { id: 0, remote: 'bench', local: 'bench' };
  const run = (cmd) => local.execute(conn, { ...cmd, $db: 'bench' });
  for (const size of [100_000, 1_000]) {
    for (let i = 0; i < size; i += 5000) {
      await run({ insert: `docs${size}`, documents: Array.from({ length: Math.min(5000, size - i) }, (_, j) => ({ _id: i + j, code: `C${i + j}` })) });
    }
    await run({ createIndexes: `docs${size}`, indexes: [{ key: { code: 1 }, name: 'code_1' }] });
  }
  const serial = async (op) => rate([null], (_w, _k, n) => op(n));
  results['server only: durable inserts/s'] = await serial((n) => run({ insert: 'inserts', documents: [{ n, name: `item ${n}` }] }));
  for (const size of [100_000, 1_000]) {
    results[`server only: finds/s by indexed field, ${fmt(size)} docs`] = await serial((n) => run({ find: `docs${size}`, filter: { code: `C${(n * 7919) % size}` }, limit: 1, singleBatch: true }));
  }
  // The counter's updates on documents and indexes shaped like the services' (sale-updates.mjs).
  Object.assign(results, await saleUpdates(run));
  await local.stop();
  fs.rmSync(local.dbPath, { recursive: true, force: true });

  const width = Math.max(...Object.keys(results).map((k) => k.length));
  console.log(`embedded-mongo benchmark (${SECONDS}s per figure, ${os.cpus().length} CPUs, Node ${process.version})`);
  for (const [k, v] of Object.entries(results)) console.log(`  ${k.padEnd(width)}  ${k.startsWith('cost') ? v.toFixed(2) : fmt(v)}`);
} finally {
  await Promise.all(clients.map((c) => c.close()));
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dir, { recursive: true, force: true });
}
