/**
 * Update documents: operator updates (`$set`, `$inc`, ...), replacements and pipeline updates,
 * plus the seed document of an upsert. Operators run on mingo's updater after the checks
 * MongoDB makes and mingo does not (type mismatches, path conflicts, immutable `_id`);
 * `$inc`/`$mul` on plain paths are done here so Long and Decimal128 stay exact.
 */
import { Decimal128, Long, ObjectId } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { update as mingoUpdate } from 'mingo/updater';
import { MongoError } from './errors';
import { mingoOptions } from './matcher';
import { cloneValue, getPath, inspectValue, isNumeric, isPlainObject, sameAtPath, sameBson, setPath, typeName, valueKey, type Doc } from './values';

const OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$currentDate',
  '$push',
  '$addToSet',
  '$pop',
  '$pull',
  '$pullAll',
  '$bit',
  '$setOnInsert',
]);

const PIPELINE_STAGES = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);

export type UpdateKind = 'operators' | 'replacement' | 'pipeline';

/** Classifies and validates an update's shape (not its effect on a document). */
export function updateKind(u: unknown): UpdateKind {
  if (Array.isArray(u)) {
    for (const stage of u) {
      const op = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (!op || !PIPELINE_STAGES.has(op)) {
        throw new MongoError('InvalidOptions', `Invalid update pipeline stage: ${op ?? inspectValue(stage)}. Only $addFields, $set, $project, $unset, $replaceRoot and $replaceWith are allowed`);
      }
    }
    return 'pipeline';
  }
  if (!isPlainObject(u)) throw new MongoError('FailedToParse', 'Update argument must be either an object or an array');
  const keys = Object.keys(u);
  if (keys.length && keys[0].startsWith('$')) {
    for (const k of keys) {
      if (!OPERATORS.has(k)) {
        throw new MongoError('FailedToParse', `Unknown modifier: ${k}. Expected a valid update modifier or pipeline-style update specified as an array`);
      }
      if (!isPlainObject(u[k])) {
        throw new MongoError('FailedToParse', `Modifiers operate on fields but we found type ${typeName(u[k])} instead. For example: {$mod: {<field>: ...}} not {${k}: ${inspectValue(u[k])}}`);
      }
    }
    return 'operators';
  }
  for (const k of keys) {
    if (k.startsWith('$')) throw new MongoError('DollarPrefixedFieldName', `The dollar ($) prefixed field '${k}' in '${k}' is not valid for storage.`);
  }
  return 'replacement';
}

export interface ApplyOptions {
  arrayFilters?: Doc[];
  /** The query, for the positional `$` operator. */
  filter?: Doc;
  /** Applying to an upsert's seed: `$setOnInsert` applies. */
  inserting?: boolean;
  variables?: Doc;
}

/** The document after the update (the input is left untouched). */
export function applyUpdate(old: Doc, u: Doc | Doc[], opts: ApplyOptions = {}): Doc {
  return applyChanges(old, u, opts).doc;
}

export interface Applied {
  /** The document after the update (`old` itself when nothing changed). */
  doc: Doc;
  /** Whether the stored BSON changes (MongoDB's nModified): 5 to Decimal128("5") does, $set of the value already there does not. */
  changed: boolean;
  /**
   * Where an operator update may have written: its paths cut at the first array index or
   * positional segment (`lines.$.qty` is `lines`); null for a replacement or pipeline (anywhere).
   * Indexes on none of these fields keep their entries.
   */
  paths: string[] | null;
}

/** Applies an update and tells whether, and where, it changed the document. */
export function applyChanges(old: Doc, u: Doc | Doc[], opts: ApplyOptions = {}): Applied {
  const kind = updateKind(u);
  let next: Doc;
  if (kind === 'replacement') {
    next = cloneValue(u as Doc);
    if ('_id' in next && old._id !== undefined && valueKey(next._id) !== valueKey(old._id)) {
      throw new MongoError('ImmutableField', `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${inspectValue(next._id)}`);
    }
    if (old._id !== undefined) next._id = old._id;
  } else if (kind === 'pipeline') {
    const agg = new Aggregator(u as Doc[], mingoOptions({ variables: opts.variables }));
    try {
      next = agg.run([cloneValue(old)])[0] as Doc;
    } catch (err) {
      throw new MongoError('BadValue', (err as Error).message);
    }
    if (old._id !== undefined) {
      if ('_id' in next && valueKey(next._id) !== valueKey(old._id)) {
        throw new MongoError('ImmutableField', `Performing an update on the path '_id' would modify the immutable field '_id'`);
      }
      next._id = old._id;
    }
  } else {
    const { doc, paths } = applyOperators(old, u as Doc, opts);
    const cut = paths.map(cutPath);
    // Only the written paths can differ: compare there, not the whole document.
    const changed = cut.some((p) => !sameAtPath(old, doc, p));
    return { doc: changed ? idFirst(doc) : old, changed, paths: cut };
  }
  next = idFirst(next);
  const changed = !sameBson(old, next);
  return { doc: changed ? next : old, changed, paths: null };
}

