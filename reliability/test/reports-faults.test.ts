// Reports under faults: while a few cashiers sell, the reports service is SIGKILLed and started
// again, then NATS (JetStream's store on disk) is. Once both are back the reports' totals equal the
// owners' data (no event lost, none counted twice), and no sale failed while only reports was down.
import { ACCOUNTS, Api, type Reply } from '../src/api';
import { audit } from '../src/audit';
import { auditReports, type ReportsAudit } from '../src/audit-reports';
import { Rig, sleep, until, type Part } from '../src/rig';

const CASHIERS = 4;
/** Selling goes on this long after the last fault ended (at least SELL_MS in all). */
const SELL_AFTER_MS = 4_000;
const SELL_MS = 15_000;
/** Each fault: this long after the previous one ended, down this long (a restart then takes what it takes). */
const GAP_MS = 2_000;
const DOWN_MS = 3_000;
/**
 * After NATS is back a call may still fail: the services reconnect (every 2 s at most) and a
 * request sent into the gap waits out its 5 s deadline.
 */
const NATS_GRACE_MS = 8_000;

let rig: Rig;
let manager: Api;
let staff: Api;
let clients: { id: number }[];

beforeAll(async () => {
  rig = await Rig.start({ env: { BAHI_SALE_LEASE_MS: '8000', BAHI_PURCHASE_LEASE_MS: '8000' } });
  manager = await Api.login(rig.gatewayUrl, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  staff = await Api.login(rig.gatewayUrl, ACCOUNTS.staff.email, ACCOUNTS.staff.password);
  await until('the demo products', async () => (await manager.get('/getProductList?pageNo=0')).body?.count >= 10);
  clients = await until('the demo customers', async () => {
    const r = await manager.get('/getClientsList?pageNo=0');
    return r.body?.clientsList?.length > 0 && r.body.clientsList;
  });
}, 300_000);
afterAll(() => rig?.stop());

interface Call {
  what: string;
  status: number;
  start: number;
  end: number;
}

it('reports and NATS killed and started again while cashiers sell: every total equals the owners\', no sale failed for reports being down', async () => {
  const calls: Call[] = [];
  const faults: { part: Part; down: number; up: number }[] = [];
  const t0 = Date.now();
  const call = async (what: string, p: Promise<Reply>) => {
    const start = Date.now() - t0;
    const r = await p;
    calls.push({ what, status: r.status, start, end: Date.now() - t0 });
    return r;
  };
  const fault = async (part: Part) => {
    await sleep(GAP_MS);
    const at = Date.now() - t0;
    await rig.kill(part);
    await sleep(DOWN_MS);
    await rig.startPart(part);
    faults.push({ part, down: at, up: Date.now() - t0 });
  };
  let sellUntil = Infinity;
  const faulter = (async () => {
    await fault('reports');
    await fault('nats');
    sellUntil = Math.max(SELL_MS, Date.now() - t0 + SELL_AFTER_MS);
  })();
  const rnd = (n: number) => Math.floor(Math.random() * n);
  let sold = 0;
  await Promise.all(
    Array.from({ length: CASHIERS }, async (_, i) => {
      const cart = i + 1;
      for (let k = 0; Date.now() - t0 < sellUntil; k++) {
        const added = await call('add', staff.get(`/addProductIntoCart/${1 + rnd(10)}?cart_no=${cart}`));
        if (added.status !== 200) {
          await sleep(300);
          continue;
        }
        await call('add', staff.get(`/addProductIntoCart/${encodeURIComponent(`${1 + rnd(3)}*${1 + rnd(10)}`)}?cart_no=${cart}`));
        const client = rnd(3) === 0 ? 0 : clients[rnd(clients.length)]!.id;
        const sale = await call('sale', staff.post('/MAKE_SALE', { clientId: client, cart_no: cart, paid: String(rnd(200)) }, { 'Idempotency-Key': `rf-${i}-${k}` }));
        if (sale.status === 200) sold++;
        else await sleep(300);
      }
    }),
  );
  await faulter;
  const nats = faults.find((f) => f.part === 'nats')!;
  const reports = faults.find((f) => f.part === 'reports')!;
  const failed = calls.filter((c) => c.status === 0 || c.status >= 500);
  const inNatsWindow = (c: Call) => c.end >= nats.down && c.start <= nats.up + NATS_GRACE_MS;
  const salesWhileReportsDown = calls.filter((c) => c.what === 'sale' && c.status === 200 && c.start >= reports.down && c.end <= reports.up).length;
  console.log(
    `Reports faults: ${CASHIERS} cashiers x ${Math.round(sellUntil / 1000)} s, ${sold} sales answered 200 (${salesWhileReportsDown} while reports was down ${reports.down}-${reports.up} ms); ` +
      `NATS down ${nats.down}-${nats.up} ms; calls failed: ${failed.length} (${failed.filter((c) => c.what === 'sale').length} sales), ` +
      `all within NATS's window: ${failed.every(inNatsWindow)}; failures ${JSON.stringify(failed.slice(0, 10))}`,
  );
  expect(sold).toBeGreaterThan(0);
  // The counters kept selling with reports down, and nothing failed but what NATS's outage caught.
  expect(salesWhileReportsDown).toBeGreaterThan(0);
  expect(failed.filter((c) => !inNatsWindow(c))).toEqual([]);

  // Sales and purchases caught mid-way by NATS's outage are finished or undone by their re-drivers.
  const owners = await until('the re-drivers to finish', async () => {
    const a = await audit(rig.mongoUri);
    return a.inFlight.length === 0 && a;
  }, 120_000);
  expect(owners.violations).toEqual([]);
  const back = Date.now();
  const seen: { last: ReportsAudit | null } = { last: null };
  try {
    await until('the reports to agree with the owners', async () => {
      seen.last = await auditReports(rig.mongoUri);
      return seen.last.mismatches.length === 0;
    }, 120_000);
  } catch {
    // The last comparison names what differs.
  }
  console.log(`Reports after the faults: ${seen.last?.compared ?? 0} figures compared, agreeing ${Date.now() - back} ms after the owners settled`);
  expect(seen.last?.mismatches).toEqual([]);
  expect(seen.last?.compared).toBeGreaterThan(0);
  // The register through the gateway counts each of today's complete sales once.
  const register = await manager.get('/reports/sales-register');
  expect(register.status).toBe(200);
  expect(register.body.totals.count).toBeGreaterThanOrEqual(sold);
});
