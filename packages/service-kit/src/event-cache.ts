import type { NatsConnection, Subscription } from 'nats';
import { decodeEvent } from '@bahi/auth';

export interface EventCacheOptions<K, V, E> {
  /** Loads the value of a key (e.g. a NATS request to the owning service). */
  load(key: K): Promise<V>;
  /** Event subject whose events drop entries (every replica hears each: a plain subscription). */
  subscribe?: string;
  /** The key an event is about; undefined drops nothing. */
  keyOf?(event: E): K | undefined;
  /** Safety net for a lost event: an entry older than this is loaded again. */
  ttlMs: number;
  /** Clock, epoch ms (tests). */
  now?: () => number;
  log?: (msg: string) => void;
}

/**
 * A per-key cache of another service's data, kept current by its "changed" events (a plain
 * subscription, not a queue group, so every replica drops its copy) and a TTL for an event lost
 * while disconnected. Concurrent misses of one key share one load; a failed load is not kept.
 * When a reload after the TTL fails (the owner is down), the last value is served until it
 * answers again: no event said it changed. A dropped entry is never served again.
 */
export class EventCache<K, V, E = unknown> {
  private readonly entries = new Map<K, { at: number; value: Promise<V>; last?: V }>();
  private sub?: Subscription;
  private readonly now: () => number;

  constructor(private readonly o: EventCacheOptions<K, V, E>) {
    this.now = o.now ?? Date.now;
  }

  /** Subscribes to the drop events on `nc`; a reconnect drops everything (events may have been missed). */
  start(nc: NatsConnection): void {
    if (!this.o.subscribe || this.sub) return;
    this.sub = nc.subscribe(this.o.subscribe, {
      callback: (err, msg) => {
        if (err) return this.o.log?.(`${this.o.subscribe} subscription error: ${err.message}`);
        try {
          const key = this.o.keyOf?.(decodeEvent<E>(msg.data));
          if (key !== undefined) this.drop(key);
        } catch (e) {
          this.o.log?.(`bad ${this.o.subscribe} event: ${(e as Error).message}`);
        }
      },
    });
    void (async () => {
      for await (const s of nc.status()) if (s.type === 'reconnect') this.clear();
    })().catch(() => undefined);
  }

  stop(): void {
    this.sub?.unsubscribe();
    this.sub = undefined;
  }

  get(key: K): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < this.o.ttlMs) return hit.value;
    const stale = hit?.last;
    const entry: { at: number; value: Promise<V>; last?: V } = { at: this.now(), value: Promise.resolve(undefined as V), last: stale };
    entry.value = this.o.load(key).then(
      (v) => {
        entry.last = v;
        return v;
      },
      (err: unknown) => {
        if (stale !== undefined) {
          // Ask again on the next call, meanwhile serve what we had.
          entry.at = -Infinity;
          return stale;
        }
        // A failed load is forgotten, so the next call asks again.
        if (this.entries.get(key) === entry) this.entries.delete(key);
        throw err;
      },
    );
    this.entries.set(key, entry);
    return entry.value;
  }

  drop(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
