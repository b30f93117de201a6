// A whole stack of real processes (embedded MongoDB on a data path, nats-server with JetStream,
// identity, inventory, ledger, sales, gateway) where any one process can be SIGKILLed and
// started again on the same port and data, as a crash and a restart would.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findNatsServer, freePort } from '@bahi/devstack';

export const ROOT = path.resolve(__dirname, '..', '..');
export const SERVICES = ['identity', 'inventory', 'ledger', 'sales'] as const;
export type Part = 'mongo' | 'nats' | (typeof SERVICES)[number] | 'gateway';

interface Proc {
  cmd: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  health?: string;
  child?: ChildProcess;
}

export interface RigOptions {
  env?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
}

export class Rig {
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-rel-'));
  readonly logDir = path.join(ROOT, 'test-results', 'logs', `reliability-${Date.now()}-${process.pid}`);
  readonly jwtSecret = randomBytes(32).toString('hex');
  private readonly procs = new Map<Part, Proc>();
  gatewayUrl = '';
  mongoUri = '';
  serviceUrl: Record<string, string> = {};
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
    const mongoPort = await freePort();
    const dbPath = path.join(this.dataDir, 'mongo');
    fs.mkdirSync(dbPath, { recursive: true });
    this.procs.set('mongo', { cmd: process.execPath, args: [cli, '--port', String(mongoPort), '--dbpath', dbPath], cwd: ROOT, env: process.env, port: mongoPort });
    this.mongoUri = `mongodb://127.0.0.1:${mongoPort}`;
    const natsPort = await freePort();
    const store = path.join(this.dataDir, 'nats');
    this.procs.set('nats', { cmd: findNatsServer(), args: ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', store], cwd: ROOT, env: process.env, port: natsPort });
    await Promise.all([this.startPart('mongo'), this.startPart('nats')]);

    const ports: Record<string, number> = {};
    for (const s of SERVICES) ports[s] = await freePort();
    const urls: Record<string, string> = {};
    for (const s of SERVICES) urls[`${s.toUpperCase()}_URL`] = `http://127.0.0.1:${ports[s]}`;
    const common = {
      ...process.env,
      ...urls,
      MONGODB_URI: this.mongoUri,
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      BAHI_JWT_SECRET: this.jwtSecret,
      BAHI_DEMO: '1',
      LOG_LEVEL: 'info',
      ...opts.env,
    };
    for (const s of SERVICES) {
      this.serviceUrl[s] = `http://127.0.0.1:${ports[s]}`;
      this.procs.set(s, {
        cmd: process.execPath,
        args: ['dist/main.js'],
        cwd: path.join(ROOT, 'services', s),
        env: { ...common, [`${s.toUpperCase()}_PORT`]: String(ports[s]) },
        port: ports[s]!,
        health: `${this.serviceUrl[s]}/health`,
      });
    }
    await Promise.all(SERVICES.map((s) => this.startPart(s)));
    const gwPort = await freePort();
    this.gatewayUrl = `http://127.0.0.1:${gwPort}`;
    this.procs.set('gateway', {
      cmd: process.execPath,
      args: ['dist/main.js'],
      cwd: path.join(ROOT, 'gateway'),
      env: { ...common, PORT: String(gwPort), SHELL_DIR: path.join(this.dataDir, 'no-shell'), REMOTES_DIR: path.join(this.dataDir, 'no-remotes'), ...opts.gatewayEnv },
      port: gwPort,
      health: `${this.gatewayUrl}/health`,
    });
    await this.startPart('gateway');
  }

  /** Starts (or starts again) one part on its port and data, and waits until it serves. */
  async startPart(part: Part): Promise<void> {
    const p = this.procs.get(part)!;
    if (p.child && p.child.exitCode === null && p.child.signalCode === null) return;
    const log = fs.openSync(path.join(this.logDir, `${part}.log`), 'a');
    p.child = spawn(p.cmd, p.args, { cwd: p.cwd, env: p.env, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (p.child.exitCode !== null) throw new Error(`${part} exited with ${p.child.exitCode}; see ${this.logDir}/${part}.log`);
      if (p.health ? await httpOk(p.health) : await tcpOpen(p.port)) return;
      await sleep(200);
    }
    throw new Error(`${part} did not come up within 120 s; see ${this.logDir}/${part}.log`);
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

  async restart(part: Part): Promise<void> {
    await this.kill(part);
    await this.startPart(part);
  }

  async stop(): Promise<void> {
    const order: Part[] = ['gateway', ...SERVICES, 'nats', 'mongo'];
    for (const part of order) {
      const child = this.procs.get(part)?.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(t);
    }
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
