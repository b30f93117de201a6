/**
 * aggregate (and explain). Leading `$match` stages use the collection's indexes; the rest of
 * the pipeline runs on mingo over copies of the matched documents. `$lookup`, `$unionWith` and
 * `$graphLookup` read other collections of the database; `$out` and `$merge` write here.
 */
import { Aggregator } from 'mingo/aggregator';
import { MongoError, toMongoError } from '../errors';
import { OpType } from 'mingo/core';
import type { Collection } from '../collection';
import { CONTEXT, mingoOptions, type Filter } from '../matcher';
import { plainProjection } from '../projection';
import { cloneValue, isPlainObject, type Doc } from '../values';
import { checkCollation, prepareInsert, simpleCollation, sortDocs } from './crud';
import { collectionName, existing, optionalArray, optionalBatchSize, optionalDoc, unit, type Ctx, type Handler } from './context';

/** Stages handled here rather than by mingo. */
const OWN_STAGES = new Set(['$out', '$merge', '$collStats', '$indexStats', '$documents']);

const NOT_SUPPORTED = new Set(['$changeStream', '$currentOp', '$listSessions', '$listLocalSessions', '$search', '$searchMeta', '$vectorSearch', '$geoNear', '$planCacheStats']);

/** Stages that build new documents and never modify the ones they receive. */
const READ_ONLY_STAGES = new Set(['$match', '$group', '$sort', '$limit', '$skip', '$count', '$sortByCount', '$sample', '$bucket', '$bucketAuto', '$lookup', '$unionWith']);

function readOnly(pipeline: Doc[]): boolean {
  return pipeline.every((stage) => {
    const [name] = Object.keys(stage);
    const spec = stage[name];
    if (name === '$facet' && isPlainObject(spec)) return Object.values(spec).every((p) => Array.isArray(p) && readOnly(p as Doc[]));
    if (name === '$project' && isPlainObject(spec)) return !Object.values(spec).some((v) => v === 0 || v === false);
    // $unwind writes into its input when it keeps empty arrays or records the index.
    if (name === '$unwind') return typeof spec === 'string' || (isPlainObject(spec) && spec.includeArrayIndex === undefined && spec.preserveNullAndEmptyArrays !== true);
    return READ_ONLY_STAGES.has(name);
  });
}

function stageName(stage: unknown): string {
  if (!isPlainObject(stage) || Object.keys(stage).length !== 1) {
    throw new MongoError('Location40324', 'A pipeline stage specification object must contain exactly one field.');
  }
  return Object.keys(stage)[0];
}

/**
 * Names and specs of a pipeline's stages, each checked (one field, a known and supported stage),
 * and so are the sub-pipelines of $facet: mingo and readOnly() take them as they are.
 */
function checkStages(pipeline: unknown[]): { name: string; spec: unknown }[] {
  return pipeline.map((s) => {
    const name = stageName(s);
    const spec = (s as Doc)[name];
    if (NOT_SUPPORTED.has(name)) throw new MongoError('NotImplemented', `${name} is not supported by the embedded MongoDB server`);
    if (!OWN_STAGES.has(name) && !CONTEXT.getOperator(OpType.PIPELINE, name)) {
      throw new MongoError('Location40324', `Unrecognized pipeline stage name: '${name}'`);
    }
    if (name === '$facet') {
      if (!isPlainObject(spec)) throw new MongoError('Location15947', 'the $facet specification must be an object');
      for (const [key, sub] of Object.entries(spec)) {
        if (!Array.isArray(sub)) throw new MongoError('Location40170', `arguments to $facet must be arrays, ${key} is type ${typeof sub}`);
        checkStages(sub);
      }
    }
    return { name, spec };
  });
}

/** Documents of `name` in this database as the caller sees them (copies: stages may modify them). */
function resolver(ctx: Ctx) {
  return (name: string): Doc[] => {
    const coll = existing(ctx, name);
    if (!coll) return [];
    return [...coll.visible(ctx.txn)].map((e) => cloneValue(e.doc));
  };
}

/**
 * The pipeline's result. A plain `$project` that ends a pipeline reading a collection is not
 * applied here but returned as `project`, for the cursor to apply batch by batch.
 */
