import net from 'node:net';
import { BSON } from 'bson';
import { MongoClient } from 'mongodb';
import { EmbeddedMongo } from '../src';
import { startHarness } from './helpers';

/** Sends one raw wire message and resolves with the reply's bytes. */
function roundTrip(port: number, message: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 4 && buf.length >= buf.readInt32LE(0)) {
        sock.destroy();
        resolve(buf);
      }
    });
    sock.on('error', reject);
    sock.on('close', () => resolve(buf));
    sock.write(message);
  });
}

function opQuery(ns: string, query: object): Buffer {
  const doc = BSON.serialize(query);
  const nsBytes = Buffer.from(ns + '\0');
  const body = Buffer.concat([Buffer.alloc(4), nsBytes, Buffer.alloc(8), doc]);
  body.writeInt32LE(0, 0);
  body.writeInt32LE(-1, nsBytes.length + 8);
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + body.length, 0);
  header.writeInt32LE(7, 4);
  header.writeInt32LE(2004, 12);
  return Buffer.concat([header, body]);
}

describe('server', () => {
  it('answers the legacy OP_QUERY isMaster handshake with OP_REPLY', async () => {
    const server = await EmbeddedMongo.start({ port: 0 });
    const reply = await roundTrip(server.port, opQuery('admin.$cmd', { isMaster: 1, helloOk: true }));
    expect(reply.readInt32LE(8)).toBe(7); // responseTo
    expect(reply.readInt32LE(12)).toBe(1); // OP_REPLY
    const doc = BSON.deserialize(reply.subarray(36));
    expect(doc).toMatchObject({ ismaster: true, helloOk: true, ok: 1, maxWireVersion: 21 });
    await server.stop();
  });

  it('presents itself as the primary of a single-node replica set', async () => {
    const h = await startHarness();
    const hello = await h.client.db('admin').command({ hello: 1 });
    expect(hello).toMatchObject({
      isWritablePrimary: true,
      setName: 'rs0',
      hosts: [`127.0.0.1:${h.server.port}`],
      primary: `127.0.0.1:${h.server.port}`,
      me: `127.0.0.1:${h.server.port}`,
      logicalSessionTimeoutMinutes: 30,
      maxWireVersion: 21,
      ok: 1,
    });
    expect(hello.topologyVersion.processId).toBeDefined();
    await h.stop();
  });

  it('names the port when it is busy', async () => {
    const first = await EmbeddedMongo.start({ port: 0 });
    await expect(EmbeddedMongo.start({ port: first.port })).rejects.toThrow(`Port ${first.port} (embedded MongoDB) is already in use`);
    await first.stop();
  });

  it('drops a connection that sends garbage and keeps serving others', async () => {
    const h = await startHarness();
    const junk = Buffer.alloc(32, 0xff);
    junk.writeInt32LE(32, 0);
    junk.writeInt32LE(9999, 12);
    await roundTrip(h.server.port, junk);
    expect(await h.client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
    await h.stop();
  });

  it('applies unacknowledged (w: 0) writes', async () => {
    const h = await startHarness();
    const c = h.client.db('w0').collection('c', { writeConcern: { w: 0 } });
    await c.insertOne({ a: 1 });
    await c.insertOne({ a: 2 });
    const reader = h.client.db('w0').collection('c');
    for (let i = 0; i < 50 && (await reader.countDocuments()) < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await reader.countDocuments()).toBe(2);
    await h.stop();
  });

  it('round-trips documents close to the 16 MiB limit', async () => {
    const h = await startHarness();
    const c = h.client.db('big').collection('c');
    const blob = 'x'.repeat(15 * 1024 * 1024);
    await c.insertOne({ _id: 1, blob } as never);
    await c.insertOne({ _id: 2, blob } as never);
    const docs = await c.find().toArray();
    expect(docs.map((d) => d.blob.length)).toEqual([blob.length, blob.length]);
    await h.stop();
  });

  it('expires documents through TTL indexes', async () => {
    const h = await startHarness({ ttlMonitorSeconds: 0.2 });
    const c = h.client.db('ttl').collection('sessions');
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 1 });
    await c.insertMany([{ at: new Date(Date.now() - 5000) }, { at: new Date(Date.now() + 60_000) }, { at: 'not a date' }]);
    await new Promise((r) => setTimeout(r, 600));
    expect(await c.countDocuments()).toBe(2);
    await h.stop();
  });

  it('serves cursors across pooled connections and closes connections on stop', async () => {
    const server = await EmbeddedMongo.start({ port: 0 });
    const client = await MongoClient.connect(server.uri, { maxPoolSize: 5, serverSelectionTimeoutMS: 500 });
    const c = client.db('pool').collection('c');
    await c.insertMany(Array.from({ length: 300 }, (_, i) => ({ i })));
    const all = await Promise.all(Array.from({ length: 5 }, () => c.find({}, { batchSize: 7 }).toArray()));
    expect(all.map((a) => a.length)).toEqual([300, 300, 300, 300, 300]);
    await server.stop();
    await expect(c.findOne({})).rejects.toThrow();
    await client.close();
  });
});
