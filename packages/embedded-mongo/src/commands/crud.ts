/** insert, update, delete, findAndModify, find, getMore, killCursors, count, distinct. */
import { Long, ObjectId } from 'bson';
import type { Collection, Entry } from '../collection';
import { MongoError, toMongoError } from '../errors';
import { compileProjection, sortComparator, stableSort, type Filter } from '../matcher';
import { applyChanges, idFirst, updateKind, upsertDocument } from '../update';
import { compareValues, isPlainObject, pathValues, typeName, valueKey, type Doc } from '../values';
import { collectionName, existing, optionalArray, optionalBatchSize, optionalDoc, optionalInt, unit, type Ctx, type Handler } from './context';

/** Errors that end a transaction attempt are reported as command errors, not write errors. */
function isTransactionFatal(err: MongoError): boolean {
  return err.code === 112 || err.code === 251 || err.code === 256;
}

/** A document about to be inserted: `_id` present (generated if missing) and first. */
export function prepareInsert(raw: unknown): Doc {
  if (!isPlainObject(raw)) throw new MongoError('TypeMismatch', 'document to insert must be an object');
  let doc = raw;
  if (doc._id === undefined) doc = { _id: new ObjectId(), ...doc };
  else doc = idFirst(doc);
  const id = doc._id;
  if (Array.isArray(id)) throw new MongoError('InvalidIdField', "The '_id' value cannot be of type array");
  if (id instanceof RegExp) throw new MongoError('InvalidIdField', "The '_id' value cannot be of type regex");
  for (const k of Object.keys(doc)) {
    if (k.startsWith('$')) throw new MongoError('DollarPrefixedFieldName', `Document can't have $ prefixed field names: ${k}`);
  }
  return doc;
}

function hasStrings(v: unknown): boolean {
  if (typeof v === 'string' || v instanceof RegExp) return true;
  if (Array.isArray(v)) return v.some(hasStrings);
  if (isPlainObject(v)) return Object.values(v).some(hasStrings);
  return false;
}

/** Collation changes string comparison in matching, which is not implemented: say so rather than answer wrongly. */
export function checkCollation(collation: Doc | undefined, filter: unknown): void {
  if (!collation || collation.locale === 'simple') return;
  const strength = Number(collation.strength ?? 3);
  if (strength >= 3 && collation.caseLevel !== true) return;
  if (hasStrings(filter)) {
    throw new MongoError('NotImplemented', 'matching strings under a collation of strength 1 or 2 is not supported by the embedded MongoDB server (collation applies to sorting only)');
  }
}

function filterFor(ctx: Ctx, coll: Collection | undefined, raw: unknown, stmt: Doc = {}): Filter {
  checkCollation(optionalDoc(stmt, 'collation'), raw);
  return ctx.engine.filter(coll, raw, {
    collation: optionalDoc(stmt, 'collation'),
    variables: optionalDoc(stmt, 'let') ?? optionalDoc(stmt, 'c'),
  });
}

/** The first entry matching, in `sort` order when given. */
function firstMatch(ctx: Ctx, coll: Collection, filter: Filter, sort: Doc | undefined, collation?: Doc): Entry | undefined {
  if (!sort || !Object.keys(sort).length) return coll.match(filter, ctx.txn, 1)[0];
  const entries = coll.match(filter, ctx.txn);
  const compare = sortComparator(sort, collation);
  let best: Entry | undefined;
  for (const e of entries) if (!best || compare(e.doc, best.doc) < 0) best = e;
  return best;
}

// ---- insert --------------------------------------------------------------------------------

const insert: Handler = async (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'insert');
  const docs = optionalArray(cmd, 'documents');
  if (!docs) throw new MongoError('FailedToParse', "BSON field 'insert.documents' is missing but a required field");
  const ordered = cmd.ordered !== false;
  const coll = ctx.engine.ensureCollection(ctx.db, name, ctx.w);
  let n = 0;
  const writeErrors: Doc[] = [];
  for (let i = 0; i < docs.length; i++) {
    try {
      const doc = prepareInsert(docs[i]);
      await unit(ctx, () => coll.insert(doc, ctx.w));
      n++;
    } catch (err) {
      const e = toMongoError(err);
      if (isTransactionFatal(e)) throw e;
      writeErrors.push(e.toWriteError(i));
      if (ordered) break;
    }
  }
  return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};

// ---- update --------------------------------------------------------------------------------

interface UpdateOutcome {
  matched: number;
  modified: number;
  upserted?: unknown;
}

