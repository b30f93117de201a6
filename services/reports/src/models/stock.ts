import type { Fact, ProductFact } from '../facts';
import type { Fold } from '../fold';
import { C } from '../store';
import type { ReadModel, Row } from './model';

/**
 * A product's values at cost and MRP (stock x price, to the paisa) are kept on its row, and
 * their changes added to the company's stock totals row: the unfiltered stock summary's totals
 * are then one read, and still the sum of its rows.
 */
export function stockValues(after: Row | null, w: Fold): void {
  if (!after) return;
  const costValue = Math.round(Number(after.stock ?? 0) * Number(after.cp ?? 0));
  const mrpValue = Math.round(Number(after.stock ?? 0) * Number(after.mrp ?? 0));
  // Only a product with a minimum (above 0) can be low, as the reorder list reads it.
  const low = after.minStock !== undefined && Number(after.minStock) > 0 && after.active !== false && Number(after.stock ?? 0) <= Number(after.minStock);
  const inc = { costValue: costValue - Number(after.costValue ?? 0), mrpValue: mrpValue - Number(after.mrpValue ?? 0), stock: Number(after.stock ?? 0) - Number(after.counted ?? 0) };
  const products = after.counted === undefined ? 1 : 0;
  w.write(C.products, after._id, { set: { costValue, mrpValue, low, counted: Number(after.stock ?? 0) } });
  w.write(C.stockTotals, String(after.companyId), { inc: { ...inc, products }, onInsert: { companyId: after.companyId } });
}

/** A product change older than what the row holds (it arrived late): changes nothing. */
export const staleProduct = (cur: Row | null, f: ProductFact): boolean => !!cur && typeof cur.v === 'number' && cur.v > f.version;

async function productChanged(f: ProductFact, w: Fold) {
  const id = `${f.companyId}:${f.productId}`;
  const cur = await w.get(C.products, id);
  if (staleProduct(cur, f)) return;
  const after = await w.update(C.products, id, {
    set: { v: f.version, name: f.name, category: f.category, brand: f.brand, cp: f.cp, mrp: f.mrp, minStock: f.minStock, active: f.active },
    onInsert: { companyId: f.companyId, productId: f.productId, stock: 0 },
  });
  stockValues(after, w);
}

/** Products (latest change; stock as the sum of movements; values; low stock) and the stock totals. */
export const stock: ReadModel = {
  name: 'stock',
  kinds: ['stock-moved', 'product-changed'],
  collections: [C.products, C.stockTotals],
  prefetch(f, want) {
    if (f.kind === 'stock-moved') for (const m of f.movements) want(C.products, `${f.companyId}:${m.productId}`);
    else if (f.kind === 'product-changed') want(C.products, `${f.companyId}:${f.productId}`);
  },
  async fold(f: Fact, w: Fold) {
    if (f.kind === 'stock-moved') {
      for (const m of f.movements) {
        const after = await w.update(C.products, `${f.companyId}:${m.productId}`, { inc: { stock: m.qty }, onInsert: { companyId: f.companyId, productId: m.productId, name: '', category: '', brand: '' } });
        stockValues(after, w);
      }
    } else if (f.kind === 'product-changed') await productChanged(f, w);
  },
};
