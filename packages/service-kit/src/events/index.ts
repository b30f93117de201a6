export { EventRelay, EVENT_PENDING_FIELD, EVENT_FLAG_FIELD, RELAY_COMMENT, pendingEvent, pendingEventFields, eventSweepMs, eventKickDelayMs, streamReplicas, type CommittedRecord, type EventSource, type EventRelayOptions } from './relay';
export { istDate, dec, decOrNull } from './payload';
export { RelayService, historyHandlers } from './nest';
