// `npm run test:load -w @bahi/reliability [-- --cashiers 50 --seconds 60]`: that many cashiers
// sell on the demo company at once through the gateway; then the auditor. Exit 1 on any 5xx,
// lost connection or broken invariant.
import { ACCOUNTS, Api, todayIST } from './api';
import { audit, type AuditReport } from './audit';
import { MongoClient } from 'mongodb';
import { Rig, sleep, until, type Part } from './rig';

export interface LoadResult {
  requests: number;
  sales: number;
  statuses: Record<string, number>;
  /** Every 5xx or lost connection: what, status, when (ms after the start) and a bit of the body. */
  fivexx: string[];
  /** The same, as data: start and end in ms after the load started. */
  failures: { what: string; status: number; start: number; end: number }[];
  /** Every sale answered 200: its Idempotency-Key and sale id. */
  answered: { key: string; saleId: number }[];
  /** Sales first answered 5xx/lost/409 and then retried with the same key. */
  retried: number;
  /** Each retried sale that ended answered 200: when (ms after the start) that 200 came, and its first status. */
  retriedAnswered: { key: string; first: number; at: number }[];
  /** When each kill was done, in ms after the start. */
  kills: { part: Part; at: number }[];
  /** The start (epoch ms), to place the services' logged times. */
  startedAt: number;
  audit: AuditReport;
  /** Time taken to set up the cashiers, to sell (retries included), and for the re-drivers to finish. */
  ms: { setup: number; load: number; settle: number };
}

export interface LoadOptions {
  /** SIGKILL these parts `atMs` into the load (and leave them dead). */
  kill?: { atMs: number; parts: Part[] };
  /**
   * A sale answered 5xx, 409 or not at all is sent again with the same Idempotency-Key (as a
   * cashier would) until answered otherwise, for up to this long. Default: no retries.
   */
  retrySalesForMs?: number;
}

/** Counters per staff user (cart_no 1..10; a user may keep up to 20 carts). */
const CARTS_PER_USER = 10;

