import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { AddProductReply, CartUpdateReply, EstimateDetailsReply, EstimateListReply, EstimateSummeryReply } from '@bahi/contracts';
import { money, round2, SequenceService, today } from '@bahi/service-kit';
import { addProductLine, findLine, mutate } from '../common/line-store';
import { Companies } from '../common/company';
import { type ApprovalInput, assertSummaryFits, Discounts } from '../common/discounts';
import { type Pricing, stockWarning, stockWarnings, toCartLine, toSummery } from '../common/lines';
import { parseCode, Products } from '../common/products';
import { type CartDoc, type CustomerSnap, type EstimateDoc, Models } from '../common/schemas';
import { num, totals, type StoredLine } from '../common/totals';
import type { Who } from '../common/who';
import { setQuantity, SUGGESTION_LIMIT } from '../carts/carts.service';
import { Customers, toCustomer } from '../sales/customers';
import { SalesService, soldProduct } from '../sales/sales.service';

export const ESTIMATE_PAGE_SIZE = 10;
/** Estimates are always created from cart number 1 (spec 000 §7). */
export const ESTIMATE_CART_NO = 1;

@Injectable()
export class EstimatesService {
  constructor(
    @InjectModel(Models.Estimate) readonly model: Model<EstimateDoc>,
    @InjectModel(Models.Cart) private readonly carts: Model<CartDoc>,
    private readonly seq: SequenceService,
    private readonly customers: Customers,
    private readonly products: Products,
    private readonly sales: SalesService,
    private readonly companies: Companies,
    private readonly discounts: Discounts,
  ) {}

  /**
   * An estimate is priced for its customer (place of supply from their GSTIN or state). The
   * customer is asked of ledger only in GST mode; a customer deleted since is priced as walk-in.
   */
  private async pricing(companyId: number, clientId: number, known?: CustomerSnap | null): Promise<Pricing> {
    const co = await this.companies.get(companyId);
    if (co.tax_mode === 'simple') return { co, buyer: null };
    const c = known !== undefined ? known : await this.customers.resolve(companyId, clientId).catch(() => null);
    return { co, buyer: c && !c.walkIn ? c : null };
  }

  private filter(companyId: number, estimateId: number) {
    return { companyId, estimateId };
  }

  async get(companyId: number, estimateId: number): Promise<EstimateDoc> {
    const e = await this.model.findOne(this.filter(companyId, estimateId)).lean();
    if (!e) throw new NotFoundException(`Estimate ${estimateId} not found.`);
    return e as EstimateDoc;
  }

  /** Saves cart 1 as an estimate and empties the cart. {error} (400) for an empty cart or unknown customer. */
  async create(who: Who, clientId: number): Promise<{ success: true; estimateId: number }> {
    const key = { companyId: who.companyId, userId: who.userId, cart_no: ESTIMATE_CART_NO };
    const cart = (await this.carts.findOne(key).lean()) as CartDoc | null;
    if (!cart || !cart.lines.length) throw new BadRequestException({ statusCode: 400, error: 'cart is emplty!!', message: 'cart is emplty!!' });
    let customer;
    try {
      customer = await this.customers.resolve(who.companyId, clientId);
    } catch (err) {
      const message = (err as Error).message;
      throw new BadRequestException({ statusCode: 400, error: message, message });
    }
    const estimateId = await this.seq.next(who.companyId, 'estimate');
    await this.model.create({
      companyId: who.companyId,
      estimateId,
      clientId: customer.client_id,
      clientName: customer.walkIn ? 'Unknown' : customer.name,
      date: today(),
      createdBy: who.userId,
      lines: cart.lines,
      tax: cart.tax,
      shipping: cart.shipping,
      discount: cart.discount,
      summary_approval: cart.summary_approval ?? null,
      version: 0,
    });
    // Only what was saved leaves the cart (a line added meanwhile stays).
    const saved = new Set(cart.lines.map((l) => l.sl_no));
    await mutate(this.carts, key, (doc) => {
      doc.lines = doc.lines.filter((l) => !saved.has(l.sl_no));
      if (!doc.lines.length) Object.assign(doc, { tax: 0, shipping: '0', discount: '0', summary_approval: null });
    });
    return { success: true, estimateId };
  }

