import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import type { HistoryRow, PartyKind, PartyRef, SourceRef } from '@bahi/contracts';
import { castForInsert, duplicateIn, inTransaction, Money, SequenceService } from '@bahi/service-kit';
import { PAGE_SIZE, today } from '../common';
import { EntrySourceDoc } from './entry-source.schema';
import { EntryDoc, type EntryKind } from './entry.schema';

type Decimal = InstanceType<typeof Money.Decimal>;

const TYPE_LABELS: Record<EntryKind, string> = {
  opening: 'Opening Balance',
  sale: 'Sale',
  purchase: 'Purchase',
  payment_received: 'Payment Received',
  payment_given: 'Payment Given',
  reversal: 'Reversal',
};

/** Replies give rupees as numbers rounded to 2 decimals; arithmetic stays exact before that. */
export const num = (d: Money.MoneyInput): number => Money.toNumber(Money.round2(d));

export interface PostInput {
  companyId: number;
  party: PartyRef;
  source: SourceRef;
  amount: string;
  paid: string;
  dueDate: string;
  date: string;
}

export interface PaymentInput {
  companyId: number;
  party: PartyRef;
  amount: string;
  nextDD: string;
  date?: string;
  type?: string;
  transactionId?: string;
  /** A retry with the same key answers the first payment's id instead of paying again. */
  idempotencyKey?: string;
}

/** The accounts of customers and distributors: entries, dues, due dates, payments. */
@Injectable()
export class AccountsService {
  constructor(
    @InjectModel(EntryDoc.name) readonly model: Model<EntryDoc>,
    @InjectModel(EntrySourceDoc.name) private readonly sources: Model<EntrySourceDoc>,
    @InjectConnection() private readonly conn: Connection,
    private readonly seq: SequenceService,
  ) {}

  /**
   * Post and reverse of a source in one transaction with its `entry_sources` record. Two first
   * upserts of the record may meet as a duplicate key instead of a write conflict: retry that too.
   */
  private withSource<T>(fn: (s: ClientSession) => Promise<T>): Promise<T> {
    return inTransaction(this.conn, fn, (err) => duplicateIn(err, this.sources.collection.collectionName));
  }

  private partyFilter(companyId: number, party: PartyRef) {
    return { companyId, partyKind: party.kind, partyId: party.id };
  }

  /** Exact due and the latest next due date of one party. */
  async dueOf(companyId: number, party: PartyRef): Promise<{ due: Decimal; dueDate: string | null }> {
    const entries = await this.model.find(this.partyFilter(companyId, party), { delta: 1, dueDate: 1, entryKind: 1, seq: 1 }).sort({ seq: 1 }).lean();
    let dueDate: string | null = null;
    for (const e of entries) if (e.dueDate && e.entryKind !== 'reversal') dueDate = e.dueDate;
    return { due: Money.add(...entries.map((e) => e.delta)), dueDate };
  }

  /** Exact dues of several parties of one kind (lists). */
  async duesOf(companyId: number, kind: PartyKind, ids: number[]): Promise<Map<number, Decimal>> {
    const out = new Map<number, Decimal>(ids.map((id) => [id, Money.money(0)]));
    if (!ids.length) return out;
    const entries = await this.model.find({ companyId, partyKind: kind, partyId: { $in: ids } }, { partyId: 1, delta: 1 }).lean();
    for (const e of entries) out.set(e.partyId, out.get(e.partyId)!.plus(Money.money(e.delta)));
    return out;
  }

  /** One page of a party's account, newest first, each row with the due after it. */
  async history(companyId: number, party: PartyRef, pageNo: number): Promise<{ list: HistoryRow[]; noOfPages: number }> {
    const rows = (await this.allRows(companyId, party)).reverse();
    const noOfPages = Math.ceil(rows.length / PAGE_SIZE);
    return { list: rows.slice(pageNo * PAGE_SIZE, (pageNo + 1) * PAGE_SIZE), noOfPages };
  }

  /** How many entries a party's account has. */
  entryCount(companyId: number, party: PartyRef): Promise<number> {
    return this.model.countDocuments(this.partyFilter(companyId, party));
  }

  /** Every row of a party's account, oldest first, in one read (the statement prints them all). */
  async allRows(companyId: number, party: PartyRef): Promise<HistoryRow[]> {
    const entries = await this.model.find(this.partyFilter(companyId, party)).sort({ seq: 1 }).lean();
    let balance = Money.money(0);
    const rows: HistoryRow[] = entries.map((e) => {
      balance = balance.plus(Money.money(e.delta));
      const link =
        e.entryKind === 'sale' ? 'bill' : e.entryKind === 'purchase' ? 'purchase' : e.entryKind === 'payment_received' ? 'receipt' : null;
      return {
        id: `${e.sourceKind}-${e.sourceId}-${e.entryKind}`,
        date: e.date,
        type: e.entryKind === 'reversal' ? `Reversal of ${e.sourceKind} ${e.sourceId}` : TYPE_LABELS[e.entryKind],
        ref: e.sourceKind === 'opening' ? null : e.sourceId,
        amount: num(e.amount),
        paid: num(e.paid),
        balance: num(balance),
        due_date: e.dueDate,
        hide_link: link,
      };
    });
    return rows;
  }

