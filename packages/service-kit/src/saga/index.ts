export { leaseMs, ownerGone, REDRIVE_EVERY_MS, Saga, type SagaOptions } from './saga';
export { faultPoint } from './fault-point';
export { billSummaryFields, type BillSummary, indexSaga, sagaFields, type SagaRecord, type SagaStatus } from './schema';
