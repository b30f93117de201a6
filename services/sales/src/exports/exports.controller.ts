import { Controller, Get, Query, Res } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Response } from 'express';
import { money, sub, Tenant } from '@bahi/service-kit';
import { formatParam, sendTable, type Column } from '@bahi/tabular';
import { Models, type SaleDoc } from '../common/schemas';
import { lineAmount, type StoredLine } from '../common/totals';
import { EstimatesService } from '../estimates/estimates.service';
import { returnStatus } from '../returns/status';
import { ReturnModels, type CreditNoteDoc, type ReturnableSale } from '../returns/schema';

/** Rupees as stored ('50', '20.5') with two decimals, exact. */
const rupees = (v: string | undefined) => money(v ?? '0').toFixed(2);

/**
 * GET /export/sales?format=csv|xlsx: the whole sales list (complete bills, newest first, the
 * list's columns plus the invoice number and the return status), streamed from a cursor. Every
 * position, as the list.
 */
@Controller()
export class SalesExportsController {
  constructor(
    @InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>,
    @InjectModel(ReturnModels.CreditNote) private readonly notes: Model<CreditNoteDoc>,
    private readonly estimates: EstimatesService,
  ) {}

  /** GET /export/estimates: the estimate list (newest first, each priced for its customer as the list is), every position. */
  @Get('export/estimates')
  async estimateList(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    type Row = { id: number; Date: string; 'Clients Name': string; 'Total Amount': number };
    const columns: Column<Row>[] = [
      { header: 'Estimate no', type: 'number', value: (e) => e.id },
      { header: 'Date', type: 'date', value: (e) => e.Date },
      { header: 'Customer', width: 24, value: (e) => e['Clients Name'] },
      { header: 'Total amount', type: 'number', numFmt: '0.00', value: (e) => e['Total Amount'].toFixed(2) },
    ];
    await sendTable(res, format, 'estimates', columns, this.estimates.rows(companyId), 'Estimates');
  }

  /** GET /export/creditNotes: the credit note list (complete notes, newest first), every position as the list. */
  @Get('export/creditNotes')
  async creditNoteList(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    const cursor = this.notes.find({ companyId, status: 'complete' }).sort({ creditNoteId: -1 }).lean().cursor() as AsyncIterable<CreditNoteDoc>;
    const columns: Column<CreditNoteDoc>[] = [
      { header: 'Credit note no', width: 18, value: (n) => n.credit_note_no },
      { header: 'Date', type: 'date', value: (n) => n.date },
      { header: 'Bill no', type: 'number', value: (n) => n.saleId },
      { header: 'Invoice no', value: (n) => n.gst?.invoice_no || '' },
      { header: 'Customer', width: 24, value: (n) => (n.customer.walkIn ? 'Unknown' : n.customer.name) },
      { header: 'Amount', type: 'number', numFmt: '0.00', value: (n) => rupees(n.amount) },
      { header: 'Refund', type: 'number', numFmt: '0.00', value: (n) => rupees(n.refund) },
    ];
    await sendTable(res, format, 'credit-notes', columns, cursor, 'Credit notes');
  }

  @Get('export/sales')
  async saleList(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    const cursor = this.sales.find({ companyId, status: 'complete' }).sort({ saleId: -1 }).lean().cursor() as AsyncIterable<ReturnableSale>;
    const columns: Column<ReturnableSale>[] = [
      { header: 'Bill no', type: 'number', value: (s) => s.saleId },
      { header: 'Date', type: 'date', value: (s) => s.date },
      { header: 'Invoice no', value: (s) => s.gst?.invoice_no || '' },
      { header: 'Customer', width: 24, value: (s) => (s.customer.walkIn ? 'Unknown' : s.customer.name) },
      { header: 'Total amount', type: 'number', numFmt: '0.00', value: (s) => rupees(s.amount) },
      { header: 'Paid', type: 'number', numFmt: '0.00', value: (s) => rupees(s.paid) },
      { header: 'Status', value: (s) => returnStatus(s) },
    ];
    await sendTable(res, format, 'sales', columns, cursor, 'Sales');
  }

  /**
   * GET /export/saleLines: every line of every bill of the sales list (oldest bill first), for
   * "Download all data". GST mode: each line's taxable value and tax as frozen on the invoice;
   * simple mode charges tax on the bill (sales.xlsx), so those cells are empty. Every position, as the list.
   */
  @Get('export/saleLines')
  async saleLines(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    type Row = { s: ReturnableSale; l: StoredLine };
    const sales = this.sales.find({ companyId, status: 'complete' }).sort({ saleId: 1 }).lean().cursor() as AsyncIterable<ReturnableSale>;
    async function* rows(): AsyncIterable<Row> {
      for await (const s of sales) for (const l of s.lines) yield { s, l };
    }
    const gstOf = (r: Row) => r.s.gst?.lines.find((g) => g.sl_no === r.l.sl_no) ?? null;
    const tax = (pick: (g: NonNullable<ReturnType<typeof gstOf>>) => string) => (r: Row) => {
      const g = gstOf(r);
      return g ? rupees(pick(g)) : null;
    };
    const columns: Column<Row>[] = [
      { header: 'Bill no', type: 'number', value: (r) => r.s.saleId },
      { header: 'Date', type: 'date', value: (r) => r.s.date },
      { header: 'Invoice no', value: (r) => r.s.gst?.invoice_no || '' },
      { header: 'Customer', width: 24, value: (r) => (r.s.customer.walkIn ? 'Unknown' : r.s.customer.name) },
      { header: 'Line', type: 'number', value: (r) => r.l.sl_no },
      { header: 'Product ID', type: 'number', value: (r) => r.l.product_id },
      { header: 'Product', width: 28, value: (r) => r.l.product_name },
      { header: 'HSN code', value: (r) => r.l.hsn_code || '' },
      { header: 'Quantity', type: 'number', value: (r) => money(r.l.quantity).toFixed() },
      { header: 'Per piece quantity', type: 'number', value: (r) => money(r.l.per_peice_quantity).toFixed() },
      { header: 'Unit', value: (r) => r.l.unit },
      { header: 'Rate', type: 'number', numFmt: '0.00', value: (r) => rupees(r.l.mrp) },
      { header: 'Discount', type: 'number', numFmt: '0.00', value: (r) => rupees(r.l.discount) },
      { header: 'Price', type: 'number', numFmt: '0.00', value: (r) => sub(r.l.mrp, r.l.discount).toFixed(2) },
      { header: 'Amount', type: 'number', numFmt: '0.00', value: (r) => lineAmount(r.l).toFixed(2) },
      { header: 'Taxable value', type: 'number', numFmt: '0.00', value: tax((g) => g.taxable_value) },
      { header: 'GST %', type: 'number', value: (r) => gstOf(r)?.gst_rate ?? null },
      { header: 'CGST', type: 'number', numFmt: '0.00', value: tax((g) => g.cgst) },
      { header: 'SGST', type: 'number', numFmt: '0.00', value: tax((g) => g.sgst) },
      { header: 'IGST', type: 'number', numFmt: '0.00', value: tax((g) => g.igst) },
    ];
    await sendTable(res, format, 'sale-lines', columns, rows(), 'Bill lines');
  }
}
