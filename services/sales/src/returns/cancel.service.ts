import { ConflictException, HttpException, Inject, Injectable, NotFoundException, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { Subjects, type CancelSaleReply } from '@bahi/contracts';
import { Decimal, LOGGER, money, NatsClient, Saga, SequenceService, sub, today } from '@bahi/service-kit';
import { SalesEvents } from '../events/sales-events';
import { Models, type SaleDoc } from '../common/schemas';
import { unitQuantity } from '../common/totals';
import type { Who } from '../common/who';
import { FilingService } from '../gst-filing/filing.service';
import { periodName } from '../gst-filing/periods';
import type { FiledPeriodDoc } from '../gst-filing/schema';
import { freeFor, RETURN_LEASE_MS, ReturnsService } from './returns.service';
import { noteValue } from './value';
import { type ReturnableSale, ReturnModels, type SaleCancelDoc } from './schema';

/** Why a sale cannot be cancelled now (a sentence), or null. The ledger still refuses one paid for after the sale. */
export function cancelBlocker(s: ReturnableSale): string | null {
  if (s.cancelled) return `Bill ${s.saleId} is already cancelled.`;
  if ((s.creditNotes ?? []).length) return `Bill ${s.saleId} has credit notes (goods were returned against it); it cannot be cancelled.`;
  if (s.busy) return `A ${s.busy.kind === 'cancel' ? 'cancellation' : 'return'} of bill ${s.saleId} is in progress; try again in a moment.`;
  return null;
}

/**
 * Cancelling a bill, all-or-nothing through the kit's Saga (one record per attempt, keyed
 * `cancel:<saleId>` so a double click cancels once): reserve the sale (no return in progress or
 * done), the ledger reverses the sale's due unless the customer paid after the sale (the
 * refusable step, first), stock comes back in, then the sale is marked cancelled. It keeps its
 * invoice number (GSTR-1 counts it as cancelled in doc_issue) and leaves every total.
 */
@Injectable()
export class CancelService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly saga: Saga<SaleCancelDoc, CancelSaleReply>;

  constructor(
    @InjectModel(ReturnModels.SaleCancel) readonly records: Model<SaleCancelDoc>,
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    private readonly nats: NatsClient,
    private readonly seq: SequenceService,
    @Inject(LOGGER) log: Logger,
    events: SalesEvents,
    private readonly filing: FilingService,
    private readonly returns: ReturnsService,
  ) {
    this.saga = new Saga<SaleCancelDoc, CancelSaleReply>({
      relay: events.relay.forSource('sale-cancel'),
      model: records,
      idField: 'cancelId',
      noun: 'cancellation',
      leaseMs: RETURN_LEASE_MS,
      log,
      apply: (c) => this.apply(c),
      finish: (c) => this.finish(c),
      undo: (c) => this.undo(c),
      answer: (c) => ({ success: true, saleId: c.saleId, invoice_no: c.invoice_no || null }),
      undoneTail: 'The bill is unchanged.',
      laterTail: 'What was applied will be undone automatically; the bill stays as it was.',
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

  async cancel(who: Who, saleId: number, reason: string): Promise<CancelSaleReply> {
    const key = `cancel:${saleId}`;
    const s = await this.sale(who.companyId, saleId);
    // A cancel asked again once done is refused; one asked twice at once (a double click) waits
    // for the first and gets its answer (the shared key).
    if (s.cancelled) throw new ConflictException(cancelBlocker(s)!);
    // A filed return is never rewritten: the cancellation becomes a credit note dated today.
    const filed = s.gst?.invoice_date ? await this.filing.filedPeriodOf(who.companyId, s.gst.invoice_date) : null;
    if (filed) return this.creditInstead(who, s, reason, filed);
    const earlier = await this.saga.replay(who.companyId, key);
    if (earlier) return earlier;
    // An earlier attempt the replay just finished undoing held the bill: read it again.
    const blocked = cancelBlocker(s.busy ? await this.sale(who.companyId, saleId) : s);
    if (blocked) throw new ConflictException(blocked);
    const cancelId = await this.seq.next(who.companyId, 'saleCancel');
    return this.saga.run({
      companyId: who.companyId,
      cancelId,
      status: 'pending',
      idempotencyKey: key,
      lockedUntil: this.saga.lease(),
      saleId,
      date: today(),
      reason,
      createdBy: who.userId,
      stockApplied: false,
      ledgerPosted: false,
      ledgerTried: false,
      ledgerRefused: false,
      invoice_no: s.gst?.invoice_no || null,
      warnings: [],
    });
  }

  /**
   * Cancelling a bill of a filed period: a credit note (CGST Act s.34) for everything not yet
   * returned, today, with the paid amount not yet refunded given back, as a cancellation would.
   * The same key as a cancellation's (a double click makes one note).
   */
  private async creditInstead(who: Who, s: ReturnableSale, reason: string, f: FiledPeriodDoc): Promise<CancelSaleReply> {
    const key = `cancel:${s.saleId}`;
    const returned = new Map((s.returned ?? []).map((r) => [r.sl_no, money(r.quantity)]));
    const lines = s.lines
      .map((l) => ({ sl_no: l.sl_no, quantity: sub(l.quantity, returned.get(l.sl_no) ?? new Decimal(0)) }))
      .filter((l) => l.quantity.gt(0));
    const answer = (r: { creditNoteId: number; credit_note_no: string }): CancelSaleReply => ({ success: true, saleId: s.saleId, invoice_no: s.gst?.invoice_no || null, creditNoteId: r.creditNoteId, credit_note_no: r.credit_note_no });
    if (!lines.length) {
      const earlier = await this.returns.saga.replay(who.companyId, key);
      if (earlier) return answer(earlier);
      throw new ConflictException(`Everything on bill ${s.saleId} was already returned; there is nothing left to cancel.`);
    }
    const refunded = (s.creditNotes ?? []).reduce((a, n) => a.plus(money(n.refund)), new Decimal(0));
    const value = money(noteValue(s, lines).amount);
    const refund = Decimal.max(0, Decimal.min(value, money(s.paid).minus(refunded)));
    const r = await this.returns.salesReturn(who, {
      saleId: s.saleId,
      lines,
      refund: refund.toFixed(2),
      idempotencyKey: key,
      reason: `Cancelled after the return of ${periodName(f.period)} was filed: ${reason}`.slice(0, 200),
    });
    return answer(r);
  }

  private async apply(c: SaleCancelDoc): Promise<void> {
    if (c.ledgerPosted) return;
    const reserved = await this.sales.collection.updateOne(
      { companyId: c.companyId, saleId: c.saleId, status: 'complete', cancelled: null, returnsVersion: { $in: [0, null] }, ...freeFor('cancel', c.cancelId) } as never,
      { $set: { busy: { kind: 'cancel', id: c.cancelId }, updatedAt: new Date() } } as never,
    );
    const s = await this.sale(c.companyId, c.saleId);
    if (reserved.matchedCount !== 1) throw new ConflictException(cancelBlocker(s) ?? `Bill ${c.saleId} changed meanwhile; try again.`);
    // Each attempt is its own source (its cancelId): a reversed source stays reversed in the
    // ledger and in inventory, so an attempt undone after an outage must not block the next one.
    const source = { kind: 'sale-cancel' as const, id: c.cancelId };
    const triedBefore = c.ledgerTried === true;
    await this.saga.mark(c, { ledgerTried: true });
    let posted: boolean;
    try {
      ({ posted } = await this.nats.send(Subjects.ledger.entryPost, {
        companyId: c.companyId,
        party: { kind: 'customer', id: s.customer.client_id },
        source,
        amount: s.amount,
        paid: s.paid,
        date: c.date,
        dueDate: c.date,
        docNo: s.gst?.invoice_no || null,
        // The counter payment goes back in the modes it was taken, by whoever cancels (the cash books).
        payments: s.payments ?? null,
        ...(c.createdBy > 0 ? { by: c.createdBy } : {}),
        guard: { noPaymentAfter: { kind: 'sale', id: c.saleId } },
      }));
    } catch (err) {
      if (err instanceof HttpException && err.getStatus() === 409) {
        await this.saga.mark(c, { ledgerRefused: true });
        throw new ConflictException(`Bill ${c.saleId} cannot be cancelled: ${err.message}`);
      }
      throw err;
    }
    // Nothing posted on a first try: this attempt's source was reversed before its post arrived
    // (its undo ran first). Refused; the next attempt is a new source.
    if (!posted && !triedBefore) throw new ConflictException(`Bill ${c.saleId} was not cancelled: the ledger had already undone this attempt. Please try again.`);
    await this.saga.mark(c, { stockApplied: true });
    await this.nats.send(Subjects.inventory.stockApply, {
      companyId: c.companyId,
      source,
      date: c.date,
      lines: s.lines.map((l) => ({ product_id: l.product_id, quantity: unitQuantity(l).toFixed(), rate: sub(l.mrp, l.discount).toFixed() })),
    });
    await this.saga.mark(c, { ledgerPosted: true });
  }

  /** Marks the sale cancelled and frees it (once: only while it holds our reservation). */
  private async finish(c: SaleCancelDoc): Promise<void> {
    await this.sales.collection.updateOne(
      { companyId: c.companyId, saleId: c.saleId, 'busy.kind': 'cancel', 'busy.id': c.cancelId } as never,
      { $set: { cancelled: { date: c.date, reason: c.reason, by: c.createdBy }, busy: null, updatedAt: new Date() } } as never,
    );
  }

  private async undo(c: SaleCancelDoc): Promise<void> {
    const source = { kind: 'sale-cancel' as const, id: c.cancelId };
    // stockApplied is set before the stock message is sent: here it means "tried".
    if (c.stockApplied) await this.nats.send(Subjects.inventory.stockReverse, { companyId: c.companyId, source });
    if (c.ledgerTried && !c.ledgerRefused) await this.nats.send(Subjects.ledger.entryReverse, { companyId: c.companyId, source });
    await this.sales.collection.updateOne(
      { companyId: c.companyId, saleId: c.saleId, 'busy.kind': 'cancel', 'busy.id': c.cancelId } as never,
      { $set: { busy: null, updatedAt: new Date() } } as never,
    );
  }

  redrive(): Promise<number> {
    return this.saga.redrive();
  }
}
