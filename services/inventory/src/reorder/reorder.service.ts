import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { GetReorderListReply, ReorderGroup, ReorderLine } from '@bahi/contracts';
import { milliStr, paiseStr } from '../common';
import { PURCHASE_MODEL, type PurchaseDoc } from '../purchases/purchase.schema';
import { Product } from '../schemas';

type ProductRow = Pick<Product, 'product_id' | 'product_name' | 'brand_name' | 'unit' | 'ppq_m' | 'stock_m' | 'min_m' | 'def_m' | 'cp_p'>;
interface LastBuy {
  _id: number;
  distributorId: number;
  distributorName: string;
  rate: string;
  date: string;
  purchaseId: number;
}

export const NO_PURCHASE_GROUP = 'No purchase yet';

/**
 * Whole pieces to buy, in thousandths of a unit throughout (exact integers): enough pieces of
 * per_peice_quantity units to bring stock up to default_stock (or min_stock when the default is
 * below it), at least one piece. Stock 3, default 12, 6 per piece: 9 units short -> ceil(9 / 6) = 2 pieces.
 */
export function suggestedPieces(stockM: number, minM: number, defM: number, ppqM: number): number {
  const per = ppqM > 0 ? ppqM : 1000;
  const short = Math.max(defM, minM) - stockM;
  if (short <= 0) return 1;
  const whole = Math.floor(short / per);
  return Math.max(1, whole * per < short ? whole + 1 : whole);
}

/** The reorder list: one indexed product query and one newest-first walk of purchases, whatever the catalogue's size. */
@Injectable()
export class ReorderService implements OnModuleInit {
  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(PURCHASE_MODEL) private readonly purchases: Model<PurchaseDoc>,
  ) {}

  async onModuleInit() {
    // level is kept in step with stock, min and default (0 = at or below min): the list reads only those products.
    await this.products.collection.createIndex({ companyId: 1, level: 1, active: 1 });
  }

  async list(companyId: number): Promise<GetReorderListReply> {
    // min_stock 0 means no minimum was set: such a product is never listed, even with stock below 0.
    const rows = (await this.products.collection
      .find(
        { companyId, level: 0, active: 1, min_m: { $gt: 0 } },
        { projection: { _id: 0, product_id: 1, product_name: 1, brand_name: 1, unit: 1, ppq_m: 1, stock_m: 1, min_m: 1, def_m: 1, cp_p: 1 } },
      )
      .toArray()) as unknown as ProductRow[];
    const low = rows.filter((p) => p.stock_m <= p.min_m);
    const last = await this.lastBuys(companyId, low.map((p) => p.product_id));
    const groups = new Map<number, ReorderGroup & { newest: string }>();
    for (const p of low) {
      const buy = last.get(p.product_id);
      const id = buy?.distributorId ?? 0;
      let g = groups.get(id);
      if (!g) groups.set(id, (g = { distributorId: id, distributorName: buy?.distributorName ?? NO_PURCHASE_GROUP, lines: [], newest: '' }));
      // The group is named as its newest purchase names the distributor.
      if (buy && `${buy.date}:${buy.purchaseId}` > g.newest) Object.assign(g, { newest: `${buy.date}:${buy.purchaseId}`, distributorName: buy.distributorName });
      g.lines.push(line(p, buy));
    }
    const sorted = [...groups.values()]
      .map(({ newest: _n, ...g }) => ({ ...g, lines: g.lines.sort((a, b) => a.product_name.localeCompare(b.product_name) || a.product_id - b.product_id) }))
      .sort((a, b) => (a.distributorId === 0 ? 1 : 0) - (b.distributorId === 0 ? 1 : 0) || a.distributorName.localeCompare(b.distributorName) || a.distributorId - b.distributorId);
    return { groups: sorted, count: low.length };
  }

  /**
   * The latest completed purchase line of each product (by purchase date, then purchase number):
   * complete purchases newest first on the {companyId, status, date} index, stopping as soon as
   * every product is found and no purchase of the same date is left to outrank one.
   */
  private async lastBuys(companyId: number, ids: number[]): Promise<Map<number, LastBuy>> {
    const out = new Map<number, LastBuy>();
    if (!ids.length) return out;
    const wanted = new Set(ids);
    const cursor = this.purchases.collection.find(
      { companyId, status: 'complete' },
      { projection: { _id: 0, distributorId: 1, distributorName: 1, date: 1, purchaseId: 1, 'lines.product_id': 1, 'lines.rate': 1 }, sort: { date: -1 }, batchSize: 2000 },
    );
    let completeAt: string | null = null;
    for await (const raw of cursor) {
      const p = raw as unknown as Pick<PurchaseDoc, 'distributorId' | 'distributorName' | 'date' | 'purchaseId'> & { lines: { product_id: number; rate: string }[] };
      if (completeAt !== null && p.date < completeAt) break;
      for (const l of p.lines ?? []) {
        if (!wanted.has(l.product_id)) continue;
        const seen = out.get(l.product_id);
        // Same date: the later purchase wins (the index orders by date only).
        if (seen && (seen.date > p.date || seen.purchaseId > p.purchaseId)) continue;
        out.set(l.product_id, { _id: l.product_id, distributorId: p.distributorId, distributorName: p.distributorName, rate: l.rate, date: p.date, purchaseId: p.purchaseId });
      }
      if (completeAt === null && out.size === wanted.size) completeAt = p.date;
    }
    await cursor.close();
    return out;
  }
}

function line(p: ProductRow, buy: LastBuy | undefined): ReorderLine {
  const pieces = suggestedPieces(p.stock_m, p.min_m, p.def_m, p.ppq_m);
  return {
    product_id: p.product_id,
    product_name: p.product_name,
    brand_name: p.brand_name,
    unit: p.unit,
    per_peice_quantity: milliStr(p.ppq_m),
    stock: milliStr(p.stock_m),
    min_stock: milliStr(p.min_m),
    default_stock: milliStr(p.def_m),
    cp: paiseStr(p.cp_p),
    last_cp: buy ? buy.rate : null,
    last_purchase_date: buy ? buy.date : null,
    last_purchase_id: buy ? buy.purchaseId : null,
    suggested_quantity: String(pieces),
    suggested_units: milliStr(pieces * (p.ppq_m > 0 ? p.ppq_m : 1000)),
  };
}
