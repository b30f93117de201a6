import { startStack, type Stack } from '@bahi/devstack';

/**
 * Through the real owners (devstack: each service its own NATS user, JetStream on, the gateway):
 * a customer that exists only through an import with an opening balance (no bill names it)
 * appears by name in the receivable ageing, and a rename through the customer form follows.
 */
let stack: Stack;
let token = '';

async function call(method: string, path: string, body?: unknown) {
  const isForm = body instanceof FormData;
  const res = await fetch(`${stack.gatewayUrl}/api${path}`, {
    method,
    headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined || isForm ? {} : { 'Content-Type': 'application/json' }) },
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
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
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
