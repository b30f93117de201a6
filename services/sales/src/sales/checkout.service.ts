import { BadRequestException, ConflictException, HttpException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { Subjects, type MakeSaleReply } from '@bahi/contracts';
import { LOGGER, NatsClient, SequenceService, sub } from '@bahi/service-kit';
import { isRealDate, today } from '../common/dto';
import { mutate } from '../common/line-store';
import { type CartDoc, type EstimateDoc, type LineDoc, Models, type SaleDoc } from '../common/schemas';
import { totals, unitQuantity } from '../common/totals';
import type { Who } from '../common/who';
import { Customers } from './customers';

/** How long one attempt may hold a sale before the re-driver may take it over (2 NATS timeouts and margin). */
export const LEASE_MS = Number(process.env.BAHI_SALE_LEASE_MS) > 0 ? Number(process.env.BAHI_SALE_LEASE_MS) : 30_000;
/** How often pending sales left by a crash are looked for. */
export const REDRIVE_EVERY_MS = 10_000;

export interface CheckoutInput {
  clientId?: number | null;
  paid: string;
  dueDate?: string;
  date?: string;
  idempotencyKey?: string;
  source: { kind: 'cart'; cart_no: number } | { kind: 'estimate'; estimateId: number };
}

/**
 * A sale is one business fact across services. The sale is stored first as `pending` (with its
 * frozen lines and totals, keyed by the idempotency key), then inventory takes the stock out and
 * ledger posts the due (both idempotent by the sale as source), then the sale is marked
 * `complete` and the cart emptied. A failed step reverses what was applied and marks the sale
 * `failed`; a sale left pending by a crash is undone by the re-driver once its lease expires.
 */
@Injectable()
export class CheckoutService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private redriving: Promise<number> | null = null;

  constructor(
    @InjectModel(Models.Sale) readonly sales: Model<SaleDoc>,
    @InjectModel(Models.Cart) private readonly carts: Model<CartDoc>,
    @InjectModel(Models.Estimate) private readonly estimates: Model<EstimateDoc>,
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
    private readonly customers: Customers,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => void this.redrive().catch((err) => this.log.warn({ err }, 'sale re-drive failed')), REDRIVE_EVERY_MS);
    this.timer.unref();
    void this.redrive().catch((err) => this.log.warn({ err }, 'sale re-drive failed'));
  }

  onApplicationShutdown() {
    if (this.timer) clearInterval(this.timer);
  }

  async checkout(who: Who, input: CheckoutInput): Promise<MakeSaleReply> {
    const key = input.idempotencyKey || randomUUID();
    const earlier = await this.sales.findOne({ companyId: who.companyId, idempotencyKey: key }).lean();
    if (earlier) return this.resume(earlier as SaleDoc);

    const date = input.date || today();
    const dueDate = input.dueDate || date;
    if (!isRealDate(date)) throw new BadRequestException('date must be a real date (YYYY-MM-DD).');
    if (!isRealDate(dueDate)) throw new BadRequestException('dueDate must be a real date (YYYY-MM-DD).');

    const doc = await this.loadSource(who, input.source);
    if (!doc.lines.length) throw new BadRequestException('cart is emplty!!');
    const customer = await this.customers.resolve(who.companyId, input.clientId);
    const previousDue = await this.customers.due(who.companyId, customer);
    const t = totals(doc.lines, doc);

    const saleId = await this.seq.next(who.companyId, 'sale');
    const sale: SaleDoc = {
      companyId: who.companyId,
      saleId,
      status: 'pending',
      idempotencyKey: key,
      lockedUntil: new Date(Date.now() + LEASE_MS),
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
    };
    try {
      await this.sales.create(sale);
    } catch (err) {
      // The same key raced in (a double click): answer what that attempt answers.
      if ((err as { code?: number }).code !== 11000) throw err;
      const other = await this.sales.findOne({ companyId: who.companyId, idempotencyKey: key }).lean();
      if (!other) throw new ConflictException('This sale is being retried; please try again.');
      return this.resume(other as SaleDoc);
    }
    return this.drive(sale);
  }

  /** A retried request: the finished answer, the running attempt's answer, or a takeover of a stalled one. */
  private async resume(sale: SaleDoc): Promise<MakeSaleReply> {
    for (;;) {
      if (sale.status === 'complete') return { success: true, saleId: sale.saleId, warnings: sale.warnings };
      if (sale.status === 'failed') throw new ConflictException(`Sale ${sale.saleId} failed: ${sale.error ?? 'it was undone'}`);
      if (sale.status === 'pending') {
        const claimed = await this.claim(sale, 'pending');
        if (claimed) return this.drive(claimed);
      }
      if (sale.status === 'compensating') throw new ConflictException('The earlier attempt of this sale is being undone; please try again in a moment.');
      await new Promise((r) => setTimeout(r, 100));
      const now = await this.sales.findOne({ companyId: sale.companyId, saleId: sale.saleId }).lean();
      if (!now) throw new NotFoundException(`Sale ${sale.saleId} not found.`);
      sale = now as SaleDoc;
    }
  }

  /** Takes the lease of a sale whose lease expired; null when someone else holds it. */
  private async claim(sale: SaleDoc, status: SaleDoc['status']): Promise<SaleDoc | null> {
    const now = new Date();
    const doc = await this.sales
      .findOneAndUpdate(
        { companyId: sale.companyId, saleId: sale.saleId, status, lockedUntil: { $lt: now } },
        { $set: { lockedUntil: new Date(now.getTime() + LEASE_MS) } },
        { new: true },
      )
      .lean();
    return (doc as SaleDoc | null) ?? null;
  }

  private async loadSource(who: Who, source: CheckoutInput['source']): Promise<LineDoc> {
    if (source.kind === 'cart') {
      const cart = await this.carts.findOne({ companyId: who.companyId, userId: who.userId, cart_no: source.cart_no }).lean();
      return (cart as LineDoc | null) ?? { companyId: who.companyId, lines: [], tax: 0, shipping: '0', discount: '0', version: 0 };
    }
    const est = await this.estimates.findOne({ companyId: who.companyId, estimateId: source.estimateId }).lean();
    if (!est) throw new NotFoundException(`Estimate ${source.estimateId} not found.`);
    return est as LineDoc;
  }

  private set(sale: SaleDoc, fields: Partial<SaleDoc>) {
    return this.sales.updateOne({ companyId: sale.companyId, saleId: sale.saleId }, { $set: fields });
  }

  /** The forward steps; any failure undoes what was applied and answers with a clear error. */
  private async drive(sale: SaleDoc): Promise<MakeSaleReply> {
    const source = { kind: 'sale' as const, id: sale.saleId };
    try {
      const applied = await this.nats.send(Subjects.inventory.stockApply, {
        companyId: sale.companyId,
        source,
        date: sale.date,
        lines: sale.lines.map((l) => ({ product_id: l.product_id, quantity: unitQuantity(l).toFixed(), rate: sub(l.mrp, l.discount).toFixed() })),
      });
      const negative = new Set(applied.negativeStock ?? []);
      const warnings = sale.lines
        .filter((l) => negative.has(l.product_id))
        .map((l) => `Stock of ${l.product_name} (${l.product_id}) is now below zero; book the purchase.`);
      await this.set(sale, { stockApplied: true, warnings });
      await this.nats.send(Subjects.ledger.entryPost, {
        companyId: sale.companyId,
        party: { kind: 'customer', id: sale.customer.client_id },
        source,
        amount: sale.amount,
        paid: sale.paid,
        dueDate: sale.dueDate,
        date: sale.date,
      });
      await this.set(sale, { ledgerPosted: true });
      await this.emptySource(sale);
      const done = await this.sales.updateOne({ companyId: sale.companyId, saleId: sale.saleId, status: 'pending' }, { $set: { status: 'complete' } });
      if (done.matchedCount !== 1) throw new ConflictException('The sale was taken over while it was being completed.');
      this.nats.emit(Subjects.sales.saleCreated, { companyId: sale.companyId, saleId: sale.saleId }).catch(() => undefined);
      return { success: true, saleId: sale.saleId, warnings };
    } catch (err) {
      const reason = err instanceof HttpException ? err.message : 'an internal error';
      this.log.warn({ err, saleId: sale.saleId }, 'sale failed; undoing');
      const undone = await this.compensate(sale, reason).catch(() => false);
      const status = err instanceof HttpException ? err.getStatus() : 500;
      const tail = undone ? 'Nothing was sold; the cart is unchanged.' : 'What was applied will be undone automatically; the cart is unchanged.';
      throw new HttpException(`The sale could not be completed (${reason}). ${tail}`, status >= 400 ? status : 500);
    }
  }

  private async emptySource(sale: SaleDoc) {
    if (sale.source.kind !== 'cart') return;
    const key = { companyId: sale.companyId, userId: sale.source.userId, cart_no: sale.source.cart_no };
    const r = await this.carts.updateOne({ ...key, version: sale.source.version }, { $set: { lines: [], tax: 0, shipping: '0', discount: '0' }, $inc: { version: 1 } });
    if (r.matchedCount === 1) return;
    // The cart changed during checkout: take out only what was sold.
    const sold = new Set(sale.lines.map((l) => l.sl_no));
    await mutate(this.carts, key, (doc) => {
      doc.lines = doc.lines.filter((l) => !sold.has(l.sl_no));
    }).catch(() => undefined);
  }

  /** Reverses stock and ledger (both idempotent) and marks the sale failed. True when fully undone. */
  async compensate(sale: SaleDoc, reason: string): Promise<boolean> {
    await this.sales.updateOne(
      { companyId: sale.companyId, saleId: sale.saleId, status: { $in: ['pending', 'compensating'] } },
      { $set: { status: 'compensating', error: reason } },
    );
    const source = { kind: 'sale' as const, id: sale.saleId };
    try {
      await this.nats.send(Subjects.inventory.stockReverse, { companyId: sale.companyId, source });
      await this.nats.send(Subjects.ledger.entryReverse, { companyId: sale.companyId, source });
    } catch (err) {
      // Leave it compensating with an expired lease: the re-driver tries again.
      await this.set(sale, { lockedUntil: new Date(0) });
      this.log.warn({ err, saleId: sale.saleId }, 'undoing the sale failed; will retry');
      return false;
    }
    await this.sales.updateOne(
      { companyId: sale.companyId, saleId: sale.saleId, status: 'compensating' },
      { $set: { status: 'failed', failedKey: sale.idempotencyKey, stockApplied: false, ledgerPosted: false }, $unset: { idempotencyKey: 1 } },
    );
    return true;
  }

  /**
   * Undoes sales a crashed attempt left pending (the caller never got a saleId) and finishes
   * interrupted undos. Runs at start and every REDRIVE_EVERY_MS. Returns how many it undid.
   */
  redrive(): Promise<number> {
    if (!this.redriving) {
      this.redriving = this.redriveOnce().finally(() => (this.redriving = null));
    }
    return this.redriving;
  }

  private async redriveOnce(): Promise<number> {
    const stale = (await this.sales.find({ status: { $in: ['pending', 'compensating'] }, lockedUntil: { $lt: new Date() } }).limit(100).lean()) as SaleDoc[];
    let undone = 0;
    for (const s of stale) {
      const claimed = await this.claim(s, s.status);
      if (!claimed) continue;
      // Stock out and due posted: the cart may already be emptied, so undoing would lose the sale. Finish it.
      if (claimed.status === 'pending' && claimed.ledgerPosted) {
        await this.finish(claimed);
        continue;
      }
      if (await this.compensate(claimed, claimed.error ?? 'the sale was interrupted')) undone++;
    }
    return undone;
  }

  /** The last forward steps of an interrupted sale (both idempotent). */
  private async finish(sale: SaleDoc): Promise<void> {
    try {
      await this.emptySource(sale);
      const done = await this.sales.updateOne({ companyId: sale.companyId, saleId: sale.saleId, status: 'pending' }, { $set: { status: 'complete' } });
      if (done.matchedCount === 1) this.nats.emit(Subjects.sales.saleCreated, { companyId: sale.companyId, saleId: sale.saleId }).catch(() => undefined);
    } catch (err) {
      await this.set(sale, { lockedUntil: new Date(0) });
      this.log.warn({ err, saleId: sale.saleId }, 'finishing the sale failed; will retry');
    }
  }
}
