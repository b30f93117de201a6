import type { Model, PipelineStage } from 'mongoose';
import type { SaleGst } from '@bahi/contracts';
import type { SaleDoc } from '../common/schemas';
import type { ReturnPeriod } from './period';

/** What the returns read of a sale: the frozen GST block, the line names (HSN description) and a cancellation flag. */
export interface ReturnSale {
  saleId: number;
  cancelled?: boolean;
  lines: { sl_no: number; product_name: string }[];
  gst: SaleGst;
}

const PROJECTION = {
  _id: 0,
  saleId: 1,
  cancelled: 1,
  'lines.sl_no': 1,
  'lines.product_name': 1,
  'gst.document': 1,
  'gst.invoice_no': 1,
  'gst.serial': 1,
  'gst.invoice_date': 1,
  'gst.b2b': 1,
  'gst.recipient.gstin': 1,
  'gst.recipient.name': 1,
  'gst.place_of_supply': 1,
  'gst.inter_state': 1,
  'gst.invoice_value': 1,
  'gst.lines': 1,
} as const;

const BATCH = 1000;

/**
 * A company's tax invoices dated in the month (the IST date frozen at the sale). Every query
 * starts with companyId, status and the financial year (the invoice series), matching the
 * returns' indexes in common/schemas.ts; bills of supply (composition) are not GSTR-1 documents.
 */
export function monthFilter(companyId: number, p: ReturnPeriod, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    companyId,
    status: 'complete',
    'gst.fy': p.fy,
    ...extra,
    'gst.invoice_date': { $gte: p.from, $lte: p.to },
    'gst.document': 'tax-invoice',
  };
}

/**
 * Streams matching sales, a batch at a time. An aggregation ($match, $sort, $project) rather than
 * a find with a projection: the embedded server reads both through the same indexes, and projects
 * in a pipeline stage at about half the cost of a find's projection (measured, 3,000 sales).
 */
export function saleCursor(model: Model<SaleDoc>, filter: Record<string, unknown>, sort?: Record<string, 1 | -1>): AsyncIterable<ReturnSale> {
  const pipeline: PipelineStage[] = [{ $match: filter }];
  if (sort) pipeline.push({ $sort: sort });
  pipeline.push({ $project: PROJECTION });
  return model.aggregate<ReturnSale>(pipeline).cursor({ batchSize: BATCH });
}
