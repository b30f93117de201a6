import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { RevocationList } from '@bahi/auth';
import { shareLimitFromEnv } from '../src/share-route';
import { appWith, checkerFor } from './helpers';

/** A documents service that answers every /s/ path with the path it got and the headers it was sent. */
describe('public share links through the gateway', () => {
  let documents: http.Server;
  let documentsUrl: string;
  const seen: { url: string; auth: string | undefined; xff: string | undefined }[] = [];
  const auth = checkerFor(new RevocationList());

  beforeAll(async () => {
    documents = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, xff: req.headers['x-forwarded-for'] as string | undefined });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<p>page ${req.url}</p>`);
    });
    await new Promise<void>((r) => documents.listen(0, '127.0.0.1', () => r()));
    documentsUrl = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => documents.close(() => r())));

  const gateway = (maxFailures = 60) => appWith({ auth, serviceUrls: { documents: documentsUrl }, shareLimit: { maxFailures, windowMs: 60_000 } });

  it('forwards /s/<token> and /s/<token>/pdf to documents without a token, with no-referrer and noindex', async () => {
    const app = gateway();
    const page = await request(app).get('/s/abcDEF123_-abcDEF123_-abcDEF1234');
    expect(page.status).toBe(200);
    expect(page.text).toBe('<p>page /s/abcDEF123_-abcDEF123_-abcDEF1234</p>');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.headers['cache-control']).toBe('no-store');
    const pdf = await request(app).get('/s/abcDEF123_-abcDEF123_-abcDEF1234/pdf');
    expect(pdf.status).toBe(200);
    expect(seen.at(-1)!.url).toBe('/s/abcDEF123_-abcDEF123_-abcDEF1234/pdf');
    // Only /s/<token>[/pdf]: nothing deeper reaches documents.
    const deeper = await request(app).get('/s/a/b/c').set('Accept', 'application/json');
    expect(deeper.status).not.toBe(200);
    expect(seen.at(-1)!.url).toBe('/s/abcDEF123_-abcDEF123_-abcDEF1234/pdf');
  });

  it('answers 429 past the views a minute of one address, and counts each address on its own', async () => {
    const app = gateway(3);
    const view = (from: string) => request(app).get('/s/tokentokentokentokentokentokento').set('X-Forwarded-For', from);
    for (let i = 0; i < 3; i++) expect((await view('203.0.113.7')).status).toBe(200);
    const fourth = await view('203.0.113.7');
    expect(fourth.status).toBe(429);
    expect(fourth.text).toContain('Too many pages were opened from this address');
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await view('198.51.100.4')).status).toBe(200);
  });

  it('reads the limit from BAHI_SHARE_VIEWS_PER_MINUTE, ignoring nonsense', () => {
    expect(shareLimitFromEnv({ BAHI_SHARE_VIEWS_PER_MINUTE: '10' })).toEqual({ maxFailures: 10, windowMs: 60_000 });
    expect(shareLimitFromEnv({ BAHI_SHARE_VIEWS_PER_MINUTE: 'lots' })).toEqual({ maxFailures: 60, windowMs: 60_000 });
  });
});
