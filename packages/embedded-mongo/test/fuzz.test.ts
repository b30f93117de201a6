/**
 * Property-based fuzzing of the server's input handling with fast-check:
 * - the command dispatcher gets thousands of random command documents (random field types) and
 *   must answer each with `{ ok: 1 }` or a MongoDB error `{ ok: 0, errmsg, code, codeName }`,
 *   never an InternalError, and quickly;
 * - real sockets get thousands of random and mutated wire messages (valid hello/find/insert/update/
 *   aggregate/ping messages with flipped bytes, changed lengths, truncation, appended garbage, or
 *   random command documents); after every batch the server must answer a ping on another
 *   connection, every reply must be a readable MongoDB reply, and the server process (the built
 *   CLI) must stay up without logging an unhandled rejection, an uncaught exception or a
 *   connection closed by an internal error.
 * Sizes are set for about 30 s on a 2-core machine.
 */
import { Binary, BSON, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID, BSONRegExp } from 'bson';
import fc from 'fast-check';
import { runCommand } from '../src/commands';
import type { ConnectionInfo, ServerInfo } from '../src/commands/context';
import { Engine } from '../src/engine';
import { DESERIALIZE_OPTIONS } from '../src/storage';
import { tempDir } from './helpers';
import { OP_MSG, RawClient, assertMongoReply, frame, newRequestId, opMsg, opQuery, pingTime, sequenceSection, startCli, type CliProcess } from './wire-client';

const COMMANDS = [
  'hello', 'isMaster', 'ping', 'buildInfo', 'serverStatus', 'getParameter', 'listDatabases', 'listCollections', 'create', 'drop',
  'dropDatabase', 'renameCollection', 'collMod', 'createIndexes', 'listIndexes', 'dropIndexes', 'dbStats', 'collStats', 'validate',
  'insert', 'find', 'getMore', 'killCursors', 'update', 'delete', 'findAndModify', 'count', 'distinct', 'aggregate', 'explain',
  'endSessions', 'killSessions', 'startSession', 'commitTransaction', 'abortTransaction', 'noSuchCommand',
];

const FIELDS = [
  'filter', 'query', 'q', 'u', 'update', 'sort', 'projection', 'fields', 'limit', 'skip', 'batchSize', 'singleBatch', 'documents',
  'updates', 'deletes', 'pipeline', 'cursor', 'let', 'collation', 'hint', 'arrayFilters', 'upsert', 'multi', 'new', 'remove', 'lsid',
  'txnNumber', 'autocommit', 'startTransaction', 'ordered', 'key', 'collection', 'cursors', 'indexes', 'index', 'to', 'dropTarget',
  'nameOnly', 'explain', 'verbosity', 'validator', 'maxAwaitTimeMS', 'topologyVersion', 'helloOk', 'scale', 'writeConcern',
  'readConcern', 'comment', 'maxTimeMS', 'bypassDocumentValidation', 'c', 'new', 'tailable', 'expireAfterSeconds', 'unique', 'name',
];

const OPERATORS = [
  '$set', '$unset', '$inc', '$push', '$pull', '$addToSet', '$rename', '$gt', '$lte', '$in', '$nin', '$eq', '$ne', '$exists', '$type',
  '$size', '$all', '$elemMatch', '$not', '$or', '$and', '$nor', '$regex', '$mod', '$expr', '$text', '$search', '$match', '$group',
  '$project', '$sort', '$limit', '$skip', '$unwind', '$lookup', '$out', '$merge', '$count', '$addFields', '$documents', '$facet',
  '$sum', '$first', '$concat', '$cond', '$ifNull', '$meta', '$slice', '$each', '$position', '$[]', '$', '$$ROOT',
];

/** A field or operator name: mostly ones the server knows, sometimes arbitrary (never NUL, which BSON keys cannot hold). */
const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...FIELDS) },
  { weight: 3, arbitrary: fc.constantFrom(...OPERATORS) },
  { weight: 2, arbitrary: fc.constantFrom('a', 'b', '_id', 'a.b', 'a.0', 'x.$', '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map((s) => s.replace(/\0/g, '')) },
);

const scalar = fc.oneof(
  fc.integer(),
  fc.integer({ min: -3, max: 3 }),
  fc.double(),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('c', 'd', 'admin', '$a', '$$ROOT', '*', 'executionStats', '.*', 'a.b'),
  fc.boolean(),
  fc.constant(null),
  fc.uint8Array({ minLength: 12, maxLength: 12 }).map((b) => new ObjectId(Buffer.from(b))),
  fc.date({ noInvalidDate: true }),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => Long.fromBigInt(n)),
  fc.constantFrom(new UUID(), new Binary(Buffer.from('xy')), new MinKey(), new MaxKey(), new Timestamp({ t: 1, i: 1 })),
  fc.constantFrom(Decimal128.fromString('1.5'), Decimal128.fromString('NaN'), new Int32(7), new Double(-0), new BSONRegExp('a+', 'i')),
);