/** A path up to its first array index or positional segment (`a.$[x].b`, `a.0.b` are `a`). */
function cutPath(path: string): string {
  const parts = path.split('.');
  const i = parts.findIndex((p) => p.startsWith('$') || /^\d+$/.test(p));
  return i < 0 ? path : parts.slice(0, i).join('.');
}

/** `_id` as the first field, as MongoDB stores it. */
export function idFirst(doc: Doc): Doc {
  if (!('_id' in doc) || Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

function isPositional(path: string): boolean {
  return path.split('.').some((p) => p.startsWith('$'));
}

function checkConflicts(paths: string[]): void {
  const split = paths.map((p) => ({ p, parts: p.split('.') }));
  for (let i = 0; i < split.length; i++) {
    for (let j = i + 1; j < split.length; j++) {
      const a = split[i].parts;
      const b = split[j].parts;
      const n = Math.min(a.length, b.length);
      let prefix = true;
      for (let k = 0; k < n; k++) if (a[k] !== b[k]) prefix = false;
      if (prefix) {
        const [longer, shorter] = a.length >= b.length ? [split[i].p, split[j].p] : [split[j].p, split[i].p];
        throw new MongoError('ConflictingUpdateOperators', `Updating the path '${longer}' would create a conflict at '${shorter}'`);
      }
    }
  }
}

function idOf(doc: Doc): string {
  return `{_id: ${inspectValue(doc._id)}}`;
}

/** MongoDB's limit on the nulls an update may add to reach an array index. */
const MAX_ARRAY_BACKFILL = 1_500_000;

/** The value at each prefix of a plain path; throws PathNotViable where a scalar blocks the path. */
function checkViable(doc: Doc, path: string): void {
  const parts = path.split('.');
  let cur: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    // Setting a[i] pads the array with nulls up to i: MongoDB refuses to pad that far, and so must we (memory).
    if (Array.isArray(cur) && /^\d+$/.test(parts[i]) && Number(parts[i]) > cur.length + MAX_ARRAY_BACKFILL) {
      throw new MongoError('BadValue', `can't backfill more than ${MAX_ARRAY_BACKFILL} elements`);
    }
    if (i === parts.length - 1) break;
    if (cur === undefined) return;
    const part = parts[i];
    const next: unknown = Array.isArray(cur) ? (/^\d+$/.test(part) ? cur[Number(part)] : undefined) : (cur as Doc)[part];
    if (Array.isArray(cur) && !/^\d+$/.test(part)) {
      throw new MongoError('PathNotViable', `Cannot create field '${part}' in element {${parts[i - 1] ?? ''}: ${inspectValue(cur)}}`);
    }
    if (next !== undefined && next !== null && typeof next === 'object') {
      cur = next;
      continue;
    }
    if (next === undefined) return;
    throw new MongoError('PathNotViable', `Cannot create field '${parts[i + 1]}' in element {${part}: ${inspectValue(next)}}`);
  }
  if (Array.isArray(cur) && !/^\d+$/.test(parts[parts.length - 1])) {
    throw new MongoError('PathNotViable', `Cannot create field '${parts[parts.length - 1]}' in element {${parts[parts.length - 2] ?? ''}: ${inspectValue(cur)}}`);
  }
}

/** A `$push` argument that is one value to append (not `{ $each, $slice, ... }`). */
function isSinglePush(arg: unknown): boolean {
  return !isPlainObject(arg) || !Object.keys(arg).some((k) => k.startsWith('$'));
}

/**
 * Whether `$set`, `$unset` and a single-value `$push` of plain paths through objects only (the
 * commonest updates: every scan adds a cart line by `$push`) can be applied here: mingo's updater
 * copies its whole operator table on every call and needs a deep copy of the document. False for
 * anything else (arrays on the path, positional paths, `$push` modifiers, other operators), which
 * mingo applies. The caller has already checked the paths are viable and a `$push` target is an
 * array or missing.
 */
function plainSets(doc: Doc, rest: Doc): boolean {
  for (const [op, spec] of Object.entries(rest)) {
    if (op !== '$set' && op !== '$unset' && op !== '$push') return false;
    for (const [path, arg] of Object.entries(spec as Doc)) {
      if (op === '$push' && !isSinglePush(arg)) return false;
      const parts = path.split('.');
      let cur: unknown = doc;
      for (const part of parts) {
        if (part.startsWith('$') || Array.isArray(cur)) return false;
        if (cur === undefined || cur === null || typeof cur !== 'object') break;
        cur = (cur as Doc)[part];
      }
      if (Array.isArray(cur) && op === '$unset') return false;
    }
  }
  return true;
}

/**
 * Copies the sub-documents on the way to `path` that `doc` (a shallow copy) still shares with
 * the stored version, so a write there leaves that version (and the other fields) untouched.
 * `fresh` holds the objects already copied.
 */
function ownPath(doc: Doc, path: string, fresh: Set<unknown>): void {
  const parts = path.split('.');
  let cur: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]];
    // Anything else is replaced by setPath with new sub-documents.
    if (!isPlainObject(next) && !Array.isArray(next)) return;
    if (fresh.has(next)) {
      cur = next as Doc;
      continue;
    }
    // An array on the way ($inc of `a.0.b`) is copied too, as a new array.
    const copy = (Array.isArray(next) ? [...next] : { ...next }) as Doc;
    fresh.add(copy);
    cur[parts[i]] = copy;
    cur = copy;
  }
}

