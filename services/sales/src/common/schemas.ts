import { Schema } from 'mongoose';
import type { StoredLine } from './totals';

/** Lines keep amounts as decimal strings (exact). */
export const LineSchema = new Schema<StoredLine>(
  {
    sl_no: { type: Number, required: true },
    product_id: { type: Number, required: true },
    product_name: { type: String, required: true },
    mrp: { type: String, required: true },
    unit: { type: String, default: '' },
    stock: { type: String, default: '0' },
    quantity: { type: String, required: true },
    per_peice_quantity: { type: String, default: '1' },
    discount: { type: String, default: '0' },
    hsn_code: { type: String, default: '' },
  },
  { _id: false },
);

/** Lines plus summary: what carts and estimates share. */
export interface LineDoc {
  companyId: number;
  lines: StoredLine[];
  tax: 0 | 1;
  shipping: string;
  discount: string;
  /** Optimistic concurrency: every write bumps it. */
  version: number;
}

export interface CartDoc extends LineDoc {
  userId: number;
  cart_no: number;
}
export const CartSchema = new Schema<CartDoc>(
  {
    companyId: { type: Number, required: true },
    userId: { type: Number, required: true },
    cart_no: { type: Number, required: true },
    lines: { type: [LineSchema], default: [] },
    tax: { type: Number, default: 0 },
    shipping: { type: String, default: '0' },
    discount: { type: String, default: '0' },
    version: { type: Number, default: 0 },
  },
  { collection: 'carts', timestamps: true },
);
CartSchema.index({ companyId: 1, userId: 1, cart_no: 1 }, { unique: true });

export interface EstimateDoc extends LineDoc {
  estimateId: number;
  clientId: number;
  /** Customer name at the last change, for the list. */
  clientName: string;
  date: string;
  createdBy: number;
}
export const EstimateSchema = new Schema<EstimateDoc>(
  {
    companyId: { type: Number, required: true },
    estimateId: { type: Number, required: true },
    clientId: { type: Number, default: 0 },
    clientName: { type: String, default: 'Unknown' },
    date: { type: String, required: true },
    createdBy: { type: Number, default: 0 },
    lines: { type: [LineSchema], default: [] },
    tax: { type: Number, default: 0 },
    shipping: { type: String, default: '0' },
    discount: { type: String, default: '0' },
    version: { type: Number, default: 0 },
  },
  { collection: 'estimates', timestamps: true },
);
EstimateSchema.index({ companyId: 1, estimateId: 1 }, { unique: true });

export type SaleStatus = 'pending' | 'compensating' | 'complete' | 'failed';

export interface CustomerSnap {
  client_id: number;
  name: string;
  mobile_no: string;
  address_line_1: string;
  address_line_2: string;
  city_or_district: string;
  state: string;
  country: string;
  postal_code: string;
  walkIn: boolean;
}

export interface SaleDoc {
  companyId: number;
  saleId: number;
  status: SaleStatus;
  /** Unique per company while the sale is pending or complete; moved to failedKey when it fails. */
  idempotencyKey?: string;
  failedKey?: string;
  /** Whoever holds the lease drives the sale; an expired lease lets the re-driver take over. */
  lockedUntil: Date;
  source: { kind: 'cart' | 'estimate'; userId: number; cart_no: number; estimateId: number; version: number };
  clientId: number;
  customer: CustomerSnap;
  date: string;
  dueDate: string;
  paid: string;
  lines: StoredLine[];
  tax: 0 | 1;
  shipping: string;
  discount: string;
  subtotal: string;
  taxAmount: string;
  /** This sale's total. */
  amount: string;
  /** The customer's due before this sale (frozen for the bill). */
  previousDue: string;
  stockApplied: boolean;
  ledgerPosted: boolean;
  warnings: string[];
  error?: string;
  createdBy: number;
  createdAt?: Date;
}
export const SaleSchema = new Schema<SaleDoc>(
  {
    companyId: { type: Number, required: true },
    saleId: { type: Number, required: true },
    status: { type: String, required: true },
    idempotencyKey: { type: String },
    failedKey: { type: String },
    lockedUntil: { type: Date, required: true },
    source: { type: Object, required: true },
    clientId: { type: Number, required: true },
    customer: { type: Object, required: true },
    date: { type: String, required: true },
    dueDate: { type: String, required: true },
    paid: { type: String, required: true },
    lines: { type: [LineSchema], default: [] },
    tax: { type: Number, default: 0 },
    shipping: { type: String, default: '0' },
    discount: { type: String, default: '0' },
    subtotal: { type: String, required: true },
    taxAmount: { type: String, required: true },
    amount: { type: String, required: true },
    previousDue: { type: String, default: '0' },
    stockApplied: { type: Boolean, default: false },
    ledgerPosted: { type: Boolean, default: false },
    warnings: { type: [String], default: [] },
    error: { type: String },
    createdBy: { type: Number, default: 0 },
  },
  { collection: 'sales', timestamps: true },
);
SaleSchema.index({ companyId: 1, saleId: 1 }, { unique: true });
SaleSchema.index({ companyId: 1, idempotencyKey: 1 }, { unique: true, partialFilterExpression: { idempotencyKey: { $type: 'string' } } });
SaleSchema.index({ status: 1, lockedUntil: 1 });

export interface DeliveryDoc {
  companyId: number;
  id: number;
  sale_id: number;
  transporter_name: string;
  transporter_mobile: string;
  mode_of_transport: string;
  vehicle_number: string;
  dispatched_date: string;
}
export const DeliverySchema = new Schema<DeliveryDoc>(
  {
    companyId: { type: Number, required: true },
    id: { type: Number, required: true },
    sale_id: { type: Number, required: true },
    transporter_name: { type: String, required: true },
    transporter_mobile: { type: String, required: true },
    mode_of_transport: { type: String, required: true },
    vehicle_number: { type: String, required: true },
    dispatched_date: { type: String, required: true },
  },
  { collection: 'deliveries', timestamps: true },
);
DeliverySchema.index({ companyId: 1, sale_id: 1 }, { unique: true });

export const Models = { Cart: 'Cart', Estimate: 'Estimate', Sale: 'Sale', Delivery: 'Delivery' } as const;
