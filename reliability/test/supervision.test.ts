// The stack `npm start` runs (@bahi/devstack's startStack: embedded MongoDB with its users,
// nats-server with its per-service users, every built service, the gateway) restarts what dies:
// each process in turn is SIGKILLed and the next sale, retried with one Idempotency-Key as a
// cashier would, must succeed within 15 s of the kill, exactly once. Meanwhile no call may hang:
// the gateway answers a dead service with 503 and a sentence at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startStack, type Stack } from '@bahi/devstack';
import { ACCOUNTS, Api, type Reply } from '../src/api';
import { ROOT, until } from '../src/rig';

/** The budget from a kill to a completed sale (issue 27). */
const BUDGET_MS = 15_000;

let stack: Stack;
let staff: Api;
let customer: number;
/** One line per process killed, for docs/reliability.md. */
const measured: string[] = [];

beforeAll(async () => {
  const chrome = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
  // As scripts/start.mjs starts it, on free ports (not 8080/4222/27017) and a temporary data dir.
  // Logs outside test-results/ (a concurrent run may clear that), kept after the run.
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-supervision-logs-'));
  stack = await startStack({ rootDir: ROOT, logs: 'files', logDir, env: { ...(chrome ? { CHROME_PATH: chrome } : {}) } });
  staff = await until('the demo staff login', async () => Api.login(stack.gatewayUrl, ACCOUNTS.staff.email, ACCOUNTS.staff.password).catch(() => null));
  const clients = await until('the demo customers', async () => {
    const r = await staff.get('/getClientsList?pageNo=0');
    return r.body?.clientsList?.length > 0 ? r.body.clientsList : null;
  });
  customer = clients[0].id;
  await until('the demo products', async () => (await staff.get('/getProductList?pageNo=0')).body?.count >= 3);
}, 600_000);

afterAll(async () => {
  if (measured.length) {
    const file = path.join(stack.logDir, 'supervision-evidence.txt');
    fs.writeFileSync(file, `${measured.join('\n')}\n`);
    console.log(`Killed and recovered (logs: ${stack.logDir}):\n  ${measured.join('\n  ')}`);
  }
  await stack?.stop();
});

/** One call that gives up when the budget is spent (status 0: no answer), with its time. */
async function call(method: 'GET' | 'POST', p: string, deadline: number, body?: unknown, key?: string): Promise<Reply & { ms: number }> {
  const started = Date.now();
  const left = Math.max(1, deadline - started);
  const r = await Promise.race([
    method === 'GET' ? staff.get(p) : staff.post(p, body, key ? { 'Idempotency-Key': key } : {}),
    new Promise<Reply>((resolve) => setTimeout(() => resolve({ status: 0, body: { message: 'no answer within the budget' } }), left).unref()),
  ]);
  return { ...r, ms: Date.now() - started };
}

async function completeSales(key: string): Promise<number> {
  const c = new MongoClient(stack.mongoUri);
  try {
    return await c.db('bahi_sales').collection('sales').countDocuments({ status: 'complete', idempotencyKey: key });
  } finally {
    await c.close();
  }
}

const PARTS = ['mongo', 'nats', 'identity', 'inventory', 'ledger', 'sales', 'documents', 'reports', 'gateway'];

