import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ClientSession, Db } from 'mongodb';
import { checkMapping, guessMapping, mapRow, type ColumnMapping, type ImportField } from './mapping';
import { TabularError, type TableFormat, type TableRow } from './read';
import { readInWorker } from './worker-read';

export interface RowError {
  row: number;
  field: string;
  reason: string;
}

/** What a handler makes of one row: a value to write (an update of an existing record or new), or errors. */
export interface RowOutcome<P> {
  row: number;
  value?: P;
  update?: boolean;
  errors?: { field: string; reason: string }[];
}

/**
 * One kind of import (products, customers, ...). `check` sees rows a batch at a time, in file
 * order, with a context that lives for one pass over the file (duplicates inside the file are
 * remembered there); `apply` writes one batch of valid rows inside the transaction that also
 * records the batch as done.
 */
export interface ImportHandler<Ctx, P> {
  kind: string;
  fields: ImportField[];
  matchBy: string;
  begin(companyId: number): Promise<Ctx>;
  check(ctx: Ctx, rows: { row: number; data: Record<string, string> }[]): Promise<RowOutcome<P>[]>;
  apply(ctx: Ctx, rows: { row: number; value: P; update: boolean }[], session: ClientSession): Promise<{ created: number; updated: number }>;
  /** Names the import will create (a product's new category), for the report. */
  creates?(ctx: Ctx): string[];
}

export interface ImportReportShape {
  total: number;
  valid: number;
  invalid: number;
  updates: number;
  errors: RowError[];
  creates?: string[];
}

export interface ImportStatusShape {
  id: string;
  kind: string;
  state: 'uploaded' | 'running' | 'done' | 'failed';
  mode: 'valid' | 'all' | null;
  done: number;
  total: number;
  created: number;
  updated: number;
  skipped: number;
  message: string | null;
  report: ImportReportShape | null;
}

interface SessionDoc extends Omit<ImportStatusShape, 'id'> {
  _id: string;
  companyId: number;
  fileName: string;
  format: TableFormat;
  headers: string[];
  headerRow: number;
  mapping: ColumnMapping | null;
  /** Batches written (a resumed or repeated run starts after them). */
  batches: number;
  heartbeat: Date | null;
  createdAt: Date;
  expiresAt: Date;
}

/** A user's mistake (400 with the message), a missing session (404) or a run already going (409). */
export class ImportError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export interface ImportSessionsOptions {
  /** Rows stored per document and checked/written per batch. */
  batchSize?: number;
  maxRows?: number;
  ttlMs?: number;
  maxErrors?: number;
  /** Runs `fn` in one transaction (retrying conflicts): the service's own runner. */
  inTransaction: <T>(fn: (s: ClientSession) => Promise<T>) => Promise<T>;
  /** A run not heard from for this long is taken as dead and may be resumed. */
  staleMs?: number;
  /** The reader's limits per upload (worker-read.ts): its working time and its heap. */
  readTimeMs?: number;
  readMemoryMb?: number;
  log?: (msg: string, err?: unknown) => void;
}

const PREVIEW_ROWS = 10;
/** Characters of cell text per stored batch: a batch document stays far below MongoDB's 16 MB. */
const BATCH_CHARS = 2 * 1024 * 1024;

/**
 * Import sessions kept in the service's own database: the uploaded rows (in batches, so a large
 * file is never one document or one array in memory), the mapping, the progress and the report.
 * A run goes batch by batch, each in one transaction with the session's count of batches done,
 * so a retried or resumed run never writes a batch twice.
 */
export class ImportSessions {
  private readonly batchSize: number;
  private readonly maxRows: number;
  private readonly ttlMs: number;
  private readonly maxErrors: number;
  private readonly staleMs: number;

  constructor(
    private readonly db: Db,
    private readonly opts: ImportSessionsOptions,
  ) {
    this.batchSize = opts.batchSize ?? 500;
    this.maxRows = opts.maxRows ?? 100_000;
    this.ttlMs = opts.ttlMs ?? 24 * 3600_000;
    this.maxErrors = opts.maxErrors ?? 1000;
    this.staleMs = opts.staleMs ?? 120_000;
  }

  private get sessions() {
    return this.db.collection<SessionDoc>('import_sessions');
  }
  private get chunks() {
    return this.db.collection<{ sessionId: string; companyId: number; n: number; rows: TableRow[] }>('import_rows');
  }

  async init(): Promise<void> {
    await this.sessions.createIndex({ companyId: 1, kind: 1 });
    await this.sessions.createIndex({ expiresAt: 1 });
    await this.chunks.createIndex({ sessionId: 1, n: 1 }, { unique: true });
  }

  /** Drops expired sessions and their rows (called on each upload; no TTL monitor needed). */
  private async sweep(): Promise<void> {
    const old = await this.sessions.find({ expiresAt: { $lt: new Date() } }, { projection: { _id: 1 } }).toArray();
    if (!old.length) return;
    const ids = old.map((s) => s._id);
    await this.chunks.deleteMany({ sessionId: { $in: ids } });
    await this.sessions.deleteMany({ _id: { $in: ids } });
  }

