import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection, type NatsError } from 'nats';
import { natsInboxPrefix, natsPasswordEnv, NatsPrincipals, type NatsPrincipal } from '@bahi/contracts';
import { findNatsServer, freePort, startNats, startStack, type NatsHandle, type Stack } from '../src';

const enc = new TextEncoder();
const dec = new TextDecoder();
const users = NatsPrincipals.map((principal) => ({ principal, password: `pw-${principal}-0123456789abcdef` }));

let nats: NatsHandle;
const open: NatsConnection[] = [];

/** Connects as a principal exactly as service-kit does: its user and its own inbox prefix. */
async function as(principal: NatsPrincipal): Promise<NatsConnection> {
  const nc = await connect({
    servers: nats.url,
    user: principal,
    pass: users.find((u) => u.principal === principal)!.password,
    inboxPrefix: natsInboxPrefix(principal),
  });
  open.push(nc);
  return nc;
}

/** A request's outcome: the reply text, or the error code (PERMISSIONS_VIOLATION, TIMEOUT, 503). */
async function ask(nc: NatsConnection, subject: string): Promise<string> {
  try {
    const m = await nc.request(subject, enc.encode('{}'), { timeout: 1000 });
    return dec.decode(m.data);
  } catch (err) {
    return `error ${(err as NatsError).code}`;
  }
}

beforeAll(async () => {
  nats = await startNats({ users });
});
afterAll(async () => {
  await Promise.all(open.map((nc) => nc.close()));
  await nats.stop();
});