async function updateOne(ctx: Ctx, name: string, stmt: Doc): Promise<UpdateOutcome> {
  const q = optionalDoc(stmt, 'q') ?? {};
  const u = stmt.u as Doc | Doc[];
  if (u === undefined) throw new MongoError('FailedToParse', "BSON field 'update.updates.u' is missing but a required field");
  const kind = updateKind(u);
  const multi = stmt.multi === true;
  if (multi && kind === 'replacement') {
    throw new MongoError('FailedToParse', 'multi update is not supported for replacement-style update');
  }
  const upsert = stmt.upsert === true;
  const arrayFilters = optionalArray(stmt, 'arrayFilters') as Doc[] | undefined;
  const variables = optionalDoc(stmt, 'c');
  const collation = optionalDoc(stmt, 'collation');
  const sort = optionalDoc(stmt, 'sort');
  let coll = existing(ctx, name);
  const filter = filterFor(ctx, coll, q, stmt);
  const applyOpts = { arrayFilters, filter: q, variables };
  const out: UpdateOutcome = { matched: 0, modified: 0 };

  if (coll && multi) {
    const c = coll;
    for (const e of c.match(filter, ctx.txn)) {
      const r = await unit(ctx, () => {
        const cur = c.visibleEntry(e.id, ctx.txn);
        if (!cur || !filter.test(cur.doc)) return 0;
        c.checkLock(cur.id, ctx.w);
        const next = applyChanges(cur.doc, u, applyOpts);
        if (!next.changed) return 1;
        c.replace(cur.id, next.doc, ctx.w, next.paths);
        return 2;
      });
      if (r) out.matched++;
      if (r === 2) out.modified++;
    }
  } else if (coll) {
    const c = coll;
    const r = await unit(ctx, () => {
      const cur = firstMatch(ctx, c, filter, sort, collation);
      if (!cur) return 0;
      c.checkLock(cur.id, ctx.w);
      const next = applyChanges(cur.doc, u, applyOpts);
      if (!next.changed) return 1;
      c.replace(cur.id, next.doc, ctx.w, next.paths);
      return 2;
    });
    if (r) out.matched = 1;
    if (r === 2) out.modified = 1;
  }
  if (out.matched === 0 && upsert) {
    coll ??= ctx.engine.ensureCollection(ctx.db, name, ctx.w);
    const c = coll;
    const doc = upsertDocument(q, u, applyOpts);
    await unit(ctx, () => c.insert(doc, ctx.w));
    out.upserted = doc._id;
  }
  return out;
}

const update: Handler = async (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'update');
  const updates = optionalArray(cmd, 'updates');
  if (!updates) throw new MongoError('FailedToParse', "BSON field 'update.updates' is missing but a required field");
  const ordered = cmd.ordered !== false;
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  const writeErrors: Doc[] = [];
  for (let i = 0; i < updates.length; i++) {
    try {
      const stmt = updates[i];
      if (!isPlainObject(stmt)) throw new MongoError('TypeMismatch', 'update statement must be an object');
      const r = await updateOne(ctx, name, stmt);
      n += r.matched;
      nModified += r.modified;
      if (r.upserted !== undefined) {
        n++;
        upserted.push({ index: i, _id: r.upserted });
      }
    } catch (err) {
      const e = toMongoError(err);
      if (isTransactionFatal(e)) throw e;
      writeErrors.push(e.toWriteError(i));
      if (ordered) break;
    }
  }
  const reply: Doc = { n, nModified };
  if (upserted.length) reply.upserted = upserted;
  if (writeErrors.length) reply.writeErrors = writeErrors;
  reply.ok = 1;
  return reply;
};

// ---- delete --------------------------------------------------------------------------------

async function deleteOne(ctx: Ctx, name: string, stmt: Doc): Promise<number> {
  const coll = existing(ctx, name);
  const q = optionalDoc(stmt, 'q');
  if (!q && stmt.q !== undefined) throw new MongoError('TypeMismatch', 'delete query must be an object');
  if (!coll) return 0;
  const filter = filterFor(ctx, coll, q ?? {}, stmt);
  const limit = optionalInt(stmt, 'limit') ?? 0;
  if (limit !== 0 && limit !== 1) throw new MongoError('FailedToParse', `The limit field in delete objects must be 0 or 1. Got ${limit}`);
  if (limit === 1) {
    return unit(ctx, () => {
      const e = coll.match(filter, ctx.txn, 1)[0];
      if (!e) return 0;
      coll.remove(e.id, ctx.w);
      return 1;
    });
  }
  let n = 0;
  for (const e of coll.match(filter, ctx.txn)) {
    n += await unit(ctx, () => {
      const cur = coll.visibleEntry(e.id, ctx.txn);
      if (!cur || !filter.test(cur.doc)) return 0;
      coll.remove(cur.id, ctx.w);
      return 1;
    });
  }
  return n;
}

