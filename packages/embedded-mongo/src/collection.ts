/**
 * One collection in memory: documents keyed by their `_id` key in natural (insertion) order,
 * its indexes, and the locks of open transactions. Documents are never mutated in place: a
 * write stores a new object, so cursors and before-images keep consistent snapshots.
 */
import type { Binary } from 'bson';
import { MongoError } from './errors';
import { Index, type Bound, type IndexSpec } from './indexes';
import { conditions } from './implies';
import { Filter } from './matcher';
import { Blocked, writeConflict, type Transaction } from './sessions';
import type { CollectionMeta, Persistence } from './storage';
import { compareValues, inspectValue, isPlainObject, typeName, typeOrder, valueKey, type Doc } from './values';

export interface Entry {
  readonly id: string;
  readonly doc: Doc;
  /** Natural order. */
  readonly seq: number;
  /** Logical time of the commit that wrote this version (write-conflict detection). */
  readonly ver: number;
}

/** Version of a document written by a transaction that has not committed yet. */
const UNCOMMITTED = Number.MAX_SAFE_INTEGER;

interface Lock {
  txn: Transaction;
  before: Entry | null;
}

/** Where a write runs: inside a transaction or not, and the persistence promises to await before replying. */
export interface WriteCtx {
  txn: Transaction | null;
  pending: Promise<unknown>[];
  /** `bypassDocumentValidation` of the command. */
  bypassValidation?: boolean;
}

export interface CollectionHost {
  readonly persistence: Persistence | null;
  nextSeq(): number;
  /** Advances and returns the logical commit clock. */
  tick(): number;
  /** The earliest snapshot of an open transaction, or null when none is open. */
  oldestSnapshot(): number | null;
}

/** A committed version replaced at commit time `until` (null: the document did not exist). */
interface PastVersion {
  until: number;
  entry: Entry | null;
}

const MAX_PLAN_KEYS = 1000;

export class Collection {
  readonly entries = new Map<string, Entry>();
  readonly indexes: Index[];
  private readonly locks = new Map<string, Lock>();
  /** Versions replaced while an older transaction is open, oldest first: what its reads see. */
  private readonly past = new Map<string, PastVersion[]>();
  private remembered = 0;
  /** The latest `until` in `past`: a transaction that began after it reads the current versions. */
  private pastUntil = 0;
  private validator: Filter | null = null;

  constructor(
    private readonly host: CollectionHost,
    public db: string,
    public name: string,
    readonly uuid: Binary,
    readonly options: Doc,
    indexes: IndexSpec[],
  ) {
    const specs = indexes.length ? indexes : [{ v: 2, key: { _id: 1 }, name: '_id_' }];
    this.indexes = specs.map((s) => new Index(s));
    this.setValidator(options);
  }

  /** Compiles `options.validator` (query operators; `$jsonSchema` is not supported). */
  setValidator(options: Doc): void {
    const v = options.validator;
    if (v === undefined || v === null || (isPlainObject(v) && !Object.keys(v).length)) {
      this.validator = null;
      return;
    }
    if (JSON.stringify(v).includes('"$jsonSchema"')) {
      throw new MongoError('NotImplemented', '$jsonSchema validators are not supported by the embedded MongoDB server');
    }
    this.validator = new Filter(v);
  }

  private validate(doc: Doc, w: WriteCtx): void {
    if (!this.validator || w.bypassValidation) return;
    if (this.options.validationLevel === 'off' || this.options.validationAction === 'warn') return;
    if (!this.validator.test(doc)) {
      throw new MongoError('DocumentValidationFailure', 'Document failed validation', {
        extra: { errInfo: { failingDocumentId: doc._id, details: { operatorName: '$and', schemaRulesNotSatisfied: [] } } },
      });
    }
  }

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  meta(): CollectionMeta {
    return { db: this.db, name: this.name, uuid: this.uuid, options: this.options, indexes: this.indexes.map((i) => i.spec) };
  }

  /** Transactions holding locks here. */
  lockHolders(): Set<Transaction> {
    return new Set([...this.locks.values()].map((l) => l.txn));
  }

