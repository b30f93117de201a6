import { Schema } from 'mongoose';

export const PURCHASE_MODEL = 'Purchase';

export type PurchaseStatus = 'pending' | 'compensating' | 'complete' | 'failed';

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
}

export interface PurchaseDoc {
  companyId: number;
  purchaseId: number;
  status: PurchaseStatus;
  /** Unique per company while pending or complete; moved to failedKey when the purchase fails. */
  idempotencyKey?: string;
  failedKey?: string;
  /** Whoever holds the lease drives the purchase; an expired lease lets the re-driver take over. */
  lockedUntil: Date;
  source: { kind: 'cart' | 'estimate'; userId: number; cart_no: number; estimateId: number; version: number; sl_nos: number[] };
  bill_no: string;
  distributorId: number;
  distributorName: string;
  officer: { id: number; name: string } | null;
  date: string;
  dueDate: string;
  paid: string;
  lines: PurchaseLineDoc[];
  tax: 0 | 1;
  shipping: string;
  discount: string;
  subtotal: string;
  taxAmount: string;
  total: string;
  /** The distributor's due before this purchase (frozen for the detail page). */
  previousDue: string;
  stockApplied: boolean;
  ledgerPosted: boolean;
  warnings: string[];
  error?: string;
  createdBy: number;
  createdAt?: Date;
}

export const PurchaseSchema = new Schema<PurchaseDoc>(
  {
    companyId: { type: Number, required: true },
    purchaseId: { type: Number, required: true },
    status: { type: String, required: true },
    idempotencyKey: { type: String },
    failedKey: { type: String },
    lockedUntil: { type: Date, required: true },
    source: { type: Object, required: true },
    bill_no: { type: String, required: true },
    distributorId: { type: Number, required: true },
    distributorName: { type: String, required: true },
    officer: { type: Object, default: null },
    date: { type: String, required: true },
    dueDate: { type: String, required: true },
    paid: { type: String, required: true },
    lines: { type: [Object], default: [] },
    tax: { type: Number, default: 0 },
    shipping: { type: String, default: '0' },
    discount: { type: String, default: '0' },
    subtotal: { type: String, required: true },
    taxAmount: { type: String, required: true },
    total: { type: String, required: true },
    previousDue: { type: String, default: '0' },
    stockApplied: { type: Boolean, default: false },
    ledgerPosted: { type: Boolean, default: false },
    warnings: { type: [String], default: [] },
    error: { type: String },
    createdBy: { type: Number, default: 0 },
  },
  { collection: 'purchases', timestamps: true },
);
PurchaseSchema.index({ companyId: 1, purchaseId: 1 }, { unique: true });
PurchaseSchema.index({ companyId: 1, idempotencyKey: 1 }, { unique: true, partialFilterExpression: { idempotencyKey: { $type: 'string' } } });
PurchaseSchema.index({ companyId: 1, status: 1, purchaseId: -1 });
PurchaseSchema.index({ status: 1, lockedUntil: 1 });
