import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { assertPortFree, freePort } from './ports';

export interface NatsHandle {
  url: string;
  port: number;
  /** The nats-server process, for CPU accounting in benchmarks. */
  pid?: number;
  stop(): Promise<void>;
}

const CANDIDATES = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'];

/** Debian's nats-server (apt-get install nats-server), or NATS_SERVER_BIN. */
export function findNatsServer(): string {
  const fromEnv = process.env.NATS_SERVER_BIN;
  if (fromEnv) return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const p = path.join(dir, 'nats-server');
    if (fs.existsSync(p)) return p;
  }
  const found = CANDIDATES.find((p) => fs.existsSync(p));
  if (!found) {
    throw new Error('nats-server not found: install it with `apt-get install nats-server` or set NATS_SERVER_BIN.');
  }
  return found;
}

function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tryOnce = () => {
      if (child.exitCode !== null) return reject(new Error(`nats-server exited with code ${child.exitCode}`));
      const sock = net.connect(port, '127.0.0.1');
      sock.once('connect', () => {
        sock.destroy();
        resolve();
      });
      sock.once('error', () => {
        sock.destroy();
        if (Date.now() > deadline) reject(new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`));
        else setTimeout(tryOnce, 50);
      });
    };
    tryOnce();
  });
}

/**
 * Starts a real nats-server with JetStream. `port: 0` (default) picks a free port; `storeDir`
 * defaults to a fresh temp dir that is removed on stop.
 */
export async function startNats(opts: { port?: number; storeDir?: string } = {}): Promise<NatsHandle> {
  // A busy port must fail here: otherwise the readiness probe would talk to whoever holds it.
  if (opts.port) await assertPortFree(opts.port, 'NATS');
  const port = opts.port || (await freePort());
  const tmp = opts.storeDir ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-nats-'));
  const storeDir = opts.storeDir ?? tmp!;
  fs.mkdirSync(storeDir, { recursive: true });
  const child = spawn(findNatsServer(), ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  try {
    await waitForPort(port, child, 10_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${stderr}`);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => {
          if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