export async function runPipeline(
  ctx: Ctx,
  source: { collection?: string; documents?: Doc[] },
  pipeline: unknown[],
  cmd: Doc,
): Promise<{ docs: Doc[]; project: ((doc: Doc) => Doc) | null }> {
  const stages = checkStages(pipeline);
  const variables = optionalDoc(cmd, 'let');
  const collation = optionalDoc(cmd, 'collation');
  // `$match` anywhere in the pipeline compares strings under the collation: refused as find refuses it.
  checkCollation(collation, stages.filter((s) => s.name === '$match').map((s) => s.spec));
  const last = stages[stages.length - 1];
  const writeStage = last && (last.name === '$out' || last.name === '$merge') ? stages.pop()! : null;
  if (stages.some((s) => s.name === '$out' || s.name === '$merge')) {
    throw new MongoError('Location40324', '$out and $merge can only be the final stage in the pipeline');
  }

  let input: Doc[];
  let i = 0;
  if (source.documents) {
    input = source.documents;
  } else if (stages[0]?.name === '$documents') {
    const docs = stages[0].spec;
    if (!Array.isArray(docs)) throw new MongoError('BadValue', '$documents must be an array of documents');
    input = docs as Doc[];
    i = 1;
  } else if (stages[0]?.name === '$collStats' || stages[0]?.name === '$indexStats') {
    input = statsStage(ctx, source.collection!, stages[0].name, stages[0].spec);
    i = 1;
  } else {
    const coll = source.collection ? existing(ctx, source.collection) : undefined;
    if (!coll) {
      input = [];
    } else {
      // Leading $match stages (merged) run on the collection with its indexes.
      const matches: Doc[] = [];
      while (i < stages.length && stages[i].name === '$match') matches.push(stages[i++].spec as Doc);
      let filter: Filter | null = null;
      if (matches.length) filter = ctx.engine.filter(coll, matches.length === 1 ? matches[0] : { $and: matches }, { collation, variables });
      const counted = filter && !writeStage ? countOnly(stages.slice(i)) : null;
      if (filter && counted) {
        // countDocuments: `$match` then `$group { _id: <const>, n: { $sum: 1 } }`, counted from the index when it can be.
        const n = coll.countMatches(filter, ctx.txn);
        return { docs: n ? [{ _id: counted.id, [counted.field]: n }] : [], project: null };
      }
      const sort = stages[i]?.name === '$sort' && isPlainObject(stages[i].spec) && simpleCollation(collation) ? (stages[i].spec as Doc) : null;
      const walked = sort ? coll.sortedMatch(filter ?? ctx.engine.filter(coll, {}), sort, ctx.txn, 0, pagedLimit(stages, i + 1)) : null;
      let docs: Doc[];
      if (walked) {
        docs = walked.map((e) => e.doc);
        i++;
      } else {
        docs = filter ? coll.match(filter, ctx.txn).map((e) => e.doc) : [...coll.visible(ctx.txn)].map((e) => e.doc);
        if (stages[i]?.name === '$sort' && isPlainObject(stages[i].spec)) docs = sortDocs(docs, stages[i++].spec as Doc, collation);
      }
      // A plain $project builds new documents from the stored ones (sharing the values it keeps).
      const project = stages[i]?.name === '$project' ? plainProjection(stages[i].spec, { recurseNestedArrays: true }) : null;
      if (project) {
        i++;
        if (i === stages.length && !writeStage) return { docs, project };
        docs = docs.map(project);
      }
      // Stored documents are shared: copy them only if a later stage may modify its input.
      input = readOnly(stages.slice(i).map((s) => ({ [s.name]: s.spec }))) ? docs : docs.map(cloneValue);
    }
  }

  const rest = stages.slice(i).map((s) => ({ [s.name]: s.spec }));
  let out = input;
  if (rest.length) {
    try {
      out = new Aggregator(rest, mingoOptions({ collation, variables, collectionResolver: resolver(ctx) })).run(input) as Doc[];
    } catch (err) {
      const e = toMongoError(err);
      throw e.code === 1 ? new MongoError('BadValue', e.message) : e;
    }
  }
  if (writeStage) {
    await writeResults(ctx, writeStage.name, writeStage.spec, out);
    return { docs: [], project: null };
  }
  return { docs: out, project: null };
}

function statsStage(ctx: Ctx, name: string, stage: string, spec: unknown): Doc[] {
  const coll = existing(ctx, name);
  if (stage === '$indexStats') {
    return (coll?.indexes ?? []).map((i) => ({ name: i.name, key: i.spec.key, host: `${ctx.server.host}:${ctx.server.port}`, accesses: { ops: 0, since: new Date(ctx.server.startedAt) }, spec: i.spec }));
  }
  if (!coll) throw new MongoError('NamespaceNotFound', `Unable to retrieve storageStats in $collStats stage :: caused by :: Collection [${ctx.db}.${name}] not found.`);
  const out: Doc = { ns: coll.ns, host: `${ctx.server.host}:${ctx.server.port}`, localTime: new Date() };
  const s = isPlainObject(spec) ? spec : {};
  const size = coll.dataSize();
  if (s.count !== undefined) out.count = coll.count(ctx.txn);
  if (s.storageStats !== undefined) {
    out.storageStats = { size, count: coll.entries.size, avgObjSize: coll.entries.size ? Math.round(size / coll.entries.size) : 0, storageSize: size, nindexes: coll.indexes.length, totalIndexSize: 0, capped: false };
  }
  return [out];
}

