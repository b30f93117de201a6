import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import {
  EventStreams,
  EventSubjects,
  Subjects,
  type EventGst,
  type HistoryEvent,
  type SaleCancelledEvent,
  type SaleCompletedEvent,
  type SaleReturnedEvent,
} from '@bahi/contracts';
import { netOfDiscount } from '@bahi/gst';
import { dec, decOrNull, EventRelay, historyHandlers, RelayService, LOGGER, mul, NATS_CONNECTION } from '@bahi/service-kit';
import { Models, type SaleDoc } from '../common/schemas';
import { lineAmount } from '../common/totals';
import { ReturnModels, type CreditNoteDoc, type SaleCancelDoc } from '../returns/schema';

type Stamped = { createdAt?: Date };
const at = (d: Stamped) => (d.createdAt ?? new Date(0)).toISOString();

/** The sale's completed event: its frozen lines (with the cp frozen at the cart), figures and GST. */
export function saleCompletedEvent(s: SaleDoc & Stamped): HistoryEvent<'events.sales.sale.completed'> {
  const gstLines = new Map((s.gst?.lines ?? []).map((g) => [g.sl_no, g]));
  const gst: EventGst | null = s.gst
    ? {
        tax_mode: s.gst.tax_mode,
        invoice_no: s.gst.invoice_no || null,
        inter_state: s.gst.inter_state,
        taxable_total: dec(s.gst.taxable_total),
        cgst_total: dec(s.gst.cgst_total),
        sgst_total: dec(s.gst.sgst_total),
        igst_total: dec(s.gst.igst_total),
        round_off: dec(s.gst.round_off),
      }
    : null;
  // Profit's value per line: before tax and shipping, less its share of the summary discount.
  const net = netOfDiscount(
    s.lines.map((l) => {
      const g = gstLines.get(l.sl_no);
      return g ? dec(g.line_taxable) : lineAmount(l).toFixed();
    }),
    dec(s.discount),
  );
  const event: SaleCompletedEvent = {
    eventId: `sale:${s.companyId}:${s.saleId}:completed`,
    companyId: s.companyId,
    occurredAt: at(s),
    date: s.date,
    saleId: s.saleId,
    clientId: s.customer?.walkIn ? 0 : s.clientId,
    customerName: s.customer?.name ?? '',
    walkIn: Boolean(s.customer?.walkIn),
    lines: s.lines.map((l, i) => {
      const g = gstLines.get(l.sl_no);
      return {
        sl_no: l.sl_no,
        product_id: l.product_id,
        product_name: l.product_name,
        unit: l.unit,
        quantity: dec(l.quantity),
        per_peice_quantity: dec(l.per_peice_quantity),
        units: mul(l.quantity, l.per_peice_quantity).toFixed(),
        rate: dec(l.mrp),
        disc: dec(l.discount),
        amount: lineAmount(l).toFixed(),
        cp: decOrNull(l.cp),
        taxable_value: g ? dec(g.taxable_value) : null,
        gst_rate: g ? dec(g.gst_rate) : null,
        cgst: g ? dec(g.cgst) : null,
        sgst: g ? dec(g.sgst) : null,
        igst: g ? dec(g.igst) : null,
        line_taxable: g ? dec(g.line_taxable) : null,
        net_value: net[i]!.toFixed(2),
      };
    }),
    subtotal: dec(s.subtotal),
    tax: s.tax === 1 ? 1 : 0,
    taxAmount: dec(s.taxAmount),
    shipping: dec(s.shipping),
    discount: dec(s.discount),
    amount: dec(s.amount),
    paid: dec(s.paid),
    dueDate: s.dueDate,
    gst,
  };
  return { subject: EventSubjects.sales.saleCompleted, event };
}

