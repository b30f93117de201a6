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
  'gst.tax_mode': 1,
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
 * A company's complete sales dated in the month (the IST date frozen at the sale), in index
 * fields only: companyId, status, the financial year (the invoice series) and the month's dates
 * as $in, so both MongoDB and the embedded server look the month up exactly in
 * {companyId, status, gst.fy, gst.invoice_date} instead of testing the whole year's sales.
 */
export function monthFilter(companyId: number, p: ReturnPeriod, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { companyId, status: 'complete', 'gst.fy': p.fy, 'gst.invoice_date': { $in: p.days }, ...extra };
}

/**
 * All the month's sales, one day's lookup after another: each query is an exact key of
 * {companyId, status, gst.fy, gst.invoice_date}, so no query builds the whole month's result at
 * once. Kept for the embedded server: one query sorted by date (monthFilter, a bounded index
 * walk) cost it 8.5 s of CPU against 3.2 s day by day for GSTR-1 of 100,000 invoices (2026-11-28).
 */
export async function* monthByDay(model: Model<SaleDoc>, companyId: number, p: ReturnPeriod, extra: Record<string, unknown> = {}): AsyncIterable<ReturnSale> {
  for (const day of p.days) {
    yield* saleCursor(model, { companyId, status: 'complete', 'gst.fy': p.fy, 'gst.invoice_date': day, ...extra });
  }
}

/**
 * The month's GSTR-1/3B documents: a gst-mode company's invoices (a bill of only nil, exempt or
 * non-GST lines too: it is reported in Tables 8 and 13); a composition dealer's bills of supply
 * are not (CMP-08, GSTR-4), and a cancelled invoice counts only in doc_issue. Checked here rather
 * than in the filter, which the embedded server would otherwise evaluate per document.
 */
export async function* invoices(source: AsyncIterable<ReturnSale>, opts: { withCancelled?: boolean } = {}): AsyncIterable<ReturnSale> {
  for await (const s of source) {
    if (!s.gst || (s.gst.tax_mode ? s.gst.tax_mode !== 'gst' : s.gst.document !== 'tax-invoice')) continue;
    if (s.cancelled && !opts.withCancelled) continue;
    yield s;
  }
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
