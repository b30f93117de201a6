import path from 'node:path';
import { requireJwtSecret } from '@bahi/auth';
import { upstreamsOf } from './forward';

export interface GatewayConfig {
  port: number;
  host: string;
  natsUrl: string;
  /** The gateway's NATS user (NATS_USER, default `gateway`) and NATS_PASSWORD; none: anonymous. */
  natsUser?: string;
  natsPassword?: string;
  jwtSecret: string;
  /** Base URL per service; several, separated by commas, for replicas (forward.ts). */
  serviceUrls: Record<string, string | undefined>;
  shellDir: string;
  remotesDir: string;
  remoteUrls: Record<string, string>;
  logLevel: string;
  /** Which hops' X-Forwarded-For to believe (Express `trust proxy`): the shell's nginx in production. */
  trustProxy: string;
  /** BAHI_PROCESSES_FILE: the devstack's record of its processes' restarts, for /api/health. */
  processesFile?: string;
}

/** Reads the gateway's environment (docs/design.md, "Ports and processes"). */
export function loadConfig(env: NodeJS.ProcessEnv, serviceNames: readonly string[], baseDir: string): GatewayConfig {
  const jwtSecret = requireJwtSecret(env.BAHI_JWT_SECRET, 'the gateway');
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}".`);
  const serviceUrls: Record<string, string | undefined> = {};
  for (const name of serviceNames) {
    const key = `${name.toUpperCase()}_URL`;
    const v = env[key];
    if (!v) continue;
    // One base URL, or several separated by commas: replicas, taken round-robin.
    const urls = upstreamsOf(v);
    for (const u of urls) {
      if (!/^https?:\/\/[^/,\s]+/i.test(u)) throw new Error(`${key} must be http:// URLs separated by commas, got "${u}".`);
    }
    if (urls.length) serviceUrls[name] = urls.join(',');
  }
  const remoteUrls: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    const m = /^REMOTE_([A-Z0-9_]+)_URL$/.exec(k);
    if (m && v) remoteUrls[m[1].toLowerCase()] = v;
  }
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    natsUrl: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    ...(env.NATS_PASSWORD ? { natsUser: env.NATS_USER || 'gateway', natsPassword: env.NATS_PASSWORD } : {}),
    jwtSecret,
    serviceUrls,
    shellDir: path.resolve(baseDir, env.SHELL_DIR ?? '../shell/dist'),
    remotesDir: path.resolve(baseDir, env.REMOTES_DIR ?? '../frontends'),
    remoteUrls,
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.TRUST_PROXY || 'loopback',
    ...(env.BAHI_PROCESSES_FILE ? { processesFile: env.BAHI_PROCESSES_FILE } : {}),
  };
}
