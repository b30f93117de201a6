import fs from 'node:fs';
import path from 'node:path';
import { upstreamsOf } from './forward';

/** gateway/package.json's version (dist/ and src/ both sit one level below it). */
export const GATEWAY_VERSION: string = (() => {
  try {
    return String(
      JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', 'package.json'), 'utf8')).version ?? 'unknown',
    );
  } catch {
    return 'unknown';
  }
})();

type Status = 'up' | 'down' | 'unavailable' | 'unknown';

export interface HealthReport {
  status: 'ok' | 'degraded';
  services: Record<string, { status: Status; detail?: Record<string, unknown>; replicas?: { up: number; of: number } }>;
  nats: { status: Status };
  mongo: { status: Status };
  /** Versions for the shell's About box; each service's is in its `detail.app.version`. */
  gateway: { version: string };
  /**
   * Under the devstack (`npm start`): each process it supervises, with its restarts and last
   * unexpected exit (BAHI_PROCESSES_FILE); absent elsewhere.
   */
  processes?: Record<string, ProcessInfo>;
}

/** One process as the devstack records it (packages/devstack ProcessStatus). */
export interface ProcessInfo {
  status: 'running' | 'restarting' | 'stopped';
  pid?: number;
  restarts: number;
  since?: string;
  lastExit?: { reason: string; at: string };
  lastRecoveryMs?: number;
}

/** The processes in the devstack's file, or undefined when there is none or it cannot be read. */
async function readProcesses(file: string | undefined): Promise<Record<string, ProcessInfo> | undefined> {
  if (!file) return undefined;
  try {
    const parsed = JSON.parse(await fs.promises.readFile(file, 'utf8')) as { processes?: unknown };
    return parsed.processes && typeof parsed.processes === 'object' ? (parsed.processes as Record<string, ProcessInfo>) : undefined;
  } catch {
    return undefined;
  }
}

async function probe(url: string, timeoutMs: number): Promise<{ ok: boolean; body: unknown }> {
  try {
    const res = await fetch(new URL('/health', url), { signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.json().catch(() => null);
    return { ok: res.ok, body };
  } catch {
    return { ok: false, body: null };
  }
}

/** Pulls the database indicator out of a service's health body (terminus `info`/`details`). */
function mongoStatusFrom(body: unknown): Status {
  if (!body || typeof body !== 'object') return 'unknown';
  const b = body as Record<string, unknown>;
  const sections = [b.details, b.info, b.error, b].filter(
    (s): s is Record<string, unknown> => !!s && typeof s === 'object',
  );
  for (const section of sections) {
    for (const [key, value] of Object.entries(section)) {
      if (!/mongo|database|^db$/i.test(key)) continue;
      const st = typeof value === 'object' && value ? (value as { status?: unknown }).status : value;
      if (st === 'up' || st === 'ok' || st === true) return 'up';
      if (st === 'down' || st === false) return 'down';
    }
  }
  return 'unknown';
}

/**
 * Each configured service's /health (which covers its own MongoDB and NATS links), the
 * gateway's NATS connection, and MongoDB as the services see it.
 */
export async function collectHealth(
  serviceNames: readonly string[],
  serviceUrls: Readonly<Record<string, string | undefined>>,
  natsUp: () => boolean,
  timeoutMs = 2000,
  processesFile?: string,
): Promise<HealthReport> {
  const services: HealthReport['services'] = {};
  const mongo: Status[] = [];
  await Promise.all(
    serviceNames.map(async (name) => {
      const url = serviceUrls[name];
      if (!url) {
        services[name] = { status: 'unavailable' };
        return;
      }
      // A service given as several replicas is up while one of them answers.
      const urls = upstreamsOf(url);
      const probes = await Promise.all(urls.map((u) => probe(u, timeoutMs)));
      const live = probes.filter((p) => p.ok);
      const { body } = live[0] ?? probes[0]!;
      services[name] = { status: live.length ? 'up' : 'down', ...(urls.length > 1 ? { replicas: { up: live.length, of: urls.length } } : {}) };
      if (body && typeof body === 'object') {
        const detail = (body as Record<string, unknown>).details ?? (body as Record<string, unknown>).info;
        if (detail && typeof detail === 'object') services[name].detail = detail as Record<string, unknown>;
      }
      mongo.push(mongoStatusFrom(body));
    }),
  );
  const mongoStatus: Status = mongo.includes('down') ? 'down' : mongo.includes('up') ? 'up' : 'unknown';
  const nats: Status = natsUp() ? 'up' : 'down';
  const allUp = Object.values(services).every((s) => s.status !== 'down') && nats === 'up' && mongoStatus !== 'down';
  const processes = await readProcesses(processesFile);
  return {
    status: allUp ? 'ok' : 'degraded',
    services,
    nats: { status: nats },
    mongo: { status: mongoStatus },
    gateway: { version: GATEWAY_VERSION },
    ...(processes ? { processes } : {}),
  };
}

/**
 * One report shared by every caller for `maxAgeMs`: anyone may call /api/health, and each call
 * fanning out to every service would let a flood of them load the services.
 */
export function sharedHealth(collect: () => Promise<HealthReport>, maxAgeMs = 1000): () => Promise<HealthReport> {
  let last: { at: number; report: Promise<HealthReport> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= maxAgeMs) {
      const report = collect();
      last = { at: now, report };
      // A report still being collected is shared; its age counts from when it was asked for.
      void report.then(() => last && (last.at = Date.now()), () => (last = undefined));
    }
    return last.report;
  };
}
