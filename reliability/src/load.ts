// `npm run test:load -w @bahi/reliability [-- --cashiers 50 --seconds 60]`: that many cashiers
// sell on the demo company at once through the gateway; then the auditor. Exit 1 on any 5xx,
// lost connection or broken invariant.
import { ACCOUNTS, Api, todayIST } from './api';
import { audit, type AuditReport } from './audit';
import { Rig, until } from './rig';

export interface LoadResult {
  requests: number;
  sales: number;
  statuses: Record<string, number>;
  fivexx: string[];
  audit: AuditReport;
}

/** Cashiers (new staff users of the demo company) selling for `seconds`; then the audit once settled. */
export async function runLoad(rig: Rig, cashiers: number, seconds: number): Promise<LoadResult> {
  const mgr = await Api.login(rig.gatewayUrl, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await until('the demo products', async () => (await mgr.get('/getProductList?pageNo=0')).body?.count >= 10);
  const clients = await until('the demo customers', async () => {
    const r = await mgr.get('/getClientsList?pageNo=0');
    return r.body?.clientsList?.length > 0 && r.body.clientsList;
  });
  const counters: Api[] = [];
  for (let i = 0; i < cashiers; i++) {
    const email = `cashier${i}@demo.local`;
    const made = await mgr.post('/users', {
      name: `Cashier ${i}`,
      email,
      password: 'cashier-pass-1',
      position: 'staff',
    });
    if (made.status >= 300) throw new Error(`could not add ${email}: ${made.status} ${JSON.stringify(made.body)}`);
    counters.push(await Api.login(rig.gatewayUrl, email, 'cashier-pass-1'));
  }
  const status = new Map<number, number>();
  const fivexx: string[] = [];
  let sales = 0;
  const end = Date.now() + seconds * 1000;
  const note = (what: string, s: number, body: unknown) => {
    status.set(s, (status.get(s) ?? 0) + 1);
    if (s >= 500 || s === 0) fivexx.push(`${what}: ${s} ${JSON.stringify(body).slice(0, 200)}`);
  };
  const rnd = (n: number) => Math.floor(Math.random() * n);
  await Promise.all(
    counters.map(async (api, i) => {
      let k = 0;
      while (Date.now() < end) {
        const call = async (what: string, p: Promise<{ status: number; body: any }>) => {
          const r = await p;
          note(what, r.status, r.body);
          return r;
        };
        await call('add', api.get(`/addProductIntoCart/${1 + rnd(50)}`));
        await call('add', api.get(`/addProductIntoCart/${encodeURIComponent(`${1 + rnd(3)}*${1 + rnd(50)}`)}`));
        await call('cart', api.get('/getProducts?cart_no=1'));
        const client = rnd(3) === 0 ? 0 : clients[rnd(clients.length)].id;
        const sale = await call(
          'sale',
          api.post(
            '/MAKE_SALE',
            { clientId: client, cart_no: 1, paid: String(rnd(500)) },
            { 'Idempotency-Key': `load-${i}-${k++}` },
          ),
        );
        if (sale.status === 200) {
          sales++;
          await call('bill', api.get(`/getBillDetails?id=${sale.body.saleId}`));
        }
        if (rnd(4) === 0) await call('list', api.get('/getSaleList?pageNo=0'));
        if (rnd(6) === 0 && client)
          await call('pay', api.post('/salesDuePayment', { client_id: client, amount: '1', nextDD: todayIST() }));
        if (rnd(6) === 0) await call('search', api.get('/getCustomerList/?text=demo'));
      }
    }),
  );
  const total = [...status.values()].reduce((a, b) => a + b, 0);
  const report = await until('the re-drivers to finish', async () => {
    const r = await audit(rig.mongoUri);
    return r.inFlight.length === 0 && r;
  });
  return { requests: total, sales, statuses: Object.fromEntries(status), fivexx, audit: report };
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (n: string, d: number) => (args.includes(n) ? Number(args[args.indexOf(n) + 1]) : d);
  const cashiers = opt('--cashiers', 50);
  const seconds = opt('--seconds', 60);
  const rig = await Rig.start();
  let code = 0;
  try {
    const r = await runLoad(rig, cashiers, seconds);
    console.log(
      `Load: ${cashiers} cashiers for ${seconds} s: ${r.requests} requests, ${r.sales} sales, statuses ${JSON.stringify(r.statuses)}`,
    );
    console.log(`5xx or lost: ${r.fivexx.length}${r.fivexx.length ? `\n  ${r.fivexx.slice(0, 20).join('\n  ')}` : ''}`);
    console.log(
      `Audit: ${r.audit.products} products, ${r.audit.movements} movements, ${r.audit.entries} entries, ${r.audit.sales} sales; violations: ${r.audit.violations.length}`,
    );
    for (const v of r.audit.violations.slice(0, 20)) console.log(`  - ${v}`);
    if (r.fivexx.length || r.audit.violations.length) code = 1;
  } finally {
    await rig.stop();
  }
  process.exit(code);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(2);
  });
}
