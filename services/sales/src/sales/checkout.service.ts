import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { Subjects, type MakeSaleReply, type PreviewSaleReply } from '@bahi/contracts';
import { faultPoint, isRealDate, leaseMs, LOGGER, NatsClient, Saga, SequenceService, sub, today } from '@bahi/service-kit';
import { readPayments } from '../common/payments';
import { GstError, parseRecipient, type RecipientDetails } from '@bahi/gst';
import { CartsService } from '../carts/carts.service';
import { Companies, isGstMode } from '../common/company';
import { counterGst, saleGst } from '../common/gst';
import { num } from '../common/totals';
import { type CartDoc, type EstimateDoc, type LineDoc, Models, type SaleDoc } from '../common/schemas';
import { totals, unitQuantity } from '../common/totals';
import type { Who } from '../common/who';
import { Customers } from './customers';
import { SalesEvents } from '../events/sales-events';
import { fyOfDate, InvoiceNumbers } from './invoice-numbers';
import { FilingService } from '../gst-filing/filing.service';
import { saleApprovals } from '../common/discounts';
import { assertCounterGuards, assertRegisterOpen, walkinDue } from './counter-guards';

/** The typed recipient (400 with its sentence); null when none was sent. */
function readRecipient(input: unknown): RecipientDetails | null {
  if (input === undefined || input === null) return null;
  try {
    return parseRecipient(input);
  } catch (err) {
    if (err instanceof GstError) throw new BadRequestException(err.message);
    throw err;
  }
}

/** How long one attempt may hold a sale before the re-driver may take it over. */
export const LEASE_MS = leaseMs('BAHI_SALE_LEASE_MS');

export interface CheckoutInput {
  clientId?: number | null;
  paid: string;
  dueDate?: string;
  date?: string;
  idempotencyKey?: string;
  /** A walk-in buyer's particulars typed at the counter (Rule 46(e)); read with @bahi/gst parseRecipient. */
  recipient?: unknown;
  /** How paid is tendered (issue 28): [{ mode, amount, ref? }]; absent: cash. */
  payments?: unknown;
  source: { kind: 'cart'; cart_no: number } | { kind: 'estimate'; estimateId: number };
}

/**
 * A sale is one business fact across services, made all-or-nothing by the kit's Saga: stored
 * `pending` (frozen lines and totals, keyed by the idempotency key), then inventory takes the
 * stock out and ledger posts the due (both idempotent by the sale as source), the cart is emptied
 * and the sale marked `complete`. A failure reverses what was applied and marks it `failed`; the
 * re-driver takes over sales a crash left behind.
 */
