import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import {
  EventStreams,
  EventSubjects,
  Subjects,
  type HistoryEvent,
  type ProductChangedEvent,
  type PurchaseCompletedEvent,
  type PurchaseReturnedEvent,
  type StockMovedEvent,
  type StockMovement,
} from '@bahi/contracts';
import { dec, EventRelay, historyHandlers, RelayService, istDate, LOGGER, NATS_CONNECTION, RELAY_COMMENT } from '@bahi/service-kit';
import { milliStr, paiseStr } from '../common';
import { DEBIT_NOTE_MODEL, type DebitNoteDoc } from '../purchases/debit-note.schema';
import { PURCHASE_MODEL, type PurchaseDoc } from '../purchases/purchase.schema';
import { Category, Movement, Product, StockSourceDoc } from '../schemas';

type Stamped = { createdAt?: Date; updatedAt?: Date };
const at = (d: Stamped) => (d.createdAt ?? new Date(0)).toISOString();

export function purchaseEvent(p: PurchaseDoc & Stamped): HistoryEvent<'events.inventory.purchase.completed'> {
  const event: PurchaseCompletedEvent = {
    eventId: `purchase:${p.companyId}:${p.purchaseId}:completed`,
    companyId: p.companyId,
    occurredAt: at(p),
    date: p.date,
    purchaseId: p.purchaseId,
    bill_no: p.bill_no || null,
    distributorId: p.distributorId,
    distributorName: p.distributorName,
    lines: p.lines.map((l) => ({
      sl_no: l.sl_no,
      product_id: l.product_id,
      product_name: l.product_name,
      quantity: dec(l.quantity),
      per_peice_quantity: dec(l.per_peice_quantity),
      units: dec(l.units),
      rate: dec(l.rate),
      amount: dec(l.amount),
    })),
    subtotal: dec(p.subtotal),
    tax: p.tax === 1 ? 1 : 0,
    taxAmount: dec(p.taxAmount),
    shipping: dec(p.shipping),
    discount: dec(p.discount),
    amount: dec(p.total),
    paid: dec(p.paid),
    dueDate: p.dueDate,
    gst: p.gst
      ? {
          tax_mode: p.taxMode === 'composition' ? 'composition' : 'gst',
          invoice_no: p.bill_no || null,
          inter_state: p.gst.inter_state,
          taxable_total: dec(p.gst.taxable_total),
          cgst_total: dec(p.gst.cgst_total),
          sgst_total: dec(p.gst.sgst_total),
          igst_total: dec(p.gst.igst_total),
          round_off: '0',
        }
      : null,
  };
  return { subject: EventSubjects.inventory.purchaseCompleted, event };
}

export function debitNoteEvent(d: DebitNoteDoc & Stamped): HistoryEvent<'events.inventory.purchase.returned'> {
  const event: PurchaseReturnedEvent = {
    eventId: `debit-note:${d.companyId}:${d.debitNoteId}:completed`,
    companyId: d.companyId,
    occurredAt: at(d),
    date: d.date,
    debitNoteId: d.debitNoteId,
    debit_note_no: d.debit_note_no,
    purchaseId: d.purchaseId,
    distributorId: d.distributorId,
    distributorName: d.distributorName,
    lines: d.lines.map((l) => ({
      sl_no: l.sl_no,
      product_id: l.product_id,
      product_name: l.product_name,
      quantity: dec(l.quantity),
      units: dec(l.units),
      amount: dec(l.subtotal),
      value: dec(l.value),
      cp: dec(l.cost),
    })),
    subtotal: dec(d.subtotal),
    discount: dec(d.discount),
    tax: dec(d.tax),
    shipping: dec(d.shipping),
    amount: dec(d.amount),
    refund: dec(d.refund),
  };
  return { subject: EventSubjects.inventory.purchaseReturned, event };
}

const REVERSAL: Record<string, string> = {
  sale: 'sale-reversal',
  purchase: 'purchase-reversal',
  'sale-return': 'sale-return-reversal',
  'purchase-return': 'purchase-return-reversal',
  'sale-cancel': 'sale-cancel-reversal',
};

/** A movement's figures as stock.moved and the stock replies carry them (contracts StockMovement). */
export type MovedLine = Pick<StockMovement, 'product_id' | 'line' | 'quantity' | 'rate' | 'stock' | 'date'>;
export function movedLine(m: Movement): MovedLine {
  return { product_id: m.product_id, line: m.line, quantity: milliStr(m.qty_m), rate: paiseStr(m.rate_p), stock: milliStr(m.stock_m), date: new Date(m.date).toISOString() };
}

/**
 * The movements a stock write has in hand, set on the source record it hands to the relay, so
 * the stock.moved events are built without reading them back (a symbol: never stored). `own`:
 * the source's movements by line; `reversal`: its reversal's, when it was reversed.
 */
export const MOVEMENTS_IN_HAND = Symbol('movements in hand');
export type StockSourceInHand = StockSourceDoc & { [MOVEMENTS_IN_HAND]?: { own: MovedLine[]; reversal?: MovedLine[] } };

