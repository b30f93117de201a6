import { Controller, NotFoundException } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Subjects, type CustomerStatement, type HistoryRow, type PaymentDocument, type ReceiptDocument } from '@bahi/contracts';
import { CompanyMsg, Money, RpcId } from '@bahi/service-kit';
import { AccountsService, entryPayments, num } from '../accounts/accounts.service';
import { CustomersService } from '../customers/customers.service';

class ReceiptMsg extends CompanyMsg {
  @RpcId() paymentId!: number;
}
class StatementMsg extends CompanyMsg {
  @RpcId() clientId!: number;
  @RpcId({ optional: true }) maxRows?: number;
}

/** What the documents service prints from the ledger: money receipts and customer statements. */
@Controller()
export class DocumentsHandlers {
  constructor(
    private readonly customers: CustomersService,
    private readonly accounts: AccountsService,
  ) {}

  /** The same receipt as GET /getSalesPaymentDetails; null for an unknown payment or one of another company. */
  @MessagePattern(Subjects.documents.receiptDocument)
  async receipt(@Payload() msg: ReceiptMsg): Promise<ReceiptDocument | null> {
    const found = await this.accounts.receipt(msg.companyId, msg.paymentId).catch((e) => {
      if (e instanceof NotFoundException) return null;
      throw e;
    });
    if (!found || found.entry.partyKind !== 'customer') return null;
    const { entry, previous, after } = found;
    const c = await this.customers.find(msg.companyId, entry.partyId);
    if (!c) return null;
    return {
      id: entry.sourceId,
      client_id: c.client_id,
      name: c.name,
      mobile_no: c.mobile_no,
      address: [c.address_line_1, c.address_line_2, c.city_or_district, c.state, c.postal_code].filter(Boolean).join(', '),
      type: entry.payType || 'Cash',
      transaction_id: entry.transactionId || '',
      amount: num(entry.amount),
      date: entry.date,
      next_due_date: entry.dueDate,
      previous_due: num(previous),
      due: num(after),
      payments: entryPayments(entry),
    };
  }

  /** The Tally export (reports): a payment received or given, with its tenders; null when unknown. */
  @MessagePattern(Subjects.tally.paymentDocument)
  async payment(@Payload() msg: ReceiptMsg): Promise<PaymentDocument | null> {
    const e = await this.accounts.model
      .findOne({ companyId: msg.companyId, sourceKind: 'payment', sourceId: msg.paymentId, entryKind: { $in: ['payment_received', 'payment_given'] } })
      .lean();
    if (!e) return null;
    return { paymentId: e.sourceId, partyKind: e.partyKind, partyId: e.partyId, date: e.date, amount: Money.toMoneyString(e.amount), payments: entryPayments(e) };
  }

  /** A customer's whole account, oldest first, with the rows the ledger screen shows. */
  @MessagePattern(Subjects.documents.customerStatement)
  async statement(@Payload() msg: StatementMsg): Promise<CustomerStatement | null> {
    const c = await this.customers.find(msg.companyId, msg.clientId);
    if (!c || c.walkIn) return null;
    const party = { kind: 'customer' as const, id: c.client_id };
    const { due, dueDate } = await this.accounts.dueOf(msg.companyId, party);
    // Counted first: an account longer than documents prints is not read (nor sent) at all.
    const entries = await this.accounts.entryCount(msg.companyId, party);
    if (msg.maxRows !== undefined && entries > msg.maxRows) return { customer: c, rows: [], entries, due: Money.toMoneyString(due), dueDate };
    // One read of the account: the rows the ledger screen pages through, oldest first.
    const rows: HistoryRow[] = await this.accounts.allRows(msg.companyId, party);
    return { customer: c, rows, entries: rows.length, due: Money.toMoneyString(due), dueDate };
  }
}
