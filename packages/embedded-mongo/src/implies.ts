/**
 * When a query may use a partial or sparse index: MongoDB's rule that the query's predicate on
 * each field of the partialFilterExpression is a subset of the filter's (equality, `$in`,
 * `$exists: true`, `$type`, `$gt`/`$gte`/`$lt`/`$lte`, combined by `$and`), and that a sparse index
 * serves a query only when it excludes documents missing every indexed field. Conservative: what
 * it cannot prove is "not implied", so the planner scans instead of missing documents.
 */
import { compareValues, isPlainObject, matchesType, typeName, typeOrder, type Doc } from './values';

export interface Cond {
  op: string;
  val: unknown;
}

/** field -> its conditions (top level and inside `$and`); null when the document has operators this rule does not read. */
export function conditions(filter: Doc, out = new Map<string, Cond[]>(), strict = false): Map<string, Cond[]> | null {
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(v)) {
      for (const sub of v) if (!isPlainObject(sub) || !conditions(sub, out, strict)) return null;
      continue;
    }
    if (k.startsWith('$')) {
      if (strict) return null;
      continue;
    }
    const list = out.get(k) ?? [];
    if (isPlainObject(v) && Object.keys(v).some((op) => op.startsWith('$'))) {
      for (const [op, val] of Object.entries(v)) list.push({ op, val });
    } else list.push({ op: '$eq', val: v });
    out.set(k, list);
  }
  return out;
}

const RANGE = new Set(['$gt', '$gte', '$lt', '$lte']);
/** `$type` names whose values are exactly one comparison bracket. */
const BRACKET_OF_TYPE: Record<string, number> = { number: 3, string: 4, binData: 7, objectId: 8, bool: 9, date: 10, timestamp: 11 };

/** A value an equality lookup compares plainly (not null, an array, a sub-document or a regex). */
function plain(v: unknown): boolean {
  if (v === null || v === undefined || Array.isArray(v) || isPlainObject(v) || v instanceof RegExp) return false;
  const t = typeName(v);
  return t !== 'minKey' && t !== 'maxKey';
}

/** Whether the scalar `v` satisfies the filter condition `fc`. */
function satisfies(v: unknown, fc: Cond): boolean {
  if (!plain(v)) return false;
  switch (fc.op) {
    case '$eq':
      return plain(fc.val) && typeOrder(v) === typeOrder(fc.val) && compareValues(v, fc.val) === 0;
    case '$in':
      return Array.isArray(fc.val) && fc.val.some((x) => satisfies(v, { op: '$eq', val: x }));
    case '$exists':
      return !!fc.val;
    case '$type': {
      const types = Array.isArray(fc.val) ? fc.val : [fc.val];
      // 5 may be stored as an int or a double: only 'number' holds whatever the document stored.
      if (typeOrder(v) === 3) return types.includes('number');
      return types.some((t) => matchesType(v, t));
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      if (!plain(fc.val) || typeOrder(v) !== typeOrder(fc.val)) return false;
      const c = compareValues(v, fc.val);
      return fc.op === '$gt' ? c > 0 : fc.op === '$gte' ? c >= 0 : fc.op === '$lt' ? c < 0 : c <= 0;
    }
  }
  return false;
}

/** Whether the query condition `qc` (on the same field) implies the filter condition `fc`. */
function implies(qc: Cond, fc: Cond): boolean {
  if (qc.op === '$eq' || qc.op === '$in') {
    const vals = qc.op === '$eq' ? [qc.val] : qc.val;
    return Array.isArray(vals) && vals.length > 0 && vals.every((v) => satisfies(v, fc));
  }
  if (RANGE.has(qc.op)) {
    if (!plain(qc.val)) return false;
    if (fc.op === '$exists') return !!fc.val;
    if (fc.op === '$type') {
      const types = Array.isArray(fc.val) ? fc.val : [fc.val];
      return types.some((t) => typeof t === 'string' && BRACKET_OF_TYPE[t] === typeOrder(qc.val));
    }
    if (!RANGE.has(fc.op) || !plain(fc.val) || typeOrder(qc.val) !== typeOrder(fc.val)) return false;
    const lower = (op: string) => op === '$gt' || op === '$gte';
    if (lower(qc.op) !== lower(fc.op)) return false;
    const c = compareValues(qc.val, fc.val);
    // x > q (or >= q) implies x > f when q >= f (q > f if the query is inclusive and the filter strict).
    const qStrict = qc.op === '$gt' || qc.op === '$lt';
    const fStrict = fc.op === '$gt' || fc.op === '$lt';
    const beyond = lower(qc.op) ? c : -c;
    return beyond > 0 || (beyond === 0 && (qStrict || !fStrict));
  }
  if (qc.op === '$exists') return !!qc.val && fc.op === '$exists' && !!fc.val;
  if (qc.op === '$type') {
    if (fc.op === '$exists') return !!fc.val && !(Array.isArray(qc.val) ? qc.val : [qc.val]).some((t) => t === 'null' || t === 10 || t === 'undefined' || t === 6);
    return fc.op === '$type' && JSON.stringify(fc.val) === JSON.stringify(qc.val);
  }
  return false;
}

/** Whether every document the query matches also matches the (partial index) filter. */
export function queryImplies(query: Map<string, Cond[]>, filter: Map<string, Cond[]>): boolean {
  for (const [field, fcs] of filter) {
    const qcs = query.get(field);
    if (!qcs) return false;
    for (const fc of fcs) if (!qcs.some((qc) => implies(qc, fc))) return false;
  }
  return true;
}

/** Whether the query excludes documents missing all of `fields` (what a sparse index leaves out). */
export function queryNeedsOneOf(query: Map<string, Cond[]>, fields: string[]): boolean {
  const exists: Cond = { op: '$exists', val: true };
  return fields.some((f) => (query.get(f) ?? []).some((qc) => implies(qc, exists)));
}
