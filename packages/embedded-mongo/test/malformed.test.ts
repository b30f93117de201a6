/**
 * Malformed wire messages and command arguments against the built CLI in its own process: each
 * must end with a MongoDB-style error reply or with that one connection closed, and the server
 * must keep answering other clients promptly (no loop, crash or unhandled rejection).
 */
import { BSON, Long, ObjectId, UUID } from 'bson';
import { tempDir } from './helpers';
import {
  EXHAUST_ALLOWED,
  OP_COMPRESSED,
  OP_MSG,
  OP_QUERY,
  RawClient,
  assertMongoReply,
  frame,
  header,
  newRequestId,
  opMsg,
  opQuery,
  pingTime,
  sequenceSection,
  startCli,
  type CliProcess,
} from './wire-client';

/** What the CLI's process-level safety net logs; a root-cause fix never lets it fire. */
const SAFETY_NET = /uncaught|unhandled/i;

let cli: CliProcess;
const tmp = tempDir('embedded-mongo-malformed-');

beforeAll(async () => {
  cli = await startCli(tmp.dir);
});

afterAll(async () => {
  await cli.stop();
  tmp.remove();
});

/** The process is alive, never needed its safety net, and answers a ping on a new connection quickly. */
async function expectHealthy(): Promise<void> {
  expect(cli.exited()).toBe(false);
  expect(await pingTime(cli.port, 2000)).toBeLessThan(2000);
  expect(cli.stderr()).not.toMatch(SAFETY_NET);
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n, 0);
  return b;
}

const flags0 = () => int32(0);
const ping = () => Buffer.from(BSON.serialize({ ping: 1, $db: 'admin' }));

/** Sends raw bytes on a fresh connection; resolves with the replies received and whether it was closed. */
async function sendRaw(bytes: Buffer, waitMs = 1500): Promise<{ client: RawClient; outcome: 'reply' | 'closed' | 'timeout' }> {
  const client = await RawClient.connect(cli.port);
  client.send(bytes);
  const r = await client.until(() => client.replies.length > 0, waitMs);
  return { client, outcome: r === 'ok' ? 'reply' : r };
}

