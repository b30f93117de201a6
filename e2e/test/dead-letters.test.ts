// An event the reports cannot read (a malformed bill published to the sales stream) is kept as a
// dead letter: the gateway's /api/health counts it (for a signed-in caller), and the company's manager sees a notice above
// the reports naming it. Real services behind the gateway, real nats-server with JetStream.
import { connect, JSONCodec } from 'nats';
import { natsInboxPrefix } from '@bahi/contracts';
import { ACCOUNTS, login, managerWithCatalogue, startE2E, type E2E } from '../src/harness';
import { todayIST } from '../src/dates';

let e2e: E2E;
let manager: string;

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'reports'] });
  manager = await managerWithCatalogue(e2e);
}, 240_000);
afterAll(() => e2e?.stop());

it('a malformed bill is counted on /api/health and shown to the manager above the reports', async () => {
  const companyId = JSON.parse(Buffer.from(manager.split('.')[1]!, 'base64url').toString()).companyId as number;
  const sales = e2e.stack.natsUsers.sales!;
  const nc = await connect({ servers: e2e.stack.natsUrl, user: sales.user, pass: sales.password, inboxPrefix: natsInboxPrefix('sales') });
  try {
    // As a broken relay might publish it: the amount is not a number.
    const bad = { eventId: `sale:${companyId}:99001:completed`, companyId, occurredAt: new Date().toISOString(), date: todayIST(), saleId: 99001, clientId: 0, customerName: 'Walk-in', walkIn: true, lines: [], amount: 'ninety', paid: '0', gst: null };
    await nc.jetstream().publish('events.sales.sale.completed', JSONCodec().encode(bad), { msgID: bad.eventId });
  } finally {
    await nc.close();
  }
  let letters: { count: number; rows: { error: string; eventId: string }[] } = { count: 0, rows: [] };
  for (let i = 0; i < 100 && letters.count === 0; i++) {
    await new Promise((r) => setTimeout(r, 300));
    letters = (await e2e.api<typeof letters>('GET', '/reports/dead-letters', { token: manager })).body;
  }
  expect(letters.count).toBe(1);
  expect(letters.rows[0]).toMatchObject({ eventId: `sale:${companyId}:99001:completed`, error: 'amount is not an amount' });
  // The services' details are for a signed-in caller; the report is shared for a moment, so ask until it is new.
  type Health = { services: { reports: { detail?: { deadLetters?: { count: number } } } } };
  let counted: number | undefined;
  for (let i = 0; i < 50 && counted !== 1; i++) {
    counted = (await e2e.api<Health>('GET', '/health', { token: manager })).body.services.reports.detail?.deadLetters?.count;
    if (counted !== 1) await new Promise((r) => setTimeout(r, 200));
  }
  expect(counted).toBe(1);

  const page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await page.goto('/reports/daybook');
  const notice = page.getByTestId('dead-letters');
  await notice.waitFor();
  expect((await notice.locator('summary').textContent())?.trim()).toBe('1 event could not be added to the reports');
  await notice.locator('summary').click();
  const row = notice.getByTestId('dead-letter');
  await row.waitFor();
  expect(await row.textContent()).toContain('amount is not an amount');
  expect(await row.textContent()).toContain(`sale:${companyId}:99001:completed`);
  await e2e.shot(page, 'dead-letters-1-notice');
}, 120_000);
