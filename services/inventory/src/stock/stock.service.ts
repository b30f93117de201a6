import { BadRequestException, Inject, Injectable, NotFoundException, ServiceUnavailableException, type OnModuleInit } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import type { StockApplyReply, StockMovement, StockSource, StockSourceKind } from '@bahi/contracts';
import { castForInsert, inTransaction, pendingEventFields, SequenceService, SERVICE_CONFIG, type ServiceConfig } from '@bahi/service-kit';
import { InventoryEvents, movedLine, MOVEMENTS_IN_HAND, type StockSourceInHand } from '../events/inventory-events';
import { parseMoney, parseQty, stockLevel } from '../common';
import { type Contribution, ProductTotals } from '../products/product-totals';
import { Movement, Product, StockSourceDoc } from '../schemas';
import { Gate, GateTimeout } from './gate';

/**
 * Stock transactions one inventory process runs at once. One: two at once already conflicted on
 * the running totals (0.2-0.3 aborts per sale at 10 counters), and each conflict costs a random
 * pause plus the transaction's work again, which made the slowest sales several times the median.
 * One after another, a process still commits 50+ sales a second here (see docs/benchmarks.md);
 * replicas add more, and their rare conflicts retry.
 */
const STOCK_CONCURRENCY = 1;

/** Which way a source kind moves stock: +1 in, -1 out, 0 signed as given (adjustment). */
const DIRECTION: Record<StockSourceKind, 1 | -1 | 0> = {
  sale: -1,
  purchase: 1,
  'sale-reversal': 1,
  'purchase-reversal': -1,
  adjustment: 0,
  'sale-return': 1,
  'sale-cancel': 1,
  'purchase-return': -1,
  'sale-return-reversal': -1,
  'sale-cancel-reversal': -1,
  'purchase-return-reversal': 1,
};
const REVERSAL_OF: Partial<Record<StockSourceKind, StockSourceKind>> = {
  sale: 'sale-reversal',
  purchase: 'purchase-reversal',
  'sale-return': 'sale-return-reversal',
  'sale-cancel': 'sale-cancel-reversal',
  'purchase-return': 'purchase-return-reversal',
};
export const SOURCE_KINDS = Object.keys(DIRECTION) as StockSourceKind[];

/**
 * A movement's `seq`, which orders one product's history (getProductHistory, the export): one
 * more than the product's last (`mv_seq`, written with its stock), and at least the clock in ms,
 * so it also follows the movements numbered by the company counter before `mv_seq` was kept. Not
 * a company counter: that cost a command per stock change, outside the transaction.
 */
export function movementSeq(last: number | undefined, nowMs: number): number {
  return Math.max((last ?? 0) + 1, nowMs);
}

/** A product changed between the stock-out's read and its update: the transaction runs again. */
class StockRace extends Error {
  hasErrorLabel(l: string) {
    return l === 'TransientTransactionError';
  }
}

export interface LineInput {
  product_id: number;
  quantity: unknown;
  rate: unknown;
}

export function movementView(m: Movement): StockMovement {
  const { product_id, line, quantity, rate, stock, date } = movedLine(m);
  return { product_id, kind: m.kind, source: { kind: m.kind, id: m.source_id }, line, quantity, rate, stock, date };
}

/**
 * Every stock change goes through here as movements, inside one MongoDB transaction with the
 * source's idempotency record: a source is applied completely or not at all, and at most once.
 */
@Injectable()
export class StockService implements OnModuleInit {
  /** Sales and purchases moving stock through this process, one at a time. */
  private readonly gate = new Gate(STOCK_CONCURRENCY);
  /** The product list's running totals, shifted in the same transaction as every change. */
  readonly totals: ProductTotals;

  constructor(
    @InjectConnection() private readonly conn: Connection,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(Movement.name) readonly movements: Model<Movement>,
    @InjectModel(StockSourceDoc.name) readonly sources: Model<StockSourceDoc>,
    private readonly seq: SequenceService,
    @Inject(SERVICE_CONFIG) private readonly cfg: ServiceConfig,
    private readonly events: InventoryEvents,
  ) {
    this.totals = new ProductTotals(conn, (fn) => this.inTransaction(fn));
  }

  async onModuleInit() {
    await this.totals.init();
  }

  private checkSource(source: StockSource | undefined): StockSource {
    if (!source || !SOURCE_KINDS.includes(source.kind)) throw new BadRequestException(`source.kind must be one of ${SOURCE_KINDS.join(', ')}.`);
    if (!Number.isSafeInteger(source.id) || source.id < 1) throw new BadRequestException('source.id must be a positive whole number.');
    return source;
  }

