/** Databases, collections and indexes: create, drop, rename, list, stats. */
import { MongoError } from '../errors';
import { normaliseSpec, sameIndex, sameKeyPattern, type IndexSpec } from '../indexes';
import { Filter } from '../matcher';
import { isPlainObject, type Doc } from '../values';
import { validateDbName } from '../engine';
import { collectionName, existing, optionalArray, optionalBatchSize, optionalDoc, optionalInt, type Ctx, type Handler } from './context';

const ID_INDEX = { v: 2, key: { _id: 1 }, name: '_id_' };

function notFound(ctx: Ctx, name: string): MongoError {
  return new MongoError('NamespaceNotFound', `ns does not exist: ${ctx.db}.${name}`);
}

const CREATE_OPTIONS_IGNORED = new Set(['create', 'writeConcern', 'lsid', '$db', 'txnNumber', 'autocommit', 'startTransaction', '$clusterTime', '$readPreference', 'comment', 'apiVersion', 'apiStrict', 'apiDeprecationErrors', 'maxTimeMS']);

const create: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'create');
  if (cmd.viewOn !== undefined) throw new MongoError('NotImplemented', 'views are not supported by the embedded MongoDB server');
  if (cmd.timeseries !== undefined) throw new MongoError('NotImplemented', 'time series collections are not supported by the embedded MongoDB server');
  if (cmd.capped === true) throw new MongoError('NotImplemented', 'capped collections are not supported by the embedded MongoDB server');
  if (cmd.clusteredIndex !== undefined) throw new MongoError('NotImplemented', 'clustered collections are not supported by the embedded MongoDB server');
  const options: Doc = {};
  for (const [k, v] of Object.entries(cmd)) if (!CREATE_OPTIONS_IGNORED.has(k)) options[k] = v;
  ctx.engine.createCollection(ctx.db, name, options, ctx.w.pending);
  return { ok: 1 };
};

const drop: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'drop');
  const coll = existing(ctx, name);
  if (!coll) throw new MongoError('NamespaceNotFound', 'ns not found');
  const nIndexesWas = coll.indexes.length;
  ctx.engine.dropCollection(ctx.db, name, ctx.w.pending);
  return { nIndexesWas, ns: `${ctx.db}.${name}`, ok: 1 };
};

const dropDatabase: Handler = (ctx) => {
  ctx.engine.dropDatabase(ctx.db, ctx.w.pending);
  return { dropped: ctx.db, ok: 1 };
};

function splitNs(ns: unknown, field: string): { db: string; name: string } {
  if (typeof ns !== 'string' || !ns.includes('.')) throw new MongoError('InvalidNamespace', `Invalid ${field} namespace: ${String(ns)}`);
  const dot = ns.indexOf('.');
  return { db: validateDbName(ns.slice(0, dot)), name: ns.slice(dot + 1) };
}

const renameCollection: Handler = (ctx, cmd) => {
  if (ctx.db !== 'admin') throw new MongoError('Unauthorized', 'renameCollection may only be run against the admin database.');
  const from = splitNs(cmd.renameCollection, 'source');
  const to = splitNs(cmd.to, 'target');
  ctx.engine.renameCollection(from, to, cmd.dropTarget === true, ctx.w.pending);
  return { ok: 1 };
};

function collectionInfo(ctx: Ctx, nameOnly: boolean): Doc[] {
  return ctx.engine
    .collections(ctx.db)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((c) =>
      nameOnly
        ? { name: c.name, type: 'collection' }
        : { name: c.name, type: 'collection', options: c.options, info: { readOnly: false, uuid: c.uuid }, idIndex: ID_INDEX },
    );
}

const listCollections: Handler = (ctx, cmd) => {
  const filter = new Filter(optionalDoc(cmd, 'filter') ?? {});
  const docs = collectionInfo(ctx, cmd.nameOnly === true).filter((d) => filter.test(d));
  const cursorOpts = optionalDoc(cmd, 'cursor') ?? {};
  const { cursor } = ctx.engine.cursors.open(`${ctx.db}.$cmd.listCollections`, docs, {
    batchSize: optionalBatchSize(cursorOpts),
    sessionKey: ctx.session?.key ?? null,
  });
  return { cursor, ok: 1 };
};