/** Applies what `plainSets` accepted to a shallow copy of the document (copy on write). */
function applyPlainSets(doc: Doc, rest: Doc, fresh: Set<unknown>): void {
  for (const [op, spec] of Object.entries(rest)) {
    for (const [path, arg] of Object.entries(spec as Doc)) {
      ownPath(doc, path, fresh);
      if (op === '$set') {
        setPath(doc, path, cloneValue(arg));
        continue;
      }
      if (op === '$push') {
        const target = getPath(doc, path);
        // A new array: the stored version keeps its own.
        setPath(doc, path, Array.isArray(target) ? [...target, cloneValue(arg)] : [cloneValue(arg)]);
        continue;
      }
      const parts = path.split('.');
      const parent = parts.length === 1 ? doc : getPath(doc, parts.slice(0, -1).join('.'));
      if (isPlainObject(parent)) delete (parent as Doc)[parts[parts.length - 1]];
    }
  }
}

function applyOperators(old: Doc, u: Doc, opts: ApplyOptions): { doc: Doc; paths: string[] } {
  const ops: Doc = { ...u };
  const setOnInsert = ops.$setOnInsert as Doc | undefined;
  delete ops.$setOnInsert;
  const paths: string[] = [];
  for (const [op, spec] of Object.entries(ops)) {
    for (const [path, arg] of Object.entries(spec as Doc)) {
      if (!path) throw new MongoError('BadValue', `An empty update path is not valid.`);
      paths.push(path);
      if (op === '$rename') {
        if (typeof arg !== 'string') throw new MongoError('BadValue', `The 'to' field for $rename must be a string: ${path}: ${inspectValue(arg)}`);
        paths.push(arg);
      }
    }
  }
  if (opts.inserting && setOnInsert) paths.push(...Object.keys(setOnInsert));
  checkConflicts(paths);

  // The checks read the stored version; the copy is made once the update's kind is known.
  const rest: Doc = {};
  const arithmetic: Array<{ op: string; path: string; arg: unknown; cur: unknown }> = [];
  for (const [op, spec] of Object.entries(ops)) {
    const entries = Object.entries(spec as Doc);
    if (op === '$inc' || op === '$mul') {
      const deferred: Doc = {};
      for (const [path, arg] of entries) {
        if (!isNumeric(arg)) {
          throw new MongoError('TypeMismatch', `Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${path}: ${inspectValue(arg)}}`);
        }
        if (isPositional(path)) {
          deferred[path] = arg;
          continue;
        }
        checkViable(old, path);
        const cur = getPath(old, path);
        if (cur !== undefined && !isNumeric(cur)) {
          throw new MongoError('TypeMismatch', `Cannot apply ${op} to a value of non-numeric type. ${idOf(old)} has the field '${path.split('.').pop()}' of non-numeric type ${typeName(cur)}`);
        }
        arithmetic.push({ op, path, arg, cur });
      }
      if (Object.keys(deferred).length) rest[op] = deferred;
      continue;
    }
    for (const [path, arg] of entries) {
      if (isPositional(path)) continue;
      if (op !== '$unset') checkViable(old, path);
      const cur = getPath(old, path);
      if ((op === '$push' || op === '$addToSet') && cur !== undefined && !Array.isArray(cur)) {
        throw new MongoError('BadValue', `The field '${path}' must be an array but is of type ${typeName(cur)} in document ${idOf(old)}`);
      }
      if ((op === '$pull' || op === '$pullAll') && cur !== undefined && !Array.isArray(cur)) {
        throw new MongoError('BadValue', `Cannot apply ${op} to a non-array value`);
      }
      if (op === '$pop' && cur !== undefined && !Array.isArray(cur)) {
        throw new MongoError('TypeMismatch', `Path '${path}' contains an element of non-array type '${typeName(cur)}'`);
      }
      if (op === '$pullAll' && !Array.isArray(arg)) {
        throw new MongoError('BadValue', `$pullAll requires an array argument but was given a ${typeName(arg)}`);
      }
      if (op === '$bit' && cur !== undefined && typeof cur !== 'number') {
        throw new MongoError('BadValue', `Cannot apply $bit to a value of non-integral type. ${idOf(old)} has the field ${path} of non-integer type ${typeName(cur)}`);
      }
    }
    rest[op] = spec;
  }
  if (opts.inserting && setOnInsert && Object.keys(setOnInsert).length) {
    rest.$set = { ...((rest.$set as Doc) ?? {}), ...setOnInsert };
  }
  // `_id` is immutable: $set to the same value is a no-op, to another value an error (an
  // upsert's new document may take it); any other operator on it is an error.
  let newId: unknown = undefined;
  for (const [op, spec] of Object.entries(rest)) {
    for (const path of Object.keys(spec as Doc)) {
      if (path !== '_id' && !path.startsWith('_id.')) continue;
      const value = (spec as Doc)[path];
      if (op === '$set' && path === '_id' && (old._id === undefined || valueKey(value) === valueKey(old._id))) {
        newId = value;
        const { _id: _omit, ...others } = spec as Doc;
        rest[op] = others;
        continue;
      }
      throw new MongoError('ImmutableField', `Performing an update on the path '_id' would modify the immutable field '_id'`);
    }
  }
  if (rest.$addToSet) rest.$addToSet = dedupeEach(rest.$addToSet as Doc);
  const plain = plainSets(old, rest);
  // The plain operators copy only what they write (the rest is shared with the stored
  // version, which is never changed in place); mingo writes anywhere, on a deep copy.
  const doc = plain ? { ...old } : cloneValue(old);
  const fresh = new Set<unknown>();
  if (plain) applyPlainSets(doc, rest, fresh);
  else if (Object.keys(rest).length) {
    const positional = Object.values(rest).some((spec) => Object.keys(spec as Doc).some(isPositional));
    try {
      mingoUpdate(doc, rest as never, opts.arrayFilters, positional ? (opts.filter ?? {}) : undefined, {
        cloneMode: 'copy',
        queryOptions: mingoOptions({ variables: opts.variables }),
      });
    } catch (err) {
      const message = (err as Error).message;
      throw new MongoError(/immutable field/.test(message) ? 'ImmutableField' : 'BadValue', message);
    }
  }
  if (newId !== undefined && old._id === undefined) doc._id = newId;
  // After mingo: positional operators test the query against the document as it was.
  for (const { op, path, arg, cur } of arithmetic) {
    if (plain) ownPath(doc, path, fresh);
    setPath(doc, path, op === '$inc' ? addNumbers(cur ?? 0, arg) : mulNumbers(cur ?? zeroLike(arg), arg));
  }
  if (old._id !== undefined && valueKey(doc._id) !== valueKey(old._id)) {
    throw new MongoError('ImmutableField', `Performing an update on the path '_id' would modify the immutable field '_id'`);
  }
  return { doc, paths };
}

