import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { PNG } from 'pngjs';
import { signToken } from '@bahi/auth';
import type { NetworkPrinter } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import type { TestingModuleBuilder } from '@nestjs/testing';
import { AppModule } from '../src/app.module';
import { startResponders } from './responders';
import * as F from './fixtures';

export const SECRET = 'documents-test-secret-0123456789abcdef';

export function tokenFor(companyId: number | null, position: 'manager' | 'staff' | 'admin' = 'staff'): string {
  return signToken({ sub: '3', uid: 3, name: 'Asha', email: 'asha@example.in', position, companyId, companyName: 'Co', sid: `s-${companyId}` }, SECRET);
}

/** The printers the stand-in identity answers GET /printers with (print tests set them). */
export const identityPrinters: { list: NetworkPrinter[] } = { list: [] };

/** A small orange logo, served like identity's GET /companyLogo/:companyId. */
export async function startLogoServer(): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  const png = new PNG({ width: 40, height: 20 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([240, 120, 20, 255], i);
  const bytes = PNG.sync.write(png);
  let hits = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === '/printers') {
      // As identity's GET /printers: the caller's token is required and picks the company.
      if (!req.headers.authorization?.startsWith('Bearer ')) res.writeHead(401).end();
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ printers: identityPrinters.list }));
    } else if (req.url === `/companyLogo/${F.COMPANY_ID}`) {
      hits++;
      res.writeHead(200, { 'Content-Type': 'image/png' }).end(bytes);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits, close: () => new Promise((r) => server.close(() => r())) };
}

export interface DocStack {
  nats: NatsHandle;
  mongo: MongoHandle;
  responders: INestMicroservice;
  logo: Awaited<ReturnType<typeof startLogoServer>>;
  svc: TestService;
  url: string;
  stop(): Promise<void>;
}

/** nats-server, the fixture responders, a logo server and documents on a free port. */
export async function startDocuments(override?: (b: TestingModuleBuilder) => TestingModuleBuilder): Promise<DocStack> {
  const [nats, mongo] = await Promise.all([startNats(), startMongo()]);
  const [responders, logo] = await Promise.all([startResponders(nats.url), startLogoServer()]);
  process.env.IDENTITY_URL = logo.url;
  // documents' own database holds share links.
  const svc = await startTestService(AppModule, { service: 'documents', mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: SECRET, override });
  return {
    nats,
    mongo,
    responders,
    logo,
    svc,
    url: svc.url,
    stop: async () => {
      await svc.close();
      await responders.close();
      await logo.close();
      await nats.stop();
      await mongo.stop();
    },
  };
}

/** Number of images embedded in a PDF (poppler's pdfimages -list). */
export function pdfImageCount(pdf: Buffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-img-'));
  try {
    writeFileSync(join(dir, 'd.pdf'), pdf);
    const out = execFileSync('pdfimages', ['-list', join(dir, 'd.pdf')], { encoding: 'utf8' });
    return out.trim().split('\n').length - 2; // two header lines
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const binary = (res: any, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};
