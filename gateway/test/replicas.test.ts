// Several replicas of a service behind one <NAME>_URL: calls go round-robin; a refused connection
// (the call never reached the service) goes on to the next replica; a replica dying mid-call
// answers that call 503 and later calls go to the live one. Real HTTP servers, a real port closed.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { RevocationList } from '@bahi/auth';
import { loadConfig } from '../src/config';
import { appWith, checkerFor, token } from './helpers';

interface Replica {
  name: string;
  url: string;
  /** Calls that reached it: method, path, body, X-Forwarded-For. */
  seen: { method: string; url: string; body: string; xff: string | null }[];
  /** Drops the connection of the next call mid-way and stops listening: a SIGKILL under a call. */
  dieOnNextCall: boolean;
  close(): Promise<void>;
}

async function replica(name: string): Promise<Replica> {
  const sockets = new Set<Socket>();
  const r: Replica = { name, url: '', seen: [], dieOnNextCall: false, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.seen.push({ method: req.method!, url: req.url!, body: Buffer.concat(chunks).toString('utf8'), xff: (req.headers['x-forwarded-for'] as string) ?? null });
      if (r.dieOnNextCall) {
        r.dieOnNextCall = false;
        void r.close();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ replica: name, body: Buffer.concat(chunks).toString('utf8') }));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  r.close = () =>
    new Promise<void>((ok) => {
      if (!server.listening) return ok();
      server.close(() => ok());
      for (const s of sockets) s.destroy();
    });
  return r;
}

/** A port nothing listens on (bound, then released): connections to it are refused. */
async function closedPortUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((ok) => s.close(() => ok()));
  return `http://127.0.0.1:${port}`;
}

const list = new RevocationList();
const routes = [
  { method: 'GET', path: '/getSaleList', service: 'sales' },
  { method: 'POST', path: '/MAKE_SALE', service: 'sales' },
];
let gateway: http.Server | undefined;
let base = '';
let replicas: Replica[] = [];

async function startGateway(salesUrl: string) {
  const g = http.createServer(appWith({ auth: checkerFor(list), routes, serviceUrls: { sales: salesUrl } }));
  gateway = g;
  await new Promise<void>((ok) => g.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(g.address() as AddressInfo).port}`;
}

afterEach(async () => {
  const g = gateway;
  gateway = undefined;
  g?.closeAllConnections();
  await new Promise<void>((ok) => (g ? g.close(() => ok()) : ok()));
  await Promise.all(replicas.map((r) => r.close()));
  replicas = [];
});

const auth = () => ({ Authorization: `Bearer ${token()}` });
const get = (path: string) => fetch(`${base}/api${path}`, { headers: auth() });
const post = (path: string, body: unknown) =>
  fetch(`${base}/api${path}`, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.9' }, body: JSON.stringify(body) });

it('reads several URLs for a service, separated by commas', () => {
  const cfg = loadConfig({ BAHI_JWT_SECRET: 'x'.repeat(32), SALES_URL: 'http://a:3003/, http://b:3013//', LEDGER_URL: 'http://l:3004' }, ['sales', 'ledger'], '/tmp');
  expect(cfg.serviceUrls).toEqual({ sales: 'http://a:3003,http://b:3013', ledger: 'http://l:3004' });
  expect(() => loadConfig({ BAHI_JWT_SECRET: 'x'.repeat(32), SALES_URL: 'http://a:3003,b:3013' }, ['sales'], '/tmp')).toThrow(/SALES_URL must be http:\/\/ URLs separated by commas/);
});

it('spreads calls over the replicas round-robin', async () => {
  replicas = [await replica('a'), await replica('b')];
  await startGateway(replicas.map((r) => r.url).join(','));
  const answered: string[] = [];
  for (let i = 0; i < 6; i++) {
    const res = i % 2 ? await post('/MAKE_SALE', { n: i }) : await get('/getSaleList?pageNo=0');
    expect(res.status).toBe(200);
    answered.push(((await res.json()) as { replica: string }).replica);
  }
  expect(answered).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
});

it('sends a call refused by one replica to the next, body and headers whole', async () => {
  const live = await replica('live');
  replicas = [live];
  await startGateway(`${await closedPortUrl()},${live.url}`);
  for (let i = 0; i < 4; i++) {
    const res = await post('/MAKE_SALE', { clientId: 7, cart_no: 1, paid: String(i), note: 'x'.repeat(5000) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { replica: string; body: string };
    expect(body.replica).toBe('live');
    expect(JSON.parse(body.body)).toEqual({ clientId: 7, cart_no: 1, paid: String(i), note: 'x'.repeat(5000) });
  }
  expect((await get('/getSaleList?pageNo=0')).status).toBe(200);
  // Each call reached the service once, with X-Forwarded-For added once.
  expect(live.seen.map((s) => s.method)).toEqual(['POST', 'POST', 'POST', 'POST', 'GET']);
  for (const s of live.seen.filter((x) => x.method === 'POST')) expect(s.xff).toBe('203.0.113.9,127.0.0.1');
});

it('answers 503 when every replica refuses', async () => {
  await startGateway(`${await closedPortUrl()},${await closedPortUrl()}`);
  const res = await post('/MAKE_SALE', { paid: '1' });
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('3');
  expect(((await res.json()) as { message: string }).message).toBe('The sales service is restarting; try again in a few seconds.');
});

it('answers 503 to the call a replica dies under (never sent twice), and sends later calls to the live one', async () => {
  const a = await replica('a');
  const b = await replica('b');
  replicas = [a, b];
  await startGateway(`${a.url},${b.url}`);
  a.dieOnNextCall = true;
  const res = await post('/MAKE_SALE', { paid: '5' });
  expect(res.status).toBe(503);
  expect(((await res.json()) as { message: string }).message).toBe('The sales service stopped while answering; try again in a few seconds.');
  // The call reached replica a and was not replayed on b: it may have been applied.
  expect(a.seen.map((s) => s.body)).toEqual(['{"paid":"5"}']);
  expect(b.seen).toEqual([]);
  const later: string[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await post('/MAKE_SALE', { paid: String(i) });
    expect(r.status).toBe(200);
    later.push(((await r.json()) as { replica: string }).replica);
  }
  expect(later).toEqual(['b', 'b', 'b', 'b']);
});
