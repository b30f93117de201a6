/**
 * Plain field projections (`{ a: 1, 'b.c': 1, _id: 0 }` or `{ a: 0, 'b.c': 0 }`) compiled to a
 * function that builds the result straight from the stored document: no copy of the whole
 * document first and no general expression engine per document. Values the result keeps are
 * shared with the stored document, which is never modified in place. Anything else
 * (expressions, `$slice`, `$elemMatch`, positional, mixed or colliding paths) gives null and
 * stays with mingo, which also reports the errors.
 */
import { isPlainObject, type Doc } from './values';

/** Field name -> true (the whole value) or the sub-fields below it. */
interface Tree {
  [field: string]: true | Tree;
}

export interface PlainProjectionOptions {
  /**
   * An array directly inside an array is projected element by element ($project in a
   * pipeline); find's projection leaves it out of an inclusion and untouched in an exclusion
   * (MongoDB's ArrayRecursionPolicy).
   */
  recurseNestedArrays: boolean;
}

const own = Object.prototype.hasOwnProperty;

/** The compiled projection, or null when the spec is not a plain inclusion or exclusion of field paths. */
export function plainProjection(spec: unknown, opts: PlainProjectionOptions): ((doc: Doc) => Doc) | null {
  if (!isPlainObject(spec)) return null;
  const keys = Object.keys(spec);
  if (!keys.length) return null;
  let idSetting: boolean | null = null;
  let mode: 'include' | 'exclude' | null = null;
  const tree: Tree = Object.create(null) as Tree;
  for (const key of keys) {
    const v = spec[key];
    let on: boolean;
    if (v === 1 || v === true) on = true;
    else if (v === 0 || v === false) on = false;
    else return null;
    if (key === '_id') {
      idSetting = on;
      continue;
    }
    const parts = key.split('.');
    if (parts.some((p) => p === '' || p.startsWith('$') || p === '__proto__') || parts[0] === '_id') return null;
    const m = on ? 'include' : 'exclude';
    if (mode && mode !== m) return null;
    mode = m;
    let node = tree;
    for (let i = 0; i < parts.length; i++) {
      const cur = node[parts[i]];
      const last = i === parts.length - 1;
      // 'a' beside 'a.b' (either order) is a path collision: mingo reports it.
      if (cur === true || (last && cur !== undefined)) return null;
      if (last) node[parts[i]] = true;
      else node = (node[parts[i]] ??= Object.create(null) as Tree) as Tree;
    }
  }
  const recurse = opts.recurseNestedArrays;
  if (mode === 'exclude' || (mode === null && idSetting === false)) {
    if (idSetting === false) tree._id = true;
    return (doc) => excludeDoc(doc, tree, recurse);
  }
  const withId = idSetting !== false;
  if (mode === null) return (doc) => (withId && own.call(doc, '_id') ? { _id: doc._id } : {});
  return (doc) => {
    const out: Doc = {};
    // _id first, as MongoDB returns it.
    if (withId && own.call(doc, '_id')) out._id = doc._id;
    includeInto(out, doc, tree, withId, recurse);
    return out;
  };
}

function includeInto(out: Doc, doc: Doc, tree: Tree, skipId: boolean, recurse: boolean): void {
  for (const field of Object.keys(doc)) {
    if (skipId && field === '_id') continue;
    const sub = tree[field];
    if (sub === undefined) continue;
    const v = doc[field];
    if (sub === true) {
      if (v !== undefined) out[field] = v;
      continue;
    }
    const projected = includeValue(v, sub, recurse);
    if (projected !== undefined) out[field] = projected;
  }
}

/** A value under an inclusion's inner node: documents keep the listed fields, arrays project their elements, scalars go. */
function includeValue(v: unknown, tree: Tree, recurse: boolean): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const el of v) {
      if (Array.isArray(el)) {
        if (recurse) out.push(includeValue(el, tree, recurse));
      } else if (isPlainObject(el)) {
        out.push(includeValue(el, tree, recurse));
      }
    }
    return out;
  }
  if (isPlainObject(v)) {
    const out: Doc = {};
    includeInto(out, v, tree, false, recurse);
    return out;
  }
  return undefined;
}

function excludeDoc(doc: Doc, tree: Tree, recurse: boolean): Doc {
  const out: Doc = {};
  for (const field of Object.keys(doc)) {
    const sub = tree[field];
    const v = doc[field];
    if (sub === true) continue;
    if (sub === undefined) {
      if (field === '__proto__') Object.defineProperty(out, field, { value: v, enumerable: true, writable: true, configurable: true });
      else out[field] = v;
      continue;
    }
    out[field] = excludeValue(v, sub, recurse);
  }
  return out;
}

function excludeValue(v: unknown, tree: Tree, recurse: boolean): unknown {
  if (Array.isArray(v)) return v.map((el) => (Array.isArray(el) ? (recurse ? excludeValue(el, tree, recurse) : el) : excludeValue(el, tree, recurse)));
  if (isPlainObject(v)) return excludeDoc(v, tree, recurse);
  return v;
}
