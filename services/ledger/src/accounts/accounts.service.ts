import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectConnection, InjectModel } from '@nestjs/mongoose';
import type { ClientSession, Connection, Model } from 'mongoose';
import type { HistoryRow, PartyKind, PartyRef, PaymentLine, SourceKind, SourceRef } from '@bahi/contracts';
import { castForInsert, duplicateIn, inTransaction, Money, paymentsLabel, SequenceService, type CommittedRecord } from '@bahi/service-kit';
import { LedgerEvents } from '../events/ledger-events';
import { PAGE_SIZE, today } from '../common';
import { EntrySourceDoc } from './entry-source.schema';
import { EntryDoc, type EntryKind } from './entry.schema';
import { PartyAccountDoc } from './party-account.schema';

type Decimal = InstanceType<typeof Money.Decimal>;

export const TYPE_LABELS: Record<EntryKind, string> = {
  opening: 'Opening Balance',
  sale: 'Sale',
  purchase: 'Purchase',
  payment_received: 'Payment Received',
  payment_given: 'Payment Given',
  reversal: 'Reversal',
  credit_note: 'Credit Note',
  debit_note: 'Debit Note',
  cancellation: 'Sale Cancelled',
};

/** The entry a source posts, and the party kind it must be posted to. */
export const SOURCE_ENTRY: Record<SourceKind, { entry: EntryKind; party: PartyKind }> = {
  sale: { entry: 'sale', party: 'customer' },
  purchase: { entry: 'purchase', party: 'distributor' },
  'credit-note': { entry: 'credit_note', party: 'customer' },
  'debit-note': { entry: 'debit_note', party: 'distributor' },
  'sale-cancel': { entry: 'cancellation', party: 'customer' },
};

/** Where a history row leads (the screens open a bill, purchase, receipt or note). */
const LINKS: Partial<Record<EntryKind, string>> = {
  sale: 'bill',
  purchase: 'purchase',
  payment_received: 'receipt',
  credit_note: 'credit-note',
  debit_note: 'debit-note',
  cancellation: 'bill',
};

export const CANCEL_AFTER_PAYMENT = 'A payment was received from this customer after this bill; it cannot be cancelled.';

/** Replies give rupees as numbers rounded to 2 decimals; arithmetic stays exact before that. */
export const num = (d: Money.MoneyInput): number => Money.toNumber(Money.round2(d));

import { entryPayments } from './entry-payments';

export { entryPayments };

export interface PostInput {
  companyId: number;
  party: PartyRef;
  source: SourceRef;
  amount: string;
  paid: string;
  dueDate: string | null;
  date: string;
  docNo?: string | null;
  guard?: { noPaymentAfter: SourceRef } | null;
  /** How `paid` changed hands (checked to add up to it by the caller). */
  payments: PaymentLine[];
  /** Who took the money (user id), null when not known. */
  by: number | null;
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
  /** The tenders (adding up to amount); absent: all cash. */
  payments?: PaymentLine[];
  /** Who took or gave the money (user id). */
  by?: number | null;
}

/** The accounts of customers and distributors: entries, dues, due dates, payments. */
@Injectable()
export class AccountsService {
  constructor(
    @InjectModel(EntryDoc.name) readonly model: Model<EntryDoc>,
    @InjectModel(EntrySourceDoc.name) private readonly sources: Model<EntrySourceDoc>,
    @InjectModel(PartyAccountDoc.name) private readonly partyAccounts: Model<PartyAccountDoc>,
    @InjectConnection() private readonly conn: Connection,
    private readonly seq: SequenceService,
    private readonly events: LedgerEvents,
  ) {}

  /**
   * Post and reverse of a source in one transaction with its `entry_sources` record. Two first
   * upserts of the record may meet as a duplicate key instead of a write conflict: retry that too.
   */
  private withSource<T>(fn: (s: ClientSession) => Promise<T>): Promise<T> {
    return inTransaction(this.conn, fn, (err) => duplicateIn(err, this.sources.collection.collectionName) || duplicateIn(err, this.partyAccounts.collection.collectionName));
  }

