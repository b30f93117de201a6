import { BadRequestException, Controller, Get, Query, Res } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Response } from 'express';
import type { Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { Positions, Tenant } from '@bahi/service-kit';
import { exportFormat, sendTable, type Column } from '@bahi/tabular';
import { countDeadLetters, type DeadLetter } from './dead-letters';
import { oneOf, pageParam, PAGE_SIZE, rangeParams } from './params';
import { ageingSide, profitBy, runReport } from './queries';
import { ReportsService } from './reports.service';
import { C } from './store';

type Q = Record<string, unknown>;
type Out = Record<string, unknown>;

function formatOf(q: Q): 'csv' | 'xlsx' | null {
  if (q.format === undefined || q.format === '') return null;
  try {
    return exportFormat(q.format);
  } catch (err) {
    throw new BadRequestException((err as Error).message);
  }
}

const text = (header: string, key: string, width?: number): Column<Out> => ({ header, width, value: (r) => (r[key] === null || r[key] === undefined ? '' : String(r[key])) });
const num = (header: string, key: string): Column<Out> => ({ header, type: 'number', value: (r) => (r[key] === null || r[key] === undefined ? '' : (r[key] as number | string)) });
const money = (header: string, key: string): Column<Out> => ({ header, type: 'number', numFmt: '0.00', value: (r) => r[key] as string });
const date = (header: string, key: string): Column<Out> => ({ header, type: 'date', value: (r) => r[key] as string });

async function* each(rows: Out[]) {
  for (const r of rows) yield r;
}

/**
 * The reports (managers only; the company from the token). JSON by default; `?format=csv|xlsx`
 * downloads every row of the same report.
 */
@Controller('reports')
@Positions('manager')
export class ReportsController {
  constructor(
    private readonly reports: ReportsService,
    @InjectConnection() private readonly conn: Connection,
  ) {}

  private async send(res: Response, format: 'csv' | 'xlsx' | null, name: string, body: { rows: Out[] }, columns: Column<Out>[]) {
    if (!format) {
      res.json(body);
      return;
    }
    await sendTable(res, format, name, columns, each(body.rows), name);
  }

  @Get('daybook')
  async daybook(@Tenant() companyId: number, @Query() q: Q, @Res() res: Response) {
    const format = formatOf(q);
    const body = await runReport(this.reports, companyId, 'daybook', q, format ? 'all' : 'page');
    await this.send(res, format, 'daybook', body, [text('Kind', 'kind'), num('Ref', 'ref'), text('Number', 'docNo'), text('Party', 'party', 24), money('Amount', 'amount'), money('Cash in', 'cashIn'), money('Cash out', 'cashOut'), money('Bank in', 'bankIn'), money('Bank out', 'bankOut')]);
  }

  @Get('sales-register')
  async salesRegister(@Tenant() companyId: number, @Query() q: Q, @Res() res: Response) {
    const format = formatOf(q);
    const body = await runReport(this.reports, companyId, 'sales-register', q, format ? 'all' : 'page');
    await this.send(res, format, 'sales-register', body, [
      num('Bill', 'saleId'), date('Date', 'date'), text('Invoice no', 'invoice_no'), text('Customer', 'customer', 24),
      money('Amount', 'amount'), money('Returned', 'returned'), text('Cancelled', 'cancelled'), money('Net', 'net'), money('Paid', 'paid'),
    ]);
  }

  @Get('purchase-register')
  async purchaseRegister(@Tenant() companyId: number, @Query() q: Q, @Res() res: Response) {
    const format = formatOf(q);
    const body = await runReport(this.reports, companyId, 'purchase-register', q, format ? 'all' : 'page');
    await this.send(res, format, 'purchase-register', body, [
      num('Purchase', 'purchaseId'), date('Date', 'date'), text('Bill no', 'bill_no'), text('Distributor', 'distributor', 24),
      money('Amount', 'amount'), money('Returned', 'returned'), money('Net', 'net'), money('Paid', 'paid'),
    ]);
  }

  @Get('stock-summary')
  async stockSummary(@Tenant() companyId: number, @Query() q: Q, @Res() res: Response) {
    const format = formatOf(q);
    const body = await runReport(this.reports, companyId, 'stock-summary', q, format ? 'all' : 'page');
    await this.send(res, format, 'stock-summary', body, [
      num('Product', 'productId'), text('Name', 'name', 28), text('Category', 'category', 16), text('Brand', 'brand', 16),
      num('Stock', 'stock'), money('Cost price', 'cp'), money('MRP', 'mrp'), money('Value at cost', 'costValue'), money('Value at MRP', 'mrpValue'),
    ]);
  }

  @Get('profit')
  async profit(@Tenant() companyId: number, @Query() q: Q, @Res() res: Response) {
    const format = formatOf(q);
    const by = profitBy(q);
    const body = await runReport(this.reports, companyId, 'profit', q, format ? 'all' : 'page');
    const first = by === 'product' ? [num('Product', 'productId'), text('Name', 'name', 28)] : by === 'month' ? [text('Month', 'month')] : [text('Category', 'category', 20)];
    await this.send(res, format, `profit-by-${by}`, body, [...first, num('Quantity', 'qty'), money('Sales value', 'value'), money('Cost', 'cost'), money('Value without cost', 'valueWithoutCost'), money('Profit', 'profit'), num('Margin %', 'marginPct')]);
  }

  @Get('ageing')
  async ageing(@Tenant() companyId: number, @Query() q: Q, @Res() res: Response) {
    const format = formatOf(q);
    const side = ageingSide(q);
    const body = await runReport(this.reports, companyId, 'ageing', q, format ? 'all' : 'page');
    await this.send(res, format, `ageing-${side}`, body, [
      num('Party', 'partyId'), text('Name', 'name', 24), money('Balance', 'balance'), money('0-30 days', 'b0_30'), money('31-60 days', 'b31_60'),
      money('61-90 days', 'b61_90'), money('Over 90 days', 'b90'), date('Oldest due', 'oldestDue'), num('Days overdue', 'daysOverdue'),
    ]);
  }

  /**
   * Events of this company the reports could not take (dead letters): how many, and the latest
   * 20 (what, when, why), so a manager knows a figure may be missing something. The platform's
   * count over every company (events naming none included) is on /api/health.
   */
  @Get('dead-letters')
  async deadLetters(@Tenant() companyId: number) {
    const db = this.conn.db as unknown as Db;
    const latest = await db.collection<DeadLetter>(C.dead).find({ companyId }).sort({ at: -1 }).limit(20).toArray();
    return {
      count: await countDeadLetters(db, companyId),
      rows: latest.map((d) => ({ id: d._id, subject: d.subject, eventId: d.eventId, error: d.error, at: d.at.toISOString(), stream: d.stream, seq: d.stream_seq })),
    };
  }

  /** Every cash (or bank: upi, card, cheque, bank) movement from..to with the running balance. */
  @Get('cashbook')
  async cashbook(@Tenant() companyId: number, @Query() q: Q, @Res() res: Response) {
    const format = formatOf(q);
    const { from, to } = rangeParams(q);
    const mode = oneOf(q.mode, 'mode', ['cash', 'bank'] as const, 'cash');
    const page = q.page === undefined ? pageParam(q.pageNo, 'pageNo') : pageParam(q.page);
    const body = await this.reports.cashbook(companyId, from, to, mode, format ? { page: 0, pageSize: null } : { page, pageSize: PAGE_SIZE });
    await this.send(res, format, `${mode}book`, body, [
      date('Date', 'date'), text('Kind', 'kind'), num('Ref', 'ref'), text('Number', 'docNo'), text('Party', 'party', 24), money('In', 'in'), money('Out', 'out'), money('Balance', 'balance'),
    ]);
  }

  /** Profit and loss by month from..to, with totals. */
  @Get('pnl')
  async pnl(@Tenant() companyId: number, @Query() q: Q, @Res() res: Response) {
    const format = formatOf(q);
    const { from, to } = rangeParams(q);
    const body = await this.reports.pnl(companyId, from, to);
    await this.send(res, format, 'pnl', body, [
      text('Month', 'month'), money('Sales', 'sales'), money('Cost', 'cost'), money('Gross profit', 'gross_profit'), money('Expenses', 'expenses'), money('Net profit', 'net_profit'),
    ]);
  }

  @Get('dashboard')
  async dashboard(@Tenant() companyId: number, @Query() q: Q, @Res() res: Response) {
    if (q.format !== undefined) throw new BadRequestException('format is not offered for the dashboard; export a report instead.');
    res.json(await this.reports.dashboard(companyId));
  }
}
