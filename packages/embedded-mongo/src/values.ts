/**
 * BSON values as they live in memory (what `bson` deserialises to with promoted values):
 * type classification, MongoDB's comparison order, hashing keys for indexes, cloning and
 * path traversal.
 */
import { BSON, ObjectId } from 'bson';

export type Doc = Record<string, unknown>;

type BsonLike = { _bsontype: string };

function bsonType(v: unknown): string | undefined {
  return v !== null && typeof v === 'object' && typeof (v as BsonLike)._bsontype === 'string'
    ? (v as BsonLike)._bsontype
    : undefined;
}

/** A collation locale as JavaScript's Intl reads it: MongoDB names them with underscores (`en_US`), BCP 47 with hyphens. */
export function intlLocale(locale: unknown): string {
  return String(locale).replace(/_/g, '-');
}

export function isPlainObject(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** MongoDB's type names, as `$type` and error messages spell them. `undefined` is "missing". */
export function typeName(v: unknown): string {
  switch (typeof v) {
    case 'undefined':
      return 'missing';
    case 'number':
      return Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 ? 'int' : 'double';
    case 'bigint':
      return 'long';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'function':
      return 'javascript';
    case 'symbol':
      return 'symbol';
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (v instanceof RegExp) return 'regex';
  if (v instanceof Uint8Array) return 'binData';
  switch (bsonType(v)) {
    case undefined:
      return 'object';
    case 'ObjectId':
    case 'ObjectID':
      return 'objectId';
    case 'Decimal128':
      return 'decimal';
    case 'Long':
      return 'long';
    case 'Int32':
      return 'int';
    case 'Double':
      return 'double';
    case 'Binary':
      return 'binData';
    case 'Timestamp':
      return 'timestamp';
    case 'BSONRegExp':
      return 'regex';
    case 'MinKey':
      return 'minKey';
    case 'MaxKey':
      return 'maxKey';
    case 'Code':
      return 'javascript';
    case 'BSONSymbol':
      return 'symbol';
    case 'DBRef':
      return 'object';
    default:
      return 'object';
  }
}

const TYPE_NUMBERS: Record<string, number> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  dbPointer: 12,
  javascript: 13,
  symbol: 14,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};

/** Whether `v` is of the `$type` alias or number `t` (`"number"` matches every numeric type). */
export function matchesType(v: unknown, t: unknown): boolean {
  const name = typeName(v);
  if (t === 'number') return name === 'int' || name === 'double' || name === 'long' || name === 'decimal';
  if (typeof t === 'number') return TYPE_NUMBERS[name] === t;
  return name === t;
}

export function isNumeric(v: unknown): boolean {
  if (typeof v === 'number' || typeof v === 'bigint') return true;
  const t = bsonType(v);
  return t === 'Long' || t === 'Decimal128' || t === 'Int32' || t === 'Double';
}

/** A numeric BSON value as a JS number (Decimal128 and large Longs lose precision). */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  const t = bsonType(v);
  if (t === 'Long') return (v as { toNumber(): number }).toNumber();
  if (t === 'Decimal128') return Number((v as { toString(): string }).toString());
  if (t === 'Int32' || t === 'Double') return (v as { valueOf(): number }).valueOf();
  return NaN;
}

/** MongoDB's canonical type order for comparisons and sorting. */
export function typeOrder(v: unknown): number {
  if (v === undefined || v === null) return 2;
  if (isNumeric(v)) return 3;
  switch (typeName(v)) {
    case 'minKey':
      return 1;
    case 'string':
    case 'symbol':
      return 4;
    case 'object':
      return 5;
    case 'array':
      return 6;
    case 'binData':
      return 7;
    case 'objectId':
      return 8;
    case 'bool':
      return 9;
    case 'date':
      return 10;
    case 'timestamp':
      return 11;
    case 'regex':
      return 12;
    case 'javascript':
      return 13;
    case 'maxKey':
      return 100;
    default:
      return 50;
  }
}

function cmp<T>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function bytesOf(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  const b = v as { buffer: Uint8Array };
  return b.buffer;
}

