/** The NestJS services behind the gateway (ARCHITECTURE.md, "Who owns what"). */
export const ServiceNames = ['identity', 'inventory', 'sales', 'ledger', 'documents', 'reports'] as const;
export type ServiceName = (typeof ServiceNames)[number];

/** Default HTTP ports (docs/design.md). Port 0 means "pick a free one" (tests). */
export const DefaultPorts = {
  gateway: 8080,
  identity: 3001,
  inventory: 3002,
  sales: 3003,
  ledger: 3004,
  documents: 3005,
  reports: 3006,
  mongo: 27017,
  nats: 4222,
} as const;

/** Env variable holding a service's port, e.g. IDENTITY_PORT. */
export function portEnv(service: ServiceName): string {
  return `${service.toUpperCase()}_PORT`;
}

/** Env variable the gateway reads for a service's base URL, e.g. IDENTITY_URL. */
export function urlEnv(service: ServiceName): string {
  return `${service.toUpperCase()}_URL`;
}

/**
 * Keep-alive between the gateway and the services. A service keeps an idle connection open for
 * `serviceMs`; the gateway drops its idle sockets after `gatewayIdleMs`, well before, so it never
 * sends a call on a socket the service is closing at that instant (the call would fail with
 * ECONNRESET although the service is up). The margin covers a busy machine's late timers.
 */
export const UpstreamKeepAlive = { serviceMs: 65_000, gatewayIdleMs: 30_000 } as const;
