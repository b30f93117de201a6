import { BadRequestException, HttpException } from '@nestjs/common';
import type { ClientSession } from 'mongoose';
import type { ImportFieldDef } from '@bahi/contracts';
import { castForInsert, pendingEventFields, stripBidi } from '@bahi/service-kit';
import type { ImportHandler, RowOutcome } from '@bahi/tabular';
import { parseMoney, parseQty, stockLevel, taxMultiplier, taxPercent } from '../common';
import { checkGstFields, type CompanyGstSettings, type TaxMode } from '../products/gst-rules';
import { need, optional, parseEdit, yesNo } from '../products/product-input';
import { labelSpecs, wordsOf, type ProductsService } from '../products/products.service';
import type { Category, Product } from '../schemas';
import { movementSeq, type StockService } from '../stock/stock.service';
import type { Contribution } from '../products/product-totals';

export const PRODUCT_FIELDS: ImportFieldDef[] = [
  { key: 'category', label: 'Category', required: true, aliases: ['Category Name', 'Catagory', 'Group', 'Item Group', 'Item Category'] },
  { key: 'brand_name', label: 'Brand', required: true, aliases: ['Brand Name', 'Make', 'Manufacturer', 'Company'] },
  { key: 'name', label: 'Product name', required: true, aliases: ['Item Name', 'Product Name', 'Product', 'Item', 'Item Description', 'Description', 'Name'] },
  { key: 'mrp', label: 'MRP', required: true, aliases: ['M.R.P.', 'Rate', 'Selling Price', 'Sale Price', 'Sales Price', 'Price'] },
  { key: 'cp', label: 'Cost price', required: true, aliases: ['Cost', 'Purchase Price', 'Purchase Rate', 'CP', 'Buying Price', 'Cost Price'] },
  { key: 'unit', label: 'Unit', required: true, aliases: ['UOM', 'Units', 'Unit of Measure', 'Primary Unit'] },
  { key: 'per_peice_quantity', label: 'Quantity per piece', aliases: ['Per Piece Quantity', 'Per Peice Quantity', 'Pack Size', 'Qty per piece'] },
  { key: 'barcode', label: 'Barcode', aliases: ['Bar Code', 'EAN', 'Item Code', 'SKU', 'Product Code'] },
  { key: 'hsn_code', label: 'HSN code', aliases: ['HSN', 'HSN/SAC', 'HSN Code', 'SAC', 'HSN No'] },
  { key: 'tax', label: 'GST %', aliases: ['GST', 'GST Rate', 'Tax', 'Tax %', 'Tax Rate', 'GST Percent'] },
  { key: 'price_includes_tax', label: 'Price includes tax', aliases: ['Inclusive', 'Tax Inclusive', 'MRP includes tax', 'Inclusive of tax'] },
  { key: 'stock', label: 'Opening stock', aliases: ['Opening Stock', 'Opening Qty', 'Stock', 'Current Stock', 'Qty', 'Quantity'] },
  { key: 'min_stock', label: 'Minimum stock', aliases: ['Min Stock', 'Min Qty', 'Reorder Level', 'Minimum Stock'] },
  { key: 'default_stock', label: 'Default stock', aliases: ['Default Stock', 'Max Stock', 'Maximum Stock'] },
  { key: 'spec_1', label: 'Label spec 1', aliases: ['Spec 1', 'Spec1'] },
  { key: 'spec_2', label: 'Label spec 2', aliases: ['Spec 2', 'Spec2'] },
  { key: 'spec_3', label: 'Label spec 3', aliases: ['Spec 3', 'Spec3'] },
];

const label = (key: string) => PRODUCT_FIELDS.find((f) => f.key === key)?.label ?? key;

interface ProductRow {
  categoryName: string;
  brand_name: string;
  product_name: string;
  mrp_p: number;
  cp_p: number;
  unit: string;
  ppq_m: number;
  barcode: string;
  hsn_code: string | undefined;
  tax: string | undefined;
  price_includes_tax: boolean | undefined;
  stock_m: number | undefined;
  min_m: number | undefined;
  def_m: number | undefined;
  labelSpecs: (string | undefined)[];
  /** The product a barcode matched (an update). */
  existing?: number;
}

interface Ctx {
  companyId: number;
  mode: TaxMode;
  company: CompanyGstSettings;
  /** Lower-case name -> category, as they were when the pass began. */
  categories: Map<string, Category>;
  newCategories: Map<string, string>;
  /** Barcode -> the first row of the file that has it. */
  barcodes: Map<string, number>;
}

