/**
 * Secondary indexes: hash maps from index key to document ids, the first field's values in
 * order and every entry in key order. They enforce `unique` (with `sparse` and
 * `partialFilterExpression`) and give the planner equality lookups, range and `$type` slices and
 * sorted walks; a sparse or partial index serves only the queries that imply its filter.
 */
import { MongoError } from './errors';
import { conditions, queryImplies, queryNeedsOneOf, type Cond } from './implies';
import { Filter } from './matcher';
import { compareValues, getPath, intlLocale, isPlainObject, pathValues, typeOrder, valueKey, type Doc } from './values';

export interface IndexSpec {
  v: number;
  key: Doc;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  expireAfterSeconds?: number;
  [option: string]: unknown;
}

const MAX_KEYS_PER_DOC = 1000;

/** The default index name MongoDB derives from a key pattern: `{ a: 1, b: -1 }` -> `a_1_b_-1`. */
export function defaultIndexName(key: Doc): string {
  return Object.entries(key)
    .map(([k, v]) => `${k}_${v}`)
    .join('_');
}

const KNOWN_OPTIONS = new Set([
  'key',
  'name',
  'v',
  'unique',
  'sparse',
  'partialFilterExpression',
  'expireAfterSeconds',
  'background',
  'collation',
  'weights',
  'default_language',
  'language_override',
  'textIndexVersion',
  '2dsphereIndexVersion',
  'bits',
  'min',
  'max',
  'hidden',
  'storageEngine',
  'wildcardProjection',
  'ns',
  'dropDups',
  'bucketSize',
  'clustered',
  'prepareUnique',
]);

/** Validates a createIndexes entry and returns it normalised (`v: 2`, name filled in). */
export function normaliseSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw)) throw new MongoError('TypeMismatch', 'index specification must be an object');
  const key = raw.key;
  if (!isPlainObject(key) || Object.keys(key).length === 0) {
    throw new MongoError('CannotCreateIndex', "Index specification must have a non-empty 'key' object");
  }
  for (const [field, dir] of Object.entries(key)) {
    const ok =
      (typeof dir === 'number' && dir !== 0 && Number.isFinite(dir)) ||
      dir === 'text' ||
      dir === '2dsphere' ||
      dir === '2d' ||
      dir === 'hashed' ||
      dir === 'geoHaystack';
    if (!ok) throw new MongoError('CannotCreateIndex', `Values in the index key pattern can't be ${JSON.stringify(dir)} (field ${field})`);
  }
  for (const opt of Object.keys(raw)) {
    if (!KNOWN_OPTIONS.has(opt)) throw new MongoError('InvalidIndexSpecificationOption', `The field '${opt}' is not valid for an index specification`);
  }
  const name = typeof raw.name === 'string' && raw.name ? raw.name : defaultIndexName(key);
  const spec: IndexSpec = { v: 2, key, name };
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'key' || k === 'name' || k === 'v' || k === 'ns' || k === 'background' || k === 'dropDups') continue;
    if ((k === 'unique' || k === 'sparse') && !v) continue;
    spec[k] = v;
  }
  return spec;
}

/** Whether two specs describe the same index (key pattern and the options that change behaviour). */
export function sameIndex(a: IndexSpec, b: IndexSpec): boolean {
  const pick = (s: IndexSpec) =>
    JSON.stringify([s.key, !!s.unique, !!s.sparse, s.partialFilterExpression ?? null, s.expireAfterSeconds ?? null, s.collation ?? null]);
  return pick(a) === pick(b);
}

export function sameKeyPattern(a: IndexSpec, b: IndexSpec): boolean {
  return JSON.stringify(a.key) === JSON.stringify(b.key) && JSON.stringify(a.collation ?? null) === JSON.stringify(b.collation ?? null);
}

export interface Bound {
  value: unknown;
  inclusive: boolean;
}

/**
 * The distinct values of one field in BSON order, each with the ids holding it: range
 * predicates (`$gt`, `$lte`, ...) read a slice instead of scanning the collection.
 */
