import type { AnyBulkWriteOperation, ClientSession, Db } from 'mongodb';

/** A read-model document (loose: $inc needs numeric fields, reads narrow themselves). */
export interface Doc {
  _id: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [k: string]: any;
}

/** An update as the projection writes it: sums, values, and fields a new document starts with. */
export interface Change {
  inc?: Record<string, number>;
  set?: Record<string, unknown>;
  onInsert?: Record<string, unknown>;
}

/** What is still to write of one document: summed increments, last values, insert fields, a delete first. */
interface Pending {
  inc: Record<string, number>;
  set: Record<string, unknown>;
  onInsert: Record<string, unknown>;
  del: boolean;
}

export interface ProfitDelta {
  productId: number;
  name: string;
  qty: number;
  value: number;
  cost: number;
  /** Value of lines whose cost is unknown (sold before costs were frozen): left out of margins. */
  costless: number;
}

/**
 * The read model as a batch of facts changes it: documents are read once (from the database in
 * the batch's transaction, or from memory when there is no database), changed in memory, and
 * written at `flush` as one bulkWrite per collection (increments summed, values last-written).
 * Documents only written, never read (day totals, profit rows), are not read at all: their
 * increments go out as $inc, so they commute with any other writer.
 * Without a database (the benchmark's seeder) every document starts absent and stays in memory.
 */
export class Fold {
  private readonly docs = new Map<string, Map<string, Doc | null>>();
  private readonly pending = new Map<string, Map<string, Pending>>();
  private readonly covered = new Set<string>();
  private readonly inserts = new Map<string, Doc[]>();
  /** Running-totals changes, by company and date, per product (written at flush, summed). */
  private readonly cum = new Map<string, Map<number, ProfitDelta>>();

  constructor(
    private readonly db: Db | null,
    private readonly session?: ClientSession,
  ) {}

  private docsOf(c: string) {
    let m = this.docs.get(c);
    if (!m) this.docs.set(c, (m = new Map()));
    return m;
  }

  private pendingOf(c: string, id: string): Pending {
    let m = this.pending.get(c);
    if (!m) this.pending.set(c, (m = new Map()));
    let p = m.get(id);
    if (!p) m.set(id, (p = { inc: {}, set: {}, onInsert: {}, del: false }));
    return p;
  }

  /** Reads documents not read yet, in one query (what a batch will need, before folding it). */
  async load(c: string, ids: Iterable<string>): Promise<void> {
    const m = this.docsOf(c);
    const want = [...new Set(ids)].filter((id) => !m.has(id));
    if (!want.length) return;
    const found = new Map<string, Doc>();
    if (this.db) {
      for (let i = 0; i < want.length; i += 1000) {
        for (const d of await this.db.collection<Doc>(c).find({ _id: { $in: want.slice(i, i + 1000) } }, { session: this.session }).toArray()) found.set(d._id, d);
      }
    }
    for (const id of want) {
      const d = found.get(id) ?? null;
      // Written blind before being read: what the database holds, with those writes on it.
      const p = this.pending.get(c)?.get(id);
      m.set(id, p ? replay(p.del ? null : d, id, p) : d);
    }
  }

  /** A document read (or made) in this fold: its id is in memory and not deleted. */
  has(c: string, id: string): boolean {
    return !!this.docs.get(c)?.get(id);
  }

  async get(c: string, id: string): Promise<Doc | null> {
    if (!this.docsOf(c).has(id)) await this.load(c, [id]);
    return this.docsOf(c).get(id) ?? null;
  }

  /** Changes a document (made when missing, unless `upsert` is false) and returns it as it now is. */
  async update(c: string, id: string, ch: Change, upsert = true): Promise<Doc | null> {
    const d = await this.get(c, id);
    if (!d && !upsert) return null;
    return this.apply(c, id, d, ch);
  }

  /** Changes a document without reading it (its value is not needed): an $inc/$set at flush. */
  write(c: string, id: string, ch: Change): void {
    const m = this.docsOf(c);
    if (m.has(id) || !this.db) this.apply(c, id, m.get(id) ?? null, ch);
    else record(this.pendingOf(c, id), ch);
  }

  private apply(c: string, id: string, d: Doc | null, ch: Change): Doc {
    const doc = d ?? { _id: id, ...ch.onInsert };
    for (const [k, v] of Object.entries(ch.inc ?? {})) doc[k] = Number(doc[k] ?? 0) + v;
    for (const [k, v] of Object.entries(ch.set ?? {})) doc[k] = v;
    this.docsOf(c).set(id, doc);
    if (!this.db) return doc;
    const p = this.pendingOf(c, id);
    if (!d) Object.assign(p.onInsert, ch.onInsert ?? {});
    record(p, { inc: ch.inc, set: ch.set }, doc);
    return doc;
  }

  /** A new document that must not exist yet (a duplicate aborts the batch's transaction). */
  insert(c: string, doc: Doc): void {
    this.docsOf(c).set(doc._id, doc);
    if (!this.db) return;
    let list = this.inserts.get(c);
    if (!list) this.inserts.set(c, (list = []));
    list.push(doc);
  }

  async remove(c: string, id: string): Promise<void> {
    this.docsOf(c).set(id, null);
    if (!this.db) return;
    const p = this.pendingOf(c, id);
    Object.assign(p, { inc: {}, set: {}, onInsert: {}, del: true });
  }

