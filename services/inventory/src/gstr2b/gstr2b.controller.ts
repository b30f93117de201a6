import { BadRequestException, Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Subjects, type CompanyDetails, type Gstr2bReply, type TokenClaims } from '@bahi/contracts';
import { CurrentUser, NatsClient, Positions, Tenant } from '@bahi/service-kit';
import { PURCHASE_MODEL, type PurchaseDoc } from '../purchases/purchase.schema';
import { type BookBill, matchGstr2b, parseGstr2b } from './gstr2b';
import { GSTR2B_MODEL, type Gstr2bDoc } from './gstr2b.schema';

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

function period(v: unknown): string {
  const p = typeof v === 'string' ? v.trim() : '';
  if (!PERIOD.test(p)) throw new BadRequestException('period must be a month written YYYY-MM, e.g. 2026-10.');
  return p;
}

/** The supplier's bill date (the checkout's, else the purchase's own date). */
const billDate = (p: Pick<PurchaseDoc, 'bill_date' | 'date'>) => p.bill_date || p.date;

const book = (p: PurchaseDoc): BookBill => ({
  purchaseId: p.purchaseId,
  distributorId: p.distributorId,
  supplier: p.distributorName,
  gstin: p.gst!.distributor_gstin!,
  bill_no: p.bill_no,
  bill_date: billDate(p),
  taxable: p.gst!.taxable_total,
  tax: p.gst!.tax_total,
});

/** GSTR-2B matching of purchases (issue 31). Managers only, as every purchase call. */
@Controller()
@Positions('manager')
export class Gstr2bController {
  constructor(
    @InjectModel(GSTR2B_MODEL) private readonly model: Model<Gstr2bDoc>,
    @InjectModel(PURCHASE_MODEL) private readonly purchases: Model<PurchaseDoc>,
    private readonly nats: NatsClient,
  ) {}

  /** The portal's GSTR-2B JSON as the body; it replaces the month's earlier upload. */
  @Post('gst/gstr2b')
  @HttpCode(200)
  async upload(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Query('period') raw: unknown, @Body() body: unknown): Promise<Gstr2bReply> {
    const p = period(raw);
    const company: CompanyDetails = await this.nats.send(Subjects.identity.companyDetails, { companyId });
    if ((company.tax_mode ?? 'simple') === 'simple' || !company.gstin) throw new BadRequestException('GSTR-2B matching needs the company in GST mode with its GSTIN (Setting).');
    const invoices = parseGstr2b(body, p, company.gstin);
    await this.model.updateOne({ companyId, period: p }, { $set: { invoices, uploadedBy: user.uid } }, { upsert: true });
    return this.result(companyId, p, invoices);
  }

  @Get('gst/gstr2b')
  async get(@Tenant() companyId: number, @Query('period') raw: unknown): Promise<Gstr2bReply> {
    const p = period(raw);
    const doc = await this.model.findOne({ companyId, period: p }).lean();
    return this.result(companyId, p, doc?.invoices ?? null);
  }

  private async result(companyId: number, p: string, invoices: Gstr2bDoc['invoices'] | null): Promise<Gstr2bReply> {
    const from = `${p}-01`;
    const to = `${p}-31`;
    const inPeriod = (b: BookBill) => b.bill_date >= from && b.bill_date <= to;
    const gstins = [...new Set((invoices ?? []).map((i) => i.gstin))];
    // Purchases from registered distributors: any dated in the month (by bill date or, without one, by date), and any of a supplier in the file.
    const rows = (await this.purchases
      .find({
        companyId,
        status: 'complete',
        'gst.distributor_gstin': { $ne: null },
        $or: [{ bill_date: { $gte: from, $lte: to } }, { bill_date: { $in: [null, ''] }, date: { $gte: from, $lte: to } }, { 'gst.distributor_gstin': { $in: gstins } }],
      })
      .sort({ purchaseId: 1 })
      .lean()) as PurchaseDoc[];
    const m = matchGstr2b(invoices ?? [], rows.filter((r) => r.gst?.distributor_gstin).map(book), inPeriod);
    return { period: p, uploaded: invoices !== null, ...m };
  }
}
