import { Controller } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import {
  Subjects,
  type ProductLookupRequest,
  type ProductManyRequest,
  type ProductSnapshot,
  type ProductSuggestion,
  type ProductSuggestRequest,
  type StockApplyReply,
  type StockApplyRequest,
  type StockReverseReply,
  type StockReverseRequest,
} from '@bahi/contracts';
import { ProductsService } from '../products/products.service';
import { StockService } from './stock.service';

function company(msg: { companyId?: unknown } | undefined): number {
  const id = msg?.companyId;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw new RpcException({ status: 400, message: 'companyId is required.' });
  return id;
}

/** What other services ask inventory over NATS (declared in @bahi/contracts). */
@Controller()
export class InventoryHandlers {
  constructor(
    private readonly products: ProductsService,
    private readonly stock: StockService,
  ) {}

  @MessagePattern(Subjects.inventory.productLookup)
  lookup(@Payload() msg: ProductLookupRequest): Promise<ProductSnapshot | null> {
    return this.products.lookup(company(msg), String(msg.code ?? ''));
  }

  @MessagePattern(Subjects.inventory.productMany)
  async many(@Payload() msg: ProductManyRequest): Promise<ProductSnapshot[]> {
    const companyId = company(msg);
    const ids = Array.isArray(msg.productIds) ? msg.productIds.filter((i) => Number.isSafeInteger(i)).slice(0, 1000) : [];
    if (!ids.length) return [];
    const rows = await this.products.model.find({ companyId, product_id: { $in: ids } }).lean();
    const byId = new Map(rows.map((r) => [r.product_id, r]));
    return this.products.snapshots(companyId, ids.map((i) => byId.get(i)).filter((r): r is NonNullable<typeof r> => !!r));
  }

  @MessagePattern(Subjects.inventory.productSuggest)
  suggest(@Payload() msg: ProductSuggestRequest): Promise<ProductSuggestion[]> {
    return this.products.suggest(company(msg), msg.text, msg.limit);
  }

  @MessagePattern(Subjects.inventory.stockApply)
  apply(@Payload() msg: StockApplyRequest): Promise<StockApplyReply> {
    return this.stock.apply(company(msg), msg.source, msg.lines, msg.date);
  }

  @MessagePattern(Subjects.inventory.stockReverse)
  reverse(@Payload() msg: StockReverseRequest): Promise<StockReverseReply> {
    return this.stock.reverse(company(msg), msg.source);
  }
}
