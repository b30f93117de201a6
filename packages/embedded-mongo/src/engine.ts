/**
 * The storage engine: databases of collections in memory, written through to the optional
 * persistence, plus the session, transaction and cursor registries shared by all connections.
 */
import { UUID } from 'bson';
import { Collection, type CollectionHost, type WriteCtx } from './collection';
import { CursorRegistry } from './cursors';
import { MongoError } from './errors';
import type { IndexSpec } from './indexes';
import { Filter } from './matcher';
import { SessionRegistry, type Transaction } from './sessions';
import type { Persistence } from './storage';
import { pathValues, type Doc } from './values';

export interface EngineOptions {
  persistence?: Persistence | null;
  /** Abort transactions older than this (MongoDB's transactionLifetimeLimitSeconds, default 60). */
  transactionLifetimeSeconds?: number;
}

const INVALID_DB_CHARS = /[/\\. "$\0]/;

export function validateDbName(db: unknown): string {
  if (typeof db !== 'string' || !db.length || db.length >= 64 || INVALID_DB_CHARS.test(db)) {
    throw new MongoError('InvalidNamespace', `Invalid database name: '${String(db)}'`);
  }
  return db;
}

export function validateCollectionName(db: string, name: unknown): string {
  if (typeof name !== 'string') {
    throw new MongoError('InvalidNamespace', `collection name has invalid type ${typeof name}`);
  }
  if (!name.length || name.includes('\0') || name.includes('$') || name.startsWith('.') || db.length + 1 + name.length > 255) {
    throw new MongoError('InvalidNamespace', `Invalid collection name: ${name}`);
  }
  return name;
}

export class Engine implements CollectionHost {
  readonly persistence: Persistence | null;
  readonly sessions: SessionRegistry;
  readonly cursors = new CursorRegistry();
  /** Commands run, by name (serverStatus reports them as MongoDB's opcounters and metrics.commands). */
  readonly commandCounts = new Map<string, number>();
  private readonly dbs = new Map<string, Map<string, Collection>>();
  private seq = 0;
  private clock = 0;
  private readonly openTxns = new Set<Transaction>();

  constructor(opts: EngineOptions = {}) {
    this.persistence = opts.persistence ?? null;
    this.sessions = new SessionRegistry((opts.transactionLifetimeSeconds ?? 60) * 1000, {
      now: () => this.clock,
      tick: () => this.tick(),
      open: this.openTxns,
    });
    if (this.persistence) {
      for (const { meta, docs } of this.persistence.load()) {
        const coll = new Collection(this, meta.db, meta.name, meta.uuid, meta.options ?? {}, meta.indexes ?? []);
        this.attach(coll);
        coll.load(docs);
        for (const { seq } of docs) if (seq > this.seq) this.seq = seq;
      }
    }
  }

  nextSeq(): number {
    return ++this.seq;
  }

  tick(): number {
    return ++this.clock;
  }

  /** The commit clock now (every write outside a transaction and every commit ticks it). */
  now(): number {
    return this.clock;
  }

  /** The earliest snapshot of an open transaction, or null when none is open. */
  oldestSnapshot(): number | null {
    let oldest: number | null = null;
    for (const t of this.openTxns) if (oldest === null || t.snapshot < oldest) oldest = t.snapshot;
    return oldest;
  }

  private attach(coll: Collection): void {
    let db = this.dbs.get(coll.db);
    if (!db) this.dbs.set(coll.db, (db = new Map()));
    db.set(coll.name, coll);
  }

  private detach(coll: Collection): void {
    const db = this.dbs.get(coll.db);
    if (!db) return;
    db.delete(coll.name);
    if (!db.size) this.dbs.delete(coll.db);
  }

  collection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  databaseNames(): string[] {
    return [...this.dbs.keys()].sort();
  }

  saveCatalog(coll: Collection, pending: Promise<unknown>[]): void {
    if (this.persistence) pending.push(this.persistence.saveCollection(coll.meta()));
  }

  /** Creates the collection; NamespaceExists if it is there already. */
  createCollection(db: string, name: string, options: Doc, pending: Promise<unknown>[]): Collection {
    validateDbName(db);
    validateCollectionName(db, name);
    if (this.collection(db, name)) throw new MongoError('NamespaceExists', `Collection ${db}.${name} already exists.`);
    const coll = new Collection(this, db, name, new UUID(), options, []);
    this.attach(coll);
    this.saveCatalog(coll, pending);
    return coll;
  }

  /** The collection, created implicitly (as inserts and upserts do) when missing. */
  ensureCollection(db: string, name: string, w: WriteCtx): Collection {
    return this.collection(db, name) ?? this.createCollection(db, name, {}, w.pending);
  }

  dropCollection(db: string, name: string, pending: Promise<unknown>[]): boolean {
    const coll = this.collection(db, name);
    if (!coll) return false;
    coll.abortHolders('the collection was dropped');
    this.detach(coll);
    if (this.persistence) pending.push(this.persistence.dropCollection(coll.uuid, coll.entries.keys()));
    return true;
  }

  dropDatabase(db: string, pending: Promise<unknown>[]): void {
    for (const coll of this.collections(db)) this.dropCollection(db, coll.name, pending);
  }

  renameCollection(from: { db: string; name: string }, to: { db: string; name: string }, dropTarget: boolean, pending: Promise<unknown>[]): void {
    validateDbName(to.db);
    validateCollectionName(to.db, to.name);
    const coll = this.collection(from.db, from.name);
    if (!coll) throw new MongoError('NamespaceNotFound', `Source collection ${from.db}.${from.name} does not exist`);
    if (from.db === to.db && from.name === to.name) {
      throw new MongoError('IllegalOperation', "Can't rename a collection to itself");
    }
    if (this.collection(to.db, to.name)) {
      if (!dropTarget) throw new MongoError('NamespaceExists', `target namespace exists`);
      this.dropCollection(to.db, to.name, pending);
    }
    coll.abortHolders('the collection was renamed');
    this.detach(coll);
    coll.db = to.db;
    coll.name = to.name;
    this.attach(coll);
    this.saveCatalog(coll, pending);
  }

  addIndex(coll: Collection, spec: IndexSpec, pending: Promise<unknown>[]): void {
    coll.indexes.push(coll.buildIndex(spec));
    this.saveCatalog(coll, pending);
  }

  /** Deletes documents whose TTL index date is older than `expireAfterSeconds`. */
  expireTtl(now = Date.now()): number {
    let removed = 0;
    for (const db of this.dbs.values()) {
      for (const coll of db.values()) {
        for (const index of coll.indexes) {
          const seconds = index.spec.expireAfterSeconds;
          if (typeof seconds !== 'number' || index.fields.length !== 1) continue;
          const field = index.fields[0];
          const w: WriteCtx = { txn: null, pending: [] };
          for (const e of [...coll.entries.values()]) {
            const dates = pathValues(e.doc, field).flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v): v is Date => v instanceof Date);
            if (!dates.length) continue;
            const earliest = Math.min(...dates.map((d) => d.getTime()));
            if (earliest + seconds * 1000 > now) continue;
            if (index.partial && !index.partial.test(e.doc)) continue;
            try {
              coll.remove(e.id, w);
              removed++;
            } catch {
              // Locked by an open transaction: try again on the next pass.
            }
          }
          void Promise.all(w.pending).catch(() => undefined);
        }
      }
    }
    return removed;
  }

  /** Builds a filter that knows the collection's text index (for `$text`). */
  filter(coll: Collection | undefined, raw: unknown, opts: { collation?: Doc; variables?: Doc } = {}): Filter {
    return new Filter(raw, { ...opts, textFields: coll?.textFields ?? null });
  }

  async close(): Promise<void> {
    this.sessions.abortAll('the server is shutting down');
    this.cursors.clear();
    await this.persistence?.close();
  }
}
