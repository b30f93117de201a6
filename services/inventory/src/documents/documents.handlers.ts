import { Controller } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { ValidateIf } from 'class-validator';
import { CompanyMsg, RpcId, RpcOneOf, RpcText } from '@bahi/service-kit';
import { Subjects, type LabelDetailsReply, type LabelDetailsRequest, type StockBookReply, type StockBookRequest } from '@bahi/contracts';
import { milliStr, paiseStr } from '../common';
import { STOCK_BOOK_MAX } from '../products/products.controller';
import { labelSpecs } from '../products/products.service';
import { type ListFilters, ProductsService } from '../products/products.service';

class StockBookMsg extends CompanyMsg implements StockBookRequest {
  // Checked in the handler: a missing category answers the stock book screen's sentence.
  @ValidateIf((o: StockBookMsg) => o.category !== undefined && o.category !== null) @RpcId() category!: number;
  @RpcText(100, { nullable: true }) @ValidateIf((o: StockBookMsg) => o.brand !== undefined) brand?: string | null;
  @ValidateIf((o: StockBookMsg) => o.stock !== undefined && o.stock !== null) @RpcOneOf([0, 1, 2]) stock?: 0 | 1 | 2 | null;
  @ValidateIf((o: StockBookMsg) => o.active !== undefined && o.active !== null) @RpcOneOf([0, 1]) active?: 0 | 1 | null;
}
class LabelDetailsMsg extends CompanyMsg implements LabelDetailsRequest {
  @RpcId() productId!: number;
}

/** What the documents service prints from inventory: the stock book and product labels. */
@Controller()
export class DocumentsHandlers {
  constructor(private readonly products: ProductsService) {}

  /** The stock book rows of a category with the filters of the stock book screen; 404 for an unknown category. */
  @MessagePattern(Subjects.documents.stockBook)
  async stockBook(@Payload() msg: StockBookMsg): Promise<StockBookReply> {
    const { companyId, category } = msg;
    if (category === undefined || category === null) throw new RpcException({ status: 400, message: 'Please Select A Category.' });
    const cat = await this.products.category(companyId, category);
    if (!cat) throw new RpcException({ status: 404, message: `Category ${category} does not exist.` });
    const f: ListFilters = { category };
    if (msg.brand) f.brand = msg.brand;
    if (msg.stock === 0 || msg.stock === 1 || msg.stock === 2) f.stock = msg.stock;
    if (msg.active === 0 || msg.active === 1) f.active = msg.active;
    const specs = labelSpecs(cat);
    const rows = await this.products.model.find(this.products.filterQuery(companyId, f)).sort({ product_id: 1 }).limit(STOCK_BOOK_MAX).lean();
    return {
      category: { id: cat.id, name: cat.name },
      specField: specs.map((s) => s.alias || s.field_name),
      list: rows.map((p) => ({
        product_id: p.product_id,
        product_name: p.product_name,
        brand_name: p.brand_name,
        mrp: paiseStr(p.mrp_p),
        cp: paiseStr(p.cp_p),
        stock: milliStr(p.stock_m),
        unit: p.unit,
        specs: specs.map((s) => p.specs?.[s.field_name] ?? ''),
      })),
    };
  }

  /** The same data as GET /getLabelDetails/{id}; null for an unknown product or one of another company. */
  @MessagePattern(Subjects.documents.labelDetails)
  async labelDetails(@Payload() msg: LabelDetailsMsg): Promise<LabelDetailsReply | null> {
    const { companyId, productId } = msg;
    const p = await this.products.model.findOne({ companyId, product_id: productId }).lean();
    return p ? this.products.labelDetails(companyId, p) : null;
  }
}
