import { BadRequestException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { Subjects, type CheckOutPurchaseReply, type Distributor, type PreviewPurchaseReply, type SourceLines } from '@bahi/contracts';
import { add, Decimal, faultPoint, leaseMs, LOGGER, mul, NatsClient, Saga, round2, SequenceService, sub, today } from '@bahi/service-kit';
import { InventoryEvents } from '../events/inventory-events';
import { taxPercent } from '../common';
import { ProductsService } from '../products/products.service';
import { StockService } from '../stock/stock.service';
import { Msg, type PurchaseInput } from './purchase-input';
import type { PurchaseExtras } from './purchase-extras';
import { pricePurchase, purchaseTaxMode, type PricedPurchase } from './purchase-gst';
import { PURCHASE_MODEL, type PurchaseDoc, type PurchaseLineDoc } from './purchase.schema';

/**
 * The cost per unit stock is valued at: rate - disc. A composition dealer cannot take credit for
 * the input tax (CGST Act s.10(4)), so for it the tax paid is part of the goods' cost (AS 2 /
 * Ind AS 2: non-recoverable taxes are a cost of purchase): (rate - disc) x (1 + rate% / 100).
 */
export function stockCost(p: Pick<PurchaseDoc, 'taxMode'>, l: PurchaseLineDoc): string {
  const net = sub(l.rate, l.disc);
  if (p.taxMode !== 'composition' || !l.gst_rate) return round2(net).toFixed(2);
  return round2(mul(net, add(1, new Decimal(l.gst_rate).dividedBy(100)))).toFixed(2);
}

/** How long one attempt may hold a purchase before the re-driver may take it over. */
export const LEASE_MS = leaseMs('BAHI_PURCHASE_LEASE_MS');
/** Spec 000 §9: 18 percent of the subtotal when the tax flag is 1. */
export const TAX_RATE = '0.18';

export interface Who {
  companyId: number;
  userId: number;
}

export type PurchaseSource = { kind: 'cart'; cart_no: number } | { kind: 'estimate'; estimateId: number };

/**
 * A purchase is one business fact across inventory (stock in) and ledger (the distributor's
 * due), made all-or-nothing by the kit's Saga the way a sale is: stored `pending` with a lease
 * and an idempotency key, then stock applied (in-process, idempotent by the purchase as source),
 * the entry posted (idempotent), the cart emptied, and only then `complete`. Any failure reverses
 * what was applied and marks it `failed`; the re-driver takes over purchases a crash left behind.
 */
@Injectable()
export class PurchasesService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly saga: Saga<PurchaseDoc, CheckOutPurchaseReply>;

  constructor(
    @InjectModel(PURCHASE_MODEL) readonly model: Model<PurchaseDoc>,
    private readonly products: ProductsService,
    private readonly stock: StockService,
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
    @Inject(LOGGER) log: Logger,
    events: InventoryEvents,
  ) {
    this.saga = new Saga<PurchaseDoc, CheckOutPurchaseReply>({
      relay: events.relay.forSource('purchase'),
      model,
      idField: 'purchaseId',
      noun: 'purchase',
      leaseMs: LEASE_MS,
      log,
      apply: (p) => this.apply(p),
      finish: (p) => this.emptyCart(p),
      undo: (p) => this.undo(p),
      answer: (p) => [{ id: p.purchaseId, purchaseId: p.purchaseId, warnings: p.warnings }],
      undoneTail: 'Nothing was bought; the cart is unchanged.',
      laterTail: 'What was applied will be undone automatically; the cart is unchanged.',
    });
  }

  onApplicationBootstrap() {
    this.saga.start();
  }

  onApplicationShutdown() {
    this.saga.stop();
  }

  async checkout(who: Who, input: PurchaseInput, from: PurchaseSource, extras: PurchaseExtras = { costs: new Map(), billDate: null }): Promise<CheckOutPurchaseReply> {
    if (input.idempotencyKey) {
      const earlier = await this.saga.replay(who.companyId, input.idempotencyKey);
      if (earlier) return earlier;
    }
    const src = await this.loadSource(who, from);
    if (!src.lines.length) throw new BadRequestException(Msg.emptyCart);
    // Without a key from the browser, the cart's version is one: a double submit of the same
    // cart buys once. An estimate is keyed by its version and the bill number.
    const key =
      input.idempotencyKey ??
      (from.kind === 'cart' ? `cart:${who.userId}:${from.cart_no}:v${src.version}` : `estimate:${from.estimateId}:v${src.version}:${input.bill_no}`);
    const earlier = await this.saga.replay(who.companyId, key);
    if (earlier) return earlier;

    const distributor = await this.nats.send(Subjects.ledger.distributorLookup, { companyId: who.companyId, distributorId: input.distributorId });
    if (!distributor) throw new BadRequestException(Msg.distributor);
    const officer = input.officerId === null ? null : distributor.officers.find((o) => o.id === input.officerId);
    if (officer === undefined) throw new BadRequestException(Msg.officer);
    const { lines, subtotal, taxMode, priced, taxAmount, total } = await this.price(who.companyId, src, extras.costs, distributor);
    const previousDue = (await this.nats.send(Subjects.ledger.partyDue, { companyId: who.companyId, party: { kind: 'distributor', id: distributor.distributor_id } })).due;

    const purchaseId = await this.seq.next(who.companyId, 'purchase');
    const doc: PurchaseDoc = {
      companyId: who.companyId,
      purchaseId,
      status: 'pending',
      idempotencyKey: key,
      lockedUntil: this.saga.lease(),
      source: {
        kind: from.kind,
        userId: who.userId,
        cart_no: from.kind === 'cart' ? from.cart_no : 0,
        estimateId: from.kind === 'estimate' ? from.estimateId : 0,
        version: src.version,
        sl_nos: src.lines.map((l) => l.sl_no),
      },
      bill_no: input.bill_no,
      ...(extras.billDate ? { bill_date: extras.billDate } : {}),
      distributorId: distributor.distributor_id,
      distributorName: distributor.name,
      officer: officer ? { id: officer.id, name: officer.name } : null,
      date: today(),
      dueDate: input.dueDate,
      paid: input.paid,
      payments: input.payments,
      lines,
      tax: taxMode === 'simple' && src.tax === 1 ? 1 : 0,
      shipping: src.shipping,
      discount: src.discount,
      subtotal: subtotal.toFixed(),
      taxAmount: taxAmount.toFixed(2),
      total: total.toFixed(2),
      taxMode,
      gst: priced?.gst ?? null,
      previousDue,
      stockApplied: false,
      ledgerPosted: false,
      warnings: [],
      createdBy: who.userId,
    };
    return this.saga.run(doc);
  }

  /**
   * What a purchase of these lines costs, the one computation behind GET /previewPurchase and the
   * checkout (so the panel's figures are the stored ones). Without a distributor (preview before
   * one is picked) GST is worked out as from the company's own state.
   */
  async price(companyId: number, src: SourceLines, costs: Map<number, string>, distributor: Pick<Distributor, 'gstin' | 'state_code'> | null) {
    const lines = await this.priceLines(companyId, src, costs);
    const subtotal = add(...lines.map((l) => l.amount));
    // Asked at every checkout (a manager's occasional call), so a mode just changed in Setting applies at once.
    const company = await this.nats.send(Subjects.identity.companyDetails, { companyId });
    const taxMode = purchaseTaxMode(company);
    let priced: PricedPurchase | null = null;
    let taxAmount: Decimal;
    let total: Decimal;
    if (taxMode === 'simple') {
      taxAmount = src.tax === 1 ? round2(mul(subtotal, TAX_RATE)) : new Decimal(0);
      total = round2(sub(add(subtotal, taxAmount, src.shipping), src.discount));
      if (total.isNegative()) throw new BadRequestException('The purchase total cannot be below 0; check the discount.');
    } else {
      // The distributor's tax invoice: the spec's 18 % flag does not apply.
      const party = distributor ?? { gstin: null, state_code: company.state_code as string };
      priced = pricePurchase({ companyState: company.state_code as string, distributor: party, lines, shipping: src.shipping, discount: src.discount });
      taxAmount = new Decimal(priced.taxAmount);
      total = new Decimal(priced.total);
    }
    return { lines, subtotal, taxMode, priced, taxAmount, total };
  }

  /** GET /previewPurchase: the cart's purchase as the panel shows it before confirming (decimal strings). */
  async preview(who: Who, cart_no: number, costs: Map<number, string>, distributorId: number | null): Promise<PreviewPurchaseReply> {
    const src = await this.loadSource(who, { kind: 'cart', cart_no });
    if (!src.lines.length) throw new BadRequestException(Msg.emptyCart);
    const distributor = distributorId ? await this.nats.send(Subjects.ledger.distributorLookup, { companyId: who.companyId, distributorId }) : null;
    if (distributorId && !distributor) throw new BadRequestException(Msg.distributor);
    const { lines, subtotal, priced, taxAmount, total } = await this.price(who.companyId, src, costs, distributor);
    return {
      lines: lines.map((l, i) => {
        const g = priced?.gst.lines[i];
        return {
          sl_no: l.sl_no,
          product_id: l.product_id,
          product_name: l.product_name,
          quantity: l.quantity,
          units: l.units,
          cp: l.rate,
          disc: l.disc,
          // Simple mode: the 18 % is on the bill's subtotal, not per line (spec 000 §9).
          taxable: g ? g.taxable_value : round2(l.amount).toFixed(2),
          tax: g ? add(g.cgst, g.sgst, g.igst).toFixed(2) : '0.00',
        };
      }),
      subtotal: round2(subtotal).toFixed(2),
      tax: taxAmount.toFixed(2),
      shipping: new Decimal(src.shipping || '0').toFixed(2),
      discount: new Decimal(src.discount || '0').toFixed(2),
      total: total.toFixed(2),
    };
  }

  private async loadSource(who: Who, from: PurchaseSource): Promise<SourceLines> {
    if (from.kind === 'cart') return this.nats.send(Subjects.sales.cartGet, { companyId: who.companyId, userId: who.userId, cart_no: from.cart_no });
    const est = await this.nats.send(Subjects.sales.estimateGet, { companyId: who.companyId, estimateId: from.estimateId });
    if (!est) throw new NotFoundException(`Estimate ${from.estimateId} not found.`);
    return est;
  }

  /** rate = the product's cost price now; units = quantity x per_peice_quantity come in. */
  private async priceLines(companyId: number, src: SourceLines, costs: Map<number, string> = new Map()): Promise<PurchaseLineDoc[]> {
    const ids = src.lines.map((l) => l.product_id);
    const rows = await this.products.model.find({ companyId, product_id: { $in: ids } }).lean();
    const byId = new Map(rows.map((r) => [r.product_id, r]));
    return src.lines.map((l) => {
      const p = byId.get(l.product_id);
      if (!p) throw new NotFoundException(`Product ${l.product_id} not found.`);
      // The bill's cost for this line when typed in the panel, else the product's cost price now.
      const rate = new Decimal(costs.get(l.sl_no) ?? new Decimal(p.cp_p).dividedBy(100));
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
        gst_rate: taxPercent(p.tax),
        hsn_code: p.hsn_code ?? '',
      };
    });
  }

  /** Stock in (in-process), then the distributor's entry (idempotent by the purchase as source). */
  private async apply(p: PurchaseDoc): Promise<void> {
    // Kill points (tests only, docs/reliability.md): each step of the purchase in turn.
    faultPoint('purchase.after-record');
    const source = { kind: 'purchase' as const, id: p.purchaseId };
    await this.stock.apply(
      p.companyId,
      source,
      p.lines.map((l) => ({ product_id: l.product_id, quantity: l.units, rate: stockCost(p, l) })),
    );
    await this.saga.mark(p, { stockApplied: true });
    faultPoint('purchase.after-stock');
    await this.nats.send(Subjects.ledger.entryPost, {
      companyId: p.companyId,
      party: { kind: 'distributor', id: p.distributorId },
      source,
      amount: p.total,
      paid: p.paid,
      // The tenders and the manager who paid (for the cash books); purchases before modes: cash.
      payments: p.payments ?? null,
      ...(p.source.userId > 0 ? { by: p.source.userId } : {}),
      dueDate: p.dueDate,
      date: p.date,
    });
    await this.saga.mark(p, { ledgerPosted: true });
    faultPoint('purchase.after-ledger');
  }

  /** Sales empties the cart (only the bought lines if it changed meanwhile). */
  private async emptyCart(p: PurchaseDoc): Promise<void> {
    if (p.source.kind !== 'cart') return;
    await this.nats.send(Subjects.sales.cartClear, {
      companyId: p.companyId,
      userId: p.source.userId,
      cart_no: p.source.cart_no,
      version: p.source.version,
      sl_nos: p.source.sl_nos,
    });
    faultPoint('purchase.after-cart-emptied');
  }

  private async undo(p: PurchaseDoc): Promise<void> {
    const source = { kind: 'purchase' as const, id: p.purchaseId };
    await this.stock.reverse(p.companyId, source);
    await this.nats.send(Subjects.ledger.entryReverse, { companyId: p.companyId, source });
  }

  /** Reverses stock and the distributor's entry and marks the purchase failed. True when fully undone. */
  compensate(p: PurchaseDoc, reason: string): Promise<boolean> {
    return this.saga.compensate(p, reason);
  }

  /** Finishes or undoes purchases a crash left behind (see Saga.redrive). Returns how many it undid. */
  redrive(): Promise<number> {
    return this.saga.redrive();
  }

  /** A complete purchase of the company; 404 otherwise (another company's id included). */
  async get(companyId: number, purchaseId: number): Promise<PurchaseDoc> {
    const p = await this.model.findOne({ companyId, purchaseId, status: 'complete' }).lean();
    if (!p) throw new NotFoundException(`Purchase ${purchaseId} not found.`);
    return p as PurchaseDoc;
  }
}
