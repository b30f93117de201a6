import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { NatsPrincipals, type NatsPrincipal } from '@bahi/contracts';
import { mongoCredentials, mongoUriFor } from './mongo';
import { findNatsServer, natsClusterSize, writeNatsConfig, type NatsUser } from './nats';
import { assertPortFree, freePort, nextFreePort } from './ports';
import { DEFAULT_RESTART, ManagedProcess, waitHealthy, type LogMode, type ProcessStatus, type RestartPolicy } from './processes';

/** The services behind the gateway and their default ports (docs/design.md). */
export const StackServices = { identity: 3001, inventory: 3002, sales: 3003, ledger: 3004, documents: 3005, reports: 3006 } as const;
/** Started once the others are healthy: at start it may ask the owners for their history (rebuild). */
const LateServices: readonly StackService[] = ['reports'];
export type StackService = keyof typeof StackServices;

export interface StackOptions {
  /** Repository root (default: found from this package's location). */
  rootDir?: string;
  /** Where MongoDB and NATS keep data and where log files go. Default: a temp dir removed on stop. */
  dataDir?: string;
  /** Gateway port: 0 (default) picks a free one. */
  port?: number;
  /** Services to run. Default: every service that is built. Asking for an unbuilt one is an error. */
  services?: StackService[];
  /** Extra environment for every child (e.g. BAHI_DEMO=0). MONGODB_URI / NATS_URL here or in the environment reuse those servers. */
  env?: Record<string, string | undefined>;
  /** The default ports (27017, 4222, 3001-3005, gateway `port`), moving to the next free one when busy; otherwise free ports everywhere. */
  fixedPorts?: boolean;
  /** 'prefix' streams child output with a [name] prefix; 'files' writes <logDir>/<name>.log. Default: files under CI or jest. */
  logs?: LogMode;
  /** Default: <dataDir>/logs, or test-results/logs/stack-<time> when the data dir is temporary (kept after stop). */
  logDir?: string;
  jwtSecret?: string;
  /**
   * Processes per service (default 1), e.g. { sales: 2 }: each its own port, all in the service's
   * NATS queue group; the gateway spreads calls over them (gateway/src/forward.ts).
   */
  replicas?: Partial<Record<StackService, number>>;
  /** Per-process deadline to become healthy. */
  healthTimeoutMs?: number;
  /** Where notices (moved ports, reused servers) go. Default: console.log. */
  onNotice?: (msg: string) => void;
  /**
   * Once the stack is up, a process that dies unasked (MongoDB, nats-server, a service, the
   * gateway) is started again after a backoff (default DEFAULT_RESTART: 0.5 s doubling to 30 s,
   * from 0.5 s again after 60 s up). `false`: a dead process stays dead.
   */
  restart?: Partial<RestartPolicy> | false;
}

export interface Stack {
  gatewayUrl: string;
  /** The root user's URI when the stack runs the embedded server (for the auditor, benches and tools). */
  mongoUri: string;
  /** `<dataDir>/mongo-credentials.json` when the stack runs the embedded server: every MongoDB password. */
  mongoCredentialsFile?: string;
  natsUrl: string;
  /** Each principal's NATS user and password when this stack started nats-server (empty with NATS_URL). */
  natsUsers: Partial<Record<NatsPrincipal, { user: string; password: string }>>;
  jwtSecret: string;
  dataDir: string;
  logDir: string;
  /** Base URL of every service started (its first replica). */
  services: Partial<Record<StackService, string>>;
  /** Base URL of every replica of every service started; processes are named sales, sales-2, ... */
  replicas: Partial<Record<StackService, string[]>>;
  /** Process ids of what this stack started (mongo, nats, services, gateway): benchmarks read their CPU time. */
  pids(): Record<string, number>;
  /** Each process this stack started: running or restarting, its restarts and last unexpected exit. */
  processes(): Record<string, ProcessStatus>;
  /** `<dataDir>/processes.json`: `processes()` as the gateway shows it in `/api/health` (BAHI_PROCESSES_FILE). */
  processesFile: string;
  stop(): Promise<void>;
}

