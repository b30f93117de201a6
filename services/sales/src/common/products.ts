import { BadRequestException, Injectable } from '@nestjs/common';
import { Subjects, type ProductSnapshot, type ProductSuggestion } from '@bahi/contracts';
import { hasControlChar, Limits, money, NatsClient } from '@bahi/service-kit';

/** `5*12` -> quantity 5 of code 12; a plain code -> quantity 1 (or the given one). */
export function parseCode(raw: string, quantity?: string): { code: string; quantity: string } {
  // The route parameter arrives decoded already: decoding again turned "%25" into a 500.
  const text = raw.trim();
  if (text.length > Limits.maxCodeChars) throw new BadRequestException(`A product id or barcode has at most ${Limits.maxCodeChars} characters.`);
  if (hasControlChar(text)) throw new BadRequestException('A product id or barcode cannot hold control characters.');
  const m = /^(\d+(?:\.\d+)?|\.\d+)\s*[*xX]\s*(.+)$/.exec(text);
  const code = (m ? m[2]! : text).split(':')[0]!.trim();
  const q = m ? m[1]! : (quantity ?? '1');
  if (!code) throw new BadRequestException('A product id or barcode is required.');
  if (money(q).lessThanOrEqualTo(0)) throw new BadRequestException('quantity must be above 0.');
  if (money(q).greaterThan(Limits.maxQuantity)) throw new BadRequestException(`quantity must be at most ${Limits.maxQuantity}.`);
  return { code, quantity: money(q).toFixed() };
}

/** What sales asks inventory. */
@Injectable()
export class Products {
  constructor(private readonly nats: NatsClient) {}

  lookup(companyId: number, code: string): Promise<ProductSnapshot | null> {
    return this.nats.send(Subjects.inventory.productLookup, { companyId, code });
  }
  many(companyId: number, productIds: number[]): Promise<ProductSnapshot[]> {
    if (!productIds.length) return Promise.resolve([]);
    return this.nats.send(Subjects.inventory.productMany, { companyId, productIds });
  }
  suggest(companyId: number, text: string | undefined, limit: number): Promise<ProductSuggestion[]> {
    return this.nats.send(Subjects.inventory.productSuggest, { companyId, text: text?.trim() || undefined, limit });
  }
}
