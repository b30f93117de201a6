import { mongo, type ClientSession, type Connection } from 'mongoose';

/**
 * Running totals of the product list (count, stock, stock value at cost), one document per
 * (category, brand, level, active) bucket and stripe. The list's filters are equalities on those
 * fields, so any filter's totals are the sum of the matching buckets: no scan of the products.
 * Every write that changes a product's stock, cp, category, brand, level or active shifts the
 * buckets in the same transaction. Stock and value are Longs (thousandths; thousandths x paise),
 * exact beyond 2^53.
 */
export interface Contribution {
  product_id: number;
  category: number | null;
  brand_name: string;
  level: number;
  active: number;
  stock_m: number;
  cp_p: number;
}

export interface Totals {
  n: number;
  stock: bigint;
  value: bigint;
}

/** Filter of the bucket fields only (the product list's equalities). */
export type BucketFilter = Partial<Pick<Contribution, 'category' | 'brand_name' | 'level' | 'active'>>;

// Sales of different products of one bucket would all write one document and conflict; spread
// them over a few documents per bucket (reads add the stripes up).
const STRIPES = 8;

type TxnRunner = <T>(fn: (s: ClientSession) => Promise<T>) => Promise<T>;

const big = (v: unknown): bigint => (v === undefined || v === null ? 0n : BigInt(String(v)));

/** A duplicate key while upserting a bucket is a race with another transaction: retry it. */
class TotalsRace extends Error {
  hasErrorLabel(l: string) {
    return l === 'TransientTransactionError';
  }
}

export class ProductTotals {
  /** Companies whose buckets are known to be built (the mark is never removed). */
  private readonly ready = new Set<number>();

  constructor(
    private readonly conn: Connection,
    private readonly inTransaction: TxnRunner,
  ) {}

  private get buckets() {
    return this.conn.db!.collection('product_totals');
  }
  private get marks() {
    return this.conn.db!.collection('product_totals_marks');
  }

  async init(): Promise<void> {
    await this.buckets.createIndex({ companyId: 1, category: 1, brand_name: 1, level: 1, active: 1, stripe: 1 }, { unique: true });
    await this.marks.createIndex({ companyId: 1 }, { unique: true });
  }

  /** Moves a product's share from `before` to `after` (null = not counted: created / deleted). */
  shift(companyId: number, before: Contribution | null, after: Contribution | null, session: ClientSession): Promise<void> {
    return this.shiftMany(companyId, [{ before, after }], session);
  }

  /** Several shifts (the lines of one sale) as one write of the buckets they touch. */
  async shiftMany(companyId: number, shifts: { before: Contribution | null; after: Contribution | null }[], session: ClientSession): Promise<void> {
    const incs: { key: BucketFilter; stripe: number; n: number; stock: bigint; value: bigint }[] = [];
    const add = (c: Contribution, sign: 1 | -1) => {
      const key = { category: c.category ?? null, brand_name: c.brand_name ?? '', level: c.level, active: c.active };
      const stripe = c.product_id % STRIPES;
      const stock = BigInt(sign) * BigInt(c.stock_m);
      const value = stock * BigInt(c.cp_p);
      const same = incs.find((i) => i.stripe === stripe && sameKey(i.key, key));
      if (same) {
        same.n += sign;
        same.stock += stock;
        same.value += value;
      } else incs.push({ key, stripe, n: sign, stock, value });
    };
    for (const { before, after } of shifts) {
      if (before) add(before, -1);
      if (after) add(after, 1);
    }
    const writes = incs
      .filter((i) => i.n !== 0 || i.stock !== 0n || i.value !== 0n)
      .map((i) => ({
        updateOne: {
          filter: { companyId, ...i.key, stripe: i.stripe },
          update: { $inc: { n: i.n, stock_m: mongo.Long.fromBigInt(i.stock), value: mongo.Long.fromBigInt(i.value) } },
          upsert: true,
        },
      }));
    if (!writes.length) return;
    try {
      await this.buckets.bulkWrite(writes, { session, ordered: true });
    } catch (err) {
      const e = err as { code?: number; writeErrors?: { code?: number }[] };
      if (e.code === 11000 || e.writeErrors?.some((w) => w.code === 11000)) throw new TotalsRace('product totals: concurrent first write of a bucket');
      throw err;
    }
  }

  /** Sum of the buckets matching `filter`; builds the company's buckets first if they never were. */
  async read(companyId: number, filter: BucketFilter): Promise<Totals> {
    await this.ensureBuilt(companyId);
    const rows = await this.buckets.find({ companyId, ...filter }, { projection: { n: 1, stock_m: 1, value: 1 } }).toArray();
    const t: Totals = { n: 0, stock: 0n, value: 0n };
    for (const r of rows) {
      t.n += Number(r.n ?? 0);
      t.stock += big(r.stock_m);
      t.value += big(r.value);
    }
    return t;
  }

  /**
   * One scan per company, ever: for products written before the totals existed (or inserted
   * straight into the database). In one transaction with the mark; a movement committed meanwhile
   * touches a bucket this rewrites, so one of the two retries.
   */
  async ensureBuilt(companyId: number): Promise<void> {
    if (this.ready.has(companyId)) return;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.inTransaction(async (session) => {
          if (await this.marks.findOne({ companyId }, { session })) return;
          const sums = new Map<string, { key: BucketFilter; n: number; stock: bigint; value: bigint }>();
          const cursor = this.conn.db!
            .collection('products')
            .find({ companyId }, { session, projection: { category: 1, brand_name: 1, level: 1, active: 1, stock_m: 1, cp_p: 1 } });
          for await (const p of cursor) {
            const key = { category: p.category ?? null, brand_name: p.brand_name ?? '', level: p.level, active: p.active };
            const id = JSON.stringify([key.category, key.brand_name, key.level, key.active]);
            let s = sums.get(id);
            if (!s) sums.set(id, (s = { key, n: 0, stock: 0n, value: 0n }));
            s.n++;
            s.stock += big(p.stock_m);
            s.value += big(p.stock_m) * big(p.cp_p);
          }
          await this.buckets.deleteMany({ companyId }, { session });
          if (sums.size) {
            await this.buckets.insertMany(
              [...sums.values()].map((s) => ({ companyId, ...s.key, stripe: 0, n: s.n, stock_m: mongo.Long.fromBigInt(s.stock), value: mongo.Long.fromBigInt(s.value) })),
              { session },
            );
          }
          await this.marks.insertOne({ companyId, at: new Date() }, { session });
        });
        this.ready.add(companyId);
        return;
      } catch (err) {
        // Another build (the mark) or a first bucket write won the race: look again.
        if ((err as { code?: number }).code !== 11000 || attempt >= 5) throw err;
      }
    }
  }
}

function sameKey(a: BucketFilter, b: BucketFilter) {
  return a.category === b.category && a.brand_name === b.brand_name && a.level === b.level && a.active === b.active;
}

/** A product's share of the totals. */
export function contribution(p: Contribution): Contribution {
  return { product_id: p.product_id, category: p.category ?? null, brand_name: p.brand_name ?? '', level: p.level, active: p.active, stock_m: p.stock_m, cp_p: p.cp_p };
}
