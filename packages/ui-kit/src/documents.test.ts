import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, setAuthFailureHandler } from './api';
import { documentPath, fetchDocument, fileNameOf } from './documents';
import { getToken, setSession } from './session';

class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

const PDF = Buffer.from('%PDF-1.4\n%fake body\n');

// A real HTTP server standing in for the gateway's /api/documents.
describe('fetchDocument', () => {
  let server: http.Server;
  let base: string;
  const seen: { url?: string; auth?: string }[] = [];
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url, auth: req.headers.authorization });
      if (!req.headers.authorization) {
        res.writeHead(401, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ statusCode: 401, message: 'Unauthorized' }));
      }
      if (req.url?.startsWith('/api/documents/bill/5')) {
        const attach = req.url.includes('download=1');
        res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Disposition': `${attach ? 'attachment' : 'inline'}; filename="bill-5.pdf"` });
        return res.end(PDF);
      }
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 404, message: 'Bill 7 was not found.' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    globalThis.fetch = ((input: string, init?: RequestInit) => realFetch(base + input, init)) as typeof fetch;
  });

  afterAll(async () => {
    globalThis.fetch = realFetch;
    await new Promise((r) => server.close(r));
  });

  beforeEach(() => {
    (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
    seen.length = 0;
  });

  it('fetches the PDF with the bearer token, with download=1 for Save', async () => {
    setSession('tok');
    const doc = await fetchDocument('/documents/bill/5');
    expect(Buffer.from(await doc.blob.arrayBuffer()).equals(PDF)).toBe(true);
    expect(doc.fileName).toBe('bill-5.pdf');
    await fetchDocument('/api/documents/bill/5', { download: true });
    expect(seen).toEqual([
      { url: '/api/documents/bill/5', auth: 'Bearer tok' },
      { url: '/api/documents/bill/5?download=1', auth: 'Bearer tok' },
    ]);
  });

  it('throws ApiError with the service message for a missing document', async () => {
    setSession('tok');
    const err = await fetchDocument('documents/bill/7').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, message: 'Bill 7 was not found.' });
  });

  it('on 401 clears the session and hands over to the auth failure handler', async () => {
    const statuses: number[] = [];
    setAuthFailureHandler((s) => statuses.push(s));
    await expect(fetchDocument('/documents/bill/5')).rejects.toMatchObject({ status: 401 });
    expect(statuses).toEqual([401]);
    expect(getToken()).toBeNull();
  });
});

describe('document paths and file names', () => {
  it('accepts the path with or without /api', () => {
    expect(documentPath('/api/documents/bill/5')).toBe('/documents/bill/5');
    expect(documentPath('documents/stockbook?category=4')).toBe('/documents/stockbook?category=4');
  });
  it('reads the file name of Content-Disposition', () => {
    expect(fileNameOf('attachment; filename="receipt-3.pdf"')).toBe('receipt-3.pdf');
    expect(fileNameOf(null, 'bill.pdf')).toBe('bill.pdf');
  });
});