/** `$addToSet: { f: { $each: [x, x] } }` adds x once (mingo would add it twice). */
function dedupeEach(spec: Doc): Doc {
  const out: Doc = {};
  for (const [path, arg] of Object.entries(spec)) {
    if (isPlainObject(arg) && Array.isArray(arg.$each)) {
      const seen = new Set<string>();
      out[path] = { ...arg, $each: arg.$each.filter((v) => !seen.has(valueKey(v)) && !!seen.add(valueKey(v))) };
    } else out[path] = arg;
  }
  return out;
}

// ---- exact arithmetic for $inc / $mul ------------------------------------------------------

interface Dec {
  m: bigint;
  e: number;
}

function toDec(v: unknown): Dec {
  let s = String(v);
  let exp = 0;
  const ei = s.search(/e/i);
  if (ei >= 0) {
    exp = Number(s.slice(ei + 1));
    s = s.slice(0, ei);
  }
  const neg = s.startsWith('-');
  if (neg || s.startsWith('+')) s = s.slice(1);
  const dot = s.indexOf('.');
  if (dot >= 0) {
    exp -= s.length - dot - 1;
    s = s.slice(0, dot) + s.slice(dot + 1);
  }
  const m = BigInt(s || '0');
  return { m: neg ? -m : m, e: exp };
}

