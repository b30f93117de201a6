// A tiny service with one business fact ("tally"), its remote steps answered over real NATS.
import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import { InjectModel, MongooseModule } from '@nestjs/mongoose';
import { type Model, Schema } from 'mongoose';
import type { Logger } from 'pino';
import { Subjects } from '@bahi/contracts';
import { BahiServiceModule, indexSaga, LOGGER, NatsClient, Saga, sagaFields, type SagaOptions, type SagaRecord } from '../src';

export interface TallyDoc extends SagaRecord {
  tallyId: number;
  amount: string;
}
const TallySchema = new Schema<TallyDoc>({ companyId: { type: Number, required: true }, tallyId: { type: Number, required: true }, ...sagaFields, amount: String }, { collection: 'tallies' });
indexSaga(TallySchema, 'tallyId');

/** What the "other services" hold: applied stock and posted entries by source id, and the faults to inject. */
@Injectable()
export class Remote {
  stock = new Map<number, number>();
  entries = new Set<number>();
  calls = { apply: 0, post: 0, finish: 0, completed: 0 };
  failPost = false;
  failUndo = false;
  slowApplyMs = 0;
  /** The step after the point of no return acts, then throws (its reply lost). */
  failFinish = false;
  /** While set, the attempt waits for it between its stock and ledger steps (a test drives the interleaving by hand). */
  holdApply: Promise<void> | null = null;
  /** The point of no return written by the step's own update (as a GST number's is), not by `mark`. */
  ownMark = false;
  /** The point of no return written by the step's own update through `saga.passNoReturn` (guarded, as a GST invoice number is). */
  guardedMark = false;
  /** The same for the step after the point of no return. */
  holdFinish: Promise<void> | null = null;
  /** Sources reversed: a late apply or post of one is a no-op, as in inventory and ledger. */
  reversed = new Set<number>();
}

@Controller()
class RemoteController {
  constructor(private readonly r: Remote) {}
  @MessagePattern(Subjects.inventory.stockApply)
  async apply(@Payload() p: { source: { id: number } }) {
    this.r.calls.apply++;
    if (this.r.slowApplyMs) await new Promise((res) => setTimeout(res, this.r.slowApplyMs));
    if (!this.r.reversed.has(p.source.id)) this.r.stock.set(p.source.id, 1);
    return { applied: true, movements: [], negativeStock: [] };
  }
  @MessagePattern(Subjects.inventory.stockReverse)
  reverse(@Payload() p: { source: { id: number } }) {
    if (this.r.failUndo) throw new RpcException({ status: 503, message: 'stock is down' });
    this.r.reversed.add(p.source.id);
    return { reversed: this.r.stock.delete(p.source.id) };
  }
  @MessagePattern(Subjects.ledger.entryPost)
  post(@Payload() p: { source: { id: number } }) {
    this.r.calls.post++;
    if (this.r.failPost) throw new RpcException({ status: 409, message: 'the ledger refused' });
    if (this.r.reversed.has(p.source.id)) return { posted: false };
    this.r.entries.add(p.source.id);
    return { posted: true };
  }
  @MessagePattern(Subjects.ledger.entryReverse)
  unpost(@Payload() p: { source: { id: number } }) {
    if (this.r.failUndo) throw new RpcException({ status: 503, message: 'ledger is down' });
    return { reversed: this.r.entries.delete(p.source.id) };
  }
}