it.each(PARTS)('%s SIGKILLed: restarted, and the next sale succeeds within 15 s', async (part) => {
  const pids = stack.pids();
  if (!pids[part]) {
    // Only documents may be missing (not built); every other part is the sale's or the stack's.
    expect(part).toBe('documents');
    return;
  }
  const before = stack.processes()[part]!;
  const killedAt = Date.now();
  process.kill(pids[part]!, 'SIGKILL');
  const deadline = killedAt + BUDGET_MS;
  const key = `supervised-${part}-${killedAt}`;
  const replies: { what: string; status: number; ms: number; message?: string }[] = [];
  const note = (what: string, r: Reply & { ms: number }) => replies.push({ what, status: r.status, ms: r.ms, message: r.body?.message });

  // The cashier's way: scan two products (each until it goes in), then check out, again with
  // the same key until it answers.
  let sale: (Reply & { ms: number }) | undefined;
  for (const product of [1, 2]) {
    for (;;) {
      if (Date.now() >= deadline) break;
      const r = await call('GET', `/addProductIntoCart/${product}?cart_no=3`, deadline);
      note(`add ${product}`, r);
      if (r.status === 200) break;
      await new Promise((res) => setTimeout(res, 200));
    }
  }
  while (Date.now() < deadline) {
    const r = await call('POST', '/MAKE_SALE', deadline, { clientId: customer, cart_no: 3, paid: '0' }, key);
    note('sale', r);
    if (r.status === 200) {
      sale = r;
      break;
    }
    await new Promise((res) => setTimeout(res, 200));
  }
  const tookMs = Date.now() - killedAt;
  // Repeated answers folded: "sale 503 x12 (max 87 ms): <sentence>".
  const folded = new Map<string, { head: string; tail: string; n: number; max: number }>();
  for (const r of replies) {
    const head = `${r.what} ${r.status}`;
    const tail = r.status === 200 ? '' : `: ${r.message}`;
    const f = folded.get(head + tail) ?? { head, tail, n: 0, max: 0 };
    folded.set(head + tail, { ...f, n: f.n + 1, max: Math.max(f.max, r.ms) });
  }
  const trail = [...folded.values()].map((f) => `${f.head} x${f.n} (max ${f.max} ms)${f.tail}`).join('; ');
  measured.push(`${part}: a sale succeeded ${(tookMs / 1000).toFixed(1)} s after the kill (${sale ? 'ok' : 'NO SALE'}; ${trail})`);
  if (!sale) throw new Error(`${part}: no sale within ${BUDGET_MS / 1000} s of the kill. Calls: ${trail}`);
  expect(sale.body.saleId).toBeGreaterThan(0);
  expect(await completeSales(key)).toBe(1);

  // Every failed call was a prompt answer with a sentence, never a hang until the gateway's 504
  // at 60 s: the gateway's own 503 at once, a service's NATS timeout (504) after its 5 s.
  for (const r of replies.filter((x) => x.status !== 200)) {
    const where = `${part}: ${r.what} answered ${r.status} in ${r.ms} ms (${r.message}). Calls: ${trail}`;
    if (r.status === 503 && /service is restarting|stopped while answering/.test(r.message ?? '')) expect([where, r.ms < 1000]).toEqual([where, true]);
    if (r.status >= 400) expect([where, typeof r.message]).toEqual([where, 'string']);
    expect([where, r.ms < 10_000]).toEqual([where, true]);
  }

  // The supervisor restarted it (once), and it serves again.
  const status = await until(`${part} to serve again`, async () => {
    const s = stack.processes()[part]!;
    return s.status === 'running' && s.lastRecoveryMs !== undefined && s.restarts === before.restarts + 1 ? s : null;
  }, 60_000);
  expect(status.pid).not.toBe(pids[part]);
  expect(status.lastExit?.reason).toBe('signal SIGKILL');
  measured.push(`${part}: serving again ${(status.lastRecoveryMs! / 1000).toFixed(1)} s after the kill (health answered)`);
}, 120_000);

it('shows every restart in /api/health to a signed-in user', async () => {
  const manager = await until('a manager login', async () => Api.login(stack.gatewayUrl, ACCOUNTS.manager.email, ACCOUNTS.manager.password).catch(() => null));
  const health = await until('every process back in /api/health', async () => {
    const r = await manager.get('/health');
    const p = r.body?.processes as Record<string, { status: string; restarts: number }> | undefined;
    return p && Object.keys(stack.pids()).every((name) => p[name]?.status === 'running' && p[name]!.restarts === 1) ? p : null;
  }, 60_000);
  expect(Object.keys(health).sort()).toEqual(Object.keys(stack.pids()).sort());
});
