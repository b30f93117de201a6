import { BadRequestException, Body, Controller, Get, HttpCode, Inject, type OnModuleInit, Param, Post, Query, Res, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import { AnyFilesInterceptor } from '@nestjs/platform-express';
import type { Connection, Model } from 'mongoose';
import type { Response } from 'express';
import { ImportMaxBytes, ImportMaxRows, ImportSessionTtlHours, Subjects } from '@bahi/contracts';
import { LOGGER, money, NatsClient, Positions, Tenant } from '@bahi/service-kit';
import { formatParam, importHttp, ImportSessions, sendTable, uploadedFile, type Column, type Upload } from '@bahi/tabular';
import { milliStr, paiseStr, taxPercent } from '../common';
import type { TaxMode } from '../products/gst-rules';
import { HISTORY_TYPE } from '../products/products.controller';
import { labelSpecs, parseFilters, ProductsService } from '../products/products.service';
import { includesTax, type Movement, type Product } from '../schemas';
import { DEBIT_NOTE_MODEL, type DebitNoteDoc } from '../purchases/debit-note.schema';
import { PURCHASE_MODEL, type PurchaseDoc, type PurchaseLineDoc } from '../purchases/purchase.schema';
import { StockService } from '../stock/stock.service';
import { productImportHandler } from './products.import';


/** Products from CSV or XLSX (upload, validate, run, progress), managers only. */
@Controller()
@Positions('manager')
export class ProductImportsController implements OnModuleInit {
  readonly sessions: ImportSessions;
  private readonly handler;

  constructor(
    @InjectConnection() conn: Connection,
    private readonly products: ProductsService,
    stock: StockService,
    private readonly nats: NatsClient,
    @Inject(LOGGER) logger: { error: (o: unknown, m?: string) => void },
  ) {
    this.sessions = new ImportSessions(conn.db as never, {
      inTransaction: (fn) => stock.inTransaction(fn as never),
      maxRows: ImportMaxRows,
      // 1,000 products a transaction: fewer commits; a batch's writes stay a few hundred KB.
      batchSize: 1000,
      ttlMs: ImportSessionTtlHours * 3600_000,
      log: (msg, err) => logger.error({ err }, msg),
    });
    this.handler = productImportHandler(products, stock, async (companyId) => {
      const c = (await this.nats.send(Subjects.identity.companyDetails, { companyId })) as { tax_mode?: TaxMode; aato_above_5cr?: boolean };
      return { tax_mode: c.tax_mode ?? 'simple', aato_above_5cr: c.aato_above_5cr === true };
    });
  }

  async onModuleInit() {
    await this.sessions.init();
  }

  @Post('imports/products')
  @HttpCode(200)
  @UseInterceptors(AnyFilesInterceptor({ limits: { fileSize: ImportMaxBytes, files: 1, fields: 5 } }))
  async upload(@Tenant() companyId: number, @UploadedFiles() files: Upload[] | undefined) {
    const file = uploadedFile(files);
    return this.sessions.upload(companyId, this.handler as never, file.originalname, file.buffer).catch(importHttp);
  }

  @Get('imports/products/:id')
  async status(@Tenant() companyId: number, @Param('id') id: string) {
    return this.sessions.status(companyId, 'products', id).catch(importHttp);
  }

  @Post('imports/products/:id/validate')
  @HttpCode(200)
  async validate(@Tenant() companyId: number, @Param('id') id: string, @Body() body: Record<string, unknown>) {
    return this.sessions.validate(companyId, this.handler, id, body?.mapping).catch(importHttp);
  }

  @Post('imports/products/:id/run')
  @HttpCode(202)
  async run(@Tenant() companyId: number, @Param('id') id: string, @Body() body: Record<string, unknown>) {
    return this.sessions.run(companyId, this.handler, id, body?.mapping, body?.mode).catch(importHttp);
  }
}

/**
 * GET /export/{list}?format=csv|xlsx plus the list's own filters: the whole filtered list as a
 * download, streamed from a cursor. The product list shows cost prices to every position, so its
 * export does too; the stock book is managers' only, as its list is.
 */
@Controller()
export class InventoryExportsController {
  constructor(
    private readonly products: ProductsService,
    @InjectModel(PURCHASE_MODEL) private readonly purchases: Model<PurchaseDoc>,
    @InjectModel(DEBIT_NOTE_MODEL) private readonly debitNotes: Model<DebitNoteDoc>,
    private readonly stock: StockService,
  ) {}

  /**
   * GET /export/purchaseLines: every line of every purchase of the list (oldest first), for
   * "Download all data"; GST mode adds each line's input tax as frozen on the purchase. Managers, as the list.
   */
  @Get('export/purchaseLines')
  @Positions('manager')
  async purchaseLines(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    type Row = { p: PurchaseDoc; l: PurchaseLineDoc };
    const purchases = this.purchases.find({ companyId, status: 'complete' }).sort({ purchaseId: 1 }).lean().cursor() as AsyncIterable<PurchaseDoc>;
    async function* rows(): AsyncIterable<Row> {
      for await (const p of purchases) for (const l of p.lines) yield { p, l };
    }
    const gstOf = (r: Row) => r.p.gst?.lines.find((g) => g.sl_no === r.l.sl_no) ?? null;
    // Rupees as stored ('1500.5') with two decimals, exact.
    const rupees = (v: string | undefined) => money(v ?? '0').toFixed(2);
    const tax = (pick: (g: NonNullable<ReturnType<typeof gstOf>>) => string) => (r: Row) => (gstOf(r) ? rupees(pick(gstOf(r)!)) : null);
    const columns: Column<Row>[] = [
      { header: 'Purchase ID', type: 'number', value: (r) => r.p.purchaseId },
      { header: 'Date', type: 'date', value: (r) => r.p.date },
      { header: "Distributor's bill no", width: 16, value: (r) => r.p.bill_no },
      { header: 'Distributor', width: 24, value: (r) => r.p.distributorName },
      { header: 'Line', type: 'number', value: (r) => r.l.sl_no },
      { header: 'Product ID', type: 'number', value: (r) => r.l.product_id },
      { header: 'Product', width: 28, value: (r) => r.l.product_name },
      { header: 'HSN code', value: (r) => r.l.hsn_code ?? '' },
      { header: 'Quantity', type: 'number', value: (r) => money(r.l.quantity).toFixed() },
      { header: 'Per piece quantity', type: 'number', value: (r) => money(r.l.per_peice_quantity).toFixed() },
      { header: 'Unit', value: (r) => r.l.unit },
      { header: 'Rate', type: 'number', numFmt: '0.00', value: (r) => rupees(r.l.rate) },
      { header: 'Discount', type: 'number', numFmt: '0.00', value: (r) => rupees(r.l.disc) },
      { header: 'Amount', type: 'number', numFmt: '0.00', value: (r) => rupees(r.l.amount) },
      { header: 'Taxable value', type: 'number', numFmt: '0.00', value: tax((g) => g.taxable_value) },
      { header: 'GST %', type: 'number', value: (r) => gstOf(r)?.gst_rate ?? null },
      { header: 'CGST', type: 'number', numFmt: '0.00', value: tax((g) => g.cgst) },
      { header: 'SGST', type: 'number', numFmt: '0.00', value: tax((g) => g.sgst) },
      { header: 'IGST', type: 'number', numFmt: '0.00', value: tax((g) => g.igst) },
    ];
    await sendTable(res, format, 'purchase-lines', columns, rows(), 'Purchase lines');
  }

  /**
   * GET /export/stockMovements: every product's stock history (the product history's rows, oldest
   * first, with the stock after each), one product at a time, for "Download all data"; managers, as the stock book.
   */
  @Get('export/stockMovements')
  @Positions('manager')
  async stockMovements(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    type Row = Movement & { product_name: string; unit: string };
    const products = this.products.model.find({ companyId }, { product_id: 1, product_name: 1, unit: 1 }).sort({ product_id: 1 }).lean().cursor() as AsyncIterable<Product>;
    const movements = this.stock.movements;
    async function* rows(): AsyncIterable<Row> {
      for await (const p of products) {
        const ms = movements.find({ companyId, product_id: p.product_id }).sort({ seq: 1 }).lean().cursor() as AsyncIterable<Movement>;
        for await (const m of ms) yield { ...m, product_name: p.product_name, unit: p.unit };
      }
    }
    const columns: Column<Row>[] = [
      { header: 'Product ID', type: 'number', width: 11, value: (m) => m.product_id },
      { header: 'Product', width: 28, value: (m) => m.product_name },
      { header: 'Date', type: 'date', value: (m) => new Date(m.date) },
      { header: 'Type', width: 22, value: (m) => HISTORY_TYPE[m.kind] ?? m.kind },
      { header: 'Document ID', type: 'number', value: (m) => m.source_id },
      { header: 'Line', type: 'number', value: (m) => m.line },
      { header: 'Quantity', type: 'number', value: (m) => milliStr(m.qty_m) },
      { header: 'Unit', value: (m) => m.unit },
      { header: 'Rate', type: 'number', numFmt: '0.00', value: (m) => paiseStr(m.rate_p) },
      { header: 'Stock after', type: 'number', value: (m) => milliStr(m.stock_m) },
    ];
    await sendTable(res, format, 'stock-movements', columns, rows(), 'Stock movements');
  }

  /** The debit note list (complete notes, newest first), managers as the list. */
  @Get('export/debitNotes')
  @Positions('manager')
  async debitNoteList(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    const cursor = this.debitNotes.find({ companyId, status: 'complete' }).sort({ debitNoteId: -1 }).lean().cursor() as AsyncIterable<DebitNoteDoc>;
    const columns: Column<DebitNoteDoc>[] = [
      { header: 'Debit note no', width: 18, value: (d) => d.debit_note_no },
      { header: 'Date', type: 'date', value: (d) => d.date },
      { header: 'Purchase ID', type: 'number', value: (d) => d.purchaseId },
      { header: 'Distributor', width: 24, value: (d) => d.distributorName },
      { header: 'Amount', type: 'number', numFmt: '0.00', value: (d) => d.amount },
      { header: 'Refund', type: 'number', numFmt: '0.00', value: (d) => d.refund },
    ];
    await sendTable(res, format, 'debit-notes', columns, cursor, 'Debit notes');
  }

  /** The purchase list (complete purchases, newest first), managers as the list. */
  @Get('export/purchases')
  @Positions('manager')
  async purchaseList(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    const cursor = this.purchases.find({ companyId, status: 'complete' }).sort({ purchaseId: -1 }).lean().cursor() as AsyncIterable<PurchaseDoc>;
    const columns: Column<PurchaseDoc>[] = [
      { header: 'Purchase ID', type: 'number', value: (p) => p.purchaseId },
      { header: 'Date', type: 'date', value: (p) => p.date },
      { header: 'Distributor', width: 24, value: (p) => p.distributorName },
      { header: 'Total amount', type: 'number', numFmt: '0.00', value: (p) => p.total },
      { header: 'Paid', type: 'number', numFmt: '0.00', value: (p) => p.paid },
      { header: 'Due date', type: 'date', value: (p) => p.dueDate || null },
    ];
    await sendTable(res, format, 'purchases', columns, cursor, 'Purchases');
  }

  private async names(companyId: number) {
    return new Map((await this.products.categoryList(companyId)).map((c) => [c.id, c.name]));
  }

  /** The product list's filters (category, brand, stock, active, text), every page. */
  @Get('export/products')
  async productList(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    const filter = this.products.filterQuery(companyId, parseFilters(q));
    const names = await this.names(companyId);
    const cursor = this.products.model.find(filter).sort({ product_id: 1 }).lean().cursor();
    await sendTable(res, format, 'products', productColumns(names), cursor as AsyncIterable<Product>, 'Products');
  }

  /** The stock book's filters (a category is required, as the list asks) and its spec columns. */
  @Get('export/stockBook')
  @Positions('manager')
  async stockBook(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    const f = parseFilters(q);
    if (f.category === undefined) throw new BadRequestException('Please Select A Category.');
    const cat = await this.products.category(companyId, f.category);
    if (!cat) throw new BadRequestException(`Category ${f.category} does not exist.`);
    const specs = labelSpecs(cat);
    const columns: Column<Product>[] = [
      { header: 'Product ID', type: 'number', width: 11, value: (p) => p.product_id },
      { header: 'Product name', width: 32, value: (p) => p.product_name },
      { header: 'Brand', width: 16, value: (p) => p.brand_name },
      { header: 'Unit', width: 8, value: (p) => p.unit },
      { header: 'MRP', type: 'number', numFmt: '0.00', value: (p) => paiseStr(p.mrp_p) },
      { header: 'Cost price', type: 'number', numFmt: '0.00', value: (p) => paiseStr(p.cp_p) },
      { header: 'Stock', type: 'number', value: (p) => milliStr(p.stock_m) },
      ...specs.map((s) => ({ header: s.alias || s.field_name, value: (p: Product) => p.specs?.[s.field_name] ?? '' })),
    ];
    const cursor = this.products.model.find(this.products.filterQuery(companyId, f)).sort({ product_id: 1 }).lean().cursor();
    await sendTable(res, format, `stock-book-${cat.name.replace(/[^A-Za-z0-9]+/g, '-')}`, columns, cursor as AsyncIterable<Product>, 'Stock book');
  }
}

export function productColumns(names: Map<number, string>): Column<Product>[] {
  return [
    { header: 'Product ID', type: 'number', width: 11, value: (p) => p.product_id },
    { header: 'Product name', width: 32, value: (p) => p.product_name },
    { header: 'Brand', width: 16, value: (p) => p.brand_name },
    { header: 'Category', width: 16, value: (p) => (p.category === null ? '' : (names.get(p.category) ?? '')) },
    { header: 'Unit', width: 8, value: (p) => p.unit },
    { header: 'Quantity per piece', type: 'number', value: (p) => milliStr(p.ppq_m) },
    { header: 'MRP', type: 'number', numFmt: '0.00', value: (p) => paiseStr(p.mrp_p) },
    { header: 'Cost price', type: 'number', numFmt: '0.00', value: (p) => paiseStr(p.cp_p) },
    { header: 'Opening stock', type: 'number', value: (p) => milliStr(p.stock_m) },
    { header: 'Min stock', type: 'number', value: (p) => milliStr(p.min_m) },
    { header: 'Default stock', type: 'number', value: (p) => milliStr(p.def_m) },
    { header: 'GST %', type: 'number', value: (p) => taxPercent(p.tax) },
    { header: 'Price includes tax', value: (p) => (includesTax(p) ? 'Yes' : 'No') },
    { header: 'HSN code', value: (p) => p.hsn_code ?? '' },
    { header: 'Barcode', width: 16, value: (p) => p.barcode ?? '' },
    { header: 'Active', value: (p) => (p.active ? 'Yes' : 'No') },
  ];
}