const listDatabases: Handler = (ctx, cmd) => {
  if (ctx.db !== 'admin') throw new MongoError('Unauthorized', 'listDatabases may only be run against the admin database.');
  const filter = new Filter(optionalDoc(cmd, 'filter') ?? {});
  let totalSize = 0;
  const databases: Doc[] = [];
  for (const name of ctx.engine.databaseNames()) {
    const sizeOnDisk = ctx.engine.collections(name).reduce((n, c) => n + c.dataSize(), 0);
    const info = cmd.nameOnly === true ? { name } : { name, sizeOnDisk, empty: sizeOnDisk === 0 };
    if (!filter.test(info)) continue;
    totalSize += sizeOnDisk;
    databases.push(info);
  }
  return cmd.nameOnly === true ? { databases, ok: 1 } : { databases, totalSize, totalSizeMb: Math.round(totalSize / 1048576), ok: 1 };
};

const collMod: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'collMod');
  const coll = existing(ctx, name);
  if (!coll) throw notFound(ctx, name);
  const reply: Doc = { ok: 1 };
  for (const [k, v] of Object.entries(cmd)) {
    if (k === 'collMod' || CREATE_OPTIONS_IGNORED.has(k)) continue;
    if (k === 'index') {
      const spec = optionalDoc(cmd, 'index')!;
      const index = coll.indexes.find((i) => (spec.name ? i.name === spec.name : JSON.stringify(i.spec.key) === JSON.stringify(spec.keyPattern)));
      if (!index) throw new MongoError('IndexNotFound', `cannot find index ${JSON.stringify(spec.name ?? spec.keyPattern)} for ns ${coll.ns}`);
      if (spec.expireAfterSeconds !== undefined) {
        reply.expireAfterSeconds_old = index.spec.expireAfterSeconds;
        index.spec.expireAfterSeconds = Number(spec.expireAfterSeconds);
        reply.expireAfterSeconds_new = index.spec.expireAfterSeconds;
      }
      if (spec.hidden !== undefined) index.spec.hidden = spec.hidden === true;
      continue;
    }
    if (k === 'validator') coll.setValidator({ validator: v });
    coll.options[k] = v;
  }
  ctx.engine.saveCatalog(coll, ctx.w.pending);
  return reply;
};

// ---- indexes -------------------------------------------------------------------------------

const createIndexes: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'createIndexes');
  const specs = optionalArray(cmd, 'indexes');
  if (!specs || !specs.length) throw new MongoError('BadValue', 'Must specify at least one index to create');
  const created = !existing(ctx, name);
  const coll = ctx.engine.ensureCollection(ctx.db, name, ctx.w);
  const before = coll.indexes.length;
  const wanted: IndexSpec[] = [];
  for (const raw of specs) {
    const spec = normaliseSpec(raw);
    const existingSpec: IndexSpec | undefined = coll.indexes.find((i) => i.name === spec.name)?.spec ?? wanted.find((s) => s.name === spec.name);
    if (existingSpec) {
      if (sameIndex(existingSpec, spec)) continue;
      if (spec.name === '_id_' && JSON.stringify(spec.key) === JSON.stringify({ _id: 1 })) continue;
      throw new MongoError(
        sameKeyPattern(existingSpec, spec) ? 'IndexOptionsConflict' : 'IndexKeySpecsConflict',
        `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existingSpec)}`,
      );
    }
    const sameKey = coll.indexes.find((i) => sameKeyPattern(i.spec, spec));
    if (sameKey) {
      if (sameIndex(sameKey.spec, spec)) {
        throw new MongoError('IndexOptionsConflict', `Index already exists with a different name: ${sameKey.name}`);
      }
      throw new MongoError('IndexOptionsConflict', `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameKey.spec)}`);
    }
    if (Object.values(spec.key).includes('text') && coll.indexes.some((i) => i.textFields)) {
      throw new MongoError('IndexOptionsConflict', 'only one text index per collection allowed');
    }
    wanted.push(spec);
  }
  // Build all first so a duplicate key in one leaves none of them behind.
  const built = wanted.map((spec) => coll.buildIndex(spec));
  coll.indexes.push(...built);
  if (built.length) ctx.engine.saveCatalog(coll, ctx.w.pending);
  const reply: Doc = { numIndexesBefore: before, numIndexesAfter: coll.indexes.length, createdCollectionAutomatically: created };
  if (!built.length) reply.note = 'all indexes already exist';
  reply.ok = 1;
  return reply;
};