  /**
   * Documents whose fields equal `filter`: the database's (as changed in this batch) and those
   * made in it. `cover` marks a filter read in advance (`loadWhere`), answered from memory.
   */
  async find(c: string, filter: Record<string, unknown>): Promise<Doc[]> {
    const key = coverKey(c, filter);
    const m = this.docsOf(c);
    if (this.db && !this.covered.has(key)) {
      // What this batch wrote to `c` without reading it is written first, so the query sees it.
      await this.flush(c);
      const ids = (await this.db.collection<Doc>(c).find(filter, { session: this.session, projection: { _id: 1 } }).toArray()).map((d) => d._id);
      await this.load(c, ids);
    }
    return [...m.values()].filter((d): d is Doc => !!d && Object.entries(filter).every(([k, v]) => d[k] === v));
  }

  /** Reads in one query every document of `c` with `field` in `values` (and the rest of `base`), then answers those filters from memory. */
  async loadWhere(c: string, base: Record<string, unknown>, field: string, values: unknown[]): Promise<void> {
    if (!values.length) return;
    if (this.db) {
      const ids = (await this.db.collection<Doc>(c).find({ ...base, [field]: { $in: values } }, { session: this.session, projection: { _id: 1 } }).toArray()).map((d) => d._id);
      await this.load(c, ids);
    }
    for (const v of values) this.covered.add(coverKey(c, { ...base, [field]: v }));
  }

  /** Per-product profit of a date for the running totals (kept as sums until flush). */
  addCum(companyId: number, date: string, deltas: ProfitDelta[]) {
    const key = `${companyId}|${date}`;
    const m = this.cum.get(key) ?? new Map<number, ProfitDelta>();
    for (const d of deltas) {
      const x = m.get(d.productId) ?? { productId: d.productId, name: d.name, qty: 0, value: 0, cost: 0, costless: 0 };
      x.qty += d.qty;
      x.value += d.value;
      x.cost += d.cost;
      x.costless += d.costless;
      m.set(d.productId, x);
    }
    this.cum.set(key, m);
  }

  /** Running-totals changes not written yet, by company and date (the memory fold makes them from the day rows instead). */
  cumChanges(): { companyId: number; date: string; deltas: ProfitDelta[] }[] {
    return [...this.cum].map(([key, m]) => ({ companyId: Number(key.split('|')[0]), date: key.split('|')[1]!, deltas: [...m.values()] }));
  }

  /** Every document in memory (the memory fold's result), by collection. */
  collections(): Map<string, Doc[]> {
    const out = new Map<string, Doc[]>();
    for (const [c, m] of this.docs) out.set(c, [...m.values()].filter((d): d is Doc => !!d));
    return out;
  }

  /** Writes what changed (of `only`, when given): one ordered bulkWrite per collection (the running totals after, by the caller). Returns the commands sent. */
  async flush(only?: string): Promise<number> {
    if (!this.db) return 0;
    let commands = 0;
    for (const [c, docs] of this.inserts) {
      if (only && c !== only) continue;
      await this.db.collection<Doc>(c).insertMany(docs, { session: this.session, ordered: true });
      this.inserts.delete(c);
      commands++;
    }
    for (const [c, m] of this.pending) {
      if (only && c !== only) continue;
      const ops: AnyBulkWriteOperation<Doc>[] = [];
      for (const [id, p] of m) {
        if (p.del) ops.push({ deleteOne: { filter: { _id: id } } });
        const update: Record<string, Record<string, unknown>> = {};
        if (Object.keys(p.inc).length) update.$inc = p.inc;
        if (Object.keys(p.set).length) update.$set = p.set;
        // A field summed or set here is not also set on insert (it starts at 0, which $inc assumes).
        const onInsert = Object.fromEntries(Object.entries(p.onInsert).filter(([k]) => !(k in p.inc) && !(k in p.set)));
        if (Object.keys(onInsert).length) update.$setOnInsert = onInsert;
        if (Object.keys(update).length) ops.push({ updateOne: { filter: { _id: id }, update, upsert: true } });
      }
      if (ops.length) {
        await this.db.collection<Doc>(c).bulkWrite(ops, { session: this.session, ordered: true });
        commands++;
      }
      this.pending.delete(c);
    }
    return commands;
  }
}

const coverKey = (c: string, filter: Record<string, unknown>) =>
  `${c}|${JSON.stringify(Object.keys(filter).sort().map((k) => [k, filter[k]]))}`;

/** Adds a change to what is pending: a value set replaces a pending sum of the same field and the reverse. */
function record(p: Pending, ch: Change, doc?: Doc) {
  for (const [k, v] of Object.entries(ch.inc ?? {})) {
    if (k in p.set) p.set[k] = doc ? doc[k] : Number(p.set[k] ?? 0) + v;
    else p.inc[k] = (p.inc[k] ?? 0) + v;
  }
  for (const [k, v] of Object.entries(ch.set ?? {})) {
    delete p.inc[k];
    p.set[k] = v;
  }
  if (!doc) for (const [k, v] of Object.entries(ch.onInsert ?? {})) if (!(k in p.onInsert)) p.onInsert[k] = v;
}

/** A document with blind-written changes applied (read after being written). */
function replay(d: Doc | null, id: string, p: Pending): Doc {
  const doc = d ? { ...d } : { _id: id, ...p.onInsert };
  for (const [k, v] of Object.entries(p.inc)) doc[k] = Number(doc[k] ?? 0) + v;
  for (const [k, v] of Object.entries(p.set)) doc[k] = v;
  return doc;
}