  get textFields(): string[] | null {
    const idx = this.indexes.find((i) => i.textFields);
    return idx ? idx.textFields : null;
  }

  // ---- reads -------------------------------------------------------------------------------

  /**
   * The entry `reader` sees under this id: another transaction's uncommitted change is hidden,
   * and a transaction sees the version committed when it started (its snapshot).
   */
  visibleEntry(id: string, reader: Transaction | null): Entry | undefined {
    const lock = this.locks.get(id);
    if (lock && lock.txn === reader) return this.entries.get(id);
    const cur = lock ? (lock.before ?? undefined) : this.entries.get(id);
    if (!this.asOfSnapshot(reader)) return cur;
    if (cur && cur.ver <= reader!.snapshot) return cur;
    const then = this.past.get(id)?.find((p) => p.until > reader!.snapshot);
    return then ? (then.entry ?? undefined) : cur;
  }

  /** Whether a transaction's reads need the replaced versions (something changed since an open transaction began). */
  private asOfSnapshot(reader: Transaction | null): boolean {
    return !!reader && this.past.size > 0 && reader.snapshot < this.pastUntil;
  }

  /** Keeps the committed version `before` replaced at `at` while an open transaction started earlier. */
  private remember(id: string, before: Entry | null, at: number): void {
    const oldest = this.host.oldestSnapshot();
    if (oldest === null) {
      if (this.past.size) this.past.clear();
      return;
    }
    // Every 256 changes, versions no open transaction can see any more are let go.
    if (++this.remembered % 256 === 0) {
      for (const [pid, list] of this.past) {
        const keep = list.filter((p) => p.until > oldest);
        if (keep.length) this.past.set(pid, keep);
        else this.past.delete(pid);
      }
    }
    if (oldest >= at) return;
    this.pastUntil = Math.max(this.pastUntil, at);
    const list = this.past.get(id);
    if (list) list.push({ until: at, entry: before });
    else this.past.set(id, [{ until: at, entry: before }]);
  }

  /** Every entry `reader` sees, in natural order. */
  *visible(reader: Transaction | null): Iterable<Entry> {
    if (this.asOfSnapshot(reader)) {
      const out: Entry[] = [];
      for (const id of new Set([...this.entries.keys(), ...this.past.keys(), ...this.locks.keys()])) {
        const e = this.visibleEntry(id, reader);
        if (e) out.push(e);
      }
      yield* out.sort((a, b) => a.seq - b.seq);
      return;
    }
    if (!this.locks.size) {
      yield* this.entries.values();
      return;
    }
    for (const e of this.entries.values()) {
      const lock = this.locks.get(e.id);
      if (lock && lock.txn !== reader) {
        if (lock.before) yield lock.before;
      } else {
        yield e;
      }
    }
    for (const [id, lock] of this.locks) {
      if (lock.txn !== reader && lock.before && !this.entries.has(id)) yield lock.before;
    }
  }

  count(reader: Transaction | null): number {
    if (!this.locks.size && !this.asOfSnapshot(reader)) return this.entries.size;
    let n = 0;
    for (const _ of this.visible(reader)) n++;
    return n;
  }

  /** Entries matching the filter, in natural order; uses an index for equality predicates when it can. */
  match(filter: Filter, reader: Transaction | null, limit = 0): Entry[] {
    const out: Entry[] = [];
    const ids = filter.isEmpty ? null : this.plan(filter.raw);
    if (ids === null) {
      for (const e of this.visible(reader)) {
        if (filter.test(e.doc)) {
          out.push(e);
          if (limit && out.length >= limit) break;
        }
      }
      return out;
    }
    for (const [id, lock] of this.locks) if (lock.txn !== reader) ids.add(id);
    if (this.asOfSnapshot(reader)) for (const id of this.past.keys()) ids.add(id);
    const candidates: Entry[] = [];
    for (const id of ids) {
      const e = this.visibleEntry(id, reader);
      if (e) candidates.push(e);
    }
    if (candidates.length > 1) candidates.sort((a, b) => a.seq - b.seq);
    for (const e of candidates) {
      if (filter.test(e.doc)) {
        out.push(e);
        if (limit && out.length >= limit) break;
      }
    }
    return out;
  }