/** Any BSON value, nested at most 3 deep. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(tie('v'), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.dictionary(key, tie('v'), { maxKeys: 4 }) },
  ),
})).v;

/** A command document: a command name first, then known or random fields of random types. */
const randomCommand = fc
  .record({
    name: fc.constantFrom(...COMMANDS),
    target: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('c', 'd', 1) }, { weight: 1, arbitrary: value }),
    fields: fc.dictionary(key, value, { maxKeys: 6 }),
    db: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('fuzz', 'admin', 'fuzz2') }, { weight: 1, arbitrary: value }),
  })
  .map(({ name, target, fields, db }) => ({ [name]: target, ...fields, $db: db }) as Record<string, unknown>);

// Commands shaped like a driver's (so they reach the query, update and pipeline code), with random parts.
const path = fc.constantFrom('a', 'b', '_id', 'a.b', 'a.0', 'n.x', 'tags', 'a.$', 'a.$[]', '');
const queryOp = fc.constantFrom('$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$type', '$size', '$all', '$elemMatch', '$not', '$regex', '$options', '$mod', '$bitsAllSet');
const filter = fc.oneof(
  fc.dictionary(path, fc.oneof(scalar, fc.dictionary(queryOp, value, { minKeys: 1, maxKeys: 2 })), { maxKeys: 3 }),
  fc.record({ $or: fc.array(fc.dictionary(path, scalar, { maxKeys: 2 }), { maxLength: 3 }) }),
  fc.record({ $expr: value }),
  value,
);
const updateOp = fc.constantFrom('$set', '$unset', '$inc', '$mul', '$min', '$max', '$rename', '$push', '$addToSet', '$pull', '$pullAll', '$pop', '$bit', '$currentDate', '$setOnInsert');
const stageName = fc.constantFrom('$match', '$project', '$addFields', '$group', '$sort', '$limit', '$skip', '$unwind', '$count', '$lookup', '$facet', '$replaceRoot', '$sortByCount', '$bucket', '$sample', '$out', '$merge', '$documents', '$unionWith', '$set', '$unset');
const stage = fc.oneof(
  fc.record({ $match: filter }),
  fc.record({ $group: fc.record({ _id: fc.oneof(fc.constantFrom('$a', '$b', null), value), n: fc.dictionary(fc.constantFrom('$sum', '$avg', '$push', '$max', '$first'), fc.oneof(fc.constantFrom(1, '$a'), value), { minKeys: 1, maxKeys: 1 }) }) }),
  fc.record({ $sort: fc.dictionary(path, fc.oneof(fc.constantFrom(1, -1), value), { maxKeys: 2 }) }),
  fc.record({ $project: fc.dictionary(path, fc.oneof(fc.constantFrom(0, 1, '$a', true), value), { maxKeys: 3 }) }),
  fc.dictionary(stageName, value, { minKeys: 1, maxKeys: 1 }),
);
const update = fc.oneof(
  fc.dictionary(updateOp, fc.dictionary(path, value, { maxKeys: 2 }), { minKeys: 1, maxKeys: 2 }),
  fc.dictionary(path, value, { maxKeys: 3 }),
  fc.array(stage, { maxLength: 2 }),
  value,
);
const doc = fc.dictionary(path, value, { maxKeys: 4 });
const coll = fc.constantFrom('c', 'd');
const shapedCommand: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ insert: coll, documents: fc.array(doc, { maxLength: 4 }), ordered: fc.boolean() }),
  fc.record({ find: coll, filter, sort: fc.option(fc.dictionary(path, fc.constantFrom(1, -1), { maxKeys: 2 }), { nil: undefined }), projection: fc.option(fc.dictionary(path, fc.oneof(fc.constantFrom(0, 1), value), { maxKeys: 2 }), { nil: undefined }), limit: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }), skip: fc.option(fc.nat(3), { nil: undefined }) }),
  fc.record({ update: coll, updates: fc.array(fc.record({ q: filter, u: update, upsert: fc.boolean(), multi: fc.boolean(), arrayFilters: fc.option(fc.array(doc, { maxLength: 2 }), { nil: undefined }) }), { maxLength: 3 }) }),
  fc.record({ delete: coll, deletes: fc.array(fc.record({ q: filter, limit: fc.constantFrom(0, 1, 2, 'x') }), { maxLength: 3 }) }),
  fc.record({ findAndModify: coll, query: filter, update, sort: fc.option(doc, { nil: undefined }), new: fc.boolean(), upsert: fc.boolean(), fields: fc.option(doc, { nil: undefined }) }),
  fc.record({ aggregate: fc.constantFrom('c', 'd', 1), pipeline: fc.array(stage, { maxLength: 4 }), cursor: fc.oneof(fc.constant({}), fc.record({ batchSize: value })) }),
  fc.record({ count: coll, query: filter }),
  fc.record({ distinct: coll, key: fc.oneof(path, value), query: filter }),
  fc.record({ createIndexes: coll, indexes: fc.array(fc.record({ key: fc.dictionary(path, fc.oneof(fc.constantFrom(1, -1, 'text'), value), { maxKeys: 2 }), name: fc.string({ maxLength: 5 }), unique: fc.boolean() }), { maxLength: 2 }) }),
);