  private async existing(companyId: number, source: StockSource): Promise<StockMovement[]> {
    const rows = await this.movements.find({ companyId, kind: source.kind, source_id: source.id }).sort({ line: 1 }).lean();
    return rows.map(movementView);
  }

  async apply(companyId: number, sourceIn: StockSource, lines: LineInput[], date?: string): Promise<StockApplyReply> {
    const source = this.checkSource(sourceIn);
    if (!Array.isArray(lines) || !lines.length) throw new BadRequestException('lines must list at least one product.');
    const when = date ? new Date(date) : new Date();
    if (Number.isNaN(when.getTime())) throw new BadRequestException('date must be a valid date.');
    const dir = DIRECTION[source.kind];
    const parsed = lines.map((l, i) => {
      if (!Number.isSafeInteger(l?.product_id)) throw new BadRequestException(`lines[${i}].product_id must be a product id.`);
      const qty = parseQty(`lines[${i}].quantity`, l.quantity, { allowNegative: dir === 0 });
      if (qty === 0) throw new BadRequestException(`lines[${i}].quantity cannot be 0.`);
      return { product_id: l.product_id, delta: dir === 0 ? qty : dir * qty, rate_p: parseMoney(`lines[${i}].rate`, l.rate) };
    });
    // No look-up first: the source record's unique index answers a repeat (the rare case) below.
    try {
      // An apply still queued when its caller's NATS deadline passed is dropped: the caller undoes
      // the sale, and the reverse's record makes the source a no-op anyway.
      const { record, moved } = await this.gated(async (session) => {
        // evt: its stock.moved event, committed with the movements and published after.
        const record = castForInsert(this.sources as never, { companyId, kind: source.kind, id: source.id, at: new Date(), ...pendingEventFields() }) as unknown as StockSourceInHand;
        await this.sources.collection.insertOne(record as never, { session });
        return { record, moved: await this.move(companyId, source.kind, source.id, parsed, when, session) };
      }, this.cfg.natsTimeoutMs);
      // The committed record (the driver set its _id) and its movements: the relay reads neither back.
      record[MOVEMENTS_IN_HAND] = { own: moved.movements };
      this.events.relay.kick('stock', [record]);
      return moved;
    } catch (err) {
      if (err instanceof GateTimeout) throw new ServiceUnavailableException(`Stock is busy (${err.message}); the ${source.kind} was not applied.`);
      // A concurrent retry of the same source won the unique index: report it as already applied.
      if ((err as { code?: number }).code === 11000) return { applied: false, movements: await this.existing(companyId, source), negativeStock: [] };
      throw err;
    }
  }

  /** Undoes an applied sale, purchase, return or cancellation with opposite movements, exactly once. */
  async reverse(companyId: number, sourceIn: StockSource): Promise<{ reversed: boolean }> {
    const source = this.checkSource(sourceIn);
    const kind = REVERSAL_OF[source.kind];
    if (!kind) throw new BadRequestException('Only a sale, a purchase, a return or a cancellation can be reversed.');
    const done = await this.gated(async (session): Promise<StockSourceInHand | null> => {
      const src = await this.sources
        .findOneAndUpdate({ companyId, kind: source.kind, id: source.id, reversed: false }, { $set: { reversed: true, ...pendingEventFields() } }, { session, returnDocument: 'after' })
        .lean<StockSourceInHand>();
      if (!src) {
        // Undone before it was applied (the apply is still queued after a timeout): a reversed
        // record makes that late apply a no-op instead of stock moved for a failed sale.
        await this.sources.updateOne(
          { companyId, kind: source.kind, id: source.id },
          { $setOnInsert: { reversed: true, at: new Date() } },
          { upsert: true, session },
        );
        return null;
      }
      const original = await this.movements.find({ companyId, kind: source.kind, source_id: source.id }).sort({ line: 1 }).session(session).lean();
      const reply = await this.move(
        companyId,
        kind,
        source.id,
        original.map((m) => ({ product_id: m.product_id, delta: -m.qty_m, rate_p: m.rate_p })),
        new Date(),
        session,
      );
      // The record as stored after this update, with both sets of movements for its events.
      src[MOVEMENTS_IN_HAND] = { own: original.map(movedLine), reversal: reply.movements };
      return src;
    });
    if (done) this.events.relay.kick('stock', [done]);
    return { reversed: done !== null };
  }