  /**
   * Matches in sort order, `skip` + `limit` of them (limit 0 = all), read by walking an index
   * whose leading fields the filter fixes to one value and whose next fields are the sort keys.
   * Ties come in natural order, as the in-memory stable sort gives them. null when no index
   * fits (or another index is more selective): the caller sorts in memory.
   */
  sortedMatch(filter: Filter, sort: Doc, reader: Transaction | null, skip: number, limit: number): Entry[] | null {
    if (this.locks.size || this.asOfSnapshot(reader)) return null;
    const pick = this.sortPick(filter, sort, limit ? skip + limit : 0);
    if (!pick) return null;
    const { dir, keys } = pick;

    const width = pick.prefix.length + keys.length;
    const out: Entry[] = [];
    let skipped = 0;
    let group: Entry[] = [];
    let groupVals: unknown[] | null = null;
    // Returns true once enough matches are taken.
    const flush = (): boolean => {
      if (group.length > 1) group.sort((a, b) => a.seq - b.seq);
      for (const e of group) {
        if (!filter.test(e.doc)) continue;
        if (skipped < skip) skipped++;
        else out.push(e);
        if (limit && out.length >= limit) return true;
      }
      group = [];
      return false;
    };
    const { lo, hi } = walkBounds(filter.raw, keys[0]);
    const items = lo === undefined && hi === undefined ? pick.index.walk(pick.prefix, dir) : pick.index.walkBetween(pick.prefix, lo, hi, dir);
    for (const item of items) {
      if (groupVals && !sameTuple(groupVals, item.vals, pick.prefix.length, width)) {
        if (flush()) return out;
      }
      groupVals = item.vals;
      const e = this.entries.get(item.id);
      if (e) group.push(e);
    }
    flush();
    return out;
  }

  /**
   * The index a sorted find walks: its leading fields fixed by equalities, its next fields the
   * sort keys, each in the index's direction (dir 1) or all reversed (dir -1). null when none
   * fits or an equality lookup gives few enough matches to sort them in memory.
   */
  private sortPick(filter: Filter, sort: Doc, wanted: number): { index: Index; prefix: unknown[]; dir: 1 | -1; keys: string[] } | null {
    const keys = Object.keys(sort);
    if (!keys.length || keys.some((k) => k.startsWith('$'))) return null;
    const dirs = keys.map((k) => sort[k]);
    if (dirs.some((d) => d !== 1 && d !== -1)) return null;
    const eq = equalities(filter.raw);
    const usable = this.usable(filter.raw);
    let pick: { index: Index; prefix: unknown[]; dir: 1 | -1; keys: string[] } | null = null;
    for (const index of usable) {
      if (!index.walkable) continue;
      const prefix: unknown[] = [];
      while (prefix.length < index.fields.length) {
        const vals = eq.get(index.fields[prefix.length]);
        if (!vals || vals.length !== 1 || !scalarKey(vals[0])) break;
        prefix.push(vals[0]);
      }
      const next = index.fields.slice(prefix.length, prefix.length + keys.length);
      if (next.length !== keys.length || next.some((f, i) => f !== keys[i])) continue;
      const along = next.map((f, i) => (Number(index.spec.key[f]) < 0 ? -1 : 1) * (dirs[i] as number));
      if (!along.every((d) => d === along[0])) continue;
      if (!pick || prefix.length > pick.prefix.length) pick = { index, prefix, dir: along[0] as 1 | -1, keys };
    }
    if (!pick) return null;
    const known = this.estimate(eq, usable);
    if (known !== undefined && known <= Math.max(1000, wanted * 8)) return null;
    return pick;
  }

  /** The indexes the planner may use for this filter (sparse and partial ones only when it implies their filter). */
  private usable(filter: Doc): Index[] {
    if (!this.indexes.some((i) => i.sparse || i.partial)) return this.indexes.filter((i) => i.plannable);
    const q = conditions(filter);
    return this.indexes.filter((i) => i.usableFor(q));
  }

