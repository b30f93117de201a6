import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startStack, type Stack } from '@bahi/devstack';
import { today } from '@bahi/service-kit';
import { auditReports } from '../../../reliability/src/audit-reports';

/**
 * Through the real owners: the devstack (each service its own NATS user with the permissions the
 * contracts generate, JetStream on), a bill made at the counter through the gateway, and the
 * reports service seeing it from the sales stream; a customer known only from an import with an
 * opening balance (no bill names it) named in the receivable ageing from the ledger's party event.
 */
let stack: Stack;
let token = '';
let lastMismatches: string[] = [];

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const isForm = body instanceof FormData;
  const res = await fetch(`${stack.gatewayUrl}/api${path}`, {
    method,
    headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined || isForm ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function until<T>(what: string, fn: () => Promise<T | null>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms${lastMismatches.length ? `: ${lastMismatches.slice(0, 10).join('; ')}` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'inventory', 'sales', 'ledger', 'reports'], env: { BAHI_DEMO: '1', BAHI_ADMIN_PASSWORD: 'admin12345', LOG_LEVEL: 'info' }, logs: 'files' });
  const login = await call('POST', '/loginReact', { email: 'manager@demo.local', password: 'manager12345' });
  expect(login.status).toBe(200);
  token = login.body.token;
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

it('a bill made at the counter reaches the sales register, and every figure then agrees with the owners (auditor)', async () => {
  const D = today();
  const before = await call('GET', `/reports/sales-register?from=${D}&to=${D}`);
  expect(before.status).toBe(200);
  expect((await call('GET', '/addProductIntoCart/1?cart_no=1')).status).toBe(200);
  const sale = await call('POST', '/MAKE_SALE', { clientId: 0, cart_no: 1, paid: '0' }, { 'Idempotency-Key': `reports-stack-${Date.now()}` });
  expect(sale.status).toBe(200);
  const saleId = sale.body.saleId as number;
  const list = await call('GET', '/getSaleList?pageNo=0');
  const owner = (list.body.salesList as { id: number; 'Total Amount': number; Paid: number }[]).find((r) => r.id === saleId)!;
  const t0 = Date.now();
  const row = await until('the bill in the register', async () => {
    const reg = await call('GET', `/reports/sales-register?from=${D}&to=${D}`);
    return (reg.body.rows as { saleId: number; amount: string; paid: string }[]).find((r) => r.saleId === saleId) ?? null;
  });
  process.stdout.write(`bill ${saleId} visible in the sales register after ${Date.now() - t0} ms\n`);
  expect(Number(row.amount)).toBe(owner['Total Amount']);
  expect(Number(row.paid)).toBe(owner.Paid);
  // Once the consumers are idle, every figure the reports hold is what the owners hold.
  const audited = await until('the reports to agree with the owners', async () => {
    const r = await auditReports(stack.mongoUri);
    if (r.mismatches.length) lastMismatches = r.mismatches;
    return r.mismatches.length ? null : r;
  });
  process.stdout.write(`reports audit: ${audited.compared} figures compared with the owners' data, none differ\n`);
  // The demo company's products, stock and dues came through the streams and histories too.
  expect(audited.compared).toBeGreaterThan(10);
  // npm run reports:rebuild against this running stack (its logins from the data dir): from zero
  // again, through the same permissions; the service keeps answering, and agrees again after.
  const rebuilt = spawnSync(process.execPath, [path.join(__dirname, '..', '..', '..', 'scripts', 'reports-rebuild.mjs')], {
    env: { ...process.env, BAHI_DATA_DIR: stack.dataDir, BAHI_JWT_SECRET: stack.jwtSecret, BAHI_MONGO_PORT: new URL(stack.mongoUri).port, BAHI_NATS_PORT: new URL(stack.natsUrl).port, MONGODB_URI: '', NATS_URL: '' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(rebuilt.stderr).toBe('');
  expect(rebuilt.stdout).toMatch(/^Reports rebuilt in [\d.]+ s: \d+ events projected\.$/m);
  expect(rebuilt.status).toBe(0);
  lastMismatches = [];
  await until('the rebuilt reports to agree with the owners', async () => {
    const r = await auditReports(stack.mongoUri);
    if (r.mismatches.length) lastMismatches = r.mismatches;
    return r.mismatches.length ? null : r;
  });
  // The running service goes on consuming after the rebuild: the next bill arrives too.
  expect((await call('GET', '/addProductIntoCart/2?cart_no=1')).status).toBe(200);
  const next = await call('POST', '/MAKE_SALE', { clientId: 0, cart_no: 1, paid: '0' }, { 'Idempotency-Key': `reports-stack-next-${Date.now()}` });
  expect(next.status).toBe(200);
  await until('the next bill in the register', async () => {
    const reg = await call('GET', `/reports/sales-register?from=${D}&to=${D}`);
    return (reg.body.rows as { saleId: number }[]).some((r) => r.saleId === next.body.saleId) ? true : null;
  });
  // A return against the first bill and the second bill cancelled, through sales: the register nets
  // both, and the audit (credit notes, cancellations, dues, stock) agrees again.
  const bill = await call('GET', `/getBillDetails?id=${saleId}`);
  const line = bill.body.soldProducts[0] as { sl_no: number };
  const ret = await call('POST', '/salesReturn', { saleId, lines: [{ sl_no: line.sl_no, quantity: 1 }], refund: 0, idempotencyKey: `reports-return-${Date.now()}` });
  expect({ status: ret.status, body: ret.body }).toEqual({ status: 200, body: expect.objectContaining({ success: true }) });
  const cancel = await call('POST', '/cancelSale', { saleId: next.body.saleId, reason: 'Wrong bill' });
  expect([cancel.status, cancel.body]).toEqual([200, expect.anything()]);
  const netted = await until('the return and the cancel in the register', async () => {
    const reg = await call('GET', `/reports/sales-register?from=${D}&to=${D}`);
    const rows = reg.body.rows as { saleId: number; returned: string; cancelled: boolean }[];
    const a = rows.find((r) => r.saleId === saleId);
    const b = rows.find((r) => r.saleId === next.body.saleId);
    return a && Number(a.returned) === ret.body.amount && b?.cancelled ? reg.body : null;
  });
  expect(netted.rows.find((r: { saleId: number }) => r.saleId === next.body.saleId).net).toBe('0.00');
  lastMismatches = [];
  await until('the reports to agree with the owners after the return and the cancel', async () => {
    const r = await auditReports(stack.mongoUri);
    if (r.mismatches.length) lastMismatches = r.mismatches;
    return r.mismatches.length ? null : r;
  });
  // Staff are refused by the service behind the gateway.
  const staff = await call('POST', '/loginReact', { email: 'staff@demo.local', password: 'staff12345' });
  const res = await fetch(`${stack.gatewayUrl}/api/reports/dashboard`, { headers: { Authorization: `Bearer ${staff.body.token}` } });
  expect(res.status).toBe(403);
}, 120_000);

it('a customer imported with only an opening balance appears by name in /reports/ageing?side=receivable, and a rename follows', async () => {
  const csv = ['Name,Mobile,Address line 1,City,State,PIN,Opening balance', 'Harish Provision Store,9812345670,3 Station Road,Nagpur,Maharashtra,440001,875.25'].join('\n');
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'customers.csv');
  const up = await call('POST', '/imports/customers', form);
  expect(up.status).toBe(200);
  const run = await call('POST', `/imports/customers/${up.body.id}/run`, { mapping: up.body.mapping, mode: 'valid' });
  expect(run.status).toBe(202);
  const done = await until('the import', async () => {
    const r = await call('GET', `/imports/customers/${up.body.id}`);
    return r.body.state === 'running' ? null : r.body;
  });
  expect(done).toMatchObject({ state: 'done', created: 1 });
  const found = await call('GET', '/getCustomerList?text=9812345670');
  const id = found.body[0].client_id as number;

  type Row = { partyId: number; name: string; balance: string };
  const row = (name: string) =>
    until(`${name} in the receivable ageing`, async () => {
      const r = await call('GET', '/reports/ageing?side=receivable');
      const x = (r.body.rows as Row[]).find((p) => p.partyId === id);
      return x && x.name === name ? x : null;
    });
  // Only the opening entry and the party event name and value it: 875.25 owed.
  expect(await row('Harish Provision Store')).toMatchObject({ balance: '875.25' });

  const renamed = await call('PUT', '/clients/addClient', {
    id, name: 'Harish Provisions & Sons', address_line_1: '3 Station Road', address_line_2: '', city_or_district: 'Nagpur', state: 'Maharashtra', country: 'India', postal_code: '440001',
  });
  expect(renamed.body.done).toBe(true);
  expect(await row('Harish Provisions & Sons')).toMatchObject({ balance: '875.25' });
}, 120_000);