describe('malformed input', () => {
  afterEach(async () => {
    try {
      await expectHealthy();
    } catch (err) {
      // a fresh server for the next test, so each case is judged on its own
      await cli.stop();
      cli = await startCli(tmp.dir);
      throw err;
    }
  });

  it('answers a 27-byte OP_MSG whose kind-1 section size is -1 without looping', async () => {
    const msg = Buffer.concat([header(27, OP_MSG), flags0(), Buffer.from([1]), int32(-1), Buffer.from('a\0')]);
    expect(msg.length).toBe(27);
    const { client, outcome } = await sendRaw(msg);
    expect(outcome).toBe('reply');
    expect(client.replies[0].doc).toMatchObject({ ok: 0, code: 9, codeName: 'FailedToParse' });
    client.close();
  });

  it('keeps other clients served while an exhaust hello with maxAwaitTimeMS 0 streams', async () => {
    const monitor = await RawClient.connect(cli.port);
    const first = await monitor.command({ hello: 1, $db: 'admin' });
    const topologyVersion = first.topologyVersion;
    expect(topologyVersion.processId).toBeInstanceOf(ObjectId);
    const requestId = newRequestId();
    monitor.send(opMsg({ hello: 1, $db: 'admin', topologyVersion, maxAwaitTimeMS: 0 }, { flags: EXHAUST_ALLOWED, requestId }));
    const before = monitor.replies.length;
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 200));
    // another client's ping must be answered promptly while it streams
    const pings: number[] = [];
    for (let i = 0; i < 3; i++) pings.push(await pingTime(cli.port, 3000));
    const streamed = monitor.replies.length - before;
    const elapsed = Date.now() - started;
    monitor.close();
    expect(Math.max(...pings)).toBeLessThan(1000);
    // it still streams (the driver's monitor relies on it), but paced rather than as fast as the CPU allows
    expect(streamed).toBeGreaterThan(0);
    expect(streamed).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 2);
  });

  it('answers topologyVersion { processId: { equals: 1 } } with TypeMismatch and keeps running', async () => {
    const c = await RawClient.connect(cli.port);
    const reply = await c.command({ hello: 1, $db: 'admin', topologyVersion: { processId: { equals: 1 }, counter: 0 }, maxAwaitTimeMS: 10 });
    expect(reply).toMatchObject({ ok: 0, code: 14, codeName: 'TypeMismatch' });
    c.close();
  });

  const bodyOf = (doc: object) => Buffer.from(BSON.serialize(doc));

  /** Messages whose framing is intact but whose content is not: an error reply each, on the same connection. */
  const unparsable: Array<[string, () => Buffer]> = [
    ['an OP_MSG with only a header', () => frame(OP_MSG, Buffer.alloc(0))],
    ['an OP_MSG with flags but no section', () => frame(OP_MSG, flags0())],
    ['an OP_MSG body whose size runs past the end', () => frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), int32(500), Buffer.alloc(8)]))],
    ['an OP_MSG body with a negative size', () => frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), int32(-20), Buffer.alloc(8)]))],
    ['a kind-1 section whose size runs past the end', () => frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), ping(), Buffer.from([1]), int32(1000), Buffer.from('d\0')]))],
    ['a kind-1 section smaller than its size field', () => frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), ping(), Buffer.from([1]), int32(2), Buffer.from('d\0')]))],
    ['a kind-1 section with size 0', () => frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), ping(), Buffer.from([1]), int32(0), Buffer.from('d\0')]))],
    ['a kind-1 section whose identifier is not terminated', () => frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), ping(), Buffer.from([1]), int32(8), Buffer.from('abcd')]))],
    [
      'a kind-1 document crossing the section end',
      () => {
        const sec = sequenceSection('documents', [{ a: 1 }]);
        sec.writeInt32LE(sec.readInt32LE(1) - 3, 1);
        return frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), bodyOf({ insert: 'c', $db: 'x' }), sec]));
      },
    ],
    ['two body sections', () => frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), ping(), Buffer.from([0]), ping()]))],
    ['an unknown section kind', () => frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([7]), ping()]))],
    ['the checksum flag on a message too short for a checksum', () => frame(OP_MSG, Buffer.concat([int32(1), Buffer.from([0, 5, 0])]))],
    [
      'a body with an unknown BSON type byte',
      () => {
        const doc = bodyOf({ ping: 1, $db: 'admin' });
        doc[4] = 0x77;
        return frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), doc]));
      },
    ],
    [
      'a body whose string length overflows',
      () => {
        const doc = bodyOf({ find: 'abc', $db: 'admin' });
        doc.writeInt32LE(0x7ffffff0, 4 + 1 + 'find'.length + 1);
        return frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), doc]));
      },
    ],
    ['a body that is not a document (size 4)', () => frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), int32(4)]))],
    ['an empty command document', () => frame(OP_MSG, Buffer.concat([flags0(), Buffer.from([0]), bodyOf({})]))],
    ['an OP_QUERY on a collection rather than $cmd', () => opQuery('db.coll', { a: 1 })],
    ['an OP_QUERY without a namespace terminator', () => frame(OP_QUERY, Buffer.concat([int32(0), Buffer.from('admin.$cmd')]))],
    ['an OP_QUERY cut after the namespace', () => frame(OP_QUERY, Buffer.concat([int32(0), Buffer.from('admin.$cmd\0'), int32(0)]))],
    ['an OP_QUERY whose query is not a document', () => frame(OP_QUERY, Buffer.concat([int32(0), Buffer.from('admin.$cmd\0'), int32(0), int32(-1), int32(2), Buffer.from([0])]))],
    ['an OP_COMPRESSED (compression is not negotiated)', () => frame(OP_COMPRESSED, Buffer.concat([int32(OP_MSG), int32(100), Buffer.from([0]), flags0(), Buffer.from([0]), ping()]))],
    ['a truncated OP_COMPRESSED', () => frame(OP_COMPRESSED, Buffer.from([1, 2]))],
  ];

  it.each(unparsable)('answers %s with an error reply and keeps the connection usable', async (_name, build) => {
    const client = await RawClient.connect(cli.port);
    const msg = build();
    const requestId = msg.readInt32LE(4);
    client.send(msg);
    const r = await client.reply(requestId);
    expect(typeof r).toBe('object');
    if (typeof r === 'string') return;
    expect(client.protocolError).toBeNull();
    expect(() => assertMongoReply(r.doc)).not.toThrow();
    expect(r.doc.ok).toBe(0);
    // framing was intact: the same connection still works
    expect(await client.command({ ping: 1, $db: 'admin' })).toMatchObject({ ok: 1 });
    client.close();
  });

  /** Messages whose length cannot be trusted: that connection is closed at once. */
  const unframable: Array<[string, () => Buffer]> = [
    ['a negative length', () => Buffer.concat([int32(-1), Buffer.alloc(40)])],
    ['a zero length', () => Buffer.concat([int32(0), Buffer.alloc(40)])],
    ['a length smaller than the header', () => Buffer.concat([header(15, OP_MSG), Buffer.alloc(30)])],
    ['a length over the 48 MB maximum message size', () => Buffer.concat([header(48_000_001, OP_MSG), Buffer.alloc(30)])],
    ['a length of 2 GiB', () => Buffer.concat([header(0x7fffffff, OP_MSG), Buffer.alloc(30)])],
    ['an unknown opcode', () => frame(9999, Buffer.concat([flags0(), Buffer.from([0]), ping()]))],
    ['an OP_REPLY sent to the server', () => frame(1, Buffer.alloc(40))],
  ];

  it.each(unframable)('closes the connection on %s', async (_name, build) => {
    const { client, outcome } = await sendRaw(build());
    expect(outcome).toBe('closed');
    client.close();
  });

  it('waits for the rest of a message longer than what arrived, and serves others meanwhile', async () => {
    const client = await RawClient.connect(cli.port);
    const msg = opMsg({ ping: 1, $db: 'admin' });
    client.send(msg.subarray(0, 10));
    expect(await client.until(() => client.replies.length > 0, 300)).toBe('timeout');
    await expectHealthy();
    client.send(msg.subarray(10));
    expect((await client.reply(msg.readInt32LE(4)))).toMatchObject({ doc: { ok: 1 } });
    client.close();
  });

  it('assembles a large message sent in small pieces without stalling other clients', async () => {
    const client = await RawClient.connect(cli.port);
    const msg = opMsg({ insert: 'big', $db: 'malformed', documents: [{ blob: 'x'.repeat(12 * 1024 * 1024) }] });
    const started = Date.now();
    for (let i = 0; i < msg.length; i += 16 * 1024) client.send(msg.subarray(i, i + 16 * 1024));
    const r = await client.reply(msg.readInt32LE(4), 20_000);
    expect(r).toMatchObject({ doc: { n: 1, ok: 1 } });
    expect(Date.now() - started).toBeLessThan(15_000);
    client.close();
  });

  const badArgs: Array<[string, object, number]> = [
    ['find: 5', { find: 5 }, 73],
    ["filter: 'x'", { find: 'c', filter: 'x' }, 14],
    ["limit: 'a'", { find: 'c', limit: 'a' }, 14],
    ["limit: '5' (a string, even a numeric one)", { find: 'c', limit: '5' }, 14],
    ['batchSize: -1', { find: 'c', batchSize: -1 }, 2],
    ['$db: 3', { ping: 1, $db: 3 }, 14],
    ['documents: {}', { insert: 'c', documents: {} }, 14],
    ['updates: 1', { update: 'c', updates: 1 }, 14],
    ["deletes: 'x'", { delete: 'c', deletes: 'x' }, 14],
    ['pipeline: {}', { aggregate: 'c', pipeline: {}, cursor: {} }, 14],
    ['aggregate cursor.batchSize: -1', { aggregate: 'c', pipeline: [], cursor: { batchSize: -1 } }, 2],
    ['getMore batchSize: -1', { getMore: Long.fromNumber(5), collection: 'c', batchSize: -1 }, 2],
    ["getMore: 'x'", { getMore: 'x', collection: 'c' }, 14],
    ['lsid: 7', { find: 'c', lsid: 7 }, 14],
    ["lsid: { id: 'x' }", { find: 'c', lsid: { id: 'x' } }, 14],
    ["txnNumber: 'x'", { insert: 'c', documents: [{ a: 1 }], lsid: { id: new UUID() }, txnNumber: 'x' }, 14],
    ["autocommit: 'no'", { find: 'c', lsid: { id: new UUID() }, txnNumber: 1, autocommit: 'no' }, 14],
    ["maxAwaitTimeMS: 'x' on an awaitable hello", { hello: 1, topologyVersion: { processId: new ObjectId(), counter: 0 }, maxAwaitTimeMS: 'x' }, 14],
    ['maxAwaitTimeMS: -1 on an awaitable hello', { hello: 1, topologyVersion: { processId: new ObjectId(), counter: 0 }, maxAwaitTimeMS: -1 }, 2],
    ['topologyVersion: 5 on an awaitable hello', { hello: 1, topologyVersion: 5, maxAwaitTimeMS: 10 }, 14],
    ["sort: 'x'", { find: 'c', sort: 'x' }, 14],
    ["projection: 'x'", { find: 'c', projection: 'x' }, 14],
  ];

  it.each(badArgs)('answers %s with a MongoDB error reply', async (_name, cmd, code) => {
    const c = await RawClient.connect(cli.port);
    const reply = await c.command({ ...cmd, $db: '$db' in cmd ? cmd.$db : 'malformed' });
    expect(() => assertMongoReply(reply)).not.toThrow();
    expect(reply).toMatchObject({ ok: 0, code });
    c.close();
  });

  const generators: Array<[string, object, number]> = [
    ['$sample: {}', { aggregate: 'c', pipeline: [{ $sample: {} }], cursor: {} }, 14],
    ['$sample: 5', { aggregate: 'c', pipeline: [{ $sample: 5 }], cursor: {} }, 9],
    ['$sample: { size: -1 }', { aggregate: 'c', pipeline: [{ $sample: { size: -1 } }], cursor: {} }, 2],
    ['$sample: { size: "x" } inside $facet', { aggregate: 'c', pipeline: [{ $facet: { s: [{ $sample: { size: 'x' } }] } }], cursor: {} }, 14],
    ['$densify with step 0', { aggregate: 1, pipeline: [{ $documents: [{ n: 1 }, { n: 5 }] }, { $densify: { field: 'n', range: { step: 0, bounds: 'full' } } }], cursor: {} }, 2],
    ['$densify past 500,000 documents', { aggregate: 1, pipeline: [{ $documents: [{ n: 0 }, { n: 1e9 }] }, { $densify: { field: 'n', range: { step: 1, bounds: 'full' } } }, { $count: 'n' }], cursor: {} }, 2],
    ['$range of 2e9 values', { aggregate: 1, pipeline: [{ $documents: [{}] }, { $project: { r: { $range: [0, 2e9] } } }], cursor: {} }, 2],
    [
      '$concatArrays doubling an array 40 times in $reduce',
      { aggregate: 1, pipeline: [{ $documents: [{}] }, { $project: { n: { $size: { $reduce: { input: { $range: [0, 40] }, initialValue: [1], in: { $concatArrays: ['$$value', '$$value'] } } } } } }], cursor: {} },
      2,
    ],
  ];

  it.each(generators)('answers %s with an error instead of growing an array until the process aborts', async (_name, cmd, code) => {
    const c = await RawClient.connect(cli.port);
    const reply = await c.command({ ...cmd, $db: 'malformed' }, 5000);
    expect(reply).toMatchObject({ ok: 0, code });
    c.close();
  });

  it('samples without replacement and refuses an update that would pad an array by millions of nulls', async () => {
    const c = await RawClient.connect(cli.port);
    await c.command({ insert: 'gen', documents: [{ _id: 1, a: [] }, { _id: 2, a: [] }, { _id: 3, a: [] }], $db: 'malformed' });
    const sample = await c.command({ aggregate: 'gen', pipeline: [{ $sample: { size: 1e9 } }], cursor: {}, $db: 'malformed' }, 5000);
    expect(sample.cursor.firstBatch.map((d: { _id: number }) => d._id).sort()).toEqual([1, 2, 3]);
    const range = await c.command({ aggregate: 'gen', pipeline: [{ $limit: 1 }, { $project: { _id: 0, r: { $range: [0, 5] } } }], cursor: {}, $db: 'malformed' });
    expect(range.cursor.firstBatch).toEqual([{ r: [0, 1, 2, 3, 4] }]);
    const concat = await c.command({ aggregate: 'gen', pipeline: [{ $match: { _id: 3 } }, { $project: { c: { $concatArrays: [['$_id', 'x'], { $range: [0, 2] }] } } }], cursor: {}, $db: 'malformed' });
    expect(concat.cursor.firstBatch).toEqual([{ _id: 3, c: [3, 'x', 0, 1] }]);
    const pad = await c.command({ update: 'gen', updates: [{ q: { _id: 1 }, u: { $set: { 'a.200000000': 1 } } }], $db: 'malformed' }, 5000);
    expect(pad).toMatchObject({ ok: 1, n: 0, writeErrors: [{ index: 0, code: 2 }] });
    const near = await c.command({ update: 'gen', updates: [{ q: { _id: 2 }, u: { $set: { 'a.3': 1 } } }], $db: 'malformed' });
    expect(near).toMatchObject({ ok: 1, nModified: 1 });
    c.close();
  });

  it('answers a catastrophically backtracking $regex quickly instead of holding the event loop', async () => {
    const c = await RawClient.connect(cli.port);
    await c.command({ insert: 'redos', documents: [{ s: `${'a'.repeat(40)}!` }, { s: 'aaa' }], $db: 'malformed' });
    const started = Date.now();
    const reply = await c.command({ find: 'redos', filter: { s: { $regex: '(a+)+$' } }, projection: { _id: 0 }, $db: 'malformed' }, 5000);
    expect(reply.cursor.firstBatch).toEqual([{ s: 'aaa' }]);
    expect(Date.now() - started).toBeLessThan(3000);
    c.close();
  });

  it('still answers an OP_QUERY handshake and a valid document sequence', async () => {
    const c = await RawClient.connect(cli.port);
    const q = opQuery('admin.$cmd', { isMaster: 1 });
    c.send(q);
    expect(await c.reply(q.readInt32LE(4))).toMatchObject({ doc: { ismaster: true, ok: 1 } });
    const ins = opMsg({ insert: 'seq', $db: 'malformed' }, { sections: [sequenceSection('documents', [{ a: 1 }, { a: 2 }])] });
    c.send(ins);
    expect(await c.reply(ins.readInt32LE(4))).toMatchObject({ doc: { n: 2, ok: 1 } });
    c.close();
  });
});
