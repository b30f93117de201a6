// The documents service (PDFs, real Chromium) beside a Rig, and a client that reads a PDF's text.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@bahi/devstack';
import type { Api } from './api';
import { ROOT, sleep, type Rig } from './rig';

export interface DocumentsProc {
  url: string;
  child: ChildProcess;
  /** True while the process runs (it never died under the matrix). */
  alive(): boolean;
  stop(): Promise<void>;
}

/** A free port for documents, picked before the rig so the gateway is started with DOCUMENTS_URL. */
export async function documentsPort(): Promise<number> {
  return freePort();
}

/**
 * Starts services/documents/dist/main.js on `port` with the environment the rig gives its services
 * (NATS, JWT secret and whatever credentials the rig adds), logging into the rig's log directory.
 */
export async function startDocuments(rig: Rig, port: number, natsEnv: { NATS_USER?: string; NATS_PASSWORD?: string } = {}): Promise<DocumentsProc> {
  const main = path.join(ROOT, 'services', 'documents', 'dist', 'main.js');
  if (!fs.existsSync(main)) throw new Error('services/documents/dist/main.js is missing: run `npx turbo run build --filter=@bahi/documents...` first.');
  // identity's environment as the rig made it: the same shared settings every service gets,
  // but not identity's own NATS user.
  const procs = (rig as unknown as { procs: Map<string, { env: NodeJS.ProcessEnv }> }).procs;
  const shared = procs.get('identity')!.env;
  if (shared.NATS_PASSWORD && !natsEnv.NATS_PASSWORD) throw new Error("The rig's NATS has a user per service: pass documents' NATS_USER/NATS_PASSWORD to startDocuments.");
  const env: NodeJS.ProcessEnv = { ...shared, DOCUMENTS_PORT: String(port), IDENTITY_URL: rig.serviceUrl.identity };
  delete env.IDENTITY_PORT;
  delete env.NATS_USER;
  delete env.NATS_PASSWORD;
  Object.assign(env, natsEnv);
  const logFile = path.join(rig.logDir, 'documents.log');
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: path.dirname(path.dirname(main)), env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const alive = () => child.exitCode === null && child.signalCode === null;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`documents exited with ${child.exitCode}; see ${logFile}`);
    const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(3000) }).then((r) => r.ok, () => false);
    if (ok) break;
    await sleep(200);
  }
  if (!alive()) throw new Error(`documents exited; see ${logFile}`);
  return {
    url,
    child,
    alive,
    stop: async () => {
      if (!alive()) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(t);
    },
  };
}

export interface DocReply {
  status: number;
  contentType: string;
  /** The JSON answer (errors), or null for a PDF. */
  body: any;
  /** A PDF's text (pdftotext), or the raw body of anything else. */
  text: string;
  ms: number;
}

/** The text of a PDF, by poppler's pdftotext. */
export function pdfText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-rel-pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    fs.writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** GET /api{path} as `api`'s user, a PDF read back to text. */
export async function getDocument(api: Api, p: string): Promise<DocReply> {
  const t0 = Date.now();
  try {
    const res = await fetch(`${api.base}/api${p}`, { headers: { Authorization: `Bearer ${api.token}` }, signal: AbortSignal.timeout(90_000) });
    const bytes = Buffer.from(await res.arrayBuffer());
    const contentType = res.headers.get('content-type') ?? '';
    if (contentType.startsWith('application/pdf')) return { status: res.status, contentType, body: null, text: pdfText(bytes), ms: Date.now() - t0 };
    const text = bytes.toString('utf8');
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, contentType, body, text, ms: Date.now() - t0 };
  } catch (err) {
    return { status: 0, contentType: '', body: { message: (err as Error).message }, text: '', ms: Date.now() - t0 };
  }
}
