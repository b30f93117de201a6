import { Body, Controller, Get, Inject, Put } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { OpeningBalancesReply, TokenClaims } from '@bahi/contracts';
import { CurrentUser, pendingEventFields, Positions, Tenant } from '@bahi/service-kit';
import { LedgerEvents } from '../events/ledger-events';
import { body, pastDate, rupees } from './money-input';
import { OpeningDoc } from './opening.schema';

const two = (s: string) => Number(s).toFixed(2);

/** PUT/GET /books/opening (managers): the cash and bank the books start from (issue 29). */
@Controller('books')
@Positions('manager')
export class BooksController {
  constructor(
    @InjectModel(OpeningDoc.name) private readonly openings: Model<OpeningDoc>,
    @Inject(LedgerEvents) private readonly events: LedgerEvents,
  ) {}

  @Get('opening')
  async get(@Tenant() companyId: number): Promise<OpeningBalancesReply> {
    const o = await this.openings.findOne({ companyId }).lean();
    if (!o) return { date: '', cash: '0.00', bank: '0.00', set: false, by: null, at: null };
    return { date: o.date, cash: two(o.cash), bank: two(o.bank), set: true, by: o.by, at: new Date(o.version).toISOString() };
  }

  /** Cash cannot be below 0; the bank may be (an overdraft). A new PUT replaces the last. */
  @Put('opening')
  async set(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Body() raw: unknown): Promise<OpeningBalancesReply> {
    const b = body(raw);
    const date = pastDate(b.date, 'opening date');
    const cash = rupees(b.cash, 'opening cash', 'zero');
    const bank = rupees(b.bank, 'opening bank balance', 'any');
    const fields = { date, cash, bank, by: { id: user.uid, name: user.name } };
    // Each write takes a version above the last (its event id, and "latest wins"): two PUTs at once
    // retry rather than share one, which JetStream would keep only once.
    for (;;) {
      const prev = await this.openings.findOne({ companyId }, { version: 1 }).lean();
      const version = Math.max(Date.now(), (prev?.version ?? 0) + 1);
      try {
        if (!prev) await this.openings.create({ companyId, ...fields, version, ...pendingEventFields() });
        else if ((await this.openings.updateOne({ companyId, version: prev.version }, { $set: { ...fields, version, ...pendingEventFields() } })).matchedCount !== 1) continue;
        break;
      } catch (err) {
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    }
    this.events.relay.kick('opening');
    return this.get(companyId);
  }
}
