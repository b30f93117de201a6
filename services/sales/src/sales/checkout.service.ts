import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { Subjects, type MakeSaleReply } from '@bahi/contracts';
import { isRealDate, leaseMs, LOGGER, NatsClient, Outbox, SequenceService, sub, today } from '@bahi/service-kit';
import { CartsService } from '../carts/carts.service';
import { type CartDoc, type EstimateDoc, type LineDoc, Models, type SaleDoc } from '../common/schemas';
import { totals, unitQuantity } from '../common/totals';
import type { Who } from '../common/who';
import { Customers } from './customers';

/** How long one attempt may hold a sale before the re-driver may take it over. */
export const LEASE_MS = leaseMs('BAHI_SALE_LEASE_MS');

export interface CheckoutInput {
  clientId?: number | null;
  paid: string;
  dueDate?: string;
  date?: string;
  idempotencyKey?: string;
  source: { kind: 'cart'; cart_no: number } | { kind: 'estimate'; estimateId: number };
}

/**
 * A sale is one business fact across services, made all-or-nothing by the kit's Outbox: stored
 * `pending` (frozen lines and totals, keyed by the idempotency key), then inventory takes the
 * stock out and ledger posts the due (both idempotent by the sale as source), the cart is emptied
 * and the sale marked `complete`. A failure reverses what was applied and marks it `failed`; the
 * re-driver takes over sales a crash left behind.
 */
@Injectable()
export class CheckoutService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly outbox: Outbox<SaleDoc, MakeSaleReply>;

  constructor(
    @InjectModel(Models.Sale) readonly sales: Model<SaleDoc>,
    @InjectModel(Models.Cart) private readonly carts: Model<CartDoc>,
    @InjectModel(Models.Estimate) private readonly estimates: Model<EstimateDoc>,
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
    private readonly customers: Customers,
    private readonly cartsService: CartsService,
    @Inject(LOGGER) log: Logger,
  ) {
    this.outbox = new Outbox<SaleDoc, MakeSaleReply>({
      model: sales,
      idField: 'saleId',
      noun: 'sale',
      leaseMs: LEASE_MS,
      log,
      apply: (sale) => this.apply(sale),
      finish: (sale) => this.emptySource(sale),
      undo: (sale) => this.undo(sale),
      answer: (sale) => ({ success: true, saleId: sale.saleId, warnings: sale.warnings }),
      completed: (sale) => void this.nats.emit(Subjects.sales.saleCreated, { companyId: sale.companyId, saleId: sale.saleId }).catch(() => undefined),
      undoneTail: 'Nothing was sold; the cart is unchanged.',
      laterTail: 'What was applied will be undone automatically; the cart is unchanged.',
    });
  }

  onApplicationBootstrap() {
    this.outbox.start();
  }

  onApplicationShutdown() {
    this.outbox.stop();
  }

  async checkout(who: Who, input: CheckoutInput): Promise<MakeSaleReply> {
    const key = input.idempotencyKey || randomUUID();
    // The cart and the customer are read while the key is looked up: a first attempt (nearly
    // every sale) waits for one round trip instead of three. Settled here, thrown below, so an
    // earlier answer or an empty cart is what the counter sees first.
    const settle = <T>(p: Promise<T>) => p.then((v) => ({ v }), (err: unknown) => ({ err }));
    const reads = Promise.all([settle(this.loadSource(who, input.source)), settle(this.customers.resolve(who.companyId, input.clientId))]);
    const earlier = await this.outbox.replay(who.companyId, key);
    if (earlier) return earlier;

    const date = input.date || today();
    const dueDate = input.dueDate || date;
    if (!isRealDate(date)) throw new BadRequestException('date must be a real date (YYYY-MM-DD).');
    if (!isRealDate(dueDate)) throw new BadRequestException('dueDate must be a real date (YYYY-MM-DD).');

    const [source, resolved] = await reads;
    if ('err' in source) throw source.err;
    const doc = source.v;
    if (!doc.lines.length) throw new BadRequestException('cart is emplty!!');
    if ('err' in resolved) throw resolved.err;
    const customer = resolved.v;
    const previousDue = await this.customers.due(who.companyId, customer);
    const t = totals(doc.lines, doc);

    const saleId = await this.seq.next(who.companyId, 'sale');
    return this.outbox.run({
      companyId: who.companyId,
      saleId,
      status: 'pending',
      idempotencyKey: key,
      lockedUntil: this.outbox.lease(),
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
      // Prices are frozen here: a later price change never alters this bill.
      lines: doc.lines,
      tax: doc.tax === 1 ? 1 : 0,
      shipping: doc.shipping,
      discount: doc.discount,
      subtotal: t.subtotal.toFixed(),
      taxAmount: t.taxAmount.toFixed(),
      amount: t.total.toFixed(),
      previousDue,
      stockApplied: false,
      ledgerPosted: false,
      warnings: [],
      createdBy: who.userId,
    });
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
    await this.outbox.mark(sale, { stockApplied: true, warnings, ledgerPosted: true });
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
    return this.outbox.compensate(sale, reason);
  }

  /** Finishes or undoes sales a crash left behind (see Outbox.redrive). Returns how many it undid. */
  redrive(): Promise<number> {
    return this.outbox.redrive();
  }
}