class SortedValues {
  private readonly values: unknown[] = [];
  private readonly keys: string[] = [];
  private readonly ids = new Map<string, Set<string>>();

  /** First position whose value is >= v (or, with `bracketOf`, the first of v's type bracket). */
  private lowerBound(v: unknown, bracketOnly = false): number {
    let lo = 0;
    let hi = this.values.length;
    const t = typeOrder(v);
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = bracketOnly ? typeOrder(this.values[mid]) - t : compareValues(this.values[mid], v);
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(v: unknown, id: string): void {
    const key = valueKey(v);
    let set = this.ids.get(key);
    if (!set) {
      const at = this.lowerBound(v);
      this.values.splice(at, 0, v);
      this.keys.splice(at, 0, key);
      this.ids.set(key, (set = new Set()));
    }
    set.add(id);
  }

  remove(v: unknown, id: string): void {
    const key = valueKey(v);
    const set = this.ids.get(key);
    if (!set) return;
    set.delete(id);
    if (set.size) return;
    this.ids.delete(key);
    for (let i = this.lowerBound(v); i < this.keys.length; i++) {
      if (this.keys[i] === key) {
        this.values.splice(i, 1);
        this.keys.splice(i, 1);
        break;
      }
      if (compareValues(this.values[i], v) > 0) break;
    }
  }

  /** Fills an empty structure in one sort (building an index over existing documents). */
  load(pairs: Iterable<[unknown, string]>): void {
    const firsts = new Map<string, unknown>();
    for (const [v, id] of pairs) {
      const key = valueKey(v);
      let set = this.ids.get(key);
      if (!set) {
        this.ids.set(key, (set = new Set()));
        firsts.set(key, v);
      }
      set.add(id);
    }
    const order = [...firsts].sort((a, b) => compareValues(a[1], b[1]));
    for (const [key, v] of order) {
      this.keys.push(key);
      this.values.push(v);
    }
  }

  /** Ids whose value lies in one of these type brackets (typeOrder numbers). */
  brackets(orders: number[]): Set<string> {
    const out = new Set<string>();
    for (const order of orders) {
      let lo = 0;
      let hi = this.values.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (typeOrder(this.values[mid]) < order) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < this.values.length && typeOrder(this.values[i]) === order; i++) for (const id of this.ids.get(this.keys[i])!) out.add(id);
    }
    return out;
  }

  /** Ids whose value lies within the bounds (and in the bounds' type bracket). */
  range(lower: Bound | undefined, upper: Bound | undefined): Set<string> {
    const out = new Set<string>();
    const ref = lower ?? upper;
    if (!ref) return out;
    const bracket = typeOrder(ref.value);
    if (lower && upper && typeOrder(upper.value) !== bracket) return out;
    let i = lower ? this.lowerBound(lower.value) : this.lowerBound(ref.value, true);
    for (; i < this.values.length; i++) {
      const v = this.values[i];
      if (typeOrder(v) !== bracket) break;
      if (lower && !lower.inclusive && compareValues(v, lower.value) === 0) continue;
      if (upper) {
        const c = compareValues(v, upper.value);
        if (c > 0 || (c === 0 && !upper.inclusive)) break;
      }
      for (const id of this.ids.get(this.keys[i])!) out.add(id);
    }
    return out;
  }
}

/** One entry of an ordered index: the document's value in each indexed field, and its id. */
export interface OrderedItem {
  vals: unknown[];
  id: string;
}

const CHUNK = 512;

/** Compares the first n values, each field in its key pattern's direction (1 or -1). */
function compareTuple(a: unknown[], b: unknown[], n: number, dirs: number[]): number {
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i]);
    if (c) return c * dirs[i];
  }
  return 0;
}

/**
 * Every entry of a compound index in key order (each field in its direction, ties by id), kept in
 * chunks of at most 512 so an insert or removal moves a few hundred slots, not the whole index.
 * A sorted find walks it and stops after skip + limit matches instead of sorting every match.
 */
