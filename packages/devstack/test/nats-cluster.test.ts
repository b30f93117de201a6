// BAHI_NATS_CLUSTER=3: the three-node JetStream cluster `npm start` runs, from the same config
// writer, on real nats-server processes: a stream at three copies keeps taking and serving
// messages when one node is SIGKILLed.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection, StorageType } from 'nats';
import { findNatsServer, freePort, natsClusterSize, writeNatsConfig } from '../src';

const until = async (what: string, check: () => Promise<boolean>, ms = 30_000) => {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Gave up waiting for ${what}: ${(last as Error)?.message ?? 'still false'}`);
};
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => (s.destroy(), resolve(false)));
  });

describe('BAHI_NATS_CLUSTER', () => {
  it('is 1 by default, 3 when asked, and refuses anything else', () => {
    expect(natsClusterSize({})).toBe(1);
    expect(natsClusterSize({ BAHI_NATS_CLUSTER: '1' })).toBe(1);
    expect(natsClusterSize({ BAHI_NATS_CLUSTER: '3' })).toBe(3);
    expect(() => natsClusterSize({ BAHI_NATS_CLUSTER: '2' })).toThrow(
      "BAHI_NATS_CLUSTER must be 1 or 3 (JetStream needs a majority of an odd number of nodes), got '2'.",
    );
  });

  describe('three nodes from writeNatsConfig', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-nats-cluster-'));
    const nodes: { child: ChildProcess; port: number; confDir: string }[] = [];
    let nc: NatsConnection | undefined;

    beforeAll(async () => {
      const clientPorts = [await freePort(), await freePort(), await freePort()];
      const routePorts = [await freePort(), await freePort(), await freePort()];
      for (let i = 0; i < 3; i++) {
        const name = i ? `nats-${i + 1}` : 'nats';
        const { confFile, confDir } = writeNatsConfig({ port: clientPorts[i]!, storeDir: path.join(dir, name), cluster: { serverName: name, routePort: routePorts[i]!, routePorts } });
        // The config is one nats-server accepts (-t tests it and exits).
        const check = spawn(findNatsServer(), ['-t', '-c', confFile], { stdio: 'pipe' });
        expect(await new Promise((r) => check.once('exit', r))).toBe(0);
        const child = spawn(findNatsServer(), ['-c', confFile], { stdio: 'ignore' });
        nodes.push({ child, port: clientPorts[i]!, confDir });
      }
      for (const n of nodes) await until(`node on ${n.port}`, () => listening(n.port));
      nc = await connect({ servers: nodes.map((n) => `nats://127.0.0.1:${n.port}`), maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    }, 60_000);

    afterAll(async () => {
      await nc?.close();
      for (const n of nodes) {
        if (n.child.exitCode === null && n.child.signalCode === null) {
          const gone = new Promise((r) => n.child.once('exit', r));
          n.child.kill('SIGTERM');
          await gone;
        }
        fs.rmSync(n.confDir, { recursive: true, force: true });
      }
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('holds a stream at three copies and keeps it writable and readable with one node killed', async () => {
      // The cluster elects its JetStream leader a moment after the nodes listen.
      await until('a stream at three copies', async () => {
        const jsm = await nc!.jetstreamManager({ timeout: 2000 });
        await jsm.streams.add({ name: 'CLUSTER_T', subjects: ['cluster.t.>'], storage: StorageType.File, num_replicas: 3 });
        return true;
      });
      const jsm = await nc!.jetstreamManager();
      const js = nc!.jetstream();
      await js.publish('cluster.t.a', new TextEncoder().encode('1'), { msgID: 'a' });
      const info = await jsm.streams.info('CLUSTER_T');
      expect(info.config.num_replicas).toBe(3);
      expect(info.cluster?.replicas).toHaveLength(2);

      // The stream leader's node dies: another takes over, and nothing is lost.
      const leader = info.cluster!.leader!;
      const victim = nodes[leader === 'nats' ? 0 : Number(leader.split('-')[1]) - 1]!;
      const gone = new Promise((r) => victim.child.once('exit', r));
      victim.child.kill('SIGKILL');
      await gone;
      await until('a write after the kill', async () => {
        await js.publish('cluster.t.b', new TextEncoder().encode('2'), { msgID: 'b', timeout: 2000 });
        return true;
      });
      const after = await jsm.streams.info('CLUSTER_T');
      expect(after.state.messages).toBe(2);
      expect(after.cluster?.leader).not.toBe(leader);
    }, 90_000);
  });
});