function defaultRoot(): string {
  // packages/devstack/{src,dist}/stack.* -> repository root
  return path.resolve(__dirname, '..', '..', '..');
}

/** Services whose build output exists, in the order of StackServices. */
export function builtServices(rootDir = defaultRoot()): StackService[] {
  return (Object.keys(StackServices) as StackService[]).filter((s) =>
    fs.existsSync(path.join(rootDir, 'services', s, 'dist', 'main.js')),
  );
}

function waitForTcp(port: number, proc: ManagedProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (!proc.running) return reject(new Error(`${proc.name} exited before listening on ${port}. Its last output:\n${proc.lastLines()}`));
      const sock = net.connect(port, '127.0.0.1');
      sock.once('connect', () => {
        sock.destroy();
        resolve();
      });
      sock.once('error', () => {
        sock.destroy();
        if (Date.now() > deadline) reject(new Error(`${proc.name} did not listen on ${port} within ${timeoutMs} ms. Its last output:\n${proc.lastLines()}`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/**
 * Starts MongoDB (embedded, unless MONGODB_URI), nats-server (unless NATS_URL), every
 * service and the gateway as child processes, and waits until each is healthy.
 */
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const rootDir = opts.rootDir ?? defaultRoot();
  const notice = opts.onNotice ?? ((m: string) => console.log(m));
  const env = { ...opts.env };
  const ownData = !opts.dataDir;
  const dataDir = opts.dataDir ? path.resolve(opts.dataDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-stack-'));
  const logDir = path.resolve(
    opts.logDir ?? (ownData ? path.join(rootDir, 'test-results', 'logs', `stack-${Date.now()}-${process.pid}`) : path.join(dataDir, 'logs')),
  );
  const logs: LogMode = opts.logs ?? (process.env.CI || process.env.JEST_WORKER_ID ? 'files' : 'prefix');
  const healthTimeoutMs = opts.healthTimeoutMs ?? 90_000;
  const jwtSecret = opts.jwtSecret ?? env.BAHI_JWT_SECRET ?? process.env.BAHI_JWT_SECRET ?? randomBytes(32).toString('hex');
  const fixed = opts.fixedPorts === true;
  const pickPort = (preferred: number, what: string) => (fixed ? nextFreePort(preferred, what, notice) : freePort());

  const services = opts.services ?? builtServices(rootDir);
  const replicaCount = (s: StackService) => opts.replicas?.[s] ?? 1;
  for (const [s, n] of Object.entries(opts.replicas ?? {})) {
    if (!Number.isInteger(n) || n! < 1 || n! > 9) throw new Error(`replicas.${s} must be a whole number from 1 to 9, got ${n}.`);
  }
  for (const s of services) {
    if (!(s in StackServices)) throw new Error(`Unknown service "${s}". Known: ${Object.keys(StackServices).join(', ')}.`);
    if (!fs.existsSync(path.join(rootDir, 'services', s, 'dist', 'main.js'))) {
      throw new Error(`The ${s} service is not built (services/${s}/dist/main.js is missing). Run \`npm run build\` first.`);
    }
  }
  const gatewayMain = path.join(rootDir, 'gateway', 'dist', 'main.js');
  if (!fs.existsSync(gatewayMain)) throw new Error('The gateway is not built (gateway/dist/main.js is missing). Run `npm run build` first.');

  const procs: ManagedProcess[] = [];
  const stoppers: (() => Promise<void>)[] = [];
  let color = 0;
  const killAll = () => procs.forEach((p) => p.killNow());
  process.once('exit', killAll);

  const spawnNode = (name: string, script: string, cwd: string, childEnv: Record<string, string | undefined>) => {
    const p = new ManagedProcess(name, process.execPath, [script], {
      cwd,
      env: { ...process.env, ...childEnv } as NodeJS.ProcessEnv,
      logs,
      logDir,
      colorIndex: color++,
    });
    procs.push(p);
    return p;
  };

  const processesFile = path.join(dataDir, 'processes.json');
  const processes = () => Object.fromEntries(procs.map((p) => [p.name, p.status()]));
  /** Rewritten whole on every death, restart and recovery: the gateway reads it for /api/health. */
  const writeProcesses = () => {
    try {
      const tmp = `${processesFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, `${JSON.stringify({ updatedAt: new Date().toISOString(), processes: processes() }, null, 2)}\n`);
      fs.renameSync(tmp, processesFile);
    } catch {
      /* the data dir is being removed (stop) */
    }
  };

  const stop = async () => {
    process.removeListener('exit', killAll);
    // Front to back: gateway, services, then the servers they use.
    for (const p of [...procs].reverse().filter((x) => x.name === 'gateway')) await p.stop();
    const isNats = (name: string) => name === 'nats' || name.startsWith('nats-');
    await Promise.all(procs.filter((x) => !['gateway', 'mongo'].includes(x.name) && !isNats(x.name)).map((p) => p.stop()));
    for (const p of procs.filter((x) => isNats(x.name))) await p.stop();
    for (const s of stoppers.reverse()) await s();
    await Promise.all(procs.filter((x) => x.name === 'mongo').map((p) => p.stop()));
    if (ownData) fs.rmSync(dataDir, { recursive: true, force: true });
    // A kept data dir keeps the last run's record: every process stopped, its restarts.
    else if (procs.length) writeProcesses();
  };

  try {
    fs.mkdirSync(dataDir, { recursive: true });
    // The last run's record must not show as this one's while it starts.
    fs.rmSync(processesFile, { force: true });

    /** Ports of the servers this stack runs, for their readiness after a restart. */
    const tcpPorts: Record<string, number> = {};

    // MongoDB
    let mongoUri = env.MONGODB_URI ?? process.env.MONGODB_URI;
    /** Each service's own MONGODB_URI when the embedded server runs with credentials. */
    const serviceMongoUris: Partial<Record<StackService, string>> = {};
    let mongoCredentialsFile: string | undefined;
    if (mongoUri) {
      notice(`Using MongoDB at ${redact(mongoUri)} (MONGODB_URI).`);
    } else {
      const cli = path.join(rootDir, 'packages', 'embedded-mongo', 'dist', 'cli.js');
      if (!fs.existsSync(cli)) throw new Error('The embedded MongoDB server is not built (packages/embedded-mongo/dist/cli.js). Run `npm run build` first.');
      const port = await pickPort(27017, 'MongoDB');
      const dbPath = path.join(dataDir, 'mongo');
      fs.mkdirSync(dbPath, { recursive: true });
      // Credentials generated on first start and kept in the data dir; only loopback listens.
      const creds = mongoCredentials(dataDir, Object.keys(StackServices));
      mongoCredentialsFile = creds.credentialsFile;
      const mongo = new ManagedProcess('mongo', process.execPath, [cli, '--host', '127.0.0.1', '--port', String(port), '--dbpath', dbPath, '--users', creds.usersFile], {
        cwd: rootDir,
        env: process.env,
        logs,
        logDir,
        colorIndex: color++,
      });
      procs.push(mongo);
      await waitForTcp(port, mongo, 30_000);
      tcpPorts.mongo = port;
      mongoUri = mongoUriFor(creds.credentials.root, '127.0.0.1', port);
      for (const s of Object.keys(StackServices) as StackService[]) serviceMongoUris[s] = mongoUriFor(creds.credentials.services[s]!, '127.0.0.1', port);
    }

    // NATS
    let natsUrl = env.NATS_URL ?? process.env.NATS_URL;
    let natsUsers: NatsUser[] = [];
    if (natsUrl) {
      notice(`Using NATS at ${redact(natsUrl)} (NATS_URL).`);
    } else {
      // nats-server as a child like the others (startNats's config), so it is restarted too; with
      // BAHI_NATS_CLUSTER=3, three nodes in one JetStream cluster (`nats`, `nats-2`, `nats-3`).
      const nodes = natsClusterSize({ ...process.env, ...env });
      natsUsers = natsPasswords(dataDir);
      const clientPorts: number[] = [];
      const routePorts: number[] = [];
      for (let i = 0; i < nodes; i++) {
        clientPorts.push(await pickPort(4222 + i, 'NATS'));
        await assertPortFree(clientPorts[i]!, 'NATS');
      }
      if (nodes > 1) for (let i = 0; i < nodes; i++) routePorts.push(await pickPort(6222 + i, 'NATS routes'));
      const started: Promise<void>[] = [];
      for (let i = 0; i < nodes; i++) {
        const name = i ? `nats-${i + 1}` : 'nats';
        const cluster = nodes > 1 ? { serverName: name, routePort: routePorts[i]!, routePorts } : undefined;
        // The first node keeps ./data/nats, so a single node's streams carry over to a cluster.
        const { confFile, confDir } = writeNatsConfig({ port: clientPorts[i]!, storeDir: path.join(dataDir, name), users: natsUsers, cluster });
        stoppers.push(async () => fs.rmSync(confDir, { recursive: true, force: true }));
        const nats = new ManagedProcess(name, findNatsServer(), ['-c', confFile], { cwd: rootDir, env: process.env, logs, logDir, colorIndex: color++ });
        procs.push(nats);
        started.push(waitForTcp(clientPorts[i]!, nats, 10_000));
        tcpPorts[name] = clientPorts[i]!;
      }
      await Promise.all(started);
      natsUrl = clientPorts.map((p) => `nats://127.0.0.1:${p}`).join(',');
      if (nodes > 1) {
        env.BAHI_JS_REPLICAS ??= process.env.BAHI_JS_REPLICAS ?? String(nodes);
        notice(`NATS: a cluster of ${nodes} nodes (BAHI_NATS_CLUSTER), every stream at ${env.BAHI_JS_REPLICAS} copies.`);
      }
    }

    const common = { ...env, MONGODB_URI: mongoUri, NATS_URL: natsUrl, BAHI_JWT_SECRET: jwtSecret };
    // Each child connects to our nats-server as its own user (contracts: natsPermissions).
    const natsEnv = (principal: NatsPrincipal): Record<string, string> => {
      const u = natsUsers.find((x) => x.principal === principal);
      return u ? { NATS_USER: u.principal, NATS_PASSWORD: u.password } : {};
    };

    // Services, in parallel: each waits for its own /health.
    const urls: Partial<Record<StackService, string>> = {};
    const ports: Partial<Record<StackService, number>> = {};
    for (const s of services) ports[s] = await pickPort(StackServices[s], `${s} service`);
    // Services find each other by <NAME>_URL too (documents fetches company logos from identity).
    const peerUrls: Record<string, string> = {};
    for (const s of services) peerUrls[`${s.toUpperCase()}_URL`] = `http://127.0.0.1:${ports[s]}`;
    /** Each process's health URL, for its readiness after a restart. */
    const healthUrls: Record<string, string> = {};
    const startService = async (s: StackService, port: number, name: string, extra: Record<string, string> = {}) => {
      const p = spawnNode(name, 'dist/main.js', path.join(rootDir, 'services', s), {
        ...peerUrls,
        ...common,
        ...(serviceMongoUris[s] ? { MONGODB_URI: serviceMongoUris[s] } : {}),
        ...natsEnv(s),
        [`${s.toUpperCase()}_PORT`]: String(port),
        ...extra,
      });
      const url = `http://127.0.0.1:${port}`;
      healthUrls[name] = `${url}/health`;
      await waitHealthy(p, `${url}/health`, healthTimeoutMs);
      return url;
    };
    await Promise.all(
      services
        .filter((s) => !LateServices.includes(s))
        .map(async (s) => {
          urls[s] = await startService(s, ports[s]!, s);
        }),
    );
    await Promise.all(
      services
        .filter((s) => LateServices.includes(s))
        .map(async (s) => {
          urls[s] = await startService(s, ports[s]!, s);
        }),
    );
    // Further replicas once the first of each is up (it has seeded the demo data: they do not).
    // Same service name, so the same NATS queue group: NATS spreads requests over them.
    const replicaUrls: Partial<Record<StackService, string[]>> = {};
    for (const s of services) replicaUrls[s] = [urls[s]!];
    await Promise.all(
      services.flatMap((s) =>
        Array.from({ length: replicaCount(s) - 1 }, async (_, i) => {
          const port = await pickPort(StackServices[s] + 10 * (i + 1), `${s} service replica ${i + 2}`);
          replicaUrls[s]![i + 1] = await startService(s, port, `${s}-${i + 2}`, { BAHI_DEMO: '0' });
        }),
      ),
    );

    // Gateway
    let gatewayPort: number;
    if (opts.port === undefined || opts.port === 0) gatewayPort = fixed ? await nextFreePort(8080, 'gateway', notice) : await freePort();
    else if (fixed) gatewayPort = await nextFreePort(opts.port, 'gateway', notice);
    else {
      await assertPortFree(opts.port, 'gateway');
      gatewayPort = opts.port;
    }
    const serviceUrlEnv: Record<string, string> = {};
    // Replicas: the gateway takes every URL of a service, separated by commas.
    for (const [s, u] of Object.entries(replicaUrls)) serviceUrlEnv[`${s.toUpperCase()}_URL`] = u.join(',');
    const gw = spawnNode('gateway', gatewayMain, path.join(rootDir, 'gateway'), {
      ...common,
      // The gateway keeps no data: no MongoDB login for it.
      ...(mongoCredentialsFile ? { MONGODB_URI: undefined } : {}),
      ...natsEnv('gateway'),
      ...serviceUrlEnv,
      // Restarts and last exits of every process, shown in /api/health's details.
      BAHI_PROCESSES_FILE: processesFile,
      PORT: String(gatewayPort),
      SHELL_DIR: env.SHELL_DIR ?? path.join(rootDir, 'shell', 'dist'),
      REMOTES_DIR: env.REMOTES_DIR ?? path.join(rootDir, 'frontends'),
    });
    healthUrls.gateway = `http://127.0.0.1:${gatewayPort}/health`;
    await waitHealthy(gw, healthUrls.gateway, healthTimeoutMs);

    // Supervision from here on: a failure to start above is an error, not a restart loop.
    if (opts.restart !== false) {
      const policy: RestartPolicy = { ...DEFAULT_RESTART, ...(opts.restart ?? {}) };
      for (const p of procs) {
        const port = tcpPorts[p.name];
        const health = healthUrls[p.name];
        const ready = port !== undefined ? () => tcpOpen(port) : health ? () => httpOk(health) : undefined;
        p.supervise(policy, ready, writeProcesses);
      }
    }
    writeProcesses();

    return {
      gatewayUrl: `http://localhost:${gatewayPort}`,
      mongoUri,
      mongoCredentialsFile,
      natsUrl,
      natsUsers: Object.fromEntries(natsUsers.map((u) => [u.principal, { user: u.principal, password: u.password }])),
      jwtSecret,
      dataDir,
      logDir,
      services: urls,
      replicas: replicaUrls,
      pids: () => {
        const out: Record<string, number> = {};
        for (const p of procs) if (p.child.pid !== undefined) out[p.name] = p.child.pid;
        return out;
      },
      processes,
      processesFile,
      stop,
    };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}

/**
 * One NATS password per principal, generated into <dataDir>/nats-passwords.json (0600) on first
 * start and reused after, like the JWT secret; a principal added later gets one then.
 */
function natsPasswords(dataDir: string): NatsUser[] {
  const file = path.join(dataDir, 'nats-passwords.json');
  let saved: Record<string, unknown> = {};
  if (fs.existsSync(file)) {
    try {
      saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      throw new Error(`${file} is not valid JSON: delete it to generate new NATS passwords.`);
    }
  }
  const out: Record<string, string> = {};
  for (const p of NatsPrincipals) {
    const v = saved[p];
    out[p] = typeof v === 'string' && /^[0-9a-f]{32,}$/.test(v) ? v : randomBytes(24).toString('hex');
  }
  if (JSON.stringify(out) !== JSON.stringify(saved)) fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return NatsPrincipals.map((principal) => ({ principal, password: out[principal]! }));
}

function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.once('connect', () => (sock.destroy(), resolve(true)));
    sock.once('error', () => (sock.destroy(), resolve(false)));
  });
}

async function httpOk(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/** A URI without its password, for notices. */
function redact(uri: string): string {
  return uri.replace(/\/\/([^:/@]+):[^@/]+@/, '//$1:***@');
}