export class OrderedKeys {
  private chunks: OrderedItem[][] = [];

  constructor(private readonly dirs: number[]) {}

  private compareItem = (a: OrderedItem, b: OrderedItem): number =>
    compareTuple(a.vals, b.vals, a.vals.length, this.dirs) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  /** First chunk whose last item is >= item (by `cmp`), or the last chunk. */
  private chunkFor(cmp: (x: OrderedItem) => number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = this.chunks[mid];
      if (cmp(c[c.length - 1]) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private static lowerBound(items: OrderedItem[], cmp: (x: OrderedItem) => number): number {
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(items[mid]) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(item: OrderedItem): void {
    if (!this.chunks.length) {
      this.chunks.push([item]);
      return;
    }
    const cmp = (x: OrderedItem) => this.compareItem(x, item);
    const ci = this.chunkFor(cmp);
    const chunk = this.chunks[ci];
    chunk.splice(OrderedKeys.lowerBound(chunk, cmp), 0, item);
    if (chunk.length > CHUNK * 2) this.chunks.splice(ci, 1, chunk.slice(0, CHUNK), chunk.slice(CHUNK));
  }

  remove(item: OrderedItem): void {
    if (!this.chunks.length) return;
    const cmp = (x: OrderedItem) => this.compareItem(x, item);
    const ci = this.chunkFor(cmp);
    const chunk = this.chunks[ci];
    const at = OrderedKeys.lowerBound(chunk, cmp);
    if (at < chunk.length && chunk[at].id === item.id) {
      chunk.splice(at, 1);
      if (!chunk.length) this.chunks.splice(ci, 1);
    }
  }

  /** Fills an empty structure in one sort. */
  load(items: OrderedItem[]): void {
    items.sort(this.compareItem);
    this.chunks = [];
    for (let i = 0; i < items.length; i += CHUNK) this.chunks.push(items.slice(i, i + CHUNK));
  }

  /** How many items have these leading values: two binary searches and the chunk sizes between. */
  count(prefix: unknown[]): number {
    if (!this.chunks.length) return 0;
    const k = prefix.length;
    const below = (x: OrderedItem) => compareTuple(x.vals, prefix, k, this.dirs);
    const above = (x: OrderedItem) => (below(x) <= 0 ? -1 : 1);
    const c1 = this.chunkFor(below);
    const i1 = OrderedKeys.lowerBound(this.chunks[c1], below);
    const c2 = this.chunkFor(above);
    const i2 = OrderedKeys.lowerBound(this.chunks[c2], above);
    if (c1 === c2) return Math.max(0, i2 - i1);
    let n = this.chunks[c1].length - i1 + i2;
    for (let c = c1 + 1; c < c2; c++) n += this.chunks[c].length;
    return n;
  }

  /**
   * Items with these leading values whose next value lies between lo and hi (value order,
   * inclusive; undefined = open), in key order (dir 1) or reversed: a sorted find over a date
   * range starts at its first day instead of the prefix's first entry.
   */
  *walkBetween(prefix: unknown[], lo: unknown, hi: unknown, dir: 1 | -1): Generator<OrderedItem> {
    if (!this.chunks.length) return;
    const k = prefix.length;
    const d = this.dirs[k];
    const head = d === 1 ? lo : hi;
    const tail = d === 1 ? hi : lo;
    const start = (x: OrderedItem) => compareTuple(x.vals, head === undefined ? prefix : [...prefix, head], head === undefined ? k : k + 1, this.dirs);
    const end = (x: OrderedItem) => compareTuple(x.vals, tail === undefined ? prefix : [...prefix, tail], tail === undefined ? k : k + 1, this.dirs);
    if (dir === 1) {
      let ci = this.chunkFor(start);
      let i = OrderedKeys.lowerBound(this.chunks[ci], start);
      for (; ci < this.chunks.length; ci++, i = 0) {
        const chunk = this.chunks[ci];
        for (; i < chunk.length; i++) {
          if (end(chunk[i]) > 0) return;
          yield chunk[i];
        }
      }
    } else {
      const above = (x: OrderedItem) => (end(x) <= 0 ? -1 : 1);
      let ci = this.chunkFor(above);
      let i = OrderedKeys.lowerBound(this.chunks[ci], above) - 1;
      for (; ci >= 0; ci--, i = ci >= 0 ? this.chunks[ci].length - 1 : 0) {
        const chunk = this.chunks[ci];
        for (; i >= 0; i--) {
          if (start(chunk[i]) < 0) return;
          yield chunk[i];
        }
      }
    }
  }

  /** Items whose first `prefix.length` values equal `prefix`, ascending (dir 1) or descending (dir -1). */
  *walk(prefix: unknown[], dir: 1 | -1): Generator<OrderedItem> {
    if (!this.chunks.length) return;
    const k = prefix.length;
    const below = (x: OrderedItem) => compareTuple(x.vals, prefix, k, this.dirs);
    if (dir === 1) {
      let ci = this.chunkFor(below);
      let i = OrderedKeys.lowerBound(this.chunks[ci], below);
      for (; ci < this.chunks.length; ci++, i = 0) {
        const chunk = this.chunks[ci];
        for (; i < chunk.length; i++) {
          if (k && below(chunk[i]) > 0) return;
          yield chunk[i];
        }
      }
    } else {
      // The last item <= prefix: the first item > prefix, minus one.
      const above = (x: OrderedItem) => (below(x) <= 0 ? -1 : 1);
      let ci = this.chunkFor(above);
      let i = OrderedKeys.lowerBound(this.chunks[ci], above) - 1;
      for (; ci >= 0; ci--, i = ci >= 0 ? this.chunks[ci].length - 1 : 0) {
        const chunk = this.chunks[ci];
        for (; i >= 0; i--) {
          if (k && below(chunk[i]) < 0) return;
          yield chunk[i];
        }
      }
    }
  }
}

export class Index {
  readonly spec: IndexSpec;
  readonly fields: string[];
  readonly isId: boolean;
  readonly unique: boolean;
  readonly sparse: boolean;
  readonly partial: Filter | null;
  /** Text index fields (`$**` for a wildcard text index), else null. */
  readonly textFields: string[] | null;
  /** Usable by the planner: an ordinary (non-text, non-geo) index without collation; sparse and partial ones only for queries implying their filter (usableFor). */
  readonly plannable: boolean;
  /** The partial filter's conditions per field; null when it has operators the implication rule does not read. */
  private readonly partialConds: Map<string, Cond[]> | null;
  /** Documents with an entry (sparse and partial indexes). */
  coveredCount = 0;
  /** Indexed key -> ids; null for indexes that keep no map (text, geo, the _id index). */
  private readonly map: Map<string, Set<string>> | null;
  /** First field's key -> ids, for compound indexes (prefix lookups). */
  private readonly prefix: Map<string, Set<string>> | null;
  /** First field's values in order, for range predicates. */
  private readonly sorted: SortedValues | null;
  /** Some document holds an array in the first field (bounds on both sides then do not combine). */
  multikey = false;
  /** Every entry in key order, for sorted finds; null for the _id index and unplannable ones. */
  private readonly ordered: OrderedKeys | null;
  /** Some document holds an array (or several values) in an indexed field: the order walk is off for good. */
  orderBroken = false;
  /** Case (strength 2) or case and accent (strength 1) folding of a collation index's string keys. */
  private readonly fold: ((s: string) => string) | null;
  /** Text, geo or hashed: keys are not the plain field values. */
  private readonly special: boolean;
  /** The fields an entry depends on (indexed and partial filter fields); null: any (text, geo, hashed, wildcard). */
  private readonly watched: string[] | null;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    this.isId = spec.name === '_id_';
    const kinds = Object.values(spec.key);
    const special = kinds.some((k) => typeof k === 'string');
    this.special = special;
    this.textFields = kinds.includes('text')
      ? [...this.fields.filter((f) => spec.key[f] === 'text'), ...Object.keys((spec.weights as Doc | undefined) ?? {})]
      : null;
    this.unique = this.isId || !!spec.unique;
    this.sparse = !!spec.sparse;
    this.partial = spec.partialFilterExpression ? new Filter(spec.partialFilterExpression) : null;
    this.plannable = !special && !spec.collation;
    this.partialConds = spec.partialFilterExpression ? conditions(spec.partialFilterExpression, new Map(), true) : null;
    this.watched = special || this.fields.some((f) => f.includes('$**')) ? null : [...this.fields, ...filterFields(spec.partialFilterExpression)];
    const keeps = !this.isId && !special;
    this.map = keeps ? new Map() : null;
    this.prefix = keeps && this.fields.length > 1 && this.plannable ? new Map() : null;
    this.sorted = this.plannable ? new SortedValues() : null;
    this.ordered = this.plannable && !this.isId ? new OrderedKeys(this.fields.map((f) => (Number(spec.key[f]) < 0 ? -1 : 1))) : null;
    const collation = spec.collation as Doc | undefined;
    const strength = Number(collation?.strength ?? 3);
    this.fold =
      collation && collation.locale !== 'simple' && strength < 3
        ? strength === 1
          ? (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLocaleLowerCase(intlLocale(collation.locale))
          : (s) => s.toLocaleLowerCase(intlLocale(collation.locale))
        : null;
  }

  /** Whether the planner may answer a query (its conditions, from `conditions`) from this index. */
  usableFor(query: Map<string, Cond[]> | null): boolean {
    if (!this.plannable) return false;
    if (!this.sparse && !this.partial) return true;
    if (!query) return false;
    if (this.partial && !(this.partialConds && queryImplies(query, this.partialConds))) return false;
    return !this.sparse || queryNeedsOneOf(query, this.fields);
  }

  /** Every id with an entry: what a sparse or partial index holds for `$exists: true` on its field. */
  coveredIds(): Set<string> {
    const out = new Set<string>();
    if (this.map) for (const ids of this.map.values()) for (const id of ids) out.add(id);
    return out;
  }

  /** Ids whose first field holds a value in one of these type brackets, or null if this index keeps no order. */
  bracketIds(orders: number[]): Set<string> | null {
    return this.sorted ? this.sorted.brackets(orders) : null;
  }

  /** Values of the first field a range lookup sees: scalars, and the elements of arrays (none when the index skips the document). */
  private rangeValues(doc: Doc): unknown[] {
    const out: unknown[] = [];
    if (!this.covers(doc)) return out;
    for (const v of pathValues(doc, this.fields[0])) {
      if (Array.isArray(v)) {
        this.multikey = true;
        out.push(...v);
      } else out.push(v);
    }
    return out;
  }

  /** The document's single value in each field (missing = null); null if a field holds an array or several values. */
  private orderValues(doc: Doc): unknown[] | null {
    const vals: unknown[] = [];
    for (const f of this.fields) {
      const at = pathValues(doc, f);
      if (at.length > 1 || Array.isArray(at[0])) return null;
      // A dotted path reached through an array also sorts as an array.
      if (at.length === 1 && f.includes('.') && getPath(doc, f) !== at[0]) return null;
      vals.push(at.length ? at[0] : null);
    }
    return vals;
  }

  private orderedItem(id: string, doc: Doc): OrderedItem | null {
    if (!this.ordered || this.orderBroken || !this.covers(doc)) return null;
    const vals = this.orderValues(doc);
    if (!vals) {
      this.orderBroken = true;
      return null;
    }
    return { vals, id };
  }

  /** Whether a sorted find may walk this index. */
  get walkable(): boolean {
    return !!this.ordered && !this.orderBroken;
  }

  /** How many entries have these leading values; only when `walkable`. */
  countPrefix(prefix: unknown[]): number {
    return this.ordered!.count(prefix);
  }

  /** Entries with these leading values and the next one between lo and hi, in key order; only when `walkable`. */
  walkBetween(prefix: unknown[], lo: unknown, hi: unknown, dir: 1 | -1): Iterable<OrderedItem> {
    return this.ordered!.walkBetween(prefix, lo, hi, dir);
  }

  /** Entries with these leading values, in key order; only when `walkable`. */
  walk(prefix: unknown[], dir: 1 | -1): Iterable<OrderedItem> {
    return this.ordered!.walk(prefix, dir);
  }

  /** Number of ids under an exact key (all fields), or under the first field's key; undefined if not kept. */
  sizeOf(key: string, prefixOnly: boolean): number | undefined {
    if (prefixOnly && this.fields.length > 1) return this.prefix?.get(key)?.size ?? (this.prefix ? 0 : undefined);
    return this.map ? (this.map.get(key)?.size ?? 0) : undefined;
  }

  /** Ids whose first field lies within the bounds, or null if this index keeps no order. */
  range(lower: Bound | undefined, upper: Bound | undefined): Set<string> | null {
    if (!this.sorted) return null;
    if (this.multikey && lower && upper) return this.sorted.range(lower, undefined);
    return this.sorted.range(lower, upper);
  }

  get name(): string {
    return this.spec.name;
  }

  /**
   * Whether an update that wrote only under `paths` (cut at array indexes, see update.ts) may
   * change this index's entries: some path is one of its fields, inside one or above one. Null
   * paths (a replacement) may change anything.
   */
  touchedBy(paths: string[] | null): boolean {
    if (!paths || !this.watched) return true;
    for (const p of paths) {
      for (const f of this.watched) {
        if (p === f || p === '' || f.startsWith(p + '.') || p.startsWith(f + '.')) return true;
      }
    }
    return false;
  }

  /**
   * True when `a` and `b` give this index the same entries (the same values in every indexed
   * field, and both or neither covered), so an update from one to the other can leave it alone:
   * most updates ($inc of stock, a cart's lines, an outbox mark) touch no indexed field.
   */
  sameEntries(a: Doc, b: Doc): boolean {
    if (this.special || this.textFields) return false;
    if (this.covers(a) !== this.covers(b)) return false;
    for (const f of this.fields) {
      const x = pathValues(a, f);
      const y = pathValues(b, f);
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (valueKey(x[i]) !== valueKey(y[i])) return false;
    }
    return true;
  }

  /** Whether the document has an entry in this index (sparse and partial indexes skip some). */
  covers(doc: Doc): boolean {
    if (this.sparse && this.fields.every((f) => pathValues(doc, f).length === 0)) return false;
    if (this.partial && !this.partial.test(doc)) return false;
    return true;
  }

  /** Keys of one field: each value at the path, and each element of array values; missing is null. */
  private fieldKeys(doc: Doc, field: string): string[] {
    const vals = pathValues(doc, field);
    if (!vals.length) return [valueKey(null)];
    const keys = new Set<string>();
    const key = (v: unknown) => (this.fold && typeof v === 'string' ? 's' + this.fold(v) : valueKey(v));
    for (const v of vals) {
      keys.add(key(v));
      if (Array.isArray(v)) {
        for (const el of v) keys.add(key(el));
        if (!v.length) keys.add('u');
      }
    }
    return [...keys];
  }

  /** The index keys of a document (several for multikey), or [] when the index does not cover it. */
  keysOf(doc: Doc): string[] {
    if (!this.covers(doc)) return [];
    if (this.fields.length === 1) return this.fieldKeys(doc, this.fields[0]);
    let combos: string[][] = [[]];
    for (const f of this.fields) {
      const keys = this.fieldKeys(doc, f);
      const next: string[][] = [];
      for (const c of combos) for (const k of keys) if (next.length < MAX_KEYS_PER_DOC) next.push([...c, k]);
      combos = next;
    }
    return combos.map((c) => JSON.stringify(c));
  }

  /** Key for an equality lookup with one value per field (in field order). */
  static lookupKey(values: unknown[]): string {
    return values.length === 1 ? valueKey(values[0]) : JSON.stringify(values.map(valueKey));
  }

  /** Indexes every given document at once (empty index only): one sort instead of n inserts. */
  build(entries: Iterable<{ id: string; doc: Doc }>): void {
    const pairs: Array<[unknown, string]> = [];
    const items: OrderedItem[] = [];
    for (const { id, doc } of entries) {
      if (this.sorted) for (const v of this.rangeValues(doc)) pairs.push([v, id]);
      const item = this.orderedItem(id, doc);
      if (item) items.push(item);
      this.addToMaps(id, doc);
    }
    this.sorted?.load(pairs);
    if (this.walkable) this.ordered!.load(items);
  }

  add(id: string, doc: Doc): void {
    if (this.sorted) for (const v of this.rangeValues(doc)) this.sorted.add(v, id);
    const item = this.orderedItem(id, doc);
    if (item) this.ordered!.add(item);
    this.addToMaps(id, doc);
  }

  private addToMaps(id: string, doc: Doc): void {
    if (!this.map) return;
    if ((this.sparse || this.partial) && this.covers(doc)) this.coveredCount++;
    for (const k of this.keysOf(doc)) addTo(this.map, k, id);
    if (this.prefix && this.covers(doc)) for (const k of this.fieldKeys(doc, this.fields[0])) addTo(this.prefix, k, id);
  }

  remove(id: string, doc: Doc): void {
    if (this.sorted) for (const v of this.rangeValues(doc)) this.sorted.remove(v, id);
    const item = this.orderedItem(id, doc);
    if (item) this.ordered!.remove(item);
    if (!this.map) return;
    if ((this.sparse || this.partial) && this.covers(doc)) this.coveredCount--;
    for (const k of this.keysOf(doc)) removeFrom(this.map, k, id);
    if (this.prefix && this.covers(doc)) for (const k of this.fieldKeys(doc, this.fields[0])) removeFrom(this.prefix, k, id);
  }


  /** Ids of other documents holding one of these keys (unique indexes). */
  holders(keys: string[], self: string): string[] {
    if (!this.map) return [];
    const out: string[] = [];
    for (const k of keys) {
      const ids = this.map.get(k);
      if (ids) for (const id of ids) if (id !== self) out.push(id);
    }
    return out;
  }

  /** Ids for an exact key over all fields. */
  lookup(key: string): Set<string> | undefined {
    return this.map?.get(key);
  }

  /** Ids whose first field has this key (compound indexes). */
  lookupPrefix(key: string): Set<string> | undefined {
    return this.prefix?.get(key);
  }


  /** `{ field: value }` of a document for duplicate key messages. */
  keyValue(doc: Doc): Doc {
    const out: Doc = {};
    for (const f of this.fields) {
      const vals = pathValues(doc, f);
      out[f] = vals.length ? vals[0] : null;
    }
    return out;
  }
}

/** Every field a partial filter expression reads (at its top and under $and/$or/$nor). */
function filterFields(filter: unknown, out: string[] = []): string[] {
  if (Array.isArray(filter)) for (const f of filter) filterFields(f, out);
  else if (isPlainObject(filter)) {
    for (const [k, v] of Object.entries(filter)) {
      if (k.startsWith('$')) filterFields(v, out);
      else out.push(k);
    }
  }
  return out;
}

function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  let ids = map.get(key);
  if (!ids) map.set(key, (ids = new Set()));
  ids.add(id);
}

function removeFrom(map: Map<string, Set<string>>, key: string, id: string): void {
  const ids = map.get(key);
  if (!ids) return;
  ids.delete(id);
  if (!ids.size) map.delete(key);
}