const listIndexes: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'listIndexes');
  const coll = existing(ctx, name);
  if (!coll) throw notFound(ctx, name);
  const cursorOpts = optionalDoc(cmd, 'cursor') ?? {};
  const { cursor } = ctx.engine.cursors.open(
    `${ctx.db}.$cmd.listIndexes.${name}`,
    coll.indexes.map((i) => ({ ...i.spec })),
    { batchSize: optionalBatchSize(cursorOpts), sessionKey: ctx.session?.key ?? null },
  );
  return { cursor, ok: 1 };
};

const dropIndexes: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, Object.keys(cmd)[0]);
  const coll = existing(ctx, name);
  if (!coll) throw notFound(ctx, name);
  const nIndexesWas = coll.indexes.length;
  const target = cmd.index;
  let names: string[];
  if (target === '*') {
    names = coll.indexes.filter((i) => !i.isId).map((i) => i.name);
  } else if (typeof target === 'string') {
    names = [target];
  } else if (Array.isArray(target)) {
    names = target.map(String);
  } else if (isPlainObject(target)) {
    const match = coll.indexes.filter((i) => JSON.stringify(i.spec.key) === JSON.stringify(target));
    if (!match.length) throw new MongoError('IndexNotFound', `can't find index with key: ${JSON.stringify(target)}`);
    names = match.map((i) => i.name);
  } else {
    throw new MongoError('TypeMismatch', "BSON field 'dropIndexes.index' is missing but a required field");
  }
  for (const n of names) {
    const index = coll.indexes.find((i) => i.name === n);
    if (!index) throw new MongoError('IndexNotFound', `index not found with name [${n}]`);
    if (index.isId) throw new MongoError('InvalidOptions', 'cannot drop _id index');
  }
  for (const n of names) coll.indexes.splice(coll.indexes.findIndex((i) => i.name === n), 1);
  ctx.engine.saveCatalog(coll, ctx.w.pending);
  return { nIndexesWas, ok: 1 };
};

// ---- stats ---------------------------------------------------------------------------------

const dbStats: Handler = (ctx, cmd) => {
  const scale = optionalInt(cmd, 'scale') ?? 1;
  const colls = ctx.engine.collections(ctx.db);
  const objects = colls.reduce((n, c) => n + c.entries.size, 0);
  const dataSize = colls.reduce((n, c) => n + c.dataSize(), 0);
  const indexes = colls.reduce((n, c) => n + c.indexes.length, 0);
  return {
    db: ctx.db,
    collections: colls.length,
    views: 0,
    objects,
    avgObjSize: objects ? dataSize / objects : 0,
    dataSize: dataSize / scale,
    storageSize: dataSize / scale,
    indexes,
    indexSize: 0,
    totalSize: dataSize / scale,
    scaleFactor: scale,
    fsUsedSize: 0,
    fsTotalSize: 0,
    ok: 1,
  };
};

const collStats: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'collStats');
  const coll = existing(ctx, name);
  if (!coll) throw notFound(ctx, name);
  const size = coll.dataSize();
  const count = coll.entries.size;
  return {
    ns: coll.ns,
    count,
    size,
    avgObjSize: count ? Math.round(size / count) : 0,
    storageSize: size,
    nindexes: coll.indexes.length,
    totalIndexSize: 0,
    indexSizes: Object.fromEntries(coll.indexes.map((i) => [i.name, 0])),
    capped: false,
    ok: 1,
  };
};

const validate: Handler = (ctx, cmd) => {
  const name = collectionName(ctx, cmd, 'validate');
  const coll = existing(ctx, name);
  if (!coll) throw notFound(ctx, name);
  return { ns: coll.ns, nrecords: coll.entries.size, nIndexes: coll.indexes.length, valid: true, errors: [], warnings: [], ok: 1 };
};

export const catalogCommands: Record<string, Handler> = {
  create,
  drop,
  dropDatabase,
  renameCollection,
  listCollections,
  listDatabases,
  collMod,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
  dbStats,
  dbstats: dbStats,
  collStats,
  collstats: collStats,
  validate,
};
