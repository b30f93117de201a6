/**
 * Backups of `npm start`'s data folder: one `.bahi` file (a tar holding `manifest.json` and the
 * payload, a gzipped tar optionally encrypted with age), its verification in a scratch folder,
 * and the restore. README "Backups" describes the format; the retention rule is in retention.ts.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { IST_OFFSET_MS } from '@bahi/gst';
import { MongoClient } from 'mongodb';
import * as tar from 'tar';

/** The data folder's files a restore needs besides the database (secrets and credentials). */
export const SECRET_FILES = [
  'jwt-secret',
  'mongo-credentials.json',
  'mongo-users.json',
  'nats-passwords.json',
] as const;
const STORE_FILE = 'embedded-mongo.mdb';
const MANIFEST = 'manifest.json';
const FORMAT = 'bahi-backup/1';
export const BACKUP_NAME = /^bahi-(\d{8})-(\d{4})-[a-z0-9-]+\.bahi$/;

export interface PartSum {
  path: string;
  bytes: number;
  sha256: string;
}

/** What `manifest.json` holds: readable without the passphrase, no company, user or party names. */
export interface Manifest {
  format: typeof FORMAT;
  product: 'bahi';
  version: string;
  createdAt: string;
  encrypted: boolean;
  /** `age` with an scrypt passphrase stanza when encrypted. */
  encryption: 'age-scrypt' | null;
  /** Documents per `database.collection` at the instant of the snapshot. */
  counts: Record<string, number>;
  /** The payload file inside the .bahi. */
  payload: PartSum;
  /** Each file inside the payload (before encryption). */
  files: PartSum[];
}

export interface Verification {
  good: boolean;
  at: string;
  millis: number;
  /** Sentences saying what failed (empty when good). */
  problems: string[];
  collections: number;
  documents: number;
  audit: string;
}

/** `<name>.bahi.json` beside each backup: what the admin's list shows. */
export interface Sidecar {
  name: string;
  at: string;
  size: number;
  encrypted: boolean;
  verification: Verification | null;
  copied: boolean | null;
  copyError?: string;
}

export class BackupError extends Error {}

const sha256File = async (file: string): Promise<string> => {
  const h = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
};

async function sumOf(dir: string, rel: string): Promise<PartSum> {
  const file = path.join(dir, rel);
  return { path: rel, bytes: fs.statSync(file).size, sha256: await sha256File(file) };
}

/** YYYYMMDD-HHmm of an instant on India's clock (the shop's). */
export function istStamp(at: Date): string {
  const d = new Date(at.getTime() + IST_OFFSET_MS).toISOString();
  return `${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}-${d.slice(11, 13)}${d.slice(14, 16)}`;
}

export function hostLabel(): string {
  return (
    os
      .hostname()
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'host'
  );
}

function productVersion(rootDir: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(rootDir, 'gateway', 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
}

/** The pid in a pid or lock file when that process is alive. */
export function livePid(file: string): number {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    if (!pid) return 0;
    process.kill(pid, 0);
    return pid;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? 1 : 0;
  }
}

/** Whichever Bahi process holds the data folder (`npm start`'s pid file, the embedded server's lock), or 0. */
export function dataHolder(dataDir: string): number {
  return livePid(path.join(dataDir, 'bahi.pid')) || livePid(path.join(dataDir, 'mongo', 'mongod.lock'));
}

interface RootLogin {
  user: string;
  password: string;
}

function rootLogin(dataDir: string): RootLogin | null {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dataDir, 'mongo-credentials.json'), 'utf8')) as { root: RootLogin })
      .root;
  } catch {
    return null;
  }
}

