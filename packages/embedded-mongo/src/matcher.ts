/**
 * Query, projection and sort on in-memory documents. Matching and aggregation run on mingo
 * with a context whose comparison and `$type` operators follow BSON semantics (numbers of any
 * BSON type compare as numbers, ObjectIds and dates in their own type bracket, ...).
 */
import v8 from 'node:v8';
import { Context, ProcessingMode } from 'mingo/core';
import { Query } from 'mingo/query';
import { Lazy, type Iterator as LazyIterator } from 'mingo/lazy';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import type { Options } from 'mingo/types';
import { MongoError } from './errors';
import { limitedExpressionOps, limitedPipelineOps } from './operator-limits';
import { plainProjection } from './projection';
import { cloneValue as cloneDeepDoc, compareValues, intlLocale, isPlainObject, matchesType, pathValues, typeOrder, valueKey, type Doc } from './values';

type QueryOp = (selector: string, value: unknown, options: Options) => (obj: Doc) => boolean;

/** The values a comparison looks at: each value at the path, and each element of array values. */
function comparands(obj: Doc, selector: string, value: unknown): unknown[] {
  const out: unknown[] = [];
  for (const v of pathValues(obj, selector)) {
    if (Array.isArray(v)) {
      out.push(...v);
      if (Array.isArray(value)) out.push(v);
    } else {
      out.push(v);
    }
  }
  return out;
}

function rangeOp(test: (c: number) => boolean, inclusive: boolean): QueryOp {
  return (selector, value) => {
    if (value === null) {
      // { $gte: null } and { $lte: null } match null and missing; $gt/$lt null match nothing.
      return (obj) => {
        if (!inclusive) return false;
        const vals = pathValues(obj, selector);
        return vals.length === 0 || vals.some((v) => v === null || (Array.isArray(v) && v.includes(null)));
      };
    }
    if (value instanceof RegExp) {
      return (obj) => comparands(obj, selector, value).some((v) => typeof v === 'string' && value.test(v));
    }
    const bracket = typeOrder(value);
    return (obj) => {
      for (const v of comparands(obj, selector, value)) {
        if (typeOrder(v) === bracket && test(compareValues(v, value))) return true;
      }
      return false;
    };
  };
}

const $type: QueryOp = (selector, value) => {
  const types = Array.isArray(value) ? value : [value];
  return (obj) => {
    for (const v of pathValues(obj, selector)) {
      if (Array.isArray(v)) {
        if (types.some((t) => t === 'array' || t === 4)) return true;
        if (v.some((el) => types.some((t) => matchesType(el, t)))) return true;
      } else if (types.some((t) => matchesType(v, t))) {
        return true;
      }
    }
    return false;
  };
};

/** `$sort` stage with MongoDB ordering, replacing mingo's. */
function $sortStage(coll: LazyIterator, spec: Doc, options: Options): LazyIterator {
  const compare = sortComparator(spec, (options as { collation?: Doc }).collation);
  return coll.transform((docs: Doc[]) => Lazy(stableSort(docs, compare)));
}

// A catastrophic `$regex` ("(a+)+$") would hold the event loop for minutes: after excessive
// backtracking V8 switches to its linear-time engine (same matches; patterns with backreferences
// or lookaround cannot switch).
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

export const CONTEXT = Context.init({
  accumulator: accumulatorOperators,
  expression: { ...expressionOperators, ...limitedExpressionOps } as never,
  pipeline: { ...pipelineOperators, $sort: $sortStage, ...limitedPipelineOps } as never,
  projection: projectionOperators,
  query: {
    ...queryOperators,
    $gt: rangeOp((c) => c > 0, false),
    $gte: rangeOp((c) => c >= 0, true),
    $lt: rangeOp((c) => c < 0, false),
    $lte: rangeOp((c) => c <= 0, true),
    $type,
  } as never,
  window: windowOperators,
});

export interface MatchOptions {
  collation?: Doc;
  variables?: Doc;
  collectionResolver?: (name: string) => Doc[];
}

export function mingoOptions(opts: MatchOptions = {}): Partial<Options> {
  return {
    context: CONTEXT,
    idKey: '_id',
    processingMode: ProcessingMode.CLONE_OFF,
    scriptEnabled: false,
    useStrictMode: true,
    collation: opts.collation as Options['collation'],
    variables: opts.variables,
    collectionResolver: opts.collectionResolver as Options['collectionResolver'],
  };
}

/** A compiled query filter. */
export class Filter {
  readonly raw: Doc;
  private readonly query: Query | null;
  private readonly text: ((doc: Doc) => boolean) | null;
  /** Fast path for the commonest filter, `{ field: scalar, ... }`: no mingo query to compile. */
  private readonly equal: SimpleTerm[] | null;

