import net from 'node:net';
import { MongoClient } from 'mongodb';
import { assertPortFree, freePort, startMongo, startNats, startStack, type Stack } from '../src';

describe('startMongo', () => {
  it('runs the embedded server in process and answers the driver', async () => {
    const mongo = await startMongo();
    const client = await MongoClient.connect(mongo.uri);
    try {
      const col = client.db('bahi_devstack_test').collection('things');
      await col.insertOne({ companyId: 1, name: 'चावल 5kg' });
      expect(await col.findOne({ companyId: 1 })).toMatchObject({ name: 'चावल 5kg' });
    } finally {
      await client.close();
      await mongo.stop();
    }
  });
});

describe('startStack with identity', () => {
  let stack: Stack;

  beforeAll(async () => {
    // A given admin password is not force-changed at first login.
    stack = await startStack({ services: ['identity'], logs: 'files', env: { BAHI_ADMIN_PASSWORD: 'admin12345' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('reports every part healthy through the gateway', async () => {
    // Details are for signed-in callers only (an anonymous probe gets just the status).
    const res = await fetch(`${stack.gatewayUrl}/api/health`, { headers: { authorization: `Bearer ${await adminToken(stack)}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      services: { identity: { status: 'up' }, sales: { status: 'unavailable' } },
      nats: { status: 'up' },
      mongo: { status: 'up' },
    });
  });

  it('logs in as the seeded admin through the gateway, and logout ends the session', async () => {
    const login = await fetch(`${stack.gatewayUrl}/api/loginReact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@bahi.local', password: 'admin12345' }),
    });
    expect(login.status).toBe(200);
    const body = (await login.json()) as { success: boolean; token: string };
    expect(body.success).toBe(true);
    const auth = { authorization: `Bearer ${body.token}` };
    const me = await fetch(`${stack.gatewayUrl}/api/getUserData`, { headers: auth });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { position: 'admin', companyId: null } });
    expect((await fetch(`${stack.gatewayUrl}/api/logout`, { method: 'POST', headers: auth })).status).toBe(200);
    expect((await fetch(`${stack.gatewayUrl}/api/getUserData`, { headers: auth })).status).toBe(401);
  });

  it('answers 501 for a service that is not running', async () => {
    const res = await fetch(`${stack.gatewayUrl}/api/getProducts?cart_no=1`, {
      headers: { authorization: `Bearer ${await adminToken(stack)}` },
    });
    expect(res.status).toBe(501);
  });
});

describe('startStack on a busy gateway port', () => {
  it('fails with a clear message naming the port', async () => {
    const port = await freePort();
    const holder = net.createServer().listen(port, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    const notices: string[] = [];
    try {
      await expect(startStack({ services: [], port, logs: 'silent', onNotice: (m) => notices.push(m) })).rejects.toThrow(
        `Port ${port} (gateway) is already in use`,
      );
    } finally {
      holder.close();
    }
  });

  it('with fixedPorts moves to the next free port and says so', async () => {
    const port = await freePort();
    const holder = net.createServer().listen(port, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    const notices: string[] = [];
    let stack: Stack | undefined;
    try {
      // Real MongoDB/NATS ports may be taken by a running Bahi; that only adds notices.
      stack = await startStack({ services: [], port, fixedPorts: true, logs: 'silent', onNotice: (m) => notices.push(m) });
      expect(stack.gatewayUrl).not.toBe(`http://localhost:${port}`);
      expect(notices.some((n) => n.startsWith(`Port ${port} (gateway) is busy; using`))).toBe(true);
      expect((await fetch(`${stack.gatewayUrl}/health`)).status).toBe(200);
    } finally {
      holder.close();
      await stack?.stop();
    }
    const gwPort = Number(new URL(stack!.gatewayUrl).port);
    await expect(assertPortFree(gwPort, 'gateway')).resolves.toBeUndefined();
  });
});

async function adminToken(stack: Stack): Promise<string> {
  const res = await fetch(`${stack.gatewayUrl}/api/loginReact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@bahi.local', password: 'admin12345' }),
  });
  return ((await res.json()) as { token: string }).token;
}

describe('startStack with MONGODB_URI and NATS_URL', () => {
  it('uses the given servers instead of starting its own', async () => {
    const mongo = await startMongo();
    const nats = await startNats();
    const notices: string[] = [];
    let stack: Stack | undefined;
    try {
      stack = await startStack({
        services: [],
        logs: 'silent',
        env: { MONGODB_URI: mongo.uri, NATS_URL: nats.url },
        onNotice: (m) => notices.push(m),
      });
      expect(stack.mongoUri).toBe(mongo.uri);
      expect(stack.natsUrl).toBe(nats.url);
      expect(notices).toEqual([`Using MongoDB at ${mongo.uri} (MONGODB_URI).`, `Using NATS at ${nats.url} (NATS_URL).`]);
      // No identity here to sign in with: the gateway's own readiness says whether NATS is connected.
      const health = await (await fetch(`${stack.gatewayUrl}/health`)).json();
      expect(health).toMatchObject({ nats: 'up' });
    } finally {
      await stack?.stop();
      await nats.stop();
      await mongo.stop();
    }
  });
});
