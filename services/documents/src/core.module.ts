import { Controller, Get, Global, Inject, Injectable, Module, type OnApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ClientsModule, Transport } from '@nestjs/microservices';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import { connect, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import {
  AuthGuard,
  appInfo,
  AuthService,
  createLogger,
  loadServiceConfig,
  LOGGER,
  NATS_CLIENT,
  NATS_CONNECTION,
  NatsClient,
  NatsHealthIndicator,
  Public,
  RevocationList,
  SERVICE_CONFIG,
  type ServiceConfig,
} from '@bahi/service-kit';
import { loadDocumentsConfig, DOCUMENTS_CONFIG, type DocumentsConfig } from './config';
import { BrowserPool } from './render/browser-pool';

/** The one browser pool of the process, closed with the app. */
@Injectable()
export class Printer implements OnApplicationShutdown {
  readonly pool: BrowserPool;
  constructor(@Inject(DOCUMENTS_CONFIG) cfg: DocumentsConfig, @Inject(LOGGER) logger: Logger) {
    this.pool = new BrowserPool({
      executablePath: cfg.chromePath,
      concurrency: cfg.concurrency,
      queueLimit: cfg.queueLimit,
      renderTimeoutMs: cfg.renderTimeoutMs,
      restartAfter: cfg.restartAfter,
      log: (m) => logger.info(m),
    });
  }
  async onApplicationShutdown() {
    await this.pool.close();
  }
}

@Injectable()
class BrowserHealthIndicator {
  constructor(
    private readonly indicator: HealthIndicatorService,
    private readonly printer: Printer,
  ) {}
  check(key: string) {
    const s = this.printer.pool.stats;
    // Not launched yet is healthy: the first render launches it.
    return this.indicator.check(key).up({ ...s });
  }
}

/** GET /health: NATS ping and the browser pool's numbers; documents has no database. */
@Controller('health')
class DocumentsHealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly nats: NatsHealthIndicator,
    private readonly browser: BrowserHealthIndicator,
  ) {}
  private readonly app = appInfo('documents');
  @Get()
  @Public()
  @HealthCheck()
  check() {
    return this.health.check([() => this.nats.pingCheck('nats'), () => this.browser.check('browser'), this.app]);
  }
}

class NatsLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly revocations: RevocationList,
  ) {}
  async onApplicationShutdown() {
    this.revocations.stop();
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}

/**
 * The service-kit wiring (config, logs, NATS, token checks with revocations, guard, health)
 * without the MongoDB connection: documents stores nothing.
 */
@Global()
@Module({})
export class DocumentsCoreModule {
  static forRoot(): DynamicModule {
    return {
      module: DocumentsCoreModule,
      imports: [
        ClientsModule.registerAsync([
          {
            name: NATS_CLIENT,
            inject: [SERVICE_CONFIG],
            useFactory: (cfg: ServiceConfig) => ({
              transport: Transport.NATS,
              options: { servers: [cfg.natsUrl], name: `${cfg.service}-client`, maxReconnectAttempts: -1 },
            }),
          },
        ]),
        TerminusModule.forRoot({ logger: false }),
      ],
      controllers: [DocumentsHealthController],
      providers: [
        { provide: SERVICE_CONFIG, useFactory: () => loadServiceConfig('documents') },
        { provide: DOCUMENTS_CONFIG, useFactory: () => loadDocumentsConfig() },
        { provide: LOGGER, inject: [SERVICE_CONFIG], useFactory: (cfg: ServiceConfig): Logger => createLogger(cfg.service, cfg.logLevel) },
        {
          provide: NATS_CONNECTION,
          inject: [SERVICE_CONFIG],
          useFactory: (cfg: ServiceConfig) => connect({ servers: cfg.natsUrl, name: `${cfg.service}-raw`, maxReconnectAttempts: -1 }),
        },
        {
          provide: RevocationList,
          inject: [NATS_CONNECTION, LOGGER],
          useFactory: async (nc: NatsConnection, logger: Logger) => {
            const list = new RevocationList({ log: (m) => logger.warn(m) });
            await list.start(nc);
            return list;
          },
        },
        NatsLifecycle,
        NatsClient,
        AuthService,
        NatsHealthIndicator,
        Printer,
        BrowserHealthIndicator,
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [SERVICE_CONFIG, DOCUMENTS_CONFIG, LOGGER, NATS_CONNECTION, RevocationList, NatsClient, AuthService, Printer],
    };
  }
}
