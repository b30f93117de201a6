// `npm run drill:backup -w @bahi/reliability [-- --sales 100000] [-- --passphrase X] [-- --online]`
// The backup and restore drill of docs/reliability.md: seeds a data folder with N sales written
// straight into the embedded server (each with its lines' stock movements, its stock source and
// its ledger entry, as checkout leaves them, so the invariant auditor accepts them), then times
// `npm run backup`'s steps (snapshot, pack, verify: restore into scratch + counts + auditor) and
// a restore, and prints the sizes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackup, restoreBackup, startMongo } from '@bahi/devstack';
import { MongoClient } from 'mongodb';

const ROOT = path.resolve(__dirname, '..', '..');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const PRODUCTS = 200;
const OPENING = 1_000_000_000; // thousandths: a million packs of each product at the start

const rupees = (paise: number) => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;

/** Seeds the store; with `keep` the server stays up (answers it) for an online backup. */
async function seed(
  dbPath: string,
  sales: number,
  keep: boolean,
): Promise<{ uri: string; stop(): Promise<void> } | null> {
  const server = await startMongo({ port: 0, dbPath });
  const client = await MongoClient.connect(server.uri);
  try {
    const inv = client.db('bahi_inventory');
    const led = client.db('bahi_ledger');
    const sal = client.db('bahi_sales');
    const companyId = 1;
    await led
      .collection('customers')
      .insertMany(
        Array.from({ length: 50 }, (_, i) => ({
          companyId,
          client_id: i + 1,
          name: `Customer ${i + 1}`,
          mobile: `98220${String(i).padStart(5, '0')}`,
          address: 'Main Road',
          walkIn: i === 0,
        })),
      );
    const stock = new Array<number>(PRODUCTS + 1).fill(OPENING);
    let moveSeq = 0;
    let entrySeq = 0;
    const openings = Array.from({ length: PRODUCTS }, (_, k) => ({
      companyId,
      product_id: k + 1,
      kind: 'opening',
      source_id: 0,
      qty_m: OPENING,
      stock_m: OPENING,
      seq: ++moveSeq,
      at: new Date(),
    }));
    await inv.collection('movements').insertMany(openings);
    const day0 = Date.parse('2025-04-01T04:30:00Z');
    const BATCH = 2000;
    for (let start = 1; start <= sales; start += BATCH) {
      const saleDocs = [];
      const moves = [];
      const sources = [];
      const entries = [];
      for (let saleId = start; saleId < Math.min(start + BATCH, sales + 1); saleId++) {
        const at = new Date(day0 + saleId * 150_000);
        const lines = [1, 2].map((sl) => {
          const product_id = ((saleId * 7 + sl * 13) % PRODUCTS) + 1;
          const qty = 1 + ((saleId + sl) % 5);
          const price = 1000 + product_id * 25; // paise
          return {
            sl_no: sl,
            product_id,
            name: `Product ${product_id}`,
            quantity: String(qty),
            per_peice_quantity: '1',
            unit: 'pcs',
            price: rupees(price),
            discount: '0.00',
            tax: '18',
            total: rupees(qty * price),
          };
        });
        const sub = lines.reduce((a, l) => a + Number(l.quantity) * Math.round(Number(l.price) * 100), 0);
        const taxPaise = Math.round((sub * 18) / 100);
        const amount = rupees(sub + taxPaise);
        const credit = saleId % 10 === 0;
        const paid = credit ? '0.00' : amount;
        const client_id = credit ? 2 + (saleId % 49) : 1;
        saleDocs.push({
          companyId,
          saleId,
          status: 'complete',
          date: at.toISOString().slice(0, 10),
          createdAt: at,
          customer: { client_id, name: `Customer ${client_id}` },
          lines,
          summery: { sub_total: rupees(sub), tax: rupees(taxPaise), total: amount },
          amount,
          paid,
          mode: credit ? 'credit' : 'cash',
          gst: null,
          staff: { uid: 3, name: 'Demo Staff' },
        });
        for (const l of lines) {
          const q = Number(l.quantity) * 1000;
          stock[l.product_id] -= q;
          moves.push({
            companyId,
            product_id: l.product_id,
            kind: 'sale',
            source_id: saleId,
            qty_m: -q,
            stock_m: stock[l.product_id],
            seq: ++moveSeq,
            at,
          });
        }
        sources.push({ companyId, kind: 'sale', id: saleId, reversed: false, at });
        entries.push({
          companyId,
          seq: ++entrySeq,
          partyKind: 'customer',
          partyId: client_id,
          sourceKind: 'sale',
          sourceId: saleId,
          entryKind: 'sale',
          amount,
          paid,
          delta: rupees(Math.round(Number(amount) * 100) - Math.round(Number(paid) * 100)),
          at,
        });
      }
      await Promise.all([
        sal.collection('sales').insertMany(saleDocs),
        inv.collection('movements').insertMany(moves),
        inv.collection('stock_sources').insertMany(sources),
        led.collection('entries').insertMany(entries),
      ]);
    }
    await inv
      .collection('products')
      .insertMany(
        Array.from({ length: PRODUCTS }, (_, k) => ({
          companyId,
          product_id: k + 1,
          name: `Product ${k + 1}`,
          price: rupees(1000 + (k + 1) * 25),
          stock_m: stock[k + 1],
          unit: 'pcs',
        })),
      );
  } finally {
    await client.close();
    if (!keep) await server.stop();
  }
  return keep ? server : null;
}

