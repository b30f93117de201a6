// GET /api/export/all as the gateway answers it itself (export-all.ts), in its route table like
// the other calls. The owners are stand-ins (real HTTP servers) answering each list with its own
// path and the Authorization they got, so the zip's entries show what was asked and in which order.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { RevocationList } from '@bahi/auth';
import { Routes } from '@bahi/contracts';
import request from 'supertest';
import { EXPORT_ALL_LISTS } from '../src/export-all';
import { PlatformRoutes } from '../src/platform-routes';
import { appWith, checkerFor, token } from './helpers';

const list = new RevocationList();
const asked: string[] = [];
let owner: http.Server;
let ownerUrl = '';

beforeAll(async () => {
  owner = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(`${req.url} ${req.headers.authorization}`);
  });
  await new Promise<void>((ok) => owner.listen(0, '127.0.0.1', ok));
  ownerUrl = `http://127.0.0.1:${(owner.address() as AddressInfo).port}`;
});
afterAll(async () => {
  owner.closeAllConnections();
  await new Promise((ok) => owner.close(ok));
});

const app = () => appWith({ auth: checkerFor(list), routes: [...Routes, ...PlatformRoutes], serviceUrls: { inventory: ownerUrl, ledger: ownerUrl, sales: ownerUrl } });

/** A zip's entry names in order and each entry's text, read back with Info-ZIP's unzip (Debian). */
function unzip(data: Buffer): { names: string[]; text(name: string): string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-gw-zip-'));
  const file = path.join(dir, 'all.zip');
  fs.writeFileSync(file, data);
  const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const texts = new Map(names.map((n) => [n, execFileSync('unzip', ['-p', file, n], { encoding: 'utf8' })]));
  fs.rmSync(dir, { recursive: true, force: true });
  return { names, text: (n) => texts.get(n)! };
}

/** Supertest's binary body. */
const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

it('is in the route table as the gateway\'s own call; another method gets 405 naming GET', async () => {
  expect(PlatformRoutes).toContainEqual({ method: 'GET', path: '/export/all', service: 'gateway' });
  const res = await request(app()).post('/api/export/all').set('Authorization', `Bearer ${token()}`);
  expect(res.status).toBe(405);
  expect(res.headers.allow).toBe('GET');
});

it('staff get 403 with a sentence and no token 401, before any owner is asked', async () => {
  asked.length = 0;
  const staff = await request(app()).get('/api/export/all').set('Authorization', `Bearer ${token({ position: 'staff' })}`);
  expect(staff.status).toBe(403);
  expect(staff.body.message).toBe('Only a manager can download all of the company’s data.');
  expect((await request(app()).get('/api/export/all')).status).toBe(401);
  expect(asked).toEqual([]);
});

it("a manager's zip holds each owner's list under its file name, asked one at a time with the manager's own token", async () => {
  asked.length = 0;
  const t = token({ position: 'manager', companyId: 4 });
  const res = await request(app()).get('/api/export/all').set('Authorization', `Bearer ${t}`).buffer(true).parse(binary);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  const zip = unzip(res.body as Buffer);
  expect(zip.names).toEqual(EXPORT_ALL_LISTS.map((l) => l.file));
  expect(EXPORT_ALL_LISTS.map((l) => l.file)).toEqual([
    'products.xlsx', 'stock-movements.xlsx', 'customers.xlsx', 'distributors.xlsx', 'sales.xlsx', 'sale-lines.xlsx', 'estimates.xlsx',
    'credit-notes.xlsx', 'purchases.xlsx', 'purchase-lines.xlsx', 'debit-notes.xlsx', 'payments.xlsx', 'ledgers.xlsx',
  ]);
  for (const l of EXPORT_ALL_LISTS) {
    expect(zip.text(l.file)).toBe(`/export/${l.list}?format=xlsx Bearer ${t}`);
    // Each list is a call of the contracts' route table (the owner's own export).
    expect(Routes).toContainEqual(expect.objectContaining({ method: 'GET', path: `/export/${l.list}`, service: l.service }));
  }
  expect(asked).toEqual(EXPORT_ALL_LISTS.map((l) => `/export/${l.list}?format=xlsx`));
});
