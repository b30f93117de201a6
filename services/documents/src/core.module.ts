import { Controller, Get, Global, Inject, Injectable, Module, type OnApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, MongooseHealthIndicator } from '@nestjs/terminus';
import type { Logger } from 'pino';
import { appInfo, BahiServiceModule, LOGGER, NatsHealthIndicator, Public } from '@bahi/service-kit';
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

/** GET /health: MongoDB (share links) and NATS pings and the browser pool's numbers. */
@Controller('health')
class DocumentsHealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mongo: MongooseHealthIndicator,
    private readonly nats: NatsHealthIndicator,
    private readonly browser: BrowserHealthIndicator,
  ) {}
  private readonly app = appInfo('documents');
  @Get()
  @Public()
  @HealthCheck()
  check() {
    return this.health.check([() => this.mongo.pingCheck('mongodb', { timeout: 1500 }), () => this.nats.pingCheck('nats'), () => this.browser.check('browser'), this.app]);
  }
}

/**
 * The service-kit wiring with documents' own database (`bahi_documents`: share links and their
 * views; the documents themselves stay with their owners), plus the browser pool and a /health
 * that reports it.
 */
@Global()
@Module({})
export class DocumentsCoreModule {
  static forRoot(): DynamicModule {
    return {
      module: DocumentsCoreModule,
      imports: [BahiServiceModule.forRoot({ service: 'documents', health: false })],
      controllers: [DocumentsHealthController],
      providers: [{ provide: DOCUMENTS_CONFIG, useFactory: () => loadDocumentsConfig() }, Printer, BrowserHealthIndicator],
      exports: [DOCUMENTS_CONFIG, Printer],
    };
  }
}