export function creditNoteEvent(n: CreditNoteDoc & Stamped, sale: SaleDoc | null): HistoryEvent<'events.sales.sale.returned'> {
  const cps = new Map((sale?.lines ?? []).map((l) => [l.sl_no, l.cp]));
  const event: SaleReturnedEvent = {
    eventId: `credit-note:${n.companyId}:${n.creditNoteId}:completed`,
    companyId: n.companyId,
    occurredAt: at(n),
    date: n.date,
    creditNoteId: n.creditNoteId,
    credit_note_no: n.credit_note_no,
    saleId: n.saleId,
    clientId: n.customer?.walkIn ? 0 : n.clientId,
    customerName: n.customer?.name ?? '',
    lines: n.lines.map((l) => ({
      sl_no: l.sl_no,
      product_id: l.product_id,
      product_name: l.product_name,
      quantity: dec(l.quantity),
      units: mul(l.quantity, l.per_peice_quantity).toFixed(),
      amount: dec(l.amount),
      value: dec(l.value),
      cp: decOrNull(cps.get(l.sl_no)),
    })),
    subtotal: dec(n.subtotal),
    discount: dec(n.discount),
    tax: dec(n.tax),
    shipping: dec(n.shipping),
    amount: dec(n.amount),
    refund: dec(n.refund),
    gst: n.gst
      ? {
          tax_mode: n.gst.tax_mode,
          invoice_no: n.gst.invoice_no || null,
          inter_state: n.gst.inter_state,
          taxable_total: dec(n.gst.taxable_total),
          cgst_total: dec(n.gst.cgst_total),
          sgst_total: dec(n.gst.sgst_total),
          igst_total: dec(n.gst.igst_total),
          round_off: dec(n.gst.round_off),
        }
      : null,
  };
  return { subject: EventSubjects.sales.saleReturned, event };
}

export function saleCancelledEvent(c: SaleCancelDoc & Stamped, sale: SaleDoc | null): HistoryEvent<'events.sales.sale.cancelled'> {
  const event: SaleCancelledEvent = {
    eventId: `sale:${c.companyId}:${c.saleId}:cancelled`,
    companyId: c.companyId,
    occurredAt: at(c),
    date: c.date,
    saleId: c.saleId,
    clientId: sale?.customer?.walkIn ? 0 : (sale?.clientId ?? 0),
    reason: c.reason,
    amount: dec(sale?.amount),
    paid: dec(sale?.paid),
    cancelId: c.cancelId,
  };
  return { subject: EventSubjects.sales.saleCancelled, event };
}

/**
 * Sales' domain events (BAHI_SALES): sale completed, credit note completed (sale returned), bill
 * cancelled. Each comes from its saga record, marked pending in the update that completes it.
 */
@Injectable()
export class SalesEvents extends RelayService {
  readonly relay: EventRelay;

  constructor(
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    @InjectModel(ReturnModels.CreditNote) notes: Model<CreditNoteDoc>,
    @InjectModel(ReturnModels.SaleCancel) cancels: Model<SaleCancelDoc>,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    @Inject(LOGGER) log: Logger,
  ) {
    super();
    const saleOf = (companyId: number, saleId: number) => this.sales.collection.findOne({ companyId, saleId }) as Promise<SaleDoc | null>;
    this.relay = new EventRelay({
      nc,
      log,
      stream: EventStreams.sales,
      sources: [
        { name: 'sale', collection: sales.collection, complete: { status: 'complete' }, toEvents: (s: SaleDoc) => [saleCompletedEvent(s)] },
        { name: 'credit-note', collection: notes.collection, complete: { status: 'complete' }, toEvents: async (n: CreditNoteDoc) => [creditNoteEvent(n, await saleOf(n.companyId, n.saleId))] },
        { name: 'sale-cancel', collection: cancels.collection, complete: { status: 'complete' }, toEvents: async (c: SaleCancelDoc) => [saleCancelledEvent(c, await saleOf(c.companyId, c.saleId))] },
      ] as never,
    });
  }
}

/** `sales.history.page`: the events of sales's records, for a rebuild. */
export const SalesHistoryHandlers = historyHandlers(Subjects.sales.historyPage, SalesEvents);
