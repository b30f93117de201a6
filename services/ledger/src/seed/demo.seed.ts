import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { DEMO_COMPANY, LOGGER, NatsClient, seedDemoCompanyWhenReady } from '@bahi/service-kit';
import { AccountsService } from '../accounts/accounts.service';
import { today } from '../common';
import { CustomersService } from '../customers/customers.service';
import { DistributorsService } from '../distributors/distributors.service';

const CUSTOMERS: [string, string, string, string, string, string][] = [
  // name, mobile, address line 1, city, state, zip
  ['Ramesh Kumar', '9820012345', '14 Station Road', 'Mumbai', 'MH', '400001'],
  ['Sunita Sharma', '9833056789', '7 Linking Road', 'Mumbai', 'MH', '400050'],
  ['Anil Patil', '9890123456', '22 FC Road', 'Pune', 'MH', '411004'],
  ['Priya Nair', '9845098765', '3 MG Road', 'Bengaluru', 'KA', '560001'],
  ['Mohammed Iqbal', '9811122233', '56 Chandni Chowk', 'Delhi', 'DL', '110006'],
  ['Kavita Joshi', '9869011223', '9 Gokhale Road', 'Thane', 'MH', '400602'],
  ['Suresh Reddy', '9849033445', '18 Banjara Hills', 'Hyderabad', 'TS', '500034'],
  ['Meena Iyer', '9841055667', '4 T Nagar Main Road', 'Chennai', 'TN', '600017'],
  ['Rajesh Gupta', '9826077889', '31 Rajwada', 'Indore', 'MP', '452002'],
  ['Farida Shaikh', '9822099001', '11 Camp Area', 'Pune', 'MH', '411001'],
];

const DISTRIBUTORS: { name: string; address: string; city: string; state: string; zip: string; officers: [string, string][] }[] = [
  { name: 'Bengal Agro Suppliers', address: '5 Burrabazar', city: 'Kolkata', state: 'WB', zip: '700007', officers: [['Subir Das', '9830011122'], ['Mita Ghosh', '9830033344']] },
  { name: 'Western Foods Distribution', address: '88 Masjid Bunder', city: 'Mumbai', state: 'MH', zip: '400009', officers: [['Vikas Shah', '9820155566']] },
  { name: 'Deccan Household Goods', address: '2 Begum Bazar', city: 'Hyderabad', state: 'TS', zip: '500012', officers: [['Ravi Teja', '9849177788'], ['Lakshmi Rao', '9849199900']] },
  { name: 'Northern Spices Co.', address: '40 Khari Baoli', city: 'Delhi', state: 'DL', zip: '110006', officers: [['Harpreet Singh', '9811211122']] },
];

function daysFrom(base: string, days: number): string {
  const d = new Date(`${base}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Demo customers and distributors with some history for 'Demo Traders', unless BAHI_DEMO=0. Idempotent. */
@Injectable()
export class DemoSeed implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopped = false;

  constructor(
    private readonly customers: CustomersService,
    private readonly distributors: DistributorsService,
    private readonly accounts: AccountsService,
    private readonly nats: NatsClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap() {
    seedDemoCompanyWhenReady(
      this.nats,
      async (companyId) => {
        if (await this.seed(companyId)) this.logger.info(`Demo customers and distributors created for '${DEMO_COMPANY.name}'.`);
      },
      { what: 'Demo ledger data', log: this.logger, stopped: () => this.stopped },
    );
  }

  onApplicationShutdown() {
    this.stopped = true;
  }

  /** Seeds the company's parties once; false when it already has customers or distributors. */
  async seed(companyId: number): Promise<boolean> {
    if ((await this.customers.model.exists({ companyId, walkIn: false })) || (await this.distributors.model.exists({ companyId }))) return false;
    const base = today();
    await this.customers.walkIn(companyId);
    for (const [i, [name, mobile_no, address_line_1, city_or_district, state, postal_code]] of CUSTOMERS.entries()) {
      const c = await this.customers.create(companyId, { name, mobile_no, address_line_1, address_line_2: '', city_or_district, state, country: 'India', postal_code });
      const party = { kind: 'customer' as const, id: c.client_id };
      if (i % 3 === 2) continue; // a few customers with a clean account
      const opening = (1250 + i * 437.5).toFixed(2);
      await this.accounts.opening(companyId, party, opening, daysFrom(base, -40 + i), daysFrom(base, -10 + i));
      if (i % 2 === 0) {
        await this.accounts.pay({ companyId, party, amount: (500 + i * 25).toFixed(2), nextDD: daysFrom(base, 7 + i), date: daysFrom(base, -5) });
      }
    }
    for (const [i, d] of DISTRIBUTORS.entries()) {
      const dist = await this.distributors.create(companyId, {
        name: d.name,
        address_line_1: d.address,
        address_line_2: '',
        city_or_district: d.city,
        state: d.state,
        country: 'India',
        postal_code: d.zip,
        officers: d.officers.map(([name, mobile]) => ({ name, mobile })),
      });
      const party = { kind: 'distributor' as const, id: dist.distributor_id };
      await this.accounts.opening(companyId, party, (18500 + i * 6250).toFixed(2), daysFrom(base, -60), daysFrom(base, -20));
      if (i < 3) await this.accounts.pay({ companyId, party, amount: (5000 + i * 1500).toFixed(2), nextDD: daysFrom(base, 15), date: daysFrom(base, -8) });
    }
    return true;
  }
}
