import { BadRequestException, Body, Controller, HttpCode, NotFoundException, Post } from '@nestjs/common';
import { REORDER_MAX_LINES, type FillCartReply } from '@bahi/contracts';
import { Limits, money, Positions, SequenceService } from '@bahi/service-kit';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { SeenCarts } from '../carts/seen-carts';
import { addProductLine, mutate } from '../common/line-store';
import { Products } from '../common/products';
import { type CartDoc, Models } from '../common/schemas';
import { CurrentWho, type Who } from '../common/who';

const QTY = /^(\d+(\.\d{0,3})?|\.\d{1,3})$/;

/** The body of POST /reorderList/fillCart, checked whole before anything is written. */
export function parseFill(body: unknown): { cart_no: number; lines: { product_id: number; quantity: string }[] } {
  const b = (body ?? {}) as Record<string, unknown>;
  const cart_no = Number(b.cart_no ?? 1);
  if (!Number.isInteger(cart_no) || cart_no < 1 || cart_no > Limits.maxCartNo) throw new BadRequestException(`cart_no must be a whole number from 1 to ${Limits.maxCartNo}.`);
  if (!Array.isArray(b.lines) || b.lines.length === 0) throw new BadRequestException('lines must list at least one product.');
  if (b.lines.length > REORDER_MAX_LINES) throw new BadRequestException(`lines can list at most ${REORDER_MAX_LINES} products.`);
  const seen = new Set<number>();
  const lines = b.lines.map((raw, i) => {
    const l = (raw ?? {}) as Record<string, unknown>;
    const product_id = Number(l.product_id);
    if (!Number.isInteger(product_id) || product_id < 1 || product_id > Limits.maxId) throw new BadRequestException(`lines[${i}].product_id must be a product id.`);
    if (seen.has(product_id)) throw new BadRequestException(`Product ${product_id} is listed twice.`);
    seen.add(product_id);
    const q = typeof l.quantity === 'number' ? String(l.quantity) : typeof l.quantity === 'string' ? l.quantity.trim() : '';
    if (!QTY.test(q) || !money(q).greaterThan(0) || money(q).greaterThan(Limits.maxQuantity)) {
      throw new BadRequestException(`lines[${i}].quantity must be a number above 0 and at most ${Limits.maxQuantity}, with at most 3 decimals.`);
    }
    return { product_id, quantity: money(q).toFixed() };
  });
  return { cart_no, lines };
}

/**
 * Fills a cart from the reorder list in one call. It lives in sales because sales owns carts: the
 * lines are built exactly as a scan builds them (inventory's product snapshot), in one cart write.
 */
@Controller()
@Positions('manager')
export class FillCartController {
  constructor(
    @InjectModel(Models.Cart) private readonly model: Model<CartDoc>,
    private readonly products: Products,
    private readonly seq: SequenceService,
    private readonly inCart: SeenCarts,
  ) {}

  @Post('reorderList/fillCart')
  @HttpCode(200)
  async fill(@CurrentWho() who: Who, @Body() body: unknown): Promise<FillCartReply> {
    const { cart_no, lines } = parseFill(body);
    const found = await this.products.many(who.companyId, lines.map((l) => l.product_id));
    const byId = new Map(found.map((p) => [p.product_id, p]));
    const missing = lines.find((l) => !byId.has(l.product_id));
    if (missing) throw new NotFoundException(`Product ${missing.product_id} does not exist.`);
    const key = { companyId: who.companyId, userId: who.userId, cart_no };
    const cart = await mutate(this.model, key, async (doc) => {
      for (const l of lines) await addProductLine(doc.lines, byId.get(l.product_id)!, l.quantity, this.seq, who.companyId);
    }, { upsert: {} });
    this.inCart.saw(key, cart.lines);
    return { success: true, cart_no, added: lines.length };
  }
}