  /** Number of matches; an equality filter on an index's fields (all, or its leading ones) is counted without reading documents. */
  countMatches(filter: Filter, reader: Transaction | null): number {
    if (filter.isEmpty) return this.count(reader);
    if (this.asOfSnapshot(reader)) return this.match(filter, reader).length;
    if (!this.locks.size) {
      const fields = Object.keys(filter.raw);
      const eq = equalities(filter.raw);
      const exact = fields.every((f) => !f.startsWith('$') && scalarKey(filter.raw[f]));
      if (exact) {
        for (const index of this.usable(filter.raw)) {
          if (!index.walkable) continue;
          const n = index.fields.length;
          const whole = n === fields.length && index.fields.every((f) => fields.includes(f));
          const first = fields.length === 1 && fields[0] === index.fields[0];
          if (whole) return index.sizeOf(Index.lookupKey(index.fields.map((f) => eq.get(f)![0])), false) ?? this.match(filter, reader).length;
          if (first) return index.sizeOf(valueKey(eq.get(fields[0])![0]), true) ?? this.match(filter, reader).length;
          // Equalities on the index's leading fields ({companyId, status} of {companyId, status, saleId}).
          const lead = index.fields.slice(0, fields.length);
          if (fields.length < n && lead.every((f) => fields.includes(f))) return index.countPrefix(lead.map((f) => eq.get(f)![0]));
        }
      }
    }
    const ids = this.plan(filter.raw);
    let n = 0;
    if (ids === null || this.locks.size) return this.match(filter, reader).length;
    for (const id of ids) {
      const e = this.entries.get(id);
      if (e && filter.test(e.doc)) n++;
    }
    return n;
  }

  /** The smallest candidate count an equality lookup would give, without building the set. */
  private estimate(eq: Map<string, unknown[]>, usable: Index[]): number | undefined {
    let best: number | undefined;
    for (const index of usable) {
      let n: number | undefined;
      if (index.isId) {
        const vals = eq.get('_id');
        if (vals) n = vals.length;
      } else if (index.fields.every((f) => eq.has(f))) {
        const combos = cartesian(index.fields.map((f) => eq.get(f)!));
        if (combos) n = combos.reduce((sum, values) => sum + (index.sizeOf(Index.lookupKey(values), false) ?? Infinity), 0);
      } else if (eq.has(index.fields[0])) {
        n = eq.get(index.fields[0])!.reduce((sum: number, v) => sum + (index.sizeOf(valueKey(v), true) ?? Infinity), 0);
      }
      if (n !== undefined && Number.isFinite(n) && (best === undefined || n < best)) best = n;
    }
    return best;
  }

  /** The index a sorted find walks (explain), or null when it sorts in memory. */
  walkName(filter: Filter, sort: Doc, wanted = 0): string | null {
    return this.locks.size ? null : (this.sortPick(filter, sort, wanted)?.index.name ?? null);
  }

  /** Which index (if any) answers a filter, for explain. */
  planName(filter: Filter): string | null {
    if (filter.isEmpty) return null;
    return this.choose(equalities(filter.raw), ranges(filter.raw), types(filter.raw), this.usable(filter.raw))?.index.name ?? null;
  }

  /** Candidate ids from the best index for the filter's equality, range and `$type` predicates (or a partial index it implies), or null for a scan. */
  private plan(filter: Doc): Set<string> | null {
    const eq = equalities(filter);
    const rg = ranges(filter);
    const ty = types(filter);
    const usable = this.usable(filter);
    if (!eq.size && !rg.size && !ty.size && !usable.some((i) => i.sparse || i.partial)) return null;
    return this.choose(eq, rg, ty, usable)?.ids ?? null;
  }

