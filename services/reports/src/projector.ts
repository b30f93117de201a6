import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { ClientSession, Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { inTransaction } from '@bahi/service-kit';
import type { Fact, FactKind } from './facts';
import { Fold } from './fold';
import { MODELS, type ReadModel } from './models';
import { coll, type Row } from './models/model';
import { C } from './store';

export { coll, type Row } from './models/model';
export { registerPart } from './models/registers';
export type { OpenDue } from './models/parties';
export { addToRunningTotals, CUM_ANCHOR, CUM_BUCKET, cumStamp, runningTotalsFromDays, type CumEntry } from './models/profit';

/** Where a delivered event sits in its stream. */
export interface Position {
  stream: string;
  seq: number;
}

export interface ApplyOptions {
  /** Per stream: the lowest sequence delivered but not applied (nakked); the checkpoint stays below it. */
  holdBelow?: ReadonlyMap<string, number>;
  /** The owners' history (a rebuild): its ids are kept until the streams' replay is done. */
  history?: boolean;
}

/** Facts per transaction at most (a consumer's batch, a history page). */
export const MAX_BATCH = 512;

/** The read models folding each fact kind, in MODELS order. */
const byKind = new Map<FactKind, ReadModel[]>();
for (const m of MODELS) for (const k of m.kinds) (byKind.get(k) ?? byKind.set(k, []).get(k)!).push(m);

/**
 * Projects facts into the read models (`models/`), a batch in one transaction with the streams'
 * checkpoints and the ids of the events applied (`recent_events`): an event applied before (or
 * twice in the batch) changes nothing. The batch is
 * folded in memory (`Fold`: each document read once, changed, written once), so a batch costs a
 * few commands per collection rather than ~20 per fact. Money sums are $inc (commutative), bill
 * rows are upserts keyed by the bill, so facts may arrive in any order.
 */
@Injectable()
export class Projector {
  constructor(@InjectConnection() private readonly conn: Connection) {}

  private get db(): Db {
    return this.conn.db as unknown as Db;
  }

  /** One fact (true: applied; false: seen before). */
  async apply(fact: Fact, pos?: Position | null, opts?: ApplyOptions): Promise<boolean> {
    return (await this.applyBatch([fact], pos ? [pos] : undefined, opts)).has(fact.eventId);
  }

  /**
   * Facts in one transaction: the ids applied now (the others were applied before). All or
   * nothing: a failure leaves nothing applied. `positions` (parallel to `facts`; none for history
   * pages): where each came from in its stream. An event at or below its stream's checkpoint is a
   * redelivery and is skipped without reading anything else; then an id applied within the
   * window (`recent_events`: a republished duplicate, or a history page's event replayed by the
   * stream) is skipped. The checkpoints move to the batch's last sequence per stream (never past
   * `opts.holdBelow`, a sequence the consumers still owe). An event applied at the same moment
   * by another writer aborts the transaction on its `recent_events` row; it is then tried again.
   */
  async applyBatch(facts: Fact[], positions?: (Position | null)[], opts: ApplyOptions = {}): Promise<Set<string>> {
    const unique = new Map<string, Fact>();
    const last = new Map<string, number>();
    const posOf = new Map<string, Position>();
    facts.forEach((f, i) => {
      const p = positions?.[i];
      if (p) {
        last.set(p.stream, Math.max(last.get(p.stream) ?? 0, p.seq));
        if (!posOf.has(f.eventId)) posOf.set(f.eventId, p);
      }
      if (!unique.has(f.eventId)) unique.set(f.eventId, f);
    });
    for (let attempt = 0; ; attempt++) {
      try {
        return await inTransaction(this.conn, async (s) => {
          const session = s as unknown as ClientSession;
          const w = new Fold(this.db, session);
          await w.load(C.checkpoints, last.keys());
          const marks = new Map<string, number>();
          for (const st of last.keys()) marks.set(st, Number((await w.get(C.checkpoints, st))?.seq ?? 0));
          const fresh = [...unique.values()].filter((f) => {
            const p = posOf.get(f.eventId);
            return !p || p.seq > marks.get(p.stream)!;
          });
          await w.load(C.recent, fresh.map((f) => f.eventId));
          const todo = fresh.filter((f) => !w.has(C.recent, f.eventId));
          await this.prefetch(w, todo);
          // History rows are kept (no `at`, so the TTL leaves them) until the stream replays past them.
          const at = opts.history ? undefined : new Date();
          for (const f of todo) {
            const p = posOf.get(f.eventId);
            w.insert(C.recent, { _id: f.eventId, kind: f.kind, companyId: f.companyId, ...(at ? { at } : {}), ...(p ? { stream: p.stream, seq: p.seq } : {}) });
            await this.project(f, w);
          }
          for (const [stream, seq] of last) {
            const hold = opts.holdBelow?.get(stream);
            const upTo = hold === undefined ? seq : Math.min(seq, hold - 1);
            if (upTo > marks.get(stream)!) w.write(C.checkpoints, stream, { set: { seq: upTo, at: new Date() } });
          }
          await w.flush();
          for (const m of MODELS) if (m.afterFlush) await m.afterFlush(this.db, w, session);
          return new Set(todo.map((f) => f.eventId));
        });
      } catch (err) {
        if (attempt < 3 && (err as { code?: number }).code === 11000 && /recent_events/.test(String((err as Error).message))) continue;
        throw err;
      }
    }
  }

  /** Facts folded into a fold without a database (the benchmark's seeder): the same code as `applyBatch`. */
  async foldInMemory(w: Fold, facts: Iterable<Fact>): Promise<number> {
    let n = 0;
    for (const f of facts) {
      if (w.has(C.recent, f.eventId)) continue;
      w.insert(C.recent, { _id: f.eventId, kind: f.kind, companyId: f.companyId });
      await this.project(f, w);
      n++;
    }
    return n;
  }

  /** Reads, in a few queries, the documents the batch's facts will read one by one otherwise. */
  private async prefetch(w: Fold, facts: Fact[]) {
    const ids = new Map<string, string[]>();
    const want = (c: string, id: string) => (ids.get(c) ?? ids.set(c, []).get(c)!).push(id);
    for (const f of facts) for (const m of byKind.get(f.kind) ?? []) m.prefetch?.(f, want, w);
    for (const [c, list] of ids) await w.load(c, list);
    for (const m of MODELS) if (m.prefetchBatch) await m.prefetchBatch(facts, w);
  }

  private async project(f: Fact, w: Fold): Promise<void> {
    for (const m of byKind.get(f.kind) ?? []) await m.fold(f, w);
  }
}

/**
 * Writes a fold made without a database (`foldInMemory`) to an empty read model: its documents in
 * large inserts, then what the models make from them (the running totals from the day rows).
 * Returns the documents written.
 */
export async function writeFolded(db: Db, w: Fold): Promise<number> {
  let docs = 0;
  for (const [name, all] of w.collections()) {
    for (let i = 0; i < all.length; i += 5000) await coll(db, name).insertMany(all.slice(i, i + 5000) as Row[], { ordered: false });
    docs += all.length;
  }
  for (const m of MODELS) if (m.afterMemoryWrite) docs += await m.afterMemoryWrite(db);
  return docs;
}
