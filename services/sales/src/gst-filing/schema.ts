import { Schema } from 'mongoose';

export const FilingModels = {
  FiledPeriod: 'FiledPeriod',
  FiledChunk: 'FiledChunk',
  Amendment: 'Amendment',
} as const;

/** A return marked filed: its dates are closed to new documents and its export is kept as filed. */
export interface FiledPeriodDoc {
  companyId: number;
  /** '2026-10' or '2026-27-Q3'. */
  period: string;
  kind: 'gstr1' | 'iff';
  /** First and last dates the return covers (YYYY-MM-DD, IST calendar). */
  from: string;
  to: string;
  fp: string;
  arn: string;
  filedAt: Date;
  filedBy: number;
  /** The chunks of the exported JSON, written before this record (filing_chunks.filingId). */
  filingId: string;
  bytes: number;
  sha256: string;
}

export const FiledPeriodSchema = new Schema<FiledPeriodDoc>(
  {
    companyId: { type: Number, required: true },
    period: { type: String, required: true },
    kind: { type: String, required: true },
    from: { type: String, required: true },
    to: { type: String, required: true },
    fp: { type: String, required: true },
    arn: { type: String, required: true },
    filedAt: { type: Date, required: true },
    filedBy: { type: Number, required: true },
    filingId: { type: String, required: true },
    bytes: { type: Number, required: true },
    sha256: { type: String, required: true },
  },
  { collection: 'filed_periods', versionKey: false },
);
// One filing per period: two managers filing at once race through this index.
FiledPeriodSchema.index({ companyId: 1, period: 1 }, { unique: true });
// "Is this date in a filed period?" (checkout of a back-dated sale, a cancellation).
FiledPeriodSchema.index({ companyId: 1, from: 1 });

/** The exported JSON in pieces below MongoDB's 16 MB document limit (a big quarter's b2b can exceed it). */
export interface FiledChunkDoc {
  companyId: number;
  filingId: string;
  n: number;
  data: Buffer;
}
export const FiledChunkSchema = new Schema<FiledChunkDoc>(
  {
    companyId: { type: Number, required: true },
    filingId: { type: String, required: true },
    n: { type: Number, required: true },
    data: { type: Buffer, required: true },
  },
  { collection: 'filing_chunks', versionKey: false },
);
FiledChunkSchema.index({ companyId: 1, filingId: 1, n: 1 }, { unique: true });

/** b2ba (an invoice to a registered buyer) or cdnra (a credit note to one), Form GSTR-1 Tables 9A and 9C. */
export interface AmendmentDoc {
  companyId: number;
  amendmentId: number;
  kind: 'b2ba' | 'cdnra';
  original_no: string;
  /** The original's date and the period it was filed in. */
  original_date: string;
  original_period: string;
  /** What was asked, as given (validated). */
  changes: { gstin?: string; date?: string; items?: { rate: number; txval: string }[] };
  /** The period whose GSTR-1 reports it: the first period after the original's not filed when it was recorded. */
  report_in: string;
  /** The row as the section writes it (b2ba: the invoice with oinum/oidt; cdnra: the note with ont_num/ont_dt), under its ctin. */
  ctin: string;
  row: Record<string, unknown>;
  createdAt: Date;
  createdBy: number;
}
export const AmendmentSchema = new Schema<AmendmentDoc>(
  {
    companyId: { type: Number, required: true },
    amendmentId: { type: Number, required: true },
    kind: { type: String, required: true },
    original_no: { type: String, required: true },
    original_date: { type: String, required: true },
    original_period: { type: String, required: true },
    changes: { type: Object, required: true },
    report_in: { type: String, required: true },
    ctin: { type: String, required: true },
    row: { type: Object, required: true },
    createdAt: { type: Date, required: true },
    createdBy: { type: Number, required: true },
  },
  { collection: 'gst_amendments', versionKey: false, minimize: false },
);
// One amendment of a document per return: a second one for the same return is refused.
AmendmentSchema.index({ companyId: 1, kind: 1, original_no: 1, report_in: 1 }, { unique: true });
AmendmentSchema.index({ companyId: 1, report_in: 1, amendmentId: 1 });
