import { BadRequestException, Controller, Get, Query, Res } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Response } from 'express';
import { money, Tenant } from '@bahi/service-kit';
import { exportFormat, sendTable, type Column } from '@bahi/tabular';
import { Models, type SaleDoc } from '../common/schemas';
import { returnStatus } from '../returns/status';
import type { ReturnableSale } from '../returns/schema';

/** Rupees as stored ('50', '20.5') with two decimals, exact. */
const rupees = (v: string | undefined) => money(v ?? '0').toFixed(2);

/**
 * GET /export/sales?format=csv|xlsx: the whole sales list (complete bills, newest first, the
 * list's columns plus the invoice number and the return status), streamed from a cursor. Every
 * position, as the list.
 */
@Controller()
export class SalesExportsController {
  constructor(@InjectModel(Models.Sale) private readonly sales: Model<SaleDoc>) {}

  @Get('export/sales')
  async saleList(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    let format;
    try {
      format = exportFormat(q.format);
    } catch (err) {
      throw new BadRequestException((err as Error).message);
    }
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
