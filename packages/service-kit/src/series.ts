import { ConflictException } from '@nestjs/common';
import type { mongo } from 'mongoose';
import { financialYear } from '@bahi/gst';

/** The financial year label ('26-27') of a document dated YYYY-MM-DD on the shop's (IST) calendar. */
export const financialYearOf = (date: string): string => financialYear(`${date}T12:00:00+05:30`).label;

export interface DocumentSeriesOptions {
  /** The documents' collection (the driver's, e.g. `model.collection`). */
  collection: mongo.Collection<mongo.Document>;
  /** Dotted field names: the year label, the serial (0 until numbered) and the formatted number. */
  fyField: string;
  serialField: string;
  numberField: string;
  /** Formats serial n of year fy (may throw when the series is full). */
  format: (fy: string, serial: number) => string;
  /** Said when the retries run out, e.g. "Too many credit notes took numbers at once". */
  busyMessage?: string;
}

/** No document matches the filter given to `assign` (e.g. one whose conditions no longer hold). */
export class SeriesDocumentGone extends Error {
  constructor() {
    super('DocumentSeries.assign: no such document');
  }
}

const MAX_ATTEMPTS = 50;
const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;

const read = (doc: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), doc);

/**
 * A gapless document series per company and financial year (invoice, credit and debit note
 * numbers). The next serial is the year's highest + 1, written with a conditional update ("this
 * document has none yet") that also writes the caller's progress fields (`alsoSet`: the point of
 * no return and the number land together). The collection needs the unique partial index
 * {companyId, fyField, serialField} where serialField > 0: two writers racing for one serial get a
 * duplicate key and the loser reads again. Writers of one replica queue per company and year, so
 * a burst does not cost a failed write each; replicas race through the index. Numbers are never
 * taken back.
 */
export class DocumentSeries {
  private readonly known = new Map<string, number>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly opts: DocumentSeriesOptions) {}

  private note(companyId: number, fy: string, serial: number) {
    const k = `${companyId}:${fy}`;
    if (serial > (this.known.get(k) ?? 0)) this.known.set(k, serial);
  }

  /** The highest serial this replica has seen, else read from the database. */
  async last(companyId: number, fy: string): Promise<number> {
    return this.known.get(`${companyId}:${fy}`) ?? this.highest(companyId, fy);
  }

  /** The year's highest serial in the database (0 before the first document). */
  async highest(companyId: number, fy: string): Promise<number> {
    const { collection, fyField, serialField } = this.opts;
    const top = await collection
      .find({ companyId, [fyField]: fy, [serialField]: { $gt: 0 } }, { projection: { [serialField]: 1 } })
      .sort({ [serialField]: -1 })
      .limit(1)
      .next();
    const n = Number(read(top, serialField) ?? 0);
    this.note(companyId, fy, n);
    return n;
  }

  /**
   * Numbers the document matched by `filter` (which must name the company and the document) in
   * year `fy`, unless it already has a number (a re-driven finish keeps it; `alsoSet` is still
   * written). Returns the serial and the formatted number. `format` overrides the series' own
   * (e.g. an invoice prefix kept per document). SeriesDocumentGone when nothing matches `filter`
   * (which may carry conditions, e.g. a saga's "still pending and this attempt's").
   */
  assign(companyId: number, fy: string, filter: mongo.Document, alsoSet: mongo.Document = {}, format = this.opts.format): Promise<{ serial: number; number: string }> {
    const k = `${companyId}:${fy}`;
    const run = (this.queues.get(k) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.assignNow(companyId, fy, filter, alsoSet, format));
    this.queues.set(k, run);
    const done = () => {
      if (this.queues.get(k) === run) this.queues.delete(k);
    };
    run.then(done, done);
    return run;
  }

  private async assignNow(companyId: number, fy: string, filter: mongo.Document, alsoSet: mongo.Document, format: (fy: string, serial: number) => string): Promise<{ serial: number; number: string }> {
    const { collection, fyField, serialField, numberField } = this.opts;
    const where = { ...filter, companyId };
    // The first guess costs one command: the update is tried before anything is read.
    let guess = (await this.last(companyId, fy)) + 1;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const number = format(fy, guess);
      try {
        const r = await collection.updateOne(
          { ...where, [serialField]: { $in: [0, null] } },
          { $set: { ...alsoSet, [fyField]: fy, [serialField]: guess, [numberField]: number, updatedAt: new Date() } },
        );
        if (r.matchedCount === 1) {
          this.note(companyId, fy, guess);
          return { serial: guess, number };
        }
        // Numbered already (a re-driven finish, another attempt meanwhile): keep its number.
        const now = await collection.findOne(where);
        if (!now) throw new SeriesDocumentGone();
        const serial = Number(read(now, serialField) ?? 0);
        if (serial > 0) {
          if (Object.keys(alsoSet).length && (await collection.updateOne(where, { $set: { ...alsoSet, updatedAt: new Date() } })).matchedCount !== 1) throw new SeriesDocumentGone();
          return { serial, number: String(read(now, numberField)) };
        }
      } catch (err) {
        if (!isDuplicate(err)) throw err;
      }
      guess = (await this.highest(companyId, fy)) + 1;
    }
    throw new ConflictException(this.opts.busyMessage ?? 'Too many documents took numbers at once; please try again.');
  }
}