/** A stock source's events: applied (its movements), then reversed (the reversal's) once a reverse wrote them. */
export function stockEvents(src: StockSourceDoc, own: MovedLine[], reversal: MovedLine[]): HistoryEvent<'events.inventory.stock.moved'>[] {
  const out: HistoryEvent<'events.inventory.stock.moved'>[] = [];
  const one = (fact: 'applied' | 'reversed', ms: MovedLine[]): StockMovedEvent => ({
    eventId: `stock:${src.companyId}:${src.kind}:${src.id}:${fact}`,
    companyId: src.companyId,
    occurredAt: new Date(fact === 'applied' ? src.at : ms[0]!.date).toISOString(),
    date: istDate(new Date(ms[0]!.date)),
    fact,
    source: { kind: src.kind, id: src.id },
    movements: ms.map((m) => ({ product_id: m.product_id, line: m.line, quantity: m.quantity, rate: m.rate, stock: m.stock })),
  });
  if (own.length) out.push({ subject: EventSubjects.inventory.stockMoved, event: one('applied', own) });
  if (reversal.length) out.push({ subject: EventSubjects.inventory.stockMoved, event: one('reversed', reversal) });
  return out;
}

export function productEvent(p: Product & Stamped & { evt?: string; _id?: unknown }, category: { id: number; name: string } | null): HistoryEvent<'events.inventory.product.changed'> {
  const event: ProductChangedEvent = {
    // The write's own mark names the fact; a product read for a rebuild (no mark) is its last write.
    eventId: `product:${p.companyId}:${p.product_id}:${p.evt ?? `at-${(p.updatedAt ?? new Date(0)).getTime()}`}`,
    companyId: p.companyId,
    occurredAt: (p.updatedAt ?? p.createdAt ?? new Date(0)).toISOString(),
    date: istDate(p.updatedAt ?? p.createdAt ?? new Date(0)),
    product_id: p.product_id,
    product_name: p.product_name,
    category,
    brand_name: p.brand_name ?? '',
    unit: p.unit,
    cp: paiseStr(p.cp_p),
    mrp: paiseStr(p.mrp_p),
    min_stock: milliStr(p.min_m ?? 0),
    default_stock: milliStr(p.def_m ?? 0),
    stock: milliStr(p.stock_m ?? 0),
    hsn_code: p.hsn_code ?? '',
    active: p.active === 0 ? 0 : 1,
  };
  return { subject: EventSubjects.inventory.productChanged, event };
}

/**
 * Inventory's domain events (BAHI_INVENTORY): purchase completed, debit note completed (purchase
 * returned), stock moved (per applied or reversed source), product changed. Each record is marked
 * pending (`evt`) in the write or transaction of its fact; the relay publishes after the commit.
 */
@Injectable()
export class InventoryEvents extends RelayService {
  readonly relay: EventRelay;

  constructor(
    @InjectModel(PURCHASE_MODEL) purchases: Model<PurchaseDoc>,
    @InjectModel(DEBIT_NOTE_MODEL) notes: Model<DebitNoteDoc>,
    @InjectModel(StockSourceDoc.name) sources: Model<StockSourceDoc>,
    @InjectModel(Movement.name) movements: Model<Movement>,
    @InjectModel(Product.name) products: Model<Product>,
    @InjectModel(Category.name) categories: Model<Category>,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    @Inject(LOGGER) log: Logger,
  ) {
    super();
    const moves = async (companyId: number, kind: string, id: number) => ((await movements.collection.find({ companyId, kind, source_id: id }, { comment: RELAY_COMMENT }).sort({ line: 1 }).toArray()) as unknown as Movement[]).map(movedLine);
    this.relay = new EventRelay({
      nc,
      log,
      stream: EventStreams.inventory,
      sources: [
        { name: 'purchase', collection: purchases.collection, complete: { status: 'complete' }, toEvents: (p: PurchaseDoc) => [purchaseEvent(p)] },
        { name: 'debit-note', collection: notes.collection, complete: { status: 'complete' }, toEvents: (d: DebitNoteDoc) => [debitNoteEvent(d)] },
        {
          name: 'stock',
          collection: sources.collection,
          complete: {},
          toEvents: async (s: StockSourceInHand) => {
            const held = s[MOVEMENTS_IN_HAND];
            const reversal = REVERSAL[s.kind] && s.reversed ? (held?.reversal ?? (await moves(s.companyId, REVERSAL[s.kind]!, s.id))) : [];
            return stockEvents(s, held?.own ?? (await moves(s.companyId, s.kind, s.id)), reversal);
          },
        },
        {
          name: 'product',
          collection: products.collection,
          complete: {},
          toEvents: async (p: Product) => {
            const c = p.category == null ? null : await categories.collection.findOne({ companyId: p.companyId, id: p.category });
            return [productEvent(p, c ? { id: c.id as number, name: c.name as string } : null)];
          },
        },
      ] as never,
    });
  }
}

/** `inventory.history.page`: the events of inventory's records, for a rebuild. */
export const InventoryHistoryHandlers = historyHandlers(Subjects.inventory.historyPage, InventoryEvents);
