// The gateway, not the service, ends an idle keep-alive connection: a call sent on a socket the
// service is closing at that instant fails with ECONNRESET although the service is up (seen in
// the load test as a 502 before any kill). Real HTTP servers and sockets.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { RevocationList } from '@bahi/auth';
import { UpstreamKeepAlive } from '@bahi/contracts';
import { appWith, checkerFor, token } from './helpers';

const routes = [{ method: 'GET', path: '/getSaleList', service: 'sales' }];
const list = new RevocationList();
const closeServer = (s: http.Server | undefined) =>
  new Promise<void>((ok) => {
    if (!s) return ok();
    s.closeAllConnections();
    s.close(() => ok());
  });

let upstream: http.Server | undefined;
let gateway: http.Server | undefined;
afterEach(async () => {
  await closeServer(gateway);
  await closeServer(upstream);
});

it('keeps idle upstream sockets for less time than the services keep them open', () => {
  expect(UpstreamKeepAlive.gatewayIdleMs).toBeLessThan(UpstreamKeepAlive.serviceMs / 2);
});

it('drops an idle connection to a service itself, before the service would, and opens a new one for the next call', async () => {
  // A service that would keep the connection for a minute, as the services do.
  const closedBy: string[] = [];
  let connections = 0;
  const up = (upstream = http.createServer((_req, res) => res.end('{"ok":true}')));
  up.keepAliveTimeout = UpstreamKeepAlive.serviceMs;
  up.on('connection', (s: Socket) => {
    connections++;
    // 'end' is the peer's FIN: the gateway closed it; the service never ends it here.
    s.on('end', () => closedBy.push('gateway'));
  });
  await new Promise<void>((ok) => up.listen(0, '127.0.0.1', ok));
  const salesUrl = `http://127.0.0.1:${(up.address() as AddressInfo).port}`;
  const g = (gateway = http.createServer(appWith({ auth: checkerFor(list), routes, serviceUrls: { sales: salesUrl }, upstreamIdleMs: 300 })));
  await new Promise<void>((ok) => g.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(g.address() as AddressInfo).port}`;
  const call = () => fetch(`${base}/api/getSaleList`, { headers: { Authorization: `Bearer ${token()}` } });

  expect((await call()).status).toBe(200);
  const deadline = Date.now() + 5000;
  while (!closedBy.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(closedBy).toEqual(['gateway']);
  expect((await call()).status).toBe(200);
  expect(connections).toBe(2);
});
