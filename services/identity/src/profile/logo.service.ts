import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { GridFSBucket, ObjectId } from 'mongodb';
import type { Connection } from 'mongoose';
import type { Readable } from 'node:stream';
import { CompaniesService } from '../companies/companies.service';

export const MAX_LOGO_BYTES = 2 * 1024 * 1024;

const KINDS: { type: string; ext: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/png', ext: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/webp', ext: 'webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

/** Company logos in GridFS (bucket `logos`), one per company. */
@Injectable()
export class LogoService {
  private readonly bucket: GridFSBucket;

  constructor(
    @InjectConnection() connection: Connection,
    private readonly companies: CompaniesService,
  ) {
    this.bucket = new GridFSBucket(connection.db as never, { bucketName: 'logos' });
  }

  /** The image kind judged by its bytes, not by what the browser claimed. */
  static sniff(buffer: Buffer) {
    return KINDS.find((k) => k.test(buffer)) ?? null;
  }

  async store(companyId: number, buffer: Buffer): Promise<string> {
    if (!buffer.length) throw new BadRequestException('The image file is empty.');
    if (buffer.length > MAX_LOGO_BYTES) throw new BadRequestException('The image must be at most 2 MB.');
    const kind = LogoService.sniff(buffer);
    if (!kind) throw new BadRequestException('The image must be a PNG, JPEG or WebP file.');
    const company = await this.companies.get(companyId);
    const fileName = `company-${companyId}-${Date.now()}.${kind.ext}`;
    const id = await new Promise<ObjectId>((resolve, reject) => {
      const up = this.bucket.openUploadStream(fileName, { metadata: { companyId, contentType: kind.type } });
      up.once('error', reject);
      up.once('finish', () => resolve(up.id as ObjectId));
      up.end(buffer);
    });
    const previous = company.logo;
    await this.companies.model.updateOne({ id: companyId }, { $set: { logo: id } });
    if (previous) await this.bucket.delete(new ObjectId(String(previous))).catch(() => undefined);
    return fileName;
  }

  async open(companyId: number): Promise<{ stream: Readable; contentType: string; length: number; etag: string }> {
    const company = await this.companies.model.findOne({ id: companyId }).lean();
    if (!company?.logo) throw new NotFoundException(`Company ${companyId} has no logo.`);
    const id = new ObjectId(String(company.logo));
    const [file] = await this.bucket.find({ _id: id }).toArray();
    if (!file) throw new NotFoundException(`Company ${companyId} has no logo.`);
    const meta = (file.metadata ?? {}) as { contentType?: string };
    return { stream: this.bucket.openDownloadStream(id), contentType: meta.contentType ?? 'application/octet-stream', length: file.length, etag: `"${id.toHexString()}"` };
  }

  async remove(logo: unknown): Promise<void> {
    if (logo) await this.bucket.delete(new ObjectId(String(logo))).catch(() => undefined);
  }
}
