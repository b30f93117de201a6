import { Schema } from 'mongoose';
import type { PaymentLine, PurchaseGst } from '@bahi/contracts';
import { billSummaryFields, indexSaga, sagaFields, type BillSummary, type SagaRecord } from '@bahi/service-kit';
import type { ReturnHold } from './debit-note.figures';
import type { PurchaseTaxMode } from './purchase-gst';

export const PURCHASE_MODEL = 'Purchase';

/** A purchased line, frozen at purchase time; amounts are exact decimal strings. */
export interface PurchaseLineDoc {
  sl_no: number;
  product_id: number;
  product_name: string;
  brand_name: string;
  unit: string;
  quantity: string;
  per_peice_quantity: string;
  /** The product's cost price (cp) at purchase time, per unit. */
  rate: string;
  /** The cart line's per-unit discount. */
  disc: string;
  /** (rate - disc) x quantity x per_peice_quantity */
  amount: string;
  /** quantity x per_peice_quantity: what came into stock. */
  units: string;
  /** The product's GST rate (percent) and HSN code at purchase time (absent on purchases made before GST mode). */
  gst_rate?: string;
  hsn_code?: string;
}

/** A purchase: a saga record (status, lease, idempotency key, step markers) with its frozen bill; previousDue is the distributor's. */
export interface PurchaseDoc extends SagaRecord, BillSummary {
  purchaseId: number;
  source: { kind: 'cart' | 'estimate'; userId: number; cart_no: number; estimateId: number; version: number; sl_nos: number[] };
  bill_no: string;
  /** The distributor's bill date as typed at the checkout (issue 32); absent when not typed. */
  bill_date?: string;
  /** How paid was tendered (issue 28); absent on purchases before modes: cash. */
  payments?: PaymentLine[];
  distributorId: number;
  distributorName: string;
  officer: { id: number; name: string } | null;
  lines: PurchaseLineDoc[];
  total: string;
  /** The company's mode at purchase time; absent on older purchases (simple). */
  taxMode?: PurchaseTaxMode;
  /** GST mode: the distributor's GSTIN/state frozen and the input tax; null otherwise. */
  gst?: PurchaseGst | null;
  /** Returns holding quantities of its lines (pending or complete debit notes); a failed one is pulled. */
  returnHolds?: ReturnHold[];
  /** Bumped by every change of returnHolds: a reservation is a conditional update on it. */
  returnsVersion?: number;
}

export const PurchaseSchema = new Schema<PurchaseDoc>(
  {
    companyId: { type: Number, required: true },
    purchaseId: { type: Number, required: true },
    ...sagaFields,
    ...billSummaryFields,
    source: { type: Object, required: true },
    bill_no: { type: String, required: true },
    bill_date: { type: String, default: undefined },
    payments: { type: Array, default: undefined },
    distributorId: { type: Number, required: true },
    distributorName: { type: String, required: true },
    officer: { type: Object, default: null },
    lines: { type: [Object], default: [] },
    total: { type: String, required: true },
    taxMode: { type: String, default: 'simple' },
    gst: { type: Object, default: null },
    returnHolds: { type: [Object], default: undefined },
    returnsVersion: { type: Number, default: 0 },
  },
  { collection: 'purchases', timestamps: true },
);
indexSaga(PurchaseSchema, 'purchaseId');
PurchaseSchema.index({ companyId: 1, status: 1, purchaseId: -1 });
// inventory.gst.inward: a company's complete purchases in a date range.
PurchaseSchema.index({ companyId: 1, status: 1, date: 1 });