  /**
   * Posts a sale's or purchase's entry once; false when this source was already posted or was
   * reversed before it got here (a late post after its caller gave up and undid it).
   */
  async post(input: PostInput): Promise<boolean> {
    const kind: EntryKind = input.source.kind === 'sale' ? 'sale' : 'purchase';
    const key = { companyId: input.companyId, sourceKind: input.source.kind, sourceId: input.source.id };
    const delta = Money.sub(input.amount, input.paid);
    try {
      return await this.withSource(async (session) => {
        // Through the driver: every sale posts here, and mongoose's document building cost more
        // than the writes. The entry is still cast by the schema, with its defaults and createdAt.
        const seen = await this.sources.collection.findOneAndUpdate(key, { $setOnInsert: { reversed: false, at: new Date() } }, { upsert: true, session, returnDocument: 'before' });
        if (seen) return false;
        // The counter stays outside the transaction: every entry of the company takes it.
        const seq = await this.seq.next(input.companyId, 'entry');
        const entry = castForInsert(this.model as never, {
          ...key,
          entryKind: kind,
          seq,
          partyKind: input.party.kind,
          partyId: input.party.id,
          amount: Money.toMoneyString(input.amount),
          paid: Money.toMoneyString(input.paid),
          delta: Money.toMoneyString(delta),
          date: input.date,
          dueDate: input.dueDate,
          createdAt: new Date(),
        });
        await this.model.collection.insertOne(entry, { session });
        return true;
      });
    } catch (err) {
      // The entry is there without a record: posted before records were kept.
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  /**
   * Reverses what a source posted, once; false when nothing to reverse or already reversed. A
   * source not posted yet is marked reversed, so its late post posts nothing.
   */
  async reverse(companyId: number, source: SourceRef): Promise<boolean> {
    const kind: EntryKind = source.kind === 'sale' ? 'sale' : 'purchase';
    const key = { companyId, sourceKind: source.kind, sourceId: source.id };
    return this.withSource(async (session) => {
      const seen = await this.sources
        .findOneAndUpdate(key, { $set: { reversed: true }, $setOnInsert: { at: new Date() } }, { upsert: true, session, returnDocument: 'before' })
        .lean();
      if (seen?.reversed) return false;
      // No record: either nothing posted yet, or an entry posted before records were kept.
      const rows = await this.model.find({ ...key, entryKind: { $in: [kind, 'reversal'] } }).session(session).lean();
      const original = rows.find((e) => e.entryKind === kind);
      if (!original || rows.some((e) => e.entryKind === 'reversal')) return false;
      const seq = await this.seq.next(companyId, 'entry');
      await this.model.create(
        [
          {
            ...key,
            seq,
            partyKind: original.partyKind,
            partyId: original.partyId,
            entryKind: 'reversal',
            amount: original.amount,
            paid: original.paid,
            delta: Money.toMoneyString(Money.money(original.delta).negated()),
            date: today(),
            dueDate: null,
          },
        ],
        { session },
      );
      return true;
    });
  }

  /** Records a payment received from a customer or given to a distributor; returns its payment id. */
  async pay(input: PaymentInput): Promise<number> {
    const key = input.idempotencyKey;
    if (key) {
      const seen = await this.earlierPayment(input);
      if (seen !== null) return seen;
    }
    const paymentId = await this.seq.next(input.companyId, 'payment');
    try {
      await this.createPayment(input, paymentId);
    } catch (err) {
      // A concurrent retry with the same key won the unique index: answer its payment.
      if (key && (err as { code?: number }).code === 11000) {
        const seen = await this.earlierPayment(input);
        if (seen !== null) return seen;
      }
      throw err;
    }
    return paymentId;
  }

  private async earlierPayment(input: PaymentInput): Promise<number | null> {
    const e = await this.model.findOne({ companyId: input.companyId, idempotencyKey: input.idempotencyKey }).lean();
    if (!e) return null;
    if (e.sourceKind !== 'payment' || e.partyKind !== input.party.kind || e.partyId !== input.party.id || !Money.money(e.amount).eq(Money.money(input.amount))) {
      throw new ConflictException('This Idempotency-Key was already used for a different payment.');
    }
    return e.sourceId;
  }

  private async createPayment(input: PaymentInput, paymentId: number): Promise<void> {
    await this.model.create({
      companyId: input.companyId,
      seq: await this.seq.next(input.companyId, 'entry'),
      partyKind: input.party.kind,
      partyId: input.party.id,
      entryKind: input.party.kind === 'customer' ? 'payment_received' : 'payment_given',
      sourceKind: 'payment',
      sourceId: paymentId,
      amount: Money.toMoneyString(input.amount),
      paid: '0',
      delta: Money.toMoneyString(Money.money(input.amount).negated()),
      date: input.date ?? today(),
      dueDate: input.nextDD,
      payType: input.type ?? 'Cash',
      transactionId: input.transactionId ?? '',
      ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
    });
  }

  /** An opening balance (what the party owed before the books started); used by the demo data. */
  async opening(companyId: number, party: PartyRef, amount: string, date: string, dueDate: string | null): Promise<void> {
    await this.model.create({
      companyId,
      seq: await this.seq.next(companyId, 'entry'),
      partyKind: party.kind,
      partyId: party.id,
      entryKind: 'opening',
      sourceKind: 'opening',
      sourceId: await this.seq.next(companyId, 'opening'),
      amount: Money.toMoneyString(amount),
      paid: '0',
      delta: Money.toMoneyString(amount),
      date,
      dueDate,
    });
  }

  /** A customer payment with the dues just before and after it (receipt view). */
  async receipt(companyId: number, paymentId: number) {
    const entry = await this.model.findOne({ companyId, sourceKind: 'payment', sourceId: paymentId, entryKind: 'payment_received' }).lean();
    if (!entry) throw new NotFoundException(`Payment ${paymentId} not found.`);
    const before = await this.model
      .find({ companyId, partyKind: entry.partyKind, partyId: entry.partyId, seq: { $lt: entry.seq } }, { delta: 1 })
      .lean();
    const previous = Money.add(...before.map((e) => e.delta));
    return { entry, previous, after: previous.plus(Money.money(entry.delta)) };
  }
}
