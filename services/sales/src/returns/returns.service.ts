import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { Subjects, type CreditNoteDetails, type CreditNoteListReply, type NoteLine, type ReturnPreviewReply, type SalesReturnReply } from '@bahi/contracts';
import { DocumentSeries, financialYearOf, leaseMs, LOGGER, money, mul, NatsClient, Saga, SequenceService, sub, today } from '@bahi/service-kit';
import { SalesEvents } from '../events/sales-events';
import { Models, type SaleDoc } from '../common/schemas';
import { num } from '../common/totals';
import { readPayments } from '../common/payments';
import type { Who } from '../common/who';
import { toCustomer } from '../sales/customers';
import { type CreditNoteDoc, ReturnModels, type ReturnableSale } from './schema';
import { addReturned, noteValue, type ReturnLine } from './value';

export const RETURN_LEASE_MS = leaseMs('BAHI_SALE_LEASE_MS');
export const NOTES_PAGE_SIZE = 10;

/** CN/26-27/0001: four digits at least, more when a year needs them. */
export const formatCreditNoteNo = (fy: string, n: number) => `CN/${fy}/${String(n).padStart(4, '0')}`;

export interface ReturnInput {
  saleId: number;
  lines: ReturnLine[];
  refund: string;
  /** How the refund is paid out (issue 28); absent: cash. */
  payments?: unknown;
  idempotencyKey?: string;
  reason?: string;
}

/** The sale is free for a return or cancellation: the reservation field is empty or ours. */
export const freeFor = (kind: 'return' | 'cancel', id: number) => ({ $or: [{ busy: null }, { 'busy.kind': kind, 'busy.id': id }] });

/** Why a sale cannot take a return now (409), or null. */
export function returnBlocker(s: ReturnableSale): string | null {
  if (s.cancelled) return `Bill ${s.saleId} was cancelled; nothing can be returned against it.`;
  if (s.busy) return `A ${s.busy.kind === 'cancel' ? 'cancellation' : 'return'} of bill ${s.saleId} is in progress; try again in a moment.`;
  return null;
}

/**
 * Sales returns (credit notes), all-or-nothing through the kit's Saga exactly as a sale:
 * the note is stored pending with its frozen figures (keyed by the idempotency key), then it
 * reserves the sale (one return or cancellation of a bill at a time, and only if no other note
 * completed since its figures were computed), stock comes back in, the customer's due goes down
 * (ledger), and the CN number is written with the point of no return. `finish` adds the note
 * to the sale's returned totals and frees the sale; `undo` reverses stock and ledger and frees it.
 */
