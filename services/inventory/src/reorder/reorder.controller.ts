import { Controller, Get } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DocumentSubjects, REORDER_MAX_LINES, type GetReorderListReply, type ReorderDocument, type ReorderDocumentRequest } from '@bahi/contracts';
import { CompanyMsg, Positions, RpcId, RpcIdList, Tenant, today } from '@bahi/service-kit';
import { ReorderService } from './reorder.service';

class ReorderDocumentMsg extends CompanyMsg implements ReorderDocumentRequest {
  @RpcId({ min: 0 }) distributorId!: number;
  @RpcIdList(REORDER_MAX_LINES, { optional: true }) productIds?: number[];
}

/** GET /reorderList (managers, like purchases) and the printed list's data for documents. */
@Controller()
export class ReorderController {
  constructor(private readonly reorder: ReorderService) {}

  @Get('reorderList')
  @Positions('manager')
  list(@Tenant() companyId: number): Promise<GetReorderListReply> {
    return this.reorder.list(companyId);
  }

  /** One distributor's group (0: never bought), only the chosen products when given; null when nothing is left. */
  @MessagePattern(DocumentSubjects.reorderDocument)
  async document(@Payload() msg: ReorderDocumentMsg): Promise<ReorderDocument | null> {
    const { groups } = await this.reorder.list(msg.companyId);
    const g = groups.find((x) => x.distributorId === msg.distributorId);
    if (!g) return null;
    const only = msg.productIds ? new Set(msg.productIds) : null;
    const lines = only ? g.lines.filter((l) => only.has(l.product_id)) : g.lines;
    return lines.length ? { ...g, lines, date: today() } : null;
  }
}