  async list(companyId: number, pageNo: number): Promise<EstimateListReply> {
    const [count, rows] = await Promise.all([
      this.model.countDocuments({ companyId }),
      this.model.find({ companyId }).sort({ estimateId: -1 }).skip(pageNo * ESTIMATE_PAGE_SIZE).limit(ESTIMATE_PAGE_SIZE).lean(),
    ]);
    const priced = await Promise.all((rows as EstimateDoc[]).map((e) => this.pricing(companyId, e.clientId)));
    return {
      estimateList: (rows as EstimateDoc[]).map((e, i) => ({
        id: e.estimateId,
        Date: e.date,
        'Clients Name': e.clientName || 'Unknown',
        'Total Amount': toSummery(1, e.lines, e, priced[i]).total,
      })),
      noOfPages: Math.max(1, Math.ceil(count / ESTIMATE_PAGE_SIZE)),
    };
  }

  /** Every estimate as a list row, newest first, streamed (the export); each customer priced once. */
  async *rows(companyId: number): AsyncGenerator<EstimateListReply['estimateList'][number]> {
    const priced = new Map<number, Promise<Pricing>>();
    const cursor = this.model.find({ companyId }).sort({ estimateId: -1 }).lean().cursor() as AsyncIterable<EstimateDoc>;
    for await (const e of cursor) {
      if (!priced.has(e.clientId)) priced.set(e.clientId, this.pricing(companyId, e.clientId));
      yield { id: e.estimateId, Date: e.date, 'Clients Name': e.clientName || 'Unknown', 'Total Amount': toSummery(1, e.lines, e, await priced.get(e.clientId)!).total };
    }
  }

  async summery(companyId: number, estimateId: number, text?: string): Promise<EstimateSummeryReply> {
    const e = await this.get(companyId, estimateId);
    const [customer, product_list] = await Promise.all([
      this.customers.resolve(companyId, e.clientId).catch(() => null),
      this.products.suggest(companyId, text, SUGGESTION_LIMIT),
    ]);
    const previous_due = customer ? await this.customers.due(companyId, customer) : '0';
    return {
      estimateId,
      cart: e.lines.map(toCartLine),
      summery: { ...toSummery(1, e.lines, e, await this.pricing(companyId, e.clientId, customer)), estimateId, client_id: e.clientId, date: e.date },
      customerDetails: customer && !customer.walkIn ? toCustomer(customer) : null,
      previous_due: num(money(previous_due)),
      product_list,
    };
  }

  async setCustomer(companyId: number, estimateId: number, clientId: number): Promise<{ success: true }> {
    await this.get(companyId, estimateId);
    const c = await this.customers.resolve(companyId, clientId);
    await this.model.updateOne(this.filter(companyId, estimateId), { $set: { clientId: c.client_id, clientName: c.walkIn ? 'Unknown' : c.name }, $inc: { version: 1 } });
    return { success: true };
  }

  async addProduct(companyId: number, estimateId: number, rawCode: string): Promise<AddProductReply> {
    await this.get(companyId, estimateId);
    const { code, quantity } = parseCode(rawCode);
    const p = await this.products.lookup(companyId, code);
    if (!p) return [];
    let line!: StoredLine;
    const e = await mutate(this.model, this.filter(companyId, estimateId), async (doc) => {
      line = await addProductLine(doc.lines, p, quantity, this.seq, companyId);
    }, { notFound: `Estimate ${estimateId} not found.` });
    const w = stockWarning(line);
    return [[toCartLine(line)], { warnings: w ? [w] : [], summery: toSummery(1, e.lines, e, await this.pricing(companyId, e.clientId)) }];
  }