  private choose(
    eq: Map<string, unknown[]>,
    rg: Map<string, { lower?: Bound; upper?: Bound }>,
    ty: Map<string, number[]>,
    usable: Index[],
  ): { index: Index; ids: Set<string> } | null {
    // Sizes first, then only the chosen index's ids are copied into a set: with several
    // `{ companyId, ... }` indexes each prefix holds the whole company.
    let best: { index: Index; size: number; ids: () => Set<string> } | null = null;
    // What an exact lookup of another index gives caps the walk of a prefix below: a
    // {companyId, status, ...} prefix holds the whole company and may come first.
    let exact: number | undefined | null = null;
    for (const index of usable) {
      let found: { size: number; ids: () => Set<string> } | null = null;
      if (index.isId) {
        const vals = eq.get('_id');
        if (vals) {
          const ids = new Set(vals.filter((v) => !(v instanceof RegExp)).map((v) => valueKey(v)));
          found = { size: ids.size, ids: () => ids };
        } else if (rg.has('_id')) {
          const ids = index.range(rg.get('_id')!.lower, rg.get('_id')!.upper)!;
          found = { size: ids.size, ids: () => ids };
        } else continue;
      } else if (index.fields.every((f) => eq.has(f))) {
        const keys = cartesian(index.fields.map((f) => eq.get(f)!));
        if (!keys) continue;
        const lookups = keys.map((values) => Index.lookupKey(values));
        found = {
          size: lookups.reduce((n, k) => n + (index.sizeOf(k, false) ?? 0), 0),
          ids: () => union(lookups.map((k) => index.lookup(k))),
        };
      } else if (eq.has(index.fields[0])) {
        const keys = eq.get(index.fields[0])!.map((v) => valueKey(v));
        const one = index.fields.length === 1;
        found = {
          size: keys.reduce((n, k) => n + (index.sizeOf(k, true) ?? 0), 0),
          ids: () => union(keys.map((k) => (one ? index.lookup(k) : index.lookupPrefix(k)))),
        };
        // Equalities on more leading fields than the first: walk those prefixes in the ordered index.
        if (exact === null) exact = this.estimate(eq, usable);
        const narrowed = this.prefixIds(index, eq, Math.min(found.size, best?.size ?? Infinity, exact ?? Infinity));
        if (narrowed) found = { size: narrowed.size, ids: () => narrowed };
      } else if (rg.has(index.fields[0])) {
        const { lower, upper } = rg.get(index.fields[0])!;
        const ids = index.range(lower, upper);
        if (ids) found = { size: ids.size, ids: () => ids };
      } else if (ty.has(index.fields[0])) {
        const ids = index.bracketIds(ty.get(index.fields[0])!);
        if (ids) found = { size: ids.size, ids: () => ids };
      } else if (index.sparse || index.partial) {
        // The query implies the index's filter: every match has an entry.
        found = { size: index.coveredCount, ids: () => index.coveredIds() };
      }
      if (found && (!best || found.size < best.size)) best = { index, ...found };
      if (best && best.size <= 1) break;
    }
    return best ? { index: best.index, ids: best.ids() } : null;
  }

  /**
   * Ids under the longest run (at least two) of leading index fields the filter fixes to scalar
   * values, read by walking the ordered index; null if there is no such run or it holds `cap` or more.
   */
  private prefixIds(index: Index, eq: Map<string, unknown[]>, cap: number): Set<string> | null {
    if (!index.walkable || index.fields.length < 2) return null;
    const lists: unknown[][] = [];
    for (const f of index.fields) {
      const vals = eq.get(f);
      if (!vals || !vals.every(scalarKey)) break;
      lists.push(vals);
    }
    if (lists.length < 2) return null;
    const combos = cartesian(lists);
    if (!combos) return null;
    const ids = new Set<string>();
    for (const prefix of combos) {
      for (const item of index.walk(prefix, 1)) {
        ids.add(item.id);
        if (ids.size >= cap) return null;
      }
    }
    return ids;
  }

  // ---- writes ------------------------------------------------------------------------------

  private conflict(owner: Transaction, w: WriteCtx): never {
    if (w.txn) throw writeConflict();
    throw new Blocked(owner);
  }

  /**
   * A write may proceed unless another transaction holds the document, or (first committer
   * wins) the document changed after the writing transaction began.
   */
  checkLock(id: string, w: WriteCtx): void {
    const lock = this.locks.get(id);
    if (lock && lock.txn !== w.txn) this.conflict(lock.txn, w);
    if (w.txn && !lock) {
      const cur = this.entries.get(id);
      if (cur && cur.ver > w.txn.snapshot) throw writeConflict();
      // Deleted since the transaction began.
      if (!cur && this.past.get(id)?.some((p) => p.until > w.txn!.snapshot)) throw writeConflict();
    }
  }

