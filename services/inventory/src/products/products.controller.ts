import { BadRequestException, Body, ConflictException, Controller, Delete, Get, HttpCode, NotFoundException, Param, Post, Query } from '@nestjs/common';
import type { LabelDetailsReply } from '@bahi/contracts';
import { Positions, Tenant, round2, Decimal, pendingEventFields } from '@bahi/service-kit';
import { intParam, milliStr, pageNo, pages, PAGE_SIZE, paiseStr, stockLevel, taxMultiplier, taxPercent } from '../common';
import { includesTax, type Product } from '../schemas';
import { movementView, StockService } from '../stock/stock.service';
import { parseCreate, parseEdit } from './product-input';
import { historyWithTaxToday, percentOn, ratesFromBody } from './product-rates';
import { labelSpecs, parseFilters, ProductsService, wordsOf } from './products.service';

/** Rows of the product grid (/product/{cat}) per page. */
export const GRID_PAGE_SIZE = 12;
/** Rows the stock book prints at most. */
export const STOCK_BOOK_MAX = 2000;

/** The product history's names of movement kinds (also the all-data stock movements sheet). */
export const HISTORY_TYPE: Record<string, string> = {
  sale: 'Sell',
  purchase: 'Buy',
  'sale-reversal': 'Sell return',
  'purchase-reversal': 'Buy return',
  adjustment: 'Adjustment',
  'sale-return': 'Sale return',
  'sale-cancel': 'Sale cancelled',
  'purchase-return': 'Purchase return',
  'sale-return-reversal': 'Sale return undone',
  'sale-cancel-reversal': 'Sale cancellation undone',
  'purchase-return-reversal': 'Purchase return undone',
};

