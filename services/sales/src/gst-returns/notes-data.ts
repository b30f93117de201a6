import type { Model, PipelineStage } from 'mongoose';
import type { CreditLineGst, CreditNoteDoc, StoredNoteGst } from '../returns/schema';
import type { ReturnPeriod } from './period';

/** What the returns read of a credit note: its number, value, GST block and the lines' GST figures. */
export interface ReturnNote {
  creditNoteId: number;
  saleId: number;
  credit_note_no: string;
  serial: number;
  date: string;
  amount: string;
  gst: StoredNoteGst;
  lines: { sl_no: number; product_name: string; hsn_code: string; unit: string; quantity: string; per_peice_quantity: string; gst: CreditLineGst | null }[];
}

const PROJECTION = {
  _id: 0,
  creditNoteId: 1,
  saleId: 1,
  credit_note_no: 1,
  serial: 1,
  date: 1,
  amount: 1,
  gst: 1,
  'lines.sl_no': 1,
  'lines.product_name': 1,
  'lines.hsn_code': 1,
  'lines.unit': 1,
  'lines.quantity': 1,
  'lines.per_peice_quantity': 1,
  'lines.gst': 1,
} as const;

/**
 * The month's complete GST-mode credit notes, one day's exact lookup of
 * {companyId, status, fy, date} after another (as the invoices are read), in number order.
 * Simple-mode notes (no GST block) and a composition dealer's notes are not GSTR-1/3B documents.
 */
export async function* monthNotes(model: Model<CreditNoteDoc>, companyId: number, p: ReturnPeriod): AsyncIterable<ReturnNote> {
  for (const day of p.days) {
    const pipeline: PipelineStage[] = [{ $match: { companyId, status: 'complete', fy: p.fy, date: day } }, { $sort: { serial: 1 } }, { $project: PROJECTION }];
    for await (const n of model.aggregate<ReturnNote>(pipeline).cursor({ batchSize: 1000 })) {
      if (n.gst?.tax_mode !== 'gst') continue;
      yield n;
    }
  }
}
