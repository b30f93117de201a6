import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { AddProductReply, CartUpdateReply, GetProductsReply } from '@bahi/contracts';
import { SequenceService } from '@bahi/service-kit';
import { addProductLine, findLine, mutate, pushNewLine } from '../common/line-store';
import { lineFromProduct, type Pricing, stockWarning, stockWarnings, toCartLine, toSummery } from '../common/lines';
import { Companies } from '../common/company';
import { type ApprovalInput, assertSummaryFits, Discounts } from '../common/discounts';
import { parseCode, Products } from '../common/products';
import { type CartDoc, Models } from '../common/schemas';
import type { StoredLine } from '../common/totals';
import type { Who } from '../common/who';
import { type CartKey, SeenCarts } from './seen-carts';

export type { Who };

export const SUGGESTION_LIMIT = 50;

/** The counter's carts: one per user and cart_no. */
@Injectable()
export class CartsService {
  constructor(
    @InjectModel(Models.Cart) readonly model: Model<CartDoc>,
    private readonly products: Products,
    private readonly seq: SequenceService,
    private readonly inCart: SeenCarts,
    private readonly companies: Companies,
    private readonly discounts: Discounts,
  ) {}

  /** A cart is priced for the walk-in (the company's state) until a customer is chosen at checkout. */
  private async pricing(companyId: number): Promise<Pricing> {
    return { co: await this.companies.get(companyId), buyer: null };
  }

  private key(who: Who, cart_no: number) {
    return { companyId: who.companyId, userId: who.userId, cart_no };
  }

  async get(who: Who, cart_no: number): Promise<CartDoc> {
    const doc = await this.model.findOne(this.key(who, cart_no)).lean();
    return (doc as CartDoc | null) ?? { ...this.key(who, cart_no), lines: [], tax: 0, shipping: '0', discount: '0', version: 0 };
  }

  async view(who: Who, cart_no: number, text?: string): Promise<GetProductsReply> {
    const [cart, product_list, pricing] = await Promise.all([
      this.get(who, cart_no),
      this.products.suggest(who.companyId, text, SUGGESTION_LIMIT),
      this.pricing(who.companyId),
    ]);
    return { cart: cart.lines.map(toCartLine), cart_no, summery: toSummery(cart_no, cart.lines, cart, pricing), product_list };
  }

  async addProduct(who: Who, cart_no: number, rawCode: string, quantity?: string): Promise<AddProductReply> {
    const { code, quantity: q } = parseCode(rawCode, quantity);
    const key = this.key(who, cart_no);
    const pricingP = this.pricing(who.companyId);
    pricingP.catch(() => undefined);
    const product = await this.products.lookup(who.companyId, code);
    if (!product) return [];
    let line: StoredLine | undefined;
    let cart: CartDoc | null = null;
    // A product new to the cart (nearly every scan) is one command; one already there adds to its
    // line by read-modify-write. Which it is, is guessed from the cart this process saw last: a
    // wrong guess costs a command, never a wrong cart.
    if (!this.inCart.has(key, product.product_id)) {
      line = lineFromProduct(product, await this.seq.unique(who.companyId, 'line'), q);
      cart = await pushNewLine(this.model, key, line);
    }
    if (!cart) {
      cart = await mutate(this.model, key, async (doc) => {
        line = await addProductLine(doc.lines, product, q, this.seq, who.companyId);
      }, { upsert: {} });
    }
    this.inCart.saw(key, cart.lines);
    const warning = stockWarning(line!);
    return [[toCartLine(line!)], { warnings: warning ? [warning] : [], summery: toSummery(cart_no, cart.lines, cart, await pricingP) }];
  }

