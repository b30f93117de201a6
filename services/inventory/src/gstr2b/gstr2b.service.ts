import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Gstr2bReply } from '@bahi/contracts';
import { PURCHASE_MODEL, type PurchaseDoc } from '../purchases/purchase.schema';
import { type BookBill, matchGstr2b } from './gstr2b';
import { GSTR2B_MODEL, type Gstr2bDoc } from './gstr2b.schema';

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

/** The matching of a month's stored GSTR-2B with the purchase book (the page, and GSTR-3B's ITC under itc_from_matched_only). */
@Injectable()
export class Gstr2bService {
  constructor(
    @InjectModel(GSTR2B_MODEL) private readonly model: Model<Gstr2bDoc>,
    @InjectModel(PURCHASE_MODEL) private readonly purchases: Model<PurchaseDoc>,
  ) {}

  /** The purchase ids matched in the stored 2Bs of the months from..to (YYYY-MM-DD); months without one add none. */
  async matchedIds(companyId: number, from: string, to: string): Promise<Set<number>> {
    const docs = await this.model.find({ companyId, period: { $gte: from.slice(0, 7), $lte: to.slice(0, 7) } }).lean();
    const ids = new Set<number>();
    for (const d of docs) for (const m of (await this.result(companyId, d.period, d.invoices)).matched) ids.add(m.books.purchaseId);
    return ids;
  }

  async result(companyId: number, p: string, invoices: Gstr2bDoc['invoices'] | null): Promise<Gstr2bReply> {
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