/** Cashiers (counters of new staff users of the demo company) selling for `seconds`; then the audit once settled. */
export async function runLoad(rig: Rig, cashiers: number, seconds: number, opts: LoadOptions = {}): Promise<LoadResult> {
  const mgr = await Api.login(rig.gatewayUrl, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await until('the demo products', async () => (await mgr.get('/getProductList?pageNo=0')).body?.count >= 10);
  const clients = await until('the demo customers', async () => {
    const r = await mgr.get('/getClientsList?pageNo=0');
    return r.body?.clientsList?.length > 0 && r.body.clientsList;
  });
  // A cashier is a counter: a staff user's cart. Ten counters per user keep the set-up short
  // (each user costs several password hashes in identity) while every counter sells on its own.
  const counters: { api: Api; cart: number }[] = [];
  const setupStart = Date.now();
  const users = Math.ceil(cashiers / CARTS_PER_USER);
  const addUser = async (u: number) => {
    const email = `cashier${u}@demo.local`;
    const made = await mgr.post('/users', {
      name: `Cashier ${u}`,
      email,
      password: 'cashier-pass-1',
      position: 'staff',
    });
    if (made.status >= 300) throw new Error(`could not add ${email}: ${made.status} ${JSON.stringify(made.body)}`);
    // A password a manager set is temporary: the cashier sets their own, then logs in with it.
    const first = await Api.login(rig.gatewayUrl, email, 'cashier-pass-1');
    const changed = await first.post('/manage/profile/edit/updatePassword', {
      current_password: 'cashier-pass-1',
      new_password: 'cashier-pass-2',
      re_type_new_password: 'cashier-pass-2',
    });
    if (changed.status !== 200) throw new Error(`could not set ${email}'s password: ${changed.status} ${JSON.stringify(changed.body)}`);
    const api = await Api.login(rig.gatewayUrl, email, 'cashier-pass-2');
    for (let c = 0; c < CARTS_PER_USER && u * CARTS_PER_USER + c < cashiers; c++) counters[u * CARTS_PER_USER + c] = { api, cart: c + 1 };
  };
  await Promise.all(Array.from({ length: users }, (_, u) => addUser(u)));
  const setupMs = Date.now() - setupStart;
  const status = new Map<number, number>();
  const fivexx: string[] = [];
  const failures: LoadResult['failures'] = [];
  const answered: LoadResult['answered'] = [];
  const kills: LoadResult['kills'] = [];
  let sales = 0;
  let retried = 0;
  const retriedAnswered: LoadResult['retriedAnswered'] = [];
  const t0 = Date.now();
  const end = t0 + seconds * 1000;
  const note = (what: string, s: number, body: unknown, start: number) => {
    status.set(s, (status.get(s) ?? 0) + 1);
    if (s >= 500 || s === 0) {
      fivexx.push(`${what}: ${s} at ${start - t0} ms ${JSON.stringify(body).slice(0, 200)}`);
      failures.push({ what, status: s, start: start - t0, end: Date.now() - t0 });
    }
  };
  const killer = opts.kill
    ? (async () => {
        await sleep(opts.kill!.atMs);
        await Promise.all(opts.kill!.parts.map(async (part) => {
          // When the signal went, not when the exit was seen: calls fail from that moment.
          const at = Date.now() - t0;
          await rig.kill(part);
          kills.push({ part, at });
        }));
      })()
    : Promise.resolve();
  const rnd = (n: number) => Math.floor(Math.random() * n);
  await Promise.all(
    counters.map(async ({ api, cart }, i) => {
      let k = 0;
      while (Date.now() < end) {
        const call = async (what: string, p: Promise<{ status: number; body: any }>) => {
          const start = Date.now();
          const r = await p;
          note(what, r.status, r.body, start);
          return r;
        };
        await call('add', api.get(`/addProductIntoCart/${1 + rnd(50)}?cart_no=${cart}`));
        await call('add', api.get(`/addProductIntoCart/${encodeURIComponent(`${1 + rnd(3)}*${1 + rnd(50)}`)}?cart_no=${cart}`));
        await call('cart', api.get(`/getProducts?cart_no=${cart}`));
        const client = rnd(3) === 0 ? 0 : clients[rnd(clients.length)].id;
        const key = `load-${i}-${k++}`;
        const body = { clientId: client, cart_no: cart, paid: String(rnd(500)) };
        let sale = await call('sale', api.post('/MAKE_SALE', body, { 'Idempotency-Key': key }));
        const giveUp = Date.now() + (opts.retrySalesForMs ?? 0);
        if (sale.status === 0 || sale.status === 409 || sale.status >= 500) {
          if (opts.retrySalesForMs) retried++;
          const first = sale.status;
          while ((sale.status === 0 || sale.status === 409 || sale.status >= 500) && Date.now() < giveUp) {
            await sleep(500);
            sale = await call('sale retried', api.post('/MAKE_SALE', body, { 'Idempotency-Key': key }));
          }
          if (sale.status === 200) retriedAnswered.push({ key, first, at: Date.now() - t0 });
        }
        if (sale.status === 200) {
          sales++;
          answered.push({ key, saleId: sale.body.saleId });
          await call('bill', api.get(`/getBillDetails?id=${sale.body.saleId}`));
        }
        if (rnd(4) === 0) await call('list', api.get('/getSaleList?pageNo=0'));
        if (rnd(6) === 0 && client)
          await call('pay', api.post('/salesDuePayment', { client_id: client, amount: '1', nextDD: todayIST() }));
        if (rnd(6) === 0) await call('search', api.get('/getCustomerList/?text=demo'));
      }
    }),
  );
  await killer;
  const loadMs = Date.now() - t0;
  const total = [...status.values()].reduce((a, b) => a + b, 0);
  const report = await until('the re-drivers to finish', async () => {
    const r = await audit(rig.mongoUri);
    return r.inFlight.length === 0 && r;
  });
  const settleMs = Date.now() - t0 - loadMs;
  return { requests: total, sales, statuses: Object.fromEntries(status), fivexx, failures, answered, retried, retriedAnswered, kills, startedAt: t0, audit: report, ms: { setup: setupMs, load: loadMs, settle: settleMs } };
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

/** The stored sales of the answered keys (company 1, the demo's), by key: a test requires each once, complete, with the answered id. */
export async function storedSales(mongoUri: string, answered: LoadResult['answered']): Promise<Map<string, { saleId: number; status: string }>> {
  const c = new MongoClient(mongoUri);
  try {
    const docs = await c
      .db('bahi_sales')
      .collection('sales')
      .find({ companyId: 1, idempotencyKey: { $in: answered.map((a) => a.key) } }, { projection: { _id: 0, saleId: 1, idempotencyKey: 1, status: 1 } })
      .toArray();
    // Two documents under one key would be a doubled sale: the map would then be smaller than docs.
    if (new Set(docs.map((d) => d.idempotencyKey)).size !== docs.length) throw new Error('a key holds two sales');
    return new Map(docs.map((d) => [d.idempotencyKey as string, { saleId: d.saleId as number, status: d.status as string }]));
  } finally {
    await c.close();
  }
}
