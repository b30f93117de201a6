import { BadRequestException, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type CustomStrategy, ServerNats } from '@nestjs/microservices';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Server } from 'node:http';
import { type ServiceName, UpstreamKeepAlive } from '@bahi/contracts';
import { loadServiceConfig, natsConnectOptions, SERVICE_CONFIG, type ServiceConfig } from './config';
import { AllExceptionsFilter, describeError, validationException } from './errors';
import { listProblem } from './limits';
import { createLogger, PinoNestLogger, requestLogger } from './logger';
import { type Migration, migrateBeforeStart } from './migrations';
import { LOGGER } from './module';
import { StripBidiNatsDeserializer } from './nats';
import { stripBidiDeep } from './text';
import { BahiValidationPipe } from './validation';

/** Body size limit of JSON and form requests (file uploads have their own limits). */
export const BODY_LIMIT = '1mb';

/**
 * The shared HTTP + NATS setup of a created app: logs, body parsing with JSON errors, the global
 * validation pipe and exception filter, and the NATS server in the service's queue group with
 * the app's pipes and filters (inheritAppConfig).
 */
export function configureApp(app: INestApplication): { cfg: ServiceConfig; logger: Logger } {
  const cfg = app.get<ServiceConfig>(SERVICE_CONFIG);
  const logger = app.get<Logger>(LOGGER);
  app.useLogger(new PinoNestLogger(logger));
  const http = app.getHttpAdapter().getInstance() as express.Express;
  http.disable('x-powered-by');
  app.use(requestLogger(logger));
  app.use(express.json({ limit: BODY_LIMIT }));
  app.use(express.urlencoded({ extended: true, limit: BODY_LIMIT }));
  app.use((req: Request, _res: Response, next: NextFunction) => {
    const problem = listProblem(req.body);
    // No name or address is saved with a bidi control (it would reverse a printed line).
    if (!problem) stripBidiDeep(req.body);
    next(problem ? new BadRequestException(problem) : undefined);
  });
  // Malformed or oversized bodies answer in the same JSON error shape, never an HTML stack page.
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    const out = describeError(err, logger);
    res.status(out.status).json(out.body);
  });
  app.useGlobalPipes(
    new BahiValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: validationException,
    }),
  );
  app.useGlobalFilters(new AllExceptionsFilter(logger));
  // No global interceptor: NATS messages are cleaned of bidi controls as they are decoded.
  app.connectMicroservice<CustomStrategy>(
    {
      strategy: new BahiNatsServer({
        ...natsConnectOptions(cfg),
        queue: cfg.service,
        name: `${cfg.service}-server`,
        maxReconnectAttempts: -1,
        deserializer: new StripBidiNatsDeserializer(),
      }),
    },
    { inheritAppConfig: true },
  );
  return { cfg, logger };
}

/**
 * Nest's NATS server, remembering each subject's route: Nest finds a message's handler by
 * JSON.parse of its subject, which throws (a SyntaxError and its stack) on every message, since
 * a NATS subject is no JSON. Same routes as Nest's, computed once per subject.
 */
export class BahiNatsServer extends ServerNats {
  private readonly routes = new Map<string, string>();
  protected override getRouteFromPattern(pattern: string): string {
    let route = this.routes.get(pattern);
    if (route === undefined) {
      route = super.getRouteFromPattern(pattern);
      // Subjects are the handlers' own (a bounded set); the bound only guards against surprises.
      if (this.routes.size < 10_000) this.routes.set(pattern, route);
    }
    return route;
  }
}

/** Starts the NATS server and HTTP listener; a busy port is a clear error naming it. */
export async function startApp(app: INestApplication, cfg: ServiceConfig): Promise<string> {
  await app.startAllMicroservices();
  try {
    await app.listen(cfg.port, cfg.host);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`Port ${cfg.port} (${cfg.service} HTTP) is already in use. Stop whatever holds it or set ${cfg.service.toUpperCase()}_PORT.`);
    }
    throw err;
  }
  // Longer than the gateway keeps an idle socket (UpstreamKeepAlive): the gateway, not the
  // service, ends an idle connection, so no call races a close (Node's default here is 5 s).
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = UpstreamKeepAlive.serviceMs;
  server.headersTimeout = UpstreamKeepAlive.serviceMs + 1000;
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : cfg.port;
  const host = !cfg.host || cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host;
  return `http://${host}:${port}`;
}

/**
 * main.ts of every service: `bootstrapService(AppModule, { service: 'identity', migrations })`.
 * The service's migrations run first (its port answers "migrating" meanwhile), then it starts.
 */
export async function bootstrapService(appModule: unknown, opts: { service: ServiceName; migrations?: readonly Migration[] }): Promise<INestApplication> {
  const bootLogger = createLogger(opts.service, process.env.LOG_LEVEL || 'info');
  try {
    if (opts.migrations) await migrateBeforeStart(loadServiceConfig(opts.service), opts.migrations, bootLogger);
    const app = await NestFactory.create(appModule as never, { bodyParser: false, bufferLogs: true });
    const { cfg, logger } = configureApp(app);
    app.enableShutdownHooks();
    const url = await startApp(app, cfg);
    logger.info({ url, nats: cfg.natsUrl, db: cfg.dbName ?? '(from URI)' }, `${cfg.service} listening`);
    return app;
  } catch (err) {
    bootLogger.fatal({ err }, `${opts.service} failed to start: ${(err as Error).message}`);
    throw err;
  }
}
