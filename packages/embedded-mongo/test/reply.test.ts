/**
 * Cursor replies: a batch carries its documents' BSON (taken once while sizing the batch) and
 * the reply copies it in; the bytes are those of serializing the whole reply, and anything that
 * copies the batch gets a plain array, which is serialized as usual.
 */
import { BSON, Long, ObjectId, Timestamp } from 'bson';
import fc from 'fast-check';
import { CursorRegistry, EncodedBatch } from '../src/cursors';
import { SERIALIZE_OPTIONS } from '../src/storage';
import type { Doc } from '../src/values';
import { encodeBody } from '../src/wire';

describe('cursor replies', () => {
  it('a first batch and a getMore batch are encoded byte for byte as the whole reply would be', () => {
    const cursors = new CursorRegistry();
    const docs: Doc[] = Array.from({ length: 5 }, (_, i) => ({ _id: new ObjectId(), n: i, s: `é${i}`, sub: { a: [1, { b: null }], u: undefined } }));
    const first = cursors.open('db.c', docs, { batchSize: 3, project: (d) => ({ n: d.n, sub: d.sub }) });
    expect(first.cursor.firstBatch).toBeInstanceOf(EncodedBatch);
    const reply = { ...first, ok: 1, operationTime: new Timestamp({ t: 1, i: 2 }), $clusterTime: { clusterTime: new Timestamp({ t: 1, i: 2 }) } };
    const expected = BSON.serialize({ ...reply, cursor: { ...reply.cursor, firstBatch: [...reply.cursor.firstBatch!] } }, SERIALIZE_OPTIONS);
    expect(Buffer.from(encodeBody(reply))).toEqual(Buffer.from(expected));
    expect(BSON.deserialize(encodeBody(reply)).cursor.firstBatch).toEqual([{ n: 0, sub: { a: [1, { b: null }] } }, { n: 1, sub: { a: [1, { b: null }] } }, { n: 2, sub: { a: [1, { b: null }] } }]);

    const more = cursors.more(first.cursor.id.toNumber(), 'db.c', 10);
    const moreReply = { ...more, ok: 1 };
    const decoded = BSON.deserialize(encodeBody(moreReply));
    expect(decoded.cursor.nextBatch.map((d: Doc) => d.n)).toEqual([3, 4]);
    expect(decoded.cursor.id).toBe(0);
    expect(Buffer.from(encodeBody(moreReply))).toEqual(Buffer.from(BSON.serialize({ ...moreReply, cursor: { ...moreReply.cursor, nextBatch: [...more.cursor.nextBatch!] } }, SERIALIZE_OPTIONS)));
  });

  it('an empty batch, a copied batch and other replies are serialized as they are', () => {
    const cursors = new CursorRegistry();
    const empty = { ...cursors.open('db.c', []), ok: 1 };
    expect(Buffer.from(encodeBody(empty))).toEqual(Buffer.from(BSON.serialize(empty, SERIALIZE_OPTIONS)));
    const batch = cursors.open('db.c', [{ a: 1 }, { a: 2 }]).cursor.firstBatch!;
    const copied = batch.map((d) => ({ ...d, a: (d.a as number) * 10 }));
    expect(copied).not.toBeInstanceOf(EncodedBatch);
    const reply = { cursor: { firstBatch: copied, id: Long.fromNumber(0), ns: 'db.c' }, ok: 1 };
    expect(BSON.deserialize(encodeBody(reply)).cursor.firstBatch).toEqual([{ a: 10 }, { a: 20 }]);
    expect(BSON.deserialize(encodeBody({ ok: 1, n: 3 }))).toEqual({ ok: 1, n: 3 });
  });

  it('matches serializing the whole reply on random documents', () => {
    fc.assert(
      fc.property(fc.array(fc.object({ maxDepth: 2, values: [fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true })] }), { maxLength: 6 }), fc.integer({ min: 1, max: 4 }), (docs, size) => {
        const cursors = new CursorRegistry();
        const opened = cursors.open('db.c', docs as Doc[], { batchSize: size });
        const reply = { ...opened, ok: 1 };
        const copy = { ...reply, cursor: { ...reply.cursor, firstBatch: [...reply.cursor.firstBatch!] } };
        expect(Buffer.from(encodeBody(reply))).toEqual(Buffer.from(BSON.serialize(copy, SERIALIZE_OPTIONS)));
      }),
      { numRuns: 300 },
    );
  });
});