const del: Handler = async (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'delete');
  const deletes = optionalArray(cmd, 'deletes');
  if (!deletes) throw new MongoError('FailedToParse', "BSON field 'delete.deletes' is missing but a required field");
  const ordered = cmd.ordered !== false;
  let n = 0;
  const writeErrors: Doc[] = [];
  for (let i = 0; i < deletes.length; i++) {
    try {
      const stmt = deletes[i];
      if (!isPlainObject(stmt)) throw new MongoError('TypeMismatch', 'delete statement must be an object');
      n += await deleteOne(ctx, name, stmt);
    } catch (err) {
      const e = toMongoError(err);
      if (isTransactionFatal(e)) throw e;
      writeErrors.push(e.toWriteError(i));
      if (ordered) break;
    }
  }
  return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};

// ---- findAndModify -------------------------------------------------------------------------

const findAndModify: Handler = async (ctx, cmd) => {
  const name = collectionName(ctx, cmd, Object.keys(cmd)[0]);
  const query = optionalDoc(cmd, 'query') ?? {};
  const sort = optionalDoc(cmd, 'sort');
  const remove = cmd.remove === true;
  const u = cmd.update as Doc | Doc[] | undefined;
  const returnNew = cmd.new === true;
  const upsert = cmd.upsert === true;
  const collation = optionalDoc(cmd, 'collation');
  const variables = optionalDoc(cmd, 'let');
  if (remove && u !== undefined) throw new MongoError('FailedToParse', 'Cannot specify both an update and remove=true');
  if (!remove && u === undefined) throw new MongoError('FailedToParse', 'Either an update or remove=true must be specified');
  if (remove && returnNew) throw new MongoError('FailedToParse', 'Cannot specify both new=true and remove=true; \'remove\' always returns the deleted document');
  if (remove && upsert) throw new MongoError('FailedToParse', 'Cannot specify both upsert=true and remove=true');
  if (u !== undefined) updateKind(u);
  const project = compileProjection(cmd.fields, { filter: query, variables });
  const shape = (doc: Doc | null) => (doc && project ? project(doc) : doc);
  let coll = existing(ctx, name);
  const filter = filterFor(ctx, coll, query, cmd);
  const applyOpts = { arrayFilters: optionalArray(cmd, 'arrayFilters') as Doc[] | undefined, filter: query, variables };

  const found = coll
    ? await unit(ctx, () => {
        const c = coll!;
        const cur = firstMatch(ctx, c, filter, sort, collation);
        if (!cur) return null;
        c.checkLock(cur.id, ctx.w);
        if (remove) {
          c.remove(cur.id, ctx.w);
          return { before: cur.doc, after: null as Doc | null };
        }
        const next = applyChanges(cur.doc, u!, applyOpts);
        if (next.changed) c.replace(cur.id, next.doc, ctx.w, next.paths);
        return { before: cur.doc, after: next.doc };
      })
    : null;

  if (found) {
    const lastErrorObject: Doc = remove ? { n: 1 } : { n: 1, updatedExisting: true };
    return { lastErrorObject, value: shape(remove || !returnNew ? found.before : found.after), ok: 1 };
  }
  if (upsert && !remove) {
    coll ??= ctx.engine.ensureCollection(ctx.db, name, ctx.w);
    const c = coll;
    const doc = upsertDocument(query, u!, applyOpts);
    await unit(ctx, () => c.insert(doc, ctx.w));
    return { lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id }, value: returnNew ? shape(doc) : null, ok: 1 };
  }
  return { lastErrorObject: remove ? { n: 0 } : { n: 0, updatedExisting: false }, value: null, ok: 1 };
};

// ---- find / getMore / killCursors ----------------------------------------------------------

/** No collation, or the simple one: strings sort by code point, as the index walk orders them. */
export function simpleCollation(collation: Doc | undefined): boolean {
  return !collation || collation.locale === 'simple';
}

export function sortDocs(docs: Doc[], sort: Doc | undefined, collation?: Doc): Doc[] {
  if (!sort || !Object.keys(sort).length) return docs;
  if ('$natural' in sort) return Number(sort.$natural) < 0 ? [...docs].reverse() : docs;
  return stableSort(docs, sortComparator(sort, collation));
}

