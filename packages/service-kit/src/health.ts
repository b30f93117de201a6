import { Controller, Get, Inject, Injectable } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, MongooseHealthIndicator } from '@nestjs/terminus';
import type { NatsConnection } from 'nats';
import { Public } from './auth';
import { NATS_CONNECTION } from './nats';

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
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no pong within ${timeoutMs} ms`)), timeoutMs).unref()),
      ]);
      return session.up({ rttMs: Math.round(rtt * 10) / 10 });
    } catch (err) {
      return session.down({ message: (err as Error).message });
    }
  }
}

/** GET /health -> {status, info, error, details}; 503 when MongoDB or NATS is down. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mongo: MongooseHealthIndicator,
    private readonly nats: NatsHealthIndicator,
  ) {}

  @Get()
  @Public()
  @HealthCheck()
  check() {
    return this.health.check([() => this.mongo.pingCheck('mongodb', { timeout: 1500 }), () => this.nats.pingCheck('nats')]);
  }
}
