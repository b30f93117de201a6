import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
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
  type StockLineRequest,
  type StockSource,
  type StockSourceKind,
} from '@bahi/contracts';
import { CompanyMsg, RpcDecimal, RpcId, RpcIdList, RpcNested, RpcOneOf, RpcText } from '@bahi/service-kit';
import { ProductsService } from '../products/products.service';
import { StockService } from './stock.service';

/** Lines of one document (a sale, a purchase) and products asked for at once. */
const MAX_LINES = 1000;
// What other services apply and reverse (the *-reversal kinds only a reverse writes, but old callers sent them).
const SOURCE_KINDS: StockSourceKind[] = ['sale', 'purchase', 'sale-reversal', 'purchase-reversal', 'adjustment', 'sale-return', 'purchase-return', 'sale-cancel'];

class ProductLookupMsg extends CompanyMsg implements ProductLookupRequest {
  @RpcText(100) code!: string;
}
class ProductManyMsg extends CompanyMsg implements ProductManyRequest {
  @RpcIdList(MAX_LINES) productIds!: number[];
}
class ProductSuggestMsg extends CompanyMsg implements ProductSuggestRequest {
  @RpcText(100, { optional: true }) text?: string;
  @IsOptional() @IsInt({ message: 'limit must be a whole number from 1 to 50' }) @Min(1, { message: 'limit must be a whole number from 1 to 50' }) @Max(50, { message: 'limit must be a whole number from 1 to 50' })
  limit?: number;
}
class StockSourceMsg implements StockSource {
  @RpcOneOf(SOURCE_KINDS) kind!: StockSourceKind;
  @RpcId() id!: number;
}
class StockLineMsg implements StockLineRequest {
  @RpcId() product_id!: number;
  @RpcDecimal() quantity!: string;
  @RpcDecimal() rate!: string;
}
class StockApplyMsg extends CompanyMsg implements StockApplyRequest {
  @RpcNested(() => StockSourceMsg) source!: StockSourceMsg;
  @RpcText(40, { optional: true }) date?: string;
  @RpcNested(() => StockLineMsg, { each: MAX_LINES }) lines!: StockLineMsg[];
}
class StockReverseMsg extends CompanyMsg implements StockReverseRequest {
  @RpcNested(() => StockSourceMsg) source!: StockSourceMsg;
}

/** What other services ask inventory over NATS (declared in @bahi/contracts). */
@Controller()
export class InventoryHandlers {
  constructor(
    private readonly products: ProductsService,
    private readonly stock: StockService,
  ) {}

  @MessagePattern(Subjects.inventory.productLookup)
  lookup(@Payload() msg: ProductLookupMsg): Promise<ProductSnapshot | null> {
    return this.products.lookup(msg.companyId, msg.code);
  }

  @MessagePattern(Subjects.inventory.productMany)
  async many(@Payload() msg: ProductManyMsg): Promise<ProductSnapshot[]> {
    const { companyId, productIds: ids } = msg;
    if (!ids.length) return [];
    const rows = await this.products.model.find({ companyId, product_id: { $in: ids } }).lean();
    const byId = new Map(rows.map((r) => [r.product_id, r]));
    return this.products.snapshots(companyId, ids.map((i) => byId.get(i)).filter((r): r is NonNullable<typeof r> => !!r));
  }

  @MessagePattern(Subjects.inventory.productSuggest)
  suggest(@Payload() msg: ProductSuggestMsg): Promise<ProductSuggestion[]> {
    return this.products.suggest(msg.companyId, msg.text, msg.limit);
  }

  @MessagePattern(Subjects.inventory.stockApply)
  apply(@Payload() msg: StockApplyMsg): Promise<StockApplyReply> {
    return this.stock.apply(msg.companyId, msg.source, msg.lines, msg.date);
  }

  @MessagePattern(Subjects.inventory.stockReverse)
  reverse(@Payload() msg: StockReverseMsg): Promise<StockReverseReply> {
    return this.stock.reverse(msg.companyId, msg.source);
  }
}
