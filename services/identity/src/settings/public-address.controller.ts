import { BadRequestException, Body, Controller, Get, Put } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { isLocalOnlyAddress, parsePublicAddress, type PublicAddressReply } from '@bahi/contracts';
import { Positions } from '@bahi/service-kit';

/** Platform-wide settings (one document per setting), in identity's database. */
export const PLATFORM_SETTINGS = 'platform_settings';
const PUBLIC_URL_ID = 'public_url';

/** The public address stored in Setting, or null (read by identity.company.details for documents). */
export async function storedPublicUrl(conn: Connection): Promise<string | null> {
  const doc = await conn.db!.collection<{ _id: string; value?: string | null }>(PLATFORM_SETTINGS).findOne({ _id: PUBLIC_URL_ID });
  return doc?.value ?? null;
}

/** BAHI_PUBLIC_URL as documents reads it (trailing slashes dropped), or null. */
const envUrl = () => (process.env.BAHI_PUBLIC_URL || '').replace(/\/+$/, '') || null;

/** Setting > Public address: what share links use; the platform admin sets it (it overrides BAHI_PUBLIC_URL). */
@Controller('settings/public-address')
export class PublicAddressController {
  constructor(@InjectConnection() private readonly conn: Connection) {}

  private async reply(): Promise<PublicAddressReply> {
    const public_url = await storedPublicUrl(this.conn);
    const env_url = envUrl();
    const effective = public_url ?? env_url;
    return { public_url, env_url, effective, local_only: effective ? isLocalOnlyAddress(effective) : false };
  }

  @Get()
  get(): Promise<PublicAddressReply> {
    return this.reply();
  }

  @Put()
  @Positions('admin')
  async set(@Body() body: unknown): Promise<PublicAddressReply> {
    const b = body as { public_url?: unknown } | null;
    if (!b || typeof b !== 'object' || Array.isArray(b) || !('public_url' in b)) {
      throw new BadRequestException('Send the public address as public_url, like https://shop.example.in, or an empty one to clear it.');
    }
    const extra = Object.keys(b).find((k) => k !== 'public_url');
    if (extra) throw new BadRequestException(`"${extra}" is not part of the public address.`);
    const parsed = parsePublicAddress(b.public_url);
    if ('problem' in parsed) throw new BadRequestException(parsed.problem);
    await this.conn.db!.collection<{ _id: string; value: string | null; at: Date }>(PLATFORM_SETTINGS).updateOne(
      { _id: PUBLIC_URL_ID },
      { $set: { value: parsed.url, at: new Date() } },
      { upsert: true },
    );
    return this.reply();
  }
}