  /** A manual change of one product's stock (product edit), as an adjustment movement. */
  async adjust(companyId: number, productId: number, delta: number, rateP: number, session: ClientSession): Promise<void> {
    const id = await this.seq.next(companyId, 'adjustment');
    // A source record for the adjustment too, so its stock.moved event is published (the caller kicks the relay after its commit).
    await this.sources.collection.insertOne(castForInsert(this.sources as never, { companyId, kind: 'adjustment', id, at: new Date(), ...pendingEventFields() }), { session });
    await this.move(companyId, 'adjustment', id, [{ product_id: productId, delta, rate_p: rateP }], new Date(), session);
  }

  /** A sale's or purchase's transaction: through the gate, so a rush commits instead of conflicting. */
  private gated<T>(fn: (s: ClientSession) => Promise<T>, maxWaitMs?: number): Promise<T> {
    return this.gate.run(() => this.inTransaction(fn), maxWaitMs);
  }

  /** Runs `fn` in one transaction, retrying write conflicts (service-kit's `inTransaction`). */
  inTransaction<T>(fn: (s: ClientSession) => Promise<T>): Promise<T> {
    return inTransaction(this.conn, fn);
  }

  /**
   * Writes the movements of one source: the lines' products read once, then changed in one update
   * (a statement per product), the movements in one insert, the running totals (which every sale
   * shares) last in one write, so they are held for the shortest time. The read and the update are
   * in one transaction: a product another transaction wrote since the read is a write conflict
   * (the transaction retries), so each line's stock after is the read stock plus the lines so far.
   */
  private async move(
    companyId: number,
    kind: StockSourceKind,
    sourceId: number,
    lines: { product_id: number; delta: number; rate_p: number }[],
    date: Date,
    session: ClientSession,
  ): Promise<StockApplyReply> {
    // Through the driver: every counter sale comes here, and mongoose's casting of what this
    // method builds typed cost more than the writes (updatedAt is kept as its timestamps would;
    // inserts still go through the schema, castForInsert).
    const products = this.products.collection;
    const ids = [...new Set(lines.map((l) => l.product_id))];
    const found = (await products
      .find({ companyId, product_id: { $in: ids } }, { session, projection: { _id: 0, product_id: 1, stock_m: 1, min_m: 1, def_m: 1, level: 1, category: 1, brand_name: 1, active: 1, cp_p: 1, mv_seq: 1 } })
      .toArray()) as unknown as Product[];
    const byId = new Map(found.map((p) => [p.product_id, p]));
    const unknown = ids.filter((id) => !byId.has(id));
    if (unknown.length) throw new NotFoundException(`Product ${unknown.join(', ')} not found.`);
    // Each product as the lines leave it (a product on two lines moves twice, in line order).
    const now = new Date();
    const state = new Map(found.map((p) => [p.product_id, { stock_m: p.stock_m ?? 0, mv_seq: p.mv_seq }]));
    const rows = lines.map((l, i) => {
      const st = state.get(l.product_id)!;
      st.stock_m += l.delta;
      st.mv_seq = movementSeq(st.mv_seq, now.getTime());
      return { companyId, product_id: l.product_id, kind, source_id: sourceId, line: i + 1, qty_m: l.delta, rate_p: l.rate_p, stock_m: st.stock_m, date, seq: st.mv_seq };
    });
    const shifts: { before: Contribution; after: Contribution }[] = [];
    const updates = found.map((p) => {
      const st = state.get(p.product_id)!;
      const level = stockLevel(st.stock_m, p.min_m, p.def_m);
      shifts.push({ before: { ...p, stock_m: p.stock_m ?? 0 }, after: { ...p, stock_m: st.stock_m, level } });
      return {
        updateOne: {
          // The stock read is part of the filter: a product changed since cannot take this change.
          filter: { companyId, product_id: p.product_id, stock_m: p.stock_m ?? null },
          update: { $inc: { stock_m: st.stock_m - (p.stock_m ?? 0) }, $set: { level, mv_seq: st.mv_seq, updatedAt: now } },
        },
      };
    });
    const res = await products.bulkWrite(updates, { session, ordered: true });
    if (res.matchedCount !== updates.length) throw new StockRace(`stock: ${updates.length - res.matchedCount} product(s) changed while read`);
    await this.movements.collection.insertMany(rows.map((r) => castForInsert(this.movements as never, r)), { session });
    await this.totals.shiftMany(companyId, shifts, session);
    return {
      applied: true,
      movements: rows.map((m) => movementView(m as Movement)),
      negativeStock: [...new Set(rows.filter((m) => m.stock_m < 0).map((m) => m.product_id))],
    };
  }
}
