import { ConflictException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { PAY_MODES, type PayMode, type RegisterCloseReply, type RegisterDocument, type RegisterOpenReply, type RegisterSession } from '@bahi/contracts';
import { Money, SequenceService, today } from '@bahi/service-kit';
import { num } from '../accounts/accounts.service';
import { EntryDoc } from '../accounts/entry.schema';
import { ExpenseDoc } from '../expenses/expense.schema';
import { sessionFigures, type ExpenseMovement, type SessionFigures } from './figures';
import { RegisterSessionDoc } from './register.schema';

export interface Cashier {
  companyId: number;
  userId: number;
  name: string;
}

type Session = RegisterSessionDoc;

const money = (d: Money.MoneyInput | null) => (d === null ? null : Money.toMoneyString(d));

/** The cash register of each cashier: open, the running figures, close with the counted cash. */
@Injectable()
export class RegisterService {
  constructor(
    @InjectModel(RegisterSessionDoc.name) private readonly sessions: Model<RegisterSessionDoc>,
    @InjectModel(EntryDoc.name) private readonly entries: Model<EntryDoc>,
    @InjectModel(ExpenseDoc.name) private readonly expenseModel: Model<ExpenseDoc>,
    private readonly seq: SequenceService,
  ) {}

  async open(who: Cashier, openingCash: string, now = new Date()): Promise<RegisterOpenReply> {
    const held = await this.current(who.companyId, who.userId);
    if (held) throw this.alreadyOpen(held);
    const sessionId = await this.seq.next(who.companyId, 'register');
    try {
      await this.sessions.create({ companyId: who.companyId, sessionId, userId: who.userId, userName: who.name, date: today(now.getTime()), openedAt: now, openingCash, open: true });
    } catch (err) {
      // Two opens at once: the unique index of open sessions lets one through.
      if ((err as { code?: number }).code === 11000) {
        const other = await this.current(who.companyId, who.userId);
        if (other) throw this.alreadyOpen(other);
      }
      throw err;
    }
    return { id: sessionId, opened_at: now.toISOString(), opening_cash: num(openingCash) };
  }

  private alreadyOpen(s: Session): ConflictException {
    return new ConflictException(`Your register is already open (session ${s.sessionId}, opened ${s.openedAt.toISOString()}); close it before opening another.`);
  }

  current(companyId: number, userId: number): Promise<Session | null> {
    return this.sessions.findOne({ companyId, userId, open: true }).lean<Session>();
  }

  /** The running session as the counter shows it, or null when this cashier has none open. */
  async currentView(companyId: number, userId: number, now = new Date()): Promise<RegisterSession | null> {
    const s = await this.current(companyId, userId);
    return s ? this.view(s, await this.figures(s, now)) : null;
  }

  async close(who: Cashier, countedCash: string, note: string, now = new Date()): Promise<RegisterCloseReply> {
    const s = await this.current(who.companyId, who.userId);
    if (!s) throw new ConflictException('Your register is not open; there is nothing to close.');
    const f = await this.figures(s, now);
    const expected = Money.money(s.openingCash).plus(f.totals.cash);
    const closed = await this.sessions.updateOne(
      { companyId: s.companyId, sessionId: s.sessionId, open: true },
      {
        $set: {
          open: false,
          closedAt: now,
          countedCash,
          expectedCash: money(expected),
          cashIn: money(f.cashIn),
          cashOut: money(f.cashOut),
          totals: Object.fromEntries(PAY_MODES.map((m) => [m, money(f.totals[m])])),
          salesCount: f.salesCount,
          note,
        },
      },
    );
    // A second close at the same moment found it still open; this one lost.
    if (closed.modifiedCount !== 1) throw new ConflictException('Your register is not open; there is nothing to close.');
    return {
      id: s.sessionId,
      expected_cash: num(expected),
      counted_cash: num(countedCash),
      difference: num(Money.money(countedCash).minus(expected)),
      totals: numTotals(f.totals),
      sales_count: f.salesCount,
    };
  }

  /** Sessions opened on `date` (India): the caller's own, or every cashier's for a manager. Open ones with their running figures. */
  async list(companyId: number, date: string, userId: number | null, now = new Date()): Promise<RegisterSession[]> {
    const rows = await this.sessions.find({ companyId, date, ...(userId !== null ? { userId } : {}) }).sort({ openedAt: 1, sessionId: 1 }).lean<Session[]>();
    return Promise.all(rows.map(async (s) => this.view(s, s.open ? await this.figures(s, now) : null)));
  }

  /** The Z report's data, exact; null when unknown or another cashier's session asked by staff. */
  async document(companyId: number, sessionId: number, userId: number, manager: boolean, now = new Date()): Promise<RegisterDocument | null> {
    const s = await this.sessions.findOne({ companyId, sessionId }).lean<Session>();
    if (!s || (!manager && s.userId !== userId)) return null;
    const f = await this.figures(s, s.closedAt ?? now);
    const expected = s.expectedCash ?? money(Money.money(s.openingCash).plus(f.totals.cash))!;
    return {
      id: s.sessionId,
      open: s.open,
      user_name: s.userName,
      opened_at: s.openedAt.toISOString(),
      closed_at: s.closedAt ? s.closedAt.toISOString() : null,
      opening_cash: s.openingCash,
      cash_in: s.cashIn ?? money(f.cashIn)!,
      cash_out: s.cashOut ?? money(f.cashOut)!,
      expected_cash: expected,
      counted_cash: s.countedCash,
      difference: s.countedCash === null ? null : money(Money.money(s.countedCash).minus(expected)),
      totals: (s.totals as Record<PayMode, string> | null) ?? (Object.fromEntries(PAY_MODES.map((m) => [m, money(f.totals[m])])) as Record<PayMode, string>),
      sales_count: s.salesCount ?? f.salesCount,
      note: s.note,
      movements: f.movements,
    };
  }

  /** Every entry this cashier recorded from the opening to `until`, and the expenses they paid. */
  private async figures(s: Session, until: Date): Promise<SessionFigures> {
    const entries = await this.entries
      .find({ companyId: s.companyId, by: s.userId, createdAt: { $gte: s.openedAt, $lte: until } }, { _id: 0, entryKind: 1, sourceKind: 1, sourceId: 1, refId: 1, partyKind: 1, payments: 1, amount: 1, paid: 1, createdAt: 1 })
      .sort({ createdAt: 1 })
      .lean<(EntryDoc & { createdAt: Date })[]>();
    return sessionFigures(entries, await this.expenses(s, until));
  }

  /**
   * The expenses this cashier added while the session was open, as they now are (an edit's amount
   * and tenders; a deleted one counts no more). Paid out of the drawer in their modes.
   */
  private async expenses(s: Session, until: Date): Promise<ExpenseMovement[]> {
    const rows = await this.expenseModel
      .find({ companyId: s.companyId, 'by.id': s.userId, deleted: false, createdAt: { $gte: s.openedAt, $lte: until } }, { _id: 0, expenseId: 1, payments: 1, createdAt: 1 })
      .lean<ExpenseDoc[]>();
    return rows.map((x) => ({ at: x.createdAt!, expenseId: x.expenseId, payments: x.payments }));
  }

  private view(s: Session, running: SessionFigures | null): RegisterSession {
    const totals = running ? numTotals(running.totals) : (Object.fromEntries(PAY_MODES.map((m) => [m, num(s.totals?.[m] ?? '0')])) as Record<PayMode, number>);
    const expected = running ? Money.money(s.openingCash).plus(running.totals.cash) : Money.money(s.expectedCash ?? s.openingCash);
    return {
      id: s.sessionId,
      open: s.open,
      user_id: s.userId,
      user_name: s.userName,
      opened_at: s.openedAt.toISOString(),
      closed_at: s.closedAt ? s.closedAt.toISOString() : null,
      opening_cash: num(s.openingCash),
      cash_in: num(running ? running.cashIn : (s.cashIn ?? '0')),
      cash_out: num(running ? running.cashOut : (s.cashOut ?? '0')),
      expected_cash: num(expected),
      counted_cash: s.countedCash === null ? null : num(s.countedCash),
      difference: s.countedCash === null ? null : num(Money.money(s.countedCash).minus(expected)),
      totals,
      sales_count: running ? running.salesCount : (s.salesCount ?? 0),
      note: s.note,
    };
  }
}

function numTotals(t: Record<PayMode, InstanceType<typeof Money.Decimal>>): Record<PayMode, number> {
  return Object.fromEntries(PAY_MODES.map((m) => [m, num(t[m])])) as Record<PayMode, number>;
}
