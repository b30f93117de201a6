import { Controller, Get, Query, Res } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Response } from 'express';
import { money, Tenant } from '@bahi/service-kit';
import { formatParam, sendTable, type Column } from '@bahi/tabular';
import { Models, type SaleDoc } from '../common/schemas';
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
}