const find: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'find');
  const ns = `${ctx.db}.${name}`;
  const coll = existing(ctx, name);
  const filter = filterFor(ctx, coll, cmd.filter ?? {}, cmd);
  const sort = optionalDoc(cmd, 'sort');
  const collation = optionalDoc(cmd, 'collation');
  const skip = optionalInt(cmd, 'skip') ?? 0;
  let limit = optionalInt(cmd, 'limit') ?? 0;
  let singleBatch = cmd.singleBatch === true;
  if (skip < 0) throw new MongoError('BadValue', 'skip value must be non-negative');
  if (limit < 0) {
    limit = -limit;
    singleBatch = true;
  }
  const batchSize = optionalBatchSize(cmd);
  const project = compileProjection(cmd.projection, { filter: filter.raw, variables: optionalDoc(cmd, 'let') });
  if (cmd.tailable === true) throw new MongoError('BadValue', 'error processing query: tailable cursor requested on non capped collection');
  let docs: Doc[] = [];
  if (coll) {
    const sorted = sort && Object.keys(sort).length > 0;
    const walked = sorted && !simpleCollation(collation) ? null : sorted ? coll.sortedMatch(filter, sort, ctx.txn, skip, limit) : null;
    if (walked) {
      docs = walked.map((e) => e.doc);
    } else {
      const entries = coll.match(filter, ctx.txn, !sorted && limit ? skip + limit : 0);
      docs = sortDocs(
        entries.map((e) => e.doc),
        sort,
        collation,
      );
      if (skip || limit) docs = docs.slice(skip, limit ? skip + limit : undefined);
    }
  }
  const { cursor } = ctx.engine.cursors.open(ns, docs, {
    batchSize: limit && (batchSize === undefined || batchSize > limit) ? limit : batchSize,
    singleBatch,
    project,
    sessionKey: ctx.session?.key ?? null,
  });
  return { cursor, ok: 1 };
};

function cursorId(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v instanceof Long) return v.toNumber();
  if (typeof v === 'bigint') return Number(v);
  throw new MongoError('TypeMismatch', `cursor id must be a number, got ${typeName(v)}`);
}

const getMore: Handler = (ctx, cmd) => {
  const id = cursorId(cmd.getMore);
  if (typeof cmd.collection !== 'string') throw new MongoError('TypeMismatch', "BSON field 'getMore.collection' is missing but a required field");
  const batchSize = optionalBatchSize(cmd) ?? 0;
  const { cursor } = ctx.engine.cursors.more(id, `${ctx.db}.${cmd.collection}`, batchSize);
  return { cursor, ok: 1 };
};

const killCursors: Handler = (ctx, cmd) => {
  const ids = (optionalArray(cmd, 'cursors') ?? []).map(cursorId);
  const { killed, notFound } = ctx.engine.cursors.kill(ids, `${ctx.db}.${String(cmd.killCursors)}`);
  return {
    cursorsKilled: killed.map((id) => Long.fromNumber(id)),
    cursorsNotFound: notFound.map((id) => Long.fromNumber(id)),
    cursorsAlive: [],
    cursorsUnknown: [],
    ok: 1,
  };
};

// ---- count / distinct ----------------------------------------------------------------------

const count: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'count');
  const coll = existing(ctx, name);
  if (!coll) return { n: 0, ok: 1 };
  const query = optionalDoc(cmd, 'query') ?? {};
  const skip = Math.max(0, optionalInt(cmd, 'skip') ?? 0);
  const limit = Math.abs(optionalInt(cmd, 'limit') ?? 0);
  let n = Object.keys(query).length ? coll.countMatches(filterFor(ctx, coll, query, cmd), ctx.txn) : coll.count(ctx.txn);
  n = Math.max(0, n - skip);
  if (limit) n = Math.min(n, limit);
  return { n, ok: 1 };
};

const distinct: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'distinct');
  if (typeof cmd.key !== 'string') throw new MongoError('TypeMismatch', "BSON field 'distinct.key' is missing but a required field");
  const key = cmd.key;
  const coll = existing(ctx, name);
  if (!coll) return { values: [], ok: 1 };
  const filter = filterFor(ctx, coll, optionalDoc(cmd, 'query') ?? {}, cmd);
  // Which strings count as one value depends on the collation: refused rather than answered by code point.
  checkCollation(optionalDoc(cmd, 'collation'), ['strings']);
  const seen = new Map<string, unknown>();
  for (const e of coll.match(filter, ctx.txn)) {
    for (const v of pathValues(e.doc, key)) {
      for (const x of Array.isArray(v) ? v : [v]) {
        const k = valueKey(x);
        if (!seen.has(k)) seen.set(k, x);
      }
    }
  }
  return { values: [...seen.values()].sort(compareValues), ok: 1 };
};

export const crudCommands: Record<string, Handler> = {
  insert,
  update,
  delete: del,
  findAndModify,
  findandmodify: findAndModify,
  find,
  getMore,
  killCursors,
  count,
  distinct,
};

