import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { readPayments } from './purchase-input';
import { Subjects, type DebitNoteDetails, type EntryPostRequest, type NoteLine, type PaymentLine, type PurchaseReturnReply, type ReturnPreviewReply } from '@bahi/contracts';
import { Decimal, DocumentSeries, financialYearOf, leaseMs, Limits, LOGGER, money, NatsClient, Saga, SequenceService, today } from '@bahi/service-kit';
import { InventoryEvents } from '../events/inventory-events';
import { stateName } from '@bahi/gst';
import { StockService } from '../stock/stock.service';
import { noteFigures, parseReturnLines, returnedPacks, type NoteFigures, type ReturnHold } from './debit-note.figures';
import { DEBIT_NOTE_MODEL, type DebitNoteDoc, type DebitNoteLineDoc } from './debit-note.schema';
import type { PurchaseDoc } from './purchase.schema';
import { PurchasesService, stockCost, type Who } from './purchases.service';

/** How long one attempt may hold a debit note before the re-driver may take it over. */
export const DEBIT_NOTE_LEASE_MS = leaseMs('BAHI_DEBIT_NOTE_LEASE_MS');
/** Reservations retried when another return of the same purchase changed it meanwhile. */
const RESERVE_ATTEMPTS = 50;

export interface ReturnInput {
  purchaseId: number;
  lines: unknown;
  refund: string;
  payments: PaymentLine[];
  idempotencyKey: string;
  reason: string;
}

const num = (s: string | Decimal) => Number(s);
const fixed2 = (s: string | Decimal) => new Decimal(s).toFixed(2);

/** The body of POST /purchaseReturn; 400 with a sentence naming the field. */
export function parseReturn(body: unknown, header: string | undefined): ReturnInput {
  const b = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const idRaw = b.purchaseId;
  const purchaseId = typeof idRaw === 'number' ? idRaw : typeof idRaw === 'string' && /^\d+$/.test(idRaw.trim()) ? Number(idRaw) : NaN;
  if (!Number.isSafeInteger(purchaseId) || purchaseId < 1 || purchaseId > Limits.maxId) throw new BadRequestException('purchaseId must be the id of a purchase.');
  const r = b.refund ?? 0;
  let refund: Decimal;
  try {
    if ((typeof r !== 'number' && typeof r !== 'string') || r === '') throw new Error();
    refund = money(r);
  } catch {
    throw new BadRequestException('refund must be a number (0 when the distributor pays nothing back now).');
  }
  if (refund.isNegative()) throw new BadRequestException('refund cannot be negative.');
  if (refund.decimalPlaces() > 2) throw new BadRequestException('refund can have at most 2 decimals (paise).');
  const key = header ?? b.idempotencyKey;
  if (typeof key !== 'string' || !/^[\w.:-]{1,100}$/.test(key)) {
    throw new BadRequestException('idempotencyKey is required: letters, digits, . : _ and - only (at most 100), so a retried return applies once.');
  }
  const reason = b.reason === undefined || b.reason === null ? '' : b.reason;
  if (typeof reason !== 'string' || reason.length > 200) throw new BadRequestException('reason must be text of at most 200 characters.');
  return { purchaseId, lines: b.lines, refund: refund.toFixed(2), payments: readPayments(b.payments, refund.toFixed(2), 'refund'), idempotencyKey: key, reason: reason.trim() };
}

function checkRefund(refund: string, amount: string): void {
  if (new Decimal(refund).greaterThan(amount)) throw new BadRequestException(`The refund (${fixed2(refund)}) is more than the debit note's value (${fixed2(amount)}).`);
}

/** The note's lines: the figures with the purchase line's frozen product fields. */
function docLines(p: PurchaseDoc, fig: NoteFigures): DebitNoteLineDoc[] {
  return fig.lines.map((f) => {
    const l = p.lines.find((x) => x.sl_no === f.sl_no)!;
    const g = p.gst?.lines.find((x) => x.sl_no === f.sl_no);
    return {
      ...f,
      product_id: l.product_id,
      product_name: l.product_name,
      hsn_code: g?.hsn_code ?? l.hsn_code ?? '',
      unit: l.unit,
      per_peice_quantity: l.per_peice_quantity,
      rate: l.rate,
      disc: l.disc,
      cost: stockCost(p, l),
      gst_rate: g ? g.gst_rate : null,
    };
  });
}

const figureFields = (fig: NoteFigures) => ({
  subtotal: fig.subtotal,
  discount: fig.discount,
  tax: fig.tax,
  shipping: fig.shipping,
  taxable: fig.taxable,
  cgst: fig.cgst,
  sgst: fig.sgst,
  igst: fig.igst,
  roundOff: fig.roundOff,
  amount: fig.amount,
});