/** The root URI of the embedded server running on this data folder (port from stack.json, BAHI_MONGO_PORT or 27017). */
export function runningMongoUri(dataDir: string): string {
  let port = Number(process.env.BAHI_MONGO_PORT || 0);
  if (!port) {
    try {
      port = (JSON.parse(fs.readFileSync(path.join(dataDir, 'stack.json'), 'utf8')) as { mongoPort: number }).mongoPort;
    } catch {
      port = 27017;
    }
  }
  const login = rootLogin(dataDir);
  const auth = login ? `${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}@` : '';
  return `mongodb://${auth}127.0.0.1:${port}/?authSource=admin`;
}

interface EmbeddedServer {
  uri: string;
  stop(): Promise<void>;
}

async function startEmbedded(dbPath: string, usersFile?: string): Promise<EmbeddedServer> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EmbeddedMongo } = require('@bahi/embedded-mongo') as {
    EmbeddedMongo: { start(o: { port: number; dbPath: string; usersFile?: string }): Promise<EmbeddedServer> };
  };
  return EmbeddedMongo.start({ port: 0, dbPath, ...(usersFile ? { usersFile } : {}) });
}

/** The part of age (`age-encryption`, an ES module) used here. */
interface Age {
  Encrypter: new () => {
    setPassphrase(s: string): void;
    setScryptWorkFactor(n: number): void;
    encrypt(s: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>>;
  };
  Decrypter: new () => {
    addPassphrase(s: string): void;
    decrypt(s: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>>;
  };
}
async function age(): Promise<Age> {
  return (await import('age-encryption')) as unknown as Age;
}

export interface BackupOptions {
  /** The data folder (./data). */
  dataDir: string;
  /** Where the .bahi goes. */
  outDir: string;
  /** Repository root: the product version and the auditor (reliability/dist/audit-cli.js). */
  rootDir: string;
  /** Root URI of the running embedded server; without it one is found (running) or started here on the data folder (stopped). */
  mongoUri?: string;
  passphrase?: string;
  /** Also copy the backup there (a USB drive, a network share). */
  copyDir?: string;
  now?: Date;
  /** scrypt work factor for age (default 18; tests lower it). */
  scryptLogN?: number;
}

export interface BackupResult extends Sidecar {
  file: string;
  manifest: Manifest;
}

/** Takes the database snapshot into `dir` (empty) and answers the counts. */
async function snapshotInto(opts: BackupOptions, dir: string): Promise<Record<string, number>> {
  if (process.env.MONGODB_URI && !opts.mongoUri) {
    throw new BackupError(
      'MONGODB_URI points at a real MongoDB: back it up with mongodump --oplog (README, "Backups").',
    );
  }
  let uri = opts.mongoUri;
  let own: EmbeddedServer | null = null;
  if (!uri) {
    if (livePid(path.join(opts.dataDir, 'mongo', 'mongod.lock'))) uri = runningMongoUri(opts.dataDir);
    else {
      const dbPath = path.join(opts.dataDir, 'mongo');
      if (!fs.existsSync(path.join(dbPath, STORE_FILE)))
        throw new BackupError(`No Bahi data in ${opts.dataDir} (no mongo folder): nothing to back up.`);
      const usersFile = path.join(opts.dataDir, 'mongo-users.json');
      own = await startEmbedded(dbPath, fs.existsSync(usersFile) ? usersFile : undefined);
      const login = rootLogin(opts.dataDir);
      uri =
        login && fs.existsSync(usersFile)
          ? own.uri.replace(
              'mongodb://',
              `mongodb://${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}@`,
            ) + '/?authSource=admin'
          : own.uri;
    }
  }
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    const reply = await client.db('admin').command({ bahiSnapshot: path.resolve(dir) });
    return reply.counts as Record<string, number>;
  } catch (err) {
    throw new BackupError(`The database could not be copied: ${(err as Error).message}`);
  } finally {
    await client.close();
    await own?.stop();
  }
}

/** Writes the .bahi, verifies it, copies it when asked, and writes its sidecar. */
export async function createBackup(opts: BackupOptions): Promise<BackupResult> {
  const now = opts.now ?? new Date();
  fs.mkdirSync(opts.outDir, { recursive: true });
  let name = `bahi-${istStamp(now)}-${hostLabel()}.bahi`;
  for (let i = 2; fs.existsSync(path.join(opts.outDir, name)); i++)
    name = `bahi-${istStamp(now)}-${hostLabel()}-${i}.bahi`;
  const staging = fs.mkdtempSync(path.join(opts.outDir, '.staging-'));
  try {
    const payloadDir = path.join(staging, 'payload');
    const counts = await snapshotInto(opts, path.join(payloadDir, 'mongo'));
    for (const f of SECRET_FILES) {
      const src = path.join(opts.dataDir, f);
      if (fs.existsSync(src)) fs.copyFileSync(src, path.join(payloadDir, f));
    }
    // The store file only: not the lock file that counting the copy left beside it.
    const inner = [
      `mongo/${STORE_FILE}`,
      ...SECRET_FILES.filter((f) => fs.existsSync(path.join(payloadDir, f))),
    ].sort();
    const files: PartSum[] = [];
    for (const rel of inner) files.push(await sumOf(payloadDir, rel));

    const encrypted = !!opts.passphrase;
    const payloadName = encrypted ? 'payload.tar.gz.age' : 'payload.tar.gz';
    const outer = path.join(staging, 'outer');
    fs.mkdirSync(outer);
    const packed = Readable.from(
      tar.c(
        { gzip: true, cwd: payloadDir, portable: true },
        files.map((f) => f.path),
      ) as AsyncIterable<Buffer>,
    );
    if (encrypted) {
      const { Encrypter } = await age();
      const e = new Encrypter();
      e.setPassphrase(opts.passphrase!);
      if (opts.scryptLogN) e.setScryptWorkFactor(opts.scryptLogN);
      const enc = await e.encrypt(Readable.toWeb(packed) as ReadableStream<Uint8Array>);
      await pipeline(
        Readable.fromWeb(enc as import('node:stream/web').ReadableStream<Uint8Array>),
        fs.createWriteStream(path.join(outer, payloadName)),
      );
    } else {
      await pipeline(packed, fs.createWriteStream(path.join(outer, payloadName)));
    }
    const manifest: Manifest = {
      format: FORMAT,
      product: 'bahi',
      version: productVersion(opts.rootDir),
      createdAt: now.toISOString(),
      encrypted,
      encryption: encrypted ? 'age-scrypt' : null,
      counts,
      payload: await sumOf(outer, payloadName),
      files,
    };
    fs.writeFileSync(path.join(outer, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    const partial = path.join(opts.outDir, `${name}.partial`);
    await tar.c({ file: partial, cwd: outer, portable: true }, [MANIFEST, payloadName]);
    const file = path.join(opts.outDir, name);
    // Verified under its .partial name: the list shows a backup only once its verdict is written.
    const verification = await verifyBackup(partial, { passphrase: opts.passphrase, rootDir: opts.rootDir });
    const sidecar: Sidecar = {
      name,
      at: manifest.createdAt,
      size: fs.statSync(partial).size,
      encrypted,
      verification,
      copied: null,
    };
    if (opts.copyDir) Object.assign(sidecar, copyBackup(partial, opts.copyDir, name));
    writeSidecar(opts.outDir, sidecar);
    fs.renameSync(partial, file);
    return { ...sidecar, file, manifest };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function copyBackup(file: string, copyDir: string, name: string): Pick<Sidecar, 'copied' | 'copyError'> {
  try {
    if (!fs.existsSync(copyDir))
      return { copied: false, copyError: `The copy location ${copyDir} is not there (is the drive plugged in?).` };
    const target = path.join(copyDir, name);
    fs.copyFileSync(file, `${target}.partial`);
    fs.renameSync(`${target}.partial`, target);
    return { copied: true };
  } catch (err) {
    return { copied: false, copyError: `Copying to ${copyDir} failed: ${(err as Error).message}` };
  }
}

export function writeSidecar(dir: string, s: Sidecar): void {
  const file = path.join(dir, `${s.name}.json`);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(s, null, 2) + '\n');
  fs.renameSync(`${file}.tmp`, file);
}

/** The manifest of a .bahi, read without the passphrase. */
export async function readManifest(file: string): Promise<Manifest> {
  let text: string | null = null;
  await tar.t({
    file,
    filter: (p) => p === MANIFEST,
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => (text = Buffer.concat(chunks).toString('utf8')));
    },
  });
  if (text === null) throw new BackupError(`${path.basename(file)} is not a Bahi backup (no manifest).`);
  const m = JSON.parse(text) as Manifest;
  if (m.format !== FORMAT)
    throw new BackupError(
      `${path.basename(file)} is not a Bahi backup this version reads (format ${String(m.format)}).`,
    );
  return m;
}

/**
 * Unpacks a .bahi into `dir` (mongo/, the secret files), checking every checksum; a wrong
 * passphrase or a damaged file throws before anything is written outside `dir`.
 */
export async function unpackBackup(file: string, dir: string, passphrase?: string): Promise<Manifest> {
  if (!fs.existsSync(file)) throw new BackupError(`There is no backup file ${file}.`);
  const manifest = await readManifest(file);
  const outer = fs.mkdtempSync(path.join(dir, '.outer-'));
  const cleanup: (() => void)[] = [];
  try {
    const payloadName = path.basename(manifest.payload.path);
    await tar.x({ file, cwd: outer, filter: (p) => p === payloadName });
    const payload = path.join(outer, payloadName);
    if (!fs.existsSync(payload) || (await sha256File(payload)) !== manifest.payload.sha256) {
      throw new BackupError(
        `${path.basename(file)} is damaged: its payload does not match the checksum in its manifest.`,
      );
    }
    const source = fs.createReadStream(payload);
    // Opened before anything reads it, so a refusal below cannot leave an open pending on a removed folder.
    await once(source, 'ready');
    cleanup.push(() => source.destroy());
    let stream: Readable = source;
    if (manifest.encrypted) {
      if (!passphrase)
        throw new BackupError('This backup is encrypted: set BAHI_BACKUP_PASSPHRASE or give --passphrase-file.');
      const { Decrypter } = await age();
      const d = new Decrypter();
      d.addPassphrase(passphrase);
      try {
        stream = Readable.fromWeb(
          (await d.decrypt(
            Readable.toWeb(stream) as ReadableStream<Uint8Array>,
          )) as import('node:stream/web').ReadableStream<Uint8Array>,
        );
      } catch {
        throw new BackupError('The passphrase does not open this backup. Nothing was changed.');
      }
    }
    const into = path.join(outer, 'payload');
    fs.mkdirSync(into);
    try {
      await pipeline(stream, tar.x({ cwd: into, strict: true }) as unknown as NodeJS.WritableStream);
    } catch (err) {
      if (err instanceof BackupError) throw err;
      throw new BackupError(
        manifest.encrypted
          ? 'The passphrase does not open this backup. Nothing was changed.'
          : `${path.basename(file)} is damaged: ${(err as Error).message}`,
      );
    }
    for (const f of manifest.files) {
      const got = path.join(into, f.path);
      if (!fs.existsSync(got) || (await sha256File(got)) !== f.sha256)
        throw new BackupError(`${path.basename(file)} is damaged: ${f.path} does not match its checksum.`);
    }
    for (const e of fs.readdirSync(into)) fs.renameSync(path.join(into, e), path.join(dir, e));
    return manifest;
  } finally {
    for (const c of cleanup) c();
    fs.rmSync(outer, { recursive: true, force: true });
  }
}

function runAuditor(rootDir: string, uri: string): Promise<{ ok: boolean; output: string }> {
  const cli = path.join(rootDir, 'reliability', 'dist', 'audit-cli.js');
  if (!fs.existsSync(cli))
    return Promise.resolve({
      ok: false,
      output: 'The invariant auditor is not built (reliability/dist/audit-cli.js).',
    });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, '--uri', uri], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ ok: code === 0, output: out.trim() }));
  });
}

