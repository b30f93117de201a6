import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { GridFSBucket } from 'mongodb';
import { startHarness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => (h = await startHarness()));
afterAll(() => h.stop());

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

describe('GridFS through the driver', () => {
  it('uploads, lists, downloads (whole and ranged) and deletes files', async () => {
    const bucket = new GridFSBucket(h.client.db('files'), { bucketName: 'images', chunkSizeBytes: 64 * 1024 });
    const data = crypto.randomBytes(300 * 1024 + 17);
    const upload = bucket.openUploadStream('logo.png', { metadata: { companyId: 3 } });
    await new Promise<void>((resolve, reject) => Readable.from([data]).pipe(upload).on('finish', () => resolve()).on('error', reject));

    const files = await bucket.find({ 'metadata.companyId': 3 }).toArray();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ filename: 'logo.png', length: data.length, chunkSize: 64 * 1024 });
    expect(await h.client.db('files').collection('images.chunks').countDocuments({ files_id: upload.id })).toBe(5);

    expect((await readAll(bucket.openDownloadStream(upload.id))).equals(data)).toBe(true);
    expect((await readAll(bucket.openDownloadStreamByName('logo.png'))).equals(data)).toBe(true);
    const part = await readAll(bucket.openDownloadStream(upload.id, { start: 70_000, end: 140_000 }));
    expect(part.equals(data.subarray(70_000, 140_000))).toBe(true);

    const indexes = (await h.client.db('files').collection('images.chunks').indexes()).find((i) => i.name === 'files_id_1_n_1');
    expect(indexes).toMatchObject({ unique: true });

    await bucket.delete(upload.id);
    expect(await bucket.find({}).toArray()).toEqual([]);
    expect(await h.client.db('files').collection('images.chunks').countDocuments()).toBe(0);
  });
});
