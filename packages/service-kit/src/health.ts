import { Controller, Get, Inject, Injectable } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, MongooseHealthIndicator } from '@nestjs/terminus';
import fs from 'node:fs';
import path from 'node:path';
import type { NatsConnection } from 'nats';
import { RevocationList } from '@bahi/auth';
import { Public } from './auth';
import { SERVICE_CONFIG, type ServiceConfig } from './config';
import { NATS_CONNECTION } from './nats';

/** The `version` of services/<name>/package.json (the same path in the repository and the images). */
export function serviceVersion(service: string): string {
  try {
    const file = path.resolve(__dirname, '..', '..', '..', 'services', service, 'package.json');
    return String((JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/** Health detail `app: {status, service, version}`: the gateway and the shell's About box read it. */
export function appInfo(service: string) {
  const version = serviceVersion(service);
  return () => ({ app: { status: 'up' as const, service, version } });
}

/** NATS is up when the server answers a ping within the timeout. */
@Injectable()
export class NatsHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {}

  async pingCheck(key: string, timeoutMs = 1500) {
    const session = this.indicator.check(key);
    try {
      if (this.nc.isClosed()) return session.down({ message: 'connection closed' });
      const rtt = await Promise.race([
        this.nc.rtt(),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no pong within ${timeoutMs} ms`)), timeoutMs).unref(),
        ),
      ]);
      return session.up({ rttMs: Math.round(rtt * 10) / 10 });
    } catch (err) {
      return session.down({ message: (err as Error).message });
    }
  }
}

/** Details a service adds to its /health (reports: its dead letters), by key; never a reason to answer 503. */
const extraDetails = new Map<string, () => Promise<Record<string, unknown>>>();

/** Adds `key` to /health's details (the fields `read` returns, `status: 'up'`); returns the undo. */
export function addHealthDetail(key: string, read: () => Promise<Record<string, unknown>>): () => void {
  extraDetails.set(key, read);
  return () => {
    if (extraDetails.get(key) === read) extraDetails.delete(key);
  };
}

/** Whether the service has a database (BahiServiceOptions.database): /health pings MongoDB only then. */
export const HAS_DATABASE = 'BAHI_HAS_DATABASE';

/**
 * GET /health -> {status, info, error, details}; 503 when MongoDB (if any) or NATS is down, or
 * while the revoked sessions are not yet loaded from identity (the guard answers 503 until then).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mongo: MongooseHealthIndicator,
    private readonly nats: NatsHealthIndicator,
    @Inject(SERVICE_CONFIG) cfg: ServiceConfig,
    @Inject(HAS_DATABASE) private readonly database: boolean,
    private readonly indicator: HealthIndicatorService,
    private readonly revocations: RevocationList,
  ) {
    this.app = appInfo(cfg.service);
  }
  private readonly app: ReturnType<typeof appInfo>;

  @Get()
  @Public()
  @HealthCheck()
  check() {
    const mongo = () => this.mongo.pingCheck('mongodb', { timeout: 1500 });
    const revocations = () => {
      const session = this.indicator.check('revocations');
      return this.revocations.loaded ? session.up() : session.down({ message: 'not loaded from identity yet' });
    };
    const extra = [...extraDetails].map(([key, read]) => async () => {
      const session = this.indicator.check(key);
      try {
        return session.up(await read());
      } catch (err) {
        return session.up({ message: (err as Error).message });
      }
    });
    return this.health.check([...(this.database ? [mongo] : []), () => this.nats.pingCheck('nats'), revocations, this.app, ...extra]);
  }
}
