import { BadRequestException, Controller, NotFoundException } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  Subjects,
  type Customer,
  type Distributor,
  type DistributorCheckoutReply,
  type EntryPostReply,
  type EntryReverseReply,
  type PartyDueReply,
  type SourceKind,
  PAY_MODES,
  PAY_REF_MAX,
  type PayMode,
} from '@bahi/contracts';
import { CompanyMsg, Money, parsePayments, PaymentsError, RpcDecimal, RpcId, RpcNested, RpcOneOf, RpcText } from '@bahi/service-kit';
import { AccountsService, SOURCE_ENTRY } from './accounts/accounts.service';
import { isCalendarDate, today } from './common';
import { CustomersService } from './customers/customers.service';
import { DistributorsService } from './distributors/distributors.service';

// Payloads are validated like HTTP bodies (service-kit rpc.ts): no string ids, no objects for scalars.
class CustomerLookupMsg extends CompanyMsg {
  /** 0 or null: the walk-in customer. */
  @RpcId({ min: 0, optional: true }) clientId!: number | null;
}
class DistributorLookupMsg extends CompanyMsg {
  @RpcId() distributorId!: number;
}
class PartyRefMsg {
  @RpcOneOf(['customer', 'distributor']) kind!: 'customer' | 'distributor';
  /** 0 for a customer: the walk-in customer. */
  @RpcId({ min: 0 }) id!: number;
}
const SOURCE_KINDS: readonly SourceKind[] = ['sale', 'purchase', 'credit-note', 'debit-note', 'sale-cancel'];
class SourceRefMsg {
  @RpcOneOf(SOURCE_KINDS) kind!: SourceKind;
  @RpcId() id!: number;
}
class GuardMsg {
  @RpcNested(() => SourceRefMsg) noPaymentAfter!: SourceRefMsg;
}
class PartyDueMsg extends CompanyMsg {
  @RpcNested(() => PartyRefMsg) party!: PartyRefMsg;
}
class PaymentLineMsg {
  @RpcOneOf(PAY_MODES) mode!: PayMode;
  @RpcDecimal() amount!: string;
  @RpcText(PAY_REF_MAX, { optional: true }) ref?: string;
}
class EntryPostMsg extends CompanyMsg {
  @RpcNested(() => PartyRefMsg) party!: PartyRefMsg;
  @RpcNested(() => SourceRefMsg) source!: SourceRefMsg;
  @RpcDecimal() amount!: string;
  @RpcDecimal() paid!: string;
  @RpcText(40, { optional: true }) dueDate?: string | null;
  @RpcText(40, { optional: true }) date?: string | null;
  @RpcText(40, { optional: true }) docNo?: string | null;
  @RpcNested(() => GuardMsg, { optional: true }) guard?: GuardMsg | null;
  /** How `paid` changed hands; absent: cash. */
  @RpcNested(() => PaymentLineMsg, { each: 10, optional: true }) payments?: PaymentLineMsg[] | null;
  /** Who took the money (user id). */
  @RpcId({ min: 1, optional: true }) by?: number | null;
}
class EntryReverseMsg extends CompanyMsg {
  @RpcNested(() => SourceRefMsg) source!: SourceRefMsg;
}

function nonNegative(value: string, name: string): string {
  if (!Money.isMoney(value)) throw new BadRequestException(`${name} must be a decimal string.`);
  if (Money.money(value).isNegative()) throw new BadRequestException(`${name} cannot be negative.`);
  return Money.toMoneyString(value);
}

function dateOr(value: string | null | undefined, fallback: string, name: string): string {
  if (value === undefined || value === null || value === '') return fallback;
  if (!isCalendarDate(value)) throw new BadRequestException(`${name} must be a date (YYYY-MM-DD).`);
  return value.slice(0, 10);
}

/** What the sales and purchase sides ask the ledger over NATS (contracts: Subjects.ledger). */
@Controller()
export class LedgerHandlers {
  constructor(
    private readonly customers: CustomersService,
    private readonly distributors: DistributorsService,
    private readonly accounts: AccountsService,
  ) {}

  @MessagePattern(Subjects.ledger.customerLookup)
  lookupCustomer(@Payload() msg: CustomerLookupMsg): Promise<Customer | null> {
    if (!msg.clientId) return this.customers.walkIn(msg.companyId);
    return this.customers.find(msg.companyId, msg.clientId);
  }

