import { Controller } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { Subjects, type LabelDetailsReply, type LabelDetailsRequest, type StockBookReply, type StockBookRequest } from '@bahi/contracts';
import { milliStr, paiseStr } from '../common';
import { STOCK_BOOK_MAX } from '../products/products.controller';
import { labelSpecs } from '../products/products.service';
import { type ListFilters, ProductsService } from '../products/products.service';

function positive(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new RpcException({ status: 400, message: `${field} is required.` });
  return v;
}

/** What the documents service prints from inventory: the stock book and product labels. */
@Controller()
export class DocumentsHandlers {
  constructor(private readonly products: ProductsService) {}

  /** The stock book rows of a category with the filters of the stock book screen; 404 for an unknown category. */
  @MessagePattern(Subjects.documents.stockBook)
  async stockBook(@Payload() msg: StockBookRequest): Promise<StockBookReply> {
    const companyId = positive('companyId', msg?.companyId);
    if (msg.category === undefined || msg.category === null) throw new RpcException({ status: 400, message: 'Please Select A Category.' });
    const category = positive('category', msg.category);
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
  async labelDetails(@Payload() msg: LabelDetailsRequest): Promise<LabelDetailsReply | null> {
    const companyId = positive('companyId', msg?.companyId);
    const productId = positive('productId', msg.productId);
    const p = await this.products.model.findOne({ companyId, product_id: productId }).lean();
    return p ? this.products.labelDetails(companyId, p) : null;
  }
}