@Injectable()
export class ReturnsService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly saga: Saga<CreditNoteDoc, SalesReturnReply>;
  readonly series: DocumentSeries;

  constructor(
    @InjectModel(ReturnModels.CreditNote) readonly notes: Model<CreditNoteDoc>,
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
    @Inject(LOGGER) private readonly log: Logger,
    events: SalesEvents,
  ) {
    this.series = new DocumentSeries({
      collection: notes.collection as never,
      fyField: 'fy',
      serialField: 'serial',
      numberField: 'credit_note_no',
      format: formatCreditNoteNo,
      busyMessage: 'Too many credit notes took numbers at once; please try again.',
    });
    this.saga = new Saga<CreditNoteDoc, SalesReturnReply>({
      relay: events.relay.forSource('credit-note'),
      model: notes,
      idField: 'creditNoteId',
      noun: 'return',
      leaseMs: RETURN_LEASE_MS,
      log,
      apply: (n) => this.apply(n),
      finish: (n) => this.finish(n),
      undo: (n) => this.undo(n),
      answer: (n) => ({ success: true, creditNoteId: n.creditNoteId, credit_note_no: n.credit_note_no, amount: num(n.amount), refund: num(n.refund), warnings: n.warnings }),
      undoneTail: 'Nothing was returned; stock and dues are unchanged.',
      laterTail: 'What was applied will be undone automatically.',
    });
  }

  onApplicationBootstrap() {
    this.saga.start();
  }

  onApplicationShutdown() {
    this.saga.stop();
  }

  private async sale(companyId: number, saleId: number): Promise<ReturnableSale> {
    const s = (await this.sales.collection.findOne({ companyId, saleId, status: 'complete' })) as ReturnableSale | null;
    if (!s) throw new NotFoundException(`Sale ${saleId} not found.`);
    return s;
  }

  /** What a return of `lines` would book now (GET /previewReturn): the booking's own rule, nothing written. */
  async preview(companyId: number, saleId: number, lines: ReturnLine[]): Promise<ReturnPreviewReply> {
    const s = await this.sale(companyId, saleId);
    const blocked = returnBlocker(s);
    if (blocked) throw new ConflictException(blocked);
    const v = noteValue(s, lines);
    const value = money(v.amount).toFixed(2);
    return {
      value,
      refund_max: value,
      // The lines asked for (a note completing the bill also credits others' shipping share; they are in value).
      lines: v.lines.filter((l) => money(l.quantity).gt(0)).map((l) => ({ sl_no: l.sl_no, quantity: money(l.quantity).toFixed(), value: money(l.value).toFixed(2) })),
    };
  }

  async salesReturn(who: Who, input: ReturnInput): Promise<SalesReturnReply> {
    const key = input.idempotencyKey || randomUUID();
    const earlier = await this.saga.replay(who.companyId, key);
    if (earlier) return earlier;
    const s = await this.sale(who.companyId, input.saleId);
    const blocked = returnBlocker(s);
    if (blocked) throw new ConflictException(blocked);
    const v = noteValue(s, input.lines);
    const refund = money(input.refund);
    if (refund.isNegative()) throw new BadRequestException('refund must not be below 0.');
    if (refund.gt(money(v.amount))) throw new BadRequestException(`refund (${refund.toFixed()}) is more than the credit note's value (${money(v.amount).toFixed(2)}).`);
    const payments = readPayments(input.payments, refund.toFixed(2), 'refund');
    const date = today();
    const creditNoteId = await this.seq.next(who.companyId, 'creditNote');
    return this.saga.run({
      companyId: who.companyId,
      creditNoteId,
      status: 'pending',
      idempotencyKey: key,
      lockedUntil: this.saga.lease(),
      saleId: s.saleId,
      fy: financialYearOf(date),
      serial: 0,
      credit_note_no: '',
      date,
      sale_date: s.date,
      reason: (input.reason ?? '').trim(),
      clientId: s.customer.client_id,
      customer: s.customer,
      lines: v.lines,
      subtotal: v.subtotal,
      discount: v.discount,
      tax: v.tax,
      shipping: v.shipping,
      amount: v.amount,
      refund: refund.toFixed(2),
      payments,
      completesBill: v.completesBill,
      tax_mode: s.tax_mode ?? 'simple',
      gst: v.gst,
      saleVersion: s.returnsVersion ?? 0,
      stockApplied: false,
      ledgerPosted: false,
      warnings: [],
      createdBy: who.userId,
    });
  }

  /** Reserves the sale, stock in, due down, then the number with the point of no return. */
  private async apply(n: CreditNoteDoc): Promise<void> {
    if (n.ledgerPosted) return; // a takeover past the point of no return only finishes
    const version = n.saleVersion === 0 ? { $in: [0, null] } : n.saleVersion;
    const reserved = await this.sales.collection.updateOne(
      { companyId: n.companyId, saleId: n.saleId, status: 'complete', cancelled: null, returnsVersion: version, ...freeFor('return', n.creditNoteId) } as never,
      { $set: { busy: { kind: 'return', id: n.creditNoteId }, updatedAt: new Date() } } as never,
    );
    if (reserved.matchedCount !== 1) {
      const s = await this.sale(n.companyId, n.saleId);
      throw new ConflictException(returnBlocker(s) ?? `Bill ${n.saleId} had another return meanwhile; check the quantities and try again.`);
    }
    const source = { kind: 'sale-return' as const, id: n.creditNoteId };
    const back = n.lines.filter((l) => money(l.quantity).gt(0));
    const stock = back.length
      ? await this.nats.send(Subjects.inventory.stockApply, {
          companyId: n.companyId,
          source,
          date: n.date,
          lines: back.map((l) => ({ product_id: l.product_id, quantity: mul(l.quantity, l.per_peice_quantity).toFixed(), rate: sub(l.mrp, l.discount).toFixed() })),
        })
      : null;
    await this.nats.send(Subjects.ledger.entryPost, {
      companyId: n.companyId,
      party: { kind: 'customer', id: n.customer.client_id },
      source: { kind: 'credit-note', id: n.creditNoteId },
      amount: n.amount,
      paid: n.refund,
      ...this.tenders(n),
      date: n.date,
      dueDate: n.date,
      // The number is taken only past the point of no return (after this post); finish sends it.
      docNo: null,
    });
    const negative = new Set(stock?.negativeStock ?? []);
    const warnings = back.filter((l) => negative.has(l.product_id)).map((l) => `Stock of ${l.product_name} (${l.product_id}) is still below zero.`);
    const progress = { stockApplied: true, ledgerPosted: true, warnings };
    const { number, serial } = await this.series.assign(n.companyId, n.fy, { creditNoteId: n.creditNoteId }, progress);
    Object.assign(n, progress, { credit_note_no: number, serial });
  }

  /** The ledger entry again, now with the note's number (the ledger writes it onto the entry once). */
  private postNumber(n: CreditNoteDoc) {
    return this.nats.send(Subjects.ledger.entryPost, {
      companyId: n.companyId,
      party: { kind: 'customer', id: n.customer.client_id },
      source: { kind: 'credit-note', id: n.creditNoteId },
      amount: n.amount,
      paid: n.refund,
      ...this.tenders(n),
      date: n.date,
      dueDate: n.date,
      docNo: n.credit_note_no,
    });
  }

  /** The refund's tenders and the manager who paid it, for the ledger entry (notes before modes: cash). */
  private tenders(n: CreditNoteDoc) {
    return { payments: n.payments ?? null, ...(n.createdBy > 0 ? { by: n.createdBy } : {}) };
  }

  /** Adds the note to the sale's returned totals and frees the sale (once: guarded by the note id). */
  private async finish(n: CreditNoteDoc): Promise<void> {
    // Past the point of no return nothing may fail the note: without its number the ledger row
    // still links the note by id.
    await this.postNumber(n).catch((err: unknown) => this.log.warn({ err, creditNoteId: n.creditNoteId }, 'the credit note number did not reach the ledger'));
    const s = await this.sale(n.companyId, n.saleId);
    if (!(s.creditNotes ?? []).some((c) => c.creditNoteId === n.creditNoteId)) {
      await this.sales.collection.updateOne(
        { companyId: n.companyId, saleId: n.saleId, 'busy.kind': 'return', 'busy.id': n.creditNoteId } as never,
        {
          $set: { returned: addReturned(s, n.lines), busy: null, updatedAt: new Date() },
          $inc: { returnsVersion: 1 },
          $push: { creditNotes: { creditNoteId: n.creditNoteId, credit_note_no: n.credit_note_no, date: n.date, amount: n.amount, refund: n.refund } },
        } as never,
      );
    }
  }

  private async undo(n: CreditNoteDoc): Promise<void> {
    await this.nats.send(Subjects.inventory.stockReverse, { companyId: n.companyId, source: { kind: 'sale-return', id: n.creditNoteId } });
    await this.nats.send(Subjects.ledger.entryReverse, { companyId: n.companyId, source: { kind: 'credit-note', id: n.creditNoteId } });
    await this.sales.collection.updateOne(
      { companyId: n.companyId, saleId: n.saleId, 'busy.kind': 'return', 'busy.id': n.creditNoteId } as never,
      { $set: { busy: null, updatedAt: new Date() } } as never,
    );
  }

  redrive(): Promise<number> {
    return this.saga.redrive();
  }

  async list(companyId: number, pageNo: number): Promise<CreditNoteListReply> {
    const filter = { companyId, status: 'complete' as const };
    const [count, rows] = await Promise.all([
      this.notes.countDocuments(filter),
      this.notes.find(filter).sort({ creditNoteId: -1 }).skip(pageNo * NOTES_PAGE_SIZE).limit(NOTES_PAGE_SIZE).lean(),
    ]);
    return {
      list: (rows as CreditNoteDoc[]).map((n) => ({
        id: n.creditNoteId,
        credit_note_no: n.credit_note_no,
        Date: n.date,
        saleId: n.saleId,
        invoice_no: n.gst?.invoice_no || null,
        'Clients Name': n.customer.walkIn ? 'Unknown' : n.customer.name,
        Amount: num(n.amount),
        Refund: num(n.refund),
      })),
      noOfPages: Math.max(1, Math.ceil(count / NOTES_PAGE_SIZE)),
    };
  }

  /** A complete note of the company; null when there is none (another company's too). */
  async details(companyId: number, creditNoteId: number): Promise<CreditNoteDetails | null> {
    const n = (await this.notes.findOne({ companyId, creditNoteId, status: 'complete' }).lean()) as CreditNoteDoc | null;
    return n ? noteDetails(n) : null;
  }

  async detailsOr404(companyId: number, creditNoteId: number): Promise<CreditNoteDetails> {
    const d = await this.details(companyId, creditNoteId);
    if (!d) throw new NotFoundException(`Credit note ${creditNoteId} not found.`);
    return d;
  }
}

