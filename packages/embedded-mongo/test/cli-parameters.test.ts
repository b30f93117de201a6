import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { MongoClient } from 'mongodb';

const ROOT = path.join(__dirname, '..');

/** The CLI from source in its own process, with `args`; resolves with its URI or its refusal. */
function startCli(args: string[]): Promise<{ child: ChildProcess; uri: string }> {
  const child = spawn(process.execPath, [path.join(__dirname, 'fixtures/run-ts.js'), 'src/cli.ts', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (mongodb:\/\/\S+)/.exec(out);
      if (m) resolve({ child, uri: m[1]! });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
}

describe('embedded-mongo --setParameter', () => {
  it('transactionLifetimeLimitSeconds bounds how long a dead client\'s open transaction holds its documents', async () => {
    const { child, uri } = await startCli(['--setParameter', 'transactionLifetimeLimitSeconds=2']);
    const dead = await MongoClient.connect(uri);
    const live = await MongoClient.connect(uri);
    try {
      const c = live.db('cli').collection('stock');
      await c.insertOne({ _id: 1, qty: 10 } as never);
      const session = dead.startSession();
      session.startTransaction();
      await dead.db('cli').collection('stock').updateOne({ _id: 1 as never }, { $inc: { qty: -1 } }, { session });
      // The client goes away without ending its transaction (a SIGKILLed service).
      await dead.close(true);
      const t0 = Date.now();
      await c.updateOne({ _id: 1 as never }, { $inc: { qty: -2 } });
      const waited = Date.now() - t0;
      expect(await c.findOne({ _id: 1 as never })).toEqual({ _id: 1, qty: 8 });
      // Held until the 2 s lifetime, not the default 60 s.
      expect(waited).toBeLessThan(30_000);
    } finally {
      await live.close();
      child.kill('SIGTERM');
    }
  }, 60_000);

  it('refuses a parameter it does not have, and a lifetime that is not whole seconds', async () => {
    await expect(startCli(['--setParameter', 'notablescan=1'])).rejects.toThrow('unsupported parameter: notablescan (only transactionLifetimeLimitSeconds)');
    await expect(startCli(['--setParameter', 'transactionLifetimeLimitSeconds=0.5'])).rejects.toThrow("transactionLifetimeLimitSeconds must be a whole number of seconds, got '0.5'");
  }, 60_000);
});
