import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { Subjects, type CompanyDetails, type CompanyTaxMode, type GstParty } from '@bahi/contracts';
import { stateName } from '@bahi/gst';
import { EventCache, LOGGER, NATS_CONNECTION, NatsClient } from '@bahi/service-kit';

/** A dropped event is caught up with after this long at most. */
export const COMPANY_TTL_MS = Number(process.env.BAHI_COMPANY_CACHE_MS) > 0 ? Number(process.env.BAHI_COMPANY_CACHE_MS) : 30_000;

/** What sales needs of a company to price and number a sale (with its details for the bill header). */
export interface CompanyTax {
  details: CompanyDetails;
  tax_mode: CompanyTaxMode;
  gstin: string | null;
  state_code: string | null;
  invoice_prefix: string;
}

export const isGstMode = (c: CompanyTax): c is CompanyTax & { tax_mode: 'gst' | 'composition'; state_code: string; gstin: string } =>
  c.tax_mode !== 'simple' && !!c.state_code;

export function companyTax(d: CompanyDetails): CompanyTax {
  return {
    details: d,
    tax_mode: d.tax_mode ?? 'simple',
    gstin: d.gstin ?? null,
    state_code: d.state_code ?? null,
    invoice_prefix: d.invoice_prefix || 'INV',
  };
}

/** The supplier block of a tax invoice, frozen at the sale. */
export function supplierParty(c: CompanyTax): GstParty {
  const d = c.details;
  return {
    name: d.name,
    address: [d.add1, d.add2].map((x) => (x ?? '').trim()).filter(Boolean),
    gstin: c.gstin,
    state_code: c.state_code,
    state_name: c.state_code ? stateName(c.state_code) : null,
    mobile: d.mob1 ?? '',
    email: d.email ?? '',
  };
}

/**
 * Each company's tax settings and details, cached: a scan or a sale asks identity only on a miss.
 * identity.company.changed drops a company's entry on every replica; a TTL covers a lost event.
 */
@Injectable()
export class Companies implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly cache: EventCache<number, CompanyTax, { companyId?: number }>;

  constructor(
    nats: NatsClient,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(LOGGER) log: Logger,
  ) {
    this.cache = new EventCache({
      load: async (companyId) => companyTax(await nats.send(Subjects.identity.companyDetails, { companyId })),
      subscribe: Subjects.identity.companyChanged,
      keyOf: (e) => (typeof e?.companyId === 'number' ? e.companyId : undefined),
      ttlMs: COMPANY_TTL_MS,
      log: (m) => log.warn(m),
    });
  }

  onApplicationBootstrap() {
    this.cache.start(this.nc);
  }

  onApplicationShutdown() {
    this.cache.stop();
  }

  get(companyId: number): Promise<CompanyTax> {
    return this.cache.get(companyId);
  }
}
