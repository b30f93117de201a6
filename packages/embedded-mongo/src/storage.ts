/**
 * Durable storage on LMDB. The engine keeps every collection in memory; this layer writes each
 * change through (catalog entries and documents as BSON) and reads everything back at start.
 *
 * Keys (binary): `c` + collection uuid -> catalog entry; `d` + uuid + document key -> seq (8 bytes) + BSON.
 * Writes issued in one event turn commit in one LMDB transaction, so a command's or a
 * transaction's writes land together.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BSON, type Binary } from 'bson';
import { open, type RootDatabase } from 'lmdb';
import type { IndexSpec } from './indexes';
import type { Doc } from './values';

export const DESERIALIZE_OPTIONS = {
  promoteLongs: true,
  promoteValues: true,
  promoteBuffers: false,
  bsonRegExp: false,
} as const;

export const SERIALIZE_OPTIONS = { checkKeys: false, ignoreUndefined: true, serializeFunctions: false } as const;

export interface CollectionMeta {
  db: string;
  name: string;
  uuid: Binary;
  options: Doc;
  indexes: IndexSpec[];
}

export interface StoredDoc {
  seq: number;
  doc: Doc;
}

export interface Persistence {
  load(): Array<{ meta: CollectionMeta; docs: StoredDoc[] }>;
  saveCollection(meta: CollectionMeta): Promise<unknown>;
  dropCollection(uuid: Binary, ids: Iterable<string>): Promise<unknown>;
  putDoc(uuid: Binary, id: string, seq: number, doc: Doc): Promise<unknown>;
  removeDoc(uuid: Binary, id: string): Promise<unknown>;
  /** Copies the whole store as one consistent file (one LMDB read transaction) to `file`. */
  snapshot?(file: string): Promise<void>;
  close(): Promise<void>;
}

/** The storage file's name inside a dbPath (and inside a snapshot directory). */
export const STORE_FILE = 'embedded-mongo.mdb';

/**
 * Documents per collection (`db.collection` -> count) of a store file that no server holds,
 * such as a snapshot: read-only, one read transaction.
 */
export function countStoreFile(file: string): Record<string, number> {
  const db = open<Buffer, Buffer>({ path: file, readOnly: true, keyEncoding: 'binary', encoding: 'binary', compression: false, cache: false });
  try {
    const names = new Map<string, string>();
    const counts = new Map<string, number>();
    for (const { key, value } of db.getRange()) {
      const k = key as Buffer;
      const uuidHex = k.subarray(1, 17).toString('hex');
      if (k[0] === 0x63) {
        const meta = BSON.deserialize(value as Buffer, DESERIALIZE_OPTIONS) as unknown as CollectionMeta;
        names.set(uuidHex, `${meta.db}.${meta.name}`);
      } else if (k[0] === 0x64) counts.set(uuidHex, (counts.get(uuidHex) ?? 0) + 1);
    }
    const out: Record<string, number> = {};
    for (const [uuidHex, name] of [...names].sort((a, b) => a[1].localeCompare(b[1]))) out[name] = counts.get(uuidHex) ?? 0;
    return out;
  } finally {
    void db.close();
  }
}

const MAX_ID_BYTES = 1800;

function uuidBytes(uuid: Binary): Buffer {
  return Buffer.from(uuid.buffer);
}

function docKey(uuid: Binary, id: string): Buffer {
  let idBytes = Buffer.from(id, 'utf8');
  if (idBytes.length > MAX_ID_BYTES) idBytes = Buffer.from('#' + createHash('sha256').update(idBytes).digest('hex'));
  return Buffer.concat([Buffer.from('d'), uuidBytes(uuid), idBytes]);
}

function catalogKey(uuid: Binary): Buffer {
  return Buffer.concat([Buffer.from('c'), uuidBytes(uuid)]);
}