  /**
   * Applies a line or summary change to the cart holding `sl_no` (or cart_no). A change that would
   * leave the summary discount above the bill is refused (400), the cart unchanged.
   */
  async change(who: Who, where: { cart_no?: number; sl_no?: number }, fn: (doc: CartDoc, pricing: Pricing) => StoredLine | null | Promise<StoredLine | null>): Promise<CartUpdateReply> {
    const filter: Record<string, unknown> = { companyId: who.companyId, userId: who.userId };
    if (where.sl_no !== undefined) filter['lines.sl_no'] = where.sl_no;
    if (where.cart_no !== undefined || where.sl_no === undefined) filter.cart_no = where.cart_no ?? 1;
    let line: StoredLine | null = null;
    const pricingP = this.pricing(who.companyId);
    pricingP.catch(() => undefined);
    const cart = await mutate(this.model, filter, async (doc) => {
      const pricing = await pricingP;
      line = await fn(doc, pricing);
      assertSummaryFits(doc, pricing.co);
    }, where.sl_no === undefined ? { upsert: {} } : { notFound: `No line ${where.sl_no} in your cart.` });
    return {
      success: true,
      line: line ? toCartLine(line) : null,
      summery: toSummery(cart.cart_no, cart.lines, cart, await pricingP),
      warnings: line ? stockWarnings([line]) : [],
    };
  }

  async remove(who: Who, sl_no: number): Promise<{ success: true }> {
    await this.change(who, { sl_no }, (doc) => {
      doc.lines = doc.lines.filter((l) => l.sl_no !== sl_no);
      return null;
    });
    return { success: true };
  }

  setQuantity(who: Who, sl_no: number, quantity: string, cart_no?: number) {
    return this.change(who, { sl_no, cart_no }, (doc) => setQuantity(doc, sl_no, quantity));
  }

  setDiscount(who: Who, sl_no: number, discount: string, cart_no?: number, approval: ApprovalInput = {}) {
    const approve = this.discounts.gate(who, approval);
    return this.change(who, { sl_no, cart_no }, async (doc, { co }) => {
      const line = findLine(doc.lines, sl_no);
      await this.discounts.setLine(doc, line, discount, co, approve);
      return line;
    });
  }

  setSummaryDiscount(who: Who, cart_no: number, discount: string, approval: ApprovalInput = {}) {
    const approve = this.discounts.gate(who, approval);
    return this.change(who, { cart_no }, async (doc, { co }) => {
      await this.discounts.setSummary(doc, discount, co, approve);
      return null;
    });
  }

  /** Empties lines and summary; {success:false} semantics are left to the caller. */
  async clear(who: Who, cart_no: number): Promise<{ success: true }> {
    await this.empty(this.key(who, cart_no));
    return { success: true };
  }

  /**
   * Empties a cart after a sale or purchase made from it: all of it while it is still the version
   * that was sold, else (changed meanwhile) only the sold lines. False when none of them is left.
   * Safe to repeat.
   */
  async emptySold(key: CartKey, version: number, soldSlNos: readonly number[]): Promise<boolean> {
    if (await this.empty(key, version)) return true;
    const sold = new Set(soldSlNos);
    const cart = (await this.model.collection.findOne(key)) as CartDoc | null;
    if (!cart || !cart.lines.some((l) => sold.has(l.sl_no))) return false;
    await mutate(this.model, key, (doc) => {
      doc.lines = doc.lines.filter((l) => !sold.has(l.sl_no));
    });
    return true;
  }

  /** Empties lines and summary (only at `version` when given); whether the cart matched. */
  private async empty(key: CartKey, version?: number): Promise<boolean> {
    const filter = version === undefined ? key : { ...key, version };
    const r = await this.model.collection.updateOne(filter, { $set: { lines: [], tax: 0, shipping: '0', discount: '0', summary_approval: null, updatedAt: new Date() }, $inc: { version: 1 } });
    if (r.matchedCount !== 1) return false;
    this.inCart.saw(key, []);
    return true;
  }
}

/** Quantity 0 removes the line (spec 000 §4). */
export function setQuantity(doc: { lines: StoredLine[] }, sl_no: number, quantity: string): StoredLine | null {
  const line = findLine(doc.lines, sl_no);
  if (/^0*(\.0*)?$/.test(quantity)) {
    doc.lines = doc.lines.filter((l) => l.sl_no !== sl_no);
    return null;
  }
  line.quantity = quantity;
  return line;
}