  /** Applies a change; one that would leave the summary discount above the bill is refused (400), the estimate unchanged. */
  async change(companyId: number, estimateId: number, fn: (doc: EstimateDoc, co: Pricing['co']) => StoredLine | null | Promise<StoredLine | null>): Promise<CartUpdateReply> {
    let line: StoredLine | null = null;
    const coP = this.companies.get(companyId);
    coP.catch(() => undefined);
    const e = await mutate(this.model, this.filter(companyId, estimateId), async (doc) => {
      const co = await coP;
      line = await fn(doc, co);
      assertSummaryFits(doc, co);
    }, { notFound: `Estimate ${estimateId} not found.` });
    return { success: true, line: line ? toCartLine(line) : null, summery: toSummery(1, e.lines, e, await this.pricing(companyId, e.clientId)), warnings: line ? stockWarnings([line]) : [] };
  }

  async remove(companyId: number, estimateId: number, sl_no: number) {
    await this.change(companyId, estimateId, (doc) => {
      findLine(doc.lines, sl_no);
      doc.lines = doc.lines.filter((l) => l.sl_no !== sl_no);
      return null;
    });
    return { success: true };
  }

  setQuantity(companyId: number, estimateId: number, sl_no: number, quantity: string) {
    return this.change(companyId, estimateId, (doc) => setQuantity(doc, sl_no, quantity));
  }

  setDiscount(who: Who, estimateId: number, sl_no: number, discount: string, approval: ApprovalInput = {}) {
    const approve = this.discounts.gate(who, approval);
    return this.change(who.companyId, estimateId, async (doc, co) => {
      const line = findLine(doc.lines, sl_no);
      await this.discounts.setLine(doc, line, discount, co, approve);
      return line;
    });
  }

  setSummaryDiscount(who: Who, estimateId: number, discount: string, approval: ApprovalInput = {}) {
    const approve = this.discounts.gate(who, approval);
    return this.change(who.companyId, estimateId, async (doc, co) => {
      await this.discounts.setSummary(doc, discount, co, approve);
      return null;
    });
  }

  async details(companyId: number, estimateId: number): Promise<EstimateDetailsReply> {
    const e = await this.get(companyId, estimateId);
    const customer = await this.customers.resolve(companyId, e.clientId).catch(() => null);
    const t = totals(e.lines, e);
    const sum = toSummery(1, e.lines, e, await this.pricing(companyId, e.clientId, customer));
    return {
      estimateDetails: {
        estimateId,
        estimate_id: estimateId,
        date: e.date,
        tax: sum.tax,
        taxAmount: sum.taxAmount,
        shipping: num(e.shipping),
        discount: num(e.discount),
        total: sum.total,
        customer: customer && !customer.walkIn ? toCustomer(customer) : null,
        walkIn: !customer || customer.walkIn,
      },
      subtotal: num(round2(t.subtotal)),
      products: e.lines.map((l) => soldProduct(l)),
      companyDetails: await this.sales.company(companyId),
    };
  }

  async duplicate(who: Who, estimateId: number): Promise<{ success: true; duplicated_estimate_id: number }> {
    const e = await this.get(who.companyId, estimateId);
    const id = await this.seq.next(who.companyId, 'estimate');
    const lines: StoredLine[] = [];
    for (const l of e.lines) lines.push({ ...l, sl_no: await this.seq.unique(who.companyId, 'line') });
    await this.model.create({ ...stripMeta(e), estimateId: id, date: today(), createdBy: who.userId, lines, version: 0 });
    return { success: true, duplicated_estimate_id: id };
  }

  async delete(companyId: number, estimateId: number): Promise<{ success: true }> {
    const r = await this.model.deleteOne(this.filter(companyId, estimateId));
    if (r.deletedCount !== 1) throw new NotFoundException(`Estimate ${estimateId} not found.`);
    return { success: true };
  }
}

function stripMeta(e: EstimateDoc): Omit<EstimateDoc, 'estimateId'> {
  const rest = { ...e } as EstimateDoc & { _id?: unknown; __v?: unknown; createdAt?: unknown; updatedAt?: unknown };
  delete rest._id;
  delete rest.__v;
  delete rest.createdAt;
  delete rest.updatedAt;
  return rest;
}