/**
 * Purchase returns (debit notes). Each is one business fact across inventory and ledger, driven
 * by the kit's Saga as a purchase is: stored `pending` by its idempotency key, then the returned
 * quantities reserved on the purchase (a conditional update on its `returnsVersion`, so two
 * returns at once cannot take more than was bought), stock out, the distributor's entry, and the
 * DN number written together with the point of no return. Any failure undoes them in reverse and
 * releases the reservation; the re-driver does the same for notes a crash left behind.
 */
/** The distributor's ledger entry of a debit note: the refund is what they paid back. */
const distributorEntry = (d: DebitNoteDoc, docNo?: string): EntryPostRequest => ({
  companyId: d.companyId,
  party: { kind: 'distributor', id: d.distributorId },
  source: { kind: 'debit-note', id: d.debitNoteId },
  amount: d.amount,
  paid: d.refund,
  payments: d.payments ?? null,
  ...(d.createdBy > 0 ? { by: d.createdBy } : {}),
  date: d.date,
  ...(docNo ? { docNo } : {}),
});

@Injectable()
export class DebitNotesService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly saga: Saga<DebitNoteDoc, PurchaseReturnReply>;
  private readonly series: DocumentSeries;

  constructor(
    @InjectModel(DEBIT_NOTE_MODEL) readonly model: Model<DebitNoteDoc>,
    private readonly purchases: PurchasesService,
    private readonly stock: StockService,
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
    @Inject(LOGGER) private readonly log: Logger,
    events: InventoryEvents,
  ) {
    this.saga = new Saga<DebitNoteDoc, PurchaseReturnReply>({
      relay: events.relay.forSource('debit-note'),
      model,
      idField: 'debitNoteId',
      noun: 'debit note',
      leaseMs: DEBIT_NOTE_LEASE_MS,
      log,
      apply: (d) => this.apply(d),
      finish: (d) => this.finish(d),
      undo: (d) => this.undo(d),
      answer: (d) => ({ success: true, debitNoteId: d.debitNoteId, debit_note_no: d.debit_note_no, amount: num(d.amount), refund: num(d.refund), warnings: d.warnings }),
      undoneTail: 'Nothing was returned.',
      laterTail: 'What was applied will be undone automatically.',
    });
    this.series = new DocumentSeries({
      collection: model.collection,
      fyField: 'fy',
      serialField: 'serial',
      numberField: 'debit_note_no',
      format: (fy, n) => `DN/${fy}/${String(n).padStart(4, '0')}`,
      busyMessage: 'Too many debit notes took numbers at once; please try again.',
    });
  }

  onApplicationBootstrap() {
    this.saga.start();
  }

  onApplicationShutdown() {
    this.saga.stop();
  }

  /** GET /previewPurchaseReturn: what the return would book now (the booking's noteFigures), nothing written. */
  async preview(companyId: number, purchaseId: number, lines: unknown): Promise<ReturnPreviewReply> {
    const p = await this.purchases.get(companyId, purchaseId);
    const holds = p.returnHolds ?? [];
    const fig = noteFigures(p, parseReturnLines(p, lines, holds), holds);
    const value = fixed2(fig.amount);
    return { value, refund_max: value, lines: fig.lines.filter((l) => new Decimal(l.quantity).gt(0)).map((l) => ({ sl_no: l.sl_no, quantity: new Decimal(l.quantity).toFixed(), value: fixed2(l.value) })) };
  }

  /** POST /purchaseReturn: validated against the purchase now (400 naming the line), reserved again atomically when applied. */
  async purchaseReturn(who: Who, input: ReturnInput): Promise<PurchaseReturnReply> {
    const earlier = await this.saga.replay(who.companyId, input.idempotencyKey);
    if (earlier) return earlier;
    const p = await this.purchases.get(who.companyId, input.purchaseId);
    const holds = p.returnHolds ?? [];
    const fig = noteFigures(p, parseReturnLines(p, input.lines, holds), holds);
    checkRefund(input.refund, fig.amount);
    const date = today();
    const debitNoteId = await this.seq.next(who.companyId, 'debitNote');
    const doc: DebitNoteDoc = {
      companyId: who.companyId,
      debitNoteId,
      status: 'pending',
      idempotencyKey: input.idempotencyKey,
      lockedUntil: this.saga.lease(),
      stockApplied: false,
      ledgerPosted: false,
      warnings: [],
      purchaseId: p.purchaseId,
      distributorId: p.distributorId,
      distributorName: p.distributorName,
      bill_no: p.bill_no,
      purchase_date: p.date,
      date,
      reason: input.reason,
      refund: input.refund,
      payments: input.payments,
      lines: docLines(p, fig),
      ...figureFields(fig),
      taxMode: p.taxMode ?? 'simple',
      gst: p.gst
        ? {
            distributor_gstin: p.gst.distributor_gstin,
            distributor_state_code: p.gst.distributor_state_code,
            distributor_state_name: p.gst.distributor_state_name,
            company_state_code: p.gst.company_state_code,
            inter_state: p.gst.inter_state,
            state_tax_name: p.gst.state_tax_name ?? 'SGST',
          }
        : null,
      fy: financialYearOf(date),
      serial: 0,
      debit_note_no: '',
      createdBy: who.userId,
    };
    return this.saga.run(doc);
  }

  /**
   * Takes the note's quantities on the purchase: a conditional update of its returnHolds on the
   * version it was read at, so a concurrent return (or a released one) makes this one read again
   * and re-check. Idempotent: a hold already there (a re-driven note) is kept.
   */
  private async reserve(d: DebitNoteDoc): Promise<void> {
    const coll = this.purchases.model.collection;
    for (let i = 0; i < RESERVE_ATTEMPTS; i++) {
      const p = (await coll.findOne({ companyId: d.companyId, purchaseId: d.purchaseId, status: 'complete' })) as PurchaseDoc | null;
      if (!p) throw new NotFoundException(`Purchase ${d.purchaseId} not found.`);
      const holds = p.returnHolds ?? [];
      if (holds.some((h) => h.debitNoteId === d.debitNoteId)) return;
      const fig = noteFigures(p, parseReturnLines(p, d.lines.map((l) => ({ sl_no: l.sl_no, quantity: l.quantity })), holds), holds);
      checkRefund(d.refund, fig.amount);
      const hold: ReturnHold = { debitNoteId: d.debitNoteId, lines: fig.lines, shipping: fig.shipping, amount: fig.amount };
      const version = p.returnsVersion ?? 0;
      const r = await coll.updateOne(
        { companyId: d.companyId, purchaseId: d.purchaseId, returnsVersion: version === 0 ? { $in: [0, null] } : version },
        { $push: { returnHolds: hold }, $inc: { returnsVersion: 1 }, $set: { updatedAt: new Date() } } as never,
      );
      if (r.matchedCount === 1) {
        // Another return completing or releasing meanwhile can move the remainders: keep what was reserved.
        if (fig.amount !== d.amount || JSON.stringify(fig.lines) !== JSON.stringify(d.lines.map((l) => ({ ...pickFigures(l) })))) {
          await this.saga.mark(d, { lines: docLines(p, fig), ...figureFields(fig) });
        }
        return;
      }
    }
    throw new ConflictException('Too many returns of this purchase at once; please try again.');
  }

  private async release(d: DebitNoteDoc): Promise<void> {
    await this.purchases.model.collection.updateOne(
      { companyId: d.companyId, purchaseId: d.purchaseId, 'returnHolds.debitNoteId': d.debitNoteId },
      { $pull: { returnHolds: { debitNoteId: d.debitNoteId } }, $inc: { returnsVersion: 1 }, $set: { updatedAt: new Date() } } as never,
    );
  }

  /** Reservation, stock out at the purchase's cost, the distributor's entry, then the number with the point of no return. */
  private async apply(d: DebitNoteDoc): Promise<void> {
    await this.reserve(d);
    const source = { kind: 'purchase-return' as const, id: d.debitNoteId };
    const applied = await this.stock.apply(
      d.companyId,
      source,
      d.lines.map((l) => ({ product_id: l.product_id, quantity: l.units, rate: l.cost })),
    );
    const negative = new Set(applied.negativeStock ?? []);
    const warnings = d.lines.filter((l) => negative.has(l.product_id)).map((l) => `Stock of ${l.product_name} (${l.product_id}) is now below zero.`);
    await this.saga.mark(d, { stockApplied: true, warnings });
    await this.nats.send(Subjects.ledger.entryPost, distributorEntry(d));
    const { serial, number } = await this.series.assign(d.companyId, d.fy, { debitNoteId: d.debitNoteId }, { ledgerPosted: true });
    Object.assign(d, { serial, debit_note_no: number, ledgerPosted: true });
  }

  /** The number onto the distributor's entry (a repeat of the post); the note stands without it. */
  private async finish(d: DebitNoteDoc): Promise<void> {
    if (!d.debit_note_no) {
      const { serial, number } = await this.series.assign(d.companyId, d.fy, { debitNoteId: d.debitNoteId });
      Object.assign(d, { serial, debit_note_no: number });
    }
    try {
      await this.nats.send(Subjects.ledger.entryPost, distributorEntry(d, d.debit_note_no));
    } catch (err) {
      this.log.warn({ err, debitNoteId: d.debitNoteId }, 'the debit note number did not reach the ledger entry');
    }
  }

  private async undo(d: DebitNoteDoc): Promise<void> {
    const stockSource = { kind: 'purchase-return' as const, id: d.debitNoteId };
    await this.stock.reverse(d.companyId, stockSource);
    await this.nats.send(Subjects.ledger.entryReverse, { companyId: d.companyId, source: { kind: 'debit-note', id: d.debitNoteId } });
    await this.release(d);
  }

  redrive(): Promise<number> {
    return this.saga.redrive();
  }

  /** A complete debit note of the company; 404 otherwise (another company's id included). */
  async get(companyId: number, debitNoteId: number): Promise<DebitNoteDoc> {
    const d = await this.model.findOne({ companyId, debitNoteId, status: 'complete' }).lean();
    if (!d) throw new NotFoundException(`Debit note ${debitNoteId} not found.`);
    return d as DebitNoteDoc;
  }

  /** The complete notes of one purchase, oldest first. */
  ofPurchase(companyId: number, purchaseId: number): Promise<DebitNoteDoc[]> {
    return this.model.find({ companyId, purchaseId, status: 'complete' }).sort({ debitNoteId: 1 }).lean() as Promise<DebitNoteDoc[]>;
  }
}