/** Compares two BSON values the way MongoDB orders them (-1, 0, 1). */
export function compareValues(a: unknown, b: unknown): number {
  const ta = typeOrder(a);
  const tb = typeOrder(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  switch (ta) {
    case 2:
    case 1:
    case 100:
      return 0;
    case 3: {
      const x = toNumber(a);
      const y = toNumber(b);
      if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1;
      if (Number.isNaN(y)) return 1;
      return cmp(x, y);
    }
    case 4:
      return cmp(String(a), String(b));
    case 5: {
      const ka = Object.keys(a as Doc);
      const kb = Object.keys(b as Doc);
      for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
        const va = (a as Doc)[ka[i]];
        const vb = (b as Doc)[kb[i]];
        const t = cmp(typeOrder(va), typeOrder(vb));
        if (t) return t;
        const k = cmp(ka[i], kb[i]);
        if (k) return k;
        const c = compareValues(va, vb);
        if (c) return c;
      }
      return cmp(ka.length, kb.length);
    }
    case 6: {
      const xa = a as unknown[];
      const xb = b as unknown[];
      for (let i = 0; i < Math.min(xa.length, xb.length); i++) {
        const c = compareValues(xa[i], xb[i]);
        if (c) return c;
      }
      return cmp(xa.length, xb.length);
    }
    case 7: {
      const ba = bytesOf(a);
      const bb = bytesOf(b);
      if (ba.length !== bb.length) return cmp(ba.length, bb.length);
      const sa = (a as { sub_type?: number }).sub_type ?? 0;
      const sb = (b as { sub_type?: number }).sub_type ?? 0;
      if (sa !== sb) return cmp(sa, sb);
      return Buffer.compare(Buffer.from(ba), Buffer.from(bb));
    }
    case 8:
      return cmp((a as ObjectId).toHexString(), (b as ObjectId).toHexString());
    case 9:
      return cmp(a ? 1 : 0, b ? 1 : 0);
    case 10:
      return cmp((a as Date).getTime(), (b as Date).getTime());
    case 11: {
      const x = a as { t: number; i: number };
      const y = b as { t: number; i: number };
      return cmp(x.t, y.t) || cmp(x.i, y.i);
    }
    case 12: {
      const x = a as RegExp;
      const y = b as RegExp;
      return cmp(x.source, y.source) || cmp(x.flags, y.flags);
    }
    default:
      return cmp(String(a), String(b));
  }
}

function numberKey(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (Object.is(n, -0)) return '0';
  return String(n);
}

/**
 * A string that is equal for values MongoDB's `$eq` treats as equal (1, 1.0, Long(1) and
 * Decimal128("1") share one) and different otherwise. Used for `_id` identity and index entries.
 */
export function valueKey(v: unknown): string {
  switch (typeof v) {
    case 'undefined':
      return 'z';
    case 'number':
      return 'n' + numberKey(v);
    case 'bigint':
      return 'n' + (Number.isSafeInteger(Number(v)) ? String(Number(v)) : v.toString());
    case 'string':
      return 's' + v;
    case 'boolean':
      return v ? 'b1' : 'b0';
  }
  if (v === null) return 'z';
  if (Array.isArray(v)) return 'a' + JSON.stringify(v.map(valueKey));
  if (v instanceof Date) return 'd' + v.getTime();
  if (v instanceof RegExp) return 'r/' + v.source + '/' + v.flags;
  if (v instanceof Uint8Array) return 'B0:' + Buffer.from(v).toString('base64');
  switch (bsonType(v)) {
    case undefined: {
      const parts: string[] = [];
      for (const k of Object.keys(v as Doc)) parts.push(k, valueKey((v as Doc)[k]));
      return 'O' + JSON.stringify(parts);
    }
    case 'ObjectId':
    case 'ObjectID':
      return 'o' + (v as ObjectId).toHexString();
    case 'Long': {
      const n = toNumber(v);
      return 'n' + (Number.isSafeInteger(n) ? numberKey(n) : String(v));
    }
    case 'Decimal128':
    case 'Int32':
    case 'Double':
      return 'n' + numberKey(toNumber(v));
    case 'Binary': {
      const b = v as { sub_type: number; buffer: Uint8Array };
      return 'B' + b.sub_type + ':' + Buffer.from(b.buffer).toString('base64');
    }
    case 'Timestamp':
      return 't' + String(v);
    case 'MinKey':
      return 'm';
    case 'MaxKey':
      return 'M';
    case 'BSONRegExp': {
      const r = v as { pattern: string; options: string };
      return 'r/' + r.pattern + '/' + r.options;
    }
    default:
      return 'x' + String(v);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const own = Object.prototype.hasOwnProperty;

/**
 * Whether two values are stored as the same BSON (MongoDB's test for a no-op update, which
 * compares bytes): unlike `valueKey`, 5 and Decimal128("5"), Decimal128("5.0") and
 * Decimal128("5"), 0 and -0, or { a, b } and { b, a } differ. Walks both without allocating.
 */
export function sameBson(a: unknown, b: unknown): boolean {
  if (typeof a === 'number') return typeof b === 'number' && Object.is(a, b);
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    // A missing field and an undefined one are both left out of the stored document.
    return a === undefined && b === undefined;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameBson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] !== kb[i] || !sameBson((a as Doc)[ka[i]], (b as Doc)[kb[i]])) return false;
    }
    return true;
  }
  if (isPlainObject(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Date) return Object.is(a.getTime(), (b as Date).getTime());
  if (a instanceof RegExp) return a.source === (b as RegExp).source && a.flags === (b as RegExp).flags;
  if (a instanceof Uint8Array) return sameBytes(a, b as Uint8Array);
  switch (bsonType(a)) {
    case 'ObjectId':
    case 'ObjectID':
      return (a as ObjectId).equals(b as ObjectId);
    case 'Decimal128':
      return sameBytes((a as { bytes: Uint8Array }).bytes, (b as { bytes: Uint8Array }).bytes);
    case 'Long': {
      const x = a as { low: number; high: number; unsigned: boolean };
      const y = b as typeof x;
      return x.low === y.low && x.high === y.high && x.unsigned === y.unsigned;
    }
    case 'Binary': {
      const x = a as { sub_type: number; buffer: Uint8Array; position: number };
      const y = b as typeof x;
      return x.sub_type === y.sub_type && x.position === y.position && sameBytes(x.buffer.subarray(0, x.position), y.buffer.subarray(0, y.position));
    }
    case 'MinKey':
    case 'MaxKey':
      return true;
  }
  // Rarer BSON values (Timestamp, Code, DBRef, ...): compare what they would be stored as.
  return sameBytes(BSON.serialize({ v: a }, { checkKeys: false, ignoreUndefined: true }), BSON.serialize({ v: b }, { checkKeys: false, ignoreUndefined: true }));
}