  private version(w: WriteCtx): number {
    return w.txn ? UNCOMMITTED : this.host.tick();
  }

  private lockFor(id: string, w: WriteCtx): void {
    if (!w.txn || this.locks.has(id)) return;
    this.locks.set(id, { txn: w.txn, before: this.entries.get(id) ?? null });
    w.txn.touch(this, id);
  }

  /** Throws DuplicateKey (or waits on / conflicts with a transaction) if `doc` breaks a unique index (of `indexes`). */
  private checkUnique(id: string, doc: Doc, w: WriteCtx, indexes: Index[] = this.indexes): void {
    for (const index of indexes) {
      if (!index.unique || index.isId) continue;
      const keys = index.keysOf(doc);
      if (!keys.length) continue;
      for (const other of index.holders(keys, id)) {
        const lock = this.locks.get(other);
        if (lock && lock.txn !== w.txn) this.conflict(lock.txn, w);
        throw this.duplicate(index, doc);
      }
      if (this.locks.size) {
        const mine = new Set(keys);
        for (const [lid, lock] of this.locks) {
          if (lock.txn === w.txn || !lock.before || lid === id) continue;
          if (index.keysOf(lock.before.doc).some((k) => mine.has(k))) this.conflict(lock.txn, w);
        }
      }
    }
  }

  duplicate(index: Index, doc: Doc): MongoError {
    const keyValue = index.isId ? { _id: doc._id } : index.keyValue(doc);
    const shown = Object.entries(keyValue)
      .map(([k, v]) => `${k}: ${inspectValue(v)}`)
      .join(', ');
    return new MongoError('DuplicateKey', `E11000 duplicate key error collection: ${this.ns} index: ${index.name} dup key: { ${shown} }`, {
      extra: { keyPattern: index.spec.key, keyValue },
    });
  }

  private persist(entry: Entry | null, id: string, w: WriteCtx): void {
    const p = this.host.persistence;
    if (!p || w.txn) return;
    w.pending.push(entry ? p.putDoc(this.uuid, id, entry.seq, entry.doc) : p.removeDoc(this.uuid, id));
  }

  insert(doc: Doc, w: WriteCtx): Entry {
    const id = valueKey(doc._id);
    this.checkLock(id, w);
    if (this.entries.has(id)) throw this.duplicate(this.indexes[0], doc);
    this.validate(doc, w);
    this.checkUnique(id, doc, w);
    this.lockFor(id, w);
    const entry: Entry = { id, doc, seq: this.host.nextSeq(), ver: this.version(w) };
    if (!w.txn) this.remember(id, null, entry.ver);
    this.entries.set(id, entry);
    for (const index of this.indexes) index.add(id, doc);
    this.persist(entry, id, w);
    return entry;
  }

  /**
   * Replaces a document. `paths`: where an operator update wrote (update.ts `applyChanges`);
   * indexes on none of them keep their entries unchecked. Null: anything may have changed.
   */
  replace(id: string, doc: Doc, w: WriteCtx, paths: string[] | null = null): Entry {
    this.checkLock(id, w);
    const old = this.entries.get(id);
    if (!old) throw new MongoError('InternalError', `document ${id} vanished from ${this.ns}`);
    this.validate(doc, w);
    const touched = paths ? this.indexes.filter((index) => index.touchedBy(paths)) : this.indexes;
    this.checkUnique(id, doc, w, touched);
    this.lockFor(id, w);
    const changed = touched.filter((index) => !index.sameEntries(old.doc, doc));
    for (const index of changed) index.remove(id, old.doc);
    const entry: Entry = { id, doc, seq: old.seq, ver: this.version(w) };
    if (!w.txn) this.remember(id, old, entry.ver);
    this.entries.set(id, entry);
    for (const index of changed) index.add(id, doc);
    this.persist(entry, id, w);
    return entry;
  }

  remove(id: string, w: WriteCtx): void {
    this.checkLock(id, w);
    const old = this.entries.get(id);
    if (!old) return;
    this.lockFor(id, w);
    if (!w.txn) this.remember(id, old, this.host.tick());
    for (const index of this.indexes) index.remove(id, old.doc);
    this.entries.delete(id);
    this.persist(null, id, w);
  }

