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
@Injectable()
export class SequenceService implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get counters() {
    return this.connection.collection<Counter>('counters');
  }

  async onModuleInit() {
    await this.counters.createIndex({ companyId: 1, name: 1 }, { unique: true });
  }

  /** The next id of `name` in the company: 1, 2, 3, ... */
  async next(companyId: number, name: string): Promise<number> {
    const filter = { companyId, name };
    let doc: Counter | null;
    try {
      doc = await this.counters.findOneAndUpdate(filter, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
    } catch (err) {
      // Two first calls racing on the upsert: the loser retries against the now-existing counter.
      if ((err as { code?: number }).code !== 11000) throw err;
      doc = await this.counters.findOneAndUpdate(filter, { $inc: { seq: 1 } }, { returnDocument: 'after' });
    }
    if (!doc) throw new Error(`Counter ${name} of company ${companyId} could not be incremented.`);
    return doc.seq;
  }

  /** Makes sure the next id of `name` is above `value` (e.g. after importing existing rows). */
  async atLeast(companyId: number, name: string, value: number): Promise<void> {
    await this.counters.updateOne({ companyId, name }, { $max: { seq: value } }, { upsert: true });
  }
}
