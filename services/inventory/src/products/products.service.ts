import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';

// Loose on purpose: spec filters use dotted paths (specs.Size).
type FilterQuery<_T> = Record<string, any>;
import type { LabelDetailsReply, ProductSnapshot, ProductSuggestion } from '@bahi/contracts';
import { Subjects } from '@bahi/contracts';
import { NatsClient, pendingEventFields, SequenceService } from '@bahi/service-kit';
import { InventoryEvents } from '../events/inventory-events';
import { escapeRegex, milliStr, paiseStr, stockLevel, taxMultiplier } from '../common';
import { percentOn } from './product-rates';
import { Brand, Category, includesTax, Product, Unit } from '../schemas';
import { checkGstFields, fineInEveryMode, onlyTurnoverInQuestion, type CompanyGstSettings, type GstFields } from './gst-rules';
import type { StockService } from '../stock/stock.service';
import type { BucketFilter, Totals } from './product-totals';

/** A category's label specs (priority 1 to 3), in print order. */
export function labelSpecs(c: Category | null) {
  return (c?.specs ?? []).filter((s) => s.priority >= 1 && s.priority <= 3).sort((a, b) => a.priority - b.priority);
}

/** What a label prints for each label spec: the product's value, or the spec's default. */
export function labelFeatures(c: Category | null, values: Product['specs'] | undefined) {
  return labelSpecs(c).map((s) => ({ field_name: s.field_name, alias: s.alias || s.field_name, value: values?.[s.field_name] ?? s.default_value }));
}

/** Units every company starts with; a product may bring its own. */
export const DEFAULT_UNITS = ['pcs', 'kg', 'g', 'litre', 'ml', 'metre', 'ft', 'sqft', 'box', 'bag', 'sheet', 'dozen', 'pack', 'set', 'roll'];

export const IMAGE_ROUTE = '/api/productImage/';
export const DEFAULT_IMAGE = 'default.svg';

export function wordsOf(...parts: (string | undefined)[]): string[] {
  const out = new Set<string>();
  for (const p of parts) for (const w of (p ?? '').toLowerCase().split(/[^a-z0-9.]+/)) if (w) out.add(w);
  return [...out];
}

/** Query filters shared by the product list, the stock book and the product grid. */
export interface ListFilters {
  category?: number | null;
  brand?: string;
  stock?: 0 | 1 | 2;
  active?: 0 | 1;
  text?: string;
  specs?: Record<string, string>;
}

export function parseFilters(q: Record<string, unknown>): ListFilters {
  const f: ListFilters = {};
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const cat = str(q.category);
  if (cat && cat !== 'null' && cat !== 'all') {
    if (!/^\d+$/.test(cat)) throw new BadRequestException('category must be a category id.');
    f.category = Number(cat);
  }
  if (str(q.brand) && str(q.brand) !== 'all') f.brand = str(q.brand);
  const stock = str(q.stock);
  if (stock && stock !== 'all') {
    if (!['0', '1', '2'].includes(stock)) throw new BadRequestException('stock must be 0 (Low), 1 (On) or 2 (High).');
    f.stock = Number(stock) as 0 | 1 | 2;
  }
  const active = str(q.active);
  if (active && active !== 'all') {
    if (!['0', '1'].includes(active)) throw new BadRequestException('active must be 1 or 0.');
    f.active = Number(active) as 0 | 1;
  }
  if (str(q.text)) f.text = str(q.text);
  return f;
}

@Injectable()
export class ProductsService {
  private readonly categoryNameCache = new Map<string, string>();

  constructor(
    @InjectModel(Product.name) readonly model: Model<Product>,
    @InjectModel(Category.name) readonly categories: Model<Category>,
    @InjectModel(Brand.name) readonly brands: Model<Brand>,
    @InjectModel(Unit.name) readonly units: Model<Unit>,
    readonly seq: SequenceService,
    private readonly nats: NatsClient,
    readonly events: InventoryEvents,
  ) {}

  /**
   * Refuses (400) a rate, HSN or supply type the company's tax mode (and turnover) does not allow.
   * Identity is asked only when the fields are ones GST mode would refuse; if it cannot answer, its
   * status (503/504) comes back and nothing is stored, except for a 4-digit HSN of a real heading,
   * which only the turnover could refuse (onlyTurnoverInQuestion).
   */
  async checkGst(companyId: number, f: GstFields): Promise<void> {
    if (fineInEveryMode(f)) return;
    let company: CompanyGstSettings;
    try {
      company = (await this.nats.send(Subjects.identity.companyDetails, { companyId })) as CompanyGstSettings;
    } catch (err) {
      if (onlyTurnoverInQuestion(f)) return;
      throw err;
    }
    checkGstFields(company.tax_mode ?? 'simple', f, company);
  }

