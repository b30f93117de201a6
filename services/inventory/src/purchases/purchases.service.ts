import {
  BadRequestException,
  ConflictException,
  HttpException,
  Inject,
  Injectable,
  NotFoundException,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { Subjects, type CheckOutPurchaseReply, type SourceLines } from '@bahi/contracts';
import { add, Decimal, LOGGER, mul, NatsClient, round2, SequenceService, sub } from '@bahi/service-kit';
import { ProductsService } from '../products/products.service';
import { StockService } from '../stock/stock.service';
import { Msg, today, type PurchaseInput } from './purchase-input';
import { PURCHASE_MODEL, type PurchaseDoc, type PurchaseLineDoc } from './purchase.schema';

/** How long one attempt may hold a purchase before the re-driver may take it over. */
export const LEASE_MS = Number(process.env.BAHI_PURCHASE_LEASE_MS) > 0 ? Number(process.env.BAHI_PURCHASE_LEASE_MS) : 30_000;
export const REDRIVE_EVERY_MS = 10_000;
/** Spec 000 §9: 18 percent of the subtotal when the tax flag is 1. */
export const TAX_RATE = '0.18';

export interface Who {
  companyId: number;
  userId: number;
}

export type PurchaseSource = { kind: 'cart'; cart_no: number } | { kind: 'estimate'; estimateId: number };

/**
 * A purchase is one business fact across inventory (stock in) and ledger (the distributor's
 * due), made all-or-nothing the way a sale is: stored `pending` with a lease and an idempotency
 * key, then stock applied (in-process, idempotent by the purchase as source), the entry posted
 * (idempotent), the cart emptied, and only then `complete`. Any failure reverses what was applied
 * and marks it `failed`; a purchase a crash left pending is undone by the re-driver.
 */
@Injectable()
export class PurchasesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private redriving: Promise<number> | null = null;

  constructor(
    @InjectModel(PURCHASE_MODEL) readonly model: Model<PurchaseDoc>,
    private readonly products: ProductsService,
    private readonly stock: StockService,
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => void this.redrive().catch((err) => this.log.warn({ err }, 'purchase re-drive failed')), REDRIVE_EVERY_MS);
    this.timer.unref();
    void this.redrive().catch((err) => this.log.warn({ err }, 'purchase re-drive failed'));
  }

  onApplicationShutdown() {
    if (this.timer) clearInterval(this.timer);
  }

  async checkout(who: Who, input: PurchaseInput, from: PurchaseSource): Promise<CheckOutPurchaseReply> {
    if (input.idempotencyKey) {
      const earlier = await this.model.findOne({ companyId: who.companyId, idempotencyKey: input.idempotencyKey }).lean();
      if (earlier) return this.resume(earlier as PurchaseDoc);
    }
    const src = await this.loadSource(who, from);
    if (!src.lines.length) throw new BadRequestException(Msg.emptyCart);
    // Without a key from the browser, the cart's version is one: a double submit of the same
    // cart buys once. An estimate is keyed by its version and the bill number.
    const key =
      input.idempotencyKey ??
      (from.kind === 'cart' ? `cart:${who.userId}:${from.cart_no}:v${src.version}` : `estimate:${from.estimateId}:v${src.version}:${input.bill_no}`);
    const earlier = await this.model.findOne({ companyId: who.companyId, idempotencyKey: key }).lean();
    if (earlier) return this.resume(earlier as PurchaseDoc);

    const distributor = await this.nats.send(Subjects.ledger.distributorLookup, { companyId: who.companyId, distributorId: input.distributorId });
    if (!distributor) throw new BadRequestException(Msg.distributor);
    const officer = input.officerId === null ? null : distributor.officers.find((o) => o.id === input.officerId);
    if (officer === undefined) throw new BadRequestException(Msg.officer);
    const lines = await this.priceLines(who.companyId, src);
    const subtotal = add(...lines.map((l) => l.amount));
    const taxAmount = src.tax === 1 ? round2(mul(subtotal, TAX_RATE)) : new Decimal(0);
    const total = round2(sub(add(subtotal, taxAmount, src.shipping), src.discount));
    if (total.isNegative()) throw new BadRequestException('The purchase total cannot be below 0; check the discount.');
    const previousDue = (await this.nats.send(Subjects.ledger.partyDue, { companyId: who.companyId, party: { kind: 'distributor', id: distributor.distributor_id } })).due;

    const purchaseId = await this.seq.next(who.companyId, 'purchase');
    const doc: PurchaseDoc = {
      companyId: who.companyId,
      purchaseId,
      status: 'pending',
      idempotencyKey: key,
      lockedUntil: new Date(Date.now() + LEASE_MS),
      source: {
        kind: from.kind,
        userId: who.userId,
        cart_no: from.kind === 'cart' ? from.cart_no : 0,
        estimateId: from.kind === 'estimate' ? from.estimateId : 0,
        version: src.version,
        sl_nos: src.lines.map((l) => l.sl_no),
      },
      bill_no: input.bill_no,
      distributorId: distributor.distributor_id,
      distributorName: distributor.name,
      officer: officer ? { id: officer.id, name: officer.name } : null,
      date: today(),
      dueDate: input.dueDate,
      paid: input.paid,
      lines,
      tax: src.tax === 1 ? 1 : 0,
      shipping: src.shipping,
      discount: src.discount,
      subtotal: subtotal.toFixed(),
      taxAmount: taxAmount.toFixed(2),
      total: total.toFixed(2),
      previousDue,
      stockApplied: false,
      ledgerPosted: false,
      warnings: [],
      createdBy: who.userId,
    };
    try {
      await this.model.create(doc);
    } catch (err) {
      // The same key raced in (a double submit): answer what that attempt answers.
      if ((err as { code?: number }).code !== 11000) throw err;
      const other = await this.model.findOne({ companyId: who.companyId, idempotencyKey: key }).lean();
      if (!other) throw new ConflictException('This purchase is being retried; please try again.');
      return this.resume(other as PurchaseDoc);
    }
    return this.drive(doc);
  }

  private async loadSource(who: Who, from: PurchaseSource): Promise<SourceLines> {
    if (from.kind === 'cart') return this.nats.send(Subjects.sales.cartGet, { companyId: who.companyId, userId: who.userId, cart_no: from.cart_no });
    const est = await this.nats.send(Subjects.sales.estimateGet, { companyId: who.companyId, estimateId: from.estimateId });
    if (!est) throw new NotFoundException(`Estimate ${from.estimateId} not found.`);
    return est;
  }

  /** rate = the product's cost price now; units = quantity x per_peice_quantity come in. */
  private async priceLines(companyId: number, src: SourceLines): Promise<PurchaseLineDoc[]> {
    const ids = src.lines.map((l) => l.product_id);
    const rows = await this.products.model.find({ companyId, product_id: { $in: ids } }).lean();
    const byId = new Map(rows.map((r) => [r.product_id, r]));
    return src.lines.map((l) => {
      const p = byId.get(l.product_id);
      if (!p) throw new NotFoundException(`Product ${l.product_id} not found.`);
      const rate = new Decimal(p.cp_p).dividedBy(100);
      const disc = new Decimal(l.discount || '0');
      const units = mul(l.quantity, l.per_peice_quantity);
      if (!units.greaterThan(0)) throw new BadRequestException(`Quantity of ${p.product_name} must be more than 0.`);
      if (units.decimalPlaces() > 3) throw new BadRequestException(`Quantity of ${p.product_name} can have at most 3 decimals of its unit.`);
      if (disc.greaterThan(rate)) throw new BadRequestException(`The discount on ${p.product_name} is more than its cost price (${rate.toFixed(2)}).`);
      return {
        sl_no: l.sl_no,
        product_id: p.product_id,
        product_name: p.product_name,
        brand_name: p.brand_name,
        unit: p.unit,
        quantity: new Decimal(l.quantity).toFixed(),
        per_peice_quantity: new Decimal(l.per_peice_quantity).toFixed(),
        rate: rate.toFixed(2),
        disc: disc.toFixed(),
        amount: mul(sub(rate, disc), units).toFixed(),
        units: units.toFixed(),
      };
    });
  }

  /** A retried request: the finished answer, the running attempt's answer, or a takeover of a stalled one. */
  private async resume(p: PurchaseDoc): Promise<CheckOutPurchaseReply> {
    for (;;) {
      if (p.status === 'complete') return [{ id: p.purchaseId, purchaseId: p.purchaseId, warnings: p.warnings }];
      if (p.status === 'failed') throw new ConflictException(`Purchase ${p.purchaseId} failed: ${p.error ?? 'it was undone'}`);
      if (p.status === 'pending') {
        const claimed = await this.claim(p, 'pending');
        if (claimed) return this.drive(claimed);
      }
      if (p.status === 'compensating') throw new ConflictException('The earlier attempt of this purchase is being undone; please try again in a moment.');
      await new Promise((r) => setTimeout(r, 100));
      const now = await this.model.findOne({ companyId: p.companyId, purchaseId: p.purchaseId }).lean();
      if (!now) throw new NotFoundException(`Purchase ${p.purchaseId} not found.`);
      p = now as PurchaseDoc;
    }
  }

  /** Takes the lease of a purchase whose lease expired; null when someone else holds it. */
  private async claim(p: PurchaseDoc, status: PurchaseDoc['status']): Promise<PurchaseDoc | null> {
    const now = new Date();
    const doc = await this.model
      .findOneAndUpdate(
        { companyId: p.companyId, purchaseId: p.purchaseId, status, lockedUntil: { $lt: now } },
        { $set: { lockedUntil: new Date(now.getTime() + LEASE_MS) } },
        { returnDocument: 'after' },
      )
      .lean();
    return (doc as PurchaseDoc | null) ?? null;
  }

  private set(p: PurchaseDoc, fields: Partial<PurchaseDoc>) {
    return this.model.updateOne({ companyId: p.companyId, purchaseId: p.purchaseId }, { $set: fields });
  }

  /** The forward steps; any failure undoes what was applied and answers with a clear error. */
  private async drive(p: PurchaseDoc): Promise<CheckOutPurchaseReply> {
    const source = { kind: 'purchase' as const, id: p.purchaseId };
    try {
      await this.stock.apply(
        p.companyId,
        source,
        p.lines.map((l) => ({ product_id: l.product_id, quantity: l.units, rate: round2(sub(l.rate, l.disc)).toFixed(2) })),
      );
      await this.set(p, { stockApplied: true });
      await this.nats.send(Subjects.ledger.entryPost, {
        companyId: p.companyId,
        party: { kind: 'distributor', id: p.distributorId },
        source,
        amount: p.total,
        paid: p.paid,
        dueDate: p.dueDate,
        date: p.date,
      });
      await this.set(p, { ledgerPosted: true });
      if (p.source.kind === 'cart') {
        await this.nats.send(Subjects.sales.cartClear, {
          companyId: p.companyId,
          userId: p.source.userId,
          cart_no: p.source.cart_no,
          version: p.source.version,
          sl_nos: p.source.sl_nos,
        });
      }
      const done = await this.model.updateOne({ companyId: p.companyId, purchaseId: p.purchaseId, status: 'pending' }, { $set: { status: 'complete' } });
      if (done.matchedCount !== 1) throw new ConflictException('The purchase was taken over while it was being completed.');
      return [{ id: p.purchaseId, purchaseId: p.purchaseId, warnings: p.warnings }];
    } catch (err) {
      const reason = err instanceof HttpException ? err.message : 'an internal error';
      this.log.warn({ err, purchaseId: p.purchaseId }, 'purchase failed; undoing');
      const undone = await this.compensate(p, reason).catch(() => false);
      const status = err instanceof HttpException ? err.getStatus() : 500;
      const tail = undone ? 'Nothing was bought; the cart is unchanged.' : 'What was applied will be undone automatically; the cart is unchanged.';
      throw new HttpException(`The purchase could not be completed (${reason}). ${tail}`, status >= 400 ? status : 500);
    }
  }

  /** Reverses stock and the distributor's entry (both idempotent) and marks the purchase failed. True when fully undone. */
  async compensate(p: PurchaseDoc, reason: string): Promise<boolean> {
    await this.model.updateOne(
      { companyId: p.companyId, purchaseId: p.purchaseId, status: { $in: ['pending', 'compensating'] } },
      { $set: { status: 'compensating', error: reason } },
    );
    const source = { kind: 'purchase' as const, id: p.purchaseId };
    try {
      await this.stock.reverse(p.companyId, source);
      await this.nats.send(Subjects.ledger.entryReverse, { companyId: p.companyId, source });
    } catch (err) {
      // Leave it compensating with an expired lease: the re-driver tries again.
      await this.set(p, { lockedUntil: new Date(0) });
      this.log.warn({ err, purchaseId: p.purchaseId }, 'undoing the purchase failed; will retry');
      return false;
    }
    await this.model.updateOne(
      { companyId: p.companyId, purchaseId: p.purchaseId, status: 'compensating' },
      { $set: { status: 'failed', failedKey: p.idempotencyKey, stockApplied: false, ledgerPosted: false }, $unset: { idempotencyKey: 1 } },
    );
    return true;
  }

  /** Undoes purchases a crashed attempt left pending and finishes interrupted undos. Returns how many it undid. */
  redrive(): Promise<number> {
    if (!this.redriving) this.redriving = this.redriveOnce().finally(() => (this.redriving = null));
    return this.redriving;
  }

  private async redriveOnce(): Promise<number> {
    const stale = (await this.model.find({ status: { $in: ['pending', 'compensating'] }, lockedUntil: { $lt: new Date() } }).limit(100).lean()) as PurchaseDoc[];
    let undone = 0;
    for (const p of stale) {
      const claimed = await this.claim(p, p.status);
      if (!claimed) continue;
      // Stock in and due posted: the cart may already be emptied, so undoing would lose it. Finish instead.
      if (claimed.status === 'pending' && claimed.ledgerPosted) {
        await this.finish(claimed);
        continue;
      }
      if (await this.compensate(claimed, claimed.error ?? 'the purchase was interrupted')) undone++;
    }
    return undone;
  }

  /** The last forward steps of an interrupted purchase (both idempotent). */
  private async finish(p: PurchaseDoc): Promise<void> {
    try {
      if (p.source.kind === 'cart') {
        await this.nats.send(Subjects.sales.cartClear, {
          companyId: p.companyId,
          userId: p.source.userId,
          cart_no: p.source.cart_no,
          version: p.source.version,
          sl_nos: p.source.sl_nos,
        });
      }
      await this.model.updateOne({ companyId: p.companyId, purchaseId: p.purchaseId, status: 'pending' }, { $set: { status: 'complete' } });
    } catch (err) {
      // Sales unreachable: keep it pending with an expired lease; the next round tries again.
      await this.set(p, { lockedUntil: new Date(0) });
      this.log.warn({ err, purchaseId: p.purchaseId }, 'finishing the purchase failed; will retry');
    }
  }

  /** A complete purchase of the company; 404 otherwise (another company's id included). */
  async get(companyId: number, purchaseId: number): Promise<PurchaseDoc> {
    const p = await this.model.findOne({ companyId, purchaseId, status: 'complete' }).lean();
    if (!p) throw new NotFoundException(`Purchase ${purchaseId} not found.`);
    return p as PurchaseDoc;
  }
}
