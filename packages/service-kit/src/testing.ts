import type { INestApplication } from '@nestjs/common';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import type { ServiceName } from '@bahi/contracts';
import { configureApp, startApp } from './bootstrap';
import { createLogger } from './logger';
import { type Migration, migrateBeforeStart } from './migrations';
import { loadServiceConfig, SERVICE_CONFIG, uriNamesDatabase, type ServiceConfig } from './config';

export interface TestServiceOptions {
  service: ServiceName;
  mongoUri: string;
  natsUrl: string;
  jwtSecret: string;
  /** Database name; defaults to a fresh `bahi_<service>_test_<random>` so test files never share data. */
  dbName?: string;
  logLevel?: string;
  natsTimeoutMs?: number;
  /** Extra provider overrides, e.g. to shorten a timeout. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** The service's migrations, run first as bootstrapService runs them. */
  migrations?: readonly Migration[];
}

export interface TestService {
  app: INestApplication;
  /** Base URL of the HTTP listener, e.g. http://127.0.0.1:41234 */
  url: string;
  config: ServiceConfig;
  close(): Promise<void>;
}

/**
 * Starts a service's AppModule exactly as production does (same pipes, filters, guard and NATS
 * server) on a free port, against the given MongoDB and NATS. Integration tests reuse this.
 */
export async function startTestService(appModule: unknown, opts: TestServiceOptions): Promise<TestService> {
  const config: ServiceConfig = {
    ...loadServiceConfig(opts.service, { BAHI_JWT_SECRET: opts.jwtSecret }),
    port: 0,
    mongoUri: opts.mongoUri,
    natsUrl: opts.natsUrl,
    dbName: uriNamesDatabase(opts.mongoUri)
      ? undefined
      : (opts.dbName ?? `bahi_${opts.service}_test_${Math.random().toString(36).slice(2, 8)}`),
    logLevel: opts.logLevel ?? process.env.LOG_LEVEL ?? 'silent',
    natsTimeoutMs: opts.natsTimeoutMs ?? 5000,
  };
  if (opts.migrations) await migrateBeforeStart(config, opts.migrations, createLogger(opts.service, config.logLevel));
  let builder = Test.createTestingModule({ imports: [appModule as never] }).overrideProvider(SERVICE_CONFIG).useValue(config);
  if (opts.override) builder = opts.override(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
  configureApp(app);
  const url = await startApp(app, config);
  return { app, url, config, close: () => app.close() };
}
