import { Schema } from 'mongoose';
import { indexSaga, sagaFields, type SagaRecord } from '@bahi/service-kit';
import type { CompanyTaxMode, PaymentLine } from '@bahi/contracts';
import type { CustomerSnap, SaleDoc } from '../common/schemas';

/** The GST figures of one credited line (strings, exact to the paisa); null in simple mode. */
export interface CreditLineGst {
  /** Percent, as on the sale's line ('18'). */
  gst_rate: string;
  /** Taxable value credited (the line's part, its share of the summary discount; shipping only on the note completing the bill). */
  taxable_value: string;
  cgst: string;
  sgst: string;
  igst: string;
}

/** One credited line. Amounts are decimal strings. */
export interface CreditLine {
  sl_no: number;
  product_id: number;
  product_name: string;
  hsn_code: string;
  unit: string;
  /** The sale's mrp and line discount per unit. */
  mrp: string;
  discount: string;
  /** Packs returned (0 on a line credited only for its shipping share by the note completing the bill). */
  quantity: string;
  per_peice_quantity: string;
  /** (mrp - discount) x units returned: before the summary discount share and tax. */
  amount: string;
  /** Its share of the bill's summary discount. */
  summary_discount: string;
  /** Simple mode: its part of the bill's 18 % tax ('0' without the flag and in GST mode). */
  tax: string;
  /** What the line credits: amount - summary_discount + tax (simple), taxable + tax (GST). */
  value: string;
  gst: CreditLineGst | null;
}

/** GST part of a credit note (strings); null in simple mode. CGST Rule 53(1A) particulars. */
export interface StoredNoteGst {
  tax_mode: Exclude<CompanyTaxMode, 'simple'>;
  /** The original invoice number and date. */
  invoice_no: string;
  invoice_date: string;
  /** The recipient's GSTIN (null: unregistered), place of supply (state code and name). */
  gstin: string | null;
  recipient_name: string;
  place_of_supply: string;
  place_of_supply_name: string;
  inter_state: boolean;
  state_tax_name: 'SGST' | 'UTGST';
  taxable_total: string;
  cgst_total: string;
  sgst_total: string;
  igst_total: string;
  tax_total: string;
  /** amount - (taxable + tax): the invoice's round off, on the note completing the bill; else '0'. */
  round_off: string;
}

/**
 * A credit note (sales return): a saga record like a sale. Numbered CN/YY-YY/NNNN at the
 * point of no return (serial 0 and credit_note_no '' until then; failed notes never have one).
 * Only `status: 'complete'` notes are credit notes.
 */
export interface CreditNoteDoc extends SagaRecord {
  creditNoteId: number;
  saleId: number;
  /** Financial year label of the note's date ('26-27'), its serial and number. */
  fy: string;
  serial: number;
  credit_note_no: string;
  /** YYYY-MM-DD (IST): the note's date; the sale's date. */
  date: string;
  sale_date: string;
  reason: string;
  clientId: number;
  customer: CustomerSnap;
  lines: CreditLine[];
  /** Sums of the lines' amount, summary_discount, tax. */
  subtotal: string;
  discount: string;
  tax: string;
  /** The bill's shipping, credited only by the note that brings the whole bill back. */
  shipping: string;
  /** The note's value: the customer's due goes down by it. */
  amount: string;
  /** Money paid back to the customer now (0 .. amount). */
  refund: string;
  /** How the refund was paid out (issue 28); absent on notes before modes: cash. */
  payments?: PaymentLine[];
  /** Whether this note brought the whole bill back. */
  completesBill: boolean;
  tax_mode: CompanyTaxMode;
  gst: StoredNoteGst | null;
  /** The sale's returnsVersion this note was computed from (optimistic check when it reserves). */
  saleVersion: number;
  createdBy: number;
}

