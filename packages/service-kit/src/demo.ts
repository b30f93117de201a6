import type { Logger } from 'pino';
import { Subjects } from '@bahi/contracts';
import type { NatsClient } from './nats';

/** identity's first start creates the demo company first, so it is company 1. */
export const DEMO_COMPANY = { id: 1, name: 'Demo Traders' } as const;

export interface DemoSeedOptions {
  /** What is seeded, for the log ('demo catalogue'). */
  what: string;
  log: Logger;
  /** How long to keep asking identity (it may start after this service). */
  waitMs?: number;
  /** Stops the wait when the service shuts down. */
  stopped?: () => boolean;
}

/**
 * Runs `seed(companyId)` once identity says company 1 is the demo company, unless BAHI_DEMO=0.
 * Asks every second in the background, never blocking start-up: identity may not answer yet, or
 * answer 404 a moment before its own seed has created the company.
 */
export function seedDemoCompanyWhenReady(nats: NatsClient, seed: (companyId: number) => Promise<unknown>, opts: DemoSeedOptions): void {
  if (process.env.BAHI_DEMO === '0') return;
  const deadline = Date.now() + (opts.waitMs ?? 120_000);
  const attempt = async (): Promise<void> => {
    for (;;) {
      if (opts.stopped?.()) return;
      let company;
      try {
        // A deadline of our own too: a request racing the NATS connection's start must not hang the wait.
        company = await Promise.race([
          nats.send(Subjects.identity.companyDetails, { companyId: DEMO_COMPANY.id }, { timeoutMs: 2000 }),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 3 s')), 3000).unref()),
        ]);
      } catch (err) {
        if (Date.now() > deadline) return void opts.log.warn(`${opts.what} not seeded: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 1000).unref());
        continue;
      }
      // Company 1 is someone else's (the demo company was not created): nothing to seed.
      if (company?.name === DEMO_COMPANY.name) await seed(DEMO_COMPANY.id);
      return;
    }
  };
  attempt().catch((err) => opts.log.warn({ err }, `${opts.what} not seeded`));
}