/** A spreadsheet's way of writing a cell, made the way the product form sends it. */
function cellToForm(key: string, v: string): string {
  if (key === 'tax') return v.replace(/\s*%$/, '');
  if (key === 'price_includes_tax') {
    const s = v.toLowerCase();
    if (['yes', 'y', 'inclusive', 'incl'].includes(s)) return 'true';
    if (['no', 'n', 'exclusive', 'excl'].includes(s)) return 'false';
    return s;
  }
  if (['mrp', 'cp', 'stock', 'min_stock', 'default_stock', 'per_peice_quantity'].includes(key)) return v.replace(/^₹\s*/, '').replace(/,/g, '');
  return v;
}

const messageOf = (err: unknown): string => {
  if (err instanceof HttpException) {
    const r = err.getResponse();
    return typeof r === 'string' ? r : ((r as { message?: string | string[] }).message?.toString() ?? err.message);
  }
  throw err;
};

/**
 * Products from a sheet, checked by the product form's own rules (product-input.ts) and the
 * company's GST rules. An existing product with the row's barcode is updated; a row without a
 * barcode is always a new product. A category is matched by name (any case); a missing one is
 * created at the top level with no specs. Opening stock sets the product's stock through an
 * adjustment movement, as a stock typed on the edit form does.
 */