/**
 * A backup is good when it unpacks (checksums, passphrase), a server starts on it, every
 * collection holds the manifest's count, and the invariant auditor finds nothing.
 */
export async function verifyBackup(
  file: string,
  opts: { passphrase?: string; rootDir: string },
): Promise<Verification> {
  const started = Date.now();
  const problems: string[] = [];
  let collections = 0;
  let documents = 0;
  let audit = '';
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-verify-'));
  try {
    const manifest = await unpackBackup(file, scratch, opts.passphrase);
    const server = await startEmbedded(path.join(scratch, 'mongo'));
    try {
      const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 5000 });
      try {
        for (const [ns, want] of Object.entries(manifest.counts)) {
          const dot = ns.indexOf('.');
          const got = await client
            .db(ns.slice(0, dot))
            .collection(ns.slice(dot + 1))
            .countDocuments({});
          collections++;
          documents += got;
          if (got !== want) problems.push(`${ns} holds ${got} documents, the manifest says ${want}.`);
        }
      } finally {
        await client.close();
      }
      const a = await runAuditor(opts.rootDir, server.uri);
      audit = a.output.split('\n').slice(-12).join('\n');
      if (!a.ok) problems.push(`The invariant auditor did not pass: ${audit}`);
    } finally {
      await server.stop();
    }
  } catch (err) {
    problems.push((err as Error).message);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return {
    good: problems.length === 0,
    at: new Date().toISOString(),
    millis: Date.now() - started,
    problems,
    collections,
    documents,
    audit,
  };
}

