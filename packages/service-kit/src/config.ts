import { requireJwtSecret } from '@bahi/auth';
import { DefaultPorts, natsInboxPrefix, natsServers, portEnv, type ServiceName } from '@bahi/contracts';

export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

export interface ServiceConfig {
  service: ServiceName;
  /** HTTP port; 0 picks a free one. */
  port: number;
  /** Listen address (`<NAME>_HOST`): loopback, since only the gateway is reached from the network; `0.0.0.0` in a container. */
  host: string;
  mongoUri: string;
  /** `bahi_<service>` unless the URI names a database (then undefined: the URI decides). */
  dbName: string | undefined;
  /** One server, or a cluster's servers separated by commas. */
  natsUrl: string;
  /** NATS user and password (NATS_USER, default the service name / NATS_PASSWORD); none: connect anonymously. */
  natsUser?: string;
  natsPassword?: string;
  jwtSecret: string;
  logLevel: string;
  /** Default timeout of a NATS request, ms. */
  natsTimeoutMs: number;
}

/** True when a mongodb:// URI has a database path (mongodb://host:27017/shop). */
export function uriNamesDatabase(uri: string): boolean {
  const m = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]*)/.exec(uri);
  return !!m && m[1]!.length > 0;
}

function intEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number (0-65535), got '${raw}'.`);
  return n;
}

/**
 * Connect options of both NATS connections (the plain client and Nest's server): the service's
 * own user, and its own reply inbox prefix, the only inbox its permissions let it read.
 */
export function natsConnectOptions(cfg: ServiceConfig): { servers: string[]; user?: string; pass?: string; inboxPrefix: string } {
  return {
    servers: natsServers(cfg.natsUrl),
    ...(cfg.natsPassword ? { user: cfg.natsUser ?? cfg.service, pass: cfg.natsPassword } : {}),
    inboxPrefix: natsInboxPrefix(cfg.service),
  };
}

/** Reads a service's configuration from the environment (docs/design.md). */
export function loadServiceConfig(service: ServiceName, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const mongoUri = env.MONGODB_URI || `mongodb://127.0.0.1:${DefaultPorts.mongo}`;
  const jwtSecret = requireJwtSecret(env.BAHI_JWT_SECRET, 'every service');
  return {
    service,
    port: intEnv(env, portEnv(service), DefaultPorts[service]),
    host: env[`${service.toUpperCase()}_HOST`] || '127.0.0.1',
    mongoUri,
    dbName: uriNamesDatabase(mongoUri) ? undefined : `bahi_${service}`,
    natsUrl: env.NATS_URL || `nats://127.0.0.1:${DefaultPorts.nats}`,
    ...(env.NATS_PASSWORD ? { natsUser: env.NATS_USER || service, natsPassword: env.NATS_PASSWORD } : {}),
    jwtSecret,
    logLevel: env.LOG_LEVEL || 'info',
    natsTimeoutMs: Number(env.BAHI_NATS_TIMEOUT_MS) > 0 ? Number(env.BAHI_NATS_TIMEOUT_MS) : 5000,
  };
}