  @MessagePattern(Subjects.ledger.customerWalkIn)
  walkIn(@Payload() msg: CompanyMsg): Promise<Customer> {
    return this.customers.walkIn(msg.companyId);
  }

  /** Previous due for a bill: the walk-in customer's is always 0. */
  @MessagePattern(Subjects.ledger.partyDue)
  async partyDue(@Payload() msg: PartyDueMsg): Promise<PartyDueReply> {
    await this.party(msg.companyId, msg.party);
    if (msg.party.kind === 'customer' && (await this.isWalkIn(msg.companyId, msg.party.id))) return { due: '0', dueDate: null };
    const { due, dueDate } = await this.accounts.dueOf(msg.companyId, msg.party);
    return { due: Money.toMoneyString(due), dueDate };
  }

  @MessagePattern(Subjects.ledger.entryPost)
  async post(@Payload() msg: EntryPostMsg): Promise<EntryPostReply> {
    const expected = SOURCE_ENTRY[msg.source.kind].party;
    if (msg.party.kind !== expected) throw new BadRequestException(`A ${msg.source.kind} is posted to a ${expected}.`);
    const amount = nonNegative(msg.amount, 'amount');
    const paid = nonNegative(msg.paid, 'paid');
    const date = dateOr(msg.date, today(), 'date');
    // A sale or purchase sets the next due date (default: its date); a note or cancellation only when given.
    const raises = msg.source.kind === 'sale' || msg.source.kind === 'purchase';
    const dueDate = raises ? dateOr(msg.dueDate, date, 'dueDate') : msg.dueDate ? dateOr(msg.dueDate, date, 'dueDate') : null;
    if (msg.guard && msg.source.kind !== 'sale-cancel') throw new BadRequestException('guard is only for a sale-cancel.');
    if (msg.guard && SOURCE_ENTRY[msg.guard.noPaymentAfter.kind].party !== msg.party.kind) {
      throw new BadRequestException(`guard.noPaymentAfter must be a source of the same ${msg.party.kind}.`);
    }
    await this.party(msg.companyId, msg.party);
    const docNo = msg.docNo ? msg.docNo.trim() || null : null;
    let payments;
    try {
      payments = parsePayments(msg.payments, paid, 'paid');
    } catch (err) {
      if (err instanceof PaymentsError) throw new BadRequestException(err.message);
      throw err;
    }
    const posted = await this.accounts.post({ companyId: msg.companyId, party: msg.party, source: msg.source, amount, paid, date, dueDate, docNo, guard: msg.guard ?? null, payments, by: msg.by ?? null });
    return { posted };
  }

  @MessagePattern(Subjects.ledger.entryReverse)
  async reverse(@Payload() msg: EntryReverseMsg): Promise<EntryReverseReply> {
    return { reversed: await this.accounts.reverse(msg.companyId, msg.source) };
  }

  @MessagePattern(Subjects.ledger.distributorCheckout)
  async checkout(@Payload() msg: CompanyMsg): Promise<DistributorCheckoutReply> {
    const all = await this.distributors.all(msg.companyId);
    return {
      // Kept to the spec's pair: inventory passes this reply to GET /checkOutPurchase as is. A purchase
      // freezes the distributor's GSTIN and state from ledger.distributor.lookup, which it already asks.
      distributors: all.map((d) => ({ distributor_id: d.distributor_id, name: d.name })),
      officers: all.flatMap((d) => d.officers),
    };
  }

  @MessagePattern(Subjects.ledger.distributorLookup)
  lookupDistributor(@Payload() msg: DistributorLookupMsg): Promise<Distributor | null> {
    return this.distributors.find(msg.companyId, msg.distributorId);
  }

  private async isWalkIn(companyId: number, id: number): Promise<boolean> {
    if (id === 0) return true;
    return (await this.customers.find(companyId, id))?.walkIn === true;
  }

  /** 404 when the party is not one of the company's (id 0 of a customer means the walk-in). */
  private async party(companyId: number, party: PartyRefMsg): Promise<void> {
    if (party.kind === 'customer') {
      if (party.id === 0) {
        party.id = (await this.customers.walkIn(companyId)).client_id;
        return;
      }
      if (this.customers.isKnownWalkIn(companyId, party.id)) return;
      if (!(await this.customers.find(companyId, party.id))) throw new NotFoundException(`Customer ${party.id} not found.`);
    } else if (!(await this.distributors.find(companyId, party.id))) {
      throw new NotFoundException(`Distributor ${party.id} not found.`);
    }
  }
}