/** Either kind, with a `$db` and sometimes extra fields of random types. */
const commandDoc: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  randomCommand,
  fc.tuple(shapedCommand, fc.dictionary(key, value, { maxKeys: 2 })).map(([cmd, extra]) => ({ ...cmd, ...extra, $db: 'fuzz' })),
);

/** The command as the wire delivers it (BSON round trip), or null if it cannot be encoded. */
function asReceived(doc: Record<string, unknown>): Record<string, unknown> | null {
  try {
    return BSON.deserialize(BSON.serialize(doc), DESERIALIZE_OPTIONS);
  } catch {
    return null;
  }
}

function mongoReplyProblem(doc: Record<string, unknown>): string | null {
  try {
    assertMongoReply(doc);
  } catch (err) {
    return (err as Error).message;
  }
  if (doc.ok === 0 && doc.code === 1) return `InternalError: ${String(doc.errmsg)}`;
  return null;
}

const conn: ConnectionInfo = { id: 1, remote: '127.0.0.1:1', local: '127.0.0.1:2' };

describe('fuzz', () => {
  it('the command dispatcher answers random command documents with a MongoDB reply', async () => {
    const engine = new Engine({ transactionLifetimeSeconds: 1 });
    const info: ServerInfo = { startedAt: Date.now(), host: '127.0.0.1', port: 1, me: '127.0.0.1:1', processId: new ObjectId(), connections: () => ({ current: 1, totalCreated: 1 }), dbPath: null };
    await runCommand(engine, info, conn, { insert: 'c', documents: [{ a: 1 }, { a: [1, 2], b: 'x' }], $db: 'fuzz' });
    let sent = 0;
    const problems: string[] = [];
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(commandDoc, async (raw) => {
        const body = asReceived(raw);
        if (!body) return;
        sent++;
        const t = Date.now();
        const reply = await runCommand(engine, info, conn, body);
        const ms = Date.now() - t;
        const problem = mongoReplyProblem(reply) ?? (ms > 2000 ? `took ${ms} ms` : null);
        if (problem) problems.push(`${problem} <- ${JSON.stringify(BSON.EJSON.serialize(body))}`);
      }),
      { numRuns: 8000, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
    );
    await engine.close();
    process.stdout.write(`dispatcher fuzz: ${sent} command documents in ${Date.now() - started} ms\n`);
    expect(problems.slice(0, 10)).toEqual([]);
    expect(sent).toBeGreaterThan(7000);
  }, 120_000);

  describe('over sockets (the built CLI in its own process)', () => {
    let cli: CliProcess;
    const tmp = tempDir('embedded-mongo-fuzz-');

    beforeAll(async () => {
      cli = await startCli(tmp.dir);
    });

    afterAll(async () => {
      await cli.stop();
      tmp.remove();
    });

    const seeds: Array<() => Buffer> = [
      () => opMsg({ hello: 1, helloOk: true, $db: 'admin' }),
      () => opMsg({ ping: 1, $db: 'admin' }),
      () => opMsg({ find: 'c', filter: { a: { $gt: 1 } }, sort: { a: -1 }, limit: 5, batchSize: 2, $db: 'fuzz' }),
      () => opMsg({ insert: 'c', documents: [{ a: 1, b: 'x' }, { a: [2, 3] }], $db: 'fuzz' }),
      () => opMsg({ insert: 'c', $db: 'fuzz' }, { sections: [sequenceSection('documents', [{ a: 4 }, { a: 5, n: { x: 1 } }])] }),
      () => opMsg({ update: 'c', updates: [{ q: { a: 1 }, u: { $inc: { a: 1 }, $set: { 'n.y': 2 } }, upsert: true }], $db: 'fuzz' }),
      () => opMsg({ aggregate: 'c', pipeline: [{ $match: { a: { $gte: 0 } } }, { $group: { _id: '$b', n: { $sum: 1 } } }], cursor: {}, $db: 'fuzz' }),
      () => opMsg({ hello: 1, topologyVersion: { processId: new ObjectId(), counter: Long.fromNumber(0) }, maxAwaitTimeMS: 0, $db: 'admin' }, { flags: 1 << 16 }),
      () => opQuery('admin.$cmd', { isMaster: 1, helloOk: true }),
    ];

    const interestingInt = fc.constantFrom(-1, 0, 1, 4, 5, 6, 15, 16, 17, 20, 21, 0x7fffffff, -0x80000000, 48_000_000, 48_000_001);

    type Mutation = (m: Buffer) => Buffer;
    const mutation: fc.Arbitrary<Mutation> = fc.oneof(
      // flip bytes
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }).map((flips) => (m: Buffer) => {
        const out = Buffer.from(m);
        for (const [pos, v] of flips) out[pos % out.length] = v;
        return out;
      }),
      // write a boundary int32 anywhere (lengths, section sizes, document sizes, opcodes)
      fc.tuple(fc.nat(), interestingInt).map(([pos, v]) => (m: Buffer) => {
        const out = Buffer.from(m);
        const at = pos % Math.max(1, out.length - 3);
        if (out.length >= 4) out.writeInt32LE(v, at);
        return out;
      }),
      // change the message length by a little
      fc.integer({ min: -24, max: 24 }).map((d) => (m: Buffer) => {
        const out = Buffer.from(m);
        out.writeInt32LE(out.readInt32LE(0) + d, 0);
        return out;
      }),
      // truncate (keeping or fixing the length)
      fc.tuple(fc.nat(), fc.boolean()).map(([cut, fix]) => (m: Buffer) => {
        const out = Buffer.from(m.subarray(0, Math.max(4, cut % m.length)));
        if (fix) out.writeInt32LE(out.length, 0);
        return out;
      }),
      // append garbage (keeping or fixing the length)
      fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.boolean()).map(([junk, fix]) => (m: Buffer) => {
        const out = Buffer.concat([m, Buffer.from(junk)]);
        if (fix) out.writeInt32LE(out.length, 0);
        return out;
      }),
      // the identity: the seed or command as is
      fc.constant((m: Buffer) => m),
    );

    /** A wire message: a seed or a random command (as OP_MSG or OP_QUERY), mutated 0-2 times; or raw random bytes. */
    const message: fc.Arbitrary<Buffer> = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...seeds), fc.array(mutation, { maxLength: 2 })).map(([seed, ms]) => ms.reduce((m, f) => f(m), seed())) },
      {
        weight: 4,
        arbitrary: fc.tuple(commandDoc, fc.constantFrom(0, 0, 0, 1 << 1, 1 << 16), fc.boolean(), fc.array(mutation, { maxLength: 1 })).map(([doc, flags, legacy, ms]) => {
          let m: Buffer;
          try {
            m = legacy ? opQuery('fuzz.$cmd', doc) : opMsg(doc, { flags });
          } catch {
            m = opMsg({ ping: 1, $db: 'admin' });
          }
          return ms.reduce((x, f) => f(x), m);
        }),
      },
      { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.uint8Array({ maxLength: 64 })).map(([op, bytes]) => frame(op === 3000 ? OP_MSG : op, Buffer.from(bytes))) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b)) },
    );

    /**
     * Sends `msg` then a ping on a fresh connection; waits for the ping's answer, the connection's
     * close, or 250 ms (a message announcing more bytes than it has holds the connection open).
     */
    async function probe(msg: Buffer): Promise<string | null> {
      const c = await RawClient.connect(cli.port);
      const pingId = newRequestId();
      c.send(msg);
      c.send(opMsg({ ping: 1, $db: 'admin' }, { requestId: pingId }));
      await c.until(() => c.replies.some((r) => r.responseTo === pingId), 250);
      c.close();
      if (c.protocolError) return `unreadable reply: ${c.protocolError}`;
      for (const r of c.replies) {
        const problem = mongoReplyProblem(r.doc);
        if (problem) return problem;
      }
      return null;
    }

    it('survives thousands of random and mutated wire messages', async () => {
      let sent = 0;
      const problems: string[] = [];
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(fc.array(message, { minLength: 50, maxLength: 50 }), async (batch) => {
          const results = await Promise.all(batch.map((m) => probe(m)));
          sent += batch.length;
          results.forEach((p, i) => p && problems.push(`${p} <- ${batch[i].toString('hex').slice(0, 400)}`));
          // the server still answers a valid ping promptly after every batch
          expect(await pingTime(cli.port, 2000)).toBeLessThan(2000);
        }),
        { numRuns: 80, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
      );
      process.stdout.write(`socket fuzz: ${sent} wire messages in ${Date.now() - started} ms\n`);
      expect(problems.slice(0, 10)).toEqual([]);
      expect(cli.exited()).toBe(false);
      // no connection closed by an internal error, and the CLI's safety net never fired
      expect(cli.stderr()).not.toMatch(/internal error|uncaught|unhandled/i);
      expect(sent).toBeGreaterThanOrEqual(4000);
    }, 120_000);
  });
});
