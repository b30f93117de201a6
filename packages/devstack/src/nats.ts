import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { natsAuthorizationBlock, type NatsPrincipal } from '@bahi/contracts';
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

/** One NATS user of `startNats`: a principal of the contracts, with its password. */
export interface NatsUser {
  principal: NatsPrincipal;
  password: string;
}

/** One node of a local cluster: its name, its route port and every node's route port (its own included). */
export interface NatsClusterNode {
  serverName: string;
  routePort: number;
  routePorts: number[];
}

/** The NATS nodes `npm start` runs (`BAHI_NATS_CLUSTER`): 1 (default) or 3, a JetStream cluster on loopback. */
export function natsClusterSize(env: NodeJS.ProcessEnv): 1 | 3 {
  const raw = env.BAHI_NATS_CLUSTER;
  if (raw === undefined || raw === '' || raw === '1') return 1;
  if (raw === '3') return 3;
  throw new Error(`BAHI_NATS_CLUSTER must be 1 or 3 (JetStream needs a majority of an odd number of nodes), got '${raw}'.`);
}

/**
 * A nats-server config: loopback only, JetStream in `storeDir`, no monitoring port, and (when
 * users are given) one user per principal with the permissions generated from the contracts;
 * then a client without credentials is refused. With `cluster`, the node joins a cluster on
 * loopback routes.
 */
export function natsConfig(opts: { port: number; storeDir: string; users?: NatsUser[]; cluster?: NatsClusterNode }): string {
  const lines = ['listen: "127.0.0.1:' + opts.port + '"', `jetstream { store_dir: ${JSON.stringify(opts.storeDir)} }`];
  if (opts.cluster) {
    const c = opts.cluster;
    lines.push(
      `server_name: ${JSON.stringify(c.serverName)}`,
      `cluster { name: "bahi", listen: "127.0.0.1:${c.routePort}", routes: [${c.routePorts.map((p) => JSON.stringify(`nats://127.0.0.1:${p}`)).join(', ')}] }`,
    );
  }
  if (opts.users?.length) {
    const byPrincipal = new Map(opts.users.map((u) => [u.principal, u.password]));
    lines.push(
      natsAuthorizationBlock(
        (p) => JSON.stringify(byPrincipal.get(p)),
        opts.users.map((u) => u.principal),
      ),
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * Writes `natsConfig` into a fresh 0700 temp dir (the file 0600: it holds passwords) and makes
 * `storeDir`; the caller removes `confDir` once the server has stopped.
 */
export function writeNatsConfig(opts: { port: number; storeDir: string; users?: NatsUser[]; cluster?: NatsClusterNode }): { confFile: string; confDir: string } {
  fs.mkdirSync(opts.storeDir, { recursive: true });
  const confDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-nats-conf-'));
  const confFile = path.join(confDir, 'nats.conf');
  fs.writeFileSync(confFile, natsConfig({ port: opts.port, storeDir: path.resolve(opts.storeDir), users: opts.users, cluster: opts.cluster }), { mode: 0o600 });
  return { confFile, confDir };
}

/**
 * Starts a real nats-server with JetStream. `port: 0` (default) picks a free port; `storeDir`
 * defaults to a fresh temp dir that is removed on stop. With `users`, only those users may
 * connect, each with its contracts permissions; without, anyone on loopback may (service tests).
 */
export async function startNats(opts: { port?: number; storeDir?: string; users?: NatsUser[] } = {}): Promise<NatsHandle> {
  // A busy port must fail here: otherwise the readiness probe would talk to whoever holds it.
  if (opts.port) await assertPortFree(opts.port, 'NATS');
  const port = opts.port || (await freePort());
  const tmp = opts.storeDir ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-nats-'));
  const storeDir = opts.storeDir ?? tmp!;
  const { confFile, confDir } = writeNatsConfig({ port, storeDir, users: opts.users });
  const child = spawn(findNatsServer(), ['-c', confFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  try {
    await waitForPort(port, child, 10_000);
  } catch (err) {
    child.kill('SIGKILL');
    fs.rmSync(confDir, { recursive: true, force: true });
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
          fs.rmSync(confDir, { recursive: true, force: true });
          if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
