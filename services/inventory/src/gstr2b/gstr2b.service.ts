import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Gstr2bReply } from '@bahi/contracts';
import { Decimal } from '@bahi/service-kit';
import { DEBIT_NOTE_MODEL, type DebitNoteDoc } from '../purchases/debit-note.schema';
import { PURCHASE_MODEL, type PurchaseDoc } from '../purchases/purchase.schema';
import { type BookBill, type BookNote, matchGstr2b, type PortalInvoice, type PortalNote } from './gstr2b';
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

const bookNote = (n: DebitNoteDoc): BookNote => ({
  debitNoteId: n.debitNoteId,
  purchaseId: n.purchaseId,
  distributorId: n.distributorId,
  supplier: n.distributorName,
  gstin: n.gst!.distributor_gstin!,
  bill_no: n.debit_note_no,
  bill_date: n.date,
  taxable: n.taxable,
  tax: new Decimal(n.cgst).plus(n.sgst).plus(n.igst).toFixed(2),
  purchase_bill_no: n.bill_no,
});

/** The purchases and debit notes matched in stored GSTR-2Bs (GSTR-3B's ITC under itc_from_matched_only). */
export interface Matched {
  purchases: Set<number>;
  notes: Set<number>;
}

/** The matching of a month's stored GSTR-2B with the purchase book (the page, and GSTR-3B's ITC under itc_from_matched_only). */
@Injectable()
export class Gstr2bService {
  constructor(
    @InjectModel(GSTR2B_MODEL) private readonly model: Model<Gstr2bDoc>,
    @InjectModel(PURCHASE_MODEL) private readonly purchases: Model<PurchaseDoc>,
    @InjectModel(DEBIT_NOTE_MODEL) private readonly notes: Model<DebitNoteDoc>,
  ) {}

  /** The purchase and debit note ids matched in the stored 2Bs of the months from..to (YYYY-MM-DD); months without one add none. */
  async matched(companyId: number, from: string, to: string): Promise<Matched> {
    const docs = await this.model.find({ companyId, period: { $gte: from.slice(0, 7), $lte: to.slice(0, 7) } }).lean();
    const out: Matched = { purchases: new Set(), notes: new Set() };
    for (const d of docs) {
      const r = await this.result(companyId, d.period, d.invoices, d.notes ?? []);
      for (const m of r.matched) out.purchases.add(m.books.purchaseId);
      for (const m of r.notes.matched) out.notes.add(m.books.debitNoteId);
    }
    return out;
  }

  /** The purchase ids matched in the stored 2Bs of the months from..to. */
  async matchedIds(companyId: number, from: string, to: string): Promise<Set<number>> {
    return (await this.matched(companyId, from, to)).purchases;
  }

  async result(companyId: number, p: string, invoices: PortalInvoice[] | null, portalNotes: PortalNote[] = []): Promise<Gstr2bReply> {
    const from = `${p}-01`;
    const to = `${p}-31`;
    const inPeriod = (b: BookBill) => b.bill_date >= from && b.bill_date <= to;
    const gstins = [...new Set([...(invoices ?? []), ...portalNotes].map((i) => i.gstin))];
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
    // Debit notes (purchase returns) to registered distributors: the supplier's credit notes (C) are their side of them.
    const noteRows = (await this.notes
      .find({ companyId, status: 'complete', 'gst.distributor_gstin': { $ne: null }, $or: [{ date: { $gte: from, $lte: to } }, { 'gst.distributor_gstin': { $in: gstins } }] })
      .sort({ debitNoteId: 1 })
      .lean()) as DebitNoteDoc[];
    const credit = portalNotes.filter((n) => n.note_type === 'C');
    const notes = matchGstr2b(credit, noteRows.filter((n) => n.gst?.distributor_gstin && n.debit_note_no).map(bookNote), inPeriod, (b) => b.debitNoteId);
    // A supplier's debit note (D) raises what was bought; Bahi records none, so it is missing in the books.
    notes.missing_in_books.push(...portalNotes.filter((n) => n.note_type === 'D'));
    return { period: p, uploaded: invoices !== null, ...m, notes };
  }
}