  /** The write every payment and guarded post make first in their transaction (see PartyAccountDoc). */
  private async touchParty(companyId: number, party: PartyRef, session: ClientSession): Promise<number> {
    const doc = await this.partyAccounts.collection.findOneAndUpdate(
      { companyId, partyKind: party.kind, partyId: party.id },
      { $inc: { version: 1 } },
      { upsert: true, session, returnDocument: 'after' },
    );
    return Number(doc?.version);
  }

  /**
   * 409 when the party paid after `source` was posted (a payment entry with a later seq), or when
   * `source` has no entry on this party's account. Called after touchParty in the same transaction.
   */
  private async checkNoPaymentAfter(companyId: number, party: PartyRef, source: SourceRef, session: ClientSession): Promise<void> {
    const original = await this.model
      .findOne({ companyId, sourceKind: source.kind, sourceId: source.id, entryKind: SOURCE_ENTRY[source.kind].entry }, { seq: 1, partyKind: 1, partyId: 1 })
      .session(session)
      .lean();
    if (!original || original.partyKind !== party.kind || original.partyId !== party.id) {
      throw new ConflictException(`${source.kind} ${source.id} has no entry on this account; it cannot be cancelled.`);
    }
    const reversed = await this.model.exists({ companyId, sourceKind: source.kind, sourceId: source.id, entryKind: 'reversal' }).session(session);
    if (reversed) throw new ConflictException(`${source.kind} ${source.id} was already reversed; it cannot be cancelled.`);
    const later = await this.model
      .exists({ ...this.partyFilter(companyId, party), entryKind: 'payment_received', seq: { $gt: original.seq } })
      .session(session);
    if (later) throw new ConflictException(CANCEL_AFTER_PAYMENT);
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
      const link = LINKS[e.entryKind] ?? null;
      return {
        id: `${e.sourceKind}-${e.sourceId}-${e.entryKind}`,
        date: e.date,
        type: e.entryKind === 'reversal' ? `Reversal of ${e.sourceKind} ${e.sourceId}` : TYPE_LABELS[e.entryKind],
        ref: e.sourceKind === 'opening' ? null : (e.refId ?? e.sourceId),
        amount: num(e.amount),
        paid: num(e.paid),
        balance: num(balance),
        due_date: e.dueDate,
        hide_link: link,
        doc_no: e.docNo ?? null,
        payments: entryPayments(e),
      };
    });
    return rows;
  }

  /**
   * Posts a source's entry once; false when this source was already posted or was reversed
   * before it got here (a late post after its caller gave up and undid it). A sale or purchase
   * raises the due by amount - paid; a note or a cancellation lowers it by as much. A transaction
   * with the source's record, not one insert: a reverse's mark is that record (README, "Why not fewer").
   */
  async post(input: PostInput): Promise<boolean> {
    const kind = SOURCE_ENTRY[input.source.kind].entry;
    const key = { companyId: input.companyId, sourceKind: input.source.kind, sourceId: input.source.id };
    const raises = kind === 'sale' || kind === 'purchase';
    const net = Money.sub(input.amount, input.paid);
    const delta = raises ? net : net.negated();
    try {
      return await this.withSource(async (session) => {
        // Through the driver: every sale posts here, and mongoose's document building cost more
        // than the writes. The entry is still cast by the schema, with its defaults and createdAt.
        const seen = await this.sources.collection.findOneAndUpdate(key, { $setOnInsert: { reversed: false, at: new Date() } }, { upsert: true, session, returnDocument: 'before' });
        if (seen) {
          // A repeat that brings the number the first post could not know yet (a note is numbered
          // only after its entry is posted): written once onto the entry.
          if (input.docNo) await this.model.collection.updateOne({ ...key, entryKind: kind, docNo: { $exists: false } }, { $set: { docNo: input.docNo } }, { session });
          return null;
        }
        let partyVersion: number | undefined;
        if (input.guard) {
          partyVersion = await this.touchParty(input.companyId, input.party, session);
          await this.checkNoPaymentAfter(input.companyId, input.party, input.guard.noPaymentAfter, session);
        }
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
          payments: input.payments,
          by: input.by,
          ...(input.docNo ? { docNo: input.docNo } : {}),
          ...(input.guard ? { refId: input.guard.noPaymentAfter.id } : {}),
          ...(partyVersion ? { partyVersion } : {}),
          createdAt: new Date(),
        });
        await this.model.collection.insertOne(entry, { session });
        return entry;
      }).then((entry) => {
        // The entry as stored (the driver set its _id; evt is a schema default): the relay publishes it without reading it back.
        if (entry) this.events.relay.kick('entry', [entry]);
        return entry !== null;
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
    const kind = SOURCE_ENTRY[source.kind].entry;
    const key = { companyId, sourceKind: source.kind, sourceId: source.id };
    return this.withSource(async (session) => {
      const seen = await this.sources
        .findOneAndUpdate(key, { $set: { reversed: true }, $setOnInsert: { at: new Date() } }, { upsert: true, session, returnDocument: 'before' })
        .lean();
      if (seen?.reversed) return null;
      // No record: either nothing posted yet, or an entry posted before records were kept.
      const rows = await this.model.find({ ...key, entryKind: { $in: [kind, 'reversal'] } }).session(session).lean();
      const original = rows.find((e) => e.entryKind === kind);
      if (!original || rows.some((e) => e.entryKind === 'reversal')) return null;
      const seq = await this.seq.next(companyId, 'entry');
      const [reversal] = await this.model.create(
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
            // The undone money, as it was taken (the cash books net the two).
            payments: entryPayments(original),
            by: original.by ?? null,
          },
        ],
        { session },
      );
      return reversal!.toObject();
    }).then((reversal) => {
      // The reversal as stored: published without reading it back.
      if (reversal) this.events.relay.kick('entry', [reversal]);
      return reversal !== null;
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
    let entry: CommittedRecord;
    try {
      entry = await this.createPayment(input, paymentId);
    } catch (err) {
      // A concurrent retry with the same key won the unique index: answer its payment.
      if (key && (err as { code?: number }).code === 11000) {
        const seen = await this.earlierPayment(input);
        if (seen !== null) return seen;
      }
      throw err;
    }
    this.events.relay.kick('entry', [entry]);
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

  /** Stores the payment's entry; returns it as stored. */
  private async createPayment(input: PaymentInput, paymentId: number): Promise<CommittedRecord> {
    const seq = await this.seq.next(input.companyId, 'entry');
    // In a transaction with the party's account document, so a bill's cancellation checking
    // "no payment after the bill" cannot miss a payment committing at the same moment.
    return inTransaction(
      this.conn,
      async (session) => {
        const partyVersion = await this.touchParty(input.companyId, input.party, session);
        const [entry] = await this.model.create([{ ...this.paymentEntry(input, paymentId, seq), partyVersion }], { session });
        return entry!.toObject() as CommittedRecord;
      },
      (err) => duplicateIn(err, this.partyAccounts.collection.collectionName),
    );
  }

  private paymentEntry(input: PaymentInput, paymentId: number, seq: number): Partial<EntryDoc> {
    return {
      companyId: input.companyId,
      seq,
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
      payments: input.payments ?? [{ mode: 'cash', amount: Money.toMoneyString(input.amount) }],
      by: input.by ?? null,
      payType: input.type ?? paymentsLabel(input.payments),
      transactionId: input.transactionId ?? (input.payments ?? []).flatMap((p) => (p.ref ? [p.ref] : [])).join(', '),
      ...(input.idempotencyKey ? { idempotencyKey: input.idempotencyKey } : {}),
    };
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
