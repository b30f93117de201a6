import type { ClientSession, Collection, Db } from 'mongodb';
import type { Fact, FactKind } from '../facts';
import type { Fold } from '../fold';
import { C } from '../store';

export interface Row {
  _id: string;
  // Read-model rows are loose documents: $inc needs numeric-typed fields, reads narrow themselves.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [k: string]: any;
}

export const coll = (db: Db, name: string): Collection<Row> => db.collection<Row>(name);

/** Asks a fold to read a document with the batch's other reads (before folding). */
export type Want = (collection: string, id: string) => void;

/**
 * One read model (a report's figures): the facts it folds, the documents it needs read ahead,
 * how it folds a fact, and what it keeps besides the fold. The projector runs every model that
 * names a fact's kind, in the order of `models/index.ts`, in the batch's one transaction.
 * Adding a report: a file here and a line in `models/index.ts`.
 */
export interface ReadModel {
  name: string;
  /** The fact kinds (events, decoded in `events.ts`) this model folds. */
  kinds: readonly FactKind[];
  /** Its own collections (`store.ts` names), for the record and the wipe of a rebuild. */
  collections: readonly string[];
  /** The documents its fold of `f` will read, so a batch reads them in a few queries. */
  prefetch?(f: Fact, want: Want, w: Fold): void;
  /** Reads a batch needs beyond single documents (e.g. every waiting return of the batch's sales). */
  prefetchBatch?(facts: Fact[], w: Fold): Promise<void>;
  fold(f: Fact, w: Fold): Promise<void>;
  /** After the fold's writes, in the same transaction (documents kept outside the fold). */
  afterFlush?(db: Db, w: Fold, session: ClientSession): Promise<void>;
  /** After a fold made without a database was written (the benchmark's seeder): documents it makes from those. Returns the documents written. */
  afterMemoryWrite?(db: Db): Promise<number>;
}

/** Adds to a company's day row (`daily`: the dashboard, the registers' and the day book's totals). */
export function daily(f: Pick<Fact, 'companyId' | 'date'>, inc: Record<string, number>, w: Fold): void {
  w.write(C.daily, `${f.companyId}:${f.date}`, { inc, onInsert: { companyId: f.companyId, date: f.date } });
}
