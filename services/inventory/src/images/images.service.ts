import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { GridFSBucket } from 'mongodb';
import type { Connection } from 'mongoose';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ProductsService } from '../products/products.service';

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

const KINDS: { type: string; ext: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/png', ext: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/webp', ext: 'webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

/** Shown for a product without an image (001 section 9). */
export const DEFAULT_IMAGE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="180" viewBox="0 0 240 180">
<rect width="240" height="180" fill="#eef1f5"/><rect x="80" y="50" width="80" height="64" rx="6" fill="none" stroke="#9aa5b1" stroke-width="5"/>
<circle cx="104" cy="72" r="8" fill="#9aa5b1"/><path d="M86 108l22-22 14 14 10-10 22 18z" fill="#9aa5b1"/>
<text x="120" y="146" font-family="sans-serif" font-size="14" fill="#7b8794" text-anchor="middle">No image</text></svg>`;

/**
 * Product images in GridFS (bucket `product_images`). Names are unguessable
 * (p<company>-<product>-<random>.<ext>) so <img> tags load them without a token,
 * like objects on a storage host.
 */
@Injectable()
export class ImagesService {
  private readonly bucket: GridFSBucket;

  constructor(
    @InjectConnection() connection: Connection,
    private readonly products: ProductsService,
  ) {
    this.bucket = new GridFSBucket(connection.db as never, { bucketName: 'product_images' });
  }

  async store(companyId: number, productId: number, buffer: Buffer): Promise<string> {
    const p = await this.products.get(companyId, productId);
    if (!buffer.length) throw new BadRequestException('The image file is empty.');
    if (buffer.length > MAX_IMAGE_BYTES) throw new BadRequestException('The image must be at most 2 MB.');
    const kind = KINDS.find((k) => k.test(buffer));
    if (!kind) throw new BadRequestException('The image must be a PNG, JPEG or WebP file.');
    const fileName = `p${companyId}-${productId}-${randomBytes(12).toString('hex')}.${kind.ext}`;
    await new Promise<void>((resolve, reject) => {
      const up = this.bucket.openUploadStream(fileName, { metadata: { companyId, productId, contentType: kind.type } });
      up.once('error', reject);
      up.once('finish', () => resolve());
      up.end(buffer);
    });
    await this.products.model.updateOne({ companyId, product_id: productId }, { $set: { image: fileName } });
    // The old file goes unless a duplicated product still shows it.
    if (p.image && !(await this.products.model.exists({ companyId, image: p.image }))) {
      for (const f of await this.bucket.find({ filename: p.image }).toArray()) await this.bucket.delete(f._id).catch(() => undefined);
    }
    return fileName;
  }

  async open(fileName: string): Promise<{ stream: Readable; contentType: string; length: number }> {
    if (!/^p\d+-\d+-[0-9a-f]{24}\.(png|jpg|webp)$/.test(fileName)) throw new NotFoundException('Image not found.');
    const [file] = await this.bucket.find({ filename: fileName }).toArray();
    if (!file) throw new NotFoundException('Image not found.');
    const meta = (file.metadata ?? {}) as { contentType?: string };
    return { stream: this.bucket.openDownloadStream(file._id), contentType: meta.contentType ?? 'application/octet-stream', length: file.length };
  }
}