  /** Loads the stored documents at start (no checks, no persistence), then builds the indexes. */
  load(docs: Array<{ seq: number; doc: Doc }>): void {
    for (const { seq, doc } of docs) {
      const id = valueKey(doc._id);
      this.entries.set(id, { id, doc, seq, ver: 0 });
    }
    for (const index of this.indexes) index.build(this.entries.values());
  }

  commitTxn(txn: Transaction, ids: Set<string>, ver: number, pending: Promise<unknown>[]): void {
    const p = this.host.persistence;
    for (const id of ids) {
      const lock = this.locks.get(id);
      if (!lock || lock.txn !== txn) continue;
      this.locks.delete(id);
      this.remember(id, lock.before, ver);
      let e = this.entries.get(id);
      if (e) this.entries.set(id, (e = { ...e, ver }));
      if (p) pending.push(e ? p.putDoc(this.uuid, id, e.seq, e.doc) : p.removeDoc(this.uuid, id));
    }
  }

  rollbackTxn(txn: Transaction, ids: Set<string>): void {
    for (const id of ids) {
      const lock = this.locks.get(id);
      if (!lock || lock.txn !== txn) continue;
      const cur = this.entries.get(id);
      if (cur) for (const index of this.indexes) index.remove(id, cur.doc);
      if (lock.before) {
        this.entries.set(id, lock.before);
        for (const index of this.indexes) index.add(id, lock.before.doc);
      } else {
        this.entries.delete(id);
      }
      this.locks.delete(id);
    }
  }

  /** Aborts every transaction holding locks here (before a drop or rename). */
  abortHolders(reason: string): void {
    for (const txn of this.lockHolders()) txn.abort(reason);
  }

  // ---- indexes -----------------------------------------------------------------------------

  /** Builds an index over the current documents; DuplicateKey if a unique index would be violated. */
  buildIndex(spec: IndexSpec): Index {
    const index = new Index(spec);
    if (index.unique) {
      const seen = new Map<string, string>();
      for (const e of this.entries.values()) {
        for (const k of index.keysOf(e.doc)) {
          const other = seen.get(k);
          if (other !== undefined && other !== e.id) throw this.duplicate(index, e.doc);
          seen.set(k, e.id);
        }
      }
    }
    index.build(this.entries.values());
    return index;
  }

  dataSize(): number {
    let n = 0;
    for (const e of this.entries.values()) n += approxSize(e.doc);
    return n;
  }
}

function approxSize(v: unknown): number {
  if (v === null || v === undefined) return 1;
  switch (typeof v) {
    case 'string':
      return v.length + 5;
    case 'number':
      return 8;
    case 'boolean':
      return 1;
  }
  if (Array.isArray(v)) return 5 + v.reduce((n: number, x) => n + 3 + approxSize(x), 0);
  if (isPlainObject(v)) return 5 + Object.entries(v).reduce((n, [k, x]) => n + k.length + 2 + approxSize(x), 0);
  return 16;
}

/** Equality predicates of a filter: field -> the values it may equal (several for `$in`). */
export function equalities(filter: Doc, out = new Map<string, unknown[]>()): Map<string, unknown[]> {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(v)) {
      for (const sub of v) if (isPlainObject(sub)) equalities(sub, out);
      continue;
    }
    if (k.startsWith('$')) continue;
    const vals = equalityValues(v);
    if (!vals) continue;
    const prev = out.get(k);
    if (!prev || vals.length < prev.length) out.set(k, vals);
  }
  return out;
}

const RANGE_OPS: Record<string, { side: 'lower' | 'upper'; inclusive: boolean }> = {
  $gt: { side: 'lower', inclusive: false },
  $gte: { side: 'lower', inclusive: true },
  $lt: { side: 'upper', inclusive: false },
  $lte: { side: 'upper', inclusive: true },
};

