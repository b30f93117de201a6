import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { OverdueClientRow, OverdueClientsReply } from '@bahi/contracts';
import { num } from '../accounts/accounts.service';
import { EntryDoc } from '../accounts/entry.schema';
import { PAGE_SIZE } from '../common';
import { CustomerDoc } from '../customers/customer.schema';
import { overdueAccounts } from './overdue';

/** The customer list's Overdue filter and when each customer was last reminded. */
@Injectable()
export class RemindersService {
  constructor(
    @InjectModel(CustomerDoc.name) private readonly customers: Model<CustomerDoc>,
    @InjectModel(EntryDoc.name) private readonly entries: Model<EntryDoc>,
  ) {}

  async overdue(companyId: number, pageNo: number, now = Date.now()): Promise<OverdueClientsReply> {
    const all = await this.overdueRows(companyId, now);
    return { clientsList: all.slice(pageNo * PAGE_SIZE, (pageNo + 1) * PAGE_SIZE), noOfPages: Math.ceil(all.length / PAGE_SIZE) };
  }

  /** Every overdue customer in the list's order (most days overdue first), for the list and its export. */
  async overdueRows(companyId: number, now = Date.now()): Promise<OverdueClientRow[]> {
    const entries = await this.entries
      .find({ companyId, partyKind: 'customer' }, { _id: 0, partyId: 1, seq: 1, delta: 1, dueDate: 1, entryKind: 1 })
      .lean();
    const named = new Map(
      (await this.customers.find({ companyId, walkIn: false }, { _id: 0, client_id: 1, name: 1, mobile_no: 1, city_or_district: 1, lastRemindedAt: 1 }).lean()).map((c) => [c.client_id, c]),
    );
    return overdueAccounts(entries, now)
      .filter((a) => named.has(a.partyId))
      .map((a) => {
        const c = named.get(a.partyId)!;
        return {
          id: c.client_id,
          name: c.name,
          mobile_no: c.mobile_no,
          city_or_district: c.city_or_district,
          due: num(a.due),
          due_date: a.dueDate,
          days_overdue: a.daysOverdue,
          last_reminded_at: c.lastRemindedAt ? new Date(c.lastRemindedAt).toISOString() : null,
        };
      });
  }

  /** Records a reminder sent now to each customer; every id must be a named customer of the company. */
  async reminded(companyId: number, clientIds: number[], at = new Date()): Promise<Date> {
    const ids = [...new Set(clientIds)];
    const found = await this.customers.find({ companyId, walkIn: false, client_id: { $in: ids } }, { _id: 0, client_id: 1 }).lean();
    const have = new Set(found.map((c) => c.client_id));
    const missing = ids.filter((id) => !have.has(id));
    if (missing.length) throw new NotFoundException(`Customer ${missing.join(', ')} was not found.`);
    await this.customers.updateMany({ companyId, client_id: { $in: ids } }, { $set: { lastRemindedAt: at } });
    return at;
  }
}
