export { EventRelay, EVENT_PENDING_FIELD, pendingEvent, eventSweepMs, type EventSource, type EventRelayOptions } from './relay';
export { istDate, dec, decOrNull } from './payload';