const pickFigures = (l: DebitNoteLineDoc) => ({
  sl_no: l.sl_no,
  quantity: l.quantity,
  units: l.units,
  subtotal: l.subtotal,
  discount: l.discount,
  tax: l.tax,
  taxable: l.taxable,
  cgst: l.cgst,
  sgst: l.sgst,
  igst: l.igst,
  value: l.value,
});

/** Per purchase line: packs bought, returned (pending or complete notes) and still returnable. */
export function returnableLines(p: PurchaseDoc) {
  const taken = returnedPacks(p.returnHolds ?? []);
  return p.lines.map((l) => {
    const returned = taken.get(l.sl_no) ?? new Decimal(0);
    return { sl_no: l.sl_no, sold: num(l.quantity), returned: num(returned), returnable: num(new Decimal(l.quantity).minus(returned)) };
  });
}

/** The HTTP/NATS view of a note (numbers; GST part only in GST mode). */
export function debitNoteView(d: DebitNoteDoc): DebitNoteDetails {
  const lines: NoteLine[] = d.lines.map((l) => ({
    sl_no: l.sl_no,
    product_id: l.product_id,
    product_name: l.product_name,
    hsn_code: l.hsn_code,
    unit: l.unit,
    quantity: num(l.quantity),
    per_peice_quantity: num(l.per_peice_quantity),
    rate: num(l.rate),
    disc: num(l.disc),
    amount: num(l.subtotal),
    taxable_value: d.gst ? num(l.taxable) : null,
    gst_rate: d.gst && l.gst_rate !== null ? num(l.gst_rate) : null,
    cgst: d.gst ? num(l.cgst) : null,
    sgst: d.gst ? num(l.sgst) : null,
    igst: d.gst ? num(l.igst) : null,
    value: num(l.value),
  }));
  const tax = new Decimal(d.cgst).plus(d.sgst).plus(d.igst);
  return {
    debitNoteId: d.debitNoteId,
    debit_note_no: d.debit_note_no,
    purchaseId: d.purchaseId,
    purchase_date: d.purchase_date,
    bill_no: d.bill_no,
    distributor_id: d.distributorId,
    name: d.distributorName,
    date: d.date,
    reason: d.reason,
    lines,
    subtotal: num(d.subtotal),
    discount: num(d.discount),
    tax: num(d.tax),
    shipping: num(d.shipping),
    amount: num(d.amount),
    refund: num(d.refund),
    gst: d.gst
      ? {
          tax_mode: d.taxMode === 'composition' ? 'composition' : 'gst',
          invoice_no: d.bill_no,
          invoice_date: d.purchase_date,
          gstin: d.gst.distributor_gstin,
          // The original purchase's: where the goods were delivered, the company's state.
          place_of_supply: d.gst.company_state_code,
          place_of_supply_name: stateName(d.gst.company_state_code),
          inter_state: d.gst.inter_state,
          state_tax_name: d.gst.state_tax_name,
          taxable_total: num(d.taxable),
          cgst_total: num(d.cgst),
          sgst_total: num(d.sgst),
          igst_total: num(d.igst),
          tax_total: num(tax),
          round_off: num(d.roundOff),
        }
      : null,
  };
}
