import { Schema } from 'mongoose';
import type { PaymentLine } from '@bahi/contracts';
import { indexSaga, sagaFields, type SagaRecord } from '@bahi/service-kit';
import type { NoteLineFigures } from './debit-note.figures';

export const DEBIT_NOTE_MODEL = 'DebitNote';

/** A returned line: the purchase line's frozen product fields with what this note debits for it. */
export interface DebitNoteLineDoc extends NoteLineFigures {
  product_id: number;
  product_name: string;
  hsn_code: string;
  unit: string;
  per_peice_quantity: string;
  rate: string;
  disc: string;
  /** Stock cost per unit the goods leave at (the purchase's). */
  cost: string;
  gst_rate: string | null;
}

/**
 * A purchase return (debit note; for GST the goods returned of CGST Act s.34(1)): a saga record like a purchase. Figures are
 * exact decimal strings frozen when the returned quantities were reserved on the purchase;
 * `serial`/`debit_note_no` are 0/'' until the point of no return (numbered with `ledgerPosted`).
 */
export interface DebitNoteDoc extends SagaRecord {
  debitNoteId: number;
  purchaseId: number;
  distributorId: number;
  distributorName: string;
  bill_no: string;
  purchase_date: string;
  date: string;
  reason: string;
  refund: string;
  /** How the refund came back (issue 28); absent on notes before modes: cash. */
  payments?: PaymentLine[];
  lines: DebitNoteLineDoc[];
  subtotal: string;
  discount: string;
  tax: string;
  shipping: string;
  taxable: string;
  cgst: string;
  sgst: string;
  igst: string;
  roundOff: string;
  amount: string;
  /** The purchase's tax mode and its frozen GST part (null in simple mode). */
  taxMode: string;
  gst: {
    distributor_gstin: string | null;
    distributor_state_code: string | null;
    distributor_state_name: string | null;
    company_state_code: string;
    inter_state: boolean;
    state_tax_name: 'SGST' | 'UTGST';
  } | null;
  fy: string;
  serial: number;
  debit_note_no: string;
  createdBy: number;
  createdAt?: Date;
}

export const DebitNoteSchema = new Schema<DebitNoteDoc>(
  {
    companyId: { type: Number, required: true },
    debitNoteId: { type: Number, required: true },
    ...sagaFields,
    purchaseId: { type: Number, required: true },
    distributorId: { type: Number, required: true },
    distributorName: { type: String, required: true },
    bill_no: { type: String, default: '' },
    purchase_date: { type: String, required: true },
    date: { type: String, required: true },
    reason: { type: String, default: '' },
    refund: { type: String, required: true },
    payments: { type: Array, default: undefined },
    lines: { type: [Object], default: [] },
    subtotal: { type: String, required: true },
    discount: { type: String, required: true },
    tax: { type: String, required: true },
    shipping: { type: String, required: true },
    taxable: { type: String, required: true },
    cgst: { type: String, required: true },
    sgst: { type: String, required: true },
    igst: { type: String, required: true },
    roundOff: { type: String, default: '0.00' },
    amount: { type: String, required: true },
    taxMode: { type: String, default: 'simple' },
    gst: { type: Object, default: null },
    fy: { type: String, required: true },
    serial: { type: Number, default: 0 },
    debit_note_no: { type: String, default: '' },
    createdBy: { type: Number, default: 0 },
  },
  { collection: 'debit_notes', timestamps: true },
);
indexSaga(DebitNoteSchema, 'debitNoteId');
// The gapless DN/YY-YY/NNNN series (service-kit DocumentSeries): one serial per company and year.
DebitNoteSchema.index({ companyId: 1, fy: 1, serial: 1 }, { unique: true, partialFilterExpression: { serial: { $gt: 0 } } });
// The list (newest first), a purchase's notes and GSTR-3B's range.
DebitNoteSchema.index({ companyId: 1, status: 1, debitNoteId: -1 });
DebitNoteSchema.index({ companyId: 1, purchaseId: 1 });
DebitNoteSchema.index({ companyId: 1, status: 1, date: 1 });