  constructor(filter: unknown, opts: MatchOptions & { textFields?: string[] | null } = {}) {
    if (filter === undefined || filter === null) filter = {};
    if (!isPlainObject(filter)) throw new MongoError('TypeMismatch', 'Expected field filter to be of type object');
    this.raw = filter;
    let rest: Doc = filter;
    this.text = null;
    if ('$text' in filter) {
      const { $text, ...others } = filter;
      rest = others;
      this.text = textPredicate($text, opts.textFields ?? null);
    }
    this.equal = simpleEqualities(rest);
    try {
      this.query = Object.keys(rest).length && !this.equal ? new Query(rest, mingoOptions(opts)) : null;
    } catch (err) {
      throw new MongoError('BadValue', (err as Error).message);
    }
  }

  get isEmpty(): boolean {
    return this.query === null && this.text === null && this.equal === null;
  }

  test(doc: Doc): boolean {
    if (this.text && !this.text(doc)) return false;
    if (this.equal) return this.equal.every(({ path, key, not }) => equalAt(doc, path, key) !== not);
    if (!this.query) return true;
    try {
      return this.query.test(doc);
    } catch (err) {
      throw new MongoError('BadValue', (err as Error).message);
    }
  }
}

function isSimpleScalar(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(v);
  }
  if (v === null || v instanceof Date) return true;
  return typeof v === 'object' && (v as { _bsontype?: string })._bsontype === 'ObjectId';
}

/** An equality (or with `not`, a `$ne`) of one path to a scalar; `key` null for null. */
interface SimpleTerm {
  path: string;
  key: string | null;
  not: boolean;
}

/**
 * `{ a: 1, 'b.c': 'x', d: null, 'e.f': { $ne: 2 } }` as terms tested here; else null (mingo). `$ne`
 * of a value is exactly "not equal" in MongoDB, arrays included (the counter's guarded `$push` of
 * a new cart line filters by it).
 */
function simpleEqualities(filter: Doc): SimpleTerm[] | null {
  const keys = Object.keys(filter);
  if (!keys.length) return null;
  const out: SimpleTerm[] = [];
  for (const k of keys) {
    if (k.startsWith('$')) return null;
    let v = filter[k];
    let not = false;
    if (isPlainObject(v) && Object.keys(v).length === 1 && '$ne' in v) {
      // `$ne: null` stays with mingo: null's "or missing" through arrays is subtle.
      if (v.$ne === null) return null;
      v = v.$ne;
      not = true;
    }
    if (!isSimpleScalar(v)) return null;
    out.push({ path: k, key: v === null ? null : valueKey(v), not });
  }
  return out;
}

/** MongoDB equality at a path: a value (or an element of an array value) equals; null also matches missing. */
function equalAt(doc: Doc, path: string, key: string | null): boolean {
  const vals = pathValues(doc, path);
  if (key === null) return vals.length === 0 || vals.some((v) => v === null || (Array.isArray(v) && v.includes(null)));
  for (const v of vals) {
    if (Array.isArray(v)) {
      if (v.some((e) => valueKey(e) === key)) return true;
    } else if (valueKey(v) === key) return true;
  }
  return false;
}

function textTokens(s: string): string[] {
  return s
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** `$text` over the collection's text index fields: any term matches, phrases must all appear, negated terms must not. */
function textPredicate(spec: unknown, fields: string[] | null): (doc: Doc) => boolean {
  if (!isPlainObject(spec) || typeof spec.$search !== 'string') {
    throw new MongoError('BadValue', '$text requires a $search string');
  }
  if (!fields) throw new MongoError('IndexNotFound', 'text index required for $text query');
  const search = spec.$search;
  const phrases = [...search.matchAll(/"([^"]*)"/g)].map((m) => m[1].toLowerCase()).filter(Boolean);
  const words = search.replace(/"[^"]*"/g, ' ').split(/\s+/).filter(Boolean);
  const negated = words.filter((w) => w.startsWith('-')).flatMap((w) => textTokens(w.slice(1)));
  const terms = words.filter((w) => !w.startsWith('-')).flatMap(textTokens);
  const wildcard = fields.includes('$**');
  return (doc) => {
    const strings: string[] = [];
    const collect = (v: unknown) => {
      if (typeof v === 'string') strings.push(v);
      else if (Array.isArray(v)) v.forEach(collect);
      else if (wildcard && isPlainObject(v)) Object.values(v).forEach(collect);
    };
    if (wildcard) collect(doc);
    else for (const f of fields) pathValues(doc, f).forEach(collect);
    const text = strings.join(' ').toLowerCase();
    const tokens = new Set(textTokens(text));
    if (negated.some((t) => tokens.has(t))) return false;
    if (phrases.some((p) => !text.includes(p))) return false;
    if (terms.length === 0) return phrases.length > 0;
    return phrases.length > 0 || terms.some((t) => tokens.has(t));
  };
}

/** The value a document sorts by for one key: the smallest (ascending) or largest (descending) element. */
function sortValue(doc: Doc, path: string, dir: number): unknown {
  const vals = pathValues(doc, path);
  let best: unknown = undefined;
  let found = false;
  for (const v of vals) {
    const candidates = Array.isArray(v) ? v : [v];
    if (Array.isArray(v) && v.length === 0) continue;
    for (const c of candidates) {
      if (!found || (dir > 0 ? compareValues(c, best) < 0 : compareValues(c, best) > 0)) {
        best = c;
        found = true;
      }
    }
  }
  return found ? best : null;
}

const STRENGTH: Record<number, Intl.CollatorOptions['sensitivity']> = { 1: 'base', 2: 'accent', 3: 'variant' };

/** A comparator of documents for a sort specification `{ a: 1, b: -1 }`. */
export function sortComparator(spec: unknown, collation?: unknown): (a: Doc, b: Doc) => number {
  if (!isPlainObject(spec)) throw new MongoError('BadValue', 'sort must be an object');
  const keys = Object.keys(spec).map((path) => {
    const d = spec[path];
    let dir: number;
    if (isPlainObject(d) && '$meta' in d) dir = -1;
    else {
      dir = typeof d === 'number' ? d : Number(d);
      if (dir !== 1 && dir !== -1) {
        throw new MongoError('BadValue', '$sort key ordering must be 1 (for ascending) or -1 (for descending)');
      }
    }
    return { path, dir };
  });
  let collator: Intl.Collator | null = null;
  if (isPlainObject(collation) && typeof collation.locale === 'string' && collation.locale !== 'simple') {
    collator = new Intl.Collator(intlLocale(collation.locale), {
      sensitivity: STRENGTH[Number(collation.strength ?? 3)] ?? 'variant',
      numeric: collation.numericOrdering === true,
      caseFirst: (collation.caseFirst as Intl.CollatorOptions['caseFirst']) ?? undefined,
    });
  }
  return (a, b) => {
    for (const { path, dir } of keys) {
      const x = sortValue(a, path, dir);
      const y = sortValue(b, path, dir);
      const c = collator && typeof x === 'string' && typeof y === 'string' ? collator.compare(x, y) : compareValues(x, y);
      if (c) return c * dir;
    }
    return 0;
  };
}

export function stableSort<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => compare(a.item, b.item) || a.i - b.i)
    .map((x) => x.item);
}