/** Holds `<dbPath>/mongod.lock` with our pid so two servers never share one data directory. */
function acquireLock(dir: string): string {
  const lockPath = path.join(dir, 'mongod.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return lockPath;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
      let alive = false;
      if (pid && pid !== process.pid) {
        try {
          process.kill(pid, 0);
          alive = true;
        } catch (e) {
          alive = (e as NodeJS.ErrnoException).code === 'EPERM';
        }
      }
      if (alive || pid === process.pid) {
        throw new Error(
          `The data directory ${dir} is in use by another embedded MongoDB server (pid ${pid}). Stop it or choose another dbPath.`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Cannot lock the data directory ${dir}`);
}

/** mdb_env_sync on lmdb-js's worker (`sync` exists on the root database but is not in its typings). */
function syncEnv(db: RootDatabase<Buffer, Buffer>, done: () => void): void {
  (db as unknown as { sync(cb: (err?: Error) => void): void }).sync(() => done());
}

/** How often written data is flushed to disk when commits do not fsync (MongoDB's journal interval). */
const SYNC_INTERVAL_MS = 100;

/**
 * With `fsync: false` (default) a commit is written to the operating system before the write is
 * acknowledged, so it survives the server process being killed; the disk is synced every
 * 100 ms, so power loss can lose that window. With `fsync: true` every commit is synced first.
 */
export class LmdbPersistence implements Persistence {
  private readonly db: RootDatabase<Buffer, Buffer>;
  private readonly lockPath: string;
  private closed = false;
  private dirty = false;
  private readonly syncTimer: NodeJS.Timeout | null = null;

  constructor(dir: string, opts: { fsync?: boolean } = {}) {
    fs.mkdirSync(dir, { recursive: true });
    this.lockPath = acquireLock(dir);
    try {
      this.db = open<Buffer, Buffer>({
        path: path.join(dir, STORE_FILE),
        keyEncoding: 'binary',
        encoding: 'binary',
        compression: false,
        cache: false,
        ...(opts.fsync ? {} : { noSync: true }),
      });
    } catch (err) {
      fs.rmSync(this.lockPath, { force: true });
      throw err;
    }
    if (!opts.fsync) {
      this.syncTimer = setInterval(() => {
        if (!this.dirty || this.closed) return;
        this.dirty = false;
        syncEnv(this.db, () => undefined);
      }, SYNC_INTERVAL_MS);
      this.syncTimer.unref();
    }
  }

  load(): Array<{ meta: CollectionMeta; docs: StoredDoc[] }> {
    const metas = new Map<string, CollectionMeta>();
    const docs = new Map<string, StoredDoc[]>();
    for (const { key, value } of this.db.getRange()) {
      const k = key as Buffer;
      const v = value as Buffer;
      const uuidHex = k.subarray(1, 17).toString('hex');
      if (k[0] === 0x63) {
        metas.set(uuidHex, BSON.deserialize(v, { ...DESERIALIZE_OPTIONS, promoteBuffers: false }) as unknown as CollectionMeta);
      } else if (k[0] === 0x64) {
        const seq = v.readDoubleLE(0);
        const doc = BSON.deserialize(v.subarray(8), DESERIALIZE_OPTIONS) as Doc;
        let list = docs.get(uuidHex);
        if (!list) docs.set(uuidHex, (list = []));
        list.push({ seq, doc });
      }
    }
    const out: Array<{ meta: CollectionMeta; docs: StoredDoc[] }> = [];
    for (const [uuidHex, meta] of metas) {
      const list = docs.get(uuidHex) ?? [];
      list.sort((a, b) => a.seq - b.seq);
      out.push({ meta, docs: list });
    }
    return out;
  }

  saveCollection(meta: CollectionMeta): Promise<unknown> {
    this.dirty = true;
    return this.db.put(catalogKey(meta.uuid), Buffer.from(BSON.serialize(meta as unknown as Doc, SERIALIZE_OPTIONS)));
  }

  dropCollection(uuid: Binary, ids: Iterable<string>): Promise<unknown> {
    this.dirty = true;
    const ops: Promise<unknown>[] = [this.db.remove(catalogKey(uuid))];
    for (const id of ids) ops.push(this.db.remove(docKey(uuid, id)));
    return Promise.all(ops);
  }

  putDoc(uuid: Binary, id: string, seq: number, doc: Doc): Promise<unknown> {
    this.dirty = true;
    const body = BSON.serialize(doc, SERIALIZE_OPTIONS);
    const value = Buffer.allocUnsafe(8 + body.length);
    value.writeDoubleLE(seq, 0);
    value.set(body, 8);
    return this.db.put(docKey(uuid, id), value);
  }

  removeDoc(uuid: Binary, id: string): Promise<unknown> {
    this.dirty = true;
    return this.db.remove(docKey(uuid, id));
  }

  /** mdb_env_copy: every committed write up to one instant, none after; writers are not blocked. */
  async snapshot(file: string): Promise<void> {
    await this.db.committed;
    await this.db.backup(file, false);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.syncTimer) clearInterval(this.syncTimer);
    try {
      await this.db.committed;
      await new Promise<void>((resolve) => syncEnv(this.db, () => resolve()));
      await this.db.close();
    } finally {
      fs.rmSync(this.lockPath, { force: true });
    }
  }
}