@Injectable()
export class CheckoutService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly saga: Saga<SaleDoc, MakeSaleReply>;

  constructor(
    @InjectModel(Models.Sale) readonly sales: Model<SaleDoc>,
    @InjectModel(Models.Cart) private readonly carts: Model<CartDoc>,
    @InjectModel(Models.Estimate) private readonly estimates: Model<EstimateDoc>,
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
    private readonly customers: Customers,
    private readonly cartsService: CartsService,
    private readonly companies: Companies,
    private readonly numbers: InvoiceNumbers,
    private readonly filing: FilingService,
    @Inject(LOGGER) log: Logger,
    events: SalesEvents,
  ) {
    this.saga = new Saga<SaleDoc, MakeSaleReply>({
      // The completing update marks the sale's event pending; the relay publishes it after the answer.
      relay: events.relay.forSource('sale'),
      model: sales,
      idField: 'saleId',
      noun: 'sale',
      leaseMs: LEASE_MS,
      log,
      apply: (sale) => this.apply(sale),
      // The invoice number is written with the point of no return (apply); a sale the re-driver
      // finishes without one (marked before numbering moved there) gets it here, beside the cart.
      finish: async (sale) => {
        const [numbered, emptied] = await Promise.allSettled([this.numbers.assign(sale), this.emptySource(sale)]);
        if (numbered.status === 'rejected') throw numbered.reason;
        if (emptied.status === 'rejected') throw emptied.reason;
      },
      undo: (sale) => this.undo(sale),
      answer: (sale) => ({ success: true, saleId: sale.saleId, warnings: sale.warnings, invoice_no: sale.gst?.invoice_no || null }),
      completed: (sale) => void this.nats.emit(Subjects.sales.saleCreated, { companyId: sale.companyId, saleId: sale.saleId }).catch(() => undefined),
      undoneTail: 'Nothing was sold; the cart is unchanged.',
      laterTail: 'What was applied will be undone automatically; the cart is unchanged.',
    });
  }

  onApplicationBootstrap() {
    this.saga.start();
  }

  onApplicationShutdown() {
    this.saga.stop();
  }

  /**
   * MAKE_SALE. The idempotency key is not looked up first: the sale's insert finds it taken (the
   * unique index) and answers the earlier attempt (Saga.run). Only a request about to be refused
   * looks it up, so a retry of a sale that emptied its cart gets the sale, not "cart is emplty!!".
   * A retry that gets as far as the insert has taken a saleId it does not use: sale ids may have
   * gaps (the spec numbers nothing by them; GST invoice numbers, which must not, are taken at the
   * point of no return).
   */
  async checkout(who: Who, input: CheckoutInput): Promise<MakeSaleReply> {
    const key = input.idempotencyKey || randomUUID();
    let sale: SaleDoc;
    try {
      sale = await this.prepare(who, input, key);
    } catch (err) {
      const earlier = input.idempotencyKey ? await this.saga.replay(who.companyId, key) : null;
      if (earlier) return earlier;
      throw err;
    }
    return this.saga.run(sale);
  }

  /** The pending sale of the cart (or estimate), every check passed and its saleId taken; throws the refusal. */
  private async prepare(who: Who, input: CheckoutInput, key: string): Promise<SaleDoc> {
    // The cart, the customer and the company are read at once: one round trip's wait, not three.
    // Settled here, thrown below, so an empty cart is what the counter sees first.
    const settle = <T>(p: Promise<T>) => p.then((v) => ({ v }), (err: unknown) => ({ err }));
    const reads = Promise.all([settle(this.loadSource(who, input.source)), settle(this.customers.resolve(who.companyId, input.clientId)), settle(this.companies.get(who.companyId))]);

    const date = input.date || today();
    const dueDate = input.dueDate || date;
    if (!isRealDate(date)) throw new BadRequestException('date must be a real date (YYYY-MM-DD).');
    if (!isRealDate(dueDate)) throw new BadRequestException('dueDate must be a real date (YYYY-MM-DD).');
    const typed = readRecipient(input.recipient);
    const payments = readPayments(input.payments, input.paid, 'paid');

    const [source, resolved, company] = await reads;
    if ('err' in source) throw source.err;
    const doc = source.v;
    if (!doc.lines.length) throw new BadRequestException('cart is emplty!!');
    if ('err' in resolved) throw resolved.err;
    if ('err' in company) throw company.err;
    const customer = resolved.v;
    const co = company.v;
    if (typed && !customer.walkIn) throw new BadRequestException(`recipient is for a walk-in buyer; customer ${customer.client_id} (${customer.name}) is printed from their record.`);
    // GST mode: the invoice for this customer (400 naming a product without HSN, or a composition
    // dealer's inter-state supply), and room in the year's series, before anything is applied.
    const fy = isGstMode(co) ? fyOfDate(date) : '';
    const gst = saleGst(co, doc.lines, doc, customer, date, fy, typed);
    // A back-dated sale into a filed period is refused: that return is closed (gst-filing).
    if (gst) await this.filing.assertOpen(who.companyId, date);
    const [previousDue] = await Promise.all([
      this.customers.due(who.companyId, customer),
      gst ? this.numbers.assertRoom(who.companyId, fy, co.invoice_prefix) : undefined,
    ]);
    // The Tax flag does not apply in GST mode; the sale is worth the invoice value.
    const t = totals(doc.lines, gst ? { ...doc, tax: 0 } : doc);
    assertCounterGuards(doc, co, gst ? gst.gst.invoice_value : t.total, input.paid, customer.walkIn);
    await assertRegisterOpen(co, payments, async () => (await this.nats.send(Subjects.ledger.registerCheck, { companyId: who.companyId, userId: who.userId })).open);
    const approvals = saleApprovals(doc);

    const saleId = await this.seq.next(who.companyId, 'sale');
    return {
      companyId: who.companyId,
      saleId,
      status: 'pending',
      idempotencyKey: key,
      lockedUntil: this.saga.lease(),
      source: {
        kind: input.source.kind,
        userId: who.userId,
        cart_no: input.source.kind === 'cart' ? input.source.cart_no : 0,
        estimateId: input.source.kind === 'estimate' ? input.source.estimateId : 0,
        version: doc.version ?? 0,
      },
      clientId: customer.client_id,
      customer,
      date,
      dueDate,
      paid: input.paid,
      payments,
      // Prices are frozen here: a later price change never alters this bill.
      lines: doc.lines,
      tax: !gst && doc.tax === 1 ? 1 : 0,
      shipping: doc.shipping,
      discount: doc.discount,
      ...(approvals.length ? { approvals } : {}),
      subtotal: t.subtotal.toFixed(),
      taxAmount: gst ? gst.gst.tax_total : t.taxAmount.toFixed(),
      amount: gst ? gst.gst.invoice_value : t.total.toFixed(),
      tax_mode: gst ? gst.gst.tax_mode : 'simple',
      gst: gst ? gst.gst : null,
      ...(gst ? { invoicePrefix: co.invoice_prefix } : {}),
      previousDue,
      stockApplied: false,
      ledgerPosted: false,
      warnings: [],
      createdBy: who.userId,
    };
  }

  /**
   * GET /previewSale: what a sale of the cart (or estimate) to this customer would come to, priced
   * for them (place of supply from their GSTIN or state). Reads only. An estimate without a
   * clientId is priced for its own customer.
   */
  async preview(who: Who, q: { cart_no?: number; estimateId?: number; clientId?: number | null; paid?: string }): Promise<PreviewSaleReply> {
    if (q.estimateId !== undefined && q.cart_no !== undefined) throw new BadRequestException('Give cart_no or estimateId, not both.');
    const source: CheckoutInput['source'] = q.estimateId !== undefined ? { kind: 'estimate', estimateId: q.estimateId } : { kind: 'cart', cart_no: q.cart_no ?? 1 };
    const [doc, co] = await Promise.all([this.loadSource(who, source), this.companies.get(who.companyId)]);
    const clientId = q.clientId ?? (source.kind === 'estimate' ? (doc as EstimateDoc).clientId : 0);
    const customer = await this.customers.resolve(who.companyId, clientId);
    const previousDue = await this.customers.due(who.companyId, customer);
    // Priced on today's rates (the counter's day); a back-dated sale is priced on its own date at checkout.
    const gst = counterGst(co, doc.lines, doc, customer.walkIn ? null : customer, today());
    const amount = gst && !gst.error ? gst.invoice_value : num(totals(doc.lines, gst ? { ...doc, tax: 0 } : doc).total);
    return { tax_mode: co.tax_mode, amount, previousDue: num(previousDue), gst, ...(q.paid !== undefined ? walkinDue(co, customer.walkIn, gst && !gst.error ? gst.invoice_value : totals(doc.lines, gst ? { ...doc, tax: 0 } : doc).total, q.paid) : {}) };
  }

  private async loadSource(who: Who, source: CheckoutInput['source']): Promise<LineDoc> {
    if (source.kind === 'cart') {
      // Through the driver, as every cart read and write of the counter (see line-store).
      const cart = await this.carts.collection.findOne({ companyId: who.companyId, userId: who.userId, cart_no: source.cart_no });
      return (cart as LineDoc | null) ?? { companyId: who.companyId, lines: [], tax: 0, shipping: '0', discount: '0', version: 0 };
    }
    const est = await this.estimates.findOne({ companyId: who.companyId, estimateId: source.estimateId }).lean();
    if (!est) throw new NotFoundException(`Estimate ${source.estimateId} not found.`);
    return est as LineDoc;
  }

  /**
   * Stock out and the customer's due (both idempotent by the sale as source; an undo reverses
   * both in any order). The walk-in's account is never shown, so its entry is posted alongside
   * the stock and the sale waits for the slower of the two. A named customer's due is posted only
   * once the stock is out, so a refused sale leaves no sale-and-reversal pair on their statement.
   * Progress is written once, after both: an undo reverses both whether or not they were applied.
   */
  private async apply(sale: SaleDoc): Promise<void> {
    const source = { kind: 'sale' as const, id: sale.saleId };
    const takeStock = () =>
      this.nats.send(Subjects.inventory.stockApply, {
        companyId: sale.companyId,
        source,
        date: sale.date,
        lines: sale.lines.map((l) => ({ product_id: l.product_id, quantity: unitQuantity(l).toFixed(), rate: sub(l.mrp, l.discount).toFixed() })),
      });
    const postDue = () =>
      this.nats.send(Subjects.ledger.entryPost, {
        companyId: sale.companyId,
        party: { kind: 'customer', id: sale.customer.client_id },
        source,
        amount: sale.amount,
        paid: sale.paid,
        dueDate: sale.dueDate,
        date: sale.date,
        // The tenders and the cashier, for the cash books (sales before modes: cash).
        payments: sale.payments ?? null,
        ...(sale.createdBy > 0 ? { by: sale.createdBy } : {}),
      });
    let applied: Awaited<ReturnType<typeof takeStock>>;
    if (sale.customer.walkIn) {
      const [stock, due] = await Promise.allSettled([takeStock(), postDue()]);
      if (stock.status === 'rejected') throw stock.reason;
      if (due.status === 'rejected') throw due.reason;
      applied = stock.value;
    } else {
      applied = await takeStock();
      await postDue();
    }
    const negative = new Set(applied.negativeStock ?? []);
    const warnings = sale.lines
      .filter((l) => negative.has(l.product_id))
      .map((l) => `Stock of ${l.product_name} (${l.product_id}) is now below zero; book the purchase.`);
    const progress = { stockApplied: true, warnings, ledgerPosted: true };
    // The point of no return and the invoice number in one write: a sale past it has its number,
    // an undone one never took one (and a sale costs one update fewer than numbering apart). The
    // write is guarded as the saga's own mark is (still pending, still this attempt's), so no
    // fence follows it.
    if (sale.gst && !(sale.gst.serial > 0)) await this.saga.passNoReturn(sale, (guard, renew) => this.numbers.assign(sale, { ...progress, ...renew }, guard));
    else await this.saga.mark(sale, progress);
    // Kill point (tests only, docs/reliability.md): a sale past its point of no return, unfinished.
    faultPoint('sale.after-ledger');
  }

  private async emptySource(sale: SaleDoc) {
    if (sale.source.kind !== 'cart') return;
    const key = { companyId: sale.companyId, userId: sale.source.userId, cart_no: sale.source.cart_no };
    // A cart changed during checkout loses only the sold lines. A cart too busy to change (the
    // version check lost 20 times) keeps them for the cashier: the sale is past undoing.
    await this.cartsService.emptySold(key, sale.source.version, sale.lines.map((l) => l.sl_no)).catch((err: unknown) => {
      if (!(err instanceof ConflictException)) throw err;
    });
  }

  private async undo(sale: SaleDoc): Promise<void> {
    const source = { kind: 'sale' as const, id: sale.saleId };
    await this.nats.send(Subjects.inventory.stockReverse, { companyId: sale.companyId, source });
    await this.nats.send(Subjects.ledger.entryReverse, { companyId: sale.companyId, source });
  }

  /** Reverses stock and ledger and marks the sale failed. True when fully undone. */
  compensate(sale: SaleDoc, reason: string): Promise<boolean> {
    return this.saga.compensate(sale, reason);
  }

  /** Finishes or undoes sales a crash left behind (see Saga.redrive). Returns how many it undid. */
  redrive(): Promise<number> {
    return this.saga.redrive();
  }
}