function decToString(d: Dec): string {
  const neg = d.m < 0n;
  let digits = (neg ? -d.m : d.m).toString();
  let out: string;
  if (d.e >= 0) out = digits + '0'.repeat(d.e);
  else {
    const k = -d.e;
    if (digits.length <= k) digits = '0'.repeat(k - digits.length + 1) + digits;
    out = digits.slice(0, digits.length - k) + '.' + digits.slice(digits.length - k);
  }
  return (neg ? '-' : '') + out;
}

function isDecimal(v: unknown): boolean {
  return (v as { _bsontype?: string })?._bsontype === 'Decimal128';
}

function isLong(v: unknown): boolean {
  return (v as { _bsontype?: string })?._bsontype === 'Long';
}

function toBig(v: unknown): bigint {
  if (isLong(v)) return (v as Long).toBigInt();
  return BigInt(Math.trunc(Number(v)));
}

function zeroLike(v: unknown): unknown {
  if (isDecimal(v)) return Decimal128.fromString('0');
  if (isLong(v)) return Long.ZERO;
  return 0;
}

function addNumbers(a: unknown, b: unknown): unknown {
  if (isDecimal(a) || isDecimal(b)) {
    const x = toDec(a);
    const y = toDec(b);
    const e = Math.min(x.e, y.e);
    const m = x.m * 10n ** BigInt(x.e - e) + y.m * 10n ** BigInt(y.e - e);
    return Decimal128.fromString(decToString({ m, e }));
  }
  if ((isLong(a) || isLong(b)) && Number.isInteger(Number(a)) && Number.isInteger(Number(b))) {
    return Long.fromBigInt(toBig(a) + toBig(b));
  }
  const r = Number(a) + Number(b);
  return r;
}

function mulNumbers(a: unknown, b: unknown): unknown {
  if (isDecimal(a) || isDecimal(b)) {
    const x = toDec(a);
    const y = toDec(b);
    return Decimal128.fromString(decToString({ m: x.m * y.m, e: x.e + y.e }));
  }
  if ((isLong(a) || isLong(b)) && Number.isInteger(Number(a)) && Number.isInteger(Number(b))) {
    return Long.fromBigInt(toBig(a) * toBig(b));
  }
  return Number(a) * Number(b);
}

// ---- upserts -------------------------------------------------------------------------------

/** The document an upsert starts from: the filter's equality fields. */
export function upsertSeed(filter: Doc): Doc {
  const out: Doc = {};
  collectSeed(filter, out);
  return out;
}

function collectSeed(filter: Doc, out: Doc): void {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(v)) {
      for (const sub of v) if (isPlainObject(sub)) collectSeed(sub, out);
      continue;
    }
    if (k.startsWith('$')) continue;
    let value: unknown = v;
    if (v instanceof RegExp) continue;
    if (isPlainObject(v)) {
      const keys = Object.keys(v);
      if (keys.some((x) => x.startsWith('$'))) {
        if ('$eq' in v) value = v.$eq;
        else if (Array.isArray(v.$in) && v.$in.length === 1 && !(v.$in[0] instanceof RegExp)) value = v.$in[0];
        else continue;
      }
    }
    try {
      if (getPath(out, k) === undefined) setPath(out, k, cloneValue(value));
    } catch {
      // conflicting paths in the filter: MongoDB refuses them too; leave the field out.
    }
  }
}

/** The document an upsert inserts: the seed with the update applied and an `_id`. */
export function upsertDocument(filter: Doc, u: Doc | Doc[], opts: ApplyOptions): Doc {
  const seed = upsertSeed(filter);
  const kind = updateKind(u);
  let doc: Doc;
  if (kind === 'replacement') {
    doc = cloneValue(u as Doc);
    if (!('_id' in doc) && seed._id !== undefined) doc._id = seed._id;
  } else {
    doc = applyUpdate(seed, u, { ...opts, inserting: true, filter: undefined });
  }
  if (doc._id === undefined) doc._id = new ObjectId();
  return idFirst(doc);
}
