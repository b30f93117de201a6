import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MongooseModule } from '@nestjs/mongoose';
import { TerminusModule } from '@nestjs/terminus';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { RevocationList } from '@bahi/auth';
import type { ServiceName } from '@bahi/contracts';
import { AuthGuard, AuthService } from './auth';
import { loadServiceConfig, SERVICE_CONFIG, type ServiceConfig } from './config';
import { HAS_DATABASE, HealthController, NatsHealthIndicator } from './health';
import { createLogger } from './logger';
import { connectNats, NATS_CONNECTION, NatsClient } from './nats';
import { SequenceService } from './sequence';

export const LOGGER = 'BAHI_LOGGER';

export interface BahiServiceOptions {
  service: ServiceName;
  /** false for a service that stores nothing (documents): no mongoose connection, no sequences, no mongodb health check. Default true. */
  database?: boolean;
  /** false when the service answers /health itself (it can inject NatsHealthIndicator and Terminus's HealthCheckService). Default true. */
  health?: boolean;
}

/** Closes the plain NATS connection and the revocation list on shutdown. */
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
 * Everything a Bahi service shares: config from env, the mongoose connection to `bahi_<service>`,
 * the NATS client, token verification with revocations, the global auth/position guard,
 * per-company sequences and /health. Import once in the service's AppModule. A service without a
 * database passes `database: false`; one with its own /health passes `health: false`.
 */
@Global()
@Module({})
export class BahiServiceModule {
  static forRoot(opts: BahiServiceOptions): DynamicModule {
    const database = opts.database !== false;
    const configProvider: Provider = { provide: SERVICE_CONFIG, useFactory: () => loadServiceConfig(opts.service) };
    const loggerProvider: Provider = {
      provide: LOGGER,
      inject: [SERVICE_CONFIG],
      useFactory: (cfg: ServiceConfig): Logger => createLogger(cfg.service, cfg.logLevel),
    };
    const connectionProvider: Provider = {
      provide: NATS_CONNECTION,
      inject: [SERVICE_CONFIG],
      useFactory: (cfg: ServiceConfig) => connectNats(cfg),
    };
    const revocationProvider: Provider = {
      provide: RevocationList,
      inject: [NATS_CONNECTION, LOGGER],
      useFactory: async (nc: NatsConnection, logger: Logger) => {
        const list = new RevocationList({ log: (m) => logger.warn(m) });
        await list.start(nc);
        return list;
      },
    };
    return {
      module: BahiServiceModule,
      imports: [
        ...(database
          ? [
              MongooseModule.forRootAsync({
                inject: [SERVICE_CONFIG],
                useFactory: (cfg: ServiceConfig) => ({ uri: cfg.mongoUri, dbName: cfg.dbName, serverSelectionTimeoutMS: 10_000 }),
              }),
            ]
          : []),
        TerminusModule.forRoot({ logger: false }),
      ],
      controllers: opts.health === false ? [] : [HealthController],
      providers: [
        configProvider,
        { provide: HAS_DATABASE, useValue: database },
        loggerProvider,
        connectionProvider,
        revocationProvider,
        NatsLifecycle,
        NatsClient,
        AuthService,
        ...(database ? [SequenceService] : []),
        NatsHealthIndicator,
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [
        SERVICE_CONFIG,
        LOGGER,
        NATS_CONNECTION,
        RevocationList,
        NatsClient,
        AuthService,
        ...(database ? [SequenceService] : []),
        NatsHealthIndicator,
        TerminusModule,
      ],
    };
  }
}
