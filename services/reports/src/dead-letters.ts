import type { Db } from 'mongodb';
import { BadEvent, toFact } from './events';
import type { Projector } from './projector';
import { C } from './store';

/** An event the projection could not take, kept to be looked at and replayed (`npm run reports:replay-dead`). */
export interface DeadLetter {
  _id: string;
  /** The payload as published (parsed), or its text when it is not JSON. */
  event: unknown;
  subject: string;
  error: string;
  at: Date;
  /** The stream and its sequence (null: from an owner's history page during a rebuild). */
  stream: string | null;
  stream_seq: number | null;
  /** The event's company when it names one (managers see their company's). */
  companyId: number | null;
  eventId: string | null;
  /** Replays that failed again. */
  tries?: number;
}

/**
 * Whether a failure is the event's own (it will fail the same way every time: a dead letter)
 * rather than the database's or the network's (redelivered until it goes through).
 */
export const eventsFault = (err: unknown): boolean => err instanceof BadEvent || err instanceof TypeError || err instanceof RangeError;

const field = (payload: unknown, key: string): unknown => (payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[key] : undefined);

/** Keeps a dead letter (once per stream message, or per history event): a redelivery rewrites the same one. */
export async function recordDeadLetter(db: Db, x: { event: unknown; subject: string; error: string; stream: string | null; seq: number | null }): Promise<void> {
  const eventId = typeof field(x.event, 'eventId') === 'string' ? (field(x.event, 'eventId') as string) : null;
  const cid = field(x.event, 'companyId');
  const _id = x.stream ? `${x.stream}:${x.seq}` : `history:${x.subject}:${eventId ?? JSON.stringify(x.event).slice(0, 200)}`;
  const doc: Omit<DeadLetter, '_id'> = {
    event: x.event,
    subject: x.subject,
    error: x.error,
    at: new Date(),
    stream: x.stream,
    stream_seq: x.seq,
    companyId: Number.isSafeInteger(cid) ? (cid as number) : null,
    eventId,
  };
  await db.collection<DeadLetter>(C.dead).updateOne({ _id }, { $set: doc }, { upsert: true });
}

/** How many dead letters there are (of one company, or all). */
export const countDeadLetters = (db: Db, companyId?: number): Promise<number> =>
  companyId === undefined ? db.collection(C.dead).countDocuments({}) : db.collection(C.dead).countDocuments({ companyId });

/**
 * Tries every dead letter again (after a fix: a new release, or the stored event corrected): one
 * that now applies (or was applied meanwhile, by its id) is removed; one that still fails keeps
 * its new error and counts the try. Each goes through the projector as a stream's event would,
 * so an event replayed twice counts once.
 */
export async function replayDeadLetters(db: Db, projector: Projector): Promise<{ applied: number; already: number; ignored: number; failed: number }> {
  const out = { applied: 0, already: 0, ignored: 0, failed: 0 };
  const dead = db.collection<DeadLetter>(C.dead);
  for (const d of await dead.find({}).sort({ at: 1 }).toArray()) {
    try {
      let payload = d.event;
      if (typeof payload === 'string') {
        try {
          payload = JSON.parse(payload);
        } catch {
          throw new BadEvent('the event is not JSON');
        }
      }
      const fact = toFact(d.subject, payload);
      if (!fact) out.ignored++;
      else if (await projector.apply(fact)) out.applied++;
      else out.already++;
      await dead.deleteOne({ _id: d._id });
    } catch (err) {
      if (!eventsFault(err)) throw err;
      out.failed++;
      await dead.updateOne({ _id: d._id }, { $set: { error: (err as Error).message }, $inc: { tries: 1 } });
    }
  }
  return out;
}
