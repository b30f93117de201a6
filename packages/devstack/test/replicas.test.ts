// startStack({ replicas }): several processes of a service, each its own port and log, the
// gateway spreading calls over them and carrying on when one is killed.
import fs from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../src';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ services: ['identity'], replicas: { identity: 2 }, logs: 'files' });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

const login = () =>
  fetch(`${stack.gatewayUrl}/api/loginReact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@bahi.local', password: 'admin12345' }),
  }).then((r) => r.status);

it('starts two identity processes on their own ports, both healthy', async () => {
  const urls = stack.replicas.identity!;
  expect(urls).toHaveLength(2);
  expect(new Set(urls).size).toBe(2);
  expect(urls[0]).toBe(stack.services.identity);
  for (const u of urls) expect((await fetch(`${u}/health`)).status).toBe(200);
  const pids = stack.pids();
  expect(pids.identity).toBeGreaterThan(0);
  expect(pids['identity-2']).toBeGreaterThan(0);
  expect(pids['identity-2']).not.toBe(pids.identity);
  expect(fs.existsSync(path.join(stack.logDir, 'identity-2.log'))).toBe(true);
});

it('spreads logins over both, and keeps answering after one is killed', async () => {
  // Logins each replica served, from its request log.
  const served = () =>
    ['identity.log', 'identity-2.log'].map((f) => fs.readFileSync(path.join(stack.logDir, f), 'utf8').split('\n').filter((l) => l.includes('"path":"/loginReact"')).length);
  for (let i = 0; i < 6; i++) expect(await login()).toBe(200);
  await new Promise((r) => setTimeout(r, 300));
  expect(served()).toEqual([3, 3]);
  process.kill(stack.pids().identity!, 'SIGKILL');
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < 6; i++) expect(await login()).toBe(200);
});

it('refuses a replica count that is not a small whole number', async () => {
  await expect(startStack({ services: [], replicas: { sales: 0 }, logs: 'silent' })).rejects.toThrow('replicas.sales must be a whole number from 1 to 9, got 0.');
});
