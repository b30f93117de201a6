// A whole stack of real processes (embedded MongoDB on a data path, nats-server with JetStream,
// identity, inventory, ledger, sales, reports, gateway) where any one process can be SIGKILLed and
// started again on the same port and data, as a crash and a restart would.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findNatsServer, freePort } from '@bahi/devstack';

export const ROOT = path.resolve(__dirname, '..', '..');
export const SERVICES = ['identity', 'inventory', 'ledger', 'sales', 'reports'] as const;
/** Started once the others serve: reports rebuilds from their history at its first start. */
const LATE: readonly Service[] = ['reports'];
export type Service = (typeof SERVICES)[number];
/** A process of the rig; a service's further replicas are `sales-2`, `sales-3`, ... */
export type Part = 'mongo' | 'nats' | `nats-${number}` | Service | `${Service}-${number}` | 'gateway';

interface Proc {
  cmd: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  health?: string;
  url?: string;
  child?: ChildProcess;
  /** The log file as opened for the running child: readable even when a test run removed the folder. */
  logFd?: number;
  /** Moves the part to another port (first start only: others already know the port after that). */
  bind(port: number): void;
}

export interface RigOptions {
  env?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
  /** Processes per service (default 1): same NATS queue group, each its own port; the gateway takes them all. */
  replicas?: Partial<Record<Service, number>>;
  /** A data folder to start on (a restored backup, the upgrade snapshot): its `mongo/` is copied into the rig's first. */
  seedDir?: string;
  /** NATS nodes (default 1): with 3, a JetStream cluster (`nats`, `nats-2`, `nats-3`), every stream at 3 copies. */
  natsNodes?: number;
  /** The database server's transactionLifetimeLimitSeconds (default 60): how long a killed client's open transaction holds its documents. */
  mongoTransactionLifetimeSeconds?: number;
}

export class Rig {
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-rel-'));
  readonly logDir = path.join(ROOT, 'test-results', 'logs', `reliability-${Date.now()}-${process.pid}`);
  readonly jwtSecret = randomBytes(32).toString('hex');
  private readonly procs = new Map<Part, Proc>();
  gatewayUrl = '';
  mongoUri = '';
  /** Every NATS node's address, separated by commas (NATS_URL as the services get it). */
  natsUrl = '';
  /** Each service's first replica. */
  serviceUrl: Record<string, string> = {};
  /** Every replica of each service, as the gateway is given them. */
  replicaUrls: Record<string, string[]> = {};
  /** Every kill done, for the report. */
  readonly kills: string[] = [];

  private constructor() {
    fs.mkdirSync(this.logDir, { recursive: true });
  }

  static async start(opts: RigOptions = {}): Promise<Rig> {
    const rig = new Rig();
    try {
      await rig.boot(opts);
    } catch (err) {
      await rig.stop();
      throw err;
    }
    return rig;
  }