/**
 * A find projection applied to result documents (never mutating them), `_id` first as MongoDB
 * returns it. `null` when the projection keeps whole documents.
 */
export function compileProjection(projection: unknown, opts: MatchOptions & { filter?: Doc } = {}): ((doc: Doc) => Doc) | null {
  if (projection === undefined || projection === null) return null;
  if (!isPlainObject(projection)) throw new MongoError('TypeMismatch', 'projection must be an object');
  const keys = Object.keys(projection);
  if (!keys.length) return null;
  const plain = plainProjection(projection, { recurseNestedArrays: false });
  if (plain) return plain;
  const excluding = keys.some((k) => {
    const v = projection[k];
    return (v === 0 || v === false) && k !== '_id';
  });
  const needsClone = excluding || keys.some((k) => projection[k] === 0 || projection[k] === false);
  let stage: Doc = projection;
  const positional = keys.find((k) => k.endsWith('.$'));
  if (positional) {
    stage = { ...projection };
    delete stage[positional];
    stage[positional.slice(0, -2)] = 1;
  }
  const options = mingoOptions(opts);
  let project: (docs: Doc[]) => Doc[];
  try {
    const projectOp = (pipelineOperators as unknown as Record<string, (c: LazyIterator, e: unknown, o: unknown) => LazyIterator>).$project;
    // Validate once up front so a bad projection is a clear error, not one per document.
    projectOp(Lazy([{}]), stage, { ...options, context: CONTEXT }).collect();
    project = (docs) => projectOp(Lazy(docs), stage, { ...options, context: CONTEXT }).collect() as Doc[];
  } catch (err) {
    throw new MongoError('BadValue', (err as Error).message);
  }
  return (doc) => {
    const src = needsClone ? (cloneDeepDoc(doc) as Doc) : doc;
    let out = Object.keys(stage).length ? project([src])[0] : { ...src };
    if (positional) out = applyPositional(doc, out, positional.slice(0, -2), opts.filter ?? {});
    if ('_id' in out && Object.keys(out)[0] !== '_id') {
      const { _id, ...rest } = out;
      out = { _id, ...rest };
    }
    return out;
  };
}

/** `field.$`: the first element of the array that matched the query's condition on that field. */
function applyPositional(doc: Doc, out: Doc, field: string, filter: Doc): Doc {
  const arr = pathValues(doc, field)[0];
  if (!Array.isArray(arr)) return out;
  const conds: Doc = {};
  for (const k of Object.keys(filter)) {
    if (k === field || k.startsWith(field + '.')) conds['e' + k.slice(field.length)] = filter[k];
  }
  const q = new Query(conds, mingoOptions());
  const hit = arr.find((el) => q.test({ e: el }));
  if (hit === undefined) return out;
  const result = { ...out };
  const parts = field.split('.');
  let cur = result as Doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = isPlainObject(cur[parts[i]]) ? { ...(cur[parts[i]] as Doc) } : {};
    cur[parts[i]] = next;
    cur = next;
  }
  cur[parts[parts.length - 1]] = [hit];
  return result;
}