/** The category's label specs (priority 1-3) in print order. */
@Controller()
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly stock: StockService,
  ) {}

  private row(p: Product, catNames: Map<number, string>) {
    return {
      product_id: p.product_id,
      product_name: p.product_name,
      brand_name: p.brand_name,
      category: p.category === null ? '' : (catNames.get(p.category) ?? ''),
      unit: p.unit,
      mrp: paiseStr(p.mrp_p),
      cp: paiseStr(p.cp_p),
      stock: milliStr(p.stock_m),
      min_stock: milliStr(p.min_m),
      default_stock: milliStr(p.def_m),
      stock_level: p.level,
      active: p.active,
      image_url: this.products.imageUrl(p),
      tax_percent: percentOn(p),
      price_includes_tax: includesTax(p),
      hsn_code: p.hsn_code ?? '',
      supply_type: p.supply_type ?? 'taxable',
    };
  }

  @Get('getCategoryBrand')
  async categoryBrand(@Tenant() companyId: number) {
    const cats = await this.products.categoryList(companyId);
    return { brand: await this.products.brandNames(companyId), cat: cats.map((c) => ({ id: c.id, name: c.name })) };
  }

  @Get('addProductPageDetails')
  async addPageDetails(@Tenant() companyId: number) {
    const cats = await this.products.categoryList(companyId);
    return {
      brands: await this.products.brandNames(companyId),
      category: cats.map((c) => ({ id: c.id, name: c.name, specs: c.specs })),
      units: await this.products.unitNames(companyId),
    };
  }

  @Get('getProductList')
  async list(@Tenant() companyId: number, @Query() q: Record<string, unknown>) {
    const page = pageNo(q.pageNo);
    const f = parseFilters(q);
    const filter = this.products.filterQuery(companyId, f);
    const [rows, t] = await Promise.all([
      this.products.model.find(filter).sort({ product_id: 1 }).skip(page * PAGE_SIZE).limit(PAGE_SIZE).lean(),
      // Count and totals come from the running totals; a text search is not a bucket filter, so it sums its matches.
      f.text ? this.products.scanTotals(filter) : this.stock.totals.read(companyId, this.products.bucketFilter(f)),
    ]);
    const names = await this.products.categoryNames(companyId, rows.map((r) => r.category));
    return {
      list: rows.map((r) => this.row(r, names)),
      noOfPages: pages(t.n),
      count: t.n,
      totalStock: new Decimal(t.stock.toString()).dividedBy(1000).toFixed(),
      // stock (thousandths) x cp (paise) -> rupees, to paise.
      totalAmount: round2(new Decimal(t.value.toString()).dividedBy(100_000)).toFixed(2),
    };
  }

  @Post('createNewProduct')
  @HttpCode(200)
  @Positions('manager')
  async create(@Tenant() companyId: number, @Body() body: Record<string, unknown>) {
    const input = parseCreate(body);
    const history = ratesFromBody(body);
    if (history) input.tax = history.tax;
    await this.products.requireCategory(companyId, input.category);
    await this.products.checkGst(companyId, { taxPercent: taxPercent(input.tax), hsn: input.hsn_code, supplyType: input.supply_type });
    if (input.barcode && (await this.products.model.exists({ companyId, barcode: input.barcode }))) {
      throw new ConflictException(`Barcode ${input.barcode} is already used by another product.`);
    }
    const id = await this.products.seq.next(companyId, 'product');
    await this.products.createProduct(this.stock, {
      companyId,
      product_id: id,
      product_name: input.product_name,
      words: wordsOf(input.product_name, input.brand_name, input.barcode),
      brand_name: input.brand_name,
      category: input.category,
      mrp_p: input.mrp_p,
      cp_p: input.cp_p,
      unit: input.unit,
      ppq_m: input.ppq_m,
      stock_m: 0,
      min_m: input.min_m,
      def_m: input.def_m,
      level: stockLevel(0, input.min_m, input.def_m),
      tax: input.tax,
      active: 1,
      barcode: input.barcode,
      hsn_code: input.hsn_code,
      price_includes_tax: input.price_includes_tax ?? true,
      supply_type: input.supply_type ?? 'taxable',
      ...(history ? { rates: history.rates } : {}),
    }, input.opening_m);
    await this.products.rememberBrandAndUnit(companyId, input.brand_name, input.unit);
    return { done: true, id };
  }

  @Get('getProductListForStockBook')
  // Cost prices: managers only, like the stock book's PDF and the catalogue area.
  @Positions('manager')
  async stockBook(@Tenant() companyId: number, @Query() q: Record<string, unknown>) {
    const f = parseFilters(q);
    if (f.category === undefined) throw new BadRequestException('Please Select A Category.');
    const cat = await this.products.category(companyId, f.category);
    if (!cat) throw new BadRequestException(`Category ${f.category} does not exist.`);
    const specs = labelSpecs(cat);
    const rows = await this.products.model.find(this.products.filterQuery(companyId, f)).sort({ product_id: 1 }).limit(STOCK_BOOK_MAX).lean();
    return {
      list: rows.map((p) => ({
        product_id: p.product_id,
        product_name: p.product_name,
        brand_name: p.brand_name,
        unit: p.unit,
        mrp: paiseStr(p.mrp_p),
        cp: paiseStr(p.cp_p),
        stock: milliStr(p.stock_m),
        spec_1: p.specs?.[specs[0]?.field_name ?? ''] ?? '',
        spec_2: p.specs?.[specs[1]?.field_name ?? ''] ?? '',
        spec_3: p.specs?.[specs[2]?.field_name ?? ''] ?? '',
      })),
      filterDtls: { category: cat.name, category_id: cat.id, brand: f.brand ?? 'All', stock: f.stock ?? 'All', active: f.active ?? 'All' },
      specField: specs.map((s) => s.alias || s.field_name),
    };
  }

  @Get('getProductDetails')
  async details(@Tenant() companyId: number, @Query('id') idRaw: unknown) {
    const p = await this.products.get(companyId, intParam('id', idRaw));
    const cat = await this.products.category(companyId, p.category);
    const cats = await this.products.categoryList(companyId);
    const snap = this.products.snapshot(p, cat?.name);
    return {
      product: {
        ...snap,
        min_stock: milliStr(p.min_m),
        default_stock: milliStr(p.def_m),
        stock_level: p.level,
        s3_object_name: p.image,
        image_url: this.products.imageUrl(p),
        specs: p.specs ?? {},
      },
      category: cats.map((c) => ({ id: c.id, name: c.name })),
      specs: cat?.specs ?? [],
      specField: (cat?.specs ?? []).map((s) => s.field_name),
      specsValues: Object.fromEntries((cat?.specs ?? []).map((s) => [s.field_name, p.specs?.[s.field_name] ?? s.default_value])),
      brands: await this.products.brandNames(companyId),
      units: await this.products.unitNames(companyId),
    };
  }

  @Get('getProductHistory')
  async history(@Tenant() companyId: number, @Query('id') idRaw: unknown, @Query('pageNo') pageRaw: unknown) {
    const id = intParam('id', idRaw);
    const page = pageNo(pageRaw);
    await this.products.get(companyId, id);
    const q = { companyId, product_id: id };
    const [rows, n] = await Promise.all([
      this.stock.movements.find(q).sort({ seq: -1 }).skip(page * PAGE_SIZE).limit(PAGE_SIZE).lean(),
      this.stock.movements.countDocuments(q),
    ]);
    return {
      result: rows.map((m) => {
        const v = movementView(m);
        return { type: HISTORY_TYPE[m.kind] ?? m.kind, Qty: v.quantity, Rate: v.rate, Stock: v.stock, Date: v.date, source: v.source };
      }),
      noOfPages: pages(n),
    };
  }

  @Post('duplicateProduct')
  @HttpCode(200)
  @Positions('manager')
  async duplicate(@Tenant() companyId: number, @Body() body: Record<string, unknown>) {
    const p = await this.products.get(companyId, intParam('originalProductId', body?.originalProductId));
    const id = await this.products.seq.next(companyId, 'product');
    // A copy starts with no stock and no barcode (barcodes identify one product).
    const { _id, createdAt, updatedAt, ...rest } = p as Product & { _id?: unknown; createdAt?: unknown; updatedAt?: unknown };
    void _id;
    void createdAt;
    void updatedAt;
    await this.products.createProduct(this.stock, {
      ...rest,
      product_id: id,
      stock_m: 0,
      level: stockLevel(0, p.min_m, p.def_m),
      barcode: '',
      words: wordsOf(p.product_name, p.brand_name),
    });
    return { duplicatedProductId: id };
  }

  /** A product with stock history is deactivated instead: its movements stay readable. */
  @Delete('product/:id')
  @Positions('manager')
  async remove(@Tenant() companyId: number, @Param('id') idRaw: string) {
    const id = intParam('id', idRaw);
    await this.products.get(companyId, id);
    const deactivated = await this.stock.inTransaction(async (session) => {
      if (await this.stock.movements.exists({ companyId, product_id: id }).session(session)) {
        const before = await this.products.model.findOneAndUpdate({ companyId, product_id: id }, { $set: { active: 0, ...pendingEventFields() } }, { session, returnDocument: 'before' }).lean();
        if (before) await this.stock.totals.shift(companyId, before, { ...before, active: 0 }, session);
        return true;
      }
      const gone = await this.products.model.findOneAndDelete({ companyId, product_id: id }, { session }).lean();
      if (gone) await this.stock.totals.shift(companyId, gone, null, session);
      return false;
    });
    this.products.events.relay.kick('product');
    if (deactivated) return { success: true, deactivated: true, message: `Product ${id} has stock history, so it was made inactive instead of deleted.` };
    return { success: true, deactivated: false, message: `Product ${id} deleted.` };
  }

  @Post('editProduct')
  @HttpCode(200)
  @Positions('manager')
  async edit(@Tenant() companyId: number, @Body() body: Record<string, unknown>) {
    const input = parseEdit(body);
    const p = await this.products.get(companyId, input.product_id);
    // rates sent: the new history; else a product with a history takes a changed tax as a step from today.
    const sent = ratesFromBody(body);
    const taxSent = body.tax !== undefined && body.tax !== null && String(body.tax).trim() !== '';
    const rates = sent?.rates ?? (p.rates?.length ? (taxSent ? historyWithTaxToday(p.rates, input.tax) : p.rates) : undefined);
    if (sent) input.tax = sent.tax;
    else if (rates && !taxSent) input.tax = taxMultiplier(percentOn(p));
    const cat = await this.products.requireCategory(companyId, input.category);
    // A stored HSN is checked only when it is being set: an edit of the name does not stall on it.
    const supply = input.supply_type ?? p.supply_type ?? 'taxable';
    await this.products.checkGst(companyId, { taxPercent: taxPercent(input.tax), hsn: 'hsn_code' in body ? input.hsn_code : undefined, supplyType: supply });
    const barcode = 'barcode' in body ? input.barcode : p.barcode;
    if (barcode && (await this.products.model.exists({ companyId, barcode, product_id: { $ne: p.product_id } }))) {
      throw new ConflictException(`Barcode ${barcode} is already used by another product.`);
    }
    // Spec values: the specs object, or spec_1..3 in the category's label order.
    const specs: Record<string, string> = { ...(p.specs ?? {}) };
    if (input.specs) Object.assign(specs, input.specs);
    labelSpecs(cat).forEach((s, i) => {
      const v = input.labelSpecs[i];
      if (v !== undefined) specs[s.field_name] = v;
    });
    for (const s of cat.specs) {
      if (s.is_number && specs[s.field_name] && !/^-?\d+(\.\d+)?$/.test(specs[s.field_name]!)) {
        throw new BadRequestException(`${s.field_name} must be a number.`);
      }
    }
    const targetStock = input.stock_m ?? p.stock_m;
    await this.stock.inTransaction(async (session) => {
      const fields = {
        brand_name: input.brand_name,
        category: input.category,
        cp_p: input.cp_p,
        min_m: input.min_m,
        def_m: input.def_m,
        active: input.active,
      };
      const before = await this.products.model
        .findOneAndUpdate(
          { companyId, product_id: p.product_id },
          {
            $set: {
              ...fields,
              product_name: input.product_name,
              words: wordsOf(input.product_name, input.brand_name, barcode),
              mrp_p: input.mrp_p,
              unit: input.unit,
              ppq_m: input.ppq_m,
              tax: input.tax,
              ...(rates ? { rates } : {}),
              barcode,
              hsn_code: 'hsn_code' in body ? input.hsn_code : p.hsn_code,
              price_includes_tax: input.price_includes_tax ?? includesTax(p),
              supply_type: supply,
              specs,
              ...pendingEventFields(),
            },
          },
          { session, returnDocument: 'before' },
        )
        .lean();
      if (!before) throw new NotFoundException(`Product ${p.product_id} not found.`);
      // Level stays as it was until the stock below settles; the movement shifts its own part.
      await this.stock.totals.shift(companyId, before, { ...before, ...fields, level: before.level }, session);
      // A typed stock becomes an adjustment movement against the stock as it is now.
      const now = await this.products.model.findOne({ companyId, product_id: p.product_id }, { stock_m: 1 }).session(session).lean();
      const delta = targetStock - (now?.stock_m ?? 0);
      if (input.stock_m !== undefined && delta !== 0) await this.stock.adjust(companyId, p.product_id, delta, input.cp_p, session);
      const after = await this.products.model.findOne({ companyId, product_id: p.product_id }).session(session).lean();
      if (!after) throw new NotFoundException(`Product ${p.product_id} not found.`);
      const level = stockLevel(after.stock_m, input.min_m, input.def_m);
      if (level !== after.level) {
        await this.products.model.updateOne({ companyId, product_id: p.product_id }, { $set: { level } }, { session });
        await this.stock.totals.shift(companyId, after, { ...after, level }, session);
      }
    });
    this.products.events.relay.kick('product');
    this.products.events.relay.kick('stock');
    await this.products.rememberBrandAndUnit(companyId, input.brand_name, input.unit);
    return { done: true, err: null };
  }

  @Get('getLabelDetails/:id')
  async label(@Tenant() companyId: number, @Param('id') idRaw: string): Promise<LabelDetailsReply> {
    return this.products.labelDetails(companyId, await this.products.get(companyId, intParam('id', idRaw)));
  }

  /** The product grid: {cat} is a category id or 'null' (all); filters brand, text, stock, active and the category's spec fields. */
  @Get('productPage/:cat')
  async page(@Tenant() companyId: number, @Param('cat') catRaw: string, @Query() q: Record<string, unknown>) {
    const f = parseFilters({ ...q, category: catRaw });
    const page = pageNo(q.pageNumber ?? q.pageNo);
    const cats = await this.products.categoryList(companyId);
    const cat = f.category === undefined ? null : (cats.find((c) => c.id === f.category) ?? null);
    if (f.category !== undefined && !cat) throw new BadRequestException(`Category ${f.category} does not exist.`);
    const specs: Record<string, string> = {};
    for (const s of cat?.specs ?? []) {
      const v = q[s.field_name];
      if (typeof v === 'string' && v.trim()) specs[s.field_name] = v.trim();
    }
    f.specs = specs;
    const filter = this.products.filterQuery(companyId, f);
    const [rows, n] = await Promise.all([
      this.products.model.find(filter).sort({ product_id: 1 }).skip(page * GRID_PAGE_SIZE).limit(GRID_PAGE_SIZE).lean(),
      this.products.model.countDocuments(filter),
    ]);
    const names = new Map(cats.map((c) => [c.id, c.name]));
    return {
      product_list: rows.map((r) => ({ ...this.row(r, names), specs: r.specs ?? {} })),
      fields: (cat?.specs ?? []).map((s) => ({ field_name: s.field_name, is_number: s.is_number })),
      catagory: cats.map((c) => ({ id: c.id, name: c.name })),
      brands: await this.products.brandNames(companyId),
      query: { brand: f.brand ?? '', text: f.text ?? '', stock: f.stock ?? '', active: f.active ?? '', ...specs },
      cat_id: cat?.id ?? null,
      pageNumber: page,
      pageCount: Math.max(1, Math.ceil(n / GRID_PAGE_SIZE)),
    };
  }
}
