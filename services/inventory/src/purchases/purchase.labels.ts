import { Injectable } from '@nestjs/common';
import type { PurchaseLabelLine } from '@bahi/contracts';
import { milliStr, paiseStr } from '../common';
import { labelFeatures } from '../products/products.service';
import { ProductsService } from '../products/products.service';
import type { PurchaseDoc } from './purchase.schema';

/** Label data of a purchase's products; packets default to the pieces bought (rounded up). */
@Injectable()
export class PurchaseLabelsService {
  constructor(private readonly products: ProductsService) {}

  async lines(companyId: number, p: PurchaseDoc): Promise<PurchaseLabelLine[]> {
    const rows = await this.products.model.find({ companyId, product_id: { $in: p.lines.map((l) => l.product_id) } }).lean();
    const byId = new Map(rows.map((r) => [r.product_id, r]));
    const out: PurchaseLabelLine[] = [];
    for (const l of p.lines) {
      const prod = byId.get(l.product_id);
      // A product deleted since still prints with what the purchase froze.
      const cat = prod ? await this.products.category(companyId, prod.category) : null;
      out.push({
        product: {
          product_id: l.product_id,
          product_name: prod?.product_name ?? l.product_name,
          brand_name: prod?.brand_name ?? l.brand_name,
          mrp: prod ? paiseStr(prod.mrp_p) : '0.00',
          unit: prod?.unit ?? l.unit,
          per_peice_quantity: prod ? milliStr(prod.ppq_m) : l.per_peice_quantity,
          barcode: prod?.barcode ?? '',
          stock: prod ? milliStr(prod.stock_m) : '0',
        },
        category: cat ? { id: cat.id, name: cat.name } : null,
        features: labelFeatures(cat, prod?.specs),
        code: prod?.barcode || String(l.product_id),
        packets: Math.ceil(Number(l.quantity)),
      });
    }
    return out;
  }
}
