import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';

interface Counter {
  companyId: number;
  name: string;
  seq: number;
}

/**
 * Per-company sequential ids (product 12, sale 7) from a `counters` collection:
 * one document per {companyId, name}, incremented atomically with upsert.
 * Platform-wide sequences (company ids) use companyId 0.
 */
/** Ids per reservation of `unique`. */
const BLOCK = 100;

@Injectable()
export class SequenceService implements OnModuleInit {
  private readonly blocks = new Map<string, { next: number; last: number } | { pending: Promise<void> }>();

  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get counters() {
    return this.connection.collection<Counter>('counters');
  }

  async onModuleInit() {
    await this.counters.createIndex({ companyId: 1, name: 1 }, { unique: true });
  }

  /** The next id of `name` in the company: 1, 2, 3, ... */
  async next(companyId: number, name: string): Promise<number> {
    return this.reserve(companyId, name, 1);
  }

  /** Takes `count` consecutive ids in one step and returns the first. */
  async reserve(companyId: number, name: string, count: number): Promise<number> {
    if (!Number.isSafeInteger(count) || count < 1) throw new Error(`Cannot reserve ${count} ids of ${name}.`);
    const filter = { companyId, name };
    let doc: Counter | null;
    try {
      doc = await this.counters.findOneAndUpdate(filter, { $inc: { seq: count } }, { upsert: true, returnDocument: 'after' });
    } catch (err) {
      // Two first calls racing on the upsert: the loser retries against the now-existing counter.
      if ((err as { code?: number }).code !== 11000) throw err;
      doc = await this.counters.findOneAndUpdate(filter, { $inc: { seq: count } }, { returnDocument: 'after' });
    }
    if (!doc) throw new Error(`Counter ${name} of company ${companyId} could not be incremented.`);
    return doc.seq - count + 1;
  }

  /**
   * A unique id of `name` for ids nobody reads as a number series (cart line numbers): taken from
   * a block of BLOCK reserved at once, so most calls cost no database round trip. Ids stay unique
   * across replicas and restarts, but have gaps and are not in time order between processes.
   */
  async unique(companyId: number, name: string): Promise<number> {
    const key = `${companyId}\u0000${name}`;
    for (;;) {
      const block = this.blocks.get(key);
      if (block && !('pending' in block) && block.next <= block.last) return block.next++;
      if (block && 'pending' in block) {
        await block.pending;
        continue;
      }
      const pending = this.reserve(companyId, name, BLOCK).then(
        (first) => void this.blocks.set(key, { next: first, last: first + BLOCK - 1 }),
        (err) => {
          this.blocks.delete(key);
          throw err;
        },
      );
      this.blocks.set(key, { pending });
      await pending;
    }
  }

  /** Makes sure the next id of `name` is above `value` (e.g. after importing existing rows). */
  async atLeast(companyId: number, name: string, value: number): Promise<void> {
    await this.counters.updateOne({ companyId, name }, { $max: { seq: value } }, { upsert: true });
  }
}