async function main() {
  const sales = Number(arg('--sales') ?? 100_000);
  const passphrase = arg('--passphrase');
  // --online: back up while the server that wrote the data runs (as under npm start); default: stopped.
  const online = process.argv.includes('--online');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-drill-'));
  const dataDir = path.join(dir, 'data');
  try {
    let t = Date.now();
    const running = await seed(path.join(dataDir, 'mongo'), sales, online);
    fs.writeFileSync(path.join(dataDir, 'jwt-secret'), 'drill-'.repeat(11));
    const storeBytes = fs.statSync(path.join(dataDir, 'mongo', 'embedded-mongo.mdb')).size;
    console.log(
      `seeded ${sales} sales (+ ${2 * sales} movements, ${sales} entries) in ${((Date.now() - t) / 1000).toFixed(1)} s; store file ${(storeBytes / 1048576).toFixed(1)} MB`,
    );

    t = Date.now();
    const b = await createBackup({
      dataDir,
      outDir: path.join(dir, 'backups'),
      rootDir: ROOT,
      passphrase,
      ...(running ? { mongoUri: running.uri } : {}),
    });
    const total = Date.now() - t;
    await running?.stop();
    const v = b.verification!;
    console.log(
      `${online ? 'online' : 'offline'} backup ${b.name}: ${(b.size / 1048576).toFixed(1)} MB${passphrase ? ' (encrypted)' : ''}; ${((total - v.millis) / 1000).toFixed(1)} s to snapshot and pack, ${(v.millis / 1000).toFixed(1)} s to verify (${v.documents} documents counted, auditor: ${v.audit.split('\n').pop()}); good: ${v.good}${v.good ? '' : ` (${v.problems.join(' ')})`}`,
    );
    t = Date.now();
    await restoreBackup({ file: b.file, dataDir, passphrase });
    console.log(
      `restore: ${((Date.now() - t) / 1000).toFixed(1)} s (the data folder moved aside, the backup unpacked in its place)`,
    );
    t = Date.now();
    const server = await startMongo({ port: 0, dbPath: path.join(dataDir, 'mongo') });
    const client = await MongoClient.connect(server.uri);
    const n = await client.db('bahi_sales').collection('sales').countDocuments({});
    await client.close();
    await server.stop();
    console.log(
      `a server starts on the restored folder in ${((Date.now() - t) / 1000).toFixed(1)} s and finds ${n} sales`,
    );
    if (!v.good || n !== sales) process.exitCode = 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
