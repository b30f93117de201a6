import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RevocationList } from '@bahi/auth';
import { freePort, startNats, type NatsHandle } from '@bahi/devstack';
import { connect, type NatsConnection } from 'nats';
import request from 'supertest';
import { appWith, checkerFor, startUpstream, token, type Upstream } from './helpers';

// /api/health without a token is a load balancer's probe: only {status}. Versions, internal
// errors and a service's browser statistics are for signed-in users (the About box).
let nats: NatsHandle;
let nc: NatsConnection;
let list: RevocationList;
let identity: Upstream;
let deadPort: number;

beforeAll(async () => {
  nats = await startNats();
  nc = await connect({ servers: nats.url });
  list = new RevocationList({ retryMs: 200, requestTimeoutMs: 200 });
  await list.start(nc);
  identity = await startUpstream();
  deadPort = await freePort();
});

afterAll(async () => {
  list.stop();
  await nc.close();
  await identity.close();
  await nats.stop();
});

describe('/api/health', () => {
  it('answers only {status} without a token', async () => {
    const gw = appWith({ auth: checkerFor(list), serviceUrls: { identity: identity.url } });
    const res = await request(gw).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers only {status: degraded} with 503 without a token when a service is down', async () => {
    const gw = appWith({ auth: checkerFor(list), serviceUrls: { identity: identity.url, inventory: `http://127.0.0.1:${deadPort}` } });
    const res = await request(gw).get('/api/health');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'degraded' });
  });

  it('treats a bad, forged or expired token like none', async () => {
    const gw = appWith({ auth: checkerFor(list), serviceUrls: { identity: identity.url } });
    for (const header of ['Bearer nope', 'Bearer a.b.c', `Bearer ${token({}, -10)}`, 'Basic abc']) {
      const res = await request(gw).get('/api/health').set('Authorization', header);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    }
  });

  it('gives a signed-in user the details: each service, NATS, MongoDB and versions', async () => {
    const gw = appWith({ auth: checkerFor(list), serviceUrls: { identity: identity.url, inventory: `http://127.0.0.1:${deadPort}` } });
    const res = await request(gw).get('/api/health').set('Authorization', `Bearer ${token({ position: 'staff' })}`);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      status: 'degraded',
      services: { identity: { status: 'up', detail: { mongo: { status: 'up' } } }, inventory: { status: 'down' }, sales: { status: 'unavailable' } },
      nats: { status: 'up' },
      mongo: { status: 'up' },
      gateway: { version: expect.any(String) },
    });
  });

  it("shows the devstack's processes (restarts, last exit) to a signed-in user only", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-gw-processes-'));
    const file = path.join(dir, 'processes.json');
    const processes = {
      mongo: { status: 'running', pid: 4242, restarts: 1, since: '2026-11-28T03:00:01.000Z', lastExit: { reason: 'signal SIGKILL', at: '2026-11-28T03:00:00.000Z' }, lastRecoveryMs: 812 },
      sales: { status: 'restarting', restarts: 2, lastExit: { reason: 'code 1', at: '2026-11-28T03:01:00.000Z' } },
    };
    fs.writeFileSync(file, JSON.stringify({ updatedAt: '2026-11-28T03:01:00.000Z', processes }));
    try {
      const gw = appWith({ auth: checkerFor(list), serviceUrls: { identity: identity.url }, processesFile: file });
      const signedIn = await request(gw).get('/api/health').set('Authorization', `Bearer ${token({ position: 'manager' })}`);
      expect(signedIn.body.processes).toEqual(processes);
      const anonymous = await request(gw).get('/api/health');
      expect(anonymous.body).toEqual({ status: 'ok' });
      // No file (not under the devstack, or not written yet): no section, and no error.
      const none = appWith({ auth: checkerFor(list), serviceUrls: { identity: identity.url }, processesFile: path.join(dir, 'missing.json') });
      const res = await request(none).get('/api/health').set('Authorization', `Bearer ${token({ position: 'manager' })}`);
      expect(res.status).toBe(200);
      expect(res.body.processes).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('asks every replica of a service: up while one answers, each counted', async () => {
    const dead = `http://127.0.0.1:${deadPort}`;
    const gw = appWith({ auth: checkerFor(list), serviceUrls: { identity: `${identity.url},${dead}`, inventory: `${dead},${dead}` } });
    const res = await request(gw).get('/api/health').set('Authorization', `Bearer ${token({ position: 'staff' })}`);
    expect(res.body.services.identity).toMatchObject({ status: 'up', replicas: { up: 1, of: 2 }, detail: { mongo: { status: 'up' } } });
    expect(res.body.services.inventory).toMatchObject({ status: 'down', replicas: { up: 0, of: 2 } });
  });

  it('asks the services at most once a second for callers without a token', async () => {
    let probes = 0;
    const counting = await startUpstream();
    const gw = appWith({ auth: checkerFor(list), serviceUrls: { identity: `${counting.url}` } });
    const original = global.fetch;
    global.fetch = ((...args: Parameters<typeof fetch>) => {
      if (String(args[0]).startsWith(counting.url)) probes++;
      return original(...args);
    }) as typeof fetch;
    try {
      await Promise.all(Array.from({ length: 50 }, () => request(gw).get('/api/health').expect(200)));
      expect(probes).toBe(1);
    } finally {
      global.fetch = original;
      await counting.close();
    }
  });
});