  filterQuery(companyId: number, f: ListFilters): FilterQuery<Product> {
    const q: FilterQuery<Product> = { companyId };
    if (f.category !== undefined) q.category = f.category;
    if (f.brand) q.brand_name = f.brand;
    if (f.stock !== undefined) q.level = f.stock;
    if (f.active !== undefined) q.active = f.active;
    if (f.text) {
      const words = wordsOf(f.text);
      const byWords: FilterQuery<Product> | undefined = words.length ? { $and: words.map((w) => ({ words: { $regex: `^${escapeRegex(w)}` } })) } : undefined;
      // A number typed is also the product id (the id printed on labels and bills).
      const id = /^\d{1,9}$/.test(f.text.trim()) ? Number(f.text.trim()) : undefined;
      if (id !== undefined) q.$or = [{ product_id: id }, ...(byWords ? [byWords] : [])];
      else if (byWords) Object.assign(q, byWords);
    }
    for (const [k, v] of Object.entries(f.specs ?? {})) if (v) q[`specs.${k}`] = v;
    return q;
  }

  /** The bucket part of the list filters (all of it unless text or specs are given). */
  bucketFilter(f: ListFilters): BucketFilter {
    const b: BucketFilter = {};
    if (f.category !== undefined) b.category = f.category;
    if (f.brand) b.brand_name = f.brand;
    if (f.stock !== undefined) b.level = f.stock;
    if (f.active !== undefined) b.active = f.active;
    return b;
  }

  /** Totals by summing every match: only for filters the buckets cannot answer (text). */
  async scanTotals(filter: FilterQuery<Product>): Promise<Totals> {
    const t = { n: 0, stock: 0n, value: 0n };
    for await (const p of this.model.find(filter, { stock_m: 1, cp_p: 1 }).lean().cursor()) {
      t.n++;
      t.stock += BigInt(p.stock_m);
      t.value += BigInt(p.stock_m) * BigInt(p.cp_p);
    }
    return t;
  }

  /** A new product, counted in the list totals in the same transaction. */
  async createProduct(stock: StockService, doc: Partial<Product> & Pick<Product, 'companyId' | 'product_id'>, openingM = 0): Promise<void> {
    await stock.inTransaction(async (session) => {
      const [created] = await this.model.create([{ ...doc, ...pendingEventFields() }], { session });
      const p = created!.toObject() as Product;
      await stock.totals.shift(doc.companyId, null, p, session);
      if (openingM === 0) return;
      // Opening stock is an adjustment movement at the cost price: in the history and the totals like any other.
      await stock.adjust(doc.companyId, p.product_id, openingM, p.cp_p, session);
    });
    this.events.relay.kick('product');
    if (openingM !== 0) this.events.relay.kick('stock');
  }

  async get(companyId: number, productId: number): Promise<Product> {
    const p = await this.model.findOne({ companyId, product_id: productId }).lean();
    if (!p) throw new NotFoundException(`Product ${productId} not found.`);
    return p;
  }

  /** A product's label (GET /getLabelDetails and the documents service's label sheets). */
  async labelDetails(companyId: number, p: Product): Promise<LabelDetailsReply> {
    const cat = await this.category(companyId, p.category);
    return {
      product: {
        product_id: p.product_id,
        product_name: p.product_name,
        brand_name: p.brand_name,
        mrp: paiseStr(p.mrp_p),
        unit: p.unit,
        per_peice_quantity: milliStr(p.ppq_m),
        barcode: p.barcode ?? '',
        stock: milliStr(p.stock_m),
      },
      category: cat ? { id: cat.id, name: cat.name } : null,
      features: labelFeatures(cat, p.specs),
      code: p.barcode || String(p.product_id),
    };
  }

  async category(companyId: number, id: number | null): Promise<Category | null> {
    if (id === null || id === undefined) return null;
    return this.categories.findOne({ companyId, id }).lean();
  }

  /**
   * Names of categories by id. A category is never renamed and its id never reused, so a name
   * once read stays right for the life of the process: the counter's every scan would otherwise
   * read the categories collection. (A rename, if ever added, must drop this cache.)
   */
  async categoryNames(companyId: number, ids: (number | null)[]): Promise<Map<number, string>> {
    const uniq = [...new Set(ids.filter((i): i is number => typeof i === 'number'))];
    const out = new Map<number, string>();
    const missing: number[] = [];
    for (const id of uniq) {
      const name = this.categoryNameCache.get(`${companyId}:${id}`);
      if (name === undefined) missing.push(id);
      else out.set(id, name);
    }
    if (!missing.length) return out;
    const rows = await this.categories.find({ companyId, id: { $in: missing } }, { id: 1, name: 1 }).lean();
    if (this.categoryNameCache.size > 10_000) this.categoryNameCache.clear();
    for (const c of rows) {
      this.categoryNameCache.set(`${companyId}:${c.id}`, c.name);
      out.set(c.id, c.name);
    }
    return out;
  }