export function productImportHandler(products: ProductsService, stock: StockService, companyGst: (companyId: number) => Promise<CompanyGstSettings>): ImportHandler<Ctx, ProductRow> {
  return {
    kind: 'products',
    fields: PRODUCT_FIELDS,
    matchBy: 'barcode: a row whose barcode a product already has updates that product; rows without a barcode are added as new products.',

    async begin(companyId) {
      // The mode and the turnover (6-digit HSN codes above Rs 5 crore).
      const company = await companyGst(companyId);
      const mode = company.tax_mode ?? 'simple';
      const cats = await products.categoryList(companyId);
      return {
        companyId,
        mode,
        company,
        categories: new Map(cats.map((c) => [c.name.toLowerCase(), c])),
        newCategories: new Map(),
        barcodes: new Map(),
      };
    },

    creates(ctx) {
      return [...ctx.newCategories.values()];
    },

    async check(ctx, rows) {
      const out: RowOutcome<ProductRow>[] = [];
      for (const { row, data } of rows) {
        const body: Record<string, string> = {};
        // Cleaned as the product form's body is (service-kit strips bidi controls from HTTP bodies).
        for (const [k, v] of Object.entries(data)) body[k] = stripBidi(cellToForm(k, v));
        const errors: { field: string; reason: string }[] = [];
        const field = <T>(key: string, fn: () => T): T | undefined => {
          try {
            return fn();
          } catch (err) {
            errors.push({ field: label(key), reason: messageOf(err) });
            return undefined;
          }
        };
        const has = (k: string) => body[k] !== undefined && body[k] !== '';
        // The product form's rules, field by field, so a row reports every bad cell at once.
        const categoryName = field('category', () => need(body, 'category', 'Category'));
        const brand_name = field('brand_name', () => need(body, 'brand_name', 'Brand'));
        const product_name = field('name', () => need(body, 'name', 'Product name'));
        const mrp_p = field('mrp', () => {
          if (!has('mrp')) throw new BadRequestException('MRP is required.');
          return parseMoney('MRP', body.mrp);
        });
        const cp_p = field('cp', () => {
          if (!has('cp')) throw new BadRequestException('Cost price is required.');
          return parseMoney('Cost price', body.cp);
        });
        const unit = field('unit', () => need(body, 'unit', 'Unit', 20));
        const ppq_m = field('per_peice_quantity', () => parseQty('Quantity per piece', has('per_peice_quantity') ? body.per_peice_quantity : '1', { positive: true }));
        const barcode = field('barcode', () => optional(body, 'barcode', 'Barcode', 40) ?? '');
        const hsn_code = field('hsn_code', () => optional(body, 'hsn_code', 'HSN code', 12));
        const tax = field('tax', () => (has('tax') ? taxMultiplier(body.tax) : undefined));
        const pit = field('price_includes_tax', () => yesNo(body, 'price_includes_tax'));
        const stock_m = field('stock', () => (has('stock') ? parseQty('Stock', body.stock, { allowNegative: true }) : undefined));
        const min_m = field('min_stock', () => (has('min_stock') ? parseQty('Minimum stock', body.min_stock) : undefined));
        const def_m = field('default_stock', () => (has('default_stock') ? parseQty('Default stock', body.default_stock) : undefined));
        const specs = ['spec_1', 'spec_2', 'spec_3'].map((k) => field(k, () => optional(body, k, label(k), 60)));
        // The company's GST rules, the rate and the HSN each reported on its own column.
        if (tax !== undefined) field('tax', () => checkGstFields(ctx.mode, { taxPercent: taxPercent(tax) }));
        if (hsn_code) field('hsn_code', () => checkGstFields(ctx.mode, { taxPercent: '0', hsn: hsn_code }, ctx.company));
        const cat = categoryName ? ctx.categories.get(categoryName.toLowerCase()) : undefined;
        if (cat) {
          labelSpecs(cat).forEach((s, i) => {
            const v = specs[i];
            if (s.is_number && v && !/^-?\d+(\.\d+)?$/.test(v)) errors.push({ field: label(`spec_${i + 1}`), reason: `${s.field_name} must be a number.` });
          });
        }
        if (!errors.length) {
          // And the whole row through the edit form's parser, so no rule of it is missed.
          field('name', () =>
            parseEdit({
              product_id: '1',
              catagory: cat?.id ?? 1,
              brand_name,
              name: product_name,
              mrp: body.mrp,
              cp: body.cp,
              unit,
              per_peice_quantity: body.per_peice_quantity || undefined,
              barcode,
              ...(hsn_code !== undefined ? { hsn_code } : {}),
              tax: body.tax,
              stock: body.stock,
              min_stock: body.min_stock,
              default_stock: body.default_stock,
            }),
          );
        }
        if (barcode) {
          const first = ctx.barcodes.get(barcode);
          if (first !== undefined) errors.push({ field: 'Barcode', reason: `Barcode ${barcode} is already on row ${first} of this file.` });
          else ctx.barcodes.set(barcode, row);
        }
        if (errors.length) {
          out.push({ row, errors });
          continue;
        }
        if (!cat) ctx.newCategories.set(categoryName!.toLowerCase(), categoryName!);
        out.push({
          row,
          value: {
            categoryName: categoryName!,
            brand_name: brand_name!,
            product_name: product_name!,
            mrp_p: mrp_p!,
            cp_p: cp_p!,
            unit: unit!,
            ppq_m: ppq_m!,
            barcode: barcode!,
            hsn_code,
            tax,
            price_includes_tax: pit,
            stock_m,
            min_m,
            def_m,
            labelSpecs: specs,
          },
        });
      }
      // Barcodes the catalogue already has: those rows update.
      const codes = out.filter((o) => o.value?.barcode).map((o) => o.value!.barcode);
      if (codes.length) {
        const found = await products.model.find({ companyId: ctx.companyId, barcode: { $in: codes } }, { barcode: 1, product_id: 1 }).lean();
        const byCode = new Map(found.map((p) => [p.barcode, p.product_id]));
        for (const o of out) {
          const id = o.value?.barcode ? byCode.get(o.value.barcode) : undefined;
          if (id !== undefined) {
            o.value!.existing = id;
            o.update = true;
          }
        }
      }
      return out;
    },

    async apply(ctx, rows, session) {
      const companyId = ctx.companyId;
      // Categories by name, read in this transaction; the missing ones are created (top level, no specs).
      const cats = new Map<string, Category>((await products.categories.find({ companyId }).session(session as ClientSession).lean()).map((c) => [c.name.toLowerCase(), c as Category]));
      for (const r of rows) {
        const key = r.value.categoryName.toLowerCase();
        if (cats.has(key)) continue;
        const id = await products.seq.next(companyId, 'category');
        const doc = { companyId, id, name: r.value.categoryName, belongs_to: null, specs: [] };
        await products.categories.collection.insertOne(castForInsert(products.categories as never, { ...doc, createdAt: new Date(), updatedAt: new Date() }), { session: session as ClientSession });
        cats.set(key, doc as Category);
      }
      const existingIds = rows.filter((r) => r.value.existing !== undefined).map((r) => r.value.existing!);
      const before = new Map(
        (existingIds.length ? await products.model.find({ companyId, product_id: { $in: existingIds } }).session(session as ClientSession).lean() : []).map((p) => [p.product_id, p]),
      );
      const fresh = rows.filter((r) => r.value.existing === undefined || !before.has(r.value.existing));
      let nextId = fresh.length ? await products.seq.reserve(companyId, 'product', fresh.length) : 0;
      const now = new Date();
      const inserts: Record<string, unknown>[] = [];
      const updates: { updateOne: { filter: object; update: object } }[] = [];
      const shifts: { before: Contribution | null; after: Contribution | null }[] = [];
      const moves: { product_id: number; delta: number; rate_p: number; stock_m: number; seq: number }[] = [];
      for (const { value: v } of rows) {
        const cat = cats.get(v.categoryName.toLowerCase())!;
        const specs: Record<string, string> = {};
        labelSpecs(cat).forEach((s, i) => {
          const val = v.labelSpecs[i];
          if (val !== undefined && val !== '') specs[s.field_name] = val;
        });
        const old = v.existing !== undefined ? before.get(v.existing) : undefined;
        if (!old) {
          const p: Product = {
            companyId,
            product_id: nextId++,
            product_name: v.product_name,
            words: wordsOf(v.product_name, v.brand_name, v.barcode),
            brand_name: v.brand_name,
            category: cat.id,
            mrp_p: v.mrp_p,
            cp_p: v.cp_p,
            unit: v.unit,
            ppq_m: v.ppq_m,
            stock_m: v.stock_m ?? 0,
            min_m: v.min_m ?? 0,
            def_m: v.def_m ?? 0,
            level: stockLevel(v.stock_m ?? 0, v.min_m ?? 0, v.def_m ?? 0),
            tax: v.tax ?? '1',
            active: 1,
            image: null,
            specs,
            barcode: v.barcode,
            hsn_code: v.hsn_code ?? '',
            price_includes_tax: v.price_includes_tax ?? true,
          };
          // Its opening stock's movement orders the product's history as a stock change's does (movementSeq).
          if (p.stock_m !== 0) p.mv_seq = movementSeq(undefined, now.getTime());
          // Every field is set here with its stored type: no schema cast needed (it cost a tenth of the batch).
          inserts.push({ ...p, createdAt: now, updatedAt: now, ...pendingEventFields() });
          shifts.push({ before: null, after: p });
          if (p.stock_m !== 0) moves.push({ product_id: p.product_id, delta: p.stock_m, rate_p: p.cp_p, stock_m: p.stock_m, seq: p.mv_seq! });
          continue;
        }
        const stockM = v.stock_m ?? old.stock_m;
        const minM = v.min_m ?? old.min_m;
        const defM = v.def_m ?? old.def_m;
        // A stock change is an adjustment movement, ordered in the product's history by movementSeq.
        const seq = stockM !== old.stock_m ? movementSeq(old.mv_seq, now.getTime()) : undefined;
        const set = {
          product_name: v.product_name,
          words: wordsOf(v.product_name, v.brand_name, v.barcode),
          brand_name: v.brand_name,
          category: cat.id,
          mrp_p: v.mrp_p,
          cp_p: v.cp_p,
          unit: v.unit,
          ppq_m: v.ppq_m,
          stock_m: stockM,
          min_m: minM,
          def_m: defM,
          level: stockLevel(stockM, minM, defM),
          tax: v.tax ?? old.tax,
          hsn_code: v.hsn_code ?? old.hsn_code,
          price_includes_tax: v.price_includes_tax ?? old.price_includes_tax !== false,
          specs: { ...(old.specs ?? {}), ...specs },
          updatedAt: now,
          ...(seq !== undefined ? { mv_seq: seq } : {}),
          // Its product.changed event, published after the commit (EventRelay).
          ...pendingEventFields(),
        };
        updates.push({ updateOne: { filter: { companyId, product_id: old.product_id }, update: { $set: set } } });
        shifts.push({ before: old, after: { ...old, ...set } });
        if (seq !== undefined) moves.push({ product_id: old.product_id, delta: stockM - old.stock_m, rate_p: v.cp_p, stock_m: stockM, seq });
      }
      if (inserts.length) await products.model.collection.insertMany(inserts, { session: session as ClientSession, ordered: true });
      if (updates.length) await products.model.collection.bulkWrite(updates as never, { session: session as ClientSession, ordered: true });
      if (moves.length) {
        // Each opening stock is its own adjustment, as a stock typed on the edit form is.
        const adj = await products.seq.reserve(companyId, 'adjustment', moves.length);
        await stock.movements.collection.insertMany(
          moves.map((m, i) =>
            castForInsert(stock.movements as never, {
              companyId,
              product_id: m.product_id,
              kind: 'adjustment',
              source_id: adj + i,
              line: 1,
              qty_m: m.delta,
              rate_p: m.rate_p,
              stock_m: m.stock_m,
              date: now,
              seq: m.seq,
            }),
          ),
          { session: session as ClientSession },
        );
        // Their stock sources, marked for the stock.moved events as the edit form's adjustment is.
        await stock.sources.collection.insertMany(
          moves.map((_, i) => castForInsert(stock.sources as never, { companyId, kind: 'adjustment', id: adj + i, at: now, ...pendingEventFields() })),
          { session: session as ClientSession },
        );
      }
      await stock.totals.shiftMany(companyId, shifts, session as ClientSession);
      const names = (k: 'brand_name' | 'unit') => [...new Set(rows.map((r) => r.value[k]).filter(Boolean))];
      const remember = (names: string[]) => names.map((name) => ({ updateOne: { filter: { companyId, name }, update: { $setOnInsert: { companyId, name } }, upsert: true } }));
      const b = names('brand_name');
      const u = names('unit');
      if (b.length) await products.brands.collection.bulkWrite(remember(b), { session: session as ClientSession });
      if (u.length) await products.units.collection.bulkWrite(remember(u), { session: session as ClientSession });
      return { created: inserts.length, updated: updates.length };
    },
  };
}
