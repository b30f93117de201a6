import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startHarness, tempDir } from './helpers';

const ROOT = path.join(__dirname, '..');

/** Starts the CLI from source in its own process and resolves with its URI. */
function startServerProcess(dbPath: string): Promise<{ child: ChildProcess; uri: string }> {
  const child = spawn(process.execPath, [path.join(__dirname, 'fixtures/run-ts.js'), 'src/cli.ts', '--port', '0', '--dbpath', dbPath], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (mongodb:\/\/\S+)/.exec(out);
      if (m) resolve({ child, uri: m[1] });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}

describe('crash safety', () => {
  it('keeps every acknowledged insert, whole, after the server process is killed with SIGKILL', async () => {
    const tmp = tempDir();
    try {
      const { child, uri } = await startServerProcess(tmp.dir);
      const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 2000, retryWrites: false });
      const c = client.db('crash').collection('orders');
      await c.createIndex({ no: 1 }, { unique: true });
      const acked: number[] = [];
      const payload = 'p'.repeat(2000);
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = w; ; i += 4) {
          try {
            await c.insertOne({ no: i, payload, lines: [{ sku: i, qty: 1 }, { sku: i + 1, qty: 2 }] });
            acked.push(i);
          } catch {
            return;
          }
        }
      });
      while (acked.length < 400) await new Promise((r) => setTimeout(r, 5));
      child.kill('SIGKILL');
      await Promise.all(writers);
      await client.close(true);
      await new Promise((r) => (child.exitCode !== null || child.signalCode ? r(null) : child.once('exit', r)));
      child.stdout?.destroy();
      child.stderr?.destroy();

      const h = await startHarness({ dbPath: tmp.dir });
      const docs = await h.client.db('crash').collection('orders').find().toArray();
      const stored = new Set(docs.map((d) => d.no));
      expect(acked.filter((i) => !stored.has(i))).toEqual([]);
      // at most the four in-flight inserts may have landed without their acknowledgement
      expect(docs.length - acked.length).toBeLessThanOrEqual(4);
      for (const d of docs) {
        expect(d.payload).toBe(payload);
        expect(d.lines).toEqual([{ sku: d.no, qty: 1 }, { sku: d.no + 1, qty: 2 }]);
      }
      const dup = await h.client.db('crash').collection('orders').insertOne({ no: acked[0] }).catch((e) => e);
      expect(dup.code).toBe(11000);
      await h.stop();
    } finally {
      tmp.remove();
    }
  });
});
