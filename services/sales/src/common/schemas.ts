import { Schema } from 'mongoose';
import { billSummaryFields, indexSaga, sagaFields, type BillSummary, type SagaRecord } from '@bahi/service-kit';
import type { CompanyTaxMode, PaymentLine, SaleApproval, SaleGst } from '@bahi/contracts';
import type { DiscountApproval, StoredLine } from './totals';

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
    gst_rate: { type: String },
    gst_rates: { type: [Object], default: undefined },
    price_includes_tax: { type: Boolean },
    supply_type: { type: String },
    cp: { type: String },
    approval: { type: Object },
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
  /** The manager's approval of a staff member's summary discount (issue 28); null when none was needed. */
  summary_approval?: DiscountApproval | null;
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
    summary_approval: { type: Object, default: null },
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
    summary_approval: { type: Object, default: null },
    version: { type: Number, default: 0 },
  },
  { collection: 'estimates', timestamps: true },
);
EstimateSchema.index({ companyId: 1, estimateId: 1 }, { unique: true });

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
  /** GST: the customer's GSTIN (B2B) and state code, as ledger had them at the sale. */
  gstin?: string | null;
  state_code?: string | null;
}

/** A sale: a saga record (status, lease, idempotency key, step markers) with its frozen bill; previousDue is the customer's. */
export interface SaleDoc extends SagaRecord, BillSummary {
  saleId: number;
  source: { kind: 'cart' | 'estimate'; userId: number; cart_no: number; estimateId: number; version: number };
  clientId: number;
  customer: CustomerSnap;
  lines: StoredLine[];
  /** This sale's total: in GST mode the invoice value (the previous due is never inside it). */
  amount: string;
  /** The company's mode at the sale; absent on sales made before GST mode (simple). */
  tax_mode?: CompanyTaxMode;
  /** GST mode: the frozen tax invoice (numbered in the Saga's finish step); null in simple mode. */
  gst?: SaleGst | null;
  /** The company's invoice prefix at checkout: the number given in the finish step uses it. */
  invoicePrefix?: string;
  /** How `paid` was tendered (service-kit parsePayments); absent on sales before modes: cash. */
  payments?: PaymentLine[];
  /** Discounts a manager approved by PIN (issue 28); absent when none. */
  approvals?: SaleApproval[];
  /** The e-way bill recorded by PUT /ewaybill/{saleId} (issue 31); absent until then. */
  ewaybill?: { ewb_no: string; valid_until: string } | null;
}
export const SaleSchema = new Schema<SaleDoc>(
  {
    companyId: { type: Number, required: true },
    saleId: { type: Number, required: true },
    ...sagaFields,
    ...billSummaryFields,
    source: { type: Object, required: true },
    clientId: { type: Number, required: true },
    customer: { type: Object, required: true },
    lines: { type: [LineSchema], default: [] },
    amount: { type: String, required: true },
    tax_mode: { type: String, default: 'simple' },
    gst: { type: Object, default: null },
    invoicePrefix: { type: String },
    payments: { type: Array, default: undefined },
    approvals: { type: Array, default: undefined },
    ewaybill: { type: Object, default: undefined },
  },
  { collection: 'sales', timestamps: true },
);
indexSaga(SaleSchema, 'saleId');
// The sales list: count and newest-first page of a company's completed sales, from one index.
SaleSchema.index({ companyId: 1, status: 1, saleId: -1 });
// GST returns (gst-returns/): a month's tax invoices, and its b2b ones in buyer-GSTIN order.
SaleSchema.index({ companyId: 1, status: 1, 'gst.fy': 1, 'gst.invoice_date': 1 });
SaleSchema.index({ companyId: 1, status: 1, 'gst.fy': 1, 'gst.b2b': 1, 'gst.recipient.gstin': 1, 'gst.serial': 1 });
// Invoice numbers: one sale per serial of a company's financial year (serial 0 = not numbered
// yet); also the index the next serial (the year's highest) is read from.
SaleSchema.index({ companyId: 1, 'gst.fy': 1, 'gst.serial': 1 }, { unique: true, partialFilterExpression: { 'gst.serial': { $gt: 0 } } });

export interface DeliveryDoc {
  companyId: number;
  id: number;
  sale_id: number;
  transporter_name: string;
  transporter_mobile: string;
  mode_of_transport: string;
  vehicle_number: string;
  dispatched_date: string;
  /** E-way bill fields (issue 31; contracts Delivery), absent until given. */
  transport_mode?: 'road' | 'rail' | 'air' | 'ship' | null;
  vehicle_type?: 'regular' | 'odc' | null;
  distance_km?: number | null;
  transporter_id?: string | null;
  transporter_doc_no?: string | null;
  transporter_doc_date?: string | null;
  ship_to_pincode?: string | null;
  ship_to_state?: string | null;
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
    transport_mode: { type: String },
    vehicle_type: { type: String },
    distance_km: { type: Number },
    transporter_id: { type: String },
    transporter_doc_no: { type: String },
    transporter_doc_date: { type: String },
    ship_to_pincode: { type: String },
    ship_to_state: { type: String },
  },
  { collection: 'deliveries', timestamps: true },
);
DeliverySchema.index({ companyId: 1, sale_id: 1 }, { unique: true });

export const Models = { Cart: 'Cart', Estimate: 'Estimate', Sale: 'Sale', Delivery: 'Delivery' } as const;
