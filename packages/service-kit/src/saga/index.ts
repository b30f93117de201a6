export { Outbox, leaseMs, REDRIVE_EVERY_MS, type OutboxOptions } from './outbox';
export { faultPoint } from './fault-point';
export { billSummaryFields, type BillSummary, indexOutbox, outboxFields, type OutboxRecord, type OutboxStatus } from './schema';
