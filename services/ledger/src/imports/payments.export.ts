import { Controller, Get, Query, Res } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { Response } from 'express';
import { PAY_MODE_LABELS, type PaymentLine } from '@bahi/contracts';
import { money, Positions, Tenant } from '@bahi/service-kit';
import { formatParam, sendTable, type Column } from '@bahi/tabular';
import { entryPayments, TYPE_LABELS } from '../accounts/accounts.service';
import { EntryDoc } from '../accounts/entry.schema';
import { CustomerDoc } from '../customers/customer.schema';
import { DistributorDoc } from '../distributors/distributor.schema';

type Row = { e: EntryDoc; p: PaymentLine; party: string; partyId: number; name: string };

/**
 * GET /export/payments?format=csv|xlsx: every tender of every entry that moved money (a bill's or
 * a purchase's paid part, payments received and given, a note's refund), one row per mode, with
 * who took or gave it; one party at a time (customers, then distributors), each oldest first, so
 * memory stays one account. For "Download all data"; managers, as distributors' accounts.
 */
@Controller()
export class PaymentsExportController {
  constructor(
    @InjectModel(EntryDoc.name) private readonly entries: Model<EntryDoc>,
    @InjectModel(CustomerDoc.name) private readonly customers: Model<CustomerDoc>,
    @InjectModel(DistributorDoc.name) private readonly distributors: Model<DistributorDoc>,
  ) {}

  @Get('export/payments')
  @Positions('manager')
  async payments(@Tenant() companyId: number, @Query() q: Record<string, unknown>, @Res() res: Response) {
    const format = formatParam(q.format);
    const entries = this.entries;
    const customers = this.customers.find({ companyId }, { client_id: 1, name: 1, walkIn: 1 }).sort({ client_id: 1 }).lean().cursor() as AsyncIterable<CustomerDoc>;
    const distributors = this.distributors.find({ companyId }, { distributor_id: 1, name: 1 }).sort({ distributor_id: 1 }).lean().cursor() as AsyncIterable<DistributorDoc>;
    async function* ofParty(kind: 'customer' | 'distributor', id: number, party: string, name: string): AsyncIterable<Row> {
      const cursor = entries.find({ companyId, partyKind: kind, partyId: id }).sort({ seq: 1 }).lean().cursor() as AsyncIterable<EntryDoc>;
      for await (const e of cursor) for (const p of entryPayments(e)) yield { e, p, party, partyId: id, name };
    }
    async function* rows(): AsyncIterable<Row> {
      // The walk-in customer holds the counter's cash bills: named as the bills name it.
      for await (const c of customers) yield* ofParty('customer', c.client_id, 'Customer', c.walkIn ? 'Unknown' : c.name);
      for await (const d of distributors) yield* ofParty('distributor', d.distributor_id, 'Distributor', d.name);
    }
    const columns: Column<Row>[] = [
      { header: 'Date', type: 'date', value: (r) => r.e.date },
      { header: 'Party', width: 12, value: (r) => r.party },
      { header: 'Party ID', type: 'number', value: (r) => r.partyId },
      { header: 'Name', width: 24, value: (r) => r.name },
      { header: 'Type', width: 22, value: (r) => (r.e.entryKind === 'reversal' ? `Reversal of ${r.e.sourceKind} ${r.e.sourceId}` : TYPE_LABELS[r.e.entryKind]) },
      { header: 'Ref', type: 'number', value: (r) => r.e.refId ?? r.e.sourceId },
      { header: 'Document no', width: 18, value: (r) => r.e.docNo ?? '' },
      { header: 'Mode', width: 14, value: (r) => PAY_MODE_LABELS[r.p.mode] ?? r.p.mode },
      { header: 'Amount', type: 'number', numFmt: '0.00', value: (r) => money(r.p.amount).toFixed(2) },
      { header: 'Reference', width: 18, value: (r) => r.p.ref ?? '' },
      // identity owns users' names and answers only its own lookups: Setting > Users maps the id.
      { header: 'By (user ID)', type: 'number', value: (r) => r.e.by ?? null },
    ];
    await sendTable(res, format, 'payments', columns, rows(), 'Payments');
  }
}