/**
 * Whether `a` and `b` hold the same BSON at `path` (dotted), compared where the path stops going
 * through sub-documents on either side (an array or scalar on the way is compared whole): what
 * an update that wrote only under `path` may have changed.
 */
export function sameAtPath(a: unknown, b: unknown, path: string): boolean {
  let x = a;
  let y = b;
  for (const part of path ? path.split('.') : []) {
    if (!isPlainObject(x) || !isPlainObject(y)) break;
    x = own.call(x, part) ? x[part] : undefined;
    y = own.call(y, part) ? y[part] : undefined;
  }
  return sameBson(x, y);
}

/** A deep copy of a document; BSON value objects (immutable) are shared. */
export function cloneValue<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(cloneValue) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (!isPlainObject(v)) return v;
  const out: Doc = {};
  for (const k of Object.keys(v)) {
    const val = cloneValue((v as Doc)[k]);
    if (k === '__proto__') Object.defineProperty(out, k, { value: val, enumerable: true, writable: true, configurable: true });
    else out[k] = val;
  }
  return out as T;
}

/**
 * Every value at a dotted path, following MongoDB's traversal: a non-numeric segment applied
 * to an array reaches into its elements; a numeric segment picks the element (and also looks
 * for a field of that name in element documents). Missing paths contribute nothing.
 */
export function pathValues(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  walk(doc, path.split('.'), 0, out);
  return out;
}

function walk(cur: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    if (cur !== undefined) out.push(cur);
    return;
  }
  if (cur === null || typeof cur !== 'object') return;
  const part = parts[i];
  if (Array.isArray(cur)) {
    if (/^\d+$/.test(part)) {
      const idx = Number(part);
      if (idx < cur.length) walk(cur[idx], parts, i + 1, out);
    }
    for (const el of cur) {
      if (el !== null && typeof el === 'object' && !Array.isArray(el)) walk(el, parts, i, out);
    }
    return;
  }
  if (!isPlainObject(cur)) return;
  if (!Object.prototype.hasOwnProperty.call(cur, part)) return;
  walk((cur as Doc)[part], parts, i + 1, out);
}

/** The single value at a path through sub-documents only (no array traversal); undefined if absent. */
export function getPath(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part)) return undefined;
      cur = cur[Number(part)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
      cur = (cur as Doc)[part];
    }
  }
  return cur;
}

/** Sets a value at a dotted path through sub-documents, creating them as needed. */
export function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]];
    if (next === null || typeof next !== 'object') {
      const created: Doc = {};
      cur[parts[i]] = created;
      cur = created;
    } else {
      cur = next as Doc;
    }
  }
  cur[parts[parts.length - 1]] = value;
}

/** Renders a value for error messages, close to the shell's notation. */
export function inspectValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[ ' + v.map(inspectValue).join(', ') + ' ]';
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v instanceof RegExp) return String(v);
  switch (bsonType(v)) {
    case 'ObjectId':
    case 'ObjectID':
      return `ObjectId('${(v as ObjectId).toHexString()}')`;
    case 'Decimal128':
      return `Decimal128("${String(v)}")`;
    case 'Long':
      return `${String(v)}`;
    case 'Binary':
      return `BinData(${(v as { sub_type: number }).sub_type}, ${Buffer.from((v as { buffer: Uint8Array }).buffer).toString('hex')})`;
    case undefined: {
      const keys = Object.keys(v as Doc);
      if (!keys.length) return '{}';
      return '{ ' + keys.map((k) => `${k}: ${inspectValue((v as Doc)[k])}`).join(', ') + ' }';
    }
    default:
      return String(v);
  }
}
