import net from 'node:net';
import { connect } from 'nats';
import { assertPortFree, freePort, nextFreePort, startNats } from '../src';

function hold(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
}

describe('ports', () => {
  it('a busy port gives a clear message naming the port and its use', async () => {
    const port = await freePort();
    const srv = await hold(port);
    try {
      await expect(assertPortFree(port, 'gateway')).rejects.toThrow(`Port ${port} (gateway) is already in use`);
    } finally {
      srv.close();
    }
  });

  it('a free port passes', async () => {
    const port = await freePort();
    await expect(assertPortFree(port, 'gateway')).resolves.toBeUndefined();
  });

  it('moves to the next free port and says so', async () => {
    const port = await freePort();
    const srv = await hold(port);
    const notices: string[] = [];
    try {
      const got = await nextFreePort(port, 'NATS', (m) => notices.push(m));
      expect(got).toBeGreaterThan(port);
      expect(notices).toEqual([`Port ${port} (NATS) is busy; using ${got} instead.`]);
    } finally {
      srv.close();
    }
  });
});

describe('startNats', () => {
  it('runs a real nats-server with JetStream and stops it', async () => {
    const nats = await startNats();
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await nc.jetstreamManager();
      const info = await jsm.getAccountInfo();
      expect(info.limits).toBeDefined();
      const sub = nc.subscribe('bahi.test.ping', { max: 1 });
      nc.publish('bahi.test.ping', new TextEncoder().encode('pong'));
      for await (const m of sub) expect(new TextDecoder().decode(m.data)).toBe('pong');
    } finally {
      await nc.close();
      await nats.stop();
    }
    await expect(assertPortFree(nats.port, 'NATS')).resolves.toBeUndefined();
  });

  it('refuses a busy port with a clear message instead of hanging', async () => {
    const port = await freePort();
    const srv = await hold(port);
    try {
      await expect(startNats({ port })).rejects.toThrow(`Port ${port} (NATS) is already in use`);
    } finally {
      srv.close();
    }
  });
});
