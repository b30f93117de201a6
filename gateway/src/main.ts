import { createServer } from 'node:http';
import path from 'node:path';
import { RevocationList, Revoke, verifyToken } from '@bahi/auth';
import { natsInboxPrefix, natsServers, RoutePrefixes, Routes, ServiceNames, type TokenClaims } from '@bahi/contracts';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { createApp } from './app';
import type { TokenChecker } from './auth';
import { loadConfig } from './config';
import { loginLimitFromEnv } from './login-limit';
import { PlatformRoutes, PlatformServices } from './platform-routes';
import { shareLimitFromEnv } from './share-route';

async function main(): Promise<void> {
  // Relative SHELL_DIR/REMOTES_DIR are taken from the gateway folder, wherever it is started.
  const config = loadConfig(process.env, [...ServiceNames, ...PlatformServices], path.resolve(__dirname, '..'));
  const logger = pino({ name: 'gateway', level: config.logLevel });

  const revocations = new RevocationList({ log: (m) => logger.warn(m) });
  let nc: NatsConnection | undefined;
  let natsUp = false;
  const natsReady = connect({
    servers: natsServers(config.natsUrl),
    ...(config.natsPassword ? { user: config.natsUser, pass: config.natsPassword } : {}),
    // The only inbox the gateway's NATS permissions let it read.
    inboxPrefix: natsInboxPrefix('gateway'),
    name: 'gateway',
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
  }).then(async (conn) => {
    nc = conn;
    natsUp = true;
    void (async () => {
      for await (const s of conn.status()) {
        if (s.type === 'disconnect') natsUp = false;
        if (s.type === 'reconnect') natsUp = true;
      }
    })();
    await revocations.start(conn);
    logger.info({ nats: config.natsUrl }, 'connected to NATS');
  });
  natsReady.catch((err) => logger.error({ err }, 'NATS connection failed'));

  const checker: TokenChecker = {
    verify: (token) => verifyToken(token, config.jwtSecret) as unknown as ReturnType<TokenChecker['verify']>,
    isRevoked: (claims) => revocations.isRevoked(claims as unknown as TokenClaims),
    revokeLocally: (claims) => {
      const c = claims as unknown as TokenClaims;
      revocations.revokeLocally(Revoke.session(c.sid, c.exp));
    },
    // Without identity (IDENTITY_URL unset: a partial dev stack) nobody logs in and no list will come.
    ready: () => revocations.loaded || !config.serviceUrls.identity,
  };

  const app = createApp({
    routes: [...Routes, ...PlatformRoutes],
    prefixes: RoutePrefixes,
    serviceNames: [...ServiceNames, ...PlatformServices],
    serviceUrls: config.serviceUrls,
    auth: checker,
    natsUp: () => natsUp,
    shellDir: config.shellDir,
    remotesDir: config.remotesDir,
    remoteUrls: config.remoteUrls,
    logger,
    loginLimit: loginLimitFromEnv(process.env),
    shareLimit: shareLimitFromEnv(process.env),
    trustProxy: config.trustProxy,
    processesFile: config.processesFile,
  });

  const server = createServer(app).listen(config.port, config.host);
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') {
      logger.fatal(`Port ${config.port} (gateway) is already in use. Stop whatever holds it or set PORT to another port.`);
    } else logger.fatal({ err }, 'gateway could not listen');
    process.exit(1);
  });
  server.on('listening', () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    const configured = Object.entries(config.serviceUrls).filter(([, u]) => u).map(([n]) => n);
    logger.info({ port, services: configured }, `gateway listening on http://localhost:${port}`);
  });
  server.requestTimeout = 120_000;
  server.headersTimeout = 30_000;

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping gateway`);
    revocations.stop();
    server.close();
    server.closeIdleConnections();
    void (nc ? nc.close() : Promise.resolve()).finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(`gateway failed to start: ${(err as Error).message}`);
  process.exit(1);
});
