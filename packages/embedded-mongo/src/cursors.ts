/**
 * Open cursors: the rest of a query's result (a snapshot of immutable documents) served in
 * batches by getMore. Ids are int64 on the wire; cursors belong to the server, not to a
 * connection (drivers may send getMore on any pooled connection), and are closed by
 * killCursors, by exhaustion, by the end of their session, or after sitting idle.
 */
import { BSON, Long } from 'bson';
import { MongoError } from './errors';
import { SERIALIZE_OPTIONS } from './storage';
import type { Doc } from './values';

/**
 * A batch of documents that also carries each one's BSON, measured while the batch was taken,
 * so the reply is encoded without sizing and serializing every document a second time. It is
 * an ordinary array to everything else (copies of it are plain arrays).
 */
export class EncodedBatch extends Array<Doc> {
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  declare readonly bson: Uint8Array[];

  constructor() {
    super();
    Object.defineProperty(this, 'bson', { value: [], enumerable: false });
  }
}

/** A reply must stay under 16 MiB; leave room for the envelope. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;

interface CursorState {
  id: number;
  ns: string;
  docs: Doc[];
  pos: number;
  project: ((doc: Doc) => Doc) | null;
  sessionKey: string | null;
  lastUsed: number;
}

export interface Batch {
  cursor: { id: Long; ns: string; firstBatch?: Doc[]; nextBatch?: Doc[] };
}

export class CursorRegistry {
  private nextId = 1;
  private readonly cursors = new Map<number, CursorState>();

  /** Serves the first batch of `docs`; keeps a cursor for the rest unless `singleBatch`. */
  open(
    ns: string,
    docs: Doc[],
    opts: { batchSize?: number; singleBatch?: boolean; project?: ((doc: Doc) => Doc) | null; sessionKey?: string | null } = {},
  ): Batch {
    const state: CursorState = {
      id: 0,
      ns,
      docs,
      pos: 0,
      project: opts.project ?? null,
      sessionKey: opts.sessionKey ?? null,
      lastUsed: Date.now(),
    };
    const batch = opts.batchSize === 0 ? [] : takeBatch(state, opts.batchSize ?? 101);
    if (state.pos < docs.length && !opts.singleBatch) {
      state.id = this.nextId++;
      this.cursors.set(state.id, state);
    }
    return { cursor: { firstBatch: batch, id: Long.fromNumber(state.id), ns } };
  }

  more(id: number, ns: string, batchSize: number): Batch {
    const state = this.cursors.get(id);
    if (!state) throw new MongoError('CursorNotFound', `cursor id ${id} not found`);
    if (state.ns !== ns) {
      throw new MongoError('Unauthorized', `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${state.ns}`);
    }
    state.lastUsed = Date.now();
    const batch = takeBatch(state, batchSize);
    if (state.pos >= state.docs.length) {
      this.cursors.delete(id);
      state.id = 0;
    }
    return { cursor: { nextBatch: batch, id: Long.fromNumber(state.id), ns } };
  }

  /** Closes the cursors of `ids` in namespace `ns` (ids are sequential: another namespace's are not this caller's to close). */
  kill(ids: number[], ns: string): { killed: number[]; notFound: number[] } {
    const killed: number[] = [];
    const notFound: number[] = [];
    for (const id of ids) (this.cursors.get(id)?.ns === ns && this.cursors.delete(id) ? killed : notFound).push(id);
    return { killed, notFound };
  }

  killSession(sessionKey: string): void {
    for (const [id, c] of this.cursors) if (c.sessionKey === sessionKey) this.cursors.delete(id);
  }

  /** Closes cursors idle for longer than `idleMs`. */
  sweep(idleMs: number): void {
    const now = Date.now();
    for (const [id, c] of this.cursors) if (now - c.lastUsed > idleMs) this.cursors.delete(id);
  }

  clear(): void {
    this.cursors.clear();
  }

  get size(): number {
    return this.cursors.size;
  }
}

function takeBatch(state: CursorState, batchSize: number): Doc[] {
  const out = new EncodedBatch();
  let bytes = 0;
  const max = batchSize > 0 ? batchSize : Infinity;
  while (state.pos < state.docs.length && out.length < max) {
    const raw = state.docs[state.pos];
    const doc = state.project ? state.project(raw) : raw;
    let bson: Uint8Array;
    try {
      bson = BSON.serialize(doc, SERIALIZE_OPTIONS);
    } catch (err) {
      throw new MongoError('BSONObjectTooLarge', `reply could not be encoded: ${(err as Error).message}`);
    }
    if (out.length && bytes + bson.length > MAX_BATCH_BYTES) break;
    out.push(doc);
    out.bson.push(bson);
    bytes += bson.length;
    state.pos++;
  }
  return out;
}
