import { Controller } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { Model } from 'mongoose';
import {
  Subjects,
  type CreditNoteDetails,
  type CreditNoteDocumentRequest,
  type EstimateDocument,
  type EstimateDocumentRequest,
  type SaleDocument,
  type SaleDocumentRequest,
  type SoldLine,
} from '@bahi/contracts';
import { CompanyMsg, money, round2, RpcId, sub } from '@bahi/service-kit';
import { type DeliveryDoc, type EstimateDoc, Models, type SaleDoc } from '../common/schemas';
import { lineAmount, totals, type StoredLine } from '../common/totals';
import { Customers, toCustomer } from '../sales/customers';
import { noteDetails } from '../returns/returns.service';
import { type CreditNoteDoc, ReturnModels, type ReturnableSale } from '../returns/schema';

class SaleDocumentMsg extends CompanyMsg implements SaleDocumentRequest {
  @RpcId() saleId!: number;
}
class EstimateDocumentMsg extends CompanyMsg implements EstimateDocumentRequest {
  @RpcId() estimateId!: number;
}
class CreditNoteDocumentMsg extends CompanyMsg implements CreditNoteDocumentRequest {
  @RpcId() creditNoteId!: number;
}

/** Decimal strings without float round trips. */
const dec = (x: string | number) => money(x).toFixed();

export function soldLine(l: StoredLine): SoldLine {
  return {
    sl_no: l.sl_no,
    product_id: l.product_id,
    product_name: l.product_name,
    quantity: dec(l.quantity),
    per_peice_quantity: dec(l.per_peice_quantity || '1'),
    rate: dec(l.mrp),
    disc: dec(l.discount),
    price: sub(l.mrp, l.discount).toFixed(),
    amount: lineAmount(l).toFixed(),
    hsn_code: l.hsn_code ?? '',
    unit: l.unit ?? '',
  };
}

/** What the documents service prints from sales: bills, challans and estimates. */
@Controller()
export class DocumentsHandlers {
  constructor(
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    @InjectModel(Models.Estimate) private readonly estimates: Model<EstimateDoc>,
    @InjectModel(Models.Delivery) private readonly deliveries: Model<DeliveryDoc>,
    @InjectModel(ReturnModels.CreditNote) private readonly creditNotes: Model<CreditNoteDoc>,
    private readonly customers: Customers,
  ) {}

  /** A completed sale from its frozen lines and totals; pending or failed sales are not bills. */
  @MessagePattern(Subjects.documents.saleDocument)
  async sale(@Payload() msg: SaleDocumentMsg): Promise<SaleDocument | null> {
    const { companyId, saleId } = msg;
    const s = (await this.sales.findOne({ companyId, saleId, status: 'complete' }).lean()) as ReturnableSale | null;
    if (!s) return null;
    const d = (await this.deliveries.findOne({ companyId, sale_id: saleId }).lean()) as DeliveryDoc | null;
    const c = s.customer;
    const walkIn = !!c.walkIn;
    return {
      sale_id: s.saleId,
      date: s.date,
      due_date: s.dueDate || null,
      customer: toCustomer(c),
      soldProducts: s.lines.map(soldLine),
      subtotal: round2(s.subtotal).toFixed(),
      tax: dec(s.taxAmount),
      shipping: dec(s.shipping),
      summery_discount: dec(s.discount),
      previousDue: walkIn ? '0' : dec(s.previousDue),
      paid: dec(s.paid),
      // The tenders printed under Paid (issue 28); sales before modes send none (printed as cash).
      payments: s.payments ?? null,
      // Only a bill with an e-way bill recorded carries it (issue 31).
      ...(s.ewaybill ? { ewaybill: s.ewaybill } : {}),
      delivery: d
        ? {
            id: d.id,
            sale_id: d.sale_id,
            transporter_name: d.transporter_name,
            transporter_mobile: d.transporter_mobile,
            mode_of_transport: d.mode_of_transport,
            vehicle_number: d.vehicle_number,
            dispatched_date: d.dispatched_date,
            // Goods go to the customer's address; the walk-in customer has none.
            address: walkIn ? '' : [c.address_line_1, c.address_line_2, c.city_or_district, c.state, c.postal_code].filter(Boolean).join(', '),
          }
        : null,
      // GST mode: the frozen tax invoice (or bill of supply); simple-mode bills print as before.
      gst: s.gst && s.gst.serial > 0 ? s.gst : null,
      // A cancelled bill prints with a CANCELLED watermark, the date and the reason.
      ...(s.cancelled ? { cancelled: { date: s.cancelled.date, reason: s.cancelled.reason } } : {}),
    };
  }

  /** A complete credit note for the credit-note PDF; null when unknown (or another company's). */
  @MessagePattern(Subjects.documents.creditNoteDocument)
  async creditNote(@Payload() msg: CreditNoteDocumentMsg): Promise<CreditNoteDetails | null> {
    const n = (await this.creditNotes.findOne({ companyId: msg.companyId, creditNoteId: msg.creditNoteId, status: 'complete' }).lean()) as CreditNoteDoc | null;
    return n ? noteDetails(n) : null;
  }

  /** An estimate at today's figures; previous_due is the customer's due now. */
  @MessagePattern(Subjects.documents.estimateDocument)
  async estimate(@Payload() msg: EstimateDocumentMsg): Promise<EstimateDocument | null> {
    const { companyId, estimateId } = msg;
    const e = (await this.estimates.findOne({ companyId, estimateId }).lean()) as EstimateDoc | null;
    if (!e) return null;
    // A customer deleted since is printed without the customer block.
    const c = await this.customers.resolve(companyId, e.clientId).catch(() => null);
    const previous_due = c ? await this.customers.due(companyId, c) : '0';
    const t = totals(e.lines, { tax: e.tax === 1 ? 1 : 0, shipping: e.shipping, discount: e.discount });
    return {
      estimate_id: e.estimateId,
      date: e.date,
      customer: c ? toCustomer(c) : null,
      lines: e.lines.map(soldLine),
      subtotal: round2(t.subtotal).toFixed(),
      tax: t.taxAmount.toFixed(),
      shipping: dec(e.shipping),
      summery_discount: dec(e.discount),
      previous_due: dec(previous_due),
    };
  }
}
