import { execFileSync } from 'node:child_process';
import { startStack, type Stack } from '../src';

// What `npm start` opens to the network: only the gateway (shop PCs reach it). The services,
// NATS and MongoDB listen on loopback, so nothing on the LAN can skip the gateway's checks.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ services: ['identity'], logs: 'files', env: { BAHI_ADMIN_PASSWORD: 'admin12345' } });
}, 120_000);
afterAll(() => stack?.stop());

/** Local addresses listening on a TCP port, from the kernel's socket table (ss). */
function listeners(port: number): string[] {
  const out = execFileSync('ss', ['-ltnH', `( sport = :${port} )`], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => line.trim().split(/\s+/)[3]!)
    .map((local) => local.slice(0, local.lastIndexOf(':')));
}
const portOf = (url: string) => Number(new URL(url).port);

describe('npm start listens', () => {
  it('the gateway on every interface', () => {
    expect(listeners(portOf(stack.gatewayUrl))).toEqual(expect.arrayContaining([expect.stringMatching(/^(0\.0\.0\.0|\*|\[::\])$/)]));
  });

  it('the services, NATS and MongoDB on 127.0.0.1 only', () => {
    const parts = {
      identity: portOf(stack.services.identity!),
      nats: portOf(stack.natsUrl.replace(/^nats:/, 'http:')),
      mongo: Number(/@?[\w.-]+:(\d+)/.exec(stack.mongoUri.replace(/^mongodb:\/\/[^@]*@/, 'mongodb://'))![1]),
    };
    for (const [part, port] of Object.entries(parts)) {
      const addrs = listeners(port);
      expect([part, addrs.length > 0]).toEqual([part, true]);
      expect([part, addrs]).toEqual([part, addrs.map(() => '127.0.0.1')]);
    }
  });
});