export interface RestoreOptions {
  file: string;
  dataDir: string;
  passphrase?: string;
  now?: Date;
}

/**
 * Restores a .bahi into `dataDir`: refused while a Bahi process holds it; the backup is unpacked
 * and checked first, then the current folder is moved aside (never deleted) and the restored one
 * takes its place. Answers where the old data went.
 */
export async function restoreBackup(opts: RestoreOptions): Promise<{ movedTo: string | null; manifest: Manifest }> {
  const dataDir = path.resolve(opts.dataDir);
  const holder = dataHolder(dataDir);
  if (holder)
    throw new BackupError(
      `Bahi is running on ${dataDir} (process ${holder}). Stop it (Ctrl-C where npm start runs) and restore again.`,
    );
  const parent = path.dirname(dataDir);
  const staging = fs.mkdtempSync(path.join(parent, `.${path.basename(dataDir)}.restoring-`));
  try {
    const manifest = await unpackBackup(path.resolve(opts.file), staging, opts.passphrase);
    let movedTo: string | null = null;
    if (fs.existsSync(dataDir)) {
      const base = `${dataDir}.before-restore-${istStamp(opts.now ?? new Date())}`;
      movedTo = base;
      for (let i = 2; fs.existsSync(movedTo); i++) movedTo = `${base}-${i}`;
      fs.renameSync(dataDir, movedTo);
    }
    fs.renameSync(staging, dataDir);
    // Backups made before the restore stay where they were (they live outside the data folder by default).
    return { movedTo, manifest };
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

/** The backups in `dir`, newest first, with their sidecars (a backup without one is unverified). */
export function listBackups(dir: string): Sidecar[] {
  if (!fs.existsSync(dir)) return [];
  const out: Sidecar[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!BACKUP_NAME.test(name)) continue;
    let s: Sidecar | null = null;
    try {
      s = JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')) as Sidecar;
    } catch {
      s = null;
    }
    const st = fs.statSync(path.join(dir, name));
    out.push(
      s ?? { name, at: st.mtime.toISOString(), size: st.size, encrypted: false, verification: null, copied: null },
    );
  }
  return out.sort((a, b) => b.at.localeCompare(a.at) || b.name.localeCompare(a.name));
}