export const CreditNoteSchema = new Schema<CreditNoteDoc>(
  {
    companyId: { type: Number, required: true },
    creditNoteId: { type: Number, required: true },
    ...sagaFields,
    saleId: { type: Number, required: true },
    fy: { type: String, required: true },
    serial: { type: Number, default: 0 },
    credit_note_no: { type: String, default: '' },
    date: { type: String, required: true },
    sale_date: { type: String, required: true },
    reason: { type: String, default: '' },
    clientId: { type: Number, required: true },
    customer: { type: Object, required: true },
    lines: { type: [Object], default: [] },
    subtotal: { type: String, required: true },
    discount: { type: String, required: true },
    tax: { type: String, required: true },
    shipping: { type: String, required: true },
    amount: { type: String, required: true },
    refund: { type: String, required: true },
    payments: { type: Array, default: undefined },
    completesBill: { type: Boolean, default: false },
    tax_mode: { type: String, default: 'simple' },
    gst: { type: Object, default: null },
    saleVersion: { type: Number, default: 0 },
    createdBy: { type: Number, default: 0 },
  },
  { collection: 'credit_notes', timestamps: true },
);
indexSaga(CreditNoteSchema, 'creditNoteId');
// The list (newest first) and a sale's notes.
CreditNoteSchema.index({ companyId: 1, status: 1, creditNoteId: -1 });
CreditNoteSchema.index({ companyId: 1, saleId: 1 });
// GSTR-1 cdnr/cdnur: a month's notes.
CreditNoteSchema.index({ companyId: 1, status: 1, fy: 1, date: 1 });
// CN numbers: one note per serial of a company's financial year; the next serial is read here.
CreditNoteSchema.index({ companyId: 1, fy: 1, serial: 1 }, { unique: true, partialFilterExpression: { serial: { $gt: 0 } } });

/** Per bill line, what complete credit notes took so far (strings; GST fields '0' in simple mode). */
export interface ReturnedLine {
  sl_no: number;
  /** Packs returned. */
  quantity: string;
  amount: string;
  summary_discount: string;
  tax: string;
  value: string;
  taxable_value: string;
  cgst: string;
  sgst: string;
  igst: string;
}

/**
 * What returns and cancelling add to a stored sale (fields written through the driver; absent on
 * older sales). `busy` is the reservation: one return or cancellation of a bill at a time.
 */
export interface SaleReturnFields {
  /** Bumped by every completed credit note of the sale (optimistic check for the next one). */
  returnsVersion?: number;
  returned?: ReturnedLine[];
  /** Complete credit notes of the sale, oldest first. */
  creditNotes?: { creditNoteId: number; credit_note_no: string; date: string; amount: string; refund: string }[];
  /** A return or a cancellation in progress (its record's id); null otherwise. */
  busy?: { kind: 'return' | 'cancel'; id: number } | null;
  /** Set when the bill was cancelled (GSTR-1 counts it in doc_issue only). */
  cancelled?: { date: string; reason: string; by: number } | null;
}
export type ReturnableSale = SaleDoc & SaleReturnFields;

/** Cancelling a bill: a saga record of its own, keyed `cancel:<saleId>` (a double click cancels once). */
export interface SaleCancelDoc extends SagaRecord {
  cancelId: number;
  saleId: number;
  date: string;
  reason: string;
  createdBy: number;
  /** The invoice number the sale keeps (GST mode), for the answer. */
  invoice_no?: string | null;
  /** Whether the ledger refused (409) the cancel entry: then there is nothing to reverse there. */
  ledgerRefused?: boolean;
  ledgerTried?: boolean;
}
export const SaleCancelSchema = new Schema<SaleCancelDoc>(
  {
    companyId: { type: Number, required: true },
    cancelId: { type: Number, required: true },
    ...sagaFields,
    saleId: { type: Number, required: true },
    date: { type: String, required: true },
    reason: { type: String, required: true },
    createdBy: { type: Number, default: 0 },
    invoice_no: { type: String, default: null },
    ledgerRefused: { type: Boolean, default: false },
    ledgerTried: { type: Boolean, default: false },
  },
  { collection: 'sale_cancels', timestamps: true },
);
indexSaga(SaleCancelSchema, 'cancelId');

export const ReturnModels = { CreditNote: 'CreditNote', SaleCancel: 'SaleCancel' } as const;
