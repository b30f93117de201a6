import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type PurchaseLabels, type PurchaseLabelsRequest } from '@bahi/contracts';
import { CompanyMsg, RpcId } from '@bahi/service-kit';
import { PurchaseLabelsService } from './purchase.labels';

class PurchaseLabelsMsg extends CompanyMsg implements PurchaseLabelsRequest {
  @RpcId() purchaseId!: number;
}
import { PurchasesService } from './purchases.service';

/** What documents asks about purchases over NATS. */
@Controller()
export class PurchaseHandlers {
  constructor(
    private readonly purchases: PurchasesService,
    private readonly labels: PurchaseLabelsService,
  ) {}

  @MessagePattern(Subjects.documents.purchaseLabels)
  async purchaseLabels(@Payload() msg: PurchaseLabelsMsg): Promise<PurchaseLabels | null> {
    const { companyId } = msg;
    const p = await this.purchases.model.findOne({ companyId, purchaseId: msg.purchaseId, status: 'complete' }).lean();
    if (!p) return null;
    return { purchase_id: p.purchaseId, date: p.date, distributor_name: p.distributorName, lines: await this.labels.lines(companyId, p) };
  }
}