  private async boot(opts: RigOptions) {
    const cli = path.join(ROOT, 'packages', 'embedded-mongo', 'dist', 'cli.js');
    for (const f of [cli, 'gateway/dist/main.js', ...SERVICES.map((s) => `services/${s}/dist/main.js`)]) {
      if (!fs.existsSync(path.resolve(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first.`);
    }
    const dbPath = path.join(this.dataDir, 'mongo');
    fs.mkdirSync(dbPath, { recursive: true });
    if (opts.seedDir) fs.cpSync(path.join(opts.seedDir, 'mongo'), dbPath, { recursive: true });
    const mongo: Proc = {
      cmd: process.execPath, args: [], cwd: ROOT, env: process.env, port: 0,
      bind: (port) => {
        mongo.port = port;
        mongo.args = [cli, '--port', String(port), '--dbpath', dbPath];
        if (opts.mongoTransactionLifetimeSeconds) mongo.args.push('--setParameter', `transactionLifetimeLimitSeconds=${opts.mongoTransactionLifetimeSeconds}`);
        this.mongoUri = `mongodb://127.0.0.1:${port}`;
      },
    };
    // One node, or a cluster whose route ports are fixed first (each node lists all of them).
    const nodes = opts.natsNodes ?? 1;
    const names: Part[] = Array.from({ length: nodes }, (_, i) => (i ? (`nats-${i + 1}` as Part) : 'nats'));
    const routes = nodes > 1 ? await Promise.all(names.map(() => freePort())) : [];
    const clientPorts: number[] = [];
    names.forEach((name, i) => {
      const store = path.join(this.dataDir, i ? `nats-${i + 1}` : 'nats');
      const node: Proc = {
        cmd: findNatsServer(), args: [], cwd: ROOT, env: process.env, port: 0,
        bind: (port) => {
          node.port = port;
          clientPorts[i] = port;
          node.args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store];
          if (nodes > 1)
            node.args.push('--name', name, '--cluster_name', 'bahi', '--cluster', `nats://127.0.0.1:${routes[i]}`, '--routes', routes.map((r) => `nats://127.0.0.1:${r}`).join(','));
        },
      };
      this.procs.set(name, node);
    });
    mongo.bind(await freePort());
    for (const name of names) this.procs.get(name)!.bind(await freePort());
    this.procs.set('mongo', mongo);
    await Promise.all([this.startPart('mongo', true), ...names.map((n) => this.startPart(n, true))]);
    const natsUrl = (this.natsUrl = clientPorts.map((p) => `nats://127.0.0.1:${p}`).join(','));

    const common = {
      ...process.env,
      MONGODB_URI: this.mongoUri,
      NATS_URL: natsUrl,
      ...(nodes > 1 ? { BAHI_JS_REPLICAS: String(nodes) } : {}),
      BAHI_JWT_SECRET: this.jwtSecret,
      BAHI_DEMO: '1',
      LOG_LEVEL: 'info',
      // A given admin password is not force-changed at first login (api.ts logs in with it).
      BAHI_ADMIN_PASSWORD: process.env.BAHI_ADMIN_PASSWORD || 'admin12345',
      ...opts.env,
    };
    const service = (s: Service, part: Part, extra: Record<string, string> = {}) => {
      const proc: Proc = {
        cmd: process.execPath, args: ['dist/main.js'], cwd: path.join(ROOT, 'services', s), env: {}, port: 0,
        bind: (port) => {
          proc.port = port;
          const url = `http://127.0.0.1:${port}`;
          if (part === s) this.serviceUrl[s] = url;
          proc.health = `${url}/health`;
          proc.url = url;
          proc.env = { ...common, [`${s.toUpperCase()}_PORT`]: String(port), ...extra };
        },
      };
      this.procs.set(part, proc);
      return proc;
    };
    for (const s of SERVICES) service(s, s).bind(await freePort());
    await Promise.all(SERVICES.filter((s) => !LATE.includes(s)).map((s) => this.startPart(s, true)));
    await Promise.all(LATE.map((s) => this.startPart(s, true)));
    // Further replicas once the first is up: it seeded the demo data, they do not.
    const extra: Part[] = [];
    for (const s of SERVICES) {
      for (let i = 2; i <= (opts.replicas?.[s] ?? 1); i++) {
        const part = `${s}-${i}` as Part;
        service(s, part, { BAHI_DEMO: '0' }).bind(await freePort());
        extra.push(part);
      }
    }
    await Promise.all(extra.map((p) => this.startPart(p, true)));
    const urls: Record<string, string> = {};
    for (const s of SERVICES) {
      this.replicaUrls[s] = [s, ...extra.filter((p) => p.startsWith(`${s}-`))].map((p) => this.procs.get(p as Part)!.url!);
      urls[`${s.toUpperCase()}_URL`] = this.replicaUrls[s].join(',');
    }
    const gw: Proc = {
      cmd: process.execPath, args: ['dist/main.js'], cwd: path.join(ROOT, 'gateway'), env: {}, port: 0,
      bind: (port) => {
        gw.port = port;
        this.gatewayUrl = `http://127.0.0.1:${port}`;
        gw.health = `${this.gatewayUrl}/health`;
        gw.env = { ...common, ...urls, PORT: String(port), SHELL_DIR: path.join(this.dataDir, 'no-shell'), REMOTES_DIR: path.join(this.dataDir, 'no-remotes'), ...opts.gatewayEnv };
      },
    };
    gw.bind(await freePort());
    this.procs.set('gateway', gw);
    await this.startPart('gateway', true);
  }

  /**
   * Starts (or starts again) one part on its port and data, and waits until it serves. On a
   * busy machine another program may take a port between picking and binding it: on the first
   * start the part then moves to a fresh port.
   */
  async startPart(part: Part, first = false): Promise<void> {
    const p = this.procs.get(part)!;
    if (p.child && p.child.exitCode === null && p.child.signalCode === null) return;
    for (let attempt = 1; ; attempt++) {
      const file = path.join(this.logDir, `${part}.log`);
      // A concurrent `npm test` clears test-results/: the restart must not fail for want of the folder.
      fs.mkdirSync(this.logDir, { recursive: true });
      const log = fs.openSync(file, 'a+');
      const child = spawn(p.cmd, p.args, { cwd: p.cwd, env: p.env, stdio: ['ignore', log, log] });
      p.child = child;
      if (p.logFd !== undefined) fs.closeSync(p.logFd);
      p.logFd = log;
      const deadline = Date.now() + 120_000;
      let exited = false;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) {
          exited = true;
          break;
        }
        if (p.health ? await httpOk(p.health) : await tcpOpen(p.port)) {
          // A port answering could be someone else's: ours must still be running a moment later.
          await sleep(300);
          if (child.exitCode === null) return;
          continue;
        }
        await sleep(200);
      }
      if (!exited) throw new Error(`${part} did not come up within 120 s; see ${file}`);
      const busy = /in use|EADDRINUSE/i.test(fs.readFileSync(file, 'utf8').slice(-4000));
      if (!busy || attempt >= 4) throw new Error(`${part} exited with ${child.exitCode}; see ${file}`);
      if (first) p.bind(await freePort());
      else await sleep(2000);
    }
  }

  /** Sets (undefined: removes) environment variables of `part` for its next start, e.g. a kill point. */
  setEnv(part: Part, env: Record<string, string | undefined>): void {
    const p = this.procs.get(part)!;
    p.env = { ...p.env };
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete p.env[k];
      else p.env[k] = v;
    }
  }

  /** SIGKILL: no shutdown hooks, exactly like a crash or a pulled plug. */
  async kill(part: Part): Promise<void> {
    const p = this.procs.get(part)!;
    const child = p.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
    this.kills.push(part);
  }

  /** What `part` has logged since it was last started, from byte `from` on. */
  readLog(part: Part, from = 0): string {
    const fd = this.procs.get(part)?.logFd;
    if (fd === undefined) return '';
    const size = fs.fstatSync(fd).size;
    if (size <= from) return '';
    const buf = Buffer.alloc(size - from);
    fs.readSync(fd, buf, 0, buf.length, from);
    return buf.toString('utf8');
  }

  /** The size of what `part` has logged since it was last started (a mark for `readLog`). */
  logSize(part: Part): number {
    const fd = this.procs.get(part)?.logFd;
    return fd === undefined ? 0 : fs.fstatSync(fd).size;
  }

  async restart(part: Part): Promise<void> {
    await this.kill(part);
    await this.startPart(part);
  }

  async stop(): Promise<void> {
    const isNats = (p: Part) => p === 'nats' || p.startsWith('nats-');
    const parts = [...this.procs.keys()];
    const order: Part[] = ['gateway', ...parts.filter((p) => p !== 'gateway' && p !== 'mongo' && !isNats(p)), ...parts.filter(isNats), 'mongo'];
    for (const part of order) {
      const child = this.procs.get(part)?.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(t);
    }
    for (const p of this.procs.values()) if (p.logFd !== undefined) fs.closeSync(p.logFd);
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function httpOk(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    return res.ok;
  } catch {
    return false;
  }
}

function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => (s.destroy(), resolve(false)));
  });
}

/** Polls `check` until it returns a truthy value or the (generous) deadline passes. */
export async function until<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await sleep(500);
  }
  throw new Error(`Gave up waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}