export function noteDetails(n: CreditNoteDoc): CreditNoteDetails {
  const g = n.gst;
  return {
    creditNoteId: n.creditNoteId,
    credit_note_no: n.credit_note_no,
    saleId: n.saleId,
    sale_date: n.sale_date,
    customer: n.customer.walkIn ? null : toCustomer(n.customer),
    walkIn: n.customer.walkIn,
    date: n.date,
    reason: n.reason,
    lines: n.lines.map(
      (l): NoteLine => ({
        sl_no: l.sl_no,
        product_id: l.product_id,
        product_name: l.product_name,
        hsn_code: l.hsn_code,
        unit: l.unit,
        quantity: num(l.quantity),
        per_peice_quantity: num(l.per_peice_quantity),
        rate: num(l.mrp),
        disc: num(l.discount),
        amount: num(l.amount),
        value: num(l.value),
        taxable_value: l.gst ? num(l.gst.taxable_value) : null,
        gst_rate: l.gst ? num(l.gst.gst_rate) : null,
        cgst: l.gst ? num(l.gst.cgst) : null,
        sgst: l.gst ? num(l.gst.sgst) : null,
        igst: l.gst ? num(l.gst.igst) : null,
      }),
    ),
    subtotal: num(n.subtotal),
    discount: num(n.discount),
    tax: num(n.tax),
    shipping: num(n.shipping),
    amount: num(n.amount),
    refund: num(n.refund),
    gst: g
      ? {
          tax_mode: g.tax_mode,
          invoice_no: g.invoice_no,
          invoice_date: g.invoice_date,
          gstin: g.gstin,
          place_of_supply: g.place_of_supply,
          place_of_supply_name: g.place_of_supply_name,
          inter_state: g.inter_state,
          state_tax_name: g.state_tax_name,
          taxable_total: num(g.taxable_total),
          cgst_total: num(g.cgst_total),
          sgst_total: num(g.sgst_total),
          igst_total: num(g.igst_total),
          tax_total: num(g.tax_total),
          round_off: num(g.round_off),
        }
      : null,
  };
}