async function writeResults(ctx: Ctx, stage: string, spec: unknown, docs: Doc[]): Promise<void> {
  if (ctx.txn) throw new MongoError('OperationNotSupportedInTransaction', `${stage} cannot be used in a transaction`);
  let db = ctx.db;
  let name: string;
  let on: string[] = ['_id'];
  let whenMatched: unknown = 'merge';
  let whenNotMatched = 'insert';
  if (typeof spec === 'string') name = spec;
  else if (isPlainObject(spec)) {
    const into = stage === '$out' ? spec : spec.into;
    if (typeof into === 'string') name = into;
    else if (isPlainObject(into) && typeof into.coll === 'string') {
      name = into.coll;
      if (typeof into.db === 'string') db = into.db;
    } else throw new MongoError('BadValue', `${stage} requires a target collection`);
    if (stage === '$merge') {
      if (typeof spec.on === 'string') on = [spec.on];
      else if (Array.isArray(spec.on)) on = spec.on.map(String);
      if (spec.whenMatched !== undefined) whenMatched = spec.whenMatched;
      if (typeof spec.whenNotMatched === 'string') whenNotMatched = spec.whenNotMatched;
    }
  } else throw new MongoError('BadValue', `${stage} requires a target collection`);

  if (stage === '$out') {
    // Replace the target's documents (keeping its indexes) only once every document is valid.
    const prepared = docs.map(prepareInsert);
    const target = ctx.engine.collection(db, name) ?? ctx.engine.createCollection(db, name, {}, ctx.w.pending);
    for (const e of [...target.entries.values()]) await unit(ctx, () => target.remove(e.id, ctx.w));
    for (const doc of prepared) await unit(ctx, () => target.insert(doc, ctx.w));
    return;
  }

  const target = ctx.engine.collection(db, name) ?? ctx.engine.createCollection(db, name, {}, ctx.w.pending);
  for (const raw of docs) {
    const doc = prepareInsert(raw);
    const filter: Doc = {};
    for (const f of on) filter[f] = doc[f] ?? null;
    await unit(ctx, () => {
      const match = target.match(ctx.engine.filter(target, filter), ctx.txn, 1)[0];
      if (!match) {
        if (whenNotMatched === 'insert') target.insert(doc, ctx.w);
        else if (whenNotMatched === 'fail') throw new MongoError('Location40324', '$merge could not find a matching document in the target collection');
        return;
      }
      let next: Doc;
      if (whenMatched === 'replace') next = { ...doc, _id: match.doc._id };
      else if (whenMatched === 'keepExisting') return;
      else if (whenMatched === 'fail') throw target.duplicate(target.indexes[0], match.doc);
      else if (whenMatched === 'merge') next = { ...match.doc, ...doc, _id: match.doc._id };
      else if (Array.isArray(whenMatched)) {
        next = new Aggregator(whenMatched as Doc[], mingoOptions({ variables: { new: doc } })).run([cloneValue(match.doc)])[0] as Doc;
        next._id = match.doc._id;
      } else throw new MongoError('BadValue', `unsupported whenMatched: ${JSON.stringify(whenMatched)}`);
      target.replace(match.id, next, ctx.w);
    });
  }
}

const aggregate: Handler = async (ctx, cmd) => {
  const pipeline = optionalArray(cmd, 'pipeline');
  if (!pipeline) throw new MongoError('FailedToParse', "BSON field 'aggregate.pipeline' is missing but a required field");
  const cursorOpts = optionalDoc(cmd, 'cursor');
  if (!cursorOpts && cmd.explain !== true) throw new MongoError('FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument");
  const target = cmd.aggregate;
  let collection: string | undefined;
  if (target === 1) collection = undefined;
  else collection = collectionName(ctx, cmd, 'aggregate');
  if (cmd.explain === true) return explainPipeline(ctx, collection, pipeline);
  const { docs, project } = await runPipeline(ctx, { collection, documents: collection === undefined && (pipeline[0] as Doc)?.$documents === undefined ? [] : undefined }, pipeline, cmd);
  const { cursor } = ctx.engine.cursors.open(`${ctx.db}.${collection ?? '$cmd.aggregate'}`, docs, {
    batchSize: optionalBatchSize(cursorOpts ?? {}),
    project,
    sessionKey: ctx.session?.key ?? null,
  });
  return { cursor, ok: 1 };
};

function explainPipeline(ctx: Ctx, collection: string | undefined, pipeline: unknown[]): Doc {
  const coll = collection ? existing(ctx, collection) : undefined;
  const first = pipeline[0] as Doc | undefined;
  const match = first && isPlainObject(first.$match) ? first.$match : null;
  const sortStage = (match ? pipeline[1] : first) as Doc | undefined;
  const sort = sortStage && isPlainObject(sortStage.$sort) ? sortStage.$sort : null;
  const filter = coll ? ctx.engine.filter(coll, match ?? {}) : null;
  const winningPlan = coll && filter ? winning(coll, filter, sort, 0) : { stage: 'COLLSCAN' };
  return {
    explainVersion: '1',
    stages: pipeline,
    queryPlanner: { namespace: `${ctx.db}.${collection ?? ''}`, winningPlan },
    ok: 1,
  };
}

/** The plan as MongoDB draws it: an index walk in sort order, or a lookup or scan under a SORT stage. */
function winning(coll: Collection, filter: Filter, sort: Doc | null, wanted: number): Doc {
  const walk = sort && Object.keys(sort).length ? coll.walkName(filter, sort, wanted) : null;
  if (walk) return { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: walk } };
  const index = coll.planName(filter);
  const read = index ? { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: index } } : { stage: 'COLLSCAN' };
  return sort && Object.keys(sort).length ? { stage: 'SORT', sortPattern: sort, inputStage: read } : read;
}