  async upload(companyId: number, handler: ImportHandler<unknown, unknown>, fileName: string, input: Buffer | Readable) {
    await this.sweep();
    let table;
    try {
      const bytes = Buffer.isBuffer(input) ? input : Buffer.concat(await input.toArray());
      // Read in a worker thread: the rows count blank ones too, and a file over any limit is refused there.
      table = await readInWorker(bytes, { maxRows: this.maxRows, timeLimitMs: this.opts.readTimeMs, memoryLimitMb: this.opts.readMemoryMb });
    } catch (err) {
      if (err instanceof TabularError) throw new ImportError(400, err.message);
      throw err;
    }
    const id = randomBytes(16).toString('hex');
    const preview: TableRow[] = [];
    let total = 0;
    let n = 0;
    let batch: TableRow[] = [];
    let chars = 0;
    const flush = async () => {
      if (!batch.length) return;
      await this.chunks.insertOne({ sessionId: id, companyId, n: n++, rows: batch });
      batch = [];
      chars = 0;
    };
    try {
      if (!table.headers.some((h) => h !== '')) throw new ImportError(400, 'The first row of the file must name the columns.');
      for await (const r of table.rows) {
        if (++total > this.maxRows) throw new ImportError(400, `The file has more than ${this.maxRows} rows; split it into smaller files.`);
        if (preview.length < PREVIEW_ROWS) preview.push(r);
        batch.push(r);
        for (const v of r.values) chars += v.length;
        if (batch.length >= this.batchSize || chars >= BATCH_CHARS) await flush();
      }
      await flush();
    } catch (err) {
      await this.chunks.deleteMany({ sessionId: id });
      if (err instanceof TabularError) throw new ImportError(400, err.message);
      throw err;
    } finally {
      await table.close();
    }
    if (!total) throw new ImportError(400, 'The file has a header row but no rows to import.');
    const now = new Date();
    await this.sessions.insertOne({
      _id: id,
      companyId,
      kind: handler.kind,
      fileName,
      format: table.format,
      headers: table.headers,
      headerRow: table.headerRow,
      total,
      mapping: null,
      state: 'uploaded',
      mode: null,
      done: 0,
      created: 0,
      updated: 0,
      skipped: 0,
      batches: 0,
      message: null,
      report: null,
      heartbeat: null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.ttlMs),
    });
    return {
      id,
      kind: handler.kind,
      fileName,
      format: table.format,
      headers: table.headers,
      total,
      fields: handler.fields,
      mapping: guessMapping(table.headers, handler.fields),
      preview,
      matchBy: handler.matchBy,
    };
  }

  private async load(companyId: number, kind: string, id: unknown): Promise<SessionDoc> {
    if (typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id)) throw new ImportError(404, 'No such import (it may have expired): upload the file again.');
    const s = await this.sessions.findOne({ _id: id, companyId, kind });
    if (!s || s.expiresAt < new Date()) throw new ImportError(404, 'No such import (it may have expired): upload the file again.');
    return s;
  }

  private view(s: SessionDoc): ImportStatusShape {
    return {
      id: s._id,
      kind: s.kind,
      state: s.state,
      mode: s.mode,
      done: s.done,
      total: s.total,
      created: s.created,
      updated: s.updated,
      skipped: s.skipped,
      message: s.message,
      report: s.report,
    };
  }

  async status(companyId: number, kind: string, id: unknown): Promise<ImportStatusShape> {
    return this.view(await this.load(companyId, kind, id));
  }

  private mappingOf(s: SessionDoc, handler: ImportHandler<unknown, unknown>, mapping: unknown): ColumnMapping {
    const problem = checkMapping(mapping, handler.fields, s.headers.length);
    if (problem) throw new ImportError(400, problem);
    return Object.fromEntries(Object.entries(mapping as ColumnMapping).filter(([, v]) => typeof v === 'number' && v >= 0));
  }

  /** The stored rows in file order, a batch at a time. */
  private async *batches(s: SessionDoc): AsyncGenerator<{ n: number; rows: TableRow[] }> {
    for await (const c of this.chunks.find({ sessionId: s._id }).sort({ n: 1 })) yield { n: c.n, rows: c.rows };
  }

  /** One pass over every row: the report, and (when `each` is given) each batch's outcomes. */
  private async pass<Ctx, P>(
    s: SessionDoc,
    handler: ImportHandler<Ctx, P>,
    mapping: ColumnMapping,
    each?: (n: number, outcomes: RowOutcome<P>[], ctx: Ctx) => Promise<void>,
  ): Promise<ImportReportShape> {
    const ctx = await handler.begin(s.companyId);
    const report: ImportReportShape = { total: 0, valid: 0, invalid: 0, updates: 0, errors: [] };
    for await (const b of this.batches(s)) {
      const outcomes = await handler.check(
        ctx,
        b.rows.map((r) => ({ row: r.row, data: mapRow(r.values, mapping) })),
      );
      for (const o of outcomes) {
        report.total++;
        if (o.errors?.length) {
          report.invalid++;
          for (const e of o.errors) if (report.errors.length < this.maxErrors) report.errors.push({ row: o.row, ...e });
        } else {
          report.valid++;
          if (o.update) report.updates++;
        }
      }
      if (each) await each(b.n, outcomes, ctx);
    }
    const creates = handler.creates?.(ctx);
    if (creates?.length) report.creates = creates;
    return report;
  }

  async validate<Ctx, P>(companyId: number, handler: ImportHandler<Ctx, P>, id: unknown, mappingIn: unknown): Promise<ImportReportShape> {
    const s = await this.load(companyId, handler.kind, id);
    const mapping = this.mappingOf(s, handler as never, mappingIn);
    const report = await this.pass(s, handler, mapping);
    await this.sessions.updateOne({ _id: s._id, state: { $ne: 'running' } }, { $set: { mapping, report } });
    return report;
  }

  /**
   * Starts (or resumes, or answers a finished) run; the work goes on after the reply and the
   * status call reports its progress. 'all' checks every row first and writes nothing unless all
   * are valid.
   */
  async run<Ctx, P>(companyId: number, handler: ImportHandler<Ctx, P>, id: unknown, mappingIn: unknown, modeIn: unknown): Promise<ImportStatusShape> {
    const s = await this.load(companyId, handler.kind, id);
    if (s.state === 'done') return this.view(s);
    if (modeIn !== 'valid' && modeIn !== 'all') throw new ImportError(400, "mode must be 'valid' (import the valid rows) or 'all' (nothing unless every row is valid).");
    const mode = modeIn;
    // A resumed run keeps the mapping and mode its written batches were made with.
    const mapping = s.batches > 0 && s.mapping ? s.mapping : this.mappingOf(s, handler as never, mappingIn);
    const runMode = s.batches > 0 && s.mode ? s.mode : mode;
    const stale = new Date(Date.now() - this.staleMs);
    const claimed = await this.sessions.findOneAndUpdate(
      { _id: s._id, $or: [{ state: { $in: ['uploaded', 'failed'] } }, { state: 'running', heartbeat: { $lt: stale } }] },
      { $set: { state: 'running', mode: runMode, mapping, heartbeat: new Date(), message: null } },
      { returnDocument: 'after' },
    );
    if (!claimed) {
      const now = await this.load(companyId, handler.kind, id);
      if (now.state === 'running') return this.view(now);
      throw new ImportError(409, 'This import cannot be started now.');
    }
    void this.execute(claimed, handler, mapping, runMode).catch(async (err) => {
      this.opts.log?.(`import ${claimed._id} failed`, err);
      await this.sessions.updateOne({ _id: claimed._id }, { $set: { state: 'failed', message: `The import stopped: ${(err as Error).message}. Start it again to go on.` } }).catch(() => undefined);
    });
    return this.view(claimed);
  }

  private async execute<Ctx, P>(s: SessionDoc, handler: ImportHandler<Ctx, P>, mapping: ColumnMapping, mode: 'valid' | 'all'): Promise<void> {
    if (mode === 'all' && s.batches === 0) {
      const report = await this.pass(s, handler, mapping);
      if (report.invalid > 0) {
        await this.sessions.updateOne(
          { _id: s._id },
          { $set: { state: 'failed', report, done: 0, message: `Nothing was imported: ${report.invalid} of ${report.total} rows have errors. Fix them, or import the valid rows only.` } },
        );
        return;
      }
    }
    const report = await this.pass(s, handler, mapping, async (n, outcomes, ctx) => {
      // Batches written by an earlier run of this session are only re-checked (the in-file duplicate memory needs them).
      if (n < s.batches) return;
      const good = outcomes.filter((o) => !o.errors?.length).map((o) => ({ row: o.row, value: o.value as P, update: !!o.update }));
      const skipped = outcomes.length - good.length;
      await this.opts.inTransaction(async (session) => {
        const res = good.length ? await handler.apply(ctx, good, session) : { created: 0, updated: 0 };
        const upd = await this.sessions.updateOne(
          { _id: s._id, batches: n },
          { $set: { batches: n + 1, heartbeat: new Date() }, $inc: { done: outcomes.length, created: res.created, updated: res.updated, skipped } },
          { session },
        );
        // Another run wrote this batch meanwhile: abort ours (its writes roll back).
        if (upd.modifiedCount !== 1) throw new ImportError(409, 'This import is already being written by another run.');
      });
    });
    await this.sessions.updateOne({ _id: s._id }, { $set: { state: 'done', report, heartbeat: new Date() } });
  }
}
