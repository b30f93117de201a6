import type { Schema, SchemaDefinition } from 'mongoose';

export type SagaStatus = 'pending' | 'compensating' | 'complete' | 'failed';

/** What every saga record (a sale, a purchase) carries besides its own fields. */
export interface SagaRecord {
  companyId: number;
  status: SagaStatus;
  /** Unique per company while pending or complete; moved to failedKey when the record fails. */
  idempotencyKey?: string;
  failedKey?: string;
  /** Whoever holds the lease drives the record; an expired lease lets another attempt or the re-driver take over. */
  lockedUntil: Date;
  /** The runner holding the lease (`<pid>@<host>#<runner>`): a replica on the same host can tell it died. */
  owner?: string;
  /** Progress markers of the cross-service steps: the re-driver finishes a record whose ledger entry is posted. */
  stockApplied: boolean;
  ledgerPosted: boolean;
  warnings: string[];
  error?: string;
}

/** The schema fields of a SagaRecord, to spread into the record's own schema definition. */
export const sagaFields: SchemaDefinition = {
  status: { type: String, required: true },
  idempotencyKey: { type: String },
  failedKey: { type: String },
  lockedUntil: { type: Date, required: true },
  owner: { type: String },
  stockApplied: { type: Boolean, default: false },
  ledgerPosted: { type: Boolean, default: false },
  warnings: { type: [String], default: [] },
  error: { type: String },
};

/** The unique per-company id, the idempotency key (only while it is set) and the re-driver's scan. */
export function indexSaga(schema: Schema, idField: string): void {
  schema.index({ companyId: 1, [idField]: 1 }, { unique: true });
  schema.index({ companyId: 1, idempotencyKey: 1 }, { unique: true, partialFilterExpression: { idempotencyKey: { $type: 'string' } } });
  schema.index({ status: 1, lockedUntil: 1 });
}

/**
 * The frozen money summary of a bill (sale or purchase): amounts are exact decimal strings,
 * `previousDue` is the party's due before this record (frozen for the bill).
 */
export interface BillSummary {
  date: string;
  dueDate: string;
  paid: string;
  tax: 0 | 1;
  shipping: string;
  discount: string;
  subtotal: string;
  taxAmount: string;
  previousDue: string;
  createdBy: number;
  createdAt?: Date;
}

/** The schema fields of a BillSummary. */
export const billSummaryFields: SchemaDefinition = {
  date: { type: String, required: true },
  dueDate: { type: String, required: true },
  paid: { type: String, required: true },
  tax: { type: Number, default: 0 },
  shipping: { type: String, default: '0' },
  discount: { type: String, default: '0' },
  subtotal: { type: String, required: true },
  taxAmount: { type: String, required: true },
  previousDue: { type: String, default: '0' },
  createdBy: { type: Number, default: 0 },
};
