import { Schema } from 'mongoose';
import type { PortalInvoice, PortalNote } from './gstr2b';

export const GSTR2B_MODEL = 'Gstr2b';

/** The last GSTR-2B uploaded for a company's month (an upload replaces it). */
export interface Gstr2bDoc {
  companyId: number;
  /** YYYY-MM */
  period: string;
  invoices: PortalInvoice[];
  /** cdnr and cdnra (absent on uploads before notes were read: none). */
  notes?: PortalNote[];
  uploadedBy: number;
}
export const Gstr2bSchema = new Schema<Gstr2bDoc>(
  {
    companyId: { type: Number, required: true },
    period: { type: String, required: true },
    invoices: { type: [Object], default: [] },
    notes: { type: [Object], default: [] },
    uploadedBy: { type: Number, default: 0 },
  },
  { collection: 'gstr2b', timestamps: true },
);
Gstr2bSchema.index({ companyId: 1, period: 1 }, { unique: true });
