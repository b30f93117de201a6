import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '@bahi/service-kit';
import { CompaniesService } from '../companies/companies.service';
import { UsersService } from '../users/users.service';

export const DEFAULT_ADMIN = { email: 'admin@bahi.local', password: 'admin12345' };
export const DEMO = {
  company: 'Demo Traders',
  manager: { name: 'Demo Manager', email: 'manager@demo.local', password: 'manager12345' },
  staff: { name: 'Demo Staff', email: 'staff@demo.local', password: 'staff12345' },
};

/**
 * First start on an empty database: the platform admin and, unless BAHI_DEMO=0, the demo
 * company with a manager and a staff user. Runs only while no user exists, so deleting the demo
 * company later sticks; a concurrent replica's duplicate insert is ignored.
 */
@Injectable()
export class SeedService implements OnApplicationBootstrap {
  constructor(
    private readonly users: UsersService,
    private readonly companies: CompaniesService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap() {
    await this.seed(process.env);
  }

  async seed(env: NodeJS.ProcessEnv): Promise<boolean> {
    await this.users.model.init();
    if (await this.users.model.exists({})) return false;
    const email = (env.BAHI_ADMIN_EMAIL || DEFAULT_ADMIN.email).toLowerCase();
    const password = env.BAHI_ADMIN_PASSWORD || DEFAULT_ADMIN.password;
    try {
      // The default password is in the README: it only opens the password change until replaced.
      await this.users.create({ name: 'Platform Admin', email, password, position: 'admin', companyId: null, forceChange: !env.BAHI_ADMIN_PASSWORD });
    } catch (err) {
      if ((err as { status?: number }).status === 409) return false;
      throw err;
    }
    // Passwords never go to logs (logs are shipped and kept); `npm start` shows the defaults on its console.
    this.logger.warn(
      { email },
      `Platform admin created: ${email} with ${env.BAHI_ADMIN_PASSWORD ? 'the password from BAHI_ADMIN_PASSWORD' : 'the default password (README), which must be changed at the first login'}.`,
    );
    if (env.BAHI_DEMO === '0') return true;
    const company = await this.companies.create({ name: DEMO.company, add1: '12 Market Road', add2: 'Mumbai 400001', mob1: '9876543210', email: 'hello@demo.local' });
    for (const [position, u] of [['manager', DEMO.manager], ['staff', DEMO.staff]] as const) {
      await this.users.create({ ...u, position, companyId: company.id, forceChange: false });
    }
    this.logger.warn(
      `Demo company '${DEMO.company}' (id ${company.id}) created: manager ${DEMO.manager.email}, staff ${DEMO.staff.email} (default passwords: README). Set BAHI_DEMO=0 to start without it.`,
    );
    return true;
  }
}
