import { BadRequestException, Injectable } from '@nestjs/common';
import { Subjects, type Customer } from '@bahi/contracts';
import { NatsClient } from '@bahi/service-kit';
import type { CustomerSnap } from '../common/schemas';

/** What sales asks ledger about customers. */
@Injectable()
export class Customers {
  /** Each company's walk-in customer: ledger never edits or deletes it, so it is asked for once. */
  private readonly walkIns = new Map<number, CustomerSnap>();

  constructor(private readonly nats: NatsClient) {}

  /** The customer of a sale or estimate; 0/null is the walk-in customer. 400 for an unknown id. */
  async resolve(companyId: number, clientId: number | null | undefined): Promise<CustomerSnap> {
    const walkIn = !clientId ? this.walkIns.get(companyId) : undefined;
    if (walkIn) return { ...walkIn };
    const c = await this.nats.send(Subjects.ledger.customerLookup, { companyId, clientId: clientId || 0 });
    if (!c) throw new BadRequestException('Select a valid Customer from the list');
    const s = snap(c);
    if (s.walkIn) this.walkIns.set(companyId, s);
    return { ...s };
  }

  /** The customer's due now (decimal string); the walk-in customer's is 0. */
  async due(companyId: number, c: CustomerSnap): Promise<string> {
    if (c.walkIn) return '0';
    const r = await this.nats.send(Subjects.ledger.partyDue, { companyId, party: { kind: 'customer', id: c.client_id } });
    return r.due;
  }
}

export function snap(c: Customer): CustomerSnap {
  return {
    client_id: c.client_id ?? c.id,
    name: c.name,
    mobile_no: c.mobile_no,
    address_line_1: c.address_line_1,
    address_line_2: c.address_line_2,
    city_or_district: c.city_or_district,
    state: c.state,
    country: c.country,
    postal_code: c.postal_code,
    walkIn: !!c.walkIn,
    gstin: c.gstin ?? null,
    state_code: c.state_code ?? null,
  };
}

export function toCustomer(c: CustomerSnap): Customer {
  const { gstin, state_code, ...rest } = c;
  return { id: c.client_id, ...rest, ...(gstin !== undefined ? { gstin } : {}), ...(state_code !== undefined ? { state_code, b2b: !!gstin } : {}) };
}