describe('nats-server with a user per principal (contracts: natsPermissions)', () => {
  let received: string[];

  beforeAll(async () => {
    received = [];
    const inventory = await as('inventory');
    inventory.subscribe('inventory.stock.apply', {
      queue: 'inventory',
      callback: (_err, msg) => {
        received.push(msg.reply ?? '');
        msg.respond(enc.encode('applied'));
      },
    });
    await inventory.flush();
  });

  it("sales' credentials may request inventory.stock.apply, and the reply reaches sales' own inbox", async () => {
    const sales = await as('sales');
    expect(await ask(sales, 'inventory.stock.apply')).toBe('applied');
    expect(received.at(-1)).toMatch(/^_INBOX\.sales\./);
  });

  it("documents' credentials cannot request inventory.stock.apply: refused, and inventory never sees it", async () => {
    const before = received.length;
    const documents = await as('documents');
    expect(await ask(documents, 'inventory.stock.apply')).toMatch(/PERMISSIONS_VIOLATION|TIMEOUT/);
    await new Promise((r) => setTimeout(r, 100));
    expect(received.length).toBe(before);
  });

  it("a service cannot subscribe to another service's request subject", async () => {
    const documents = await as('documents');
    const errors: string[] = [];
    const got: string[] = [];
    documents.subscribe('inventory.stock.apply', {
      callback: (err, msg) => (err ? errors.push(String(err.code)) : got.push(dec.decode(msg.data))),
    });
    await documents.flush();
    await new Promise((r) => setTimeout(r, 100));
    const sales = await as('sales');
    expect(await ask(sales, 'inventory.stock.apply')).toBe('applied');
    expect(errors).toEqual(['PERMISSIONS_VIOLATION']);
    expect(got).toEqual([]);
  });

  it("a service cannot read another's replies (its inbox) nor publish into it", async () => {
    const documents = await as('documents');
    const errors: string[] = [];
    documents.subscribe(`${natsInboxPrefix('sales')}.>`, { callback: (err) => err && errors.push(String(err.code)) });
    await documents.flush();
    await new Promise((r) => setTimeout(r, 100));
    expect(errors).toEqual(['PERMISSIONS_VIOLATION']);

    const sales = await as('sales');
    const seen: string[] = [];
    sales.subscribe(`${natsInboxPrefix('sales')}.forged`, { callback: (_e, m) => seen.push(dec.decode(m.data)) });
    await sales.flush();
    documents.publish(`${natsInboxPrefix('sales')}.forged`, enc.encode('forged reply'));
    await documents.flush();
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([]);
  });

  it("only identity may publish identity's events", async () => {
    const gateway = await as('gateway');
    const seen: string[] = [];
    gateway.subscribe('identity.session.revoked', { callback: (_e, m) => seen.push(dec.decode(m.data)) });
    await gateway.flush();
    const sales = await as('sales');
    sales.publish('identity.session.revoked', enc.encode('forged'));
    await sales.flush();
    const identity = await as('identity');
    identity.publish('identity.session.revoked', enc.encode('real'));
    await identity.flush();
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual(['real']);
  });

  it('an anonymous client and a wrong password are refused', async () => {
    await expect(connect({ servers: nats.url })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    await expect(connect({ servers: nats.url, user: 'sales', pass: 'guess' })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
  });

  it('startNats() without users keeps accepting anonymous loopback clients (service tests)', async () => {
    const plain = await startNats();
    try {
      const nc = await connect({ servers: plain.url });
      await nc.close();
    } finally {
      await plain.stop();
    }
  });
});

describe('startStack NATS users', () => {
  let stack: Stack | undefined;
  let dataDir: string;
  afterAll(async () => {
    await stack?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('generates a password per principal into the data dir (0600), reuses it, and refuses anonymous clients', async () => {
    dataDir = fs.mkdtempSync('/tmp/bahi-stack-nats-');
    stack = await startStack({ services: [], dataDir, logs: 'silent', onNotice: () => {} });
    const file = `${dataDir}/nats-passwords.json`;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    expect(Object.keys(saved).sort()).toEqual([...NatsPrincipals].sort());
    expect(stack.natsUsers.gateway).toEqual({ user: 'gateway', password: saved.gateway });
    await expect(connect({ servers: stack.natsUrl })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    // The gateway connected with its own user: /health says NATS is up.
    const ready = await fetch(`${stack.gatewayUrl}/health`);
    expect(await ready.json()).toMatchObject({ nats: 'up' });
    await stack.stop();
    stack = await startStack({ services: [], dataDir, logs: 'silent', onNotice: () => {} });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(saved);
    const nc = await connect({ servers: stack.natsUrl, user: 'ledger', pass: saved.ledger });
    await nc.close();
  });
});

describe("compose's services/nats.conf", () => {
  it('runs in a real nats-server: each user with its <NAME>_NATS_PASSWORD from the environment, no anonymous client', async () => {
    const port = await freePort();
    const store = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-compose-nats-'));
    const env: Record<string, string> = { ...process.env } as Record<string, string>;
    for (const p of NatsPrincipals) env[natsPasswordEnv(p)] = `compose-${p}-secret`;
    const conf = path.resolve(__dirname, '..', '..', '..', 'services', 'nats.conf');
    // Only the address, port and monitoring port are overridden for the test; users come from the file.
    const child = spawn(findNatsServer(), ['-c', conf, '-a', '127.0.0.1', '-p', String(port), '-m', '0', '-js', '-sd', store], { env, stdio: 'ignore' });
    try {
      let nc: NatsConnection | undefined;
      for (let i = 0; i < 50 && !nc; i++) {
        nc = await connect({ servers: `127.0.0.1:${port}`, user: 'inventory', pass: 'compose-inventory-secret' }).catch(() => undefined);
        if (!nc) await new Promise((r) => setTimeout(r, 100));
      }
      expect(nc).toBeDefined();
      nc!.subscribe('inventory.stock.apply', { queue: 'inventory', callback: (_e, m) => m.respond(enc.encode('ok')) });
      await nc!.flush();
      const sales = await connect({ servers: `127.0.0.1:${port}`, user: 'sales', pass: 'compose-sales-secret', inboxPrefix: natsInboxPrefix('sales') });
      const documents = await connect({ servers: `127.0.0.1:${port}`, user: 'documents', pass: 'compose-documents-secret', inboxPrefix: natsInboxPrefix('documents') });
      expect(await ask(sales, 'inventory.stock.apply')).toBe('ok');
      expect(await ask(documents, 'inventory.stock.apply')).toMatch(/PERMISSIONS_VIOLATION|TIMEOUT/);
      await expect(connect({ servers: `127.0.0.1:${port}` })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
      await Promise.all([nc!.close(), sales.close(), documents.close()]);
    } finally {
      await new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGTERM');
      });
      fs.rmSync(store, { recursive: true, force: true });
    }
  });
});

