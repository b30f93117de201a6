import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type GstInwardReply, type GstInwardRequest, type PurchaseDocument, type PurchaseDocumentRequest, type PurchaseLabels, type PurchaseLabelsRequest } from '@bahi/contracts';
import { CompanyMsg, RpcId, RpcText } from '@bahi/service-kit';
import { PurchaseInwardService } from './purchase.inward';
import { PurchaseLabelsService } from './purchase.labels';

class PurchaseLabelsMsg extends CompanyMsg implements PurchaseLabelsRequest {
  @RpcId() purchaseId!: number;
}
import { PurchasesService } from './purchases.service';

class PurchaseDocumentMsg extends CompanyMsg implements PurchaseDocumentRequest {
  @RpcId() purchaseId!: number;
}

class GstInwardMsg extends CompanyMsg implements GstInwardRequest {
  @RpcText(10) from!: string;
  @RpcText(10) to!: string;
}

/** What documents asks about purchases over NATS. */
@Controller()
export class PurchaseHandlers {
  constructor(
    private readonly purchases: PurchasesService,
    private readonly labels: PurchaseLabelsService,
    private readonly inward: PurchaseInwardService,
  ) {}

  /** GSTR-3B's input tax (sales asks it for GET /gst/gstr3b). */
  @MessagePattern(Subjects.inventory.gstInward)
  gstInward(@Payload() msg: GstInwardMsg): Promise<GstInwardReply> {
    return this.inward.totals(msg.companyId, msg.from, msg.to);
  }

  /** The Tally export (reports): a complete purchase's frozen figures and tenders. */
  @MessagePattern(Subjects.tally.purchaseDocument)
  async purchaseDocument(@Payload() msg: PurchaseDocumentMsg): Promise<PurchaseDocument | null> {
    const p = await this.purchases.model.findOne({ companyId: msg.companyId, purchaseId: msg.purchaseId, status: 'complete' }).lean();
    if (!p) return null;
    return {
      purchaseId: p.purchaseId,
      date: p.date,
      bill_no: p.bill_no,
      distributorId: p.distributorId,
      distributorName: p.distributorName,
      subtotal: p.subtotal,
      tax: p.taxAmount,
      shipping: p.shipping,
      discount: p.discount,
      amount: p.total,
      paid: p.paid,
      payments: p.payments ?? null,
      gst: p.gst ?? null,
    };
  }

  @MessagePattern(Subjects.documents.purchaseLabels)
  async purchaseLabels(@Payload() msg: PurchaseLabelsMsg): Promise<PurchaseLabels | null> {
    const { companyId } = msg;
    const p = await this.purchases.model.findOne({ companyId, purchaseId: msg.purchaseId, status: 'complete' }).lean();
    if (!p) return null;
    return { purchase_id: p.purchaseId, date: p.date, distributor_name: p.distributorName, lines: await this.labels.lines(companyId, p) };
  }
}