/** The tally's saga; `renewEveryMs: 0` stands in for a stalled owner (its lease runs out under it). */
export function tallySaga(model: Model<TallyDoc>, nats: NatsClient, remote: Remote, log: Logger, leaseMs: number, renewEveryMs?: number, relay?: SagaOptions<TallyDoc, unknown>['relay']) {
  const source = (t: TallyDoc) => ({ kind: 'sale' as const, id: t.tallyId });
  const saga: Saga<TallyDoc, { tallyId: number }> = new Saga<TallyDoc, { tallyId: number }>({
    model,
    idField: 'tallyId',
    noun: 'tally',
    leaseMs,
    renewEveryMs,
    relay,
    log,
    apply: async (t) => {
      await nats.send(Subjects.inventory.stockApply, { companyId: t.companyId, source: source(t), lines: [] });
      await saga.mark(t, { stockApplied: true });
      if (remote.holdApply) await remote.holdApply;
      await nats.send(Subjects.ledger.entryPost, { companyId: t.companyId, party: { kind: 'customer', id: 0 }, source: source(t), amount: t.amount, paid: '0' });
      if (remote.ownMark) {
        await model.collection.updateOne({ companyId: t.companyId, tallyId: t.tallyId }, { $set: { ledgerPosted: true } });
        t.ledgerPosted = true;
      } else if (remote.guardedMark) {
        await saga.passNoReturn(t, async (guard, renew) => {
          const r = await model.collection.updateOne({ companyId: t.companyId, tallyId: t.tallyId, ...guard }, { $set: { ledgerPosted: true, ...renew } });
          return r.matchedCount === 1;
        });
        t.ledgerPosted = true;
      } else await saga.mark(t, { ledgerPosted: true });
    },
    finish: async () => {
      if (remote.holdFinish) await remote.holdFinish;
      remote.calls.finish++;
      if (remote.failFinish) throw new Error('the reply was lost');
    },
    undo: async (t) => {
      await nats.send(Subjects.inventory.stockReverse, { companyId: t.companyId, source: source(t) });
      await nats.send(Subjects.ledger.entryReverse, { companyId: t.companyId, source: source(t) });
    },
    answer: (t) => ({ tallyId: t.tallyId }),
    completed: () => void remote.calls.completed++,
    undoneTail: 'Nothing was counted.',
    laterTail: 'It will be undone automatically.',
  });
  return saga;
}

@Injectable()
export class TallyService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly saga: Saga<TallyDoc, { tallyId: number }>;
  /** The same fact run by an owner that stalls: it never renews its lease. */
  readonly stalled: Saga<TallyDoc, { tallyId: number }>;
  constructor(
    @InjectModel('Tally') readonly model: Model<TallyDoc>,
    readonly nats: NatsClient,
    readonly remote: Remote,
    @Inject(LOGGER) readonly log: Logger,
  ) {
    this.saga = tallySaga(model, nats, remote, log, 2000);
    this.stalled = tallySaga(model, nats, remote, log, 2000, 0);
  }
  onApplicationBootstrap() {
    this.saga.start();
  }
  onApplicationShutdown() {
    this.saga.stop();
  }
  /** A new tally keyed by `key`, the key looked up first (as purchases and returns do). */
  async count(companyId: number, tallyId: number, key: string, saga = this.saga) {
    const earlier = await saga.replay(companyId, key);
    if (earlier) return earlier;
    return saga.run(this.record(companyId, tallyId, key, saga));
  }

  /** The same without the lookup, as MAKE_SALE does: the insert finds the key taken. */
  first(companyId: number, tallyId: number, key: string, saga = this.saga) {
    return saga.run(this.record(companyId, tallyId, key, saga));
  }

  record(companyId: number, tallyId: number, key: string, saga = this.saga): TallyDoc {
    return { companyId, tallyId, status: 'pending', idempotencyKey: key, lockedUntil: saga.lease(), stockApplied: false, ledgerPosted: false, warnings: [], amount: '10' };
  }
}

@Module({
  imports: [BahiServiceModule.forRoot({ service: 'inventory' }), MongooseModule.forFeature([{ name: 'Tally', schema: TallySchema }])],
  controllers: [RemoteController],
  providers: [Remote, TallyService],
})
export class SagaProbeModule {}

/** A service without a database: the kit's wiring and a NATS-only /health. */
@Module({ imports: [BahiServiceModule.forRoot({ service: 'documents', database: false })] })
export class NoDatabaseProbeModule {}