  async requireCategory(companyId: number, id: number): Promise<Category> {
    const c = await this.category(companyId, id);
    if (!c) throw new BadRequestException(`Category ${id} does not exist.`);
    return c;
  }

  async rememberBrandAndUnit(companyId: number, brand: string, unit: string) {
    const up = async (m: Model<Brand> | Model<Unit>, name: string) => {
      if (!name) return;
      try {
        await (m as Model<Brand>).updateOne({ companyId, name }, { $setOnInsert: { companyId, name } }, { upsert: true });
      } catch (err) {
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    };
    await up(this.brands, brand);
    await up(this.units, unit);
  }

  async brandNames(companyId: number): Promise<string[]> {
    return (await this.brands.find({ companyId }).lean()).map((b) => b.name).sort((a, b) => a.localeCompare(b));
  }

  async unitNames(companyId: number): Promise<string[]> {
    const own = (await this.units.find({ companyId }).lean()).map((u) => u.name);
    return [...new Set([...DEFAULT_UNITS, ...own])];
  }

  async categoryList(companyId: number) {
    return (await this.categories.find({ companyId }).lean()).sort((a, b) => a.name.localeCompare(b.name));
  }

  imageUrl(p: Pick<Product, 'image'>): string {
    return IMAGE_ROUTE + (p.image ?? DEFAULT_IMAGE);
  }

  snapshot(p: Product, categoryName?: string): ProductSnapshot {
    const pct = percentOn(p);
    return {
      product_id: p.product_id,
      product_name: p.product_name,
      brand_name: p.brand_name,
      category: p.category === null || p.category === undefined ? null : { id: p.category, name: categoryName ?? '' },
      mrp: paiseStr(p.mrp_p),
      cp: paiseStr(p.cp_p),
      unit: p.unit,
      per_peice_quantity: milliStr(p.ppq_m),
      stock: milliStr(p.stock_m),
      tax: taxMultiplier(pct),
      tax_percent: pct,
      ...(p.rates?.length ? { rates: p.rates.map((r) => ({ rate: r.rate, from: r.from })) } : {}),
      price_includes_tax: includesTax(p),
      hsn_code: p.hsn_code ?? '',
      supply_type: p.supply_type ?? 'taxable',
      barcode: p.barcode ?? '',
      active: p.active ? 1 : 0,
    };
  }

  async snapshots(companyId: number, rows: Product[]): Promise<ProductSnapshot[]> {
    const names = await this.categoryNames(companyId, rows.map((r) => r.category));
    return rows.map((r) => this.snapshot(r, r.category === null ? undefined : names.get(r.category)));
  }

  /** Product id or barcode, as typed at the counter ("12", "12 : Rice 5kg", "8901234567890"). */
  async lookup(companyId: number, code: string): Promise<ProductSnapshot | null> {
    const text = String(code ?? '').split(':')[0]!.trim();
    if (!text) return null;
    let p: Product | null = null;
    // Through the driver: the counter's every scan (a lean find casts nothing this filter needs).
    const products = this.model.collection;
    if (/^\d{1,9}$/.test(text)) p = (await products.findOne({ companyId, product_id: Number(text), active: 1 })) as Product | null;
    if (!p) p = (await products.findOne({ companyId, barcode: text, active: 1 })) as Product | null;
    if (!p) return null;
    return (await this.snapshots(companyId, [p]))[0]!;
  }

  async suggest(companyId: number, text: string | undefined, limit = 10): Promise<ProductSuggestion[]> {
    const lim = Math.min(Math.max(Number(limit) || 10, 1), 50);
    const t = (text ?? '').trim();
    const or: FilterQuery<Product>[] = [];
    if (t) {
      if (/^\d+$/.test(t)) {
        or.push({ product_id: Number(t) }, { barcode: t });
      }
      const words = wordsOf(t);
      if (words.length) or.push({ $and: words.map((w) => ({ words: { $regex: `^${escapeRegex(w)}` } })) });
    }
    const q: FilterQuery<Product> = { companyId, active: 1, ...(or.length ? { $or: or } : {}) };
    const rows = await this.model.find(q).sort({ product_id: 1 }).limit(lim).lean();
    return rows.map((p) => ({ product_id: p.product_id, product_name: p.product_name, stock: milliStr(p.stock_m), mrp: paiseStr(p.mrp_p) }));
  }

  async hasProducts(companyId: number, categoryId: number): Promise<number> {
    return this.model.countDocuments({ companyId, category: categoryId });
  }

  assertNoConflict(exists: boolean, msg: string) {
    if (exists) throw new ConflictException(msg);
  }

  level(p: Pick<Product, 'stock_m' | 'min_m' | 'def_m'>) {
    return stockLevel(p.stock_m, p.min_m, p.def_m);
  }
}
