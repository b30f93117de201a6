import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { RevocationList, Revoke, signToken, verifyToken } from '@bahi/auth';
import { RoutePrefixes, Routes, ServiceNames, type TokenClaims, type TokenSubject } from '@bahi/contracts';
import pino from 'pino';
import { createApp, type GatewayOptions } from '../src/app';
import type { TokenChecker } from '../src/auth';

export const SECRET = 'test-secret-for-the-gateway-0123456789';

let sid = 0;
export function subject(over: Partial<TokenSubject> = {}): TokenSubject {
  sid += 1;
  return {
    sub: '7',
    uid: 7,
    name: 'Asha',
    email: 'asha@demo.local',
    position: 'manager',
    companyId: 1,
    companyName: 'Demo Traders',
    sid: `session-${sid}-${process.pid}`,
    ...over,
  };
}

export function token(over: Partial<TokenSubject> = {}, ttlSeconds?: number): string {
  return signToken(subject(over), SECRET, ttlSeconds);
}

export function checkerFor(list: RevocationList): TokenChecker {
  return {
    verify: (t) => verifyToken(t, SECRET) as unknown as ReturnType<TokenChecker['verify']>,
    isRevoked: (c) => list.isRevoked(c as unknown as TokenClaims),
    revokeLocally: (c) => list.revokeLocally(Revoke.session(String(c.sid), Number(c.exp))),
  };
}

/** A stand-in service: a real HTTP server that echoes what reached it. */
export interface Upstream {
  url: string;
  /** Paths whose caller went away before the answer was sent. */
  hungUp: string[];
  close(): Promise<void>;
}

export function startUpstream(): Promise<Upstream> {
  const hungUp: string[] = [];
  const server = http.createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableFinished) hungUp.push(req.url ?? '');
    });
    if (req.url === '/never') return; // never answers: the gateway's deadline must fire
    if (req.url === '/stream') {
      // 3 MB in 64 KB pieces, waiting for the reader as a PDF renderer would.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let left = 48;
      const more = (): void => {
        while (left > 0) {
          left--;
          if (!res.write(Buffer.alloc(64 * 1024, 48 - left))) return void res.once('drain', more);
        }
        res.end();
      };
      return more();
    }
    if (req.url === '/cookies') {
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
      return res.end('{}');
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url === '/health') {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ status: 'ok', info: { mongo: { status: 'up' }, nats: { status: 'up' } } }));
      }
      if (req.url?.startsWith('/boom')) {
        // An upstream crash mid-answer: headers promised, connection cut.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"partial":');
        return void setTimeout(() => res.destroy(), 50);
      }
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          authorization: req.headers.authorization ?? null,
          host: req.headers.host,
          forwarded: ['for', 'port', 'proto', 'host'].map((k) => req.headers[`x-forwarded-${k}`] ?? null),
          contentType: req.headers['content-type'] ?? null,
          bodyLength: body.length,
          body: body.length < 10_000 ? body.toString('utf8') : null,
        }),
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        hungUp,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface LogSink {
  lines: string[];
  logger: pino.Logger;
}

export function logSink(): LogSink {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
  return { lines, logger };
}

export function appWith(over: Partial<GatewayOptions> & Pick<GatewayOptions, 'auth'>) {
  return createApp({
    routes: Routes,
    prefixes: RoutePrefixes,
    serviceNames: ServiceNames,
    serviceUrls: {},
    natsUp: () => true,
    shellDir: tempDir('bahi-shell-none-'),
    remotesDir: tempDir('bahi-remotes-none-'),
    logger: pino({ level: 'silent' }),
    ...over,
  });
}
