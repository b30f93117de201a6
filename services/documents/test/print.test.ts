import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import request from 'supertest';
import { identityPrinters, startDocuments, tokenFor, type DocStack } from './helpers';
import { state } from './responders';
import * as F from './fixtures';

// POST /print/bill/{id}: ESC/POS over TCP to a listener on 127.0.0.1 that keeps every byte.

const SHOTS = join(__dirname, '../../../e2e/test-results/screenshots');
const ESC = 0x1b;
const GS = 0x1d;

/** A stand-in printer: accepts a connection and keeps what it was sent. */
async function listener(): Promise<{ port: number; jobs: Buffer[]; close(): Promise<void> }> {
  const jobs: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    const parts: Buffer[] = [];
    s.on('data', (d) => parts.push(d));
    s.on('end', () => {
      jobs.push(Buffer.concat(parts));
      s.end();
    });
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    jobs,
    close: () => new Promise((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

/** A port nobody listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const has = (hay: Buffer, needle: number[] | string) => hay.includes(typeof needle === 'string' ? Buffer.from(needle, 'latin1') : Buffer.from(needle));
/** GS ( k, function 180 (store QR data): pL pH cn=49 fn=80 m=48 then the payload. */
function qrPayload(bytes: Buffer): string | null {
  for (let i = 0; i < bytes.length - 8; i++) {
    if (bytes[i] === GS && bytes[i + 1] === 0x28 && bytes[i + 2] === 0x6b && bytes[i + 5] === 49 && bytes[i + 6] === 80 && bytes[i + 7] === 48) {
      const len = bytes[i + 3]! + bytes[i + 4]! * 256 - 3;
      return bytes.subarray(i + 8, i + 8 + len).toString('latin1');
    }
  }
  return null;
}
/** The reply comes once the bytes left; the listener files the job when the connection ends. */
async function jobs(p: { jobs: Buffer[] }, n: number): Promise<Buffer[]> {
  for (let i = 0; i < 100 && p.jobs.length < n; i++) await new Promise((r) => setTimeout(r, 20));
  return p.jobs;
}
const DRAWER = [ESC, 0x70]; // ESC p m t1 t2
const CUT = [GS, 0x56]; // GS V

describe('documents: bills to a network thermal printer (ESC/POS, no dialog)', () => {
  let stack: DocStack;
  let printer: Awaited<ReturnType<typeof listener>>;
  const mgr = () => ({ Authorization: `Bearer ${tokenFor(F.COMPANY_ID, 'manager')}` });
  const staff = () => ({ Authorization: `Bearer ${tokenFor(F.COMPANY_ID, 'staff')}` });

  beforeAll(async () => {
    stack = await startDocuments();
    printer = await listener();
    identityPrinters.list = [
      { id: 1, name: 'Counter 1', host: '127.0.0.1', port: printer.port, width: 80, encoding: 'cp437' },
      { id: 2, name: 'Counter 2', host: '127.0.0.1', port: await closedPort(), width: 58, encoding: 'cp437' },
      // Saved before a rule change, say: documents re-checks the address and never connects.
      { id: 3, name: 'Outside', host: '8.8.8.8', port: 9100, width: 80, encoding: 'cp437' },
    ];
  }, 120_000);
  afterAll(async () => {
    await printer?.close();
    await stack?.stop();
  });
  beforeEach(() => {
    printer.jobs.length = 0;
    state.docLanguage = undefined;
  });

  it('sends a cash sale as text lines with the UPI QR of the due, the drawer pulse and the cut', async () => {
    const r = await request(stack.url).post('/print/bill/7').set(staff()).send({ printer_id: 1 }).expect(200);
    expect(r.body).toEqual({ ok: true });
    expect(await jobs(printer, 1)).toHaveLength(1);
    const b = printer.jobs[0]!;
    expect(b.subarray(0, 2)).toEqual(Buffer.from([ESC, 0x40])); // ESC @ initialise
    for (const text of ['Sharma Kirana Stores', 'Bill 7', 'Basmati Rice 5kg', '2.0 bag x 625.00', '1,250.00', 'Toor Dal 1kg', '481.50', 'Ramesh Gupta']) expect(has(b, text)).toBe(true);
    // total 1731.50 + 311.67 + 40 - 21.50 + 500.25 = 2,561.92; paid 1,000 in cash; due 1,561.92 -> the QR asks Rs 1,562.00
    expect(has(b, 'Rs 2,561.92')).toBe(true);
    expect(has(b, 'Paid (Cash)')).toBe(true);
    expect(has(b, '1,561.92')).toBe(true);
    expect(qrPayload(b)).toBe('upi://pay?pa=sharmakirana%40upi&pn=Sharma%20Kirana%20Stores&am=1562.00&cu=INR&tn=Bill%207');
    expect(has(b, DRAWER)).toBe(true);
    expect(has(b, CUT)).toBe(true);
    expect(b.lastIndexOf(Buffer.from(CUT))).toBeGreaterThan(b.indexOf(Buffer.from(DRAWER)));
  });

  it('opens no drawer when the sale took UPI only, and prints no QR when nothing is due', async () => {
    await request(stack.url).post('/print/bill/11').set(staff()).send({ printer_id: 1 }).expect(200);
    const upi = (await jobs(printer, 1))[0]!;
    expect(has(upi, 'Paid (UPI UTR4471)')).toBe(true);
    expect(has(upi, DRAWER)).toBe(false);
    expect(has(upi, CUT)).toBe(true);
    // The walk-in paid its whole 2,061.67 in cash: a pulse, no QR.
    await request(stack.url).post('/print/bill/8').set(staff()).send({ printer_id: 1 }).expect(200);
    const cash = (await jobs(printer, 2))[1]!;
    expect(qrPayload(cash)).toBeNull();
    expect(has(cash, DRAWER)).toBe(true);
  });

  it('sends a Hindi bill as a raster image (GS v 0) with the QR still a printer command', async () => {
    state.docLanguage = 'hi';
    await request(stack.url).post('/print/bill/7').set(staff()).send({ printer_id: 1 }).expect(200);
    const b = (await jobs(printer, 1))[0]!;
    // GS v 0 m xL xH yL yH + data, in chunks of at most 255 rows: 576 dots = 72 bytes a row on 80 mm.
    let at = b.indexOf(Buffer.from([GS, 0x76, 0x30, 0]));
    expect(at).toBeGreaterThan(0);
    let rows = 0;
    while (b[at] === GS && b[at + 1] === 0x76 && b[at + 2] === 0x30) {
      expect(b[at + 4]! + b[at + 5]! * 256).toBe(72);
      const n = b[at + 6]! + b[at + 7]! * 256;
      expect(n).toBeLessThanOrEqual(255);
      rows += n;
      at += 8 + 72 * n;
    }
    expect(rows % 8).toBe(0); // whole bands of 8 dots
    expect(rows).toBeGreaterThan(300);
    // The raster as a PNG to look at (1 bit per dot, black set).
    const png = new PNG({ width: 576, height: rows });
    let y = 0;
    for (let at2 = b.indexOf(Buffer.from([GS, 0x76, 0x30, 0])); b[at2] === GS && b[at2 + 1] === 0x76; ) {
      const n = b[at2 + 6]! + b[at2 + 7]! * 256;
      for (let r = 0; r < n; r++, y++)
        for (let x = 0; x < 576; x++) {
          const black = (b[at2 + 8 + r * 72 + (x >> 3)]! >> (7 - (x & 7))) & 1;
          png.data.set(black ? [0, 0, 0, 255] : [255, 255, 255, 255], (y * 576 + x) * 4);
        }
      at2 += 8 + 72 * n;
    }
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(join(SHOTS, 'escpos-hindi-80mm.png'), PNG.sync.write(png));
    expect(has(b, 'Basmati')).toBe(false); // no text: the printer has no Devanagari font
    expect(qrPayload(b)).toContain('am=1562.00');
    expect(has(b, CUT)).toBe(true);
  }, 60_000);

  it('answers 502 with the sentence within 3 s when the printer does not answer; the listener got nothing', async () => {
    const t0 = Date.now();
    const r = await request(stack.url).post('/print/bill/7').set(staff()).send({ printer_id: 2 }).expect(502);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(r.body.message).toBe('Printer Counter 2 did not answer; the bill is saved, print it from the bill view.');
  });

  it('refuses bad input with a sentence and sends nothing', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{}, 400, /Choose the printer/],
      [{ printer_id: 'one' }, 400, /Choose the printer/],
      [{ printer_id: 9 }, 404, /There is no printer 9/],
      [{ printer_id: 1, lang: 'fr' }, 400, /lang must be one of en, hi/],
      [{ printer_id: 3 }, 400, /not on the shop's own network/],
    ];
    for (const [body, status, msg] of cases) {
      const r = await request(stack.url).post('/print/bill/7').set(mgr()).send(body as object).expect(status);
      expect(String(r.body.message)).toMatch(msg);
    }
    expect((await request(stack.url).post('/print/bill/99').set(mgr()).send({ printer_id: 1 }).expect(404)).body.message).toMatch(/Bill 99 was not found/);
    // Another company's bill 7 is not this company's.
    await request(stack.url).post('/print/bill/7').set({ Authorization: `Bearer ${tokenFor(F.OTHER_COMPANY_ID, 'manager')}` }).send({ printer_id: 1 }).expect(404);
    await request(stack.url).post('/print/bill/7').send({ printer_id: 1 }).expect(401);
    expect(await jobs(printer, 1)).toHaveLength(0);
  });
});