/** Range predicates of a filter: field -> its lower and upper bounds. */
export function ranges(filter: Doc, out = new Map<string, { lower?: Bound; upper?: Bound }>()): Map<string, { lower?: Bound; upper?: Bound }> {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(v)) {
      for (const sub of v) if (isPlainObject(sub)) ranges(sub, out);
      continue;
    }
    if (k.startsWith('$') || !isPlainObject(v)) continue;
    for (const [op, bound] of Object.entries(v)) {
      const spec = RANGE_OPS[op];
      if (!spec || bound === null || bound === undefined || bound instanceof RegExp || Array.isArray(bound)) continue;
      const t = typeName(bound);
      if (t === 'minKey' || t === 'maxKey') continue;
      const r = out.get(k) ?? {};
      r[spec.side] = { value: bound, inclusive: spec.inclusive };
      out.set(k, r);
    }
  }
  return out;
}

/** `$type` names and numbers -> the comparison bracket (typeOrder) their values sort in; arrays, null and the rest have none. */
const TYPE_BRACKETS: Record<string, number> = {
  number: 3, int: 3, double: 3, long: 3, decimal: 3, '1': 3, '16': 3, '18': 3, '19': 3,
  string: 4, symbol: 4, '2': 4, '14': 4,
  object: 5, '3': 5,
  binData: 7, '5': 7,
  objectId: 8, '7': 8,
  bool: 9, '8': 9,
  date: 10, '9': 10,
  timestamp: 11, '17': 11,
  regex: 12, '11': 12,
};

/** `$type` predicates of a filter: field -> the type brackets its values must lie in. */
export function types(filter: Doc, out = new Map<string, number[]>()): Map<string, number[]> {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(v)) {
      for (const sub of v) if (isPlainObject(sub)) types(sub, out);
      continue;
    }
    if (k.startsWith('$') || !isPlainObject(v) || !('$type' in v)) continue;
    const list = Array.isArray(v.$type) ? v.$type : [v.$type];
    const orders = list.map((t) => (Object.hasOwn(TYPE_BRACKETS, String(t)) ? TYPE_BRACKETS[String(t)] : undefined));
    if (orders.length && orders.every((o) => o !== undefined)) out.set(k, [...new Set(orders)]);
  }
  return out;
}

function equalityValues(v: unknown): unknown[] | null {
  if (v instanceof RegExp) return null;
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    const ops = keys.filter((k) => k.startsWith('$'));
    if (!ops.length) return [v];
    if (ops.length !== keys.length) return null;
    if ('$eq' in v) return v.$eq instanceof RegExp ? null : [v.$eq];
    if (Array.isArray(v.$in) && !v.$in.some((x) => x instanceof RegExp)) return v.$in;
    return null;
  }
  return [v];
}

/** Equality values whose index key means exactly "equal" (no arrays, sub-documents, null or regexes). */
function scalarKey(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'string' || typeof v === 'boolean') return true;
  const t = typeOrder(v);
  return t === 8 || t === 10;
}

/** The values the first sort key may take under the filter (its `$in`/equality values' span, or its range), to start and end a walk there. */
function walkBounds(filter: Doc, field: string): { lo?: unknown; hi?: unknown } {
  const vals = equalities(filter).get(field);
  if (vals && vals.length && vals.every(scalarKey) && vals.every((v) => typeOrder(v) === typeOrder(vals[0]))) {
    const sorted = [...vals].sort(compareValues);
    return { lo: sorted[0], hi: sorted[sorted.length - 1] };
  }
  const r = ranges(filter).get(field);
  if (!r) return {};
  // A one-sided range stays in its type bracket only through the filter; bound just that side.
  return { lo: r.lower?.value, hi: r.upper?.value };
}

function union(sets: Array<Set<string> | undefined>): Set<string> {
  const out = new Set<string>();
  for (const set of sets) if (set) for (const id of set) out.add(id);
  return out;
}

function sameTuple(a: unknown[], b: unknown[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (compareValues(a[i], b[i]) !== 0) return false;
  return true;
}

function cartesian(lists: unknown[][]): unknown[][] | null {
  let out: unknown[][] = [[]];
  for (const list of lists) {
    const next: unknown[][] = [];
    for (const prefix of out) for (const v of list) next.push([...prefix, v]);
    if (next.length > MAX_PLAN_KEYS) return null;
    out = next;
  }
  return out;
}