/** explain of find, count, distinct, aggregate, update, delete, findAndModify: the plan only. */
const explain: Handler = (ctx, cmd) => {
  const inner = optionalDoc(cmd, 'explain');
  if (!inner) throw new MongoError('FailedToParse', 'explain command requires a nested object');
  const name = Object.keys(inner)[0];
  if (name === 'aggregate') {
    return explainPipeline(ctx, inner.aggregate === 1 ? undefined : String(inner.aggregate), (inner.pipeline as unknown[]) ?? []);
  }
  const collName = String(inner[name]);
  const coll = existing(ctx, collName);
  let filterDoc: unknown = inner.filter ?? inner.query ?? {};
  if (name === 'update' && Array.isArray(inner.updates)) filterDoc = (inner.updates[0] as Doc)?.q ?? {};
  if (name === 'delete' && Array.isArray(inner.deletes)) filterDoc = (inner.deletes[0] as Doc)?.q ?? {};
  const sort = name === 'find' && isPlainObject(inner.sort) ? inner.sort : null;
  const limit = name === 'find' ? Math.abs(Number(inner.limit ?? 0)) : 0;
  const wanted = limit ? limit + Number(inner.skip ?? 0) : 0;
  const winningPlan = coll ? winning(coll, ctx.engine.filter(coll, filterDoc), sort, Number.isFinite(wanted) ? wanted : 0) : { stage: 'EOF' };
  const index = coll ? coll.planName(ctx.engine.filter(coll, filterDoc)) : null;
  const reply: Doc = {
    explainVersion: '1',
    queryPlanner: { namespace: `${ctx.db}.${collName}`, parsedQuery: filterDoc, winningPlan, rejectedPlans: [] },
    command: inner,
    serverInfo: { host: ctx.server.host, port: ctx.server.port, version: '7.0.0' },
    ok: 1,
  };
  if (cmd.verbosity === 'executionStats' || cmd.verbosity === 'allPlansExecution') {
    const filter = ctx.engine.filter(coll, filterDoc);
    const nReturned = coll ? coll.match(filter, ctx.txn).length : 0;
    reply.executionStats = { nReturned, executionSuccess: true, totalDocsExamined: coll?.entries.size ?? 0, totalKeysExamined: index ? nReturned : 0 };
  }
  return reply;
};

export const aggregateCommands: Record<string, Handler> = { aggregate, explain };

/** The pipeline rest is a single `$group` counting documents under a constant key: its key and field. */
function countOnly(rest: Array<{ name: string; spec: unknown }>): { id: unknown; field: string } | null {
  if (rest.length !== 1 || rest[0].name !== '$group' || !isPlainObject(rest[0].spec)) return null;
  const { _id, ...acc } = rest[0].spec;
  const fields = Object.keys(acc);
  if (fields.length !== 1) return null;
  const sum = acc[fields[0]];
  if (!isPlainObject(sum) || Object.keys(sum).length !== 1 || sum.$sum !== 1) return null;
  if (!(typeof _id === 'number' || typeof _id === 'string' || _id === null) || (typeof _id === 'string' && _id.startsWith('$'))) return null;
  return { id: _id, field: fields[0] };
}

/** skip + limit of the `$skip`/`$limit` stages right after a `$sort`, or 0 when no limit follows. */
function pagedLimit(stages: Array<{ name: string; spec: unknown }>, from: number): number {
  let skip = 0;
  for (let i = from; i < stages.length; i++) {
    const { name, spec } = stages[i];
    if (name === '$skip' && typeof spec === 'number') skip += spec;
    else if (name === '$limit' && typeof spec === 'number') return skip + spec;
    else return 0;
  }
  return 0;
}
