import { Controller } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { Subjects, type PurchaseLabels, type PurchaseLabelsRequest } from '@bahi/contracts';
import { PurchaseLabelsService } from './purchase.labels';
import { PurchasesService } from './purchases.service';

/** What documents asks about purchases over NATS. */
@Controller()
export class PurchaseHandlers {
  constructor(
    private readonly purchases: PurchasesService,
    private readonly labels: PurchaseLabelsService,
  ) {}

  @MessagePattern(Subjects.documents.purchaseLabels)
  async purchaseLabels(@Payload() msg: PurchaseLabelsRequest): Promise<PurchaseLabels | null> {
    const companyId = msg?.companyId;
    if (typeof companyId !== 'number' || !Number.isSafeInteger(companyId) || companyId < 1) throw new RpcException({ status: 400, message: 'companyId is required.' });
    if (!Number.isSafeInteger(msg.purchaseId)) return null;
    const p = await this.purchases.model.findOne({ companyId, purchaseId: msg.purchaseId, status: 'complete' }).lean();
    if (!p) return null;
    return { purchase_id: p.purchaseId, date: p.date, distributor_name: p.distributorName, lines: await this.labels.lines(companyId, p) };
  }
}
